"""The FastAPI app: HTTP API (with its OpenAPI schema at /docs), WebSockets for live play, static pages."""

from __future__ import annotations

import asyncio
import json
import os
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import orjson
from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnected

import trapworks

from . import logsafe, messages
from .accesslog import AccessLogMiddleware
from .accounts import install as install_accounts  # issue 28: accounts, ratings, quick game
from .analysis import add_analysis_routes
from .bounds import Bounds, BoundsMiddleware
from .bounds import document as document_bounds
from .bus import make_bus
from .cluster import ClusterLink
from .control_api import add_control_routes
from .eviction import Evictor
from .features.claim import add_claim_routes
from .features.clock import Clock
from .features.hint import Hint
from .features.undo import Undo
from .headers import OriginCheck, SecurityHeaders
from .i18n import add_i18n_routes
from .limits import SOCKET_RATE_BURST, SOCKET_RATE_PER_S, LimitsMiddleware, RateLimiter
from .memory import GarbagePolicy
from .messages import (
    CheckOptions,
    Claim,
    Claimed,
    CreatedGame,
    CreateGame,
    ErrorReply,
    Move,
    MoveReply,
    ReplayRequest,
    TokenOnly,
)
from .outbox import Outbox, SocketDropped
from .service import Connection, GameService, ServiceError
from .social import SOCIAL_MESSAGES, Social, add_routes
from .store import Store, default_url

RATE_NOTICE_GAP_S = 5.0  # at most one "rate_limited" notice per socket in this time
STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"


def encode(msg: dict[str, Any] | list[dict[str, Any]]) -> str:
    """A socket message as JSON text. orjson: every move sends views, and the standard json module
    was a tenth of the server's time per move under load. Non-string keys become strings, as json does."""
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()


MESSAGE_TYPES = ("move", "undo", "hint", "sync", "ping", *SOCIAL_MESSAGES)
CLOSE_UNSUPPORTED = 1003  # WebSocket close code: a data type the endpoint does not accept


def _record_schema() -> Any:
    """core.record's JSON Schema function, where that version of the kernel has one."""
    from trapworks.core import record

    return getattr(record, "record_json_schema", None)


def _parse_message(raw: str) -> dict[str, Any]:
    # orjson: a depth limit (a deeply nested message is an error, not a crash) and no lone surrogates.
    try:
        msg = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        raise ServiceError(400, "bad_json", f"message is not valid JSON: {e}") from None
    if not isinstance(msg, dict):
        raise ServiceError(400, "bad_message", "a message is a JSON object with a 'type'")
    return msg


def _message_error(e: ValidationError) -> ServiceError:
    first = e.errors()[0]
    loc = [str(x) for x in first.get("loc", ())]
    if loc and loc[0] in MESSAGE_TYPES:  # the message type the union tried ("name" is also a field)
        loc = loc[1:]
    field = loc[0] if loc else "message"
    if field == "ply" and first.get("type") == "missing":
        return ServiceError(
            400,
            "missing_ply",
            "a move needs 'ply': the move count you saw (a repeat is then answered, not applied)",
        )
    code = {"action": "bad_action", "ply": "bad_ply"}.get(field, "bad_message")
    return ServiceError(400, code, f"{'.'.join(loc) or 'message'}: {first.get('msg')}")


