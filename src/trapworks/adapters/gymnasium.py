"""Every trapworks game as a single-agent Gymnasium environment: one seat learns, trapworks
agents play the others.

    import gymnasium as gym
    import trapworks.adapters.gymnasium  # registers the ids
    env = gym.make("trapworks/LastMouseLost-v0", board=[1, 2, 3], first_to=1, opponents="random")
    obs, info = env.reset(seed=0)
    action = int(np.flatnonzero(info["action_mask"])[0])
    obs, reward, terminated, truncated, info = env.step(action)

Ids: trapworks/LastMouseLost-v0, trapworks/MouseTrap-v0, trapworks/BoobyTrap-v0,
trapworks/DeadEndDrive-v0. Keyword arguments: `seat` (the learning seat, default 0),
`opponents` (one agent name for every other seat, or a list with one per other seat, in seat
order: "random", a level "easy"/"medium"/"hard", or any agent of the game; default "random"),
`render_mode` ("ansi" or "human"), and every trapworks option of the game.

The observation is the seat's observation tensor (from its view only); `env.action_masks()`
(what sb3-contrib's MaskablePPO reads, no wrapper needed) and `info["action_mask"]` mark the legal
actions. The reward is the seat's return at the end (0 before), on one scale for every game:
the return divided by the game's largest absolute utility, so in -1..1 (Booby Trap's net
scores too; `env.reward_scale` is the divisor). An action id outside the action space raises a
ValueError naming the range; an id inside it that is illegal now ends the episode as a loss
(reward -1, `info["illegal_action"]` set), so that an unmasked policy learns to avoid it; a game
stopped by its turn limit is truncated. Analysis agents that read what no seat may know (Booby
Trap's `oracle`) are refused as opponents.

Randomness: `reset(seed=s)` starts one generator, `env_stream(s)` (core/stream.py: the batched
engines' SplitMix64 stream as a `random.Random`), which draws the game's setup
(`Game.new_initial_state_from`), every chance outcome and every opponent's choice (it is their
`rng`), and runs on through later resets without a seed. A game's batched vector environment
(`gymnasium.make_vec`) gives environment i of `reset(seed=s)` the stream `env_stream(s + i)` and
draws from it in the same order, so environment i plays the game this environment plays when
reset with s + i, step for step (what Gymnasium's SyncVectorEnv gives environment i).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

import trapworks
from trapworks.agents import Agent, make_agent
from trapworks.core.game import State
from trapworks.core.registry import game_spec, game_specs
from trapworks.core.spec import GameSpec
from trapworks.core.stream import SharedStream, env_stream

from ._common import (
    KeepsObservationWriter,
    action_mask,
    observation_writer,
    resolve_chance,
    reward_scale,
)
from .params import gym_id

# game id -> Gymnasium id (trapworks/<GameIdInCamelCase>-v0), derived from each game's spec when
# it is registered here (register_env); every game of the registry is registered on import.
ENV_IDS: dict[str, str] = {}


class TrapworksEnv(KeepsObservationWriter, gymnasium.Env):
    """One seat of a trapworks game as a Gymnasium environment; trapworks agents play the other
    seats (see the module's notes for the arguments, the reward scale and the masks)."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}

    def __init__(
        self,
        game_id: str,
        seat: int = 0,
        opponents: str | list[str] = "random",
        render_mode: str | None = None,
        **options: Any,
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: choose one of {self.metadata['render_modes']}")
        self.game = trapworks.make(game_id, **options)
        self._observe = observation_writer(self.game)
        n = self.game.num_players()
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat {seat!r}: the learning seat is one of 0..{n - 1}")
        self.seat = seat
        others = [s for s in range(n) if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise ValueError(f"opponents: {len(names)} given for {len(others)} other seat(s) {others}")
        self.opponent_names = dict(zip(others, names, strict=True))
        analysis = self.game.spec.analysis_agents()
        for s, name in self.opponent_names.items():
            if name in analysis:
                raise ValueError(
                    f"opponents: {name!r} reads what no seat may know (an analysis agent); "
                    "choose an agent that plays from its own view"
                )
            make_agent(name, self.game, s, seed=0)  # fails now, naming the agent, if unknown
        self.render_mode = render_mode
        enc = self.game.encoder()
        self.observation_space = gymnasium.spaces.Box(
            enc.low, enc.high, shape=enc.observation_shape(), dtype=np.float32
        )
        self.action_space = gymnasium.spaces.Discrete(self.game.num_distinct_actions())
        self._rng: SharedStream = env_stream(None)
        self.state: State | None = None
        self.opponents: dict[int, Agent] = {}
        self._done = False
        self.reward_scale = reward_scale(self.game)

    def action_masks(self) -> np.ndarray:
        """True for each legal action of the learning seat now (MaskablePPO calls this)."""
        if self.state is None:
            raise RuntimeError("call reset() first")
        return action_mask(self.game, self.state, self.seat).astype(bool)

    def _info(self) -> dict[str, Any]:
        assert self.state is not None
        return {"action_mask": action_mask(self.game, self.state, self.seat)}

    def _play_others(self) -> None:
        """Chance and the opponents move until it is the learning seat's turn or the game ends."""
        state = self.state
        assert state is not None
        while True:
            resolve_chance(state, self._rng)
            if state.is_terminal() or state.current_player() == self.seat:
                return
            state.apply_action(self.opponents[state.current_player()].step(state))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = env_stream(seed)
        self.state = self.game.new_initial_state_from(self._rng)
        self._done = False
        self.opponents = {}
        for s, name in self.opponent_names.items():
            agent = self.opponents[s] = make_agent(name, self.game, s, seed=0)
            agent.rng = self._rng  # the opponents draw from the environment's one stream
        self._play_others()
        return self._observe(self.state, self.seat), self._info()

    def step(self, action: int):
        state = self.state
        assert state is not None, "call reset() first"
        if self._done or state.is_terminal():
            raise RuntimeError("the episode is over: call reset()")
        n = self.game.num_distinct_actions()
        try:
            index = int(action)
        except (TypeError, ValueError):
            index = -1
        if isinstance(action, bool) or index != action or not 0 <= index < n:
            raise ValueError(
                f"action {action!r} is not an action id: ids are 0..{n - 1} "
                "(env.action_masks() marks the legal ones)"
            )
        action = index
        if action not in state.legal_actions():
            # The state stays as it was (the kernel never applies an illegal action); the episode ends.
            self._done = True
            info = {**self._info(), "illegal_action": True}
            return self._observe(state, self.seat), -1.0, True, False, info
        state.apply_action(action)
        self._play_others()
        reward = 0.0
        terminated = truncated = False
        if state.is_terminal():
            reward = float(state.returns()[self.seat]) / self.reward_scale
            truncated = state.is_truncated()
            terminated = not truncated
        if self.render_mode == "human":
            self.render()
        return self._observe(state, self.seat), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        text = self.state.render_text(self.seat) if self.state is not None else "(not started: call reset())"
        if self.render_mode == "human":
            print(text)
            return None
        return text


def register_env(spec: GameSpec | str) -> str:
    """Register a game's Gymnasium environment (once); returns its id. A game registered with
    trapworks after this module was imported (a test's example game) is added by calling this."""
    spec = game_spec(spec) if isinstance(spec, str) else spec
    env_id = ENV_IDS[spec.game_id] = gym_id(spec)
    if env_id not in gymnasium.registry:
        gymnasium.register(
            id=env_id,
            entry_point=TrapworksEnv,  # type: ignore[arg-type]
            # A game's batched vector env where its spec names one (else make_vec copies the env).
            vector_entry_point=spec.vector_env,
            kwargs={"game_id": spec.game_id},
        )
    return env_id


for _spec in game_specs():
    if _spec.encoder is not None:  # observations need one: a game without is not offered
        register_env(_spec)


__all__ = ["ENV_IDS", "TrapworksEnv", "register_env"]
