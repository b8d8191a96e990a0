"""The API's messages as pydantic models: HTTP request and response bodies and WebSocket messages.

The server validates what it receives with these models (not hand-written checks) and serves their
JSON Schema at /api/schema/<name> (server/protocol.py adds the socket's messages, made with the
features' parts; docs/schema/ holds the same schemas, written by scripts/write-schemas.py).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictInt, field_validator

from ..core.record import RecordModel

MAX_NAME = 40  # a seat's display name
MAX_ACTION = 200  # an action text
MAX_TOKEN = 64
MAX_START = 20_000  # a start position text


def _no_surrogates(text: str | None) -> str | None:
    # A lone surrogate cannot be stored as UTF-8 nor sent back as JSON: refuse it here.
    if text is not None:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("text must be valid Unicode (it holds a lone surrogate)") from None
    return text


def _integral(value: Any) -> Any:
    """JSON Schema's "integer" is any number with no fractional part: 1.0 is the integer 1 (i26:
    schema-valid inputs were refused). A fraction, a string or a boolean stays refused."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return int(value)
    return value


# An integer as JSON Schema means it: 3 or 3.0, never "3", 3.5 or true.
JsonInt = Annotated[StrictInt, BeforeValidator(_integral)]
# The same with its bounds inside (in a union with None, bounds given to Field would not reach the
# JSON Schema as minimum/maximum).
SeatNumber = Annotated[StrictInt, Field(ge=0), BeforeValidator(_integral)]
SeedNumber = Annotated[StrictInt, Field(ge=0, lt=2**63), BeforeValidator(_integral)]


def _action_text(text: str) -> str:
    # The one check of an action text before the game reads it (the game says what it means).
    if not text.strip():
        raise ValueError("an action is a non-empty text in the game's notation (as listed in the view)")
    return text


def ref_of(msg: dict[str, Any]) -> int | str | None:
    """A socket message's `ref` as echoed in its answer (None when it is not a valid ref)."""
    ref = _integral(msg.get("ref"))
    return ref if isinstance(ref, int | str) and not isinstance(ref, bool) else None


Ref = Annotated[
    JsonInt | Annotated[str, Field(max_length=64)] | None,
    Field(None, description="any short id of the client's; echoed in the answer"),
]


# --- HTTP requests ---------------------------------------------------------------------------------
class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "agent"] = Field(description="'human' (you or an invited player) or 'agent' (AI)")
    agent: str | None = Field(None, max_length=64, description="agent name for an AI seat (see /api/catalog)")
    name: str | None = Field(None, max_length=MAX_NAME, description="a display name")
    invite: bool = Field(
        False,
        description="a human seat for someone else: the answer holds a one-use invite link for it, "
        "not its token",
    )

    _names = field_validator("name", "agent")(_no_surrogates)


class ClockSpec(BaseModel):
    """A game's clock (server/features/clock.py): the server times each human seat's turns."""

    model_config = ConfigDict(extra="forbid")
    mode: Literal["move", "total"] = Field(
        "move", description="'move': `seconds` per turn; 'total': `seconds` per player for the game"
    )
    seconds: float = Field(ge=1, le=604800, description="seconds per turn ('move') or per player ('total')")
    increment: float = Field(
        0, ge=0, le=3600, description="'total' only: seconds added after each of a player's turns (Fischer)"
    )
    on_timeout: Literal["ai", "forfeit"] = Field(
        "ai", description="when time runs out: 'ai' plays the seat's turn, 'forfeit' puts the seat out"
    )
    ai_level: str = Field("easy", max_length=64, description="the agent the 'ai' rule plays with (a level)")


