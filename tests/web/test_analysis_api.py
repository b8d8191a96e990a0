"""Review with analysis (issue 27, Deliver 6): GET /api/games/{id}/analysis.

- Last Mouse Lost (a game with a solver): every decision is marked winning or losing, and a
  position that had a winning move shows one. Checked here against an exhaustive search of each
  round written for the test (no solver, no server code): a move wins when the round goes on and
  the position it leaves is lost for the player to move.
- The other games: the hint agent's choice, a legal move of that position, beside every decision.
- Only for a finished game (409 before: a game with secrets must not leak a hint agent's reading of
  the true state), 404 for an unknown game; the same answer twice (cached).
"""

from __future__ import annotations

import time
from functools import cache

import pytest

from trapworks.core.record import GameRecord

from .conftest import create_game

AI = {"kind": "agent", "agent": "easy"}


def finished(client, game, options, seed, seats=2):
    created = create_game(client, game, seats=[AI] * seats, options=options, seed=seed)
    gid = created["id"]
    for _ in range(600):
        r = client.get(f"/api/games/{gid}/analysis")
        if r.status_code == 200:
            return gid, r.json()
        assert r.status_code == 409, r.text
        time.sleep(0.1)
    raise AssertionError(f"{game} did not finish")


def record_of(client, gid):
    r = client.get(f"/api/public/games/{gid}/record")
    assert r.status_code == 200, r.text
    return GameRecord.from_dict(r.json())


def raised(state):
    return sum(bin(r).count("1") for r in state.rows)


@cache
def _wins(rows_key, advanced, board):
    """Exhaustive search of one round: does the player to move win it? (rows as bitmasks)"""
    from trapworks.games.last_mouse_lost import SPEC

    game = SPEC.game(board=list(board), rules="advanced" if advanced else "basic", first_to=9)
    state = game.new_initial_state(seed=0)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.rows = list(rows_key)
    return any(round_goes_on(state, a) and not wins(after(state, a)) for a in state.legal_actions())


def after(state, action):
    nxt = state.clone()
    nxt.apply_action(action)
    return nxt


def round_goes_on(state, action):
    nxt = after(state, action)
    return not nxt.is_terminal() and 0 < raised(nxt) < raised(state)


def wins(state):
    return _wins(tuple(state.rows), state.game.advanced, tuple(state.game.board))


@pytest.mark.parametrize("rules", ["basic", "advanced"])
def test_last_mouse_lost_each_move_winning_or_losing_with_a_winning_move(client, rules):
    options = {"board": [1, 2, 3, 4], "first_to": 2, "rules": rules}
    checked = 0
    verdicts = set()
    for seed in (1, 2, 3):
        gid, data = finished(client, "last-mouse-lost", options, seed)
        assert data["kind"] == "solver"
        record = record_of(client, gid)
        states = list(record.states())
        decisions = [i for i, s in enumerate(states[:-1]) if not s.is_chance_node()]
        assert [m["ply"] for m in data["moves"]] == decisions
        for m in data["moves"]:
            before = states[m["ply"]]
            action = before.string_to_action(m["move"])
            assert m["seat"] == before.current_player()
            won = wins(before)
            assert m["outcome"] == ("win" if won else "loss"), m
            good = round_goes_on(before, action) and not wins(after(before, action))
            assert m["verdict"] == ("winning" if good else "losing"), m
            if won:  # a winning move where one existed, and it is one
                best = before.string_to_action(m["best"])
                assert round_goes_on(before, best) and not wins(after(before, best)), m
            else:
                assert m["best"] is None
            checked += 1
            verdicts.add(m["verdict"])
    assert checked > 20 and verdicts == {"winning", "losing"}, (checked, verdicts)
    again = client.get(f"/api/games/{gid}/analysis").json()
    assert again == data  # cached: the same answer


@pytest.mark.parametrize("game,options", [("mouse-trap", {"players": 2}), ("dead-end-drive", {"players": 2})])
def test_the_other_games_show_the_hint_agents_choice_beside_each_move(client, game, options):
    gid, data = finished(client, game, options, seed=4)
    assert data["kind"] == "agent" and data["agent"]
    record = record_of(client, gid)
    states = list(record.states())
    decisions = [i for i, s in enumerate(states[:-1]) if not s.is_chance_node()][: len(data["moves"])]
    assert [m["ply"] for m in data["moves"]] == decisions
    assert len(data["moves"]) == len(decisions) > 5
    for m in data["moves"]:
        before = states[m["ply"]]
        choice = before.string_to_action(m["choice"])  # a move of that position, in its notation
        assert choice in before.legal_actions(), m
        assert m["same"] == (m["choice"] == m["move"]) and m["choice_text"]


def test_analysis_only_of_a_finished_game(client):
    created = create_game(client, "dead-end-drive", seats=[{"kind": "human"}, AI], options={"players": 2})
    r = client.get(f"/api/games/{created['id']}/analysis")
    assert r.status_code == 409 and r.json()["code"] == "not_finished"
    assert client.get("/api/games/no-such-game/analysis").status_code == 404
