"""Difficulty levels: "easy", "medium" and "hard", mapped to an agent and its budget per game.

The generic mapping below fits any game: a tree search ("mcts" for perfect information,
"ismcts" where the game has secrets) with a budget that grows with the level, using the
game's declared rollout agent (its spec's `rollout_agent`) in rollouts and as a prior where it
declares one.
Every level also has a time cap (hard: `HARD_TIME_LIMIT` seconds) so that a move stays under
a second in every game, however slow its states are to copy and play out; in a game fast
enough to finish the iterations first, a move depends only on the seed.

A game tunes its own levels by declaring `levels` in its spec (core/spec.py); each entry either
names an agent outright (`"hard": "perfect"`), names an agent with its settings
(`{"agent": "heuristic", "noise": 0.4}`: the generic search settings are not passed on), or
updates the generic search's settings:

    SPEC = GameSpec(..., levels={"hard": {"iterations": 400}, "easy": {"agent": "heuristic"}})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trapworks.core import Game, TrapworksError
from trapworks.core.spec import spec_of

LEVELS = ("easy", "medium", "hard")
HARD_TIME_LIMIT = 0.85  # seconds; bench/hard_move_time.py times whole moves (target <= 1 s)

# "search" becomes "ismcts" or "mcts" by the game's kind; "heuristic_share" (rollout moves by
# the game's heuristic) and "prior_weight" (progressive bias toward its move) are dropped for a
# game that declares no rollout agent.
GENERIC_LEVELS: dict[str, dict[str, Any]] = {
    "easy": {"agent": "search", "iterations": 30, "time_limit": 0.25, "rollout_limit": 200},
    "medium": {
        "agent": "search",
        "iterations": 300,
        "time_limit": 0.5,
        "heuristic_share": 0.5,
        "prior_weight": 0.5,
        "rollout_limit": 300,
    },
    "hard": {
        "agent": "search",
        "iterations": 3000,
        "time_limit": HARD_TIME_LIMIT,
        "heuristic_share": 1.0,
        "prior_weight": 1.0,
        "rollout_limit": 400,
    },
}


def level_spec(game: Game, level: str) -> tuple[str, dict[str, Any]]:
    """(agent name, agent options) that play `level` in `game`."""
    if level not in LEVELS:
        raise TrapworksError(f"unknown level {level!r}; levels are {', '.join(LEVELS)}")
    spec = dict(GENERIC_LEVELS[level])
    spec_ = spec_of(game)
    own = spec_.levels.get(level) if spec_ is not None else None
    if isinstance(own, str):
        spec = {"agent": own}
    elif isinstance(own, Mapping):
        if own.get("agent", "search") in ("search", "mcts", "ismcts"):
            spec.update(own)  # tuning the generic search
        else:
            spec = dict(own)  # another agent: only its own settings
    elif own is not None:
        raise TrapworksError(f"{game.game_id}: levels[{level!r}] must be an agent name or a dict of settings")
    agent = spec.pop("agent")
    if agent == "search":
        agent = "ismcts" if game.has_hidden_information else "mcts"
    if agent in ("mcts", "ismcts") and (spec_ is None or spec_.rollout_agent is None):
        spec.pop("heuristic_share", None)
        spec.pop("prior_weight", None)
    return agent, spec


def describe_levels(game: Game) -> dict[str, str]:
    """Level -> one line saying what plays it (for help texts and the docs)."""
    out = {}
    for level in LEVELS:
        agent, spec = level_spec(game, level)
        settings = ", ".join(f"{k}={v}" for k, v in spec.items())
        out[level] = f"{agent} ({settings})" if settings else agent
    return out


__all__ = ["LEVELS", "GENERIC_LEVELS", "HARD_TIME_LIMIT", "level_spec", "describe_levels"]
