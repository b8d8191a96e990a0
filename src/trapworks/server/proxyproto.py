"""The PROXY protocol (HAProxy's `send-proxy` / `send-proxy-v2`) in front of uvicorn (issue 40).

uvicorn reads X-Forwarded-For (`ProxyHeadersMiddleware`, used for the trusted proxies in
operations.py) but not the PROXY protocol, where the balancer writes the client's address as a
header before the connection's first byte. `with_proxy_protocol` wraps uvicorn's HTTP protocol
class: on a connection from a trusted proxy it reads that header (parsed by the `proxy-protocol`
library, v1 and v2), then hands the connection to uvicorn with a transport whose peer address is
the client's, so every bound, throttle and log line (and the WebSocket protocol uvicorn switches
to on an upgrade) sees the client. A connection from any other address is handed over untouched:
a PROXY header from it is not believed (it reaches the HTTP parser and is answered 400). A
trusted proxy's connection without a header (a health check without `check-send-proxy`) is
served as the proxy's own.
"""

from __future__ import annotations

import asyncio
from typing import Any

from proxyprotocol import ProxyProtocolIncompleteError
from proxyprotocol.detect import ProxyProtocolDetect
from uvicorn.middleware.proxy_headers import _TrustedHosts
from uvicorn.protocols.utils import get_remote_addr

V1 = b"PROXY "
V2 = b"\r\n\r\n\x00\r\nQUIT\n"
V1_MAX = 107  # the longest v1 line, CRLF included (the protocol's specification)
V2_MAX = 16 + 65535
HEADER_TIMEOUT_S = 5.0


class ProxiedTransport:
    """The connection's transport, but for the peer address: the client's, from the header."""

    def __init__(self, transport: Any, peer: tuple[str, int]) -> None:
        self._transport = transport
        self._peer = peer

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        if name == "peername":
            return self._peer
        if name == "socket":  # uvicorn asks the socket first: it would name the proxy
            return None
        return self._transport.get_extra_info(name, default)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


def header_length(data: bytes) -> int | None:
    """The length of the PROXY header at the start of `data`; None while more is needed;
    0 if `data` does not start with one. Raises ValueError on a header too long."""
    if len(data) < len(V2) and (V2.startswith(data) or V1.startswith(data[: len(V1)])):
        return None
    if data.startswith(V2):
        if len(data) < 16:
            return None
        length = 16 + int.from_bytes(data[14:16], "big")
        return length if len(data) >= length else None
    if data.startswith(V1):
        end = data.find(b"\r\n", 0, V1_MAX)
        if end < 0:
            if len(data) >= V1_MAX:
                raise ValueError("PROXY v1 line too long")
            return None
        return end + 2
    return 0


def with_proxy_protocol(inner: type[asyncio.Protocol], trusted: list[str]) -> Any:
    """uvicorn's `http` protocol class `inner`, reading the PROXY header from `trusted` peers."""
    trusted_hosts = _TrustedHosts(trusted)
    parser = ProxyProtocolDetect()

    class ProxyProtocolReader(asyncio.Protocol):
        def __init__(self, **kwargs: Any) -> None:
            self.inner = inner(**kwargs)
            self.transport: Any = None
            self.buffer = b""
            self.timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:  # uvloop's is no asyncio.Transport
            peer = get_remote_addr(transport)
            if peer is None or peer[0] not in trusted_hosts:
                self._hand_over(transport, transport, b"")
                return
            self.transport = transport
            self.timer = asyncio.get_running_loop().call_later(HEADER_TIMEOUT_S, transport.close)

        def data_received(self, data: bytes) -> None:
            assert self.transport is not None
            self.buffer += data
            try:
                length = header_length(self.buffer)
                if length is None:
                    return
                peer = get_remote_addr(self.transport)
                if length:
                    result = parser.unpack(self.buffer[:length])
                    if result.proxied and isinstance(result.peername, tuple):
                        peer = (str(result.peername[0]), int(result.peername[1]))
            except (ValueError, ProxyProtocolIncompleteError):
                self.transport.close()  # a malformed header from the proxy: nothing to serve
                return
            assert peer is not None
            rest, self.buffer = self.buffer[length:], b""
            self._hand_over(self.transport, ProxiedTransport(self.transport, peer), rest)

        def _hand_over(self, real: Any, seen: Any, rest: bytes) -> None:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            real.set_protocol(self.inner)
            self.inner.connection_made(seen)
            if rest:
                self.inner.data_received(rest)

        def connection_lost(self, exc: Exception | None) -> None:
            # Only before the hand-over (after it the transport calls the inner protocol).
            if self.timer is not None:
                self.timer.cancel()

        def eof_received(self) -> bool | None:
            return None

    ProxyProtocolReader.__name__ = f"ProxyProtocol{inner.__name__}"
    return ProxyProtocolReader
