"""Issue 26, items 1, 5, 6, 7 (deliver 1): what one client address can make the server hold is
bounded, with a clear 429/503 or close code. The long measurements (memory after 10,000 creates,
unread replay answers) are in test_bounds_memory.py (slow)."""

from __future__ import annotations

import asyncio
import json
import time

import httpx
import pytest
from fastapi.testclient import TestClient

from trapworks.server import create_app
from trapworks.server import limits as limits_module
from trapworks.server import outbox as outbox_module
from trapworks.server.bounds import CLOSE_IDLE, Bounds
from trapworks.server.eviction import Evictor
from trapworks.server.limits import uvicorn_settings

from .conftest import create_game
from .test_reliability import masked_text_frame, raw_socket_client
from .test_social_api import answer, public_game
from .web_helpers import serve_in_thread, wait_for


def serve(tmp_path, bounds: Bounds):
    """The app under uvicorn (with the limits' protocols) in a thread; (base URL, app, stop)."""
    app = create_app(f"sqlite:///{tmp_path / 'b.sqlite'}", data_dir=tmp_path, bounds=bounds)
    base, stop = serve_in_thread(app, **uvicorn_settings())
    return base, app, stop


def tcp_state(server_port: int, client_port: int) -> str | None:
    """The server end's TCP state of one connection (from /proc/net/tcp), None when it is gone."""
    for line in open("/proc/net/tcp").read().splitlines()[1:]:
        fields = line.split()
        local, remote, state = fields[1], fields[2], fields[3]
        if int(local.split(":")[1], 16) == server_port and int(remote.split(":")[1], 16) == client_port:
            return {"01": "ESTABLISHED", "06": "TIME_WAIT", "07": "CLOSE", "08": "CLOSE_WAIT"}.get(
                state, state
            )
    return None


# --- sockets ---------------------------------------------------------------------------------------
def test_sockets_are_bounded_per_address_and_in_total_with_a_clear_status(tmp_path):
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    for bounds, refused_with in (
        (Bounds(sockets_per_address=3, sockets_total=100), (429, "too_many_sockets")),
        (Bounds(sockets_per_address=100, sockets_total=3), (503, "server_full")),
    ):
        folder = tmp_path / str(refused_with[0])
        folder.mkdir()
        base, _app, stop = serve(folder, bounds)
        try:
            g = httpx.post(base + "/api/games", json={"game": "last-mouse-lost"}).json()
            url = base.replace("http", "ws") + f"/ws/games/{g['id']}?token={g['spectator']['token']}"

            async def run(url=url):
                opened = [await connect(url) for _ in range(3)]
                for ws in opened:
                    await ws.recv()
                try:
                    await connect(url)
                    refused = None
                except InvalidStatus as e:
                    refused = (e.response.status_code, json.loads(e.response.body)["code"])
                await opened[0].close()
                deadline = time.monotonic() + 10
                while True:  # a closed socket gives its place back (once its handler has ended)
                    try:
                        again = await connect(url)
                        break
                    except InvalidStatus:
                        assert time.monotonic() < deadline, "the closed socket's place never came back"
                        await asyncio.sleep(0.1)
                hello = await again.recv()
                for ws in [*opened[1:], again]:
                    await ws.close()
                return refused, hello

            refused, hello = asyncio.run(run())
            assert refused == refused_with
            assert '"type":"hello"' in hello
        finally:
            stop()


def test_an_idle_socket_is_closed_with_4408(tmp_path):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    base, _app, stop = serve(tmp_path, Bounds(socket_idle_s=1.0))
    try:
        g = httpx.post(base + "/api/games", json={"game": "last-mouse-lost"}).json()
        url = base.replace("http", "ws") + f"/ws/games/{g['id']}?token={g['spectator']['token']}"
        with connect(url) as talker, connect(url) as idle:
            started = time.monotonic()
            while time.monotonic() - started < 2.5:  # one keeps talking: it stays open
                talker.send(json.dumps({"type": "ping"}))
                time.sleep(0.3)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    idle.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_IDLE
            talker.send(json.dumps({"type": "ping", "ref": 1}))
            while '"ref":1' not in talker.recv(timeout=5):
                pass  # the earlier pings' pongs
    finally:
        stop()


