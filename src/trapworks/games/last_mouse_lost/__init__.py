"""Last Mouse Lost (seed 002)."""

from typing import Any

from .game import STANDARD_BOARD, LastMouseLostGame, LastMouseLostState, parse_board
from .solver import PerfectAgent, Solution, solve


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


__all__ = [
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
