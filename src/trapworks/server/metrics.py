"""Prometheus metrics of one node (issue 40): `GET /metrics` in the text format (prometheus-client).

- `trapworks_moves_total`: moves stored through this node (HTTP and sockets);
  `trapworks_move_seconds`: the time to answer one (a histogram);
- `trapworks_games_created_total`, `trapworks_games_live` (games held in memory),
  `trapworks_sockets_open` (game sockets);
- `trapworks_http_request_seconds{method,route}`: answer times by route (the route's pattern,
  never its ids or tokens);
- `trapworks_bus_lag_seconds`: from a change published on another node to this node hearing it
  (the nodes' clocks should be in step, e.g. by NTP);
- `trapworks_refusals_total{code}`: requests and socket handshakes refused by a bound or a rate
  limit (HTTP 429, or 503 `server_full`/`busy`), by the refusal's code;
- `trapworks_node_info{node,bus}`.

Only the trusted proxies and the admin addresses may read it (proxy.py). One registry per app,
so that several apps in one process (the tests) do not share counters.
"""

from __future__ import annotations

import functools
import time
from typing import Any

import orjson
from fastapi import FastAPI
from fastapi.responses import Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    generate_latest,
)

REFUSED = (429, 503)
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    def __init__(self, service: Any, bus: Any) -> None:
        self.registry = r = CollectorRegistry()
        self.moves = Counter("trapworks_moves", "Moves stored through this node", registry=r)
        self.move_seconds = Histogram(
            "trapworks_move_seconds", "Time to store and answer one move", buckets=BUCKETS, registry=r
        )
        self.games_created = Counter("trapworks_games_created", "Games created on this node", registry=r)
        self.http_seconds = Histogram(
            "trapworks_http_request_seconds",
            "HTTP answer time by route",
            ["method", "route"],
            buckets=BUCKETS,
            registry=r,
        )
        self.bus_lag = Histogram(
            "trapworks_bus_lag_seconds",
            "From a change published elsewhere to heard here",
            buckets=BUCKETS,
            registry=r,
        )
        self.refusals = Counter(
            "trapworks_refusals",
            "Requests and handshakes refused by a bound or rate limit",
            ["code"],
            registry=r,
        )
        live = Gauge("trapworks_games_live", "Games held in this node's memory", registry=r)
        live.set_function(lambda: len(service.live))
        sockets = Gauge("trapworks_sockets_open", "Game sockets open on this node", registry=r)
        sockets.set_function(lambda: sum(len(room.connections) for room in list(service.live.values())))
        Info("trapworks_node", "This node", registry=r).info({"node": str(bus.node), "bus": str(bus.kind)})

    def text(self) -> bytes:
        return generate_latest(self.registry)


class MetricsMiddleware:
    """ASGI middleware: answer times by route, games created, refusals (by their code)."""

    def __init__(self, app: Any, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        kind = scope.get("type")
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        m = self.metrics
        start = time.perf_counter()
        status: list[int] = []

        async def send_noted(message: dict[str, Any]) -> None:
            t = message["type"]
            if t in ("http.response.start", "websocket.http.response.start"):
                status.append(message["status"])
            elif (
                t in ("http.response.body", "websocket.http.response.body")
                and status
                and status[0] in REFUSED
            ):
                if len(status) == 1:  # the first body piece of a refusal: its code
                    status.append(0)
                    m.refusals.labels(_code_of(message.get("body", b""), status[0])).inc()
            await send(message)

        try:
            await self.app(scope, receive, send_noted)
        finally:
            if kind == "http":
                route = getattr(scope.get("route"), "path", None) or "other"
                m.http_seconds.labels(scope.get("method", "-"), route).observe(time.perf_counter() - start)
                if (
                    status[:1] == [201]
                    and scope.get("method") == "POST"
                    and scope.get("path") == "/api/games"
                ):
                    m.games_created.inc()


def _code_of(body: bytes, status: int) -> str:
    try:
        code = orjson.loads(body).get("code")
    except (orjson.JSONDecodeError, AttributeError):
        code = None
    return str(code)[:40] if isinstance(code, str) else str(status)


def _time_moves(service: Any, metrics: Metrics) -> None:
    """Every move (HTTP or socket) goes through `service.move`: count and time it there."""
    original = service.move

    @functools.wraps(original)
    async def move(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        result = await original(*args, **kwargs)
        metrics.move_seconds.observe(time.perf_counter() - start)
        metrics.moves.inc()
        return result

    service.move = move


def install(app: FastAPI, service: Any, bus: Any) -> Metrics:
    """The metrics, their middleware and `GET /metrics` (admin addresses only: proxy.py)."""
    metrics = Metrics(service, bus)
    app.state.metrics = metrics
    _time_moves(service, metrics)
    bus.on_lag = metrics.bus_lag.observe

    @app.get("/metrics", include_in_schema=False)
    async def scrape() -> Response:
        return Response(metrics.text(), media_type=CONTENT_TYPE_LATEST)

    return metrics
