"""Last Mouse Lost observation encoding (from `view(seat)` only; see trapworks.core.encoding).

Tensor, in order: the board as a rows x widest-row grid, 1.0 for a raised mouse (0.0 for a
pressed mouse and for cells past a row's end); who is to move (2, one-hot; all zero at the
opening draw and at the end); the observing seat (2, one-hot); the score (2, round wins / first_to);
who opened this round (2, one-hot); the opening draw pending (1); the match over (1).
"""

from __future__ import annotations

from typing import Any

from trapworks.core.encoding import Encoder, one_hot


class LastMouseLostEncoder(Encoder):
    static_keys = ("game", "rules", "board", "first_to", "legal_actions")

    def observation_shape(self) -> tuple[int, ...]:
        board = self.game.options["board"]
        return (len(board) * max(board) + 10,)

    def encode(self, view: dict[str, Any], out: list[float]) -> None:
        width = max(self.game.options["board"])
        for row in view["rows"]:
            out.extend(1.0 if raised else 0.0 for raised in row)
            out.extend([0.0] * (width - len(row)))
        one_hot(out, view["to_move"], 2)
        one_hot(out, view["seat"], 2)
        first_to = view["first_to"]
        out.extend(s / first_to for s in view["score"])
        one_hot(out, None if view["awaiting_chance"] else view["round_opener"], 2)
        out.append(1.0 if view["awaiting_chance"] else 0.0)
        out.append(1.0 if view["terminal"] else 0.0)
