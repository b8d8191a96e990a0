"""The server's refusals: every error code in one registry (`ErrorCode`: its HTTP status and what
it means), the refusal type (`ServiceError`) and the store-retry policy. A leaf: it imports nothing
of the server, so no module needs another just for its errors.

A refusal is `ServiceError(ErrorCode.STALE, "the message for the person who sent it")`: the HTTP
status is the code's (a socket sends the code and the message; its close codes are 4000 + the
status). The table in docs/error-codes.md is written from this registry
(`python -m trapworks.server.errors docs/error-codes.md`; tests/web/test_error_codes.py keeps it
current and checks that every site names its code from here).
"""

from __future__ import annotations

import re
import sys
from enum import StrEnum
from pathlib import Path
from typing import Any, cast

STORE_RETRY_S = (0.2, 0.5, 1.0, 2.0, 5.0)  # an agent's move waits this long between failed writes
STORAGE_FAILED = (
    "the game store cannot save right now (nothing was saved and nothing was applied); try again in a moment"
)


class ErrorCode(StrEnum):
    """A stable machine-readable error code (its value, sent as `code`), with its HTTP status and
    what it means (the docs' words; each refusal's own message says more)."""

    status: int
    meaning: str

    def __new__(cls, value: str, status: int, meaning: str) -> ErrorCode:
        member = str.__new__(cls, value)
        member._value_ = value
        member.status = status
        member.meaning = meaning
        return member

    @classmethod
    def of(cls, value: str) -> ErrorCode:
        """The code of a value (KeyError: not in the registry)."""
        return cast(ErrorCode, cls._value2member_map_[value])

    # --- requests and messages (400, 422) --------------------------------------------------------
    BAD_JSON = "bad_json", 400, "the body or socket message is not valid JSON"
    BAD_MESSAGE = "bad_message", 400, "a socket message of an unknown type, or not an object"
    BAD_REQUEST = "bad_request", 422, "a field of the request is missing or wrong (the field is named)"
    BAD_ACTION = "bad_action", 400, "a move's or command's action is not text the model accepts"
    BAD_PLY = "bad_ply", 400, "a move's ply is not a whole number from 0"
    MISSING_PLY = "missing_ply", 400, "a move needs the move count the player saw"
    BAD_LENGTH = "bad_length", 400, "Content-Length is not a number"
    HEAD_TOO_LARGE = "head_too_large", 400, "the request line and headers are too long"
    HEADER_TIMEOUT = "header_timeout", 408, "the request's headers came too slowly"
    BODY_TIMEOUT = "body_timeout", 408, "the request's body came too slowly"
    BODY_TOO_LARGE = "body_too_large", 413, "the request body is too large"
    URL_TOO_LONG = "url_too_long", 414, "the URL is too long"
    NOT_FOUND = "not_found", 404, "no such page or endpoint"
    METHOD_NOT_ALLOWED = "method_not_allowed", 405, "the endpoint does not take this method (see Allow)"
    # --- games: creating, options, seats -----------------------------------------------------------
    UNKNOWN_GAME = "unknown_game", 404, "no game of that id is installed"
    BAD_GAME = "bad_game", 400, "the game id is not a game's id"
    BAD_OPTIONS = "bad_options", 400, "an option the game does not take, or a value it refuses"
    BAD_SEATS = "bad_seats", 400, "the seats do not fit the game (their number, an unknown agent)"
    BAD_SEAT = "bad_seat", 400, "no seat of that number"
    BAD_AGENT = "bad_agent", 400, "the game offers no agent of that name"
    BAD_POSITION = "bad_position", 400, "the start position cannot be read in the game's notation"
    BAD_CLOCK = "bad_clock", 400, "the clock's settings do not fit (mode, increment, level)"
    CHOSEN_SEED_SHARED = "chosen_seed_shared", 400, "a chosen seed with more than one human seat"
    CHOSEN_START_SHARED = "chosen_start_shared", 400, "a chosen start with more than one human seat"
    NO_SUCH_GAME = "no_such_game", 404, "no game of that id on this server"
    NO_SUCH_TABLE = "no_such_table", 404, "no open table of that id"
    TABLE_FULL = "table_full", 409, "every seat of the table is taken"
    SEAT_TAKEN = "seat_taken", 409, "someone took that seat first"
    SEAT_HELD = "seat_held", 409, "the seat is held by another account"
    INVITE_USED = "invite_used", 403, "the invite link was used already"
    # --- who is asking -------------------------------------------------------------------------
    MISSING_TOKEN = "missing_token", 401, "the request needs a seat's or the spectators' token"
    WRONG_TOKEN = "wrong_token", 403, "the token opens no seat of this game"
    SPECTATOR = "spectator", 403, "spectators cannot do this"
    SEAT_HANDED = "seat_handed", 409, "the seat is out of the game or played by an AI now"
    # --- playing ---------------------------------------------------------------------------------
    STALE = "stale", 409, "the move was for a position that is gone (someone moved first)"
    NOT_YOUR_TURN = "not_your_turn", 409, "another seat is to move"
    ILLEGAL_MOVE = "illegal_move", 422, "the action is not legal here (the game says why)"
    GAME_OVER = "game_over", 409, "the game is over"
    CHANGED_ELSEWHERE = "changed_elsewhere", 409, "another node changed the game at the same moment"
    NO_UNDO = "no_undo", 403, "undo is only for a game against AI"
    NOTHING_TO_UNDO = "nothing_to_undo", 409, "the seat has no move to take back"
    OUTCOME_REVEALED = "outcome_revealed", 409, "undo would take back a revealed outcome"
    NO_HINT = "no_hint", 403, "hints are off for this seat or game"
    HINT_FAILED = "hint_failed", 500, "the hint agent chose an illegal move"
    AGENT_FAILED = "agent_failed", 500, "the server could not play a seat (its AI or chance failed)"
    NO_EXTRA = "no_extra", 404, "the game has no extra data of that name"
    BAD_EXTRA = "bad_extra", 400, "the extra data's parameters are wrong"
    # --- off the board: resign, abort, rematch, hand-over, clock, takeback ----------------------------
    TOO_LATE_TO_ABORT = "too_late_to_abort", 409, "a game can be aborted only before its second move"
    NOT_OVER = "not_over", 409, "a rematch is for a finished game"
    NOT_GONE = "not_gone", 409, "the seat's player is not gone long enough to hand the seat over"
    CLOCK_AGENT_FAILED = "clock_agent_failed", 500, "the clock's AI chose an illegal action"
    NO_TAKEBACK = "no_takeback", 403, "takebacks are for games between two or more human players"
    NOTHING_TO_TAKE_BACK = "nothing_to_take_back", 409, "the seat has no move to take back"
    TAKEBACK_REFUSED = "takeback_refused", 409, "undo's fair-play policy refuses this takeback"
    OFFER_PENDING = "offer_pending", 409, "a takeback offer is open already"
    NO_OFFER = "no_offer", 409, "no takeback offer to answer or cancel"
    OWN_OFFER = "own_offer", 409, "one's own offer is cancelled, not answered"
    TAKEBACK_TOO_SOON = "takeback_too_soon", 429, "a declined takeback offer: wait before the next"
    TAKEBACK_DECLINED = "takeback_declined", 429, "too many declined takeback offers in this game"
    # --- people: names, chat, presence ---------------------------------------------------------
    BAD_NAME = "bad_name", 400, "a name the page cannot show (empty, too long, invisible characters)"
    NAME_TAKEN = "name_taken", 409, "another seat has that name (or one that looks the same)"
    NAME_RATE_LIMITED = "name_rate_limited", 429, "too many name changes"
    BAD_CHAT = "bad_chat", 400, "a chat line the page cannot show"
    CHAT_TOO_LONG = "chat_too_long", 400, "a chat line is too long"
    CHAT_READ_ONLY = "chat_read_only", 403, "spectators read this game's chat but cannot write"
    CHAT_RATE_LIMITED = "chat_rate_limited", 429, "too many chat lines"
    PRESENCE_RATE_LIMITED = "presence_rate_limited", 429, "too many presence messages"
    RATE_LIMITED = "rate_limited", 429, "too many requests or socket messages"
    # --- records and replays -------------------------------------------------------------------
    BAD_RECORD = "bad_record", 400, "the record cannot be read or replayed"
    RECORD_HIDDEN = "record_hidden", 403, "a game with hidden information's record waits for its end"
    RECORD_TOO_LONG = "record_too_long", 413, "the record has too many steps to replay"
    NOT_FINISHED = "not_finished", 409, "a public record is for a finished game"
    NO_SCHEMA = "no_schema", 404, "no message schema of that name"
    UNKNOWN_LANGUAGE = "unknown_language", 404, "no catalog for that language"
    # --- accounts ------------------------------------------------------------------------------
    BAD_USERNAME = "bad_username", 400, "a username the server cannot take"
    RESERVED_USERNAME = "reserved_username", 400, "a reserved username"
    WEAK_PASSWORD = "weak_password", 400, "a password too weak"
    LONG_PASSWORD = "long_password", 400, "a password too long"
    USERNAME_TAKEN = "username_taken", 409, "the username is taken"
    WRONG_LOGIN = "wrong_login", 401, "wrong username or password"
    WRONG_PASSWORD = "wrong_password", 403, "the password does not match"
    TOO_MANY_ATTEMPTS = "too_many_attempts", 429, "too many failed log-ins"
    LOGIN_NEEDED = "login_needed", 401, "this is for players with an account"
    SESSION_EXPIRED = "session_expired", 401, "the session expired: log in again"
    CSRF_FAILED = "csrf_failed", 403, "the request's CSRF token is missing or wrong"
    NOT_YOURS = "not_yours", 403, "another player's private data"
    NO_SUCH_PLAYER = "no_such_player", 404, "no player of that name"
    NO_SUCH_SEEK = "no_such_seek", 404, "no such seek (it was paired, cancelled or expired)"
    OWN_SEEK = "own_seek", 409, "one's own seek cannot be accepted"
    NOT_TWO_PLAYERS = "not_two_players", 409, "quick games are for two-player games"
    BAD_AI_AFTER = "bad_ai_after", 400, "the wait before the computer plays is out of range"
    BAD_AI_LEVEL = "bad_ai_level", 400, "the game offers no agent of that level"
    BAD_DAYS_PER_MOVE = "bad_days_per_move", 400, "the days per move are out of range"
    # --- the community: friends, challenges, safety, moderation, mail, arenas, Swiss ----------------
    FOLLOW_SELF = "follow_self", 400, "a player cannot follow themselves"
    NOT_FOLLOWING = "not_following", 404, "unfollowing a player one does not follow"
    TOO_MANY_FOLLOWS = "too_many_follows", 409, "the most players one may follow are followed already"
    BLOCKED = "blocked", 403, "one of the two players blocks the other"
    BLOCKING = "blocking", 403, "challenging a player one blocks"
    BLOCK_SELF = "block_self", 400, "a player cannot block themselves"
    NOT_BLOCKED = "not_blocked", 404, "unblocking a player one does not block"
    MUTE_SELF = "mute_self", 400, "a player cannot mute themselves"
    NOT_MUTED = "not_muted", 404, "unmuting a player one does not mute"
    CHALLENGE_SELF = "challenge_self", 400, "a player cannot challenge themselves"
    NO_SUCH_CHALLENGE = "no_such_challenge", 404, "no challenge of that id"
    NOT_YOUR_CHALLENGE = (
        "not_your_challenge",
        403,
        "only the challenged player answers, only its sender cancels",
    )
    CHALLENGE_ANSWERED = (
        "challenge_answered",
        409,
        "the challenge was accepted, declined or cancelled already",
    )
    CHALLENGE_EXPIRED = "challenge_expired", 410, "the challenge expired before it was answered"
    TOO_MANY_CHALLENGES = "too_many_challenges", 429, "too many open challenges sent"
    TWO_PLAYERS_ONLY = "two_players_only", 400, "challenges, arenas and Swiss games are for two players"
    BAD_REASON = "bad_reason", 400, "a report's reason is not one of the listed reasons"
    REPORT_SELF = "report_self", 400, "a player cannot report themselves"
    NOT_IN_GAME = "not_in_game", 404, "the reported player did not play the named game"
    CHAT_LINE_NEEDS_GAME = "chat_line_needs_game", 400, "a reported chat line needs its game"
    NO_SUCH_LINE = "no_such_line", 404, "the game has no chat line of that number"
    NOT_THEIR_LINE = "not_their_line", 400, "the reported chat line was written by someone else"
    TOO_MANY_REPORTS = "too_many_reports", 429, "too many reports waiting for a moderator"
    NOT_MODERATOR = "not_moderator", 403, "this is for moderators"
    MODERATE_SELF = "moderate_self", 400, "a moderator does not act on their own account"
    MUTE_NEEDS_MINUTES = "mute_needs_minutes", 400, "a moderator's mute needs its length"
    NO_SUCH_REPORT = "no_such_report", 404, "no report of that id"
    REPORT_CLOSED = "report_closed", 409, "the report was closed already"
    NOT_SANCTIONED = "not_sanctioned", 404, "lifting a sanction from a player who has none"
    NO_CHAT = "no_chat", 404, "the game has no chat lines"
    BANNED = "banned", 403, "the account is banned by a moderator"
    MUTED = "muted", 403, "a moderator muted this player"
    MAIL_DISABLED = "mail_disabled", 404, "this server sends no e-mail (started without --smtp)"
    BAD_ADDRESS = "bad_address", 400, "not an e-mail address"
    BAD_LANGUAGE = "bad_language", 400, "not one of the languages e-mail is written in"
    NO_ADDRESS = "no_address", 404, "the account has no e-mail address yet"
    BAD_LINK = "bad_link", 404, "an e-mail link that is not valid"
    LINK_USED = "link_used", 410, "a single-use e-mail link used already"
    LINK_EXPIRED = "link_expired", 410, "an e-mail link past its time"
    NO_SUCH_ARENA = "no_such_arena", 404, "no arena of that id"
    ARENA_FINISHED = "arena_finished", 409, "the arena is over"
    NOT_IN_ARENA = "not_in_arena", 409, "leaving an arena one has not joined"
    NO_SUCH_SWISS = "no_such_swiss", 404, "no Swiss tournament of that id"
    SWISS_STARTED = "swiss_started", 409, "the Swiss tournament has started or ended"
    TOO_FEW_PLAYERS = "too_few_players", 409, "a Swiss tournament needs two players or more"
    # --- the server itself -----------------------------------------------------------------------
    STORAGE_UNAVAILABLE = "storage_unavailable", 503, "the store cannot save now: nothing was saved"
    BUSY = "busy", 503, "the server is busy with other work of this kind: try again in a moment"
    CANNOT_RESUME = "cannot_resume", 500, "a stored game cannot be read back"
    DISK_NEARLY_FULL = "disk_nearly_full", 503, "the server's disk is nearly full: no new games"
    TOO_MANY_GAMES = "too_many_games", 429, "this address made too many games lately"
    TOO_MANY_TABLES = "too_many_tables", 429, "this address has too many open tables"
    TOO_MANY_JOINS = "too_many_joins", 429, "this address joined too many tables lately"
    UNKNOWN_HOST = "unknown_host", 400, "the Host header names no address this server answers to"
    ADMIN_ONLY = "admin_only", 403, "for the operator's addresses only (/api/node, /metrics)"
    NOT_READY = "not_ready", 503, "the node cannot reach its database or bus (readiness check)"
    NODE_BUSY = "node_busy", 429, "the node's shared budget for new games or sockets is spent"
    SLOWED_DOWN = "slowed_down", 429, "many failed log-ins for this name: a new address waits between tries"
    TOO_MANY_SIGNUPS = "too_many_signups", 429, "too many sign-ups from this address or on this server"
    REPLAY_BUSY = "replay_busy", 429, "this address has replays running already"
    REPLAY_TOO_LARGE = "replay_too_large", 413, "the replay's answer would be too large"


