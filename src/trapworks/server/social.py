"""Playing with people: names, presence, chat and open tables, wired into the app.

The four are features of the service (features/names.py, presence.py, chat.py, tables.py);
`Social` wires them to the game socket (`connected`, `heard`, `handle`, `disconnected`) and
`add_routes` adds their HTTP endpoints.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request

from .errors import ServiceError
from .features.chat import Chat
from .features.names import Names
from .features.presence import Presence
from .features.tables import Tables
from .limits import RateLimiter
from .messages import ErrorReply, Joined, JoinTable, NameChange, NameChanged, TableList
from .room import Connection, Room
from .service import GameService

# Socket message types handled here (the rest are the game's: move, undo, hint, sync, ping).
SOCIAL_MESSAGES = ("name", "chat", "presence")
# Each is shown to every connection of the game: a client changing names or flipping its
# visibility in a loop would flood them all. Per seat (per spectator connection).
NAME_RATE = (0.2, 3.0)  # 3 changes at once, then one every 5 s
PRESENCE_RATE = (1.0, 10.0)  # heartbeats come every 15 s; visibility changes are rarer still


class Social:
    def __init__(self, service: GameService):
        self.service = service
        self.presence = service.feature(Presence)
        self.names = service.feature(Names)
        self.chat = service.feature(Chat)
        self.tables = service.feature(Tables)
        self._name_rate = RateLimiter(*NAME_RATE)
        self._presence_rate = RateLimiter(*PRESENCE_RATE)

    def check_name_rate(self, live: Room, seat: int | None, conn: Connection | None) -> None:
        # Keyed by the connection's id, not the object: the limiter must not keep closed sockets alive.
        if not self._name_rate.allow(id(conn) if seat is None else (live.id, seat)):
            raise ServiceError(
                429,
                "name_rate_limited",
                f"too many name changes: at most {NAME_RATE[1]:g} at once, then one every "
                f"{1 / NAME_RATE[0]:g} s; wait a moment",
            )

    async def connected(self, live: Room, conn: Connection) -> dict[str, Any]:
        """A socket opens: what its hello carries besides the game (the seats' presence, the chat
        so far and whether it may write); the other connections are told it came."""
        return {
            "presence": await self.presence.socket_opened(live, conn),
            "chat": self.chat.greeting(live, conn),
        }

    async def disconnected(self, live: Room, conn: Connection) -> None:
        await self.presence.socket_closed(live, conn)
        self.names.forget(conn)

    def heard(self, live: Room, conn: Connection) -> None:
        self.presence.heard(live, conn)

    async def handle(
        self,
        msg: dict[str, Any],
        live: Room,
        conn: Connection,
        send: Callable[[dict[str, Any]], Awaitable[None]],
        ref: Any,
    ) -> None:
        """One validated socket message of SOCIAL_MESSAGES; a refusal raises ServiceError."""
        kind = msg["type"]
        if kind == "presence":
            if not self._presence_rate.allow(id(conn)):
                raise ServiceError(
                    429, "presence_rate_limited", "too many presence messages: one every 15 s is enough"
                )
            self.presence.heard(live, conn, visible=bool(msg["visible"]))
            await self.presence.refresh(live)
            await send({"type": "ack", "ref": ref, "ply": live.ply()})
        elif kind == "name":
            self.names.check_name(live, conn.seat, msg["name"])  # a refused name costs nothing
            self.check_name_rate(live, conn.seat, conn)
            await self.names.set_name(live, conn.seat, msg["name"], conn)
            await send({"type": "ack", "ref": ref, "ply": live.ply()})
        elif kind == "chat":
            await self.chat.say(live, conn, msg["text"])
            await send({"type": "ack", "ref": ref, "ply": live.ply()})

    async def stop(self) -> None:
        await self.presence.shutdown()


def add_routes(app: FastAPI, social: Social) -> None:
    service = social.service

    @app.get("/api/tables", response_model=TableList, summary="Open tables: public games with free seats")
    async def open_tables():
        return {"tables": social.tables.listing()}

    @app.post(
        "/api/tables/{gid}/join",
        response_model=Joined,
        responses={s: {"model": ErrorReply} for s in (400, 404, 409, 503)},
        summary="Take a free seat of an open table: its token, handed out once",
    )
    async def join_table(gid: str, body: JoinTable, request: Request):
        live, seat = social.tables.join(gid, body)
        if body.name is not None:
            try:
                await social.names.set_name(live, seat, body.name)
            except ServiceError:
                pass  # checked before the seat was taken; a name taken meanwhile leaves it unnamed
        token = live.stored.seats[seat]["token"]
        await social.presence.refresh(live)
        base = str(request.base_url).rstrip("/")
        return {"ok": True, "seat": seat, "token": token, "link": f"{base}/g/{live.id}#t={token}"}

    @app.post(
        "/api/games/{gid}/name",
        response_model=NameChanged,
        responses={s: {"model": ErrorReply} for s in (400, 401, 403, 404, 409, 503)},
        summary="Set your seat's display name (shown on the seats, in the log and in chat)",
    )
    async def set_name(gid: str, body: NameChange):
        live = service.get(gid)
        seat = live.seat_for(body.token)
        if seat is None:
            raise ServiceError(403, "spectator", "a spectator's name is set over the socket, for chat")
        social.names.check_name(live, seat, body.name)
        social.check_name_rate(live, seat, None)
        name = await social.names.set_name(live, seat, body.name)
        return {"ok": True, "seat": seat, "name": name}
