"""Golden playthroughs: one recorded game per variant (made by make_golden.py) replays to the same
removals, trips, final position and result, so any change in rules or physics shows up as a diff."""

import json
from pathlib import Path

import pytest

from trapworks.core import GameRecord

GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("variant", ["regular", "solitaire", "sizes-in-order", "no-passes"])
def test_golden_playthrough_replays(variant):
    data = json.loads((GOLDEN / f"{variant}.json").read_text())
    record = GameRecord.from_dict(data["record"])
    removals = []
    state = None
    for state in record.states():
        for e in state.last_events():
            if e["type"] == "removal":
                removals.append([e["seat"], e["piece"], e["tripped"], e["popped"]])
    assert removals == data["removals"]
    assert state.is_terminal()
    assert state.position() == data["final_position"]
    assert state.returns() == data["returns"]
