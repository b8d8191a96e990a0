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
        self.queue: asyncio.Queue[Any] = asyncio.Queue(OUTBOX_FRAMES if limit is None else limit)
        self.dropped: str | None = None  # why, once dropped
        self.closed = asyncio.Event()  # set once dropped: the socket's reader stops too
        self._room = asyncio.Event()  # set while the queue is under half full
        self._room.set()
        self._writer = asyncio.get_running_loop().create_task(self._run())

    async def put(self, frame: Any) -> None:
        """Queue a frame (never waits: an `async def` only to match the old send interface)."""
        self.put_nowait(frame)

    def put_nowait(self, frame: Any) -> None:
        if self.dropped is not None:
            raise SocketDropped(self.dropped)
        try:
            self.queue.put_nowait(frame)
            if self.queue.qsize() * 2 >= self.queue.maxsize:
                self._room.clear()
        except asyncio.QueueFull:
            self.drop(f"more than {self.queue.maxsize} messages unread: reconnect to catch up")
            raise SocketDropped(self.dropped) from None

    def drop(self, reason: str) -> None:
        if self.dropped is not None:
            return
        self.dropped = reason
        self.closed.set()
        log.warning("dropping a socket: %s", reason)
        self._writer.cancel()
        # The close frame may never get through a stalled socket: bounded, in its own task.
        task = asyncio.get_running_loop().create_task(self._close_quietly(reason))
        _background.add(task)
        task.add_done_callback(_background.discard)

    async def _close_quietly(self, reason: str) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._close(CLOSE_SLOW, reason[:120]), self.send_timeout)

    async def room(self) -> None:
        """Wait while the queue is half full: a socket's reader calls this before reading its next
        message, so a client that sends faster than it reads is slowed down, not dropped (it is
        dropped only if its sends stall)."""
        if not self._room.is_set():
            waiter = asyncio.ensure_future(self._room.wait())
            closed = asyncio.ensure_future(self.closed.wait())
            try:
                await asyncio.wait({waiter, closed}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                waiter.cancel()
                closed.cancel()

    async def _run(self) -> None:
        while True:
            if self.queue.qsize() * 2 < self.queue.maxsize:
                self._room.set()
            frame = await self.queue.get()
            try:
                await asyncio.wait_for(self._send_text(self._encode(frame)), self.send_timeout)
                # i40: not kept while waiting for the next one: an idle socket would hold its last
                # state (the whole view, ~10 KB) for as long as it stays open.
                frame = None
            except TimeoutError:
                self.drop(f"a send stalled for over {self.send_timeout:g} s")
                return
            except Exception:  # the socket closed: its reader ends the connection
                self.dropped = self.dropped or "closed"
                self.closed.set()
                return

    async def aclose(self) -> None:
        """Stop the writer (the socket is gone)."""
        self.dropped = self.dropped or "closed"
        self._writer.cancel()
        with contextlib.suppress(BaseException):
            await self._writer


_background: set[asyncio.Task[Any]] = set()
