"""Pig's position notation and terminal drawing (a layer above the rules).

A position: the scores (comma-separated), the turn's points, the seat to move (from 1), the
turns played, and `die` when the die is in the air: `12,7 4 2 9 die`.
"""

from __future__ import annotations

from trapworks.core import PositionError

from .game import PigGame, PigState


def write_position(state: PigState) -> str:
    text = f"{','.join(map(str, state.scores))} {state.turn_total} {state.player + 1} {state.turns}"
    return text + (" die" if state.rolling else "")


def parse_position(game: PigGame, text: str) -> PigState:
    if not isinstance(text, str):
        raise PositionError(text, "a position is text, e.g. '12,7 4 2 9'")
    parts = text.split()
    if len(parts) not in (4, 5) or (len(parts) == 5 and parts[4] != "die"):
        raise PositionError(text, "write: scores turn-points seat turns [die], e.g. '12,7 4 2 9 die'")
    try:
        scores = [int(s) for s in parts[0].split(",")]
        total, seat, turns = int(parts[1]), int(parts[2]), int(parts[3])
    except ValueError:
        raise PositionError(text, "scores, points, seat and turns are whole numbers") from None
    if len(scores) != game.num_players():
        raise PositionError(text, f"{len(scores)} scores for {game.num_players()} players")
    if not 1 <= seat <= len(scores):
        raise PositionError(text, f"seat {seat}: one of 1..{len(scores)}")
    state = PigState(game)
    state.scores, state.turn_total, state.player, state.turns = scores, total, seat - 1, turns
    state.rolling = len(parts) == 5
    state.start = text
    return state


def render_text(state: PigState, seat: int | None = None) -> str:
    lines = [f"Pig to {state.target}"]
    for s, score in enumerate(state.scores):
        mark = ">" if s == state.player and not state.is_terminal() else " "
        lines.append(f"{mark} Player {s + 1}: {score}")
    lines.append(
        f"Points this turn: {state.turn_total}"
        + (f" (last roll {state.last_roll})" if state.last_roll else "")
    )
    return "\n".join(lines)
