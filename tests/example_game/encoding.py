"""Pig's observation tensor (from `view(seat)` only): scores / target, the turn's points / target,
who is to move (one-hot), the observing seat (one-hot), the die in the air, the game over."""

from __future__ import annotations

from typing import Any

from trapworks.core.encoding import Encoder, one_hot


class PigEncoder(Encoder):
    static_keys = ("game", "target", "legal_actions")

    def observation_shape(self) -> tuple[int, ...]:
        return (3 * self.game.num_players() + 3,)

    def encode(self, view: dict[str, Any], out: list[float]) -> None:
        n, target = self.game.num_players(), view["target"]
        out.extend(min(s / target, 1.0) for s in view["scores"])
        out.append(min(view["turn_total"] / target, 1.0))
        one_hot(out, view["to_move"], n)
        one_hot(out, view["seat"], n)
        out.append(1.0 if view["awaiting_die"] else 0.0)
        out.append(1.0 if view["terminal"] else 0.0)
