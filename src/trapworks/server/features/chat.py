"""A chat per game over the game's WebSocket.

A line is stored (it survives a restart like a move), then sent to every seat and spectator as
`{"type": "chat", "line": {id, seat, name, text, at}}`; a connection gets the last CHAT_HISTORY
lines when it opens. Lines are plain text: the page inserts them as text, never as HTML. Seats
may always write; spectators only read, unless the game was created with `spectator_chat`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any, ClassVar

from pydantic import BaseModel

from ..errors import ErrorCode, ServiceError
from ..limits import RateLimiter
from ..messages import ChatLineMessage, ChatMessage
from ..room import Connection, Room
from . import Call, Feature, Host
from .names import Names
from .presence import send_all

CHAT_MAX = 300  # characters in one line
CHAT_HISTORY = 100  # lines sent to a connection when it opens
# Per seat (all its sockets together) and per spectator link (all the game's spectator sockets
# together): 5 lines at once, then one every 2 s.
CHAT_RATE_PER_S = 0.5
CHAT_BURST = 5
REFUSED_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"}


def _too_long(n: int) -> ServiceError:
    return ServiceError(
        ErrorCode.CHAT_TOO_LONG,
        "a chat line is at most {CHAT_MAX} characters (this one has {n})",
        CHAT_MAX=CHAT_MAX,
        n=n,
    )


def clean_text(raw: object) -> str:
    """A chat line as stored: trimmed, tabs and line breaks made spaces; refused with the reason."""
    if not isinstance(raw, str):
        raise ServiceError(ErrorCode.BAD_CHAT, "a chat line is text, not {name_x}", name_x=type(raw).__name__)
    if len(raw) > 4 * CHAT_MAX:
        raise _too_long(len(raw))
    text = raw.replace("\t", " ").replace("\r\n", " ").replace("\r", " ").replace("\n", " ").strip()
    for ch in text:
        if unicodedata.category(ch) in REFUSED_CATEGORIES:
            raise ServiceError(
                ErrorCode.BAD_CHAT,
                "a chat line cannot hold control or invisible characters (U+{code_point} is one)",
                code_point=format(ord(ch), "04X"),
            )
    if not text:
        raise ServiceError(ErrorCode.BAD_CHAT, "a chat line needs at least one visible character")
    if len(text) > CHAT_MAX:
        raise _too_long(len(text))
    return text


def public(line: dict[str, Any]) -> dict[str, Any]:
    """A line as a socket gets it: without its author's account (a spectator stays anonymous)."""
    return {k: v for k, v in line.items() if k != "author"}


