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
to reset(); so are the card deal and the Booby Trap tray. A game stopped by its turn limit ends as
a truncation.

Rewards (`reward=`): "return" (the default) gives the kernel's returns() at the end, divided by
the game's largest absolute utility so that every game's rewards lie in -1..1 (as in the
Gymnasium adapter); "placement" ranks the seats instead: the winners first, the seats still in
next, then the eliminated ones, the last eliminated best, each place worth 1 down to -1 in equal
steps (tied seats share the average). An agent eliminated before the end (a Mouse Trap mouse
caught, a 13 Dead End Drive player without Character cards) is terminated then, with the loser's
reward (its place's, with "placement"), and leaves `env.agents` after its last step(None).

`infos[agent]` after each step: "chance", the chance outcomes drawn since that the agent may see
(their notation: dice, the trap's stages, portraits; a hidden draw of the kernel's chance model
only to the seat that sees it, `chance_visible_to`), and "events", the events of the actions
since that the agent may see (its own private ones, every public one). `state()` is the global
state: every seat's observation tensor, one after the other (for centralised critics).

Parallel API (`parallel_env(game_id, ...)`, `TrapworksParallelEnv`): no trapworks game has
simultaneous or independent moves (in all four one seat acts at a time, often several actions in
a turn), so the parallel environment is turn-based, as PettingZoo's `turn_based_aec_to_parallel`
makes one: `step(actions)` takes an action from every live agent, applies the one of the agent to
move (the agent whose "action_mask" is not all zero; the others' are ignored, any value) and
returns every live agent's observation, reward, termination, truncation and infos; an agent
eliminated or finished leaves `env.agents` in the step that ends it. It is a class of its own
(tested with PettingZoo's `parallel_api_test` on every game), not a wrapper. PettingZoo's plain
`aec_to_parallel` (every agent acting once per cycle, in seat order) is valid only where the
seats strictly take turns one action each from seat 0: Last Mouse Lost with `first_to=1` and a
fixed `first_player=0` (a match of rounds lets the round's loser open; Mouse Trap, Booby Trap and
13 Dead End Drive have turns of several actions), so this module does not offer it.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

import trapworks
from trapworks.core.game import State, sample_chance

from ._common import (
    KeepsObservationWriter,
    action_mask,
    eliminated,
    observation_writer,
    reward_scale,
    setup_seed,
    visible_events,
)

REWARDS = ("return", "placement")


class TrapworksAECEnv(KeepsObservationWriter, AECEnv):
    """Every seat of a trapworks game as a PettingZoo AEC agent (see the module's notes)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "trapworks", "is_parallelizable": False}

    def __init__(self, game_id: str, render_mode: str | None = None, reward: str = "return", **options: Any):
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward {reward!r}: choose one of {', '.join(REWARDS)}")
        self.reward_mode = reward
        modes = list(self.metadata["render_modes"])  # type: ignore[call-overload]
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode {render_mode!r}: choose one of {self.metadata['render_modes']}")
        self.game = trapworks.make(game_id, **options)
        self._observe = observation_writer(self.game)
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
        self.state_space = gymnasium.spaces.Box(
            enc.low, enc.high, shape=(n * enc.observation_size(),), dtype=np.float32
        )
        self.reward_scale = reward_scale(self.game)
        self._rng = random.Random()
        self.tw_state: State | None = None  # the kernel state
        self._out: list[set[int]] = []  # the seats eliminated, one set per step that eliminated some

    def state(self) -> np.ndarray:
        """The global state: every seat's observation tensor, one after the other."""
        if self.tw_state is None:
            raise RuntimeError("call reset() first")
        return np.concatenate([self._observe(self.tw_state, s) for s in range(self.game.num_players())])

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.tw_state is not None, "call reset() first"
        seat = self.agent_name_mapping[agent]
        return {
            "observation": self._observe(self.tw_state, seat),
            "action_mask": action_mask(self.game, self.tw_state, seat),
        }

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.tw_state = self.game.new_initial_state(seed=setup_seed(self._rng))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {"chance": [], "events": []} for a in self.agents}
        self._out = []
        self._resolve()
        self.agent_selection = self.possible_agents[self.tw_state.current_player()]

    def _resolve(self) -> None:
        """Chance moves until a seat is to move; its outcomes and events go into every infos."""
        state = self.tw_state
        assert state is not None
        while True:
            for a, seat in self.agent_name_mapping.items():
                if a in self.infos:
                    self.infos[a]["events"].extend(visible_events(state, seat))
            if not state.is_chance_node():
                return
            before = state.clone()
            # Who sees this outcome: everybody, unless the kernel's chance model holds hidden
            # draws (13 Dead End Drive deal=chance, Booby Trap setup/noise=chance).
            visible = getattr(before, "chance_visible_to", None)
            who = -1 if visible is None else visible()
            outcome = resolve_chance_once(state, self._rng)
            text = before.action_to_string(outcome)
            for a in self.infos:
                if who == -1 or who == self.agent_name_mapping[a]:
                    self.infos[a]["chance"].append(text)

    def _place_value(self, places: list[float]) -> float:
        n = self.game.num_players()
        return sum(1.0 - 2.0 * (p - 1) / max(1, n - 1) for p in places) / len(places)

    def _final_rewards(self, state: State) -> dict[str, float]:
        n = self.game.num_players()
        if self.reward_mode == "return":
            returns = state.returns()
            return {a: float(returns[s]) / self.reward_scale for a, s in self.agent_name_mapping.items()}
        # Placement: the eliminated take the last places (the first out, the last place).
        out_seats = [s for group in self._out for s in group]
        winners = [] if state.is_truncated() else state.winners()
        rest = [s for s in range(n) if s not in winners and s not in out_seats]
        order = [winners, rest] + list(reversed(self._out))
        values: dict[int, float] = {}
        place = 1
        for group in order:
            if group:
                value = self._place_value(list(range(place, place + len(group))))
                values.update(dict.fromkeys(group, value))
                place += len(group)
        return {a: values[s] for a, s in self.agent_name_mapping.items()}

    def _loser_reward(self, newly: set[int], already: int) -> float:
        n = self.game.num_players()
        if self.reward_mode == "placement":
            last = n - already
            return self._place_value(list(range(last - len(newly) + 1, last + 1)))
        # The loser's return (zero-sum games share the winner's gain among the losers).
        g = self.game
        if g.utility_sum() == 0.0 and n > 1:
            return -g.max_utility() / (n - 1) / self.reward_scale
        return g.min_utility() / self.reward_scale

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.tw_state is not None
        state = self.tw_state
        self._cumulative_rewards[agent] = 0.0
        assert action is not None  # None is only for a finished agent (handled above)
        state.apply_action(int(action))  # an illegal action raises IllegalActionError, state unchanged
        self.infos = {a: {"chance": [], "events": []} for a in self.agents}
        self._resolve()
        self.rewards = {a: 0.0 for a in self.agents}
        if state.is_terminal():
            final = self._final_rewards(state)
            stopped = state.is_truncated()
            for a in self.agents:
                if not self.terminations[a]:
                    self.rewards[a] = final[a]
                    self.terminations[a] = not stopped
                    self.truncations[a] = stopped
        else:
            known = {s for group in self._out for s in group}
            newly = eliminated(state) - known
            if newly:
                reward = self._loser_reward(newly, len(known))
                self._out.append(newly)
                for s in newly:
                    self.rewards[self.possible_agents[s]] = reward
                    self.terminations[self.possible_agents[s]] = True
            self.agent_selection = self.possible_agents[state.current_player()]
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        text = self.tw_state.render_text() if self.tw_state is not None else "(not started: call reset())"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def resolve_chance_once(state: State, rng: random.Random) -> int:
    """Draw and apply one chance outcome; the outcome."""
    outcome = sample_chance(state, rng)
    state.apply_action(outcome)
    return outcome


def raw_env(
    game_id: str, render_mode: str | None = None, reward: str = "return", **options: Any
) -> TrapworksAECEnv:
    return TrapworksAECEnv(game_id, render_mode=render_mode, reward=reward, **options)


def env(game_id: str, render_mode: str | None = None, reward: str = "return", **options: Any) -> AECEnv:
    """The AEC environment of game `game_id` with trapworks options, in PettingZoo's usual wrappers
    (an illegal action raises an error naming it; order of calls is checked)."""
    e = raw_env(game_id, render_mode=render_mode, reward=reward, **options)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class TrapworksParallelEnv(ParallelEnv):
    """Every seat of a trapworks game as a PettingZoo parallel agent, turn-based: each step
    applies the action of the agent to move and ignores the others' (see the module's notes).
    The same game, seeds, spaces, rewards and infos as the AEC environment it runs."""

    metadata = {"render_modes": ["human", "ansi"], "name": "trapworks", "is_parallelizable": True}

    def __init__(self, game_id: str, render_mode: str | None = None, reward: str = "return", **options: Any):
        self.aec = TrapworksAECEnv(game_id, render_mode=render_mode, reward=reward, **options)
        self.metadata = {**self.metadata, "name": f"{self.aec.metadata['name']}_parallel"}
        self.render_mode = render_mode
        self.game = self.aec.game
        self.possible_agents = self.aec.possible_agents[:]
        self.observation_spaces = self.aec.observation_spaces
        self.action_spaces = self.aec.action_spaces
        self.state_space = self.aec.state_space
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    def state(self) -> np.ndarray:
        """The global state: every seat's observation tensor, one after the other."""
        return self.aec.state()

    @property
    def agent_to_move(self) -> str | None:
        """The agent whose action the next step applies (None once the game is over)."""
        return self.aec.agent_selection if self.agents else None

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = self.aec.agents[:]
        observations = {a: self.aec.observe(a) for a in self.agents}
        return observations, {a: dict(self.aec.infos[a]) for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        aec = self.aec
        mover = aec.agent_selection
        if mover not in actions:
            raise ValueError(
                f"no action for {mover}, the agent to move (its action_mask marks its legal actions); "
                f"actions were given for {sorted(actions)}"
            )
        live = self.agents[:]
        aec.step(int(actions[mover]))
        rewards = {a: float(aec.rewards.get(a, 0.0)) for a in live}
        terminations = {a: bool(aec.terminations.get(a, False)) for a in live}
        truncations = {a: bool(aec.truncations.get(a, False)) for a in live}
        infos = {a: dict(aec.infos.get(a, {"chance": [], "events": []})) for a in live}
        observations = {a: aec.observe(a) for a in live}
        # Finished agents leave now (the AEC environment takes their step(None) first).
        while aec.agents and (aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]):
            aec.step(None)
        self.agents = aec.agents[:]
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


def parallel_env(
    game_id: str, render_mode: str | None = None, reward: str = "return", **options: Any
) -> TrapworksParallelEnv:
    """The turn-based parallel environment of game `game_id` with trapworks options."""
    return TrapworksParallelEnv(game_id, render_mode=render_mode, reward=reward, **options)


__all__ = ["TrapworksAECEnv", "TrapworksParallelEnv", "env", "parallel_env", "raw_env"]
