"""Who the client is: trusted proxies, the Host allow-list and admin-only addresses (issue 40).

Settings (`OpsSettings.load`: the command line first, then the environment, then the config file):

- **trusted proxies** (`trapworks serve --trusted-proxy ADDR[,ADDR...]`, `TRAPWORKS_TRUSTED_PROXY`,
  `trusted_proxy = [...]` in the config file; addresses or networks such as 10.0.0.0/8). Only a
  request whose TCP peer is one of them has its `X-Forwarded-For` and `X-Forwarded-Proto` believed:
  uvicorn's own `ProxyHeadersMiddleware` then sets the request's client address (the right-most
  address in X-Forwarded-For that is not a trusted proxy) and scheme. From anyone else the headers
  are ignored, so every per-address bound (limits.py, bounds.py, the log-in throttle) counts the
  real client behind the balancer and a client cannot pick its own address. With none configured
  nothing is believed (uvicorn's default would trust 127.0.0.1: `trapworks serve` turns it off).
  HAProxy's PROXY protocol is not spoken (uvicorn does not); HAProxy's `option forwardfor` is the
  documented way (docs/cluster.md).
- **allowed hosts** (`--allowed-host NAME`, `TRAPWORKS_ALLOWED_HOST`, `allowed_host = [...]`;
  `*.example.org` names every subdomain): a request whose `Host` header names another host is
  refused (400 `unknown_host`), and a WebSocket's `Origin` must name one of them too (headers.py).
  That refuses DNS rebinding: a page of evil.example whose name was re-pointed at this server
  sends `Host: evil.example`. Default: the addresses served (the listening address, and for
  0.0.0.0 / :: this machine's names and addresses, `localhost` and the loopback addresses).
- **admin addresses** (`--admin-address`, `TRAPWORKS_ADMIN_ADDRESS`, `admin_address = [...]`;
  default the loopback addresses): with the trusted proxies, the only clients that may read
  `/api/node` and `/metrics` (403 `admin_only` for others).

The config file is TOML (`--config FILE` or `TRAPWORKS_CONFIG`), e.g.

    trusted_proxy = ["10.0.0.5"]
    allowed_host = ["games.example.org"]
    admin_address = ["10.0.0.0/24"]
    log_format = "json"
"""

from __future__ import annotations

import ipaddress
import os
import socket
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trapworks.core.words import plural

from .errors import refusal_body

LOOPBACK = ("127.0.0.1", "::1")
ADMIN_PATHS = ("/api/node", "/metrics")
# A balancer's health check may send no Host (HAProxy's HTTP/1.0 check): these tell nothing secret.
HEALTH_PATHS = ("/healthz", "/readyz")


class SettingsError(ValueError):
    """A bad setting: the message names it."""


def _split(values: Iterable[str] | str | None) -> tuple[str, ...]:
    if values is None:
        return ()
    if isinstance(values, str):
        values = [values]
    out: list[str] = []
    for v in values:
        if not isinstance(v, str):
            raise SettingsError(f"expected addresses as text, got {v!r}")
        out.extend(p.strip() for p in v.split(",") if p.strip())
    return tuple(out)


def _check_addresses(name: str, values: tuple[str, ...]) -> tuple[str, ...]:
    for v in values:
        try:
            ipaddress.ip_network(v, strict=False)
        except ValueError:
            raise SettingsError(
                f"{name}: {v!r} is not an IP address or network (e.g. 10.0.0.5, 10.0.0.0/8)"
            ) from None
    return values


