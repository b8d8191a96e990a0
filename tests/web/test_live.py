"""Live play over WebSockets: views per seat, two tabs on one seat, bad messages, simultaneous moves."""

import asyncio
import json

import httpx
import pytest

import trapworks
from trapworks.server import create_app
from trapworks.server.store import PlyTaken, Store

from .conftest import create_game


def receive_state(ws):
    return receive(ws, "state")


def receive(ws, kind):
    """The next message of this kind. A frame holds one message or a list of them; the messages
    after the one wanted wait on the socket object for the next call."""
    if not hasattr(ws, "pending_messages"):
        ws.pending_messages = []
    pending = ws.pending_messages
    while True:
        if not pending:
            data = ws.receive_json()
            pending.extend(data if isinstance(data, list) else [data])
        msg = pending.pop(0)
        if msg["type"] == kind:
            return msg


def test_socket_sends_hello_then_the_seats_view_and_each_move_to_both_seats(client):
    g = create_game(client, options={"first_to": 1})
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    with (
        client.websocket_connect(f"/ws/games/{gid}?token={t0}") as a,
        client.websocket_connect(f"/ws/games/{gid}?token={t1}") as b,
    ):
        hello = a.receive_json()
        assert hello["type"] == "hello" and hello["info"]["seat"] == 0
        first = receive_state(a)
        assert first["sync"] and first["ply"] == 0 and first["to_move"] == 0
        receive_state(b)
        a.send_text(json.dumps({"type": "move", "action": "c2", "ply": 0, "ref": 1}))
        # Player 1's own socket: the new state then the ack; player 2's socket: the new state.
        mine = receive_state(a)
        assert receive(a, "ack") == {"type": "ack", "ref": 1, "ply": 1}
        theirs = receive_state(b)
        ref = trapworks.make("last-mouse-lost", first_to=1).new_initial_state()
        ref.apply_action(ref.string_to_action("c2"))
        assert mine["view"] == ref.view(0) and theirs["view"] == ref.view(1)
        assert theirs["last_action"] == {
            "ply": 0,
            "seat": 0,
            "text": "c2",
            "story": {
                "seat": 0,
                "lines": [{"msg": "last_mouse_lost.pressed", "args": {"who": 0, "n": 2, "row": "c"}}],
            },
        }
        assert theirs["to_move"] == 1


def test_two_tabs_on_one_seat_stay_consistent(client):
    g = create_game(client)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    with (
        client.websocket_connect(f"/ws/games/{gid}?token={t0}") as tab1,
        client.websocket_connect(f"/ws/games/{gid}?token={t0}") as tab2,
        client.websocket_connect(f"/ws/games/{gid}?token={t1}") as other,
    ):
        for ws in (tab1, tab2, other):
            receive_state(ws)
        tab1.send_text(json.dumps({"type": "move", "action": "a1", "ply": 0, "ref": "x"}))
        s1, s2 = receive_state(tab1), receive_state(tab2)
        assert s1 == s2 and s1["ply"] == 1
        receive_state(other)
        # The second tab still thinks ply 0: its move is refused as stale, and it is re-synced.
        tab2.send_text(json.dumps({"type": "move", "action": "b1", "ply": 0, "ref": "y"}))
        err = receive(tab2, "error")
        assert err["ref"] == "y" and err["code"] == "stale"
        assert receive_state(tab2)["ply"] == 1


def test_bad_socket_messages_get_error_messages_and_the_socket_stays_open(client):
    g = create_game(client)
    gid, t0 = g["id"], g["seats"][0]["token"]
    with client.websocket_connect(f"/ws/games/{gid}?token={t0}") as ws:
        receive_state(ws)
        ws.send_text("{not json")
        assert "not valid JSON" in receive(ws, "error")["message"]
        ws.send_text("[1, 2]")
        assert "JSON object" in receive(ws, "error")["message"]
        ws.send_text(json.dumps({"type": "dance"}))
        assert "unknown message type 'dance'" in receive(ws, "error")["message"]
        ws.send_text(json.dumps({"type": "move", "action": 42}))
        assert receive(ws, "error")["code"] == "bad_action"
        ws.send_text(json.dumps({"type": "move", "action": "a9", "ref": 2}))
        assert receive(ws, "error")["code"] == "missing_ply"  # a move always names its ply
        ws.send_text(json.dumps({"type": "move", "action": "a9", "ply": 0, "ref": 3}))
        err = receive(ws, "error")
        assert err["ref"] == 3 and err["code"] == "illegal_move" and "cannot press 9" in err["message"]
        ws.send_text(json.dumps({"type": "ping", "ref": 4}))
        assert receive(ws, "pong")["ref"] == 4


