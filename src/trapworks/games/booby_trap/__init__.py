"""Booby Trap (seed 001) with a pymunk model of the tray and the spring bar."""

from pathlib import Path

from trapworks.core.spec import AgentSpec, GameSpec

from .agents import PhysicsViewAgent, StressOracleAgent, TouchHeuristicAgent
from .chance_layer import BoobyTrapChance
from .encoding import BoobyTrapEncoder
from .game import BoobyTrapGame, BoobyTrapState
from .render import render_text
from .stats import explore_grid, game_stats
from .views import BoobyTrapView

SPEC = GameSpec(
    chance_layer=BoobyTrapChance,  # hidden draws as chance nodes for tree search (OpenSpiel)
    game=BoobyTrapGame,
    state=BoobyTrapState,
    view_type=BoobyTrapView,  # the seat's dynamic view, typed; private fields marked (views.py)
    # A seat reads only its own actions' texts until the end (readings are secret).
    secret_action_texts=True,
    render_text=render_text,
    encoder=BoobyTrapEncoder,
    agents=(
        AgentSpec("heuristic", TouchHeuristicAgent, "Rule-of-thumb player"),
        AgentSpec("physics-view", PhysicsViewAgent, "Weighs each piece with physics from what it has felt"),
        # For analysis only: it reads what no seat may know (the true stress network). Made by
        # name (`trapworks tournament booby-trap --agents oracle,hard`), never a level, never
        # offered in the lobby (trapworks.agents.available_agents leaves it out).
        AgentSpec("oracle", StressOracleAgent, "Reads the true forces (analysis only)", analysis=True),
    ),
    # Tree search would spend its whole budget in physics rollouts (each removal is a settle of
    # the tray), so the levels are the game's own agents: easy takes more risks than medium,
    # hard estimates the loads with physics on positions resampled from its view.
    levels={
        "easy": {"agent": "heuristic", "loose_below": 0.6},
        "medium": "heuristic",
        "hard": "physics-view",
    },
    # Hints come from the agent that knows only its own touch readings: the "hard" level reads
    # the true forces on every piece, which no player may know.
    hint_agent="heuristic",
    stats=game_stats,  # columns of simulation rows
    explore_grid=explore_grid,  # `trapworks explore` default cells
    renderer="booby-trap.js",
    quick_options={"pieces_per_size": 2},  # physics runs on every removal
    messages=Path(__file__).parent / "i18n",  # the catalog of its events\' messages
    seeded_setup=True,  # the tray's mixing comes from the seed, not from chance nodes
    howto=(
        "On your turn click a piece to touch it: only you see how it feels (loose, light, firm, tight).",
        "Then click Remove to take it, or Pass to leave it (if passes are allowed).",
        "If the spring bar jumps a mark when a piece comes out, you lose 3 points. The most points at the "
        "end wins.",
    ),
)

__all__ = ["SPEC", "BoobyTrapGame", "BoobyTrapState"]
