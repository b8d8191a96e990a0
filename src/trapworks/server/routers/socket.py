"""The game socket: one `GameSocket` session per connection, at /ws/games/{gid}?token=...

A session greets (the game's info, each feature's part of the hello, the game now), then reads
messages: each is parsed, rate-limited and validated by the protocol's model (server/protocol.py),
then dispatched in one line: a move, sync or ping is the game's own; every other type goes to the
feature that declares it (`Feature.on_message`). Everything sent goes through the socket's outbox
(server/outbox.py: a queue and a writer of its own, back-pressure on reading).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import orjson
from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ValidationError
from starlette.websockets import WebSocketDisconnected

from .. import messages
from ..errors import ErrorCode, ServiceError
from ..features import Call
from ..limits import SOCKET_RATE_BURST, SOCKET_RATE_PER_S, RateLimiter
from ..outbox import Outbox, SocketDropped
from ..room import Connection, Room
from ..service import GameService
from .errors import MISSING_PLY

# A state message's own fields (always sent); the others are the features' parts.
STATE_CORE = frozenset(messages.StateCore.model_fields)

RATE_NOTICE_GAP_S = 5.0  # at most one "rate_limited" notice per socket in this time
CLOSE_UNSUPPORTED = 1003  # WebSocket close code: a data type the endpoint does not accept
# Refusals after which the sender's picture is out of date: it is sent the current one.
RESYNC_AFTER = ("stale", "not_your_turn", "game_over")

router = APIRouter()


def encode(msg: dict[str, Any] | list[dict[str, Any]]) -> str:
    """A socket message as JSON text. orjson: every move sends views, and the standard json module
    was a tenth of the server's time per move under load. Non-string keys become strings, as json does."""
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()


def parse_message(raw: str) -> dict[str, Any]:
    # orjson: a depth limit (a deeply nested message is an error, not a crash) and no lone surrogates.
    try:
        msg = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        raise ServiceError(ErrorCode.BAD_JSON, "message is not valid JSON: {e}", e=e) from None
    if not isinstance(msg, dict):
        raise ServiceError(ErrorCode.BAD_MESSAGE, "a message is a JSON object with a 'type'")
    return msg


def message_error(e: ValidationError, types: tuple[str, ...]) -> ServiceError:
    """A socket message its model refused, as the API's error (the field named)."""
    first = e.errors()[0]
    loc = [str(x) for x in first.get("loc", ())]
    if loc and loc[0] in types:  # the message type the union tried ("name" is also a field)
        loc = loc[1:]
    field = loc[0] if loc else "message"
    if field == "ply" and first.get("type") == "missing":
        return ServiceError(ErrorCode.MISSING_PLY, MISSING_PLY)
    code = {"action": ErrorCode.BAD_ACTION, "ply": ErrorCode.BAD_PLY}.get(field, ErrorCode.BAD_MESSAGE)
    return ServiceError(code, "{field}: {why}", field=".".join(loc) or "message", why=first.get("msg"))