@pytest.mark.parametrize("token,code", [("", "missing_token"), ("wrong", "wrong_token")])
def test_socket_with_missing_or_wrong_token_gets_an_error_and_is_closed(client, token, code):
    g = create_game(client)
    with client.websocket_connect(f"/ws/games/{g['id']}?token={token}") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == code and msg["fatal"]


def test_socket_to_unknown_game_gets_an_error(client):
    with client.websocket_connect("/ws/games/nope?token=x") as ws:
        msg = ws.receive_json()
        assert msg["code"] == "no_such_game"


def test_each_seat_receives_only_its_own_view_in_a_game_with_secrets(client):
    """The server sends seat i exactly state.view(i): never another seat's hand."""
    g = create_game(client, game="dead-end-drive", seats=[{"kind": "human"}] * 4)
    gid = g["id"]
    service = client.app.state.service
    live = service.get(gid)
    snaps = []
    for seat in range(4):
        with client.websocket_connect(f"/ws/games/{gid}?token={g['seats'][seat]['token']}") as ws:
            snaps.append(receive_state(ws))
    for seat, snap in enumerate(snaps):
        assert snap["view"] == json.loads(json.dumps(live.state.view(seat)))
    assert len({json.dumps(s["view"], sort_keys=True) for s in snaps}) == 4
    # Chance outcomes may be secret in such a game: their text is not in the log sent to seats.
    assert all(e["text"] is None for e in snaps[0]["log"] if e["seat"] != 0)
    r = client.get(f"/api/games/{gid}/record", params={"token": g["seats"][0]["token"]})
    assert r.status_code == 403 and "once the game is over" in r.json()["error"]


async def _simultaneous(db_url, via):
    app = create_app(db_url)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        r = await c.post("/api/games", json={"game": "last-mouse-lost", "seats": [{"kind": "human"}] * 2})
        g = r.json()
        tok = g["seats"][0]["token"]
        moves = [{"token": tok, "action": a, **via} for a in ("a1", "b2", "c3", "d4")]
        replies = await asyncio.gather(*[c.post(f"/api/games/{g['id']}/moves", json=m) for m in moves])
        state = (await c.get(f"/api/games/{g['id']}", params={"token": tok})).json()["state"]
    return [r.status_code for r in replies], [r.json() for r in replies], state


def test_simultaneous_moves_on_one_seat_exactly_one_is_accepted(db_url):
    codes, bodies, state = asyncio.run(_simultaneous(db_url, {"ply": 0}))
    assert sorted(codes) == [200, 409, 409, 409], bodies
    assert state["ply"] == 1 and len(state["log"]) == 1
    refused = [b["code"] for b in bodies if not b.get("ok")]
    assert set(refused) <= {"stale", "not_your_turn"}
    store = Store(db_url)
    stored = store.load_game(state["id"])
    assert len(stored.actions) == 1
    store.close()


def test_the_store_refuses_a_second_action_at_the_same_ply(db_url):
    """Two server processes on one database: the unique (game, ply) pair keeps one of two writes."""
    from trapworks.server.store import StoredGame

    store = Store(db_url)
    store.create_game(
        StoredGame(
            id="g1",
            game="last-mouse-lost",
            options={},
            seed=1,
            start=None,
            seats=[],
            spectator_token="s",
            hints=False,
            created="",
        )
    )
    store.append_actions("g1", 0, [(0, "a1")])
    with pytest.raises(PlyTaken):
        store.append_actions("g1", 0, [(0, "b1")])
    assert store.load_game("g1").actions == [(0, "a1")]
    store.close()


def test_a_group_commit_with_one_taken_ply_fails_only_that_write(db_url):
    check_group_commit_with_a_taken_ply(db_url)


