"""Booby Trap's own statistics for simulation rows, and the cells `trapworks explore` compares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trapworks.core import State

from .game import VARIANTS


def game_stats(state: State, events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    removals = trips = thrown_out = passes = penalties_unpaid = 0
    for e in events:
        kind = e["type"]
        if kind == "removal":
            removals += 1
            if e["tripped"]:
                trips += 1
                thrown_out += len(e["popped"])  # pieces that jumped out besides the one removed
        elif kind == "pass":
            passes += 1
        elif kind == "penalty" and e["debt"]:
            penalties_unpaid += 1
    debt = list(getattr(state, "debt", []))
    if not state.is_terminal():
        ending = "truncated"
    elif state.game.options["variant"] == "solitaire":
        ending = "solitaire-won" if state.winners() else "too-many-trips"
    else:
        ending = "pieces-left"  # as few pieces left as there are players
    return {
        "ending": ending,
        "removals": removals,
        "trips": trips,
        "thrown_out": thrown_out,
        "passes": passes,
        "penalties_unpaid": penalties_unpaid,
        "debt_total": sum(debt),
        "debt_max": max(debt) if debt else 0,
    }


def explore_grid(game_cls: type) -> list[dict[str, Any]]:
    """The regular game (001) and its variants with two players (solitaire is for one)."""
    return [
        {"label": v, "options": {"variant": v, "players": 1 if v == "solitaire" else 2}} for v in VARIANTS
    ]
