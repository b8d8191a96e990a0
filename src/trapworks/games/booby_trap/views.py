"""Booby Trap's typed view (core/views.py): what State.view(seat) holds. A seat's readings of
the pieces it touched are its own (Private): the kernel empties them for every other viewer."""

# No `from __future__ import annotations`: TypedDict reads NotRequired from evaluated annotations.
from typing import Annotated, Any, NotRequired, TypedDict

from trapworks.core.views import Private


class BoobyTrapView(TypedDict):
    game: str
    seat: int | None
    variant: str
    players: int
    teaching: bool
    tray: dict[str, Any]
    pieces: list[dict[str, Any]]
    bar: float
    bar_rest: float
    bar_marks: float
    to_move: int | None
    touched: int | None
    passes_in_row: int
    must_remove: bool
    touchable: list[int]
    scores: list[dict[str, Any]]
    discard: dict[str, Any]
    pieces_left: int
    end_at: int
    last_removal: dict[str, Any] | None
    legal_actions: list[dict[str, Any]]  # the affordances
    terminal: bool
    winners: list[int]
    position: str  # without the noise key, the tray as the eye sees it
    moves_made: int
    settles: int
    setup_at_rest: bool
    my_readings: Annotated[list[dict[str, Any]], Private([])]  # the seat's own readings
    reading: Annotated[dict[str, Any] | None, Private(None)]  # the reading of the piece in hand
    stress: NotRequired[dict[str, Any]]  # teaching games only
