"""Last Mouse Lost (seed 002)."""

from pathlib import Path
from typing import Any

from trapworks.core.spec import AgentSpec, GameSpec

from .agents import HeuristicAgent
from .encoding import LastMouseLostEncoder
from .game import STANDARD_BOARD, LastMouseLostGame, LastMouseLostState, parse_board
from .solver import PerfectAgent, Solution, judge_move, solve
from .stats import explore_grid, game_stats
from .views import LastMouseLostView


def game_for_position(position: str, **options: Any) -> LastMouseLostGame:
    """A game whose board is the one the position text shows (row lengths from its rows)."""
    rows = position.split()[0].split("/") if isinstance(position, str) and position.split() else []
    if rows and "board" not in options:
        options["board"] = [len(r) for r in rows]
    return LastMouseLostGame(**options)


def solve_position(position: str, **options: Any) -> Solution:
    """Solve a position text (the board is taken from the text)."""
    game = game_for_position(position, **options)
    return solve(game.state_from_position(position))


SPEC = GameSpec(
    game=LastMouseLostGame,
    state=LastMouseLostState,
    view_type=LastMouseLostView,  # the seat's dynamic view, typed; private fields marked (views.py)
    # Every action text is public: no hidden information.
    secret_action_texts=False,
    encoder=LastMouseLostEncoder,
    agents=(
        AgentSpec("perfect", PerfectAgent, "Perfect player (never misses a win)"),
        AgentSpec("heuristic", HeuristicAgent, "Rule-of-thumb player"),
    ),
    # The hardest opponent is the exact solver; easy and medium are the generic tree search with
    # random rollouts (the heuristic's clones per move would cost them most of their iterations).
    levels={"hard": "perfect", "medium": {"heuristic_share": 0.0, "prior_weight": 0.0}},
    hint_agent="perfect",
    solver=solve_position,
    judge_move=judge_move,  # the review of a finished game: each move winning or losing
    stats=game_stats,  # columns of simulation rows
    explore_grid=explore_grid,  # `trapworks explore` default cells
    renderer="last-mouse-lost.js",
    quick_options={"board": [1, 2, 3], "first_to": 2},
    messages=Path(__file__).parent / "i18n",  # the catalog of its events' messages
    # gymnasium.make_vec: the compiled engine's step-wise batch (vector_env.py)
    vector_env="trapworks.games.last_mouse_lost.vector_env:LastMouseLostVectorEnv",
    howto=(
        "On your turn, click the raised mice you want to press: any number from one row (advanced rules: "
        "only mice side by side). Drag across a row to pick several.",
        "Click Press. The mice go down; Clear starts your choice again.",
        "Whoever presses the last mouse loses the round. Win the rounds the match asks for.",
    ),
)

__all__ = [
    "SPEC",
    "STANDARD_BOARD",
    "LastMouseLostGame",
    "LastMouseLostState",
    "PerfectAgent",
    "Solution",
    "solve",
    "solve_position",
    "game_for_position",
    "parse_board",
]
