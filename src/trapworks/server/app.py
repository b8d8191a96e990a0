"""The FastAPI app: HTTP API (with its OpenAPI schema at /docs), WebSockets for live play, static pages."""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

import orjson
from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.websockets import WebSocketDisconnected

from trapworks.core import GameRecord, RecordError

from .memory import GarbagePolicy
from .service import Connection, GameService, ServiceError
from .store import Store, default_url

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"


def encode(msg: dict[str, Any] | list[dict[str, Any]]) -> str:
    """A socket message as JSON text. orjson: every move sends views, and the standard json module
    was a tenth of the server's time per move under load. Non-string keys become strings, as json does."""
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()


class SeatSpec(BaseModel):
    kind: Literal["human", "agent"] = Field(description="'human' (you or an invited player) or 'agent' (AI)")
    agent: str | None = Field(None, description="agent name for an AI seat (see /api/catalog)")
    name: str | None = Field(None, description="a display name")


class CreateGame(BaseModel):
    game: str = Field(description="game id, e.g. last-mouse-lost")
    options: dict[str, Any] = Field(default_factory=dict, description="game options (see /api/catalog)")
    seats: list[SeatSpec] | None = Field(None, description="one entry per seat; default: all human")
    hints: bool = Field(
        False, description="allow hints for every human seat (always allowed against AI only)"
    )
    seed: int | None = Field(None, description="seed for chance and agents (default: random)")
    start: str | None = Field(None, description="start from this position (the game's notation)")


class CheckOptions(BaseModel):
    options: dict[str, Any] = Field(default_factory=dict)


class Move(BaseModel):
    token: str = Field(description="your seat token (from your seat link)")
    action: str = Field(description="the action in the game's notation, e.g. c2-4")
    ply: int | None = Field(None, description="the move count you saw; refused (409) if the game moved on")


class TokenOnly(BaseModel):
    token: str


class ReplayRequest(BaseModel):
    record: dict[str, Any] = Field(description="a game record (trapworks-record JSON)")
    seat: int | None = Field(None, description="whose view to show (default: a spectator's)")


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"ok": False, "error": message, "code": code}, status_code=status)