class CreateGame(BaseModel):
    game: str = Field(max_length=64, description="game id, e.g. last-mouse-lost")
    options: dict[str, Any] = Field(default_factory=dict, description="game options (see /api/catalog)")
    seats: list[SeatSpec] | None = Field(
        None, max_length=16, description="one entry per seat; default: all human"
    )
    hints: bool = Field(
        False, description="allow hints for every human seat (always allowed against AI only)"
    )
    seed: SeedNumber | None = Field(
        None,
        description="a chosen seed (default: 256 secret bits); only with at most one human seat in a "
        "game with hidden information or chance, and the game is marked 'chosen_setup'",
    )
    start: str | None = Field(
        None, max_length=MAX_START, description="start from this position (the game's notation)"
    )
    practice: bool = Field(
        False,
        description="a practice game: undo may take back chance and physics outcomes already seen "
        "(marked in the record and on the page)",
    )
    public: bool = Field(
        False,
        description="an open table: listed in the lobby (GET /api/tables) while it has free seats; "
        "its invited seats are the free seats anyone may join",
    )
    spectator_chat: bool = Field(False, description="spectators may write in the chat (default: read only)")

    clock: ClockSpec | None = Field(None, description="a clock (default: none)")
    hand_over_after: float | None = Field(
        None,
        ge=1,
        le=86400,
        description="seconds a human seat must have had no connection before the other players may "
        "hand it to an AI (default 120)",
    )

    _texts = field_validator("game", "start")(_no_surrogates)


class CheckOptions(BaseModel):
    options: dict[str, Any] = Field(default_factory=dict)


class Move(BaseModel):
    token: str = Field(max_length=MAX_TOKEN, description="your seat token (from your seat link)")
    action: str = Field(max_length=MAX_ACTION, description="the action in the game's notation, e.g. c2-4")
    ply: JsonInt = Field(
        ge=0,
        description="the move count you saw: refused (409) if the game moved on; the same move sent "
        "again with the same ply is answered with the earlier result, never applied twice",
    )

    _action = field_validator("action")(_action_text)


class Claim(BaseModel):
    invite: str = Field(max_length=MAX_TOKEN, description="the code of an invite link (#i=...)")


class Claimed(BaseModel):
    ok: Literal[True] = True
    seat: int
    token: str = Field(description="the seat's secret token (keep it: the invite is used up)")


class NameChange(BaseModel):
    token: str = Field(max_length=MAX_TOKEN, description="your seat token")
    name: str = Field(max_length=10_000, description="your display name (trimmed; at most 24 characters)")


class NameChanged(BaseModel):
    ok: Literal[True] = True
    seat: int
    name: str = Field(description="the name as stored and shown (trimmed)")


class JoinTable(BaseModel):
    seat: SeatNumber | None = Field(None, description="the free seat to take (default: the first)")
    name: str | None = Field(None, max_length=10_000, description="your display name")


class Joined(BaseModel):
    ok: Literal[True] = True
    seat: int
    token: str = Field(description="the seat's secret token (keep it: it is the only key to the seat)")
    link: str = Field(description="the seat's page (the token in its fragment)")


class TableSeat(BaseModel):
    seat: int
    kind: Literal["human", "agent"]
    agent: str | None = Field(None, description="a computer seat's agent (its level); null for a person")
    name: str
    label: str
    status: str | None = Field(description="free, joined, online, away or left; null for an agent")
    free: bool


class ChangedOption(BaseModel):
    name: str
    label: str = Field(description="the option's label (a message id of the catalog)")
    value: Any
    value_label: str | None = Field(description="the value's label (a message id); null: a number as it is")


class OpenTable(BaseModel):
    id: str
    game: str
    title: str
    options: dict[str, Any]
    changed_options: dict[str, Any] = Field(description="the options that differ from the game's defaults")
    changed: list[ChangedOption] = Field(description="the same, typed: each option's and value's words")
    ply: int = Field(description="moves played so far")
    seats: list[TableSeat]
    free: int = Field(description="free seats")
    waiting_s: int = Field(description="seconds since the table was created")


class TableList(BaseModel):
    tables: list[OpenTable]


class TokenOnly(BaseModel):
    token: str = Field(max_length=MAX_TOKEN)


