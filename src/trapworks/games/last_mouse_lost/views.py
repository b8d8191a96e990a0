"""Last Mouse Lost's typed view (core/views.py): what State.view(seat) holds. Nothing in it is
private: every seat sees the whole board (no hidden information)."""

# No `from __future__ import annotations`: TypedDict reads NotRequired from evaluated annotations.
from typing import TypedDict


class LegalPress(TypedDict):
    id: int
    text: str
    row: int
    count: int
    mice: list[int]


class LastRound(TypedDict):
    round: int
    winner: int
    loser: int


class LastMouseLostView(TypedDict):
    game: str
    seat: int | None
    rules: str
    board: list[int]
    rows: list[list[bool]]
    position: str
    to_move: int | None
    awaiting_chance: bool
    score: list[int]
    first_to: int
    round: int
    round_opener: int
    last_round: LastRound | None
    terminal: bool
    winner: int | None
    legal_actions: list[LegalPress]  # the affordances
    moves_made: int
