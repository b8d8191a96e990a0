"""Mouse Trap's vector environment, backed by its batched engine (not by N Python copies of the
kernel); declared in the game's spec (`GameSpec.vector_env`), registered by the Gymnasium adapter.

    import gymnasium as gym
    import trapworks.adapters.gymnasium  # registers the ids
    envs = gym.make_vec("trapworks/MouseTrap-v0", num_envs=256, players=4, opponents="heuristic")
    obs, info = envs.reset(seed=0)
    actions = np.array([np.flatnonzero(m)[0] for m in envs.action_masks()])
    obs, rewards, terminated, truncated, info = envs.step(actions)

The same game, seat, opponents, observation, reward and illegal-move rule as the single
environment (trapworks.adapters.gymnasium.TrapworksEnv), `num_envs` games at once in compiled code.
Opponents are the engine's agents ("random", "heuristic", "double-catch"). Episodes that end are
reset on the next step (Gymnasium's next-step autoreset: that step's action is ignored, its reward
is 0). `info["action_mask"]` and `action_masks()` give each environment's legal actions.

Randomness: environment i draws chance and its opponents' choices from its own stream, seeded
from `reset(seed=...)` through `stream_seeds(seed, num_envs)`: the single environment's stream for
seed + i, drawn from in the same order, so environment i plays the games of the single environment
reset with seed + i (what Gymnasium's SyncVectorEnv gives environment i), step for step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trapworks.core.vector_env import BatchedVectorEnv, stream_seeds

from .game import MouseTrapGame


class MouseTrapVectorEnv(BatchedVectorEnv):
    """Mouse Trap for one learning seat in `num_envs` games at once (trapworks.games.mouse_trap.batch)."""

    game_id = "mouse-trap"
    title = "Mouse Trap"

    def __init__(
        self,
        num_envs: int = 1,
        game_id: str = "mouse-trap",
        seat: int = 0,
        opponents: str | list[str] = "random",
        render_mode: str | None = None,
        **options: Any,
    ):
        from trapworks.games.mouse_trap import batch

        game, opponent_of = self._open(
            num_envs, game_id, seat, opponents, render_mode, options, batch.POLICIES
        )
        assert isinstance(game, MouseTrapGame)
        self._batch = batch
        self.policies = np.zeros(4, np.int64)
        for s, name in opponent_of.items():
            self.policies[s] = batch.POLICIES[name]
        tables = batch.engine_tables(game)
        self._params = tables["params"]
        self._tables = batch.engine_tuple(tables)
        self._supply = int(game.supply)
        self._turn_limit = int(game.turn_limit or 0)
        self._S = np.zeros((num_envs, batch.STATE_SIZE), np.int64)
        self._mice = np.zeros((num_envs, 4), np.int64)
        self._cheese = np.zeros((num_envs, 4), np.int64)
        self._jams = np.zeros((num_envs, max(1, len(game.stage_odds))), np.int64)
        self._streams = np.zeros((num_envs, 1), np.uint64)
        self._ended = np.zeros(num_envs, np.bool_)
        self._work = np.zeros((num_envs, 2, 8), np.int64)  # the engine's scratch rows

    def _engine(self) -> tuple[Any, ...]:
        # The engine's game arrays and settings, as vector_step takes them.
        return (
            self._S,
            self._params,
            self._mice,
            self._cheese,
            self._jams,
            self._streams,
            self._tables,
            self.policies,
            self.seat,
            self._supply,
            self._turn_limit,
        )

    def _reset_into(self, seeds: np.ndarray) -> None:
        self._streams[:, 0] = seeds
        self._ended[:] = True  # the step's autoreset starts every game: one compiled function
        self._step_into(np.zeros(self.num_envs, np.int64))

    def _step_into(self, actions: np.ndarray) -> None:
        run: Any = self._batch.vector_step  # the compiled step, in chunks of environments
        run(
            actions,
            *self._engine(),
            self._lose,
            -1.0,
            self._ended,
            self._obs,
            self._mask,
            self._rewards,
            self._terminated,
            self._truncated,
            self._illegal,
            self._work,
        )


__all__ = ["MouseTrapVectorEnv", "stream_seeds"]
