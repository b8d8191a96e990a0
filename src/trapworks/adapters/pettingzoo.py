"""Every trapworks game as a PettingZoo AEC environment.

    from trapworks.adapters.pettingzoo import env
    e = env("last-mouse-lost", board=[1, 2, 3], first_to=1)
    e.reset(seed=42)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0])
        e.step(action)

Agents are "player_0", "player_1"... (seat order). An observation is a dict, as in PettingZoo's
classic games: "observation" (the kernel's observation tensor of that seat, built from its
view only) and "action_mask" (1 for each legal action; all zero when it is not the agent's move).
Chance (dice, the trap, who opens, portraits) is drawn inside the environment from the seed given
to reset(); so are the card deal and the Booby Trap tray. Rewards come at the end: the kernel's
returns(). A game stopped by its turn limit ends as a truncation.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import trapworks
from trapworks.core.game import State

from ._common import action_mask, observation_array, resolve_chance, setup_seed


class TrapworksAECEnv(AECEnv):
    metadata = {"render_modes": ["human", "ansi"], "name": "trapworks", "is_parallelizable": False}

    def __init__(self, game_id: str, render_mode: str | None = None, **options: Any):
        super().__init__()
        modes = list(self.metadata["render_modes"])  # type: ignore[call-overload]
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode {render_mode!r}: choose one of {self.metadata['render_modes']}")
        self.game = trapworks.make(game_id, **options)
        self.metadata = {**self.metadata, "name": f"trapworks_{game_id.replace('-', '_')}"}
        self.render_mode = render_mode
        n = self.game.num_players()
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        enc = self.game.encoder()
        obs_box = gymnasium.spaces.Box(enc.low, enc.high, shape=enc.observation_shape(), dtype=np.float32)
        mask_box = gymnasium.spaces.Box(0, 1, shape=(self.game.num_distinct_actions(),), dtype=np.int8)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({"observation": obs_box, "action_mask": mask_box})
            for a in self.possible_agents
        }
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(self.game.num_distinct_actions()) for a in self.possible_agents
        }
        self._rng = random.Random()
        self.state: State | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.state is not None, "call reset() first"
        seat = self.agent_name_mapping[agent]
        return {
            "observation": observation_array(self.state, seat),
            "action_mask": action_mask(self.game, self.state, seat),
        }

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.game.new_initial_state(seed=setup_seed(self._rng))
        resolve_chance(self.state, self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None
        state = self.state
        self._cumulative_rewards[agent] = 0.0
        assert action is not None  # None is only for a finished agent (handled above)
        state.apply_action(int(action))  # an illegal action raises IllegalActionError, state unchanged
        resolve_chance(state, self._rng)
        if state.is_terminal():
            returns = state.returns()
            stopped = state.is_truncated()
            for a, seat in self.agent_name_mapping.items():
                self.rewards[a] = float(returns[seat])
                self.terminations[a] = not stopped
                self.truncations[a] = stopped
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = self.possible_agents[state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        text = self.state.render_text() if self.state is not None else "(not started: call reset())"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(game_id: str, render_mode: str | None = None, **options: Any) -> TrapworksAECEnv:
    return TrapworksAECEnv(game_id, render_mode=render_mode, **options)


def env(game_id: str, render_mode: str | None = None, **options: Any) -> AECEnv:
    """The AEC environment of game `game_id` with trapworks options, in PettingZoo's usual wrappers
    (an illegal action raises an error naming it; order of calls is checked)."""
    e = raw_env(game_id, render_mode=render_mode, **options)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


__all__ = ["TrapworksAECEnv", "env", "raw_env"]
