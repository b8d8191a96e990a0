"""Agents that play any game through the kernel, and the lookup of agents by name.

Generic agents live here; a game's own agents (a solver, a heuristic) are named in its
`Game.agents` and found the same way, so no game is special-cased.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from trapworks.core import Agent, Game, State, TrapworksError


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


def available_agents(game: Game) -> list[str]:
    """Agent names usable in `game`: the levels, the generic agents and the game's own."""
    generic = {
        n for n in GENERIC_AGENTS if not (game.has_hidden_information and n in PERFECT_INFORMATION_ONLY)
    }
    return [n for n in LEVEL_NAMES if n not in game.agents] + sorted(generic | set(game.agents))


def analysis_agents(game: Game) -> list[str]:
    """A game's agents for analysis only (they may read hidden things): made by name for
    simulations and tournaments, never a level, never offered to play against."""
    return sorted(getattr(game, "analysis_agents", None) or {})


def make_agent(name: str, game: Game, seat: int, seed: int | None = None, **options: Any) -> Agent:
    """Make the agent called `name` for `seat` (the game's own agents take precedence)."""
    if name in LEVEL_NAMES and name not in game.agents:
        from .levels import level_spec

        agent_name, settings = level_spec(game, name)
        agent = make_agent(agent_name, game, seat, seed=seed, **{**settings, **options})
        agent.level = name
        return agent
    # A game's analysis agents (e.g. an oracle that reads hidden things) are made by name for
    # analysis, but are never levels and never listed by available_agents (so never in the lobby).
    factory = (
        game.agents.get(name)
        or GENERIC_AGENTS.get(name)
        or (getattr(game, "analysis_agents", None) or {}).get(name)
    )
    if factory is None:
        raise TrapworksError(
            f"unknown agent {name!r} for {game.game_id}; available: {', '.join(available_agents(game))}"
        )
    return _resolve(factory)(game, seat, seed=seed, **options)


__all__ = ["Agent", "RandomAgent", "available_agents", "analysis_agents", "make_agent", "GENERIC_AGENTS"]
