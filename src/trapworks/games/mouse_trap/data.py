"""Board data for Mouse Trap, read from the JSON files beside this module.

track.json: the 50 spaces (index 0 = Start, 44-49 = the Loop), transcribed in RULES-NOTES.md.
contraption.json: the 24 parts in building order and the firing chain with default odds.
variants.json: the option values of the two rulebooks (000 Milton Bradley, 003 Original Rules).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


@cache
def load(name: str) -> Any:
    with open(HERE / name, encoding="utf-8") as f:
        return json.load(f)


TRACK = load("track.json")
SPACES: tuple[dict[str, Any], ...] = tuple(TRACK["spaces"])
NUM_SPACES = len(SPACES)
START = 0
LOOP_START: int = TRACK["loop_start"]
LOOP_END: int = TRACK["loop_end"]
LOOP_LENGTH = LOOP_END - LOOP_START + 1
SAFE: int = TRACK["safe"]
TURN_CRANK: int = TRACK["turn_crank"]
CHEESE_WHEEL: int = TRACK["cheese_wheel"]

CONTRAPTION = load("contraption.json")
PARTS: tuple[str, ...] = tuple(p["name"] for p in CONTRAPTION["parts"])
# Stable ids of the parts (the browser's drawing names its elements by them; names repeat: "Gear").
PART_IDS: tuple[str, ...] = tuple(p["id"] for p in CONTRAPTION["parts"])
NUM_PARTS = len(PARTS)
FIRING_CHAIN: tuple[dict[str, Any], ...] = tuple(CONTRAPTION["firing_chain"])
STAGE_IDS: tuple[str, ...] = tuple(s["id"] for s in FIRING_CHAIN)
DEFAULT_STAGE_ODDS: tuple[float, ...] = tuple(float(s["default_success"]) for s in FIRING_CHAIN)

VARIANTS: dict[str, dict[str, Any]] = {k: v for k, v in load("variants.json").items() if k != "source"}


def _check_track() -> None:
    # The data file is the board; a broken edit should fail at import, not mid-game.
    assert NUM_SPACES == 50, "the Mouse Trap track has 50 spaces"
    assert [s["index"] for s in SPACES] == list(range(NUM_SPACES))
    assert SPACES[START]["kind"] == "start" and SPACES[SAFE]["kind"] == "safe"
    assert SPACES[TURN_CRANK]["kind"] == "turn_crank" and SPACES[CHEESE_WHEEL]["kind"] == "cheese_wheel"
    assert NUM_PARTS == 24
    assert len(set(PART_IDS)) == NUM_PARTS, "part ids are unique"
    for s in SPACES:
        if s["kind"] == "go_to":
            assert 0 <= s["target"] < NUM_SPACES


_check_track()
