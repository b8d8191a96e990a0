"""The golden games replay identically: every action id, its text, the legal actions, the
position after each move, the events, views, the record and the result (issue 19: the bitboard
engine must keep the node-table engine's behaviour exactly)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from last_mouse_lost.make_golden import GAMES, play

HERE = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_game_replays_identically(name):
    want = json.loads((HERE / f"{name}.json").read_text())
    got = json.loads(json.dumps(play(name, want["seed"])))
    assert len(got["steps"]) == len(want["steps"])
    for i, (g, w) in enumerate(zip(got["steps"], want["steps"], strict=True)):
        assert g == w, f"{name}: step {i + 1} differs"
    assert got == want