class GameSocket:
    """One open game socket: its seat, its outbox, its rate, and the messages it sends."""

    def __init__(self, ws: WebSocket, service: GameService, gid: str, token: str | None):
        self.ws, self.service, self.gid, self.token = ws, service, gid, token
        self.seat: int | None = None
        # Everything for this socket goes through its outbox: a queue and a writer task of its own.
        self.outbox = Outbox(ws.send_text, lambda code, reason: ws.close(code, reason), encode)
        self.parts: dict[str, Any] = {}  # the features' parts of the state as this socket has them
        self.send = self._send
        self.conn = Connection(seat=None, send=self.send)
        self.rate = RateLimiter(SOCKET_RATE_PER_S, SOCKET_RATE_BURST)
        self.last_rate_notice = -RATE_NOTICE_GAP_S

    async def _send(self, frame: dict[str, Any] | list[dict[str, Any]]) -> None:
        """Queue a frame; its state updates carry only the features' parts that changed since
        the last state this socket was sent (queued in order, so the page has the others)."""
        if isinstance(frame, list):
            await self.outbox.put([self._only_changed(m) for m in frame])
        else:
            await self.outbox.put(self._only_changed(frame))

    def _only_changed(self, msg: dict[str, Any]) -> dict[str, Any]:
        if msg.get("type") != "state":
            return msg
        parts = {k: v for k, v in msg.items() if k not in STATE_CORE}
        if msg.get("sync"):
            self.parts = parts  # a whole state: the page starts again from it
            return msg
        kept = [k for k, v in parts.items() if k in self.parts and self.parts[k] == v]
        self.parts.update(parts)
        if not kept:
            return msg
        return {**{k: v for k, v in msg.items() if k not in kept}, "kept": kept}

    async def run(self) -> None:
        await self.ws.accept()
        try:
            live = await self.service.fresh(self.gid)
            self.seat = self.conn.seat = live.seat_for(self.token)
            self.conn.viewer = self.service.viewer_of(self.ws)  # i41: whose personal mutes apply
        except ServiceError as e:
            await self.ws.send_json(
                {"type": "error", "code": e.code, "message": e.message, **e.typed, "fatal": True}
            )
            await self.ws.close(code=4000 + e.status)
            return
        reader = asyncio.current_task()
        assert reader is not None  # a socket handler always runs in a task
        # A socket dropped for not reading: stop waiting for its messages too (a callback, not a
        # task waiting for it: i40, an idle socket's memory).
        self.outbox.on_drop = reader.cancel
        try:
            await self.greet(live)
            await self.read(live)
        except (WebSocketDisconnect, WebSocketDisconnected, SocketDropped):
            pass  # the client went away (possibly while its move was being answered)
        except asyncio.CancelledError:
            if self.outbox.dropped in (None, "closed"):
                raise  # the server is stopping
        finally:
            self.outbox.on_drop = None
            await self.service.socket_closed(live, self.conn)
            self.service.disconnect(live, self.conn)
            await self.outbox.aclose()

    async def greet(self, live: Room) -> None:
        # The hello also carries the features' parts: the seats' names and presence, the chat so far.
        greeting = await self.service.socket_opened(live, self.conn)
        await self.send({"type": "hello", "info": live.game_info(self.seat), **greeting})
        live.connections.add(self.conn)
        self.service.connected(live, self.conn)
        await self.send(live.snapshot(self.seat, sync=True))

    async def read(self, live: Room) -> None:
        while True:
            await self.outbox.room()  # back-pressure: read no more while our answers pile up
            frame = await self.ws.receive()
            if frame["type"] == "websocket.disconnect":
                return
            raw = frame.get("text")
            if raw is None:  # a binary frame: this API speaks JSON text only
                await self.ws.close(CLOSE_UNSUPPORTED, "binary frames are not accepted: send JSON text")
                return
            self.service.heard(live, self.conn)
            if self.rate.allow():
                await self.handle(raw)
            elif time.monotonic() - self.last_rate_notice >= RATE_NOTICE_GAP_S:
                # Dropped unanswered (answering each would let a flood fill the socket's outbox),
                # with one notice per few seconds, not one per refill of the bucket.
                self.last_rate_notice = time.monotonic()
                message = "too many messages: slow down (messages over the rate are dropped)"
                refusal: dict[str, Any] = {
                    "type": "error",
                    "ref": None,
                    "code": ErrorCode.RATE_LIMITED,
                    "message": message,
                    "msg": message,
                    "args": {},
                }
                await self.send(refusal)

    async def handle(self, raw: str) -> None:
        """One message: answered, or refused with an error that names the problem."""
        ref = None
        try:
            msg = parse_message(raw)
            ref = messages.ref_of(msg)  # i26: 3.0 is the integer 3
            protocol = self.service.protocol
            kind = msg.get("type")
            if kind not in protocol.types:
                raise ServiceError(
                    ErrorCode.BAD_MESSAGE,
                    "unknown message type {kind}; use {types}",
                    kind=repr(str(kind)[:40]),
                    types=", ".join(protocol.types),
                )
            try:
                # The message's model is its one validation: what it holds goes on as checked.
                command = protocol.client_message.validate_python(msg)
            except ValidationError as e:
                raise message_error(e, protocol.types) from None
            await self.dispatch(str(kind), command, ref)
        except ServiceError as e:
            await self.send({"type": "error", "ref": ref, "code": e.code, "message": e.message, **e.typed})
            if e.code in RESYNC_AFTER:
                try:
                    await self.send(self.service.get(self.gid).snapshot(self.seat, sync=True))
                except ServiceError:
                    pass

    async def dispatch(self, kind: str, command: BaseModel, ref: Any) -> None:
        """The game's own messages here; every other to the feature that declares it."""
        if isinstance(command, messages.MoveMessage):
            # The ack travels in the same frame as this connection's updates (room: _send_steps).
            await self.service.move(self.gid, self.token, command, reply_to=self.conn, ref=ref)
        elif isinstance(command, messages.SyncMessage):
            live = await self.service.fresh(self.gid)
            await self.send(live.snapshot(self.seat, sync=True))
        elif isinstance(command, messages.PingMessage):
            await self.send({"type": "pong", "ref": ref})
        else:
            call = Call(self.service.get(self.gid), self.token, self.seat, self.conn, ref)
            await self.service.owner(kind).on_message(command, call)


@router.websocket("/ws/games/{gid}")
async def game_socket(ws: WebSocket, gid: str, token: str | None = Query(None)) -> None:
    await GameSocket(ws, ws.app.state.service, gid, token).run()