class ServiceError(Exception):
    """A request the service refuses: its `code` (from the registry), the HTTP `status` (the
    code's), and `message` saying why, for the person who sent it. `ServiceError(code, message)`;
    the older `ServiceError(status, code, message)` is read the same way.

    The message is typed (issue 37): a template whose `{name}` parts are filled from the keyword
    arguments, `ServiceError(ErrorCode.NO_SUCH_GAME, "no game {gid} on this server", gid=gid)`.
    The template is the message id of the web catalog (src/trapworks/web/i18n/<lang>.po), sent
    beside the English as "msg" and "args" so the page words the refusal in the viewer's language
    (js/i18n.js refusalText). An argument is a number, a name, a seat (`{"seat": n}`), or another
    refusal (a ServiceError, or {"msg", "args"}), never an English sentence made here."""

    def __init__(self, code: ErrorCode | int, message: str | None = None, *legacy: str, **args: Any):
        if isinstance(code, ErrorCode):
            self.code: str = code
            self.status = code.status
            template = message if message is not None else code.meaning
        else:  # (status, code, message)
            self.status = int(code)
            self.code = str(message)
            template = legacy[0] if legacy else self.code
        if not args and isinstance(getattr(template, "msg", None), str):  # a core.words.Said
            args = dict(template.values)  # type: ignore[attr-defined]
            template = template.msg  # type: ignore[attr-defined]
        self.msg = str(template)
        self.values: dict[str, Any] = {k: typed_value(v) for k, v in args.items()}
        # A value that is a Said is its own English (a game's message, which no web template fills).
        english = {
            k: str(v) if isinstance(getattr(v, "msg", None), str) else self.values[k] for k, v in args.items()
        }
        self.message = fill(template, english)
        super().__init__(self.message)

    @property
    def typed(self) -> dict[str, Any]:
        """The refusal as the page words it: its message id and values."""
        return {"msg": self.msg, "args": self.values}

    def __reduce__(self) -> tuple[Any, ...]:  # crosses from a worker process intact
        return (_rebuild, (self.status, str(self.code), self.msg, self.values, self.message))


