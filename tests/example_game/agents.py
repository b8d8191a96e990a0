"""Pig's own agent: roll until the turn holds `hold_at` points, then bank them."""

from __future__ import annotations

from typing import Any

from trapworks.core import Agent, Game, State

from .game import HOLD, ROLL


class HoldAtAgent(Agent):
    name = "hold-at"
    quick = True

    def __init__(self, game: Game, seat: int, seed: int | None = None, hold_at: int = 8, **_: Any):
        super().__init__(game, seat, seed)
        self.hold_at = hold_at

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        view = state.view(self.seat)
        return ROLL if ROLL in legal and view["turn_total"] < self.hold_at else HOLD


def game_stats(state: State, events: Any) -> dict[str, Any]:
    """A finished game's columns: how it ended and the winning score."""
    view = state.view(None)
    return {"ending": "won" if state.winners() else "truncated", "top_score": max(view["scores"])}