class HandOver(BaseModel):
    token: str = Field(max_length=MAX_TOKEN, description="your seat token")
    seat: JsonInt = Field(ge=0, description="the seat whose player has gone")
    agent: str | None = Field(None, max_length=64, description="the agent (level) to play it; default: easy")


class ControlReply(BaseModel):
    ok: Literal[True] = True
    ended: bool = Field(description="the game is over now")
    ply: int


class RematchReply(BaseModel):
    ok: Literal[True] = True
    accepted: list[int] = Field(description="the seats that accepted so far")
    game: str | None = Field(description="the new game's id, once every human seat accepted")
    link: str | None = Field(description="your seat's link in the new game (it holds your new token)")


class ReplayRequest(BaseModel):
    record: dict[str, Any] = Field(description="a game record (trapworks-record JSON)")
    seat: SeatNumber | None = Field(None, description="whose view to show (default: a spectator's)")


# --- HTTP responses --------------------------------------------------------------------------------
class ErrorReply(BaseModel):
    ok: Literal[False] = False
    error: str = Field(description="what is wrong, for a person")
    code: str = Field(
        description="a stable machine-readable code, e.g. stale, illegal_move, storage_unavailable"
    )
    msg: str | None = Field(
        None, description="the message id of the web catalog (its English template): the page words it"
    )
    args: dict[str, Any] | None = Field(
        None, description="the message's values: numbers, names, a seat {seat}, a nested {msg, args}"
    )


# The error answers an endpoint documents (OpenAPI): every one in the API's error format.
ERROR_REPLIES: dict[int | str, dict[str, Any]] = {
    s: {"model": ErrorReply} for s in (400, 401, 403, 404, 409, 422, 429, 503)
}


class MoveReply(BaseModel):
    ok: Literal[True] = True
    ply: int = Field(description="the move count after your move")
    repeat: bool = Field(description="true: this move was already applied; answered again, not applied again")


class SeatLink(BaseModel):
    seat: int
    kind: Literal["human", "agent"]
    agent: str | None
    label: str
    token: str | None = Field(description="this seat's secret token (a human seat not invited)")
    link: str | None = Field(
        description="the link that opens this seat (an invited seat: its one-use invite link)"
    )
    invite: bool = Field(description="this seat's link is an invite: whoever opens it first gets the seat")


class SpectatorLink(BaseModel):
    token: str
    link: str


class CreatedGame(BaseModel):
    id: str
    game: str
    options: dict[str, Any]
    chosen_setup: bool = Field(description="the creator chose the seed or the start position")
    seats: list[SeatLink]
    spectator: SpectatorLink


# --- WebSocket: client to server ------------------------------------------------------------------
class MoveMessage(BaseModel):
    type: Literal["move"]
    action: str = Field(max_length=MAX_ACTION)
    ply: JsonInt = Field(
        ge=0, description="the move count you saw (required: a repeat is answered, not applied)"
    )
    ref: Ref

    _action = field_validator("action")(_action_text)


class UndoMessage(BaseModel):
    type: Literal["undo"]
    ref: Ref


class HintMessage(BaseModel):
    type: Literal["hint"]
    ref: Ref


class SyncMessage(BaseModel):
    type: Literal["sync"]
    ref: Ref


class PingMessage(BaseModel):
    type: Literal["ping"]
    ref: Ref


class NameMessage(BaseModel):
    type: Literal["name"]
    name: str = Field(max_length=10_000, description="your display name (a spectator's: for chat)")
    ref: Ref


class ChatMessage(BaseModel):
    type: Literal["chat"]
    text: str = Field(max_length=10_000, description="one line (at most 300 characters)")
    ref: Ref


class PresenceMessage(BaseModel):
    type: Literal["presence"]
    visible: bool = Field(description="the page's tab is visible (false: hidden, the seat shows away)")
    ref: Ref


# --- WebSocket: server to client (a frame holds one of these or a list of them) ----------------
class AckMessage(BaseModel):
    type: Literal["ack"]
    ref: Any = None
    ply: int
    repeat: bool | None = Field(None, description="true: a repeat of an applied move, not applied again")