class Chat(Feature):
    name = "chat"
    order = 90
    commands: ClassVar[tuple[type[BaseModel], ...]] = (ChatMessage,)
    replies: ClassVar[tuple[type[BaseModel], ...]] = (ChatLineMessage,)
    bus_kinds = ("chat",)

    def __init__(self, host: Host):
        super().__init__(host)
        self._rates = RateLimiter(CHAT_RATE_PER_S, CHAT_BURST)
        # i41: a moderator's mute: (game id, the writer's seat, the account logged in behind it,
        # the line's author as `authors` found it)
        self.checks: list[Callable[[str, int | None, Any, Any], None]] = []
        # i41: who wrote a line: (game id, the writer's seat, the account logged in behind the
        # socket) -> the account (or None); stored with the line, never sent with it.
        self.authors: list[Callable[[str, int | None, Any], Any]] = []
        # i41: personal mutes: (game id, the accounts behind its sockets) -> (account -> the
        # accounts it mutes, seat of the game -> the accounts its holder mutes). A muted account's
        # lines reach none of its muters' sockets, whether it wrote seated or as a spectator.
        self.mutes: list[Callable[[str, set[Any]], tuple[dict[Any, set[Any]], dict[int, set[Any]]]]] = []

    def info(self, room: Room) -> dict[str, Any]:
        return {"spectator_chat": room.stored.spectator_chat}  # spectators may write too

    def history(self, live: Room) -> list[dict[str, Any]]:
        try:
            return self.host.store.chat_lines(live.id, CHAT_HISTORY)
        except Exception as e:
            raise self.host.store_failed(f"read the chat of game {live.id}", e) from None

    async def hello(self, room: Room, conn: Connection) -> dict[str, Any]:
        return {"chat": self.greeting(room, conn)}

    async def on_message(self, command: ChatMessage, call: Call) -> None:
        await self.say(call.room, call.conn, command.text)
        await call.ack()

    def greeting(self, live: Room, conn: Connection) -> dict[str, Any]:
        """The chat so far and whether this connection may write, for its hello."""
        try:
            lines, error = self.history(live), None
        except ServiceError as e:  # the game is still playable; the page says why the chat is empty
            lines, error = [], e.message
        if lines:
            deaf = self.deaf_to(live, {conn.viewer})
            if any(deaf):
                holders: dict[int, Any] = {}  # lines from before authors were stored: the seat's holder
                for line in lines:
                    if line.get("author") is None and line.get("seat") is not None:
                        seat = line["seat"]
                        line["author"] = (
                            holders[seat]
                            if seat in holders
                            else holders.setdefault(seat, self.author_of(live, line))
                        )
                lines = [line for line in lines if not self.hidden_from(conn, line, deaf)]
        lines = [public(line) for line in lines]
        return {"lines": lines, "can_chat": self.may_write(live, conn.seat), "error": error}

    @staticmethod
    def may_write(live: Room, seat: int | None) -> bool:
        return seat is not None or live.stored.spectator_chat

    async def say(self, live: Room, conn: Connection, raw: object) -> dict[str, Any]:
        """Store a line from this connection and send it to everyone; the line, or the refusal."""
        if not self.may_write(live, conn.seat):
            raise ServiceError(
                ErrorCode.CHAT_READ_ONLY, "spectators read this game's chat but cannot write in it"
            )
        text = clean_text(raw)
        # i41: found once, for the mute checks and the stored line (one seat-holder query a line)
        author = next(
            (a for a in (find(live.id, conn.seat, conn.viewer) for find in self.authors) if a), None
        )
        for check in self.checks:
            check(live.id, conn.seat, conn.viewer, author)
        # A seat's sockets share one allowance: more tabs do not buy more lines; so do all the
        # sockets of the game's spectator link (i26: reconnecting bought a new allowance).
        if not self._rates.allow((live.id, conn.seat)):
            raise ServiceError(
                ErrorCode.CHAT_RATE_LIMITED,
                "too many chat lines: at most {CHAT_BURST} at once, then one every {seconds} s;"
                " wait a moment",
                CHAT_BURST=CHAT_BURST,
                seconds=format(1 / CHAT_RATE_PER_S, "g"),
            )
        name = self.host.feature(Names).speaker(live, conn)
        try:
            line = self.host.store.add_chat(live.id, conn.seat, name, text, author)
        except Exception as e:
            raise self.host.store_failed(f"store a chat line of game {live.id}", e) from None
        await self.send_line(live, line)
        live.publish("chat", line=line)  # the other nodes of a cluster send it too
        return line

    def deaf_to(self, live: Room, viewers: set[Any]) -> tuple[dict[Any, set[Any]], dict[int, set[Any]]]:
        """Whom each of these accounts, and each seat's holder, mutes in this game."""
        viewers = {v for v in viewers if v is not None}
        by_viewer: dict[Any, set[Any]] = {}
        by_seat: dict[int, set[Any]] = {}
        for mutes in self.mutes:
            accounts, seats = mutes(live.id, viewers)
            for key, muted in accounts.items():
                by_viewer.setdefault(key, set()).update(muted)
            for seat, muted in seats.items():
                by_seat.setdefault(seat, set()).update(muted)
        return by_viewer, by_seat

    def author_of(self, live: Room, line: dict[str, Any]) -> Any:
        """The account behind a line: as stored, or (a line from before authors were stored) the
        holder of its seat."""
        if line.get("author") is not None or line.get("seat") is None:
            return line.get("author")
        return next((a for a in (find(live.id, line["seat"], None) for find in self.authors) if a), None)

    @staticmethod
    def hidden_from(
        conn: Connection, line: dict[str, Any], deaf: tuple[dict[Any, set[Any]], dict[int, set[Any]]]
    ) -> bool:
        author = line.get("author")
        if author is None:
            return False
        by_viewer, by_seat = deaf
        return author in by_viewer.get(conn.viewer, ()) or author in by_seat.get(conn.seat, ())  # type: ignore[arg-type]

    async def send_line(self, live: Room, line: dict[str, Any]) -> None:
        """One line to every socket of the game but those of an account (logged in behind the
        socket, or holding its seat) that mutes its author, wherever the author wrote it from."""
        line = {**line, "author": self.author_of(live, line)}
        message = {"type": "chat", "line": public(line)}
        deaf = self.deaf_to(live, {conn.viewer for conn in live.connections}) if line["author"] else ({}, {})
        if not any(deaf):
            await send_all(live, message)
            return
        for conn in list(live.connections):
            if self.hidden_from(conn, line, deaf):
                continue
            try:
                await conn.send(message)
            except Exception:  # a closed or dropped socket: the others still get it
                live.connections.discard(conn)

    async def heard_elsewhere(self, msg: dict[str, Any]) -> None:
        """A line said on another node of the cluster: our sockets of that game get it."""
        live = self.host.live.get(str(msg.get("g")))
        if live is not None and isinstance(msg.get("line"), dict):
            await self.send_line(live, msg["line"])
