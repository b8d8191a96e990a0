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
from `reset(seed=...)` through `stream_seeds(seed, num_envs)`; the same seed gives the same games.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import trapworks

from .game import MouseTrapGame


def stream_seeds(seed: int | None, num_envs: int) -> np.ndarray:
    """Each environment's stream seed: from `seed` by NumPy's SeedSequence (fresh entropy for None)."""
    return np.random.SeedSequence(seed).generate_state(num_envs, dtype=np.uint64)


class MouseTrapVectorEnv(VectorEnv):
    """Mouse Trap for one learning seat in `num_envs` games at once (trapworks.games.mouse_trap.batch)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

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

        if game_id != "mouse-trap":
            raise ValueError(f"MouseTrapVectorEnv plays mouse-trap, not {game_id!r}")
        if render_mode is not None:
            raise ValueError("the batched Mouse Trap environments do not render; use TrapworksEnv for that")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs {num_envs!r}: a whole number of environments, at least 1")
        game = trapworks.make(game_id, **options)
        assert isinstance(game, MouseTrapGame)
        self.game = game
        n = game.num_players()
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat {seat!r}: the learning seat is one of 0..{n - 1}")
        others = [s for s in range(n) if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise ValueError(f"opponents: {len(names)} given for {len(others)} other seat(s) {others}")
        for name in names:
            if name not in batch.POLICIES:
                raise ValueError(
                    f"opponent {name!r}: the batched engine plays {', '.join(batch.POLICIES)} "
                    "(use vectorization_mode='sync' for other agents)"
                )
        self._batch = batch
        self.num_envs = num_envs
        self.seat = seat
        self.policies = np.zeros(4, np.int64)
        for s, name in zip(others, names, strict=True):
            self.policies[s] = batch.POLICIES[name]
        tables = batch.engine_tables(game)
        self._params = tables["params"]
        self._tables = batch.engine_tuple(tables)
        self._supply = int(game.supply)
        self._turn_limit = int(game.turn_limit or 0)
        self._lose = float(-1.0 / (n - 1))
        enc = game.encoder()
        self.single_observation_space = gymnasium.spaces.Box(
            enc.low, enc.high, shape=enc.observation_shape(), dtype=np.float32
        )
        self._num_actions = game.num_distinct_actions()
        self.single_action_space = gymnasium.spaces.Discrete(self._num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None
        size = self.single_observation_space.shape[0]
        self._S = np.zeros((num_envs, batch.STATE_SIZE), np.int64)
        self._mice = np.zeros((num_envs, 4), np.int64)
        self._cheese = np.zeros((num_envs, 4), np.int64)
        self._jams = np.zeros((num_envs, max(1, len(game.stage_odds))), np.int64)
        self._streams = np.zeros((num_envs, 1), np.uint64)
        self._ended = np.zeros(num_envs, np.bool_)
        self._obs = np.zeros((num_envs, size), np.float32)
        self._mask = np.zeros((num_envs, self._num_actions), np.int8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminated = np.zeros(num_envs, np.bool_)
        self._truncated = np.zeros(num_envs, np.bool_)
        self._illegal = np.zeros(num_envs, np.bool_)
        self._started = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self._streams[:, 0] = stream_seeds(seed, self.num_envs)
        self._ended[:] = False
        self._batch.vector_reset(
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
            self._obs,
            self._mask,
        )
        self._started = True
        return self._obs.copy(), {"action_mask": self._mask.copy()}

    def step(self, actions: Any):
        if not self._started:
            raise RuntimeError("call reset() first")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(
                f"actions: {self.num_envs} integer action ids, one per environment (got {acts!r})"
            )
        bad = np.flatnonzero((acts < 0) | (acts >= self._num_actions))
        if bad.size:
            e = int(bad[0])
            raise ValueError(
                f"action {int(acts[e])} for environment {e} is out of range: "
                f"ids are 0..{self._num_actions - 1}"
            )
        self._batch.vector_step(
            acts.astype(np.int64),
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
            self._lose,
            -1.0,
            self._ended,
            self._obs,
            self._mask,
            self._rewards,
            self._terminated,
            self._truncated,
            self._illegal,
        )
        info: dict[str, Any] = {"action_mask": self._mask.copy()}
        if self._illegal.any():
            info["illegal_action"] = self._illegal.copy()
            info["_illegal_action"] = self._illegal.copy()
        return (
            self._obs.copy(),
            self._rewards.copy(),
            self._terminated.copy(),
            self._truncated.copy(),
            info,
        )

    def action_masks(self) -> np.ndarray:
        """Each environment's legal actions (1) as of the last reset or step (for MaskablePPO)."""
        return self._mask.astype(bool)


__all__ = ["MouseTrapVectorEnv", "stream_seeds"]
