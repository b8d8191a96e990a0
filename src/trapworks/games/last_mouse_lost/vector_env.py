"""Last Mouse Lost's vector environment, backed by the compiled engine's step-wise batch
(`vector_reset` / `vector_step` in _fastlml.c), not by N Python copies of the kernel; declared
in the game's spec (`GameSpec.vector_env`), registered by the Gymnasium adapter.

    import gymnasium as gym
    import trapworks.adapters.gymnasium  # registers the ids
    envs = gym.make_vec("trapworks/LastMouseLost-v0", num_envs=256, opponents="heuristic")
    obs, info = envs.reset(seed=0)
    actions = np.array([np.flatnonzero(m)[0] for m in envs.action_masks()])
    obs, rewards, terminated, truncated, info = envs.step(actions)

The same game, seat, opponent, observation (encoding.py's tensor), reward and illegal-move rule
as the single environment (trapworks.adapters.gymnasium.TrapworksEnv), `num_envs` matches at
once in C. The opponent is one of the engine's policies, "random" or "heuristic" (the agents of
the same names, decision for decision); any other agent is refused by name (Gymnasium's
`vectorization_mode="sync"` copies the single environment for those). An id outside the action
space raises a ValueError naming it; an id inside it that is not a legal press now ends that
episode as a loss (-1, `info["illegal_action"]`), the match left as it was, as the single
environment does. Episodes that end are reset on the next step (Gymnasium's next-step
autoreset: that step's action is ignored, its reward is 0). `info["action_mask"]` and
`action_masks()` give each environment's legal presses.

Randomness: environment i draws the opening draw (first_player="random") and its opponent's
choices from its own SplitMix64 stream (batch.py's), seeded from `reset(seed=...)` through
`stream_seeds(seed, num_envs)`: the single environment's stream for seed + i, drawn from in the
same order, so environment i plays the matches of the single environment reset with seed + i
(what Gymnasium's SyncVectorEnv gives environment i), step for step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trapworks.core.vector_env import BatchedVectorEnv, stream_seeds

from . import batch
from .game import LastMouseLostGame, _fastlml

STATE_SLOTS = 8  # per environment, _fastlml.c's VS_SLOTS


class LastMouseLostVectorEnv(BatchedVectorEnv):
    """Last Mouse Lost for one learning seat in `num_envs` matches at once (_fastlml.c)."""

    game_id = "last-mouse-lost"
    title = "Last Mouse Lost"

    def __init__(
        self,
        num_envs: int = 1,
        game_id: str = "last-mouse-lost",
        seat: int = 0,
        opponents: str | list[str] = "random",
        render_mode: str | None = None,
        **options: Any,
    ):
        if _fastlml is None or not hasattr(_fastlml, "vector_step"):
            raise ValueError(
                "the compiled Last Mouse Lost engine is not built (or TRAPWORKS_PURE_PYTHON is set): "
                "use vectorization_mode='sync'"
            )
        game, opponent_of = self._open(
            num_envs, game_id, seat, opponents, render_mode, options, batch.POLICIES
        )
        assert isinstance(game, LastMouseLostGame)
        spec = game.tables.spec
        if spec is None:
            raise ValueError(
                f"the compiled engine holds boards of up to 64 mice, not {sum(game.board)}: "
                "use vectorization_mode='sync'"
            )
        policies = [0, 0]
        policies[1 - seat] = batch.POLICIES[opponent_of[1 - seat]]
        fp = game.options["first_player"]
        self._spec = spec
        self._config = (
            game.full_board,
            int(game.options["first_to"]),
            batch.OPENER_RULES[game.options["opener"]],
            2 if fp == "random" else int(fp),
            policies[0],
            policies[1],
            seat,
        )
        self._S = np.zeros((num_envs, STATE_SLOTS), np.uint64)

    def _reset_into(self, seeds: np.ndarray) -> None:
        _fastlml.vector_reset(self._spec, self._config, self._S, seeds, self._obs, self._mask)

    def _step_into(self, actions: np.ndarray) -> None:
        _fastlml.vector_step(
            self._spec,
            self._config,
            self._S,
            actions,
            self._obs,
            self._mask,
            self._rewards,
            self._terminated,
            self._truncated,
            self._illegal,
        )


__all__ = ["LastMouseLostVectorEnv", "stream_seeds"]
