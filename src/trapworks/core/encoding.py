"""Observation and information-state encodings: a fixed-size float tensor and a string per seat.

Every encoding is a function of `state.view(seat)` (plus, for the information state, the public
action history), never of the state itself: a view holds only what the seat may know, so an
encoding cannot carry a secret. Each game has its encoder in its own folder
(games/<game>/encoding.py), named on its Game class as `encoding = "module:Class"`.

- observation tensor: `observation_shape()` floats, the game's own layout (docs/research.md).
- observation string: the view as compact JSON with the game's unchanging parts left out.
- information state: the observation plus the public action history (string), so that two
  different histories never share an information state (perfect recall); the tensor is the
  observation tensor (views already carry what a seat remembers: its cards, its readings).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any, ClassVar

from .game import Game


class Encoder:
    """Base of the per-game encoders. Subclasses set `static_keys` and implement the tensor."""

    # View keys that never change during a game (the board, the track...): left out of strings.
    static_keys: ClassVar[tuple[str, ...]] = ()
    # Bounds of every tensor entry (observation spaces use them).
    low: ClassVar[float] = 0.0
    high: ClassVar[float] = 1.0

    def __init__(self, game: Game):
        self.game = game

    # --- tensor ---------------------------------------------------------------------------
    def observation_shape(self) -> tuple[int, ...]:
        raise NotImplementedError

    def observation_size(self) -> int:
        return math.prod(self.observation_shape())

    def encode(self, view: dict[str, Any], out: list[float]) -> None:
        """Append the observation's floats to `out` (exactly observation_size() of them)."""
        raise NotImplementedError

    def observation_tensor(self, view: dict[str, Any]) -> list[float]:
        out: list[float] = []
        self.encode(view, out)
        if len(out) != self.observation_size():
            raise AssertionError(
                f"{self.game.game_id} encoder wrote {len(out)} floats, expected {self.observation_size()}"
            )
        return out

    def information_state_shape(self) -> tuple[int, ...]:
        return self.observation_shape()

    def information_state_tensor(self, view: dict[str, Any]) -> list[float]:
        return self.observation_tensor(view)

    # --- strings --------------------------------------------------------------------------
    def observation_string(self, view: dict[str, Any]) -> str:
        shown = {k: v for k, v in view.items() if k not in self.static_keys}
        return json.dumps(shown, sort_keys=True, separators=(",", ":"))

    def information_state_string(self, view: dict[str, Any], public_history: Sequence[int]) -> str:
        return "history " + " ".join(map(str, public_history)) + "\n" + self.observation_string(view)


def one_hot(out: list[float], index: int | None, size: int) -> None:
    """Append `size` floats, 1.0 at `index` (none when index is None or out of range)."""
    start = len(out)
    out.extend([0.0] * size)
    if index is not None and 0 <= index < size:
        out[start + index] = 1.0


__all__ = ["Encoder", "one_hot"]
