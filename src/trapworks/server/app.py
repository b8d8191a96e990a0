"""The FastAPI app: HTTP API (with its OpenAPI schema at /docs), WebSockets for live play, static pages.

`create_app` makes the service and its parts and mounts the routers: one per area
(server/routers/: pages, games, meta, the game socket), one per feature that has endpoints
(server/features/*: `Feature.routes`), the accounts' (server/accounts/), the catalogs' (i18n).
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.staticfiles import StaticFiles

import trapworks

from . import logsafe
from .accesslog import AccessLogMiddleware
from .accounts import install as install_accounts  # issue 28: accounts, ratings, quick game
from .analysis import add_analysis_routes
from .bounds import Bounds, BoundsMiddleware, CreationGate
from .bounds import document as document_bounds
from .bus import make_bus
from .cluster import ClusterLink
from .community import install as install_community  # i41
from .eviction import Evictor
from .headers import OriginCheck, SecurityHeaders
from .i18n import add_i18n_routes
from .limits import LimitsMiddleware, RateLimiter
from .memory import GarbagePolicy
from .operations import install as install_operations
from .proxy import OpsSettings
from .routers import errors, games, meta, pages, socket
from .routers.socket import encode
from .service import GameService
from .store import Store, default_url

__all__ = ["create_app", "encode"]

STATIC_DIR = pages.STATIC_DIR


def create_app(
    db_url: str | None = None,
    data_dir: Path | None = None,
    *,
    manage_memory: bool = False,
    request_rate: tuple[float, float] | None = None,
    bus: str | None = None,
    allowed_origins: tuple[str, ...] = (),
    bounds: Bounds | None = None,
    ops: OpsSettings | None = None,
) -> FastAPI:
    """The web app. `manage_memory`: run the garbage-collection policy of server/memory.py (for a
    server process of its own, as `trapworks serve` is; not for an app inside another program).
    `request_rate`: (requests per second, burst) per client address; default limits.RATE_PER_S.
    `bus`: how the nodes of a cluster hear of each other's changes (server/bus.py make_bus:
    default PostgreSQL's LISTEN/NOTIFY on a PostgreSQL database, nothing on SQLite).
    `allowed_origins`: origins besides the served one whose pages may open sockets (headers.py).
    `bounds`: what one address may make the server hold (bounds.py); default Bounds.from_env().
    `ops`: trusted proxies, allowed hosts, admin addresses (proxy.py; default: none trusted, no
    Host check, loopback admin); see operations.py."""
    ops = ops or OpsSettings()
    if db_url is None:
        from trapworks.paths import data_dir as default_data_dir

        db_url = default_url(data_dir or default_data_dir())
    the_bus = make_bus(bus, db_url)  # a bad --bus is refused before the database is touched
    logsafe.install()  # i26: every log record of the process redacted (server/logsafe.py)
    store = Store(db_url)
    service = GameService(store)
    cluster = ClusterLink(the_bus, service)  # the other nodes (server/cluster.py)
    memory = (
        GarbagePolicy(
            lambda: service.last_activity,
            lambda: sum(len(live.connections) for live in list(service.live.values())),  # as /api/node
        )
        if manage_memory
        else None
    )
    evictor = Evictor(service)  # i26: idle games leave memory, reloaded on demand (eviction.py)

    lifespan = _lifespan(store, service, cluster, memory, evictor)
    app = FastAPI(
        title="trapworks",
        version=trapworks.__version__,
        lifespan=lifespan,
        description="Play trapworks games in the browser: lobby, live play over WebSockets, records.",
    )
    app.state.service = service
    app.state.store = store
    app.state.bus = the_bus
    app.state.cluster = cluster
    app.state.evictor = evictor  # i26
    _add_middleware(app, bounds, request_rate, allowed_origins, ops)
    _add_routes(app, service, store, the_bus, ops)
    return app


def _lifespan(
    store: Store, service: GameService, cluster: ClusterLink, memory: GarbagePolicy | None, evictor: Evictor
) -> Any:
    """What starts before the app serves and stops after it, in that order."""

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        if memory is not None:
            memory.start()
        await cluster.start()  # subscribed before serving: no change made elsewhere goes unheard
        await service.start()  # the features' (clocks run again at once, not when a player comes back)
        evictor.start()  # i26
        yield
        await evictor.stop()  # i26
        if memory is not None:
            await memory.stop()
        await service.stop_features()
        await cluster.stop()
        await service.shutdown()
        store.close()

    return lifespan


def _add_middleware(
    app: FastAPI,
    bounds: Bounds | None,
    request_rate: tuple[float, float] | None,
    allowed_origins: tuple[str, ...],
    ops: OpsSettings,
) -> None:
    """The middleware, innermost first (each add_middleware wraps the ones before it)."""
    # i26: per-address and total bounds (sockets, games an hour, open tables, replays): bounds.py.
    app.state.creation_gate = gate = CreationGate()  # i40: operations.py puts EarlyRefusal outermost
    app.add_middleware(BoundsMiddleware, bounds=bounds, gate=gate)
    # Sizes, body and URL limits and a request rate per client address (see limits.py).
    app.add_middleware(LimitsMiddleware, rate=RateLimiter(*request_rate) if request_rate else None)
    # i26: browser security headers on every answer; sockets only from this origin's pages.
    app.add_middleware(OriginCheck, allowed_origins=allowed_origins, allowed_hosts=ops.allowed_hosts)
    app.add_middleware(SecurityHeaders)
    # Outermost: one log line per request and per socket event, refusals by the limits included.
    app.add_middleware(AccessLogMiddleware)


def _add_routes(app: FastAPI, service: GameService, store: Store, the_bus: Any, ops: OpsSettings) -> None:
    """Every area's routes: pages, the API, features, accounts, community, operations, sockets."""
    errors.install(app)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.include_router(pages.router)
    app.include_router(meta.router)
    app.include_router(games.router)
    add_analysis_routes(app, service)  # issue 27: review with analysis (server/analysis.py)
    install_accounts(app, service)  # issue 28: accounts, ratings, profiles, my games, quick game
    install_community(app, service)  # i41: friends, challenges, safety, moderation (server/community)
    for feature in service.features:  # each feature's own endpoints (undo, hint, resign, ...)
        feature_routes = APIRouter(tags=[feature.name])
        feature.routes(feature_routes)
        app.include_router(feature_routes)
    add_i18n_routes(app)  # the front end's message catalogs (issue 27)
    document_bounds(app)  # i26: the bounds' 413/429/503 answers in the OpenAPI schema
    install_operations(app, ops, service, store, the_bus)  # i40: proxies, hosts, health, metrics
    app.include_router(socket.router)  # live play