def _rss_mib() -> float:
    """This process's resident memory in MiB (Linux: /proc; elsewhere the peak from getrusage)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"ok": False, "error": message, "code": code}, status_code=status)


def create_app(
    db_url: str | None = None,
    data_dir: Path | None = None,
    *,
    manage_memory: bool = False,
    request_rate: tuple[float, float] | None = None,
    bus: str | None = None,
    allowed_origins: tuple[str, ...] = (),
    bounds: Bounds | None = None,
) -> FastAPI:
    """The web app. `manage_memory`: run the garbage-collection policy of server/memory.py (for a
    server process of its own, as `trapworks serve` is; not for an app inside another program).
    `request_rate`: (requests per second, burst) per client address; default limits.RATE_PER_S.
    `bus`: how the nodes of a cluster hear of each other's changes (server/bus.py make_bus:
    default PostgreSQL's LISTEN/NOTIFY on a PostgreSQL database, nothing on SQLite).
    `allowed_origins`: origins besides the served one whose pages may open sockets (headers.py).
    `bounds`: what one address may make the server hold (bounds.py); default Bounds.from_env()."""
    if db_url is None:
        from trapworks.paths import data_dir as default_data_dir

        db_url = default_url(data_dir or default_data_dir())
    the_bus = make_bus(bus, db_url)  # a bad --bus is refused before the database is touched
    logsafe.install()  # i26: every log record of the process redacted (server/logsafe.py)
    store = Store(db_url)
    service = GameService(store)
    social = Social(service)  # names, presence, chat, open tables
    cluster = ClusterLink(the_bus, service, social)  # the other nodes (server/cluster.py)
    memory = GarbagePolicy(lambda: service.last_activity) if manage_memory else None
    evictor = Evictor(service)  # i26: idle games leave memory, reloaded on demand (eviction.py)

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        if memory is not None:
            memory.start()
        await cluster.start()  # subscribed before serving: no change made elsewhere goes unheard
        service.feature(Clock).resume()  # clocks run again at once, not when a player comes back
        evictor.start()  # i26
        yield
        await evictor.stop()  # i26
        if memory is not None:
            await memory.stop()
        await social.stop()
        await cluster.stop()
        await service.shutdown()
        store.close()

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
    # i26: per-address and total bounds (sockets, games an hour, open tables, replays): bounds.py.
    app.add_middleware(BoundsMiddleware, bounds=bounds)
    # Sizes, body and URL limits and a request rate per client address (see limits.py).
    app.add_middleware(LimitsMiddleware, rate=RateLimiter(*request_rate) if request_rate else None)
    # i26: browser security headers on every answer; sockets only from this origin's pages.
    app.add_middleware(OriginCheck, allowed_origins=allowed_origins)
    app.add_middleware(SecurityHeaders)
    # Outermost: one log line per request and per socket event, refusals by the limits included.
    app.add_middleware(AccessLogMiddleware)

    @app.exception_handler(ServiceError)
    async def _service_error(_request: Request, exc: ServiceError):
        return _error(exc.status, exc.code, exc.message)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException):
        # FastAPI's own refusals (an unparsable body, an unknown path): the API's error format.
        codes = {404: "not_found", 405: "method_not_allowed"}
        reply = _error(exc.status_code, codes.get(exc.status_code, "bad_request"), str(exc.detail))
        reply.headers.update(getattr(exc, "headers", None) or {})  # i26: 405's Allow
        return reply

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError):
        errors = exc.errors()
        for e in errors:
            if e.get("type") == "json_invalid":
                return _error(
                    400,
                    "bad_json",
                    f"the request body is not valid JSON: {e.get('ctx', {}).get('error', '')}".strip(),
                )
        first = errors[0] if errors else {}
        # i26: as on the socket (and in the docs): a move whose first fault is no ply is a 400.
        if first.get("type") == "missing" and tuple(first.get("loc", ())) == ("body", "ply"):
            return _error(
                400,
                "missing_ply",
                "a move needs 'ply': the move count you saw (a repeat is then answered, not applied)",
            )
        if tuple(first.get("loc", ())) == ("body", "action"):
            # As on the socket: a move's action text refused by the model is a 400 bad_action.
            return _error(400, "bad_action", f"action: {first.get('msg')}")
        parts = []
        for e in errors[:5]:
            where = ".".join(str(x) for x in e.get("loc", ()) if x != "body") or "body"
            parts.append(f"{where}: {e.get('msg')}")
        return _error(422, "bad_request", "bad request: " + "; ".join(parts))

    # --- pages ------------------------------------------------------------------------
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/", include_in_schema=False)
    async def lobby_page():
        return FileResponse(STATIC_DIR / "index.html")

    @app.get("/g/{gid}", include_in_schema=False)
    async def game_page(gid: str):
        return FileResponse(STATIC_DIR / "game.html")

    @app.get("/replay", include_in_schema=False)
    async def replay_page():
        return FileResponse(STATIC_DIR / "replay.html")

    # --- API --------------------------------------------------------------------------
    @app.get("/api/schema", summary="Names of the API's message schemas")
    async def schema_names():
        return {"schemas": sorted(messages.SCHEMAS) + (["record"] if _record_schema() else [])}

    @app.get("/api/schema/{name}", summary="JSON Schema of one API message (HTTP body or socket message)")
    async def schema_of(name: str):
        if name == "record" and _record_schema():
            return _record_schema()()
        try:
            return messages.schema(name)
        except KeyError:
            raise ServiceError(
                404, "no_schema", f"no schema {name[:64]!r}; see /api/schema for the names"
            ) from None

    @app.get("/api/node", summary="This server process: its cluster node, games and sockets held")
    async def node_info():
        return {
            "node": the_bus.node,
            "bus": the_bus.kind,
            "schema": store.revision,
            "games": len(service.live),
            "sockets": sum(len(live.connections) for live in service.live.values()),
            "rss_mib": round(_rss_mib(), 1),
            "catch_ups": service.catch_ups,
            "published": the_bus.published,
            "heard": the_bus.heard,
        }

    @app.get("/api/catalog", summary="Games, their options, seats and agents")
    async def catalog():
        return {"games": service.catalog()}

    @app.post("/api/catalog/{game_id}/check", summary="Check options; returns the game's seats and agents")
    async def check(game_id: str, body: CheckOptions):
        return service.check_options(game_id, body.options)

    @app.post(
        "/api/games",
        status_code=201,
        response_model=CreatedGame,
        responses={400: {"model": ErrorReply}, 503: {"model": ErrorReply}},
        summary="Create a game; returns seat links with secret tokens",
    )
    async def create(body: CreateGame, request: Request):
        live = await service.create(body)  # the model is the one validation (server/messages.py)
        base = str(request.base_url).rstrip("/")
        return {
            "id": live.id,
            "game": live.stored.game,
            "options": live.stored.options,
            "chosen_setup": live.stored.chosen_setup,
            "seats": [
                {
                    "seat": i,
                    "kind": s["kind"],
                    "agent": s["agent"],
                    "label": live.seat_label(i),
                    # An invited seat: only its invite link (the token goes to who claims it).
                    "token": None if s.get("invite") else s["token"],
                    "link": (
                        f"{base}/g/{live.id}#i={s['invite']}"
                        if s.get("invite")
                        else f"{base}/g/{live.id}#t={s['token']}"
                        if s["token"]
                        else None
                    ),
                    "invite": bool(s.get("invite")),
                }
                for i, s in enumerate(live.stored.seats)
            ],
            "spectator": {
                "token": live.stored.spectator_token,
                "link": f"{base}/g/{live.id}#t={live.stored.spectator_token}",
            },
        }

    @app.post(
        "/api/games/{gid}/claim",
        response_model=Claimed,
        responses={403: {"model": ErrorReply}, 404: {"model": ErrorReply}},
        summary="Use an invite link: its seat's token, once",
    )
    async def claim(gid: str, body: Claim):
        seat = service.claim(gid, body.invite)
        return {"ok": True, "seat": seat, "token": service.get(gid).stored.seats[seat]["token"]}

    @app.get("/api/games/{gid}", summary="A game as the token's seat sees it")
    async def get_game(gid: str, token: str | None = Query(None)):
        live = await service.fresh(gid)  # in a cluster: never an old ply as current
        seat = live.seat_for(token)
        return {"info": live.game_info(seat), "state": live.snapshot(seat, sync=True)}

    @app.post(
        "/api/games/{gid}/moves",
        response_model=MoveReply,
        responses={s: {"model": ErrorReply} for s in (400, 401, 403, 404, 409, 422, 429, 503)},
        summary="Play an action for the token's seat",
    )
    async def post_move(gid: str, body: Move):
        return {"ok": True, **(await service.move(gid, body.token, body))}

    @app.post("/api/games/{gid}/undo", summary="Take back your last move (against AI only)")
    async def post_undo(gid: str, body: TokenOnly):
        return {"ok": True, "ply": await service.feature(Undo).undo(gid, body.token)}

    @app.get("/api/games/{gid}/hint", summary="The game's best agent's move for you (where allowed)")
    async def get_hint(gid: str, token: str | None = Query(None)):
        return await service.feature(Hint).hint(gid, token)

    @app.get("/api/games/{gid}/moment/{ply}", summary="Your view of the game right after move `ply`")
    async def get_moment(gid: str, ply: int, token: str | None = Query(None)):
        return service.moment(gid, token, ply)

    @app.get("/api/games/{gid}/record", summary="Download the game record (trapworks-record JSON)")
    async def get_record(gid: str, token: str | None = Query(None)):
        record = service.record_dict(gid, token)
        return Response(
            json.dumps(record, indent=2),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{record["game"]}-{gid}.json"'},
        )

    @app.get("/api/games/{gid}/extra/{name}", summary="Game-specific extra data for a renderer")
    async def get_extra(gid: str, name: str, request: Request, token: str | None = Query(None)):
        params = {k: v for k, v in request.query_params.items() if k != "token"}
        return {"ok": True, "data": service.extra(gid, token, name, params)}

    @app.post("/api/replay", summary="Views of every step of a record, for step-by-step replay")
    async def replay(body: ReplayRequest):
        # In a worker process: a long record must not stall the games on this event loop.
        return Response(await service.replay(body.record, body.seat), media_type="application/json")

    add_routes(app, social)
    add_control_routes(app, service)  # resign, abort, rematch, hand-over, public records
    add_claim_routes(app, service)  # claim the game against a player who left (issue 39)
    add_analysis_routes(app, service)  # issue 27: review with analysis (server/analysis.py)
    install_accounts(app, service)  # issue 28: accounts, ratings, profiles, my games, quick game
    add_i18n_routes(app)  # the front end's message catalogs (issue 27)
    document_bounds(app)  # i26: the bounds' 413/429/503 answers in the OpenAPI schema

    # --- live play --------------------------------------------------------------------
    @app.websocket("/ws/games/{gid}")
    async def game_socket(ws: WebSocket, gid: str, token: str | None = Query(None)):
        await ws.accept()
        try:
            live = await service.fresh(gid)
            seat = live.seat_for(token)
        except ServiceError as e:
            await ws.send_json({"type": "error", "code": e.code, "message": e.message, "fatal": True})
            await ws.close(code=4000 + e.status)
            return

        # Everything for this socket goes through its outbox: a queue and a writer task of its own.
        outbox = Outbox(ws.send_text, lambda code, reason: ws.close(code, reason), encode)
        send = outbox.put
        conn = Connection(seat=seat, send=send)
        socket_rate = RateLimiter(SOCKET_RATE_PER_S, SOCKET_RATE_BURST)
        last_rate_notice = -RATE_NOTICE_GAP_S
        reader = asyncio.current_task()
        assert reader is not None  # a socket handler always runs in a task
        # A socket dropped for not reading: stop waiting for its messages too.
        dropped = asyncio.create_task(outbox.closed.wait())
        dropped.add_done_callback(
            lambda _t: reader.cancel() if outbox.dropped not in (None, "closed") else None
        )
        try:
            # The hello also carries the seats' names and presence and the chat so far.
            greeting = await social.connected(live, conn)
            await send({"type": "hello", "info": live.game_info(seat), **greeting})
            live.connections.add(conn)
            service.connected(live, conn)
            await send(live.snapshot(seat, sync=True))
            while True:
                await outbox.room()  # back-pressure: read no more while our answers pile up
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                raw = frame.get("text")
                if raw is None:  # a binary frame: this API speaks JSON text only
                    await ws.close(CLOSE_UNSUPPORTED, "binary frames are not accepted: send JSON text")
                    break
                social.heard(live, conn)
                if not socket_rate.allow():
                    # Dropped unanswered (answering each would let a flood fill the socket's outbox),
                    # with one notice per few seconds, not one per refill of the bucket.
                    if time.monotonic() - last_rate_notice < RATE_NOTICE_GAP_S:
                        continue
                    last_rate_notice = time.monotonic()
                    await send(
                        {
                            "type": "error",
                            "ref": None,
                            "code": "rate_limited",
                            "message": "too many messages: slow down (messages over the rate are dropped)",
                        }
                    )
                    continue
                await _handle(raw, gid, token, seat, send, conn)  # type: ignore[arg-type]  # spectators: None
        except (WebSocketDisconnect, WebSocketDisconnected, SocketDropped):
            pass  # the client went away (possibly while its move was being answered)
        except asyncio.CancelledError:
            if outbox.dropped in (None, "closed"):
                raise  # the server is stopping
        finally:
            dropped.cancel()
            await social.disconnected(live, conn)
            service.disconnect(live, conn)
            await outbox.aclose()

    async def _handle(raw: str, gid: str, token: str, seat: int | None, send, conn: Connection) -> None:
        ref = None
        try:
            msg = _parse_message(raw)
            ref = messages.ref_of(msg)  # i26: 3.0 is the integer 3
            kind = msg.get("type")
            if kind not in MESSAGE_TYPES:
                raise ServiceError(
                    400,
                    "bad_message",
                    f"unknown message type {str(kind)[:40]!r}; use {', '.join(MESSAGE_TYPES)}",
                )
            try:
                # The message's model is its one validation: what it holds goes on as checked.
                command = messages.client_message.validate_python(msg)
            except ValidationError as e:
                raise _message_error(e) from None
            if isinstance(command, messages.MoveMessage):
                # The ack travels in the same frame as this connection's updates (see _send_steps).
                await service.move(gid, token, command, reply_to=conn, ref=ref)
            elif kind == "undo":
                ply = await service.feature(Undo).undo(gid, token)
                await send({"type": "ack", "ref": ref, "ply": ply})
            elif kind == "hint":
                await send({"type": "hint", "ref": ref, **(await service.feature(Hint).hint(gid, token))})
            elif kind == "sync":
                live = await service.fresh(gid)
                await send(live.snapshot(seat, sync=True))
            elif kind == "ping":
                await send({"type": "pong", "ref": ref})
            elif kind in SOCIAL_MESSAGES:
                await social.handle(msg, service.get(gid), conn, send, ref)
        except ServiceError as e:
            await send({"type": "error", "ref": ref, "code": e.code, "message": e.message})
            if e.code in ("stale", "not_your_turn", "game_over"):
                # The sender's picture is out of date: send the current one.
                try:
                    await send(service.get(gid).snapshot(seat, sync=True))
                except ServiceError:
                    pass

    return app
