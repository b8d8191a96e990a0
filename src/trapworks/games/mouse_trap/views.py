"""Mouse Trap's typed view (core/views.py): what State.view(seat) holds. Nothing in it is
private: every seat sees the whole game (no hidden information)."""

# No `from __future__ import annotations`: TypedDict reads NotRequired from evaluated annotations.
from typing import Any, TypedDict


class Message(TypedDict):
    """A typed text (i18n/*.po): the page words it in the viewer's language."""

    msg: str
    args: dict[str, Any]


class LegalAction(TypedDict):
    id: int
    text: str
    label: str
    label_msg: Message


class MouseTrapView(TypedDict):
    game: str
    seat: int | None
    variant: str
    players: int
    position: str
    phase: str
    phase_text: str
    phase_msg: Message
    to_move: int | None
    turn_player: int
    turn: int
    turn_limit: int
    mice: list[int]
    cheese: list[int]
    pile: int
    supply: int
    parts_built: int
    parts: list[str]
    part_msgs: list[Message]
    part_ids: list[str]
    built_parts: list[str]
    trap_complete: bool
    firing_chain: list[dict[str, Any]]
    firing_stage: int | None
    last_firing: dict[str, Any] | None
    capture_chance: float
    push_target: int | None
    steal: dict[str, Any] | None
    last_die: int | None
    track: list[dict[str, Any]]
    terminal: bool
    truncated: bool
    winner: int | None
    legal_actions: list[LegalAction]  # the affordances
    moves_made: int
