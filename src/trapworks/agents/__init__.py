"""Agents that play any game through the kernel, and the lookup of agents by name.

Generic agents live here; a game's own agents (a solver, a heuristic) are declared in its spec
(`GameSpec.agents`, core/spec.py) and found the same way, so no game is special-cased.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from trapworks.core import Agent, Game, State, TrapworksError
from trapworks.core.spec import spec_of


class RandomAgent(Agent):
    """Picks uniformly among the legal actions."""

    name = "random"
    quick = True

    def step(self, state: State) -> int:
        return self.rng.choice(state.legal_actions())


GENERIC_AGENTS: dict[str, Any] = {
    "random": RandomAgent,
    "mcts": "trapworks.agents.mcts:MCTSAgent",
    "ismcts": "trapworks.agents.ismcts:ISMCTSAgent",
    "rollout": "trapworks.agents.rollout:RolloutAgent",
}
# What a player reads for each generic agent in the lobby (a game's own agents bring their words).
GENERIC_AGENT_WORDS: dict[str, str] = {
    "random": "Random moves",
    "mcts": "Tree search",
    "ismcts": "Tree search over what it cannot see",
    "rollout": "Plays each move out many times",
}
# Generic agents that would read other seats' secrets in a game with hidden information.
PERFECT_INFORMATION_ONLY = {"mcts", "rollout"}
LEVEL_NAMES = ("easy", "medium", "hard")  # resolved by trapworks.agents.levels


def _resolve(factory: Any) -> Callable[..., Agent]:
    if isinstance(factory, str):
        module_name, _, attr = factory.partition(":")
        found: Callable[..., Agent] = getattr(importlib.import_module(module_name), attr)
        return found
    factory_callable: Callable[..., Agent] = factory
    return factory_callable


def own_agents(game: Game) -> dict[str, Any]:
    """The game's own agents offered to play, name -> factory (from its spec; none without one)."""
    spec = spec_of(game)
    return spec.play_agents() if spec is not None else {}


def _analysis_factories(game: Game) -> dict[str, Any]:
    spec = spec_of(game)
    return spec.analysis_agents() if spec is not None else {}


def rollout_policy(game: Game) -> tuple[str, Callable[..., Agent]] | None:
    """(name, factory) of the agent the game declares for rollouts and priors (its spec's
    `rollout_agent`); None: the game declares none (random rollouts, no prior)."""
    spec = spec_of(game)
    factory = spec.rollout_factory() if spec is not None else None
    if spec is None or factory is None or spec.rollout_agent is None:
        return None
    return spec.rollout_agent, _resolve(factory)


def available_agents(game: Game) -> list[str]:
    """Agent names usable in `game`: the levels, the generic agents and the game's own."""
    generic = {
        n for n in GENERIC_AGENTS if not (game.has_hidden_information and n in PERFECT_INFORMATION_ONLY)
    }
    own = own_agents(game)
    return [n for n in LEVEL_NAMES if n not in own] + sorted(generic | set(own))


def analysis_agents(game: Game) -> list[str]:
    """A game's agents for analysis only (they may read hidden things): made by name for
    simulations and tournaments, never a level, never offered to play against."""
    return sorted(_analysis_factories(game))


def agent_words(game: Game) -> dict[str, str]:
    """What a player reads for each agent of `available_agents(game)` that has words (the game's
    own from its spec, the generic ones from GENERIC_AGENT_WORDS); levels are worded by the lobby."""
    spec = spec_of(game)
    words = {**GENERIC_AGENT_WORDS, **(spec.agent_words() if spec is not None else {})}
    return {n: words[n] for n in available_agents(game) if n in words}


# The generic agents whose budget can end on the clock (a level's time cap, or the agent's own
# default): with timed=False they stop on their count budget alone.
TIMED_AGENTS = ("mcts", "ismcts", "rollout")


def make_agent(
    name: str, game: Game, seat: int, seed: int | None = None, *, timed: bool = True, **options: Any
) -> Agent:
    """Make the agent called `name` for `seat` (the game's own agents take precedence).

    timed=False (simulations, tournaments, explore): no time cap, so every move depends on the
    seed alone and a run is reproducible on any machine under any load; a level keeps its
    iteration budget (a move may then take longer than the web app's cap allows)."""
    own = own_agents(game)
    if name in LEVEL_NAMES and name not in own:
        from .levels import level_spec

        agent_name, settings = level_spec(game, name)
        agent = make_agent(agent_name, game, seat, seed=seed, timed=timed, **{**settings, **options})
        agent.level = name
        return agent
    if not timed and name in TIMED_AGENTS and name not in own:
        options = {**options, "time_limit": None}
    # A game's analysis agents (e.g. an oracle that reads hidden things) are made by name for
    # analysis, but are never levels and never listed by available_agents (so never in the lobby).
    factory = own.get(name) or GENERIC_AGENTS.get(name) or _analysis_factories(game).get(name)
    if factory is None:
        raise TrapworksError(
            f"unknown agent {name!r} for {game.game_id}; available: {', '.join(available_agents(game))}"
        )
    return _resolve(factory)(game, seat, seed=seed, **options)


__all__ = [
    "Agent",
    "RandomAgent",
    "available_agents",
    "analysis_agents",
    "agent_words",
    "make_agent",
    "own_agents",
    "GENERIC_AGENTS",
    "GENERIC_AGENT_WORDS",
    "HINT_LEVEL",
    "hint_agent_name",
    "rollout_policy",
]


# The agent asked for hints where the game declares none (GameSpec.hint_agent): the "hard" level,
# which every game offers. One choice for both uses: the review of a finished game (analysis.py)
# shows the hint agent's choice, so it must be the agent a hint would have asked at that move.
HINT_LEVEL = "hard"


def hint_agent_name(game: Game) -> str | None:
    """The agent that gives hints in `game` (and whose choice a review shows): its spec's
    `hint_agent`, else the "hard" level; None: no hints (neither is available)."""
    names = available_agents(game)
    spec = spec_of(game)
    own = spec.hint_agent if spec is not None else None  # the game's choice: from the seat's view
    choice = own if own is not None else HINT_LEVEL
    return choice if choice in names else None
