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
                "a chat line cannot hold control or invisible characters (U+{x} is one)",
                x=format(ord(ch), "04X"),
            )
    if not text:
        raise ServiceError(ErrorCode.BAD_CHAT, "a chat line needs at least one visible character")
    if len(text) > CHAT_MAX:
        raise _too_long(len(text))
    return text


class Chat(Feature):
    name = "chat"
    order = 90
    commands: ClassVar[tuple[type[BaseModel], ...]] = (ChatMessage,)
    replies: ClassVar[tuple[type[BaseModel], ...]] = (ChatLineMessage,)
    bus_kinds = ("chat",)

    def __init__(self, host: Host):
        super().__init__(host)
        self._rates = RateLimiter(CHAT_RATE_PER_S, CHAT_BURST)
        # i41: a moderator's mute: (game id, the writer's seat, the account logged in behind it)
        self.checks: list[Callable[[str, int | None, Any], None]] = []
        # i41: a player's personal mutes in a game, as (viewer seat, speaker seat) pairs: that
        # speaker's lines never reach that viewer's sockets (the server leaves them out).
        self.mutes: list[Callable[[str], set[tuple[int, int]]]] = []
        # i41: and wherever the muter watches from (a spectator too): (game id, the accounts behind
        # its sockets) -> account -> the seats whose lines that account mutes.
        self.viewer_mutes: list[Callable[[str, set[Any]], dict[Any, set[int]]]] = []

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
        if lines and (conn.seat is not None or conn.viewer is not None):
            hidden = {speaker for viewer, speaker in self.muted_pairs(live) if viewer == conn.seat}
            hidden |= self.muted_by_viewers(live, {conn.viewer}).get(conn.viewer, set())
            lines = [line for line in lines if line.get("seat") not in hidden]
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
        for check in self.checks:  # i41
            check(live.id, conn.seat, conn.viewer)
        # A seat's sockets share one allowance: more tabs do not buy more lines; so do all the
        # sockets of the game's spectator link (i26: reconnecting bought a new allowance).
        if not self._rates.allow((live.id, conn.seat)):
            raise ServiceError(
                ErrorCode.CHAT_RATE_LIMITED,
                "too many chat lines: at most {CHAT_BURST} at once, then one every {x} s; wait a moment",
                CHAT_BURST=CHAT_BURST,
                x=format(1 / CHAT_RATE_PER_S, "g"),
            )
        name = self.host.feature(Names).speaker(live, conn)
        try:
            line = self.host.store.add_chat(live.id, conn.seat, name, text)
        except Exception as e:
            raise self.host.store_failed(f"store a chat line of game {live.id}", e) from None
        await self.send_line(live, line)
        live.publish("chat", line=line)  # the other nodes of a cluster send it too
        return line

    def muted_pairs(self, live: Room) -> set[tuple[int, int]]:
        pairs: set[tuple[int, int]] = set()
        for mutes in self.mutes:
            pairs |= mutes(live.id)
        return pairs

    def muted_by_viewers(self, live: Room, viewers: set[Any]) -> dict[Any, set[int]]:
        viewers.discard(None)
        out: dict[Any, set[int]] = {}
        for mutes in self.viewer_mutes if viewers else ():
            for viewer, seats in mutes(live.id, viewers).items():
                out.setdefault(viewer, set()).update(seats)
        return out

    async def send_line(self, live: Room, line: dict[str, Any]) -> None:
        """One line to every socket of the game but those of a seat, or of an account watching
        (seated or not), that mutes its speaker."""
        speaker = line.get("seat")
        pairs = self.muted_pairs(live) if speaker is not None else set()
        deaf = {viewer for viewer, muted in pairs if muted == speaker}
        viewers = {conn.viewer for conn in live.connections} if speaker is not None else set()
        deaf_viewers = {v for v, seats in self.muted_by_viewers(live, viewers).items() if speaker in seats}
        if not deaf and not deaf_viewers:
            await send_all(live, {"type": "chat", "line": line})
            return
        for conn in list(live.connections):
            if conn.seat in deaf or (conn.viewer is not None and conn.viewer in deaf_viewers):
                continue
            try:
                await conn.send({"type": "chat", "line": line})
            except Exception:  # a closed or dropped socket: the others still get it
                live.connections.discard(conn)

    async def heard_elsewhere(self, msg: dict[str, Any]) -> None:
        """A line said on another node of the cluster: our sockets of that game get it."""
        live = self.host.live.get(str(msg.get("g")))
        if live is not None and isinstance(msg.get("line"), dict):
            await self.send_line(live, msg["line"])