class ErrorMessage(BaseModel):
    type: Literal["error"]
    ref: Any = None
    code: str
    message: str
    msg: str | None = Field(
        None, description="the message id of the web catalog (its English template): the page words it"
    )
    args: dict[str, Any] | None = Field(
        None, description="the message's values: numbers, names, a seat {seat}, a nested {msg, args}"
    )
    fatal: bool | None = Field(None, description="true: the socket is closed after this message")


class StateCore(BaseModel):
    """The state message's own fields; each feature adds its own (`Feature.state_fields`), and
    server/protocol.py makes the whole StateMessage of them."""

    type: Literal["state"]
    id: str
    game: str
    seat: int | None
    ply: int
    view: dict[str, Any]
    events: list[Any]
    last_action: dict[str, Any] | None
    to_move: int | None
    terminal: bool
    returns: list[float] | None
    winners: list[int] | None
    truncated: bool
    error: str | None
    error_msg: dict[str, Any] | None = Field(
        None, description="why the game stopped, typed: the web catalog's message id and its values"
    )
    sync: bool
    log: list[dict[str, Any]] | None = None
    kept: list[str] | None = Field(
        None,
        description="an update's features' parts left out because they did not change since the "
        "last state message of this socket: the page keeps the ones it has",
    )


class HintReplyMessage(BaseModel):
    type: Literal["hint"]
    ref: Any = None
    ok: bool
    move: str = Field(description="the suggested action text")
    explanation: str | None
    text_msg: dict[str, Any] | None = Field(None, description="the move in players' words, typed")
    explanation_msg: dict[str, Any] | None = Field(None, description="the reason, typed")
    agent: str
    ply: int


class PongMessage(BaseModel):
    type: Literal["pong"]
    ref: Any = None


class SeatPresence(BaseModel):
    seat: int
    kind: Literal["human", "agent"]
    name: str
    label: str
    status: Literal["free", "joined", "online", "away", "left"] | None = Field(
        description="null for an agent seat"
    )


class SeatsPresenceMessage(BaseModel):
    type: Literal["presence"]
    seats: list[SeatPresence]


class ChatLine(BaseModel):
    id: int
    seat: int | None = Field(description="the sender's seat; null: a spectator")
    name: str = Field(description="the sender's display name when it was sent (plain text: escape it)")
    text: str = Field(description="plain text: escape it when shown")
    at: str = Field(description="ISO 8601 time, UTC")


class ChatLineMessage(BaseModel):
    type: Literal["chat"]
    line: ChatLine


class HelloChat(BaseModel):
    lines: list[ChatLine] = Field(description="the last 100 lines, oldest first")
    can_chat: bool = Field(description="this connection may write (seats; spectators if allowed)")
    error: str | None = Field(None, description="why the chat could not be read (the store failed)")


class HelloMessage(BaseModel):
    type: Literal["hello"]
    info: dict[str, Any]
    presence: list[SeatPresence] | None = Field(None, description="every seat's name and presence")
    chat: HelloChat | None = None


# The HTTP messages; server/protocol.py adds the socket's (made with the features' parts).
SCHEMAS: dict[str, Any] = {
    "create-game": CreateGame,
    "created-game": CreatedGame,
    "move": Move,
    "move-reply": MoveReply,
    "error": ErrorReply,
    "token": TokenOnly,
    "claim": Claim,
    "claimed": Claimed,
    "replay-request": ReplayRequest,
    "hand-over": HandOver,
    "control-reply": ControlReply,
    "rematch-reply": RematchReply,
    "clock": ClockSpec,
    "check-options": CheckOptions,
    "name-change": NameChange,
    "name-changed": NameChanged,
    "join-table": JoinTable,
    "joined": Joined,
    "table-list": TableList,
    "record": RecordModel,  # a record file, as downloaded and as POST /api/replay takes it
}
