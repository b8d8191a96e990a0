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
`stream_seeds(seed, num_envs)`; the same seed gives the same matches.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import trapworks

from . import batch
from .game import LastMouseLostGame, _fastlml

STATE_SLOTS = 8  # per environment, _fastlml.c's VS_SLOTS


def stream_seeds(seed: int | None, num_envs: int) -> np.ndarray:
    """Each environment's stream seed: from `seed` by NumPy's SeedSequence (fresh entropy for None)."""
    return np.random.SeedSequence(seed).generate_state(num_envs, dtype=np.uint64)


class LastMouseLostVectorEnv(VectorEnv):
    """Last Mouse Lost for one learning seat in `num_envs` matches at once (_fastlml.c)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
        game_id: str = "last-mouse-lost",
        seat: int = 0,
        opponents: str | list[str] = "random",
        render_mode: str | None = None,
        **options: Any,
    ):
        if game_id != "last-mouse-lost":
            raise ValueError(f"LastMouseLostVectorEnv plays last-mouse-lost, not {game_id!r}")
        if render_mode is not None:
            raise ValueError(
                "the batched Last Mouse Lost environments do not render; use TrapworksEnv for that"
            )
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs {num_envs!r}: a whole number of environments, at least 1")
        game = trapworks.make(game_id, **options)
        assert isinstance(game, LastMouseLostGame)
        if _fastlml is None or not hasattr(_fastlml, "vector_step"):
            raise ValueError(
                "the compiled Last Mouse Lost engine is not built (or TRAPWORKS_PURE_PYTHON is set): "
                "use vectorization_mode='sync'"
            )
        spec = game.tables.spec
        if spec is None:
            raise ValueError(
                f"the compiled engine holds boards of up to 64 mice, not {sum(game.board)}: "
                "use vectorization_mode='sync'"
            )
        self.game = game
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 2:
            raise ValueError(f"seat {seat!r}: the learning seat is one of 0..1")
        names = [opponents] if isinstance(opponents, str) else list(opponents)
        if len(names) != 1:
            raise ValueError(f"opponents: {len(names)} given for 1 other seat(s) [{1 - seat}]")
        if names[0] not in batch.POLICIES:
            raise ValueError(
                f"opponent {names[0]!r}: the batched engine plays {', '.join(batch.POLICIES)} "
                "(use vectorization_mode='sync' for other agents)"
            )
        policies = [0, 0]
        policies[1 - seat] = batch.POLICIES[names[0]]
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
        size = self.single_observation_space.shape[0]
        self._S = np.zeros((num_envs, STATE_SLOTS), np.uint64)
        self._obs = np.zeros((num_envs, size), np.float32)
        self._mask = np.zeros((num_envs, self._num_actions), np.int8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminated = np.zeros(num_envs, np.bool_)
        self._truncated = np.zeros(num_envs, np.bool_)
        self._illegal = np.zeros(num_envs, np.bool_)
        self._started = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        seeds = stream_seeds(seed, self.num_envs)
        _fastlml.vector_reset(self._spec, self._config, self._S, seeds, self._obs, self._mask)
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
        _fastlml.vector_step(
            self._spec,
            self._config,
            self._S,
            np.ascontiguousarray(acts, np.int64),
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
        """Each environment's legal actions (True) as of the last reset or step (for MaskablePPO)."""
        return self._mask.astype(bool)


__all__ = ["LastMouseLostVectorEnv", "stream_seeds"]
