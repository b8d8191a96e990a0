"""Several `trapworks serve` processes on one PostgreSQL database are one service (issue 24).

Two real nodes (subprocesses) on a fresh schema; seats and spectators on different nodes. Every
change made through one node reaches the sockets of the other within CROSS_NODE_S (the issue's
one second), in order; a node never answers an old ply as current; timers fire once.
Needs TRAPWORKS_TEST_POSTGRES_URL (scripts/test.sh sets it up).
"""

from __future__ import annotations

import asyncio
import contextlib

import httpx
import pytest

from trapworks.server import schema

from .cluster_helpers import (
    CROSS_NODE_S,
    PG_URL,
    Sock,
    fresh_schema,
    redis_server,
    start_nodes,
    stop_nodes,
)

pytestmark = pytest.mark.skipif(not PG_URL, reason="set TRAPWORKS_TEST_POSTGRES_URL to test a cluster")


@pytest.fixture(scope="module", params=["postgres", "redis"])
def two_nodes(request, tmp_path_factory):
    """Two nodes on a fresh schema, told of each other's changes by PostgreSQL's LISTEN/NOTIFY
    (the default) or by a real Debian redis-server."""
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(fresh_schema())
        bus = stack.enter_context(redis_server()) if request.param == "redis" else None
        nodes = start_nodes(tmp_path_factory.mktemp("cluster"), url, 2, bus=bus)
        stack.callback(stop_nodes, nodes)
        yield url, nodes


