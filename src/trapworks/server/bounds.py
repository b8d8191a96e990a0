"""Bounds on what one client address (and all of them together) can make the server hold.

`BoundsMiddleware` (ASGI, inside the request limits of limits.py, so a request's body is read
already) enforces, per client address (players behind one NAT share one) and in total:

- **sockets**: at most `sockets_per_address` open game sockets per address (more: the handshake is
  answered 429 `too_many_sockets`) and `sockets_total` in all (503 `server_full`); a socket that
  sends nothing for `socket_idle_s` (the game page sends a heartbeat every 15 s) is closed with
  4408. (A socket that stops reading is dropped by outbox.py; limits.py's protocols then really
  close it: see `GuardedWSProtocol`.)
- **games created**: at most `games_per_hour` `POST /api/games` per address in any hour (429
  `too_many_games`, with `Retry-After`); the refused ones cost nothing.
- **open tables**: at most `open_tables_per_address` public games with a free seat per address
  (429 `too_many_tables`); seats taken at open tables at most `joins_per_minute` a minute per
  address (429 `too_many_joins`).
- **replay answers**: at most `replays_per_address` replays per address computed or being sent
  at once (429 `replay_busy`), an answer at most `replay_answer_max` bytes (413
  `replay_too_large`), all answers being sent at most `replay_bytes_in_flight` bytes together (503
  `busy`); an answer goes out in 256 KB pieces (no second copy of it in the socket's buffer), and a
  client that stops reading it is cut off by the write timeout of limits.py's protocol, which
  frees the answer.

- **disk**: under `disk_reserve` bytes free on the database's file system (at most a twentieth of
  its size), new games are refused
  (503 `disk_nearly_full`) while moves go on (walguard.py keeps the WAL small).

Every number is a field of `Bounds`; `Bounds.from_env()` reads `TRAPWORKS_BOUND_<FIELD>`
variables (e.g. `TRAPWORKS_BOUND_GAMES_PER_HOUR=50`) so a deployment or a test can change them.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import os
import re
import resource
import time
from collections import Counter, OrderedDict, deque
from dataclasses import dataclass
from typing import Any, NamedTuple

import orjson

from . import walguard
from .budget import FairBudget
from .errors import refusal_body
from .headers import headers_for

_log = logging.getLogger("trapworks.access")

CLOSE_IDLE = 4408  # WebSocket close code: nothing heard from the client for socket_idle_s
# i40: the node's game-creation budget is paced (budget.py): at most this many creations back to
# back, the rest spread at games_per_minute_total / 60 a second, so a flood never stalls play.
GAME_BURST = 4
CHUNK = 256 * 1024  # bytes per piece of a large answer


def _default_sockets_total() -> int:
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 10_000
    # Leave descriptors for HTTP requests, the database and the worker processes' pipes.
    return max(64, min(10_000, soft - 256 if soft > 512 else soft // 2))


@dataclass
class Bounds:
    sockets_per_address: int = 100
    sockets_total: int = dataclasses.field(default_factory=_default_sockets_total)
    socket_idle_s: float = 300.0
    games_per_hour: int = 200
    open_tables_per_address: int = 10
    joins_per_minute: int = 10
    replays_per_address: int = 1
    replay_answer_max: int = 48 * 1024 * 1024
    replay_bytes_in_flight: int = 48 * 1024 * 1024
    # Bytes free under which new games are refused (at most a twentieth of the file system).
    disk_reserve: int = 64 * 1024 * 1024
    max_addresses: int = 50_000  # per-address records kept (the least recently seen forgotten)
    # i40: node-wide budgets shared fairly between addresses (budget.py): a flood from many
    # addresses cannot take the node's time from the games in play.
    games_per_minute_total: int = 120
    socket_opens_per_minute_total: int = 3000

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Bounds:
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            raw = env.get(f"TRAPWORKS_BOUND_{f.name.upper()}")
            if raw is not None:
                values[f.name] = float(raw) if f.type == "float" else int(float(raw))
        return cls(**values)


class _PerAddress(OrderedDict):
    """address -> value, forgetting the least recently used beyond a size."""

    def __init__(self, size: int, make: Any):
        super().__init__()
        self.size = size
        self.make = make

    def at(self, key: str) -> Any:
        if key in self:
            self.move_to_end(key)
            return self[key]
        value = self[key] = self.make()
        if len(self) > self.size:
            self.popitem(last=False)
        return value


async def _refuse_http(
    send: Any, status: int, code: str, message: str, retry_after: int | None = None, **args: Any
) -> None:
    body = refusal_body(code, message, **args)  # typed (issue 37): the page words it
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class Refusal(NamedTuple):
    status: int
    code: str
    template: str  # the English message, typed (issue 37): its placeholders are `args`' names
    retry_after: int | None
    args: tuple[tuple[str, int], ...]


class CreationGate:
    """Links `EarlyRefusal` (outermost) with the bounds' state (`BoundsMiddleware`, innermost)."""

    bounds: BoundsMiddleware | None = None