def create_app(
    db_url: str | None = None, data_dir: Path | None = None, *, manage_memory: bool = False
) -> FastAPI:
    """The web app. `manage_memory`: run the garbage-collection policy of server/memory.py (for a
    server process of its own, as `trapworks serve` is; not for an app inside another program)."""
    if db_url is None:
        from trapworks.cli.options import data_dir as default_data_dir

        db_url = default_url(data_dir or default_data_dir())
    store = Store(db_url)
    service = GameService(store)
    memory = GarbagePolicy(lambda: service.last_activity) if manage_memory else None

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        if memory is not None:
            memory.start()
        yield
        if memory is not None:
            await memory.stop()
        await service.shutdown()
        store.close()

    app = FastAPI(
        title="trapworks",
        version="0.1.0",
        lifespan=lifespan,
        description="Play trapworks games in the browser: lobby, live play over WebSockets, records.",
    )
    app.state.service = service
    app.state.store = store

    @app.exception_handler(ServiceError)
    async def _service_error(_request: Request, exc: ServiceError):
        return _error(exc.status, exc.code, exc.message)

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
    @app.get("/api/catalog", summary="Games, their options, seats and agents")
    async def catalog():
        return {"games": service.catalog()}

    @app.post("/api/catalog/{game_id}/check", summary="Check options; returns the game's seats and agents")
    async def check(game_id: str, body: CheckOptions):
        return service.check_options(game_id, body.options)

    @app.post("/api/games", status_code=201, summary="Create a game; returns seat links with secret tokens")
    async def create(body: CreateGame, request: Request):
        seats = (
            [s.model_dump() for s in body.seats]
            if body.seats is not None
            else [{"kind": "human"}] * service.make_game(body.game, body.options).num_players()
        )
        live = await service.create(
            body.game, body.options, seats, hints=body.hints, seed=body.seed, start=body.start
        )
        base = str(request.base_url).rstrip("/")
        return {
            "id": live.id,
            "game": live.stored.game,
            "options": live.stored.options,
            "seats": [
                {
                    "seat": i,
                    "kind": s["kind"],
                    "agent": s["agent"],
                    "label": service.seat_label(live, i),
                    "token": s["token"],
                    "link": f"{base}/g/{live.id}#t={s['token']}" if s["token"] else None,
                }
                for i, s in enumerate(live.stored.seats)
            ],
            "spectator": {
                "token": live.stored.spectator_token,
                "link": f"{base}/g/{live.id}#t={live.stored.spectator_token}",
            },
        }

    @app.get("/api/games/{gid}", summary="A game as the token's seat sees it")
    async def get_game(gid: str, token: str | None = Query(None)):
        live = service.get(gid)
        seat = service.seat_for(live, token)
        return {"info": service.game_info(live, seat), "state": service.snapshot(live, seat, sync=True)}

    @app.post("/api/games/{gid}/moves", summary="Play an action for the token's seat")
    async def post_move(gid: str, body: Move):
        ply = await service.move(gid, body.token, body.action, body.ply)
        return {"ok": True, "ply": ply}

    @app.post("/api/games/{gid}/undo", summary="Take back your last move (against AI only)")
    async def post_undo(gid: str, body: TokenOnly):
        return {"ok": True, "ply": await service.undo(gid, body.token)}

    @app.get("/api/games/{gid}/hint", summary="The game's best agent's move for you (where allowed)")
    async def get_hint(gid: str, token: str | None = Query(None)):
        return await service.hint(gid, token)

    @app.get("/api/games/{gid}/moment/{ply}", summary="Your view of the game right after move `ply`")
    async def get_moment(gid: str, ply: int, token: str | None = Query(None)):
        return service.moment(gid, token, ply)

    @app.get("/api/games/{gid}/record", summary="Download the game record (trapworks-record JSON)")
    async def get_record(gid: str, token: str | None = Query(None)):
        record = service.record(gid, token)
        return Response(
            record.to_json(),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{record.game}-{gid}.json"'},
        )

    @app.get("/api/games/{gid}/extra/{name}", summary="Game-specific extra data for a renderer")
    async def get_extra(gid: str, name: str, request: Request, token: str | None = Query(None)):
        params = {k: v for k, v in request.query_params.items() if k != "token"}
        return {"ok": True, "data": service.extra(gid, token, name, params)}

    @app.post("/api/replay", summary="Views of every step of a record, for step-by-step replay")
    async def replay(body: ReplayRequest):
        try:
            record = GameRecord.from_dict(body.record)
        except RecordError as e:
            raise ServiceError(400, "bad_record", str(e)) from None
        return service.replay_steps(record, body.seat)

    # --- live play --------------------------------------------------------------------
    @app.websocket("/ws/games/{gid}")
    async def game_socket(ws: WebSocket, gid: str, token: str | None = Query(None)):
        await ws.accept()
        try:
            live = service.get(gid)
            seat = service.seat_for(live, token)
        except ServiceError as e:
            await ws.send_json({"type": "error", "code": e.code, "message": e.message, "fatal": True})
            await ws.close(code=4000 + e.status)
            return

        async def send(msg: dict[str, Any] | list[dict[str, Any]]) -> None:
            await ws.send_text(encode(msg))

        conn = Connection(seat=seat, send=send)
        await send({"type": "hello", "info": service.game_info(live, seat)})
        live.connections.add(conn)
        await send(service.snapshot(live, seat, sync=True))
        try:
            while True:
                raw = await ws.receive_text()
                await _handle(raw, gid, token, seat, send, conn)
        except (WebSocketDisconnect, WebSocketDisconnected):
            pass  # the client went away (possibly while its move was being answered)
        finally:
            service.disconnect(live, conn)

    async def _handle(raw: str, gid: str, token: str, seat: int | None, send, conn: Connection) -> None:
        ref = None
        try:
            try:
                msg = json.loads(raw)
            except json.JSONDecodeError as e:
                raise ServiceError(400, "bad_json", f"message is not valid JSON: {e}") from None
            if not isinstance(msg, dict):
                raise ServiceError(400, "bad_message", "a message is a JSON object with a 'type'")
            ref = msg.get("ref")
            kind = msg.get("type")
            if kind == "move":
                # The ack travels in the same frame as this connection's updates (see _send_steps).
                await service.move(gid, token, msg.get("action"), msg.get("ply"), reply_to=conn, ref=ref)
            elif kind == "undo":
                ply = await service.undo(gid, token)
                await send({"type": "ack", "ref": ref, "ply": ply})
            elif kind == "hint":
                await send({"type": "hint", "ref": ref, **(await service.hint(gid, token))})
            elif kind == "sync":
                live = service.get(gid)
                await send(service.snapshot(live, seat, sync=True))
            elif kind == "ping":
                await send({"type": "pong", "ref": ref})
            else:
                raise ServiceError(
                    400, "bad_message", f"unknown message type {kind!r}; use move, undo, hint, sync or ping"
                )
        except ServiceError as e:
            await send({"type": "error", "ref": ref, "code": e.code, "message": e.message})
            if e.code in ("stale", "not_your_turn", "game_over"):
                # The sender's picture is out of date: send the current one.
                try:
                    await send(service.snapshot(service.get(gid), seat, sync=True))
                except ServiceError:
                    pass

    return app
