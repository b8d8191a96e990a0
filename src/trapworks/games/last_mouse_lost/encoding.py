"""Last Mouse Lost observation encoding (from `view(seat)` only; see trapworks.core.encoding).

Tensor, in order: the board as a rows x widest-row grid, 1.0 for a raised mouse (0.0 for a
pressed mouse and for cells past a row's end); who is to move (2, one-hot; all zero at the
opening draw and at the end); the observing seat (2, one-hot); the score (2, round wins / first_to);
who opened this round (2, one-hot); the opening draw pending (1); the match over (1).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trapworks.core.encoding import Encoder, one_hot
from trapworks.core.game import Game

from .game import _fastlml


class LastMouseLostEncoder(Encoder):
    static_keys = ("game", "rules", "board", "first_to", "legal_actions")

    def __init__(self, game: Game):
        super().__init__(game)
        if _fastlml is not None and getattr(getattr(game, "tables", None), "spec", None) is not None:
            # The compiled engine's states: the tensor is written in C (_fastlml.c's
            # tensor_writer, the same floats), any other state by `_state_tensor` below. An
            # instance attribute, so that the adapters' call goes straight to C.
            template = np.zeros(self.observation_size(), np.float32)
            self.__dict__["state_tensor"] = _fastlml.tensor_writer(template, self._state_tensor)

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

    # --- the same tensor from the state, vectorised (what the adapters call) ------------------
    # How many boards' grids (bytes of float32) the encoder keeps; past it the table starts anew.
    GRID_CACHE = 1 << 15

    def state_tensor(self, state: Any, seat: int) -> np.ndarray:
        """`observation_tensor(state.view(seat))` as float32, written from the state (no view is
        built): by the compiled engine's `state_tensor` for its states (see __init__), else by
        `_state_tensor`."""
        return self._state_tensor(state, seat)

    def _state_tensor(self, state: Any, seat: int) -> np.ndarray:
        """`observation_tensor(state.view(seat))` as float32, written from the state with
        precomputed tables (no view is built): the same floats, bit for bit (tested on random
        states, tests/research/test_fast_tensors.py). The grid of a board integer is unpacked
        once (`np.unpackbits` through an index table) and kept as bytes; the other ten floats
        come from a table keyed by the few facts they encode. It reads only what every seat sees
        (Last Mouse Lost has no secret), so it is the view's tensor for any seat."""
        t = self.__dict__.get("_tables")
        if t is None:
            t = self._tables = self._make_tables()
        grids, tails, bit_of, cells, nbytes = t
        board = state.board
        grid = grids.get(board)
        if grid is None:
            bits = np.unpackbits(np.frombuffer(board.to_bytes(nbytes, "little"), np.uint8), bitorder="little")
            # bit_of: for each grid cell its board bit, or the last (always 0) bit for padding
            grid = bits[bit_of].astype(np.float32).tobytes()
            if len(grids) >= self.GRID_CACHE:
                grids.clear()
            grids[board] = grid
        key = (
            -1 if state.match_over or state.awaiting_opener else state.to_move,
            seat,
            state.score[0],
            state.score[1],
            -1 if state.awaiting_opener else state.round_opener,
            state.match_over,
        )
        tail = tails.get(key)
        if tail is None:
            tail = tails[key] = self._tail(*key)
        return np.frombuffer(bytearray(grid + tail), np.float32)

    def _make_tables(self) -> tuple[dict[int, bytes], dict[tuple[Any, ...], bytes], np.ndarray, int, int]:
        game = self.game
        board = game.options["board"]
        width = max(board)
        total = sum(board)
        nbytes = total // 8 + 1  # at least one spare bit, always 0, for the padding cells
        bit_of = np.full(len(board) * width, nbytes * 8 - 1, np.intp)
        for r, n in enumerate(board):
            offset = game.offsets[r]  # type: ignore[attr-defined]  # a Last Mouse Lost game
            bit_of[r * width : r * width + n] = np.arange(offset, offset + n)
        return {}, {}, bit_of, len(board) * width, nbytes

    def _tail(self, to_move: int, seat: int, s0: int, s1: int, opener: int, over: bool) -> bytes:
        out: list[float] = []
        one_hot(out, None if to_move < 0 else to_move, 2)
        one_hot(out, seat, 2)
        first_to = self.game.options["first_to"]
        out.extend((s0 / first_to, s1 / first_to))
        one_hot(out, None if opener < 0 else opener, 2)
        out.append(1.0 if opener < 0 else 0.0)
        out.append(1.0 if over else 0.0)
        return np.asarray(out, np.float32).tobytes()
