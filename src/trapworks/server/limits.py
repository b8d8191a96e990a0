"""Limits that keep one client from holding the server: sizes, timeouts and rates.

- `limit_requests`: ASGI middleware. HTTP: the URL at most MAX_URL bytes (414), the body at most
  MAX_BODY bytes (413) and complete within BODY_TIMEOUT_S (408: a body shorter than its
  Content-Length is never waited for longer), at most RATE_PER_S requests per second per client
  address with bursts of RATE_BURST (429). WebSocket: an over-long upgrade URL is refused.
- `GuardedH11Protocol`: uvicorn's h11 protocol with a deadline for a request's head: a client that
  sends its request line and headers slower than HEAD_TIMEOUT_S gets 408 and is closed (h11's own
  limit on an incomplete head, `h11_max_incomplete_event_size`, caps the header size).
- `RateLimiter`: a token bucket (also used per socket for its messages).
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
import socket
import struct
import time
from collections import OrderedDict
from typing import Any

import h11
import orjson
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .errors import refusal_body

MAX_URL = 7900  # bytes of path and query (with the request line under websockets' own 8 KB line limit)
MAX_BODY = 2 * 1024 * 1024  # bytes: a 5,000-move record is far below
MAX_HEADERS = 16 * 1024  # bytes of request line and headers (uvicorn's h11_max_incomplete_event_size)
BODY_TIMEOUT_S = 10.0
HEAD_TIMEOUT_S = 10.0
# Kernel send buffer per connection: bounds the memory a client that stops reading can hold, and
# makes its stall show (then its socket is dropped, see outbox.py) instead of filling megabytes.
SEND_BUFFER = 256 * 1024
RATE_PER_S = 200.0  # HTTP requests per client address (players behind one NAT share it)
RATE_BURST = 1000.0
SOCKET_RATE_PER_S = 200.0  # messages per socket (a player sends a few a second)
SOCKET_RATE_BURST = 400.0
CLOSE_POLICY = 1008  # WebSocket close code: policy violation (a too-long URL)
# A connection whose client stops reading: once the kernel's send buffer and the transport's
# buffer are full, a write that makes no progress for WRITE_TIMEOUT_S aborts the connection (its
# buffers, e.g. a replay answer of tens of MB, are freed). A connection the server closes gets
# CLOSE_GRACE_S to send what is left (a WebSocket's close frame), then it is aborted: a client
# that does not read cannot keep a closed socket ESTABLISHED.
WRITE_TIMEOUT_S = 10.0
CLOSE_GRACE_S = 5.0

Scope = dict[str, Any]


class RateLimiter:
    """Token buckets by key: `allow(key)` takes one token if there is one."""

    def __init__(self, rate: float, burst: float, max_keys: int = 10_000):
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self._buckets: OrderedDict[Any, tuple[float, float]] = OrderedDict()

    def allow(self, key: Any = None) -> bool:
        now = time.monotonic()
        tokens, last = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        ok = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if ok else tokens, now)
        if len(self._buckets) > self.max_keys:  # forget the least recently seen clients
            self._buckets.popitem(last=False)
        return ok


async def _json_reply(
    send: Any, status: int, code: str, message: str, headers: list[Any] | None = None
) -> None:
    body = orjson.dumps({"ok": False, "error": message, "code": code})
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def limit_requests(app: Any, *, rate: RateLimiter | None = None) -> Any:
    """Wrap an ASGI app with the limits above (the rate limiter may be given, e.g. a test's)."""
    limiter = rate or RateLimiter(RATE_PER_S, RATE_BURST)

    async def guarded(scope: Scope, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await app(scope, receive, send)
            return
        url_size = len(scope.get("raw_path") or scope.get("path", "").encode()) + len(
            scope.get("query_string", b"")
        )
        if kind == "websocket":
            if url_size > MAX_URL:
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": CLOSE_POLICY, "reason": "URL too long"})
                return
            await app(scope, receive, send)
            return
        if url_size > MAX_URL:
            await _json_reply(send, 414, "url_too_long", f"the URL is over {MAX_URL} bytes")
            return
        client = (scope.get("client") or ("?", 0))[0]
        if not limiter.allow(client):
            await _json_reply(
                send, 429, "rate_limited", "too many requests: slow down", [(b"retry-after", b"1")]
            )
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None:
            try:
                size = int(declared)
            except ValueError:
                await _json_reply(send, 400, "bad_length", "Content-Length is not a number")
                return
            if size > MAX_BODY:
                await _json_reply(send, 413, "body_too_large", f"the request body is over {MAX_BODY} bytes")
                return
        if scope.get("method") in ("GET", "HEAD", "OPTIONS") and declared is None:
            await app(scope, receive, send)
            return
        # Read the whole body first, with a deadline and a size cap; the app then reads it at once.
        body = await _read_body(receive, send)
        if body is None:  # refused (already answered) or the client left
            return
        sent = False

        async def replay_body() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # the disconnect, when it comes

        await app(scope, replay_body, send)

    return guarded


async def _read_body(receive: Any, send: Any) -> bytes | None:
    """The request body, read within BODY_TIMEOUT_S and MAX_BODY; None when it was refused (the
    answer is sent here) or the client disconnected."""
    chunks: list[bytes] = []
    total = 0
    try:
        # One deadline for the whole body (asyncio.timeout: no task per request, as wait_for made)
        async with asyncio.timeout(BODY_TIMEOUT_S):
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return None
                chunk = message.get("body", b"")
                total += len(chunk)
                if total > MAX_BODY:
                    break
                chunks.append(chunk)
                if not message.get("more_body", False):
                    return b"".join(chunks)
    except TimeoutError:
        await _json_reply(
            send,
            408,
            "body_timeout",
            f"the request body did not arrive within {BODY_TIMEOUT_S:g} s "
            "(is it shorter than its Content-Length?)",
        )
        return None
    # (answered outside the deadline: a slow reader of the answer is the write timeout's business)
    await _json_reply(send, 413, "body_too_large", f"the request body is over {MAX_BODY} bytes")
    return None


class LimitsMiddleware:
    """`limit_requests` as a Starlette middleware class (app.add_middleware(LimitsMiddleware))."""

    def __init__(self, app: Any, rate: RateLimiter | None = None):
        self.limiter = rate or RateLimiter(RATE_PER_S, RATE_BURST)
        self._guarded = limit_requests(app, rate=self.limiter)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        await self._guarded(scope, receive, send)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, with a deadline on each request's head (request line and headers)."""

    head_timeout = HEAD_TIMEOUT_S
    _head_timer: asyncio.TimerHandle | None = None
    _write_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        self._arm_head_timer()

    def data_received(self, data: bytes) -> None:
        if self._between_requests():
            self._arm_head_timer()
            if self._request_line_too_long(data) or self._head_too_large(data):
                return
        super().data_received(data)
        if not self._between_requests() or self._upgraded():
            self._cancel_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        _cancel(self._write_timer)
        self._write_timer = None
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        # The client is not reading what we send: it has WRITE_TIMEOUT_S to start again.
        super().pause_writing()
        if self._write_timer is None:
            self._write_timer = self.loop.call_later(WRITE_TIMEOUT_S, reset, self.transport)

    def resume_writing(self) -> None:
        _cancel(self._write_timer)
        self._write_timer = None
        super().resume_writing()

    def _request_line_too_long(self, data: bytes) -> bool:
        # Checked here, before any handler: a WebSocket upgrade with a URL over websockets' own
        # line limit (8 KB) would otherwise never be answered.
        head = self.conn.trailing_data[0] + data
        end = head.find(b"\r\n")
        line = len(head) if end < 0 else end
        if line <= MAX_URL + 64:  # the method, a space and " HTTP/1.1"
            return False
        self._refuse(414, "url_too_long", "the URL is over {MAX_URL} bytes", MAX_URL=MAX_URL)
        return True

    def _head_too_large(self, data: bytes) -> bool:
        # h11's own cap (h11_max_incomplete_event_size) holds only while a head is incomplete: a
        # head of 20-70 KB that arrives in one piece was parsed whole. The same cap, however it comes.
        head = self.conn.trailing_data[0] + data
        end = head.find(b"\r\n\r\n")
        size = len(head) if end < 0 else end + 4
        if size <= MAX_HEADERS:
            return False
        self._refuse(
            400,
            "head_too_large",
            "the request's line and headers are over {MAX_HEADERS} bytes",
            MAX_HEADERS=MAX_HEADERS,
        )
        return True

    def _refuse(self, status: int, code: str, message: str, **args: Any) -> None:
        body = refusal_body(code, message, **args)  # typed (issue 37): the page words it
        reason = {400: "Bad Request", 408: "Request Timeout", 414: "URI Too Long"}[status]
        self._cancel_head_timer()
        self.transport.write(
            f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\nconnection: close\r\n"
            f"content-length: {len(body)}\r\n\r\n".encode()
            + body
        )
        self.transport.close()

    def _upgraded(self) -> bool:
        # A WebSocket upgrade hands the transport to the WebSocket protocol: no more heads here.
        return self.transport.get_protocol() is not self

    def _between_requests(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _arm_head_timer(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.head_timeout, self._head_timed_out)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.transport.is_closing() or not self._between_requests() or self._upgraded():
            return
        if self.conn.their_state is h11.IDLE and not self.conn.trailing_data[0]:
            self.transport.close()  # an idle keep-alive connection: uvicorn's own timeout's case
            return
        self._refuse(
            408,
            "header_timeout",
            "the request's headers did not arrive within {head_timeout} s",
            head_timeout=format(self.head_timeout, "g"),
        )


def reset(transport: Any) -> None:
    """Abort a connection with a TCP reset. A plain abort closes the descriptor, but while the
    client does not read, the kernel keeps the socket (FIN-WAIT-1, its whole send buffer unsent)
    for as long as the client answers its window probes; a zero linger time makes the close a
    reset, so the kernel frees the connection and its buffers at once."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        # i40: a socket its client closed has descriptor -1 by now: setsockopt raises ValueError
        # ("negative file descriptor"), not OSError, and that was a traceback per closed socket.
        with contextlib.suppress(OSError, ValueError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()


def _cancel(timer: asyncio.TimerHandle | None) -> None:
    if timer is not None:
        timer.cancel()
    return None


class _ClosingTransport:
    """A transport whose close() also sets an abort for later (uvloop's transports take no new
    attributes, so the protocol holds this wrapper instead of patching the transport)."""

    def __init__(self, transport: Any, protocol: GuardedWSProtocol) -> None:
        self._transport = transport
        self._protocol = protocol

    def close(self) -> None:
        self._transport.close()
        self._protocol._closing(self._transport)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class GuardedWSProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, with a write timeout (a client that stops reading is cut off
    after WRITE_TIMEOUT_S of no progress) and closes that really close: a socket the server closes
    (4008 for not reading, an idle timeout, a keepalive timeout, the handler's end) is aborted after
    CLOSE_GRACE_S if its close frame cannot get through, instead of staying ESTABLISHED with its
    descriptor and buffers until the client goes."""

    _write_timer: asyncio.TimerHandle | None = None
    _abort_timer: asyncio.TimerHandle | None = None
    _lost = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(_ClosingTransport(transport, self))  # type: ignore[arg-type]

    def _closing(self, transport: Any) -> None:
        if self._abort_timer is None and not self._lost:  # i40: no timer for a connection gone
            self._abort_timer = self.loop.call_later(CLOSE_GRACE_S, reset, transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost = True
        _cancel(self._write_timer)
        self._write_timer = None
        _cancel(self._abort_timer)
        self._abort_timer = None
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._write_timer is None:
            self._write_timer = self.loop.call_later(WRITE_TIMEOUT_S, reset, self.transport)

    def resume_writing(self) -> None:
        _cancel(self._write_timer)
        self._write_timer = None
        super().resume_writing()


def _max_connections() -> int:
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 20_000
    return max(64, soft - 64)  # descriptors kept for the database, the logs and worker pipes


def uvicorn_settings() -> dict[str, Any]:
    """uvicorn.Config settings for these limits (`trapworks serve` and the tests use them)."""
    return {
        "http": GuardedH11Protocol,
        "ws": GuardedWSProtocol,  # write timeout; a closed socket really closed
        # Connections and tasks at once: past it new requests get 503 (not a failed accept when
        # the process runs out of descriptors).
        "limit_concurrency": _max_connections(),
        "h11_max_incomplete_event_size": MAX_HEADERS,  # a longer request head: 400
        "timeout_keep_alive": 5,
        "ws_max_size": 1 << 16,  # a longer socket message: closed with 1009
        "ws_ping_interval": 20,
        "ws_ping_timeout": 20,
        # No per-message deflate: the messages are small views, and compressing each costs more
        # server time than it saves on a local network.
        "ws_per_message_deflate": False,
        # i40: X-Forwarded-For/-Proto are believed only from the trusted proxies (proxy.py, inside
        # the app); uvicorn's own default would believe them from any local process.
        "proxy_headers": False,
    }
