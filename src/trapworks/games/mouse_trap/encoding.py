"""Mouse Trap observation encoding (from `view(seat)` only; see trapworks.core.encoding).

Tensor, in order, with n = players: per seat its mouse's space (51, one-hot over the 50 track
spaces plus "caught") and its cheese (1, / supply); the pile (1, / supply); trap parts built
(1, / 24); the phase (8, one-hot: first, roll, die, crank, push, steal, fire, over); whose turn
(n); who is to move (n, zero at chance nodes); the observing seat (n); the firing stage (one-hot
over the chain's stages); the last die (6); the mouse being pushed (n); cheese owed in a steal
(1, / supply); seats one may steal from (n); the turn (1, / turn limit, 0 without one).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trapworks.core.encoding import Encoder, one_hot
from trapworks.core.game import Game

from .data import FIRING_CHAIN, NUM_SPACES, PARTS
from .game import CHANCE_PHASES, P_OVER
from .notation import PHASE_NAMES


class MouseTrapEncoder(Encoder):
    static_keys = (
        "game",
        "variant",
        "players",
        "supply",
        "parts",
        "part_ids",
        "firing_chain",
        "track",
        "legal_actions",
    )

    def __init__(self, game: Game):
        super().__init__(game)
        self.clear_caches()

    def observation_shape(self) -> tuple[int, ...]:
        n = self.game.num_players()
        return (n * (NUM_SPACES + 2) + 2 + len(PHASE_NAMES) + 5 * n + len(FIRING_CHAIN) + 6 + 2,)

    def encode(self, view: dict[str, Any], out: list[float]) -> None:
        n = view["players"]
        supply = max(1, view["supply"])
        for mouse, cheese in zip(view["mice"], view["cheese"], strict=True):
            one_hot(out, NUM_SPACES if mouse is None else mouse, NUM_SPACES + 1)
            out.append(cheese / supply)
        out.append(view["pile"] / supply)
        out.append(view["parts_built"] / max(1, len(view["parts"])))
        one_hot(out, PHASE_NAMES.index(view["phase"]), len(PHASE_NAMES))
        one_hot(out, view["turn_player"], n)
        one_hot(out, view["to_move"], n)
        one_hot(out, view["seat"], n)
        one_hot(out, view["firing_stage"], len(FIRING_CHAIN))
        one_hot(out, None if view["last_die"] is None else view["last_die"] - 1, 6)
        one_hot(out, view["push_target"], n)
        steal = view["steal"]
        out.append(steal["owed"] / supply if steal else 0.0)
        start = len(out)
        out.extend([0.0] * n)
        for s in steal["from"] if steal else ():
            out[start + s] = 1.0
        limit = view["turn_limit"]
        out.append(min(1.0, view["turn"] / limit) if limit else 0.0)

    # --- the same tensor from the state, from cached pieces (what the adapters call) ----------
    # How many entries each of the encoder's piece tables keeps; past it a table starts anew.
    PIECE_CACHE = 1 << 14

    def state_tensor(self, state: Any, seat: int) -> np.ndarray:
        """`observation_tensor(state.view(seat))` as float32, written from the state's fields (no
        view is built): the same floats, bit for bit (tested on random states,
        tests/research/test_fast_tensors.py). The tensor is cut into pieces that each depend on a
        few small facts (a seat's mouse and cheese; the pile and the parts; the phase, whose turn,
        the seat, the firing stage, the die, the pushed mouse and the steal; the turn count);
        each piece's float32 bytes are made once per distinct facts (`_piece`, the view encoder's
        own arithmetic) and kept, and a tensor is their concatenation, one copy into a new array.
        Mouse Trap has no secret: every field read here is in every seat's view."""
        mouse_t, pile_t, turn_t, count_t = self._pieces
        phase = state.phase
        try:
            # one piece per seat (zip with a keyword argument costs about 40% more here)
            parts = list(map(mouse_t.__getitem__, zip(state.mice, state.cheese)))  # noqa: B905
            parts.append(pile_t[state.pile, state.parts])
            key: tuple[Any, ...]
            if phase == _STEAL:
                key = (phase, state.to_move, seat, None, state.last_die, state.push_target, state.steal_owed, state.steal_from)  # fmt: skip  # noqa: E501
            else:
                key = (phase, state.to_move, seat, state.stage if phase == _FIRE else None, state.last_die, state.push_target)  # fmt: skip  # noqa: E501
            parts.append(turn_t[key])
            parts.append(count_t[state.turn])
        except KeyError:  # a piece not made yet: make the missing ones
            parts = self._pieces_of(state, seat)
        return np.frombuffer(bytearray().join(parts), _F32)

    def _pieces_of(self, state: Any, seat: int) -> list[bytes]:
        """state_tensor's pieces, each taken from its table or made (and kept)."""
        mouse_t, pile_t, turn_t, count_t = self._pieces
        phase = state.phase
        stage = state.stage if phase == _FIRE else None
        turn: tuple[Any, ...] = (phase, state.to_move, seat, stage, state.last_die, state.push_target)
        if phase == _STEAL:
            turn = (*turn, state.steal_owed, state.steal_from)
        wanted: list[tuple[dict[Any, bytes], Any, str]]
        wanted = [(mouse_t, k, "mouse") for k in zip(state.mice, state.cheese, strict=True)]
        wanted += [
            (pile_t, (state.pile, state.parts), "pile"),
            (turn_t, turn, "turn"),
            (count_t, state.turn, "count"),
        ]
        return [t[k] if k in t else self._piece(t, k, kind) for t, k, kind in wanted]

    def _piece(self, table: dict[Any, bytes], key: Any, kind: str) -> bytes:
        """One piece of the tensor (float32 bytes) for `key`, computed as `encode` computes it,
        and kept in `table`."""
        game = self.game
        n = game.num_players()
        supply = max(1, game.supply)  # type: ignore[attr-defined]  # a Mouse Trap game
        out: list[float] = []
        if kind == "mouse":
            mouse, cheese = key
            one_hot(out, NUM_SPACES if mouse is None else mouse, NUM_SPACES + 1)
            out.append(cheese / supply)
        elif kind == "pile":
            pile, parts = key
            out += (pile / supply, parts / max(1, len(PARTS)))
        elif kind == "turn":
            phase, to_move, seat, stage, die, push = key[:6]
            one_hot(out, phase, len(PHASE_NAMES))
            one_hot(out, to_move, n)
            # who is to move: the seat whose turn it is, unless at a chance node or the end
            one_hot(out, None if phase == P_OVER or phase in CHANCE_PHASES else to_move, n)
            one_hot(out, seat, n)
            one_hot(out, stage, len(FIRING_CHAIN))
            one_hot(out, None if die is None else die - 1, 6)
            one_hot(out, push, n)
            owed, steal_from = key[6:] if len(key) > 6 else (0, ())
            out.append(owed / supply if len(key) > 6 else 0.0)
            start = len(out)
            out.extend([0.0] * n)
            for s in steal_from:
                out[start + s] = 1.0
        else:  # the turn count
            limit = game.turn_limit  # type: ignore[attr-defined]  # a Mouse Trap game
            out.append(min(1.0, key / limit) if limit else 0.0)
        b = np.asarray(out, np.float32).tobytes()
        if len(table) >= self.PIECE_CACHE:
            table.clear()
        table[key] = b
        return b

    def clear_caches(self) -> None:
        """Forget every kept piece (benchmarks time cold and warm tables with it)."""
        self._pieces: tuple[dict[Any, bytes], ...] = ({}, {}, {}, {})


_F32 = np.dtype(np.float32)
_FIRE = PHASE_NAMES.index("fire")
_STEAL = PHASE_NAMES.index("steal")