def test_a_socket_dropped_for_not_reading_is_really_closed(tmp_path, monkeypatch):
    """Dropped with 4008, its close frame cannot get through a client that does not read: the
    connection is aborted after the grace time, not left ESTABLISHED with its buffers."""
    monkeypatch.setattr(outbox_module, "OUTBOX_FRAMES", 16)
    monkeypatch.setattr(outbox_module, "SEND_TIMEOUT_S", 1.0)
    monkeypatch.setattr(limits_module, "CLOSE_GRACE_S", 1.0)
    base, app, stop = serve(tmp_path, Bounds())
    try:
        g = httpx.post(base + "/api/games", json={"game": "mouse-trap", "options": {"players": 2}}).json()
        stalled = raw_socket_client(base, f"/ws/games/{g['id']}?token={g['spectator']['token']}")
        server_port = int(base.rsplit(":", 1)[1])
        client_port = stalled.getsockname()[1]
        wait_for(lambda: tcp_state(server_port, client_port) == "ESTABLISHED", what="the socket open")
        stalled.sendall(masked_text_frame(json.dumps({"type": "sync"})) * 3000)
        live = app.state.service.get(g["id"])
        wait_for(lambda: not live.connections, timeout=30, what="the drop")
        # Old servers: ESTABLISHED for as long as the client stays (the issue: 20 of 20 after 90 s).
        # (40 s: the close handshake's own timeout and a loaded machine come before the abort.)
        wait_for(
            lambda: tcp_state(server_port, client_port) in (None, "CLOSE", "TIME_WAIT"),
            timeout=40,
            what=f"the dropped connection closed (state {tcp_state(server_port, client_port)})",
        )
        stalled.close()
    finally:
        stop()


# --- games, tables, joins -------------------------------------------------------------------------
def test_games_created_per_address_are_bounded_per_hour(db_url):
    with TestClient(create_app(db_url, bounds=Bounds(games_per_hour=5))) as c:
        for _ in range(5):
            create_game(c)
        r = c.post("/api/games", json={"game": "last-mouse-lost"})
        assert r.status_code == 429 and r.json()["code"] == "too_many_games"
        assert 3000 < int(r.headers["retry-after"]) <= 3601
        # A refused creation costs nothing; another address is not held up.
        bad = c.post("/api/games", json={"game": "no-such-game"})
        assert bad.status_code == 429
    with TestClient(create_app(db_url, bounds=Bounds(games_per_hour=2))) as c:
        assert c.post("/api/games", json={"game": "no-such-game"}).status_code == 404
        create_game(c)
        create_game(c)  # the refused one above did not count
        assert c.post("/api/games", json={"game": "last-mouse-lost"}).status_code == 429


def test_open_tables_are_bounded_per_address_and_a_filled_one_frees_its_place(db_url):
    with TestClient(create_app(db_url, bounds=Bounds(open_tables_per_address=2))) as c:
        first = public_game(c)
        public_game(c)
        r = c.post(
            "/api/games",
            json={"game": "last-mouse-lost", "public": True, "seats": [{"kind": "human"}] * 2},
        )
        assert r.status_code == 429 and r.json()["code"] == "too_many_tables"
        create_game(c)  # a private game is not a table
        assert c.post(f"/api/tables/{first['id']}/join", json={}).status_code == 200
        public_game(c)  # the filled table left the count


def test_seats_taken_per_address_are_bounded(db_url):
    with TestClient(create_app(db_url, bounds=Bounds(joins_per_minute=3))) as c:
        tables = [
            public_game(
                c,
                game="mouse-trap",
                options={"players": 4},
                seats=[{"kind": "human"}] + [{"kind": "human", "invite": True}] * 3,
            )
            for _ in range(2)
        ]
        assert c.post("/api/tables/nope/join", json={}).status_code == 404  # refusals are free
        for _ in range(3):
            assert c.post(f"/api/tables/{tables[0]['id']}/join", json={}).status_code == 200
        r = c.post(f"/api/tables/{tables[1]['id']}/join", json={})
        assert r.status_code == 429 and r.json()["code"] == "too_many_joins"


