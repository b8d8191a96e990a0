"""Browser security headers on every answer, and WebSocket opens checked against the served origin.

`SecurityHeaders` (ASGI middleware) adds to every HTTP answer that does not set them itself:

- `Content-Security-Policy`: scripts, styles, images, fonts and connections from this origin only
  (images also as `data:`/`blob:` URLs; inline styles are allowed, since the renderers add their
  own `<style>` elements, but no inline script, `eval` or other site's script), no plugins, no
  `<base>`, forms posting only here, and
  `frame-ancestors 'none'`: no other page may frame the lobby, a game or a replay. The one
  exception is the public replay made for an `<iframe>`, `/replay/<id>?embed=1`
  (`frame-ancestors *`). The API's own browsable docs (`/docs`, `/redoc`) load FastAPI's Swagger
  and ReDoc files from their CDN and get a policy that allows exactly that.
- `X-Frame-Options: DENY` (older browsers) except on the embeddable replay,
- `X-Content-Type-Options: nosniff`,
- `Referrer-Policy: no-referrer` (pages whose URL holds a token, in a fragment or a query, never
  pass it on; the policy is the same for every page, so none is forgotten),
- `Cross-Origin-Opener-Policy: same-origin`.

`OriginCheck` (ASGI middleware) refuses a WebSocket opened by a page of another origin (the
handshake is answered 403 before the socket is accepted): the `Origin` header must name the origin
the request was sent to (its `Host` header, http or https) or one of the `allowed_origins` (a
deployment behind a proxy that rewrites the host: `trapworks serve --allowed-origin
https://games.example.org`). A client that sends no `Origin` (not a browser) is let through: the
check is against other sites' pages, which cannot leave it out.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from .proxy import host_allowed, host_name

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        # The renderers add their own <style> elements and style attributes (no script can ride
        # in CSS): styles inline are allowed, scripts only from this origin's files.
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
CSP_EMBED = CSP.replace("frame-ancestors 'none'", "frame-ancestors *")
CDN = "https://cdn.jsdelivr.net"
CSP_API_DOCS = "; ".join(
    [
        "default-src 'self'",
        f"script-src 'self' 'unsafe-inline' {CDN}",
        f"style-src 'self' 'unsafe-inline' {CDN}",
        "img-src 'self' data: https://fastapi.tiangolo.com",
        f"worker-src 'self' blob: {CDN}",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ]
)
COMMON = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
CLOSE_FORBIDDEN_ORIGIN = 4403  # only if the socket was accepted already; normally a 403 handshake


def _is_embed(scope: dict[str, Any]) -> bool:
    path = scope.get("path", "")
    if not path.startswith("/replay/") or path.count("/") != 2:
        return False
    query = scope.get("query_string", b"").decode("latin-1")
    return "embed=1" in query.split("&")


def headers_for(scope: dict[str, Any]) -> list[tuple[bytes, bytes]]:
    """The security headers for an answer to this request."""
    path = scope.get("path", "")
    if _is_embed(scope):
        return [(b"content-security-policy", CSP_EMBED.encode()), *COMMON]
    csp = CSP_API_DOCS if path in ("/docs", "/redoc", "/docs/oauth2-redirect") else CSP
    return [(b"content-security-policy", csp.encode()), (b"x-frame-options", b"DENY"), *COMMON]


class SecurityHeaders:
    """ASGI middleware: the headers above on every HTTP answer."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        extra = headers_for(scope)

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message = {
                    **message,
                    "headers": [*message.get("headers", []), *(h for h in extra if h[0] not in have)],
                }
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _origin_of(value: str) -> tuple[str, str] | None:
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return parts.scheme, parts.netloc.lower()


def origin_allowed(
    headers: dict[bytes, bytes], allowed: Iterable[str] = (), hosts: Iterable[str] | None = None
) -> bool:
    """Whether a WebSocket handshake's Origin is this server's own (its Host, which must be one of
    the allowed `hosts` where they are given: a DNS-rebinding page's Host and Origin agree, but
    name another host) or one of the `allowed` origins."""
    origin = headers.get(b"origin")
    if origin is None:
        return True  # not a browser: there is no other site's page behind it
    text = origin.decode("latin-1")
    seen = _origin_of(text)
    if seen is None:
        return False  # "null" (a sandboxed frame, a file: page) or garbage
    host = headers.get(b"host", b"").decode("latin-1").strip().lower()
    if host and seen[1] == host and (hosts is None or host_allowed(host_name(host), hosts)):
        return True
    return any(_origin_of(a) == seen for a in allowed)


class OriginCheck:
    """ASGI middleware: a WebSocket from another site's page is refused (403 at the handshake)."""

    def __init__(
        self, app: Any, allowed_origins: Iterable[str] = (), allowed_hosts: Iterable[str] | None = None
    ) -> None:
        self.app = app
        self.allowed = tuple(allowed_origins)
        self.hosts = tuple(allowed_hosts) if allowed_hosts is not None else None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") == "websocket" and not origin_allowed(
            dict(scope.get("headers") or []), self.allowed, self.hosts
        ):
            message = await receive()  # websocket.connect
            if message.get("type") == "websocket.connect":
                await send({"type": "websocket.close", "code": CLOSE_FORBIDDEN_ORIGIN})
            return
        await self.app(scope, receive, send)
