"""One socket's outbound queue and its writer task: sending never blocks a game.

The game code only puts frames in the queue (never awaits the network, so a game lock is never
held across network I/O); the writer task sends them in order. A socket whose queue overflows
(it stopped reading) or whose send stalls past `send_timeout` is closed: the client may reconnect
and catch up with a sync.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("trapworks.server")

OUTBOX_FRAMES = 256  # frames waiting for one socket before it counts as not reading
SEND_TIMEOUT_S = 5.0  # one send longer than this: the socket counts as stalled
CLOSE_SLOW = 4008  # WebSocket close code for a socket dropped for not reading (policy range 4000+)


class SocketDropped(Exception):
    """The socket was dropped (too slow or closed): nothing more goes to it."""


class Outbox:
    """A socket's frames waiting to be sent and the task that sends them. i40: kept small, as an
    idle socket holds it for hours: a list and a future made only while someone waits, not an
    asyncio.Queue and Events (each holds empty deques, ~760 bytes apiece: ~3.8 KB a socket)."""

    __slots__ = (
        "_close",
        "_encode",
        "_room_waiter",
        "_send_text",
        "_wake",
        "_writer",
        "dropped",
        "frames",
        "limit",
        "on_drop",
        "send_timeout",
    )

    def __init__(
        self,
        send_text: Callable[[str], Awaitable[None]],
        close: Callable[[int, str], Awaitable[None]],
        encode: Callable[[Any], str],
        *,
        limit: int | None = None,
        send_timeout: float | None = None,
    ):
        self._send_text = send_text
        self._close = close
        self._encode = encode
        self.send_timeout = SEND_TIMEOUT_S if send_timeout is None else send_timeout
        self.limit = OUTBOX_FRAMES if limit is None else limit
        self.frames: list[Any] = []
        self.dropped: str | None = None  # why, once dropped
        # Called once when the socket is dropped (too slow): the socket's reader stops too.
        self.on_drop: Callable[[], object] | None = None
        self._wake: asyncio.Future[None] | None = None  # the writer waits for a frame
        self._room_waiter: asyncio.Future[None] | None = None  # the reader waits for room
        self._writer = asyncio.get_running_loop().create_task(self._run())

    async def put(self, frame: Any) -> None:
        """Queue a frame (never waits: an `async def` only to match the old send interface)."""
        self.put_nowait(frame)

    def put_nowait(self, frame: Any) -> None:
        if self.dropped is not None:
            raise SocketDropped(self.dropped)
        if len(self.frames) >= self.limit:
            self.drop(f"more than {self.limit} messages unread: reconnect to catch up")
            raise SocketDropped(self.dropped)
        self.frames.append(frame)
        _wake(self._wake)

    def drop(self, reason: str) -> None:
        if self.dropped is not None:
            return
        self._closed(reason)
        log.warning("dropping a socket: %s", reason)
        self._writer.cancel()
        asyncio.get_running_loop().call_soon(self._tell_dropped)
        # The close frame may never get through a stalled socket: bounded, in its own task.
        task = asyncio.get_running_loop().create_task(self._close_quietly(reason))
        _background.add(task)
        task.add_done_callback(_background.discard)

    def _tell_dropped(self) -> None:
        if self.on_drop is not None:  # (None once the socket's reader has ended)
            self.on_drop()

    def _closed(self, reason: str) -> None:
        self.dropped = self.dropped or reason
        _wake(self._room_waiter)  # a reader waiting for room stops waiting

    async def _close_quietly(self, reason: str) -> None:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(self.send_timeout):
                await self._close(CLOSE_SLOW, reason[:120])

    async def room(self) -> None:
        """Wait while the queue is half full: a socket's reader calls this before reading its next
        message, so a client that sends faster than it reads is slowed down, not dropped (it is
        dropped only if its sends stall)."""
        while self.dropped is None and len(self.frames) * 2 >= self.limit:
            self._room_waiter = asyncio.get_running_loop().create_future()
            try:
                await self._room_waiter
            finally:
                self._room_waiter = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        frames = self.frames
        while True:
            if not frames:
                self._wake = loop.create_future()
                try:
                    await self._wake
                finally:
                    self._wake = None
                continue
            frame = frames.pop(0)
            if len(frames) * 2 < self.limit:
                _wake(self._room_waiter)
            try:
                async with asyncio.timeout(self.send_timeout):
                    await self._send_text(self._encode(frame))
                # i40: not kept while waiting for the next one: an idle socket would hold its last
                # state (the whole view, ~10 KB) for as long as it stays open.
                frame = None
            except TimeoutError:
                self.drop(f"a send stalled for over {self.send_timeout:g} s")
                return
            except Exception:  # the socket closed: its reader ends the connection
                self._closed("closed")
                return

    async def aclose(self) -> None:
        """Stop the writer (the socket is gone)."""
        self._closed("closed")
        self._writer.cancel()
        with contextlib.suppress(BaseException):
            await self._writer


def _wake(waiter: asyncio.Future[None] | None) -> None:
    if waiter is not None and not waiter.done():
        waiter.set_result(None)


_background: set[asyncio.Task[Any]] = set()
