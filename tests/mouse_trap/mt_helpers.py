"""Helpers for the Mouse Trap tests: set up positions, force dice and trap outcomes."""

from __future__ import annotations

import trapworks
from trapworks.core import apply_sequence

ALL_STAGES_WORK = ["works"] * 15


def game(**options):
    return trapworks.make("mouse-trap", **options)


def pos(text: str, **options):
    """A state from a position string (the game made with `options`)."""
    return game(**options).state_from_position(text)


def play(state, *actions):
    """Apply action texts in order; return every event they caused."""
    seen = []
    for a in actions:
        apply_sequence(state, [a])
        seen.extend(state.last_events())
    return seen


def roll(state, die: int, build: bool = True):
    """The player to move rolls `die`; on a Build space (both books: the player "may" build) the
    player builds, unless `build` is False (then the move stops at the decision)."""
    events = play(state, "roll", f"die:{die}")
    if build and state.position().endswith("phase=build"):
        events += play(state, "build")
    return events


def kinds(events) -> list[str]:
    return [e["type"] for e in events]


def legal(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]
