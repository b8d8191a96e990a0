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

from trapworks.core.encoding import Encoder, one_hot

from .data import FIRING_CHAIN, NUM_SPACES
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