def create(base: str, game: str = "last-mouse-lost", **body) -> dict:
    body.setdefault("seats", [{"kind": "human"}, {"kind": "human"}])
    r = httpx.post(f"{base}/api/games", json={"game": game, **body}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def state_of(base: str, gid: str, token: str) -> dict:
    r = httpx.get(f"{base}/api/games/{gid}", params={"token": token}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["state"]


def test_both_nodes_run_the_cluster_bus_on_the_newest_schema(two_nodes):
    _url, (a, b) = two_nodes
    infos = [httpx.get(f"{n.url}/api/node").json() for n in (a, b)]
    assert infos[0]["bus"] == infos[1]["bus"] and infos[0]["bus"] in ("postgres", "redis")
    assert infos[0]["node"] != infos[1]["node"]
    assert infos[0]["schema"] == infos[1]["schema"] == schema.head()  # the newest migration


def test_moves_and_chance_reach_seats_and_spectators_on_the_other_node_in_order(two_nodes):
    """Mouse Trap: a seat's roll is followed by chance's die; the other node's seat and spectator
    get every step (the seat's roll, then the die) in order, and the GET on that node agrees."""
    _url, (a, b) = two_nodes
    g = create(a.url, "mouse-trap")
    gid, t0, t1, spec = g["id"], g["seats"][0]["token"], g["seats"][1]["token"], g["spectator"]["token"]

    async def play() -> None:
        async with (
            Sock(a.url, gid, t0) as s0,
            Sock(b.url, gid, t1) as s1,
            Sock(b.url, gid, spec) as watcher_b,
            Sock(a.url, gid, spec) as watcher_a,
        ):
            for s in (s0, s1, watcher_b, watcher_a):
                await s.wait(lambda m: m["type"] == "state" and m.get("sync"), 10, "the first state")
            ply = 0
            for turn in range(6):
                now = await s0.wait(lambda m, p=ply: m["type"] == "state" and m["ply"] == p, 10, f"ply {ply}")
                if now["to_move"] not in (0, 1):
                    break
                me, them = (s0, s1) if now["to_move"] == 0 else (s1, s0)
                mine = await me.wait(
                    lambda m, p=ply: m["type"] == "state" and m["ply"] == p, 10, f"ply {ply}"
                )
                actions = mine["view"]["legal_actions"]
                await me.send({"type": "move", "action": actions[0]["text"], "ply": ply, "ref": turn})
                ack = await me.wait(lambda m, r=turn: m.get("ref") == r, 10, "the answer")
                assert ack["type"] == "ack", ack
                # The ack comes in the frame with every step it caused (chance's die after a roll).
                new_ply = max(ack["ply"], *me.state_plies())
                # Everyone, on either node, hears every ply up to the acknowledged one within a second.
                for s in (them, watcher_b, watcher_a):
                    await s.wait(lambda m, p=new_ply: m["type"] == "state" and m["ply"] == p, CROSS_NODE_S)
                ply = new_ply
            # In order, with no gap, on both nodes (the sync state first).
            for s in (s1, watcher_b, watcher_a, s0):
                plies = s.state_plies()
                assert plies[1:] == list(range(1, ply + 1)), plies
            chance = [m for m in watcher_b.of("state") if (m.get("last_action") or {}).get("seat") == -1]
            assert chance, "no chance outcome reached the spectator on the other node"
            seen_b = state_of(b.url, gid, spec)
            assert seen_b["ply"] == ply

    asyncio.run(play())


def test_a_node_never_answers_an_old_ply_as_current(two_nodes):
    """A move acknowledged by node A: node B's very next answer has it (it reads through)."""
    _url, (a, b) = two_nodes
    g = create(a.url)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    assert state_of(b.url, gid, t1)["ply"] == 0  # B holds the game in memory from now on
    tokens = (t0, t1)
    with httpx.Client(timeout=10) as http:
        for ply in range(8):
            seat_state = state_of(a.url, gid, tokens[ply % 2])
            if seat_state["terminal"]:
                break
            action = seat_state["view"]["legal_actions"][0]["text"]
            r = http.post(
                f"{a.url}/api/games/{gid}/moves",
                json={"token": tokens[ply % 2], "action": action, "ply": ply},
            )
            assert r.status_code == 200, r.text
            # Straight after the ack, before any grace: B answers the new ply, never the old one.
            assert state_of(b.url, gid, t1)["ply"] == r.json()["ply"]


def test_a_node_that_loses_a_ply_race_catches_up_and_refuses_as_stale(two_nodes):
    _url, (a, b) = two_nodes
    g = create(a.url)
    gid, t0 = g["id"], g["seats"][0]["token"]
    state = state_of(b.url, gid, t0)
    action = state["view"]["legal_actions"][0]["text"]
    second = state["view"]["legal_actions"][1]["text"]
    r = httpx.post(f"{a.url}/api/games/{gid}/moves", json={"token": t0, "action": action, "ply": 0})
    assert r.status_code == 200
    # The same seat, through B, for the same ply with another move: refused, never applied twice.
    r = httpx.post(f"{b.url}/api/games/{gid}/moves", json={"token": t0, "action": second, "ply": 0})
    assert r.status_code == 409 and r.json()["code"] == "stale", r.text
    assert state_of(b.url, gid, t0)["ply"] == 1


def test_chat_presence_names_resign_and_rematch_cross_nodes(two_nodes):
    _url, (a, b) = two_nodes
    g = create(a.url)
    gid, t0, t1, spec = g["id"], g["seats"][0]["token"], g["seats"][1]["token"], g["spectator"]["token"]

    async def play() -> None:
        async with Sock(a.url, gid, t0) as s0, Sock(b.url, gid, spec) as watcher:
            await watcher.wait(lambda m: m["type"] == "state", 10)
            # Presence: seat 1's socket opens on B; seat 0 on A sees it online within a second.
            async with Sock(b.url, gid, t1) as s1:
                await s1.wait(lambda m: m["type"] == "state", 10)
                await s0.wait(
                    lambda m: m["type"] == "presence" and m["seats"][1]["status"] == "online",
                    CROSS_NODE_S,
                    "seat 1 online on the other node",
                )
                # Names: set on B, shown on A.
                await s1.send({"type": "name", "name": "Bea", "ref": "n"})
                await s0.wait(
                    lambda m: m["type"] == "presence" and m["seats"][1]["name"] == "Bea", CROSS_NODE_S, "name"
                )
                # Chat: said on B, heard on A (in order), said on A, heard on B.
                for i in range(3):
                    await s1.send({"type": "chat", "text": f"hello {i}", "ref": f"c{i}"})
                await s0.wait(
                    lambda m: m["type"] == "chat" and m["line"]["text"] == "hello 2", CROSS_NODE_S, "chat"
                )
                assert [m["line"]["text"] for m in s0.of("chat")] == ["hello 0", "hello 1", "hello 2"]
                await s0.send({"type": "chat", "text": "hi Bea", "ref": "c"})
                await watcher.wait(
                    lambda m: m["type"] == "chat" and m["line"]["text"] == "hi Bea", CROSS_NODE_S
                )
                # Resign through A's HTTP API: B's seat and spectator see the ending.
                r = httpx.post(f"{a.url}/api/games/{gid}/resign", json={"token": t0})
                assert r.status_code == 200 and r.json()["ended"], r.text
                for s in (s1, watcher):
                    end = await s.wait(
                        lambda m: m["type"] == "state" and m.get("terminal") and m.get("ending"),
                        CROSS_NODE_S,
                        "the resignation",
                    )
                    assert end["ending"]["forfeits"][0]["seat"] == 0
                # Rematch: seat 0 accepts on A, seat 1 on B; both see the new game.
                r = httpx.post(f"{a.url}/api/games/{gid}/rematch", json={"token": t0})
                assert r.status_code == 200 and r.json()["game"] is None, r.text
                await s1.wait(
                    lambda m: m["type"] == "state" and (m.get("rematch") or {}).get("accepted") == [0],
                    CROSS_NODE_S,
                    "seat 0's rematch offer",
                )
                r = httpx.post(f"{b.url}/api/games/{gid}/rematch", json={"token": t1})
                new_game = r.json()["game"]
                assert r.status_code == 200 and new_game, r.text
                seen = await s0.wait(
                    lambda m: m["type"] == "state" and (m.get("rematch") or {}).get("game") == new_game,
                    CROSS_NODE_S,
                    "the rematch on the other node",
                )
                assert seen["rematch"]["link"].startswith(f"/g/{new_game}#t=")
            # Seat 1's socket closed on B: A shows it left once the reload grace is over.
            await s0.wait(
                lambda m: m["type"] == "presence" and m["seats"][1]["status"] == "left", 10, "seat 1 left"
            )

    asyncio.run(play())


def test_a_clock_running_out_acts_once_and_its_ai_move_reaches_both_nodes(two_nodes):
    """Seat 0 (on node A) never moves: each of its turns runs out after 1 s and the clock's AI
    plays it; seat 1 is an AI. Both nodes hold the game; each expiry acts once in the cluster."""
    url, (a, b) = two_nodes
    g = create(
        a.url,
        seats=[{"kind": "human"}, {"kind": "agent", "agent": "random"}],
        clock={"mode": "move", "seconds": 1, "on_timeout": "ai", "ai_level": "random"},
    )
    gid, t0, spec = g["id"], g["seats"][0]["token"], g["spectator"]["token"]

    async def watch() -> tuple[dict, Sock, Sock]:
        async with Sock(a.url, gid, t0) as s0, Sock(b.url, gid, spec) as watcher:
            end = await watcher.wait(lambda m: m["type"] == "state" and m["terminal"], 120, "the end")
            await s0.wait(lambda m: m["type"] == "state" and m["terminal"], CROSS_NODE_S, "the end on A")
            return end, s0, watcher

    end, s0, watcher = asyncio.run(watch())
    from trapworks.server.store import Store

    store = Store(url)
    try:
        stored = store.load_game(gid)
        control = store.load_control(gid)
    finally:
        store.close()
    moves = control["clock_moves"]
    assert moves and len(moves) == len(set(moves)), moves  # no turn played twice by the clock
    assert all(stored.actions[p][0] == 0 for p in moves)  # each one is seat 0's action at that ply
    assert len(stored.actions) == end["ply"]
    # Every ply, in order, on the node where nobody moved (the spectator's B).
    # (A state may repeat a ply: a change off the board, such as the clock starting a turn.)
    plies = watcher.state_plies()
    assert plies == sorted(plies) and sorted(set(plies)) == list(range(plies[0], end["ply"] + 1)), plies
    # The spectator on B was told which plies the clock's AI played.
    assert any(moves[0] in (m.get("clock") or {}).get("moves", []) for m in watcher.of("state"))


def test_a_forfeit_on_time_is_stored_once_though_both_nodes_time_the_turn(two_nodes):
    url, (a, b) = two_nodes
    g = create(a.url, clock={"mode": "move", "seconds": 1, "on_timeout": "forfeit"})
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]

    async def watch() -> dict:
        async with Sock(a.url, gid, t0) as s0, Sock(b.url, gid, t1) as s1:
            end = await s1.wait(lambda m: m["type"] == "state" and m.get("terminal"), 30, "the forfeit")
            await s0.wait(
                lambda m: m["type"] == "state" and m.get("terminal"), CROSS_NODE_S, "the forfeit on A"
            )
            await asyncio.sleep(1.5)  # the other node's timer has fired by now too
            return end

    end = asyncio.run(watch())
    assert end["ending"]["forfeits"] == [{"seat": 0, "reason": "out_of_time", "ply": 0}]
    from trapworks.server.store import Store

    store = Store(url)
    try:
        assert len(store.load_control(gid)["forfeits"]) == 1
    finally:
        store.close()


def test_an_undo_on_one_node_rewinds_the_other_nodes_copy(two_nodes):
    """Against AI, seat 0 takes its move back through node A: the spectator on node B is sent the
    shorter game, and B answers it as current."""
    _url, (a, b) = two_nodes
    g = create(a.url, seats=[{"kind": "human"}, {"kind": "agent", "agent": "random"}])
    gid, t0, spec = g["id"], g["seats"][0]["token"], g["spectator"]["token"]

    async def play() -> None:
        async with Sock(b.url, gid, spec) as watcher:
            await watcher.wait(lambda m: m["type"] == "state", 10, "the first state")
            for _ in range(2):
                # Seat 0's turn: the computer's reply to the first move may still be on its way (a
                # move at the ply before it was refused as stale in a loaded run).
                s = state_of(a.url, gid, t0)
                for _wait in range(400):  # up to 20 s
                    if s["to_move"] == 0:
                        break
                    await asyncio.sleep(0.05)
                    s = state_of(a.url, gid, t0)
                assert s["to_move"] == 0, s["to_move"]
                action = s["view"]["legal_actions"][0]["text"]
                r = httpx.post(
                    f"{a.url}/api/games/{gid}/moves", json={"token": t0, "action": action, "ply": s["ply"]}
                )
                assert r.status_code == 200, r.text
            before = state_of(a.url, gid, t0)["ply"]
            await watcher.wait(
                lambda m: m["type"] == "state" and m["ply"] == before, CROSS_NODE_S, "the moves"
            )
            r = httpx.post(f"{a.url}/api/games/{gid}/undo", json={"token": t0})
            assert r.status_code == 200, r.text
            after = r.json()["ply"]
            assert after < before
            rewound = await watcher.wait(
                lambda m: m["type"] == "state" and m["ply"] == after and m.get("sync"),
                CROSS_NODE_S,
                "the undo",
            )
            assert len(rewound["log"]) == after
            assert state_of(b.url, gid, spec)["ply"] == after

    asyncio.run(play())