def _rebuild(
    status: int, code: str, msg: str, values: dict[str, Any], message: str | None = None
) -> ServiceError:
    error = ServiceError(status, code, msg)
    error.values = values
    error.message = message if message is not None else fill(msg, values)
    error.args = (error.message,)
    return error


def typed_value(value: Any) -> Any:
    """An argument of a typed refusal as it travels (JSON): a refusal nested as its message id
    and values, a seat or a number as is, anything else as its text."""
    if isinstance(value, str) and isinstance(getattr(value, "msg", None), str):  # core.words.Said
        return {"msg": value.msg, "args": {k: typed_value(v) for k, v in value.values.items()}}  # type: ignore[attr-defined]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, ServiceError):
        return value.typed
    if isinstance(value, dict) and ("msg" in value or "seat" in value):
        return value
    return str(value)


_PLACE = re.compile(r"\{(\w+)\}")


def fill(template: str, values: dict[str, Any]) -> str:
    """The English of a typed refusal: each `{name}` with its value (a nested refusal's English;
    a seat as its `label`, else "player N"); a brace not naming an argument stays as written."""

    def one(value: Any) -> str:
        if isinstance(value, dict) and "msg" in value:
            return fill(str(value["msg"]), value.get("args") or {})
        if isinstance(value, dict) and "seat" in value:
            return str(value.get("label") or f"player {int(value['seat']) + 1}")
        return str(value)

    return _PLACE.sub(lambda m: one(values[m.group(1)]) if m.group(1) in values else m.group(0), template)


def refusal_body(code: str, template: str, **args: Any) -> bytes:
    """The API's error body, typed, for the refusals written below FastAPI (raw ASGI, the
    limits): {"ok": false, "error": English, "code", "msg", "args"}."""
    import orjson

    values = {k: typed_value(v) for k, v in args.items()}
    return orjson.dumps(
        {"ok": False, "error": fill(template, values), "code": str(code), "msg": template, "args": values}
    )


def table() -> str:
    """The registry as a Markdown table (docs/error-codes.md)."""
    lines = [
        "# Error codes",
        "",
        'Every refusal of the server, over HTTP (`{"ok": false, "error": message, "code": code}`)',
        'or the game socket (`{"type": "error", "code", "message"}`), has one of these codes.',
        "Written from `src/trapworks/server/errors.py` (`ErrorCode`) by",
        "`python -m trapworks.server.errors docs/error-codes.md`; do not edit by hand.",
        "",
        "| code | HTTP status | meaning |",
        "|---|---|---|",
    ]
    lines += [f"| `{c.value}` | {c.status} | {c.meaning} |" for c in ErrorCode]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/error-codes.md")
    out.write_text(table(), encoding="utf-8")
    print("wrote", out)
