"""Helpers for the cluster tests: a fresh PostgreSQL schema, nodes started together, a Redis
server, an HAProxy in front of nodes, and a socket client that keeps every message it hears."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .web_helpers import ServerProcess, free_port

PG_URL = os.environ.get("TRAPWORKS_TEST_POSTGRES_URL")
# The bound: every node hears of a change within a second.
CROSS_NODE_S = 1.0


@contextlib.contextmanager
def fresh_schema() -> Iterator[str]:
    """A database URL whose tables live in a new, empty PostgreSQL schema (dropped afterwards)."""
    from sqlalchemy import create_engine, text

    assert PG_URL
    schema = "tw_" + secrets.token_hex(5)
    engine = create_engine(PG_URL)
    with engine.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in PG_URL else "?"
    try:
        yield f"{PG_URL}{sep}options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        engine.dispose()


def start_nodes(
    home: Path, url: str | list[str], n: int, bus: str | None = None, extra: list[str] | None = None
) -> list[ServerProcess]:
    """`n` `trapworks serve` processes on one database (or node i on urls[i]), all started at the
    same moment. The balancer (haproxy() below, on 127.0.0.1) is their trusted proxy: they count
    each client by the address it sends in X-Forwarded-For (issue 40)."""
    urls = [url] * n if isinstance(url, str) else url
    common = ["--rate-limit", "0", "--trusted-proxy", "127.0.0.1"] + (["--bus", bus] if bus else [])
    nodes = [
        ServerProcess(home / f"node{i}", extra_args=["--db", urls[i], *common, *(extra or [])])
        for i in range(n)
    ]
    errors: list[BaseException] = []

    def start(node: ServerProcess) -> None:
        try:
            node.start(timeout=60)
        except BaseException as e:  # reported below, after every node had its chance
            errors.append(e)

    threads = [threading.Thread(target=start, args=(node,)) for node in nodes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        stop_nodes(nodes)
        raise errors[0]
    return nodes


def stop_nodes(nodes: list[ServerProcess]) -> None:
    for node in nodes:
        node.stop()


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """Debian's redis-server on a free loopback port, no persistence; its URL."""
    exe = shutil.which("redis-server") or "/usr/bin/redis-server"
    port = free_port()
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        import redis

        client = redis.Redis(port=port)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        client.close()
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


HAPROXY_CFG = """
global
    maxconn 4000
defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    timeout check 5s
    option redispatch
    retries 3
frontend web
    bind 127.0.0.1:{port}
    option forwardfor          # the client's address to the nodes (they trust this balancer)
    default_backend nodes
backend nodes
    balance roundrobin
    option httpchk GET /readyz # 503 while a node's database or bus is unreachable: taken out
{servers}
frontend web_proxy_protocol    # the same nodes, the client's address in the PROXY protocol (v2)
    bind 127.0.0.1:{pp_port}
    default_backend nodes_proxy_protocol
backend nodes_proxy_protocol
    balance roundrobin
    option httpchk GET /readyz
{pp_servers}
"""


class Balancer(str):
    """The balancer's URL (X-Forwarded-For); `.proxy_protocol`: its frontend that sends the
    client's address in the PROXY protocol v2 header instead (HAProxy's send-proxy-v2)."""

    proxy_protocol: str


@contextlib.contextmanager
def haproxy(folder: Path, nodes: list[ServerProcess]) -> Iterator[Balancer]:
    """Debian's HAProxy in front of the nodes: round robin, no stickiness, WebSockets tunnelled,
    a node that stops answering its health check taken out of the rotation (a busy node is given
    5 s to answer it; a dead one refuses connections at once, and HAProxy redispatches those). Its
    URL (a `Balancer`: a second frontend to the same nodes speaks the PROXY protocol)."""
    exe = shutil.which("haproxy") or "/usr/sbin/haproxy"
    port = free_port()
    servers = "\n".join(
        f"    server n{i} 127.0.0.1:{node.port} check inter 1000 fall 3 rise 2"
        for i, node in enumerate(nodes)
    )
    pp_port = free_port()
    pp_servers = "\n".join(
        f"    server p{i} 127.0.0.1:{node.port} send-proxy-v2 check check-send-proxy inter 1000 fall 3 rise 2"
        for i, node in enumerate(nodes)
    )
    cfg = folder / "haproxy.cfg"
    folder.mkdir(parents=True, exist_ok=True)
    cfg.write_text(HAPROXY_CFG.format(port=port, servers=servers, pp_port=pp_port, pp_servers=pp_servers))
    proc = subprocess.Popen(
        [exe, "-f", str(cfg), "-db"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    try:
        import httpx

        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 15
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"haproxy exited: {proc.stderr.read() if proc.stderr else ''}")
            try:
                if httpx.get(url + "/api/node", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("haproxy did not answer in time")
            time.sleep(0.1)
        balancer = Balancer(url)
        balancer.proxy_protocol = f"http://127.0.0.1:{pp_port}"
        yield balancer
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Sock:
    """A game socket that reads in the background and keeps every message with the time it came."""

    def __init__(self, base: str, gid: str, token: str):
        self.url = base.replace("http://", "ws://") + f"/ws/games/{gid}?token={token}"
        self.messages: list[tuple[float, dict[str, Any]]] = []
        self._arrived = asyncio.Event()
        self._task: asyncio.Task | None = None
        self.ws: Any = None

    async def __aenter__(self) -> Sock:
        from websockets.asyncio.client import connect

        self.ws = await connect(self.url, max_size=2**24)
        self._task = asyncio.get_running_loop().create_task(self._read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        with contextlib.suppress(Exception):
            await self.ws.close()

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                data = json.loads(raw)
                now = time.monotonic()
                for m in data if isinstance(data, list) else [data]:
                    self.messages.append((now, m))
                self._arrived.set()

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(msg))

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for _, m in self.messages if m.get("type") == kind]

    async def wait(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = CROSS_NODE_S, what: str = ""
    ) -> dict[str, Any]:
        """The first message (already heard or to come) for which `pred` holds."""
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for _, m in self.messages[seen:]:
                if pred(m):
                    return m
            seen = len(self.messages)
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{what or 'message'} not heard within {timeout} s at {self.url}")
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)

    def state_plies(self) -> list[int]:
        return [m["ply"] for m in self.of("state")]
