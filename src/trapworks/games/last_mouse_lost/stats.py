"""Last Mouse Lost's own statistics for simulation rows, and the cells `trapworks explore`
compares. Column names match the batched engine's rows (rounds, opener_wins)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trapworks.core import State


def game_stats(state: State, events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    first = state.game.options["first_player"]
    opener = first if isinstance(first, int) else None  # "random": told by the first round_start
    rounds = opener_wins = 0
    score = [0, 0]
    for e in events:
        if e["type"] == "round_start":
            opener = e["opener"]
        elif e["type"] == "round_over":
            rounds += 1
            opener_wins += e["winner"] == opener
            score = e["score"]
    ending = "truncated" if not state.is_terminal() else f"{max(score)}-{min(score)}"
    return {"ending": ending, "rounds": rounds, "opener_wins": opener_wins}


def explore_grid(game_cls: type) -> list[dict[str, Any]]:
    """Basic against advanced rules (002), and who opens the later rounds of a match."""
    cells: list[dict[str, Any]] = []
    for rules in ("basic", "advanced"):
        for opener in ("alternate", "loser", "winner"):
            cells.append(
                {"label": f"{rules}, opener={opener}", "options": {"rules": rules, "opener": opener}}
            )
    return cells
