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

from .data import FIRING_CHAIN, NUM_SPACES, PARTS
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

    # --- the same tensor from the state, vectorised (what the adapters call) ------------------
    def state_tensor(self, state: Any, seat: int) -> np.ndarray:
        """`observation_tensor(state.view(seat))` as float32, written from the state's fields
        with precomputed offsets (no view is built): the same floats, bit for bit (tested on
        random states, tests/research/test_fast_tensors.py). Mouse Trap has no secret: every
        field read here is in every seat's view."""
        n = state.game.players
        size = self.__dict__.get("_size")
        if size is None:
            size = self._size = self.observation_size()
        supply = max(1, state.game.supply)
        per = NUM_SPACES + 2
        # (index, value) of every non-zero entry, written in one vectorised assignment
        idx: list[int] = []
        val: list[float] = []
        for s, (mouse, cheese) in enumerate(zip(state.mice, state.cheese, strict=True)):
            idx += (s * per + (NUM_SPACES if mouse is None else mouse), s * per + NUM_SPACES + 1)
            val += (1.0, cheese / supply)
        i = n * per
        phase = state.phase
        idx += (i, i + 1, i + 2 + phase)
        val += (state.pile / supply, state.parts / len(PARTS), 1.0)
        i += 2 + len(PHASE_NAMES)
        player = state.current_player()
        if player >= 0:
            idx += (i + state.to_move, i + n + player, i + 2 * n + seat)
            val += (1.0, 1.0, 1.0)
        else:
            idx += (i + state.to_move, i + 2 * n + seat)
            val += (1.0, 1.0)
        i += 3 * n
        if phase == _FIRE and state.stage is not None and 0 <= state.stage < len(FIRING_CHAIN):
            idx.append(i + state.stage)
            val.append(1.0)
        i += len(FIRING_CHAIN)
        if state.last_die is not None:
            idx.append(i + state.last_die - 1)
            val.append(1.0)
        i += 6
        if state.push_target is not None:
            idx.append(i + state.push_target)
            val.append(1.0)
        i += n
        if phase == _STEAL:
            idx.append(i)
            val.append(state.steal_owed / supply)
            for s in state.steal_from:
                idx.append(i + 1 + s)
                val.append(1.0)
        i += 1 + n
        limit = state.game.turn_limit
        idx.append(i)
        val.append(min(1.0, state.turn / limit) if limit else 0.0)
        out = np.zeros(size, np.float32)
        out.put(idx, val)
        return out


_FIRE = PHASE_NAMES.index("fire")
_STEAL = PHASE_NAMES.index("steal")