_JOIN = re.compile(r"^/api/tables/[^/]+/join$")


class BoundsMiddleware:
    def __init__(self, app: Any, bounds: Bounds | None = None, gate: CreationGate | None = None) -> None:
        self.app = app
        if gate is not None:
            gate.bounds = self  # i40: the early refusal reads the same counts
        self.bounds = b = bounds or Bounds.from_env()
        self.sockets: Counter[str] = Counter()
        self.sockets_open = 0
        self.created: _PerAddress = _PerAddress(b.max_addresses, deque)
        self.tables: _PerAddress = _PerAddress(b.max_addresses, list)
        self.joined: _PerAddress = _PerAddress(b.max_addresses, deque)
        self.replays: Counter[str] = Counter()
        self.replay_bytes = 0
        self.game_budget = FairBudget(b.games_per_minute_total, burst=GAME_BURST)  # i40: paced
        self.socket_budget = FairBudget(b.socket_opens_per_minute_total)  # i40

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        kind = scope.get("type")
        client = (scope.get("client") or ("?", 0))[0]
        if kind == "websocket":
            await self._socket(scope, receive, send, client)
            return
        if kind == "http" and scope.get("method") == "POST":
            path = scope.get("path", "")
            if path == "/api/games":
                await self._create(scope, receive, send, client)
                return
            if path == "/api/replay":
                await self._replay(scope, receive, send, client)
                return
            if _JOIN.match(path):
                await self._join(scope, receive, send, client)
                return
        await self.app(scope, receive, send)

    # --- sockets ------------------------------------------------------------------------
    async def _socket(self, scope: dict[str, Any], receive: Any, send: Any, client: str) -> None:
        b = self.bounds
        refusal = None
        if self.sockets[client] >= b.sockets_per_address:
            refusal = (429, "too_many_sockets", f"at most {b.sockets_per_address} open sockets per address")
        elif self.sockets_open >= b.sockets_total:
            refusal = (503, "server_full", "the server holds as many sockets as it can; try again soon")
        elif (wait := self.socket_budget.take(client)) is not None:  # i40: budget.py
            refusal = (429, "node_busy", f"many sockets are opening on this server: try again in {wait} s")
        if refusal is not None:
            message = await receive()
            if message.get("type") != "websocket.connect":
                return
            if "websocket.http.response" in (scope.get("extensions") or {}):
                body = orjson.dumps({"ok": False, "error": refusal[2], "code": refusal[1]})
                await send(
                    {
                        "type": "websocket.http.response.start",
                        "status": refusal[0],
                        "headers": [(b"content-type", b"application/json"), (b"retry-after", b"5")],
                    }
                )
                await send({"type": "websocket.http.response.body", "body": body})
            else:
                await send({"type": "websocket.close", "code": 1013})  # try again later
            return
        self.sockets[client] += 1
        self.sockets_open += 1
        accepted = False
        closed = False

        async def send_noted(message: dict[str, Any]) -> None:
            nonlocal accepted, closed
            if message["type"] == "websocket.accept":
                accepted = True
            elif message["type"] == "websocket.close":
                closed = True
            await send(message)

        async def receive_or_idle() -> dict[str, Any]:
            if not accepted:
                return await receive()
            try:
                # (asyncio.timeout, not wait_for: no task of its own per idle socket, i40 memory)
                async with asyncio.timeout(b.socket_idle_s):
                    return await receive()
            except TimeoutError:
                if not closed:
                    await send_noted(
                        {"type": "websocket.close", "code": CLOSE_IDLE, "reason": "idle: nothing heard"}
                    )
                return {"type": "websocket.disconnect", "code": CLOSE_IDLE}

        try:
            await self.app(scope, receive_or_idle, send_noted)
        finally:
            self.sockets_open -= 1
            self.sockets[client] -= 1
            if self.sockets[client] <= 0:
                del self.sockets[client]

    # --- games and tables -----------------------------------------------------------------
    async def _body(self, receive: Any) -> tuple[bytes, Any]:
        """The whole request body (limits.py has read it already) and a receive that replays it."""
        chunks = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        given = False

        async def again() -> dict[str, Any]:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return body, again

    def _open_tables(self, scope: dict[str, Any], ids: list[str]) -> int:
        service = getattr(getattr(scope.get("app"), "state", None), "service", None)
        if service is None:
            return len(ids)
        still = []
        for gid in ids:
            try:
                live = service.get(gid)  # loads a game evicted from memory
            except Exception as e:
                if getattr(e, "status", 503) != 404:
                    still.append(gid)  # cannot tell now: counted
                continue
            if not live.state.is_terminal() and service.free_seats(live.stored):
                still.append(gid)
        ids[:] = still
        return len(still)

    def creation_refusal(self, client: str, now: float, *, dry: bool = False) -> Refusal | None:
        """What refuses a game creation from `client` now, cheapest check first: the address's
        games this hour, then the node's budget (a place taken from it unless `dry`: the early
        refusal only asks). None: it may go on."""
        b = self.bounds
        made: deque[float] | None = self.created.get(client) if dry else self.created.at(client)
        while made and made[0] <= now - 3600:
            made.popleft()
        if made is not None and len(made) >= b.games_per_hour:
            # (a bound of 0 games: no game to wait for, the hour)
            wait = int(made[0] + 3600 - now) + 1 if made else 3600
            return Refusal(
                429,
                "too_many_games",
                "at most {games_per_hour} games an hour from one address; the next in {wait} s",
                wait,
                (("games_per_hour", b.games_per_hour), ("wait", wait)),
            )
        if (budget_wait := self.game_budget.take(client, now, dry=dry)) is not None:  # i40: budget.py
            return Refusal(
                429,
                "node_busy",
                "many games are being created on this server: try again in {budget_wait} s",
                budget_wait,
                (("budget_wait", budget_wait),),
            )
        return None

    async def _create(self, scope: dict[str, Any], receive: Any, send: Any, client: str) -> None:
        b = self.bounds
        now = taken_at = time.monotonic()
        if (r := self.creation_refusal(client, now)) is not None:
            await _refuse_http(send, r.status, r.code, r.template, r.retry_after, **dict(r.args))
            return
        store = getattr(getattr(scope.get("app"), "state", None), "store", None)
        path = getattr(store, "path", None)
        free, size = walguard.disk_free(path), walguard.disk_size(path)
        if free is not None and size is not None and free < min(b.disk_reserve, size // 20):
            self.game_budget.give_back(client, taken_at)
            await _refuse_http(
                send,
                503,
                "disk_nearly_full",
                "the server's disk is nearly full: no new games for now, so that the games in play can go on",
                retry_after=60,
            )
            return
        made: deque[float] = self.created.at(client)
        body, again = await self._body(receive)
        public = False
        try:
            parsed = orjson.loads(body)
            public = isinstance(parsed, dict) and parsed.get("public") is True
        except orjson.JSONDecodeError:
            pass  # the app answers a bad body
        tables: list[str] = self.tables.at(client)
        if public and self._open_tables(scope, tables) >= b.open_tables_per_address:
            self.game_budget.give_back(client, taken_at)
            await _refuse_http(
                send,
                429,
                "too_many_tables",
                "at most {open_tables_per_address} open tables per address: wait until yours fill or end",
                open_tables_per_address=b.open_tables_per_address,
            )
            return
        made.append(now)  # reserved now (concurrent creates count), given back if refused
        status: list[int] = []
        answer: list[bytes] = []

        async def send_noted(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])
            elif message["type"] == "http.response.body" and public:
                answer.append(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, again, send_noted)
        finally:
            if status[:1] != [201]:
                self.game_budget.give_back(client, taken_at)
                with contextlib.suppress(ValueError):
                    made.remove(now)
            elif public:
                try:
                    tables.append(orjson.loads(b"".join(answer))["id"])
                except (orjson.JSONDecodeError, KeyError, TypeError):
                    pass

    async def _join(self, scope: dict[str, Any], receive: Any, send: Any, client: str) -> None:
        """Seats taken from open tables: at most joins_per_minute per address (refusals are free)."""
        now = time.monotonic()
        taken: deque[float] = self.joined.at(client)
        while taken and taken[0] <= now - 60:
            taken.popleft()
        if len(taken) >= self.bounds.joins_per_minute:
            wait = int(taken[0] + 60 - now) + 1
            await _refuse_http(
                send,
                429,
                "too_many_joins",
                "at most {joins_per_minute} seats a minute from one address; the next in {wait} s",
                retry_after=wait,
                joins_per_minute=self.bounds.joins_per_minute,
                wait=wait,
            )
            return
        taken.append(now)
        status: list[int] = []

        async def send_noted(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_noted)
        finally:
            if status[:1] != [200]:
                with contextlib.suppress(ValueError):
                    taken.remove(now)

    # --- replays ------------------------------------------------------------------------------
    async def _replay(self, scope: dict[str, Any], receive: Any, send: Any, client: str) -> None:
        b = self.bounds
        if self.replays[client] >= b.replays_per_address:
            await _refuse_http(
                send,
                429,
                "replay_busy",
                "at most {replays_per_address} replays at once from one address: wait for the last answer",
                retry_after=1,
                replays_per_address=b.replays_per_address,
            )
            return
        self.replays[client] += 1
        held = 0
        start: dict[str, Any] | None = None

        async def send_bounded(message: dict[str, Any]) -> None:
            nonlocal start, held
            if message["type"] == "http.response.start":
                start = message  # held until the body's size is known
                return
            if message["type"] != "http.response.body" or start is None:
                await send(message)
                return
            body = message.get("body", b"")
            if message.get("more_body") or start["status"] != 200:
                await send(start)
                start = None
                await send(message)
                return
            size = len(body)
            if size > b.replay_answer_max:
                start = None
                await _refuse_http(
                    send,
                    413,
                    "replay_too_large",
                    "this record's replay is {size} MB, over the server's {limit} MB: "
                    "replay a shorter part of it",
                    size=size // 1_000_000,
                    limit=b.replay_answer_max // 1_000_000,
                )
                return
            if self.replay_bytes + size > b.replay_bytes_in_flight:
                start = None
                await _refuse_http(
                    send, 503, "busy", "the server is sending other replays; try again in a moment", 2
                )
                return
            self.replay_bytes += size
            held = size
            await send(start)
            start = None
            view = memoryview(body)
            for i in range(0, size, CHUNK):
                await send(
                    {
                        "type": "http.response.body",
                        "body": bytes(view[i : i + CHUNK]),
                        "more_body": i + CHUNK < size,
                    }
                )
            if size == 0:
                await send({"type": "http.response.body", "body": b"", "more_body": False})

        try:
            await self.app(scope, receive, send_bounded)
        finally:
            self.replay_bytes -= held
            self.replays[client] -= 1
            if self.replays[client] <= 0:
                del self.replays[client]