def check_group_commit_with_a_taken_ply(url):
    """Writes made in one turn of the event loop share a transaction; a clash (another server
    process stored that ply) must not take the other games' moves down with it."""
    import secrets

    from trapworks.server.store import StoredGame

    store = Store(url)
    g1, g2, g3 = (secrets.token_hex(6) for _ in range(3))  # fresh ids: the database may be shared
    for gid in (g1, g2, g3):
        store.create_game(
            StoredGame(
                id=gid,
                game="last-mouse-lost",
                options={},
                seed=1,
                start=None,
                seats=[],
                spectator_token="s",
                hints=False,
                created="",
            )
        )
    store.append_actions(g2, 0, [(0, "a1")])  # "another process" took g2's ply 0

    async def same_turn():
        writes = [
            store.append_actions_soon(g1, 0, [(0, "c2"), (1, "d1")]),
            store.append_actions_soon(g2, 0, [(0, "b1")]),
            store.append_actions_soon(g3, 0, [(0, "e3")]),
        ]
        return await asyncio.gather(*writes, return_exceptions=True)

    results = asyncio.run(same_turn())
    assert results[0] is None and results[2] is None and isinstance(results[1], PlyTaken)
    assert store.load_game(g1).actions == [(0, "c2"), (1, "d1")]
    assert store.load_game(g2).actions == [(0, "a1")]
    assert store.load_game(g3).actions == [(0, "e3")]
    store.close()


def test_simultaneous_moves_from_two_sockets_on_a_real_server(tmp_path):
    """Two tabs of one seat send a move at the same instant to `trapworks serve`: one ack, one error."""
    from websockets.asyncio.client import connect

    from .web_helpers import ServerProcess

    server = ServerProcess(tmp_path / "home").start()
    try:
        g = httpx.post(
            f"{server.url}/api/games", json={"game": "last-mouse-lost", "seats": [{"kind": "human"}] * 2}
        ).json()
        url = f"ws://127.0.0.1:{server.port}/ws/games/{g['id']}?token={g['seats'][0]['token']}"

        async def play():
            async with connect(url) as a, connect(url) as b:

                async def answer(ws, action):
                    await ws.send(json.dumps({"type": "move", "action": action, "ply": 0, "ref": action}))
                    while True:
                        data = json.loads(await ws.recv())
                        for msg in data if isinstance(data, list) else [data]:
                            if msg.get("ref") == action:
                                return msg

                return await asyncio.gather(answer(a, "a1"), answer(b, "b2"))

        replies = asyncio.run(play())
        assert sorted(r["type"] for r in replies) == ["ack", "error"]
        assert [r for r in replies if r["type"] == "error"][0]["code"] in ("stale", "not_your_turn")
        log = httpx.get(f"{server.url}/api/games/{g['id']}", params={"token": g["spectator"]["token"]}).json()
        assert len(log["state"]["log"]) == 1
    finally:
        server.stop()


def test_a_move_against_a_quick_agent_comes_back_in_one_frame_in_order(client):
    """The mover's frame: the update after its move, the update after the agent's reply, the ack."""
    g = create_game(client, seats=[{"kind": "human"}, {"kind": "agent", "agent": "random"}], seed=3)
    gid, t0 = g["id"], g["seats"][0]["token"]
    service = client.app.state.service
    with client.websocket_connect(f"/ws/games/{gid}?token={t0}") as ws:
        receive_state(ws)
        for ref in range(1, 4):  # random is a quick agent (Agent.quick): it answers inside the move
            live = service.get(gid)
            ply = live.ply()
            action = live.state.action_to_string(live.state.legal_actions()[0])
            ws.send_text(json.dumps({"type": "move", "action": action, "ply": ply, "ref": ref}))
            frame = ws.receive_json()
            assert isinstance(frame, list), frame
            assert [m["type"] for m in frame] == ["state", "state", "ack"]
            assert [m["ply"] for m in frame] == [ply + 1, ply + 2, ply + 1]
            assert frame[0]["last_action"]["seat"] == 0 and frame[1]["last_action"]["seat"] == 1
            assert frame[2]["ref"] == ref
            assert service.store.load_game(gid).actions == live.log  # both stored before the ack


def test_a_finished_game_leaves_memory_when_its_last_socket_closes_and_loads_again(client):
    g = create_game(client, options={"first_to": 1, "board": [1]})
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    service = client.app.state.service
    with client.websocket_connect(f"/ws/games/{gid}?token={t0}") as ws:
        receive_state(ws)
        ws.send_text(json.dumps({"type": "move", "action": "a1", "ply": 0, "ref": 1}))
        assert receive(ws, "ack")["ply"] == 1
        with client.websocket_connect(f"/ws/games/{gid}?token={t1}") as other:
            assert receive_state(other)["terminal"]
        assert gid in service.live  # one socket still open
    assert gid not in service.live
    again = client.get(f"/api/games/{gid}", params={"token": t1}).json()
    assert again["state"]["terminal"] and again["state"]["ply"] == 1
