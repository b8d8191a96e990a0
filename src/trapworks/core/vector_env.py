"""What every game's batched vector environment shares (a game declares its own in its spec,
`GameSpec.vector_env`): the checks of its arguments, the spaces, the buffers the compiled engine
writes into, the checks of a step's actions, the results and `action_masks()`.

A game's class says how to start and step its engine (`_reset_into`, `_step_into`, writing the
buffers `_obs`, `_mask`, `_rewards`, `_terminated`, `_truncated` and `_illegal`); this class is
the same environment contract for all of them: one learning seat, the other seats played by the
engine's agents, the single environment's observation and reward, Gymnasium's next-step
autoreset, and environment i's randomness from its own stream (`stream_seeds`): the single
environment's for seed + i, drawn from in the same order, so that environment i plays the game
the single environment plays, step for step (tests/research/test_vector_env_sync.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from trapworks.core.words import plural

from .game import Game
from .registry import make
from .stream import env_stream_seed


def stream_seeds(seed: int | None, num_envs: int) -> np.ndarray:
    """Each environment's stream seed: environment i's is the single environment's for seed + i
    (`env_stream_seed`), so that it plays what Gymnasium's SyncVectorEnv's environment i plays;
    fresh entropy for None."""
    if seed is None:
        return np.random.SeedSequence().generate_state(num_envs, dtype=np.uint64)
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed {seed!r}: a non-negative whole number, or None")
    return np.array([env_stream_seed(int(seed) + i) for i in range(num_envs)], dtype=np.uint64)


class BatchedVectorEnv(VectorEnv):
    """One learning seat in `num_envs` games at once, played by a game's batched engine."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}
    game_id: ClassVar[str]  # the game the class plays
    title: ClassVar[str]  # its name in messages

    def _open(
        self,
        num_envs: Any,
        game_id: str,
        seat: Any,
        opponents: str | list[str],
        render_mode: str | None,
        options: dict[str, Any],
        policies: Mapping[str, int],
        refusal: str | None = None,
    ) -> tuple[Game, dict[int, str]]:
        """Check the arguments, make the game, the spaces and the result buffers; answer the game
        and each other seat's opponent (one of `policies`, the engine's agents; `refusal` says
        what the engine plays when another is asked for)."""
        if game_id != self.game_id:
            raise ValueError(f"{type(self).__name__} plays {self.game_id}, not {game_id!r}")
        if render_mode is not None:
            raise ValueError(
                f"the batched {self.title} environments do not render; use TrapworksEnv for that"
            )
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs {num_envs!r}: a whole number of environments, at least 1")
        game = make(game_id, **options)
        n = game.num_players()
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat {seat!r}: the learning seat is one of 0..{n - 1}")
        others = [s for s in range(n) if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise ValueError(
                f"opponents: {len(names)} given for "
                f"{len(others)} other {plural(len(others), 'seat')} {others}"
            )
        for name in names:
            if name not in policies:
                plays = refusal or f"the batched engine plays {', '.join(policies)}"
                raise ValueError(
                    f"opponent {name!r}: {plays} (use vectorization_mode='sync' for other agents)"
                )
        self.game = game
        self.num_envs = num_envs
        self.seat = seat
        enc = game.encoder()
        self.single_observation_space = gymnasium.spaces.Box(
            enc.low, enc.high, shape=enc.observation_shape(), dtype=np.float32
        )
        self._num_actions = game.num_distinct_actions()
        self.single_action_space = gymnasium.spaces.Discrete(self._num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None
        self._lose = float(-1.0 / (n - 1))  # the single environment's reward for a loss
        size = self.single_observation_space.shape[0]
        self._obs = np.zeros((num_envs, size), np.float32)
        self._mask = np.zeros((num_envs, self._num_actions), np.int8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminated = np.zeros(num_envs, np.bool_)
        self._truncated = np.zeros(num_envs, np.bool_)
        self._illegal = np.zeros(num_envs, np.bool_)
        self._started = False
        return game, dict(zip(others, names, strict=True))

    def _reset_into(self, seeds: np.ndarray) -> None:
        """Start every environment's game from its stream seed; write `_obs` and `_mask`."""
        raise NotImplementedError

    def _step_into(self, actions: np.ndarray) -> None:
        """One step of every environment (int64 actions, checked in range); write every buffer."""
        raise NotImplementedError

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._reset_into(stream_seeds(seed, self.num_envs))
        self._started = True
        return self._obs.copy(), {"action_mask": self._mask.copy()}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
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
            last = self._num_actions - 1
            raise ValueError(f"action {int(acts[e])} for environment {e} is out of range: ids are 0..{last}")
        self._step_into(np.ascontiguousarray(acts, np.int64))
        info: dict[str, Any] = {"action_mask": self._mask.copy()}
        if self._illegal.any():
            info["illegal_action"] = self._illegal.copy()
            info["_illegal_action"] = self._illegal.copy()
        return self._obs.copy(), self._rewards.copy(), self._terminated.copy(), self._truncated.copy(), info

    def action_masks(self) -> np.ndarray:
        """Each environment's legal actions (True) as of the last reset or step (for MaskablePPO)."""
        return self._mask.astype(bool)


__all__ = ["BatchedVectorEnv", "stream_seeds"]
