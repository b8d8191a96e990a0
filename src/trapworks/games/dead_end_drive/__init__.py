"""13 Dead End Drive (seed 004): the mansion (a reconstruction), the cards, the rules, the agents."""

from pathlib import Path

from trapworks.core.spec import AgentSpec, GameSpec, Notation

from .agents import HeuristicAgent
from .board import Mansion, load_mansion
from .chance_layer import DeadEndDriveChance
from .components import CHARACTERS, LETTERS, NAMES, TRAP_KINDS
from .encoding import DeadEndDriveEncoder
from .game import DeadEndDriveGame, DeadEndDriveState, static_view
from .notation import parse_position, write_position
from .render import render_text
from .stats import explore_grid, game_stats
from .views import DeadEndDriveView

SPEC = GameSpec(
    chance_layer=DeadEndDriveChance,  # hidden draws as chance nodes for tree search (OpenSpiel)
    game=DeadEndDriveGame,
    state=DeadEndDriveState,
    view_type=DeadEndDriveView,  # the seat's dynamic view, typed; private fields marked (views.py)
    # A seat reads only its own actions' texts until the end (a card played is a secret).
    secret_action_texts=True,
    notation=Notation(parse=parse_position, write=write_position),
    render_text=render_text,
    encoder=DeadEndDriveEncoder,
    agents=(AgentSpec("heuristic", HeuristicAgent, "Rule-of-thumb player"),),
    # Difficulty levels (trapworks.agents.levels). easy and medium: the heuristic with a share of
    # random decisions. hard: the generic IS-MCTS whose rollouts stop after a few heuristic moves
    # and are valued by the heuristic's `evaluate` (a fitted model of who wins, evaluation.py); a
    # playout to the end would cost ~0.1 s here. c is small because evaluated leaves are far less
    # noisy than won/lost playouts: with c=1 the search spreads its visits almost evenly.
    levels={
        "easy": {"agent": "heuristic", "noise": 0.4},
        "medium": {"agent": "heuristic", "noise": 0.15},
        "hard": {
            "agent": "ismcts",
            "iterations": 250,
            "time_limit": 0.7,
            "rollout_limit": 4,
            "heuristic_share": 1.0,
            "prior_weight": 1.0,
            "c": 0.05,
        },
    },
    hint_agent="heuristic",  # quick, and its reasons are sentences (the host gives it a resample)
    stats=game_stats,  # columns of simulation rows
    explore_grid=explore_grid,  # `trapworks explore` default cells
    renderer="dead-end-drive.js",
    static_view=static_view,  # the mansion and its drawing: sent once with the game's info
    quick_options={"turn_limit": 8},
    messages=Path(__file__).parent / "i18n",  # the catalog of its events\' messages
    # gymnasium.make_vec: the batched engine, one decision at a time (vector_env.py)
    vector_env="trapworks.games.dead_end_drive.vector_env:DeadEndDriveVectorEnv",
    seeded_setup=True,  # research adapters: the card deal comes from the seed
    howto=(
        "The dice roll for you. Click a pawn with a yellow ring, then the button with how far to move it, "
        "then one of the green squares it can reach.",
        "Lead the heirs you secretly hold (your cards, shown under the board) to the front door; knock the "
        "others off with traps.",
        "When a pawn stops on a trap, click a button: play a matching card from your hand to spring it, or "
        "draw from the pile. Doubles let you change the portrait first.",
    ),
)

__all__ = [
    "SPEC",
    "CHARACTERS",
    "LETTERS",
    "NAMES",
    "TRAP_KINDS",
    "DeadEndDriveGame",
    "DeadEndDriveState",
    "Mansion",
    "load_mansion",
]