class EarlyRefusal:
    """ASGI middleware, outermost (inside the trusted proxies' middleware only, which gives the
    client's address): a game creation that the bounds would refuse anyway (its address's games
    this hour, the node's budget: `BoundsMiddleware.creation_refusal`, asked without taking) is
    answered here, before the access log, the metrics' timing, the headers' middlewares and the
    request's body. During a creation flood from 20 addresses those refusals, 60-85 a second
    through the whole stack, were a third of the event loop's time (BENCHMARKS.md, issue 40),
    delaying every player's moves. Each is still counted in `trapworks_refusals_total`; the log
    gets one line per `LOG_EVERY_S` summing them, not a line each (a flood would bury the log)."""

    LOG_EVERY_S = 10.0

    def __init__(self, app: Any, gate: CreationGate, metrics: Any = None) -> None:
        self.app = app
        self.gate = gate
        self.metrics = metrics
        self.refused: Counter[str] = Counter()
        self.addresses: set[str] = set()
        self.since = time.monotonic()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        bounds = self.gate.bounds
        if (
            bounds is None
            or scope["type"] != "http"
            or scope.get("method") != "POST"
            or scope.get("path") != "/api/games"
        ):
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("?", 0))[0]
        now = time.monotonic()
        refused = bounds.creation_refusal(client, now, dry=True)
        if refused is None:
            await self.app(scope, receive, send)
            return
        start, body = _early_answer(refused)
        await send(start)
        await send(body)
        if self.metrics is not None:
            self.metrics.refusals.labels(refused.code).inc()
        self.refused[refused.code] += 1
        if len(self.addresses) < 10_000:
            self.addresses.add(client)
        if now - self.since >= self.LOG_EVERY_S:
            self._log(now)

    def _log(self, now: float) -> None:
        total = sum(self.refused.values())
        codes = ", ".join(f"{code} {n}" for code, n in sorted(self.refused.items()))
        _log.info(
            "POST /api/games 429 x%d from %d addresses in %.0f s (%s)",
            total,
            len(self.addresses),
            now - self.since,
            codes,
            extra={"kind": "http", "method": "POST", "path": "/api/games", "status": 429, "count": total},
        )
        self.refused.clear()
        self.addresses.clear()
        self.since = now


