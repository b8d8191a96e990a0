"""The message bus between the nodes of a cluster: what changed in which game, in a few bytes.

Every node publishes a short message after each change it stored (the database stays the truth:
a message says "game G is at ply N now, these are the new actions", "a chat line", "who is
connected here"); every other node hears it within milliseconds and brings its copy up to date.

- `LocalBus`: one process (SQLite's default): nobody else to tell.
- `PostgresBus`: PostgreSQL's LISTEN/NOTIFY on the game database itself (no other service to
  run): a listening connection and a publishing connection per node.
- `RedisBus`: Redis pub/sub (`--bus redis://host:6379/0`).

Messages of one node arrive in the order it sent them (one publishing connection, sent by one
task in order). A node that loses its listening connection reconnects and then calls
`on_reconnect`, so that it catches up on whatever it may have missed meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

log = logging.getLogger("trapworks.server")

CHANNEL = "trapworks"
MAX_PAYLOAD = 7000  # PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more
RECONNECT_S = (0.2, 0.5, 1.0, 2.0, 5.0)
QUEUE_MAX = 100_000  # messages waiting to be published; more are dropped (logged), nodes reload

Handler = Callable[[dict[str, Any]], Awaitable[None]]


def new_node_id() -> str:
    return secrets.token_hex(6)


class Bus:
    """What every bus offers; this base is the single-process bus (nothing to tell anyone)."""

    kind = "local"
    clustered = False  # other nodes may serve the same games

    def __init__(self) -> None:
        self.node = new_node_id()
        self.published = 0
        self.heard = 0
        self.connected = True  # i40: /readyz (health.py); a remote bus: its listener is subscribed
        self.on_lag: Callable[[float], None] | None = None  # i40: metrics.py's bus lag

    async def start(self, handler: Handler, on_reconnect: Callable[[], Awaitable[None]]) -> None:
        return None

    def publish(self, msg: dict[str, Any]) -> None:
        return None

    async def stop(self) -> None:
        return None

    def describe(self) -> str:
        return self.kind


LocalBus = Bus


class _RemoteBus(Bus):
    """A bus with a listening side and a publishing side, each reconnecting on its own."""

    clustered = True

    def __init__(self) -> None:
        super().__init__()
        self.connected = False
        self._queue: asyncio.Queue[bytes] | None = None
        self._tasks: list[asyncio.Task] = []
        self._handler: Handler | None = None
        self._on_reconnect: Callable[[], Awaitable[None]] | None = None
        self.ready = asyncio.Event()  # the listener is subscribed (set once)

    async def start(self, handler: Handler, on_reconnect: Callable[[], Awaitable[None]]) -> None:
        self._handler = handler
        self._on_reconnect = on_reconnect
        self._queue = asyncio.Queue(QUEUE_MAX)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen_loop()), loop.create_task(self._publish_loop())]
        # Start-up waits for the subscription: a node serves nothing it could miss news of.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.ready.wait(), 10)

    def publish(self, msg: dict[str, Any]) -> None:
        if self._queue is None:
            return
        payload = orjson.dumps({**msg, "n": self.node, "_sent": time.time()})  # i40: for the lag
        try:
            self._queue.put_nowait(payload)
        except asyncio.QueueFull:
            log.error("bus: %d messages waiting; dropping one (the other nodes catch up on read)", QUEUE_MAX)

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        await self._close()

    async def _heard(self, raw: bytes | str) -> None:
        try:
            msg = orjson.loads(raw)
        except orjson.JSONDecodeError:
            log.error("bus: a message that is not JSON: %r", raw[:80])
            return
        if not isinstance(msg, dict) or msg.get("n") == self.node:
            return  # our own (the node that changed something told its own sockets already)
        self.heard += 1
        if self.on_lag is not None and isinstance(msg.get("_sent"), float):
            self.on_lag(max(0.0, time.time() - msg["_sent"]))
        assert self._handler is not None
        try:
            await self._handler(msg)
        except Exception:  # one message's failure must not stop the node hearing the others
            log.exception("bus: handling a message failed")

    async def _listen_loop(self) -> None:
        failures = 0
        first = True
        while True:
            try:
                await self._listen(first)
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as e:
                wait = RECONNECT_S[min(failures, len(RECONNECT_S) - 1)]
                failures += 1
                self.connected = False
                log.error("bus (%s) listener lost: %s; reconnecting in %s s", self.kind, e, wait)
                await asyncio.sleep(wait)
            first = False

    async def _reconnected(self, first: bool) -> None:
        self.connected = True
        self.ready.set()
        if not first and self._on_reconnect is not None:
            await self._on_reconnect()  # messages may have been missed while we were away

    async def _publish_loop(self) -> None:
        assert self._queue is not None
        failures = 0
        pending: list[bytes] = []
        while True:
            if not pending:
                pending.append(await self._queue.get())
            while not self._queue.empty() and len(pending) < 200:
                pending.append(self._queue.get_nowait())
            try:
                await self._send(pending)
                self.published += len(pending)
                pending = []
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as e:
                wait = RECONNECT_S[min(failures, len(RECONNECT_S) - 1)]
                failures += 1
                log.error("bus (%s) publisher failed: %s; retrying in %s s", self.kind, e, wait)
                await self._drop_publisher()
                await asyncio.sleep(wait)

    async def _listen(self, first: bool) -> None:
        raise NotImplementedError

    async def _send(self, payloads: list[bytes]) -> None:
        raise NotImplementedError

    async def _drop_publisher(self) -> None:
        return None

    async def _close(self) -> None:
        return None


def psycopg_dsn(sqlalchemy_url: str) -> str:
    """A libpq connection string from a SQLAlchemy PostgreSQL URL."""
    from sqlalchemy.engine import make_url

    url = make_url(sqlalchemy_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


class PostgresBus(_RemoteBus):
    """LISTEN/NOTIFY on the game database."""

    kind = "postgres"

    def __init__(self, db_url: str):
        super().__init__()
        self.dsn = psycopg_dsn(db_url)
        self._pub: Any = None
        self._sub: Any = None

    async def _listen(self, first: bool) -> None:
        import psycopg

        self._sub = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
        try:
            await self._sub.execute(f"LISTEN {CHANNEL}")
            await self._reconnected(first)
            async for note in self._sub.notifies():
                await self._heard(note.payload)
        finally:
            with contextlib.suppress(Exception):
                await self._sub.close()
            self._sub = None

    async def _send(self, payloads: list[bytes]) -> None:
        import psycopg

        if self._pub is None:
            self._pub = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
        texts = [p.decode() for p in payloads if len(p) <= MAX_PAYLOAD]
        for p in payloads:
            if len(p) > MAX_PAYLOAD:
                log.error("bus: a %d-byte message is over NOTIFY's limit and was not sent", len(p))
        if not texts:
            return
        # One round trip for the whole batch, in order.
        async with self._pub.cursor() as cur:
            await cur.executemany("SELECT pg_notify(%s, %s)", [(CHANNEL, t) for t in texts])

    async def _drop_publisher(self) -> None:
        if self._pub is not None:
            with contextlib.suppress(Exception):
                await self._pub.close()
            self._pub = None

    async def _close(self) -> None:
        await self._drop_publisher()

    def describe(self) -> str:
        return "postgres LISTEN/NOTIFY"


class RedisBus(_RemoteBus):
    """Redis pub/sub."""

    kind = "redis"

    def __init__(self, url: str, channel: str = CHANNEL):
        super().__init__()
        self.url = url
        self.channel = channel
        self._pub: Any = None

    async def _listen(self, first: bool) -> None:
        import redis.asyncio as redis

        client = redis.from_url(self.url)
        pubsub = client.pubsub()
        try:
            await pubsub.subscribe(self.channel)
            await self._reconnected(first)
            while True:
                m = await pubsub.get_message(ignore_subscribe_messages=True, timeout=30.0)
                if m is not None and m.get("type") == "message":
                    await self._heard(m["data"])
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            with contextlib.suppress(Exception):
                await client.aclose()

    async def _send(self, payloads: list[bytes]) -> None:
        import redis.asyncio as redis

        if self._pub is None:
            self._pub = redis.from_url(self.url)
        async with self._pub.pipeline(transaction=False) as pipe:
            for p in payloads:
                pipe.publish(self.channel, p)
            await pipe.execute()

    async def _drop_publisher(self) -> None:
        if self._pub is not None:
            with contextlib.suppress(Exception):
                await self._pub.aclose()
            self._pub = None

    async def _close(self) -> None:
        await self._drop_publisher()

    def describe(self) -> str:
        return f"redis pub/sub ({self.url.split('@')[-1]})"


def make_bus(spec: str | None, db_url: str) -> Bus:
    """The bus for `--bus`: None or "auto" (PostgreSQL's LISTEN/NOTIFY on a PostgreSQL database,
    else none), "local" (one process), "postgres", or a redis:// URL."""
    is_pg = db_url.startswith("postgresql")
    if spec in (None, "", "auto"):
        return PostgresBus(db_url) if is_pg else LocalBus()
    if spec == "local":
        return LocalBus()
    if spec == "postgres":
        if not is_pg:
            raise ValueError("--bus postgres needs a PostgreSQL database (--db postgresql+psycopg://...)")
        return PostgresBus(db_url)
    if spec.startswith(("redis://", "rediss://", "unix://")):
        return RedisBus(spec)
    raise ValueError(f"--bus {spec!r}: 'auto', 'local', 'postgres' or a redis://host:port/db URL")
