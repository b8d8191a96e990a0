"""13 Dead End Drive's typed view (core/views.py): what State.view(seat) holds (the mansion and
its drawing are the static part, sent once). A seat's character cards and trap cards are its own
(Private): the kernel empties them for every other viewer; "revealed" comes only at the end."""

# No `from __future__ import annotations`: TypedDict reads NotRequired from evaluated annotations.
from typing import Annotated, Any, NotRequired, TypedDict

from trapworks.core.views import PerSeat, Private


class SeatRecord(TypedDict):
    seat: int
    character_cards: int
    trap_cards: int
    secret_cards: int
    out: bool


class DeadEndDriveView(TypedDict):
    game: str
    seat: int | None
    players: int
    board: dict[str, Any]
    pawns: list[dict[str, Any]]
    detective: dict[str, Any]
    portrait: str | None
    portrait_name: str
    frame: dict[str, int]
    removed_portraits: list[str]
    seats: Annotated[list[SeatRecord], PerSeat()]  # counts only: public
    discard: list[str]
    pile: int
    phase: str
    to_move: int | None
    turn_of: int
    turn: int
    dice: list[int]
    doubles_total: int | None
    moved: list[str]
    selected: dict[str, Any] | None
    trap_pawn: str | None
    trap: str | None
    drew_this_turn: bool
    opening: bool
    my_characters: Annotated[list[str], Private([])]
    my_trap_cards: Annotated[list[str], Private([])]
    my_cards_drawn_this_turn: Annotated[list[str], Private([])]
    drawn_card: Annotated[str | None, Private(None)]
    terminal: bool
    truncated: bool
    winner: int | None
    winning_pawn: str | None
    win_reason: str | None
    legal_actions: list[dict[str, Any]]  # the affordances
    revealed: NotRequired[dict[str, Any]]  # every secret, once the game is over
