"""Views in parts: 13 Dead End Drive's mansion and its drawing (the static part of its views,
declared in its spec) go once with the game's info; every update after an action carries only
the rest, and the static part and an update's view together are exactly the seat's view."""

from __future__ import annotations

import json
import random
import statistics

import trapworks
from trapworks.core.spec import dynamic_view, static_view
from trapworks.server.features.claim import Claim
from trapworks.server.routers.socket import STATE_CORE

from .conftest import create_game
from .test_live import receive_state


def compact(msg) -> int:
    return len(json.dumps(msg, separators=(",", ":")))


def test_the_static_part_is_the_same_for_every_seat_and_state():
    game = trapworks.make("dead-end-drive", players=3)
    static = static_view(game)
    assert set(static) == {"board"} and "drawing" in static["board"]
    state = game.new_initial_state(seed=5)
    rng = random.Random(5)
    for _ in range(60):
        if state.is_terminal():
            break
        for seat in (None, 0, 1, 2):
            view = state.view(seat)
            assert {k: view[k] for k in static} == static
            assert {**static, **dynamic_view(state, seat)} == view
        state.apply_action(rng.choice(state.legal_actions()))
    assert static_view(trapworks.make("last-mouse-lost")) is None


def test_updates_leave_the_board_out_and_are_three_times_smaller(client):
    # Three seats never connect: the claim feature would tell seat 1 so after its grace, an update
    # of no move in the middle of these (it failed so once in the clean-clone run, load 17).
    client.app.state.service.feature(Claim).gone_grace_s = 3600
    g = create_game(client, game="dead-end-drive", seats=[{"kind": "human"}] * 4)
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    info = client.get(f"/api/games/{gid}", params={"token": tokens[1]}).json()["info"]
    static = info["static_view"]
    assert static == json.loads(json.dumps(static_view(trapworks.make("dead-end-drive"))))
    rng = random.Random(2)
    before, after, kept = [], [], []
    with client.websocket_connect(f"/ws/games/{gid}?token={tokens[1]}") as ws:
        first = receive_state(ws)
        assert first["sync"] and "board" in first["view"]  # a full view when (re)connecting
        parts = {k: v for k, v in first.items() if k not in STATE_CORE}  # the features' parts
        assert {"takeback", "controls", "rematch"} <= set(parts)
        for _ in range(25):
            state = client.get(f"/api/games/{gid}", params={"token": tokens[0]}).json()["state"]
            if state["terminal"]:
                break
            mover = state["to_move"]
            mine = client.get(f"/api/games/{gid}", params={"token": tokens[mover]}).json()["state"]
            text = rng.choice(mine["view"]["legal_actions"])["text"]
            r = client.post(
                f"/api/games/{gid}/moves", json={"token": tokens[mover], "action": text, "ply": mine["ply"]}
            )
            assert r.status_code < 300, r.text
            live = client.app.state.service.get(gid)
            update = receive_state(ws)
            while True:
                assert not update["sync"] and "board" not in update["view"]
                before.append(compact({**update, "view": {**static, **update["view"]}}))
                after.append(compact(update))
                # The features' parts that did not change are left out and named in `kept`.
                kept += update.get("kept", [])
                assert not set(update.get("kept", [])) & set(update)
                parts |= {k: v for k, v in update.items() if k not in STATE_CORE}
                if update["ply"] >= live.ply():
                    break
                update = receive_state(ws)
            assert {**static, **update["view"]} == json.loads(json.dumps(live.state.view(1)))
            # Filled in from the earlier updates, the parts are the whole state's (HTTP, sync).
            whole = client.get(f"/api/games/{gid}", params={"token": tokens[1]}).json()["state"]
            assert parts == {k: v for k, v in whole.items() if k not in STATE_CORE}
    assert len(after) >= 10 and "takeback" in kept and "controls" in kept
    assert statistics.median(after) * 3 <= statistics.median(before)


def test_a_game_without_a_static_part_sends_whole_views(client):
    g = create_game(client, options={"first_to": 1})
    gid, t0 = g["id"], g["seats"][0]["token"]
    info = client.get(f"/api/games/{gid}", params={"token": t0}).json()["info"]
    assert info["static_view"] is None
    with client.websocket_connect(f"/ws/games/{gid}?token={t0}") as ws:
        receive_state(ws)
        client.post(f"/api/games/{gid}/moves", json={"token": t0, "action": "c2", "ply": 0})
        update = receive_state(ws)
        ref = trapworks.make("last-mouse-lost", first_to=1).new_initial_state()
        ref.apply_action(ref.string_to_action("c2"))
        assert update["view"] == ref.view(0)


def test_mouse_traps_track_and_contraption_are_its_static_part():
    game = trapworks.make("mouse-trap", players=3, trap_reliability=0.5)
    static = static_view(game)
    assert set(static) == {"track", "parts", "part_ids", "firing_chain"}
    state = game.new_initial_state(seed=3)
    rng = random.Random(3)
    for _ in range(300):
        if state.is_terminal():
            break
        for seat in (None, 0, 2):
            assert {**static, **dynamic_view(state, seat)} == state.view(seat)
        state.apply_action(rng.choice(state.legal_actions()))
