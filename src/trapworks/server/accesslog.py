"""Structured access logs: one line per HTTP request and per WebSocket event, with no secrets.

Logger "trapworks.access". Each record carries `extra` fields (kind, method, path, status, ms, or
event) and a plain message; `JsonFormatter` writes them as one JSON object per line
(`trapworks serve --log-json`). Seat and spectator tokens travel in `?token=` query strings and
`/play/<token>` style paths: `redact` replaces them before anything is logged. Request bodies
(which also carry tokens) are never logged.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import secrets
import time
from typing import Any
from urllib.parse import parse_qsl, urlencode

logger = logging.getLogger("trapworks.access")
# i40: the request (or socket) being handled: every log line written while handling it carries its
# id (RequestIdFilter), and each HTTP answer says it in X-Request-ID.
request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")

REDACTED = "[redacted]"
SECRET_PARAMS = frozenset({"token", "t", "invite", "key"})
# A path segment after /play/ or /claim/ is a secret; so is a long random-looking segment.
_SECRET_SEGMENT = re.compile(r"(/(?:play|join|claim)/)[^/?#]+")
_LONG_TOKEN = re.compile(r"(?<=/)[A-Za-z0-9_-]{20,}(?=/|$)")


def redact(path: str, query: str = "") -> str:
    """`path?query` with every token replaced by [redacted]."""
    path = _SECRET_SEGMENT.sub(lambda m: m.group(1) + REDACTED, path)
    path = _LONG_TOKEN.sub(REDACTED, path)
    if not query:
        return path
    pairs = [
        (k, REDACTED if k.lower() in SECRET_PARAMS else v)
        for k, v in parse_qsl(query, keep_blank_values=True)
    ]
    return f"{path}?{urlencode(pairs, safe='[]')}"


class AccessLogMiddleware:
    """ASGI middleware: logs each HTTP request when its response starts (status, ms) and each
    WebSocket's open and close."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        kind = scope.get("type")
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path = redact(scope.get("path", ""), scope.get("query_string", b"").decode("latin-1"))
        client = (scope.get("client") or ("-", 0))[0]
        rid = secrets.token_hex(8)
        request_id.set(rid)
        if kind == "http":
            await self._http(scope, receive, send, path, client, rid)
        else:
            await self._websocket(scope, receive, send, path, client)

    async def _http(
        self, scope: dict[str, Any], receive: Any, send: Any, path: str, client: str, rid: str
    ) -> None:
        """One line per request, when its answer starts (or a 500 when the app raised first)."""
        start = time.perf_counter()
        status: list[int] = []
        method = scope.get("method", "-")

        async def send_logged(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {
                    **message,
                    "headers": [*message.get("headers", []), (b"x-request-id", rid.encode())],
                }
                status.append(int(message["status"]))
                ms = round((time.perf_counter() - start) * 1000, 1)
                logger.info(
                    "%s %s %s %.1f ms",
                    method,
                    path,
                    message["status"],
                    ms,
                    extra={
                        "kind": "http",
                        "method": method,
                        "path": path,
                        "status": message["status"],
                        "ms": ms,
                        "client": client,
                    },
                )
            await send(message)

        try:
            await self.app(scope, receive, send_logged)
        except Exception:
            if not status:
                ms = round((time.perf_counter() - start) * 1000, 1)
                logger.error(
                    "%s %s 500 %.1f ms",
                    method,
                    path,
                    ms,
                    extra={
                        "kind": "http",
                        "method": method,
                        "path": path,
                        "status": 500,
                        "ms": ms,
                        "client": client,
                    },
                )
            raise

    async def _websocket(
        self, scope: dict[str, Any], receive: Any, send: Any, path: str, client: str
    ) -> None:
        """A line when the socket opens and one when it closes, with the close code."""
        start = time.perf_counter()
        status: list[int] = []

        async def send_ws(message: dict[str, Any]) -> None:
            if message["type"] == "websocket.accept":
                logger.info(
                    "WS open %s", path, extra={"kind": "ws", "event": "open", "path": path, "client": client}
                )
            elif message["type"] == "websocket.close":
                status.append(int(message.get("code", 1000)))
            elif message["type"] == "websocket.http.response.start":  # a refused handshake (429...)
                status.append(int(message["status"]))
            await send(message)

        async def receive_ws() -> dict[str, Any]:
            # A close the server's code never sent (the client's, or the protocol's: 1009 for an
            # over-long message, 1011 keepalive timeout) arrives as the disconnect's code.
            message = await receive()
            if message.get("type") == "websocket.disconnect" and not status:
                status.append(int(message.get("code", 1005)))
            return message

        try:
            await self.app(scope, receive_ws, send_ws)
        finally:
            ms = round((time.perf_counter() - start) * 1000, 1)
            code = status[0] if status else 1000
            logger.info(
                "WS close %s code %s after %.1f ms",
                path,
                code,
                ms,
                extra={
                    "kind": "ws",
                    "event": "close",
                    "path": path,
                    "code": code,
                    "ms": ms,
                    "client": client,
                },
            )


FIELDS = ("kind", "method", "path", "status", "ms", "event", "code", "client", "request_id", "count")


class RequestIdFilter(logging.Filter):
    """Gives every record the id of the request being handled ("-" outside any)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message and the access fields."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for f in FIELDS:
            if hasattr(record, f):
                out[f] = getattr(record, f)
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            out["exception"] = record.exc_text  # one line of JSON still (logsafe redacted it)
        return json.dumps(out)


def configure(json_lines: bool = False) -> None:
    """Send trapworks.access lines to stderr, plain or as JSON lines; with JSON lines, every other
    logger of the process too (the server's own, uvicorn's, SQLAlchemy's: i40), each line with its
    request id."""
    handler = logging.StreamHandler()
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(
        JsonFormatter()
        if json_lines
        else logging.Formatter("%(asctime)s %(levelname)s [%(request_id)s] %(message)s")
    )
    logger.handlers[:] = [handler]
    logger.setLevel(logging.INFO)
    logger.propagate = False
    if json_lines:
        root = logging.getLogger()
        root.handlers[:] = [handler]
        root.setLevel(min(root.level, logging.WARNING) if root.level else logging.WARNING)
        for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
            named = logging.getLogger(name)
            named.handlers[:] = []
            named.propagate = True
