"""The review's outcome curve and turning moves (a player-judge's fix 4, Replay/review 7/10: "for
scripted players '52 blunders' and a wall of red bars; lichess shows a curve and only the critical
moves"). GET /api/games/{id}/analysis adds each seat's chance to win at the steps around each
decision (`curve`) and the few decisions where the mover's chance fell most (`turning`); the page
draws them (test_replay_analysis_browser.py). The chances come from the game: its judge's verdicts,
its rollout agent's own valuation, or play-outs by that agent; the server adds no rule."""

from __future__ import annotations

import secrets

import pytest

from trapworks.agents import rollout_policy
from trapworks.server import analysis

from .test_server_analysis_hook import played

KEY = secrets.token_bytes(32)


def test_a_judged_games_curve_is_its_own_verdicts_and_only_its_last_blunders_turn() -> None:
    """Last Mouse Lost judges its moves exactly: before each move the mover's chance is 1 in a won
    position and 0 in a lost one, the end gives the winner 1. Random players give a won position
    away again and again; only MAX_TURNING of those blunders are marked, the latest (the ones that
    decided the game), where the judge said the won position was given away."""
    data = analysis.analyse(played("last-mouse-lost", 8, board=[1, 2, 3, 4, 5], first_to=1), KEY)
    assert data["curve_kind"] == "exact" and data["curve_rollouts"] is None
    at = {p["step"]: p["chances"] for p in data["curve"]}
    for m in data["moves"]:
        mover = at[m["ply"]][m["seat"]]
        assert mover == (1.0 if m["outcome"] == "win" else 0.0), m
        assert sum(at[m["ply"]]) == pytest.approx(1)
    final = data["curve"][-1]
    assert final["step"] == max(at) and sorted(final["chances"]) == [0.0, 1.0]
    blunders = [m["ply"] for m in data["moves"] if m["outcome"] == "win" and m["verdict"] == "losing"]
    assert len(blunders) > analysis.MAX_TURNING, blunders  # the game played gives more than are marked
    turning = data["turning"]
    assert [t["ply"] for t in turning] == blunders[-analysis.MAX_TURNING :]
    assert {t["word"] for t in turning} == {"blunder"} and all(t["fall"] == 1.0 for t in turning)


def test_the_turning_moves_are_the_few_largest_falls_of_the_movers_own_chance() -> None:
    """A fall under MISTAKE is no turning move; from BLUNDER it is a blunder; a rise never; at most
    MAX_TURNING, the largest, listed in the order of the game."""
    falls = {0: 0.1, 2: 0.25, 4: 0.5, 6: 0.3, 8: 0.9, 10: 0.45, 12: 0.2, 14: -0.6, 16: 0.35}
    moves, curve = [], []
    for ply, fall in falls.items():
        moves.append({"ply": ply, "seat": 1, "move": "x"})
        curve.append({"step": ply, "chances": [0.0, 0.8]})
        curve.append({"step": ply + 1, "chances": [0.0, 0.8 - fall]})
    turning = analysis._turning(moves, curve)
    assert [t["ply"] for t in turning] == [4, 6, 8, 10, 16]
    assert [t["word"] for t in turning] == ["blunder", "mistake", "blunder", "blunder", "mistake"]
    assert analysis._turning(moves[:2], curve[:4]) == [
        {"ply": 2, "seat": 1, "before": 0.8, "after": pytest.approx(0.55), "fall": 0.25, "word": "mistake"}
    ]


def test_play_outs_estimate_each_seats_chance_the_same_way_each_time() -> None:
    """Mouse Trap values no position itself: each point is the share of CURVE_ROLLOUTS play-outs by
    its rollout agent that each seat won (a tie shared), seeded from the game's key: the same
    record and key give the same curve. The end is the real result."""
    record = played("mouse-trap", 4, players=2, turn_limit=25)
    data = analysis.analyse(record, KEY)
    assert data["curve_kind"] == "estimate" and data["curve_rollouts"] == analysis.CURVE_ROLLOUTS
    assert len(data["curve"]) > 2
    for p in data["curve"][:-1]:
        assert sum(p["chances"]) == pytest.approx(1)
        for c in p["chances"]:  # a whole number of play-outs, a tie counting half
            assert (c * 2 * analysis.CURVE_ROLLOUTS) == pytest.approx(round(c * 2 * analysis.CURVE_ROLLOUTS))
    assert data["curve"][-1]["step"] == len(record.actions)
    assert data == analysis.analyse(record, KEY)


def test_a_game_too_slow_to_play_out_gets_no_curve_rather_than_a_guess(monkeypatch) -> None:
    monkeypatch.setattr(analysis, "CURVE_STEPS", 50)
    data = analysis.analyse(played("mouse-trap", 4, players=2, turn_limit=25), KEY)
    assert data["curve"] is None and data["curve_kind"] is None and data["turning"] == []
    assert data["moves"]  # the rest of the analysis is there


def test_a_game_that_values_its_positions_is_read_from_that_value() -> None:
    """13 Dead End Drive's rollout agent values a position (its `evaluate`: each seat's expected
    return): the curve is that value scaled between the game's loss and win returns, no play-out."""
    record = played("dead-end-drive", 2, players=2)
    data = analysis.analyse(record, KEY)
    assert data["curve_kind"] == "model" and data["curve_rollouts"] is None
    state = record.initial_state()
    _name, cls = rollout_policy(state.game)
    value = cls(state.game, 0, seed=0).evaluate(state)
    final = record.replay().returns()
    assert data["curve"][0] == {
        "step": 0,
        "chances": [round(p, 4) for p in analysis._scaled(value, min(final), max(final))],
    }
    assert all(sum(p["chances"]) == pytest.approx(1, abs=1e-3) for p in data["curve"])
    assert all(0 <= c <= 1 for p in data["curve"] for c in p["chances"])