@functools.lru_cache(maxsize=512)
def _early_answer(refused: Refusal) -> tuple[dict[str, Any], dict[str, Any]]:
    """The 429's two ASGI messages, made once per (code, wait): a flood asks the same few."""
    body = refusal_body(refused.code, refused.template, **dict(refused.args))
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *headers_for({"type": "http", "path": "/api/games"}),
    ]
    if refused.retry_after is not None:
        headers.append((b"retry-after", str(refused.retry_after).encode()))
    return (
        {"type": "http.response.start", "status": refused.status, "headers": headers},
        {"type": "http.response.body", "body": body},
    )


# What the bounds answer, for the OpenAPI schema (path, method) -> {status: what}.
DOCUMENTED = {
    ("/api/games", "post"): {
        429: "too_many_games (Retry-After) or too_many_tables",
        503: "disk_nearly_full or storage_unavailable",
    },
    ("/api/replay", "post"): {
        413: "replay_too_large",
        429: "replay_busy (Retry-After)",
        503: "busy: other replays are being computed or sent",
    },
    ("/api/tables/{gid}/join", "post"): {429: "too_many_joins (Retry-After)"},
}


ERROR_REF = "#/components/schemas/ErrorReply"


def document(app: Any) -> None:
    """Add the bounds' answers to the app's OpenAPI schema (their bodies are ErrorReply)."""
    original = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = original()
        for (path, method), answers in DOCUMENTED.items():
            op = schema.get("paths", {}).get(path, {}).get(method)
            if op is None:
                continue
            for status, what in answers.items():
                op.setdefault("responses", {}).setdefault(
                    str(status),
                    {
                        "description": what,
                        "content": {"application/json": {"schema": {"$ref": ERROR_REF}}},
                    },
                )
        schema.setdefault("components", {}).setdefault("schemas", {}).setdefault(
            "ErrorReply",
            {
                "type": "object",
                "properties": {
                    "ok": {"type": "boolean"},
                    "error": {"type": "string"},
                    "code": {"type": "string"},
                },
                "required": ["ok", "error", "code"],
            },
        )
        app.openapi_schema = schema
        return schema

    app.openapi = openapi