def test_the_lobby_lists_the_oldest_tables_first_so_junk_cannot_push_a_real_one_off(db_url, monkeypatch):
    # The flood pacing (issue 40) is tested on its own; here 20 addresses within their own bounds
    # fill the lobby at test speed, so the pacing is off.
    import trapworks.server.bounds as bounds_module

    monkeypatch.setattr(bounds_module, "GAME_BURST", None)
    app = create_app(db_url)
    with TestClient(app, client=("10.0.0.1", 5000)) as real:
        mine = public_game(real)
    for a in range(20):  # 60 newer tables from 20 addresses (3 each, the bound)
        with TestClient(app, client=(f"10.0.1.{a}", 5000)) as junk:
            for _ in range(3):
                public_game(junk)
    with TestClient(app) as c:
        listed = [t["id"] for t in c.get("/api/tables").json()["tables"]]
    assert listed[0] == mine["id"]


# --- chat -------------------------------------------------------------------------------------------
def test_spectator_chat_is_limited_per_spectator_link_not_per_connection(client):
    g = create_game(client, spectator_chat=True)
    url = f"/ws/games/{g['id']}?token={g['spectator']['token']}"
    answers = []
    for round_ in range(3):  # reconnecting after every few lines buys no new allowance
        with client.websocket_connect(url) as ws:
            for i in range(3):
                ref = round_ * 10 + i
                ws.send_json({"type": "chat", "text": f"line {ref}", "ref": ref})
                answers.append(answer(ws, ref))
    kinds = [a["type"] for a in answers]
    assert kinds[:5] == ["ack"] * 5
    assert "error" in kinds[5:] and all(
        a["code"] == "chat_rate_limited" for a in answers if a["type"] == "error"
    )


# --- games in memory ---------------------------------------------------------------------------------
def test_idle_games_are_evicted_to_the_store_and_reloaded_on_demand(client):
    service = client.app.state.service
    evictor = Evictor(service, idle_s=0.0, max_games=1000)
    g = create_game(client)
    token = g["seats"][0]["token"]
    assert client.post(
        f"/api/games/{g['id']}/moves", json={"token": token, "action": "a1", "ply": 0}
    ).is_success
    with client.websocket_connect(f"/ws/games/{g['id']}?token={g['spectator']['token']}") as ws:
        ws.receive_json()
        evictor.sweep()
        evictor.sweep()
        assert g["id"] in service.live  # a game with a socket stays
    wait_for(lambda: not service.live[g["id"]].connections, what="the socket gone")
    wait_for(lambda: evictor.sweep() >= 0 and g["id"] not in service.live, timeout=5, what="the eviction")
    assert evictor.evicted == 1
    s = client.get(f"/api/games/{g['id']}", params={"token": token}).json()["state"]
    assert s["ply"] == 1  # reloaded from the store, as it was
    other = g["seats"][1]["token"]
    move = client.post(
        f"/api/games/{g['id']}/moves",
        json={"token": other, "action": s["view"]["legal_actions"][0]["text"], "ply": 1},
    )
    assert move.status_code == 200 and move.json()["ply"] == 2


def test_games_in_memory_are_bounded_even_before_they_are_idle(client):
    service = client.app.state.service
    evictor = Evictor(service, idle_s=3600.0, max_games=3)
    for _ in range(8):
        create_game(client)
    evictor.sweep()
    evictor.sweep()
    assert len(service.live) == 3


# --- replays ---------------------------------------------------------------------------------------
def test_a_replay_answer_over_its_bound_is_413_and_past_the_bytes_in_flight_503(db_url):
    record = {"game": "last-mouse-lost", "actions": ["a1", "b1", "c1"]}
    with TestClient(create_app(db_url, bounds=Bounds(replay_answer_max=2_000))) as c:
        r = c.post("/api/replay", json={"record": record})
        assert r.status_code == 413 and r.json()["code"] == "replay_too_large"
        small = c.post("/api/replay", json={"record": {"game": "last-mouse-lost", "actions": []}})
        assert small.status_code == 413  # even the start's views are over 2,000 bytes
    with TestClient(create_app(db_url, bounds=Bounds(replay_bytes_in_flight=1_000))) as c:
        r = c.post("/api/replay", json={"record": record})
        assert r.status_code == 503 and r.json()["code"] == "busy"
    with TestClient(create_app(db_url)) as c:
        r = c.post("/api/replay", json={"record": record})
        assert r.status_code == 200 and len(r.json()["steps"]) == 4