@dataclass(frozen=True)
class OpsSettings:
    trusted_proxies: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] | None = None  # None: no Host check (an app inside another program)
    admin_addresses: tuple[str, ...] = LOOPBACK
    log_format: str = "text"
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def load(
        cls,
        *,
        trusted_proxy: Iterable[str] = (),
        allowed_host: Iterable[str] = (),
        admin_address: Iterable[str] = (),
        log_format: str | None = None,
        config: str | Path | None = None,
        environ: Mapping[str, str] | None = None,
        served_host: str | None = None,
    ) -> OpsSettings:
        """The settings from the command line's values, else the environment's, else the config
        file's. `served_host`: the listening address, for the default allowed hosts."""
        env = os.environ if environ is None else environ
        path = config or env.get("TRAPWORKS_CONFIG")
        file: dict[str, Any] = {}
        if path:
            try:
                file = tomllib.loads(Path(path).read_text())
            except OSError as e:
                raise SettingsError(f"cannot read the config file {path}: {e.strerror}") from None
            except tomllib.TOMLDecodeError as e:
                raise SettingsError(f"the config file {path} is not TOML: {e}") from None
            unknown = set(file) - {"trusted_proxy", "allowed_host", "admin_address", "log_format"}
            if unknown:
                raise SettingsError(
                    f"the config file {path}: unknown {plural(len(unknown), 'setting')} "
                    f"{', '.join(sorted(unknown))}"
                )

        def pick(cli: Iterable[str], var: str, key: str) -> tuple[str, ...] | None:
            got = _split(list(cli))
            if got:
                return got
            if env.get(var):
                return _split(env[var])
            if key in file:
                return _split(file[key])
            return None

        trusted = _check_addresses(
            "trusted proxy", pick(trusted_proxy, "TRAPWORKS_TRUSTED_PROXY", "trusted_proxy") or ()
        )
        admins = pick(admin_address, "TRAPWORKS_ADMIN_ADDRESS", "admin_address")
        hosts = pick(allowed_host, "TRAPWORKS_ALLOWED_HOST", "allowed_host")
        fmt = log_format or env.get("TRAPWORKS_LOG_FORMAT") or file.get("log_format") or "text"
        if fmt not in ("text", "json"):
            raise SettingsError(f"log format {fmt!r}: use 'text' or 'json'")
        if hosts is None and served_host is not None:
            hosts = served_hosts(served_host)
        return cls(
            trusted_proxies=trusted,
            allowed_hosts=tuple(h.lower() for h in hosts) if hosts is not None else None,
            admin_addresses=_check_addresses("admin address", admins) if admins is not None else LOOPBACK,
            log_format=fmt,
        )


def served_hosts(host: str) -> tuple[str, ...]:
    """The host names a server listening on `host` answers to by default."""
    names = {host.strip("[]").lower(), "localhost", *LOOPBACK}
    if host in ("0.0.0.0", "::", ""):
        for name in (socket.gethostname(), socket.getfqdn()):
            names.add(name.lower())
            try:
                names.update(str(info[4][0]).lower() for info in socket.getaddrinfo(name, None))
            except OSError:
                pass
    return tuple(sorted(names))


def host_name(value: str) -> str:
    """The host of a Host header's value (no port; an IPv6 address without its brackets)."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    if value.count(":") == 1:
        return value.split(":", 1)[0]
    return value


def host_allowed(name: str, allowed: Iterable[str]) -> bool:
    for a in allowed:
        if a == "*" or a == name or (a.startswith("*.") and name.endswith(a[1:])):
            return True
    return False


class Networks:
    """Membership of an address in a list of addresses and networks."""

    def __init__(self, values: Iterable[str]) -> None:
        self.nets = []
        self.names = set()  # not an address (a unix socket's, a test client's): compared as text
        for v in values:
            try:
                self.nets.append(ipaddress.ip_network(v, strict=False))
            except ValueError:
                self.names.add(v)

    def __contains__(self, address: object) -> bool:
        try:
            ip = ipaddress.ip_address(str(address))
        except ValueError:
            return str(address) in self.names
        return any(ip in n for n in self.nets)


async def _refuse(send: Any, status: int, code: str, message: str, **args: Any) -> None:
    body = refusal_body(code, message, **args)  # typed (issue 37): the page words it
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


class HostCheck:
    """ASGI middleware: a request for a host not allowed is refused (400; a WebSocket handshake is
    closed before it is accepted), and the admin paths answer only the trusted and admin addresses."""

    def __init__(self, app: Any, settings: OpsSettings) -> None:
        self.app = app
        self.allowed = settings.allowed_hosts
        self.admins = Networks((*settings.trusted_proxies, *settings.admin_addresses))

    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        # Checks first, then the app's own coroutine returned as it is: an open socket holds no
        # frame of this middleware (its memory: BENCHMARKS.md, bench/socket_memory.py).
        kind = scope.get("type")
        if kind not in ("http", "websocket"):
            return self.app(scope, receive, send)
        if self.allowed is not None and scope.get("path") not in HEALTH_PATHS:
            raw = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
            if not host_allowed(host_name(raw), self.allowed):
                if kind == "websocket":
                    return _close_socket(receive, send, 4400)
                return _refuse(
                    send,
                    400,
                    "unknown_host",
                    "this server does not serve the host {host}",
                    host=repr(raw[:80]),
                )
        if kind == "http" and scope.get("path") in ADMIN_PATHS:
            client = (scope.get("client") or ("", 0))[0]
            if client not in self.admins:
                return _refuse(send, 403, "admin_only", "this is for the operator's addresses only")
        return self.app(scope, receive, send)


async def _close_socket(receive: Any, send: Any, code: int) -> None:
    await receive()  # websocket.connect
    await send({"type": "websocket.close", "code": code})
