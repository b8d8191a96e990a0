"""Mouse Trap's own statistics for simulation rows, and the cells `trapworks explore` compares.

Computed from the finished state and the events of the whole game (every event, private ones
included: an analyst's view after the game).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trapworks.core import State

from .data import STAGE_IDS, VARIANTS
from .game import ROW_OPTIONS


def game_stats(state: State, events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    jams = dict.fromkeys(STAGE_IDS, 0)
    cranks = captures = mice_caught = cheese_paid = steals = 0
    for e in events:
        kind = e["type"]
        if kind == "crank":
            cranks += 1
        elif kind == "trap_failed":
            jams[e["id"]] += 1
        elif kind == "caught":
            captures += 1
            mice_caught += len(e["caught"])
        elif kind == "pay":
            cheese_paid += 1  # one piece per paid move (000 and 003 alike)
        elif kind == "steal":
            steals += 1
    if state.is_truncated() or not state.is_terminal():
        ending = "truncated"
    else:
        ending = "last-mouse"  # every other mouse caught
    row: dict[str, Any] = {
        "ending": ending,
        "cranks": cranks,
        "captures": captures,
        "mice_caught": mice_caught,
        "jams": sum(jams.values()),
        "cheese_paid": cheese_paid,
        "steals": steals,
    }
    row.update({f"jams_{stage}": n for stage, n in jams.items()})
    return row


def explore_grid(game_cls: type) -> list[dict[str, Any]]:
    """000 (milton-bradley) against 003 (original), and each rule on which they differ alone:
    the milton-bradley game with that one row of RULES-NOTES.md's table taken from 003."""
    mb, orig = VARIANTS["milton-bradley"], VARIANTS["original"]
    cells: list[dict[str, Any]] = [
        {"label": "000 milton-bradley", "options": {"variant": "milton-bradley"}},
        {"label": "003 original", "options": {"variant": "original"}},
    ]
    for name in ROW_OPTIONS:
        if mb[name] != orig[name]:
            cells.append(
                {
                    "label": f"000 + {name}={orig[name]}",
                    "options": {"variant": "milton-bradley", name: orig[name]},
                }
            )
    return cells
