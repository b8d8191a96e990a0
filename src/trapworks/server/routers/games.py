"""Games over HTTP: the catalog, creating a game, invite links, a seat's view, moves, records and
the replay of a record file. A finished game's public record is here too: its link is
`/replay/<game id>` (the id is not a secret, the seat tokens are, and none is in the link or in
what it serves). Only a game that is over has one; while a game is on, its record stays behind a
seat's token (and a game with hidden information's record is refused even then, see
GameService.game_record)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from ..errors import ServiceError
from ..messages import (
    ERROR_REPLIES,
    CheckOptions,
    Claim,
    Claimed,
    CreatedGame,
    CreateGame,
    ErrorReply,
    Move,
    MoveReply,
    ReplayRequest,
)
from ..room import Room
from . import Service

router = APIRouter(tags=["games"])


@router.get("/api/catalog", summary="Games, their options, seats and agents")
async def catalog(service: Service) -> dict[str, Any]:
    return {"games": service.catalog()}


@router.post("/api/catalog/{game_id}/check", summary="Check options; returns the game's seats and agents")
async def check(game_id: str, body: CheckOptions, service: Service) -> dict[str, Any]:
    return service.check_options(game_id, body.options)


def created(live: Room, base: str) -> dict[str, Any]:
    """What the creator of a game is told: each seat's link (an invited seat: only its invite
    link, the token goes to who claims it) and the spectators'."""

    def seat_link(i: int, s: dict[str, Any]) -> dict[str, Any]:
        if s.get("invite"):
            link: str | None = f"{base}/g/{live.id}#i={s['invite']}"
        else:
            link = f"{base}/g/{live.id}#t={s['token']}" if s["token"] else None
        return {
            "seat": i,
            "kind": s["kind"],
            "agent": s["agent"],
            "label": live.seat_label(i),
            "token": None if s.get("invite") else s["token"],
            "link": link,
            "invite": bool(s.get("invite")),
        }

    return {
        "id": live.id,
        "game": live.stored.game,
        "options": live.stored.options,
        "chosen_setup": live.stored.chosen_setup,
        "seats": [seat_link(i, s) for i, s in enumerate(live.stored.seats)],
        "spectator": {
            "token": live.stored.spectator_token,
            "link": f"{base}/g/{live.id}#t={live.stored.spectator_token}",
        },
    }


@router.post(
    "/api/games",
    status_code=201,
    response_model=CreatedGame,
    responses={400: {"model": ErrorReply}, 503: {"model": ErrorReply}},
    summary="Create a game; returns seat links with secret tokens",
)
async def create(body: CreateGame, request: Request, service: Service) -> dict[str, Any]:
    live = await service.create(body)  # the model is the one validation (server/messages.py)
    return created(live, str(request.base_url).rstrip("/"))


@router.post(
    "/api/games/{gid}/claim",
    response_model=Claimed,
    responses={403: {"model": ErrorReply}, 404: {"model": ErrorReply}},
    summary="Use an invite link: its seat's token, once",
)
async def claim(gid: str, body: Claim, service: Service) -> dict[str, Any]:
    seat = service.claim(gid, body.invite)
    return {"ok": True, "seat": seat, "token": service.get(gid).stored.seats[seat]["token"]}


@router.get("/api/games/{gid}", summary="A game as the token's seat sees it")
async def get_game(gid: str, service: Service, token: str | None = Query(None)) -> dict[str, Any]:
    live = await service.fresh(gid)  # in a cluster: never an old ply as current
    seat = live.seat_for(token)
    return {"info": live.game_info(seat), "state": live.snapshot(seat, sync=True)}


@router.post(
    "/api/games/{gid}/moves",
    response_model=MoveReply,
    responses=ERROR_REPLIES,
    summary="Play an action for the token's seat",
)
async def post_move(gid: str, body: Move, service: Service) -> dict[str, Any]:
    return {"ok": True, **(await service.move(gid, body.token, body))}


@router.get("/api/games/{gid}/moment/{ply}", summary="Your view of the game right after move `ply`")
async def get_moment(gid: str, ply: int, service: Service, token: str | None = Query(None)) -> dict[str, Any]:
    return service.moment(gid, token, ply)


@router.get("/api/games/{gid}/record", summary="Download the game record (trapworks-record JSON)")
async def get_record(gid: str, service: Service, token: str | None = Query(None)) -> Response:
    record = service.record_dict(gid, token)
    return Response(
        json.dumps(record, indent=2),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{record["game"]}-{gid}.json"'},
    )


@router.get("/api/games/{gid}/extra/{name}", summary="Game-specific extra data for a renderer")
async def get_extra(
    gid: str, name: str, request: Request, service: Service, token: str | None = Query(None)
) -> dict[str, Any]:
    params = {k: v for k, v in request.query_params.items() if k != "token"}
    return {"ok": True, "data": service.extra(gid, token, name, params)}


@router.post("/api/replay", summary="Views of every step of a record, for step-by-step replay")
async def replay(body: ReplayRequest, service: Service) -> Response:
    # In a worker process: a long record must not stall the games on this event loop.
    return Response(await service.replay(body.record, body.seat), media_type="application/json")


@router.get(
    "/api/public/games/{gid}/record",
    responses={404: {"model": ErrorReply}, 409: {"model": ErrorReply}},
    summary="A finished game's record, for anyone (no token; the randomness key revealed)",
)
async def public_record(gid: str, service: Service) -> Response:
    held = gid in service.live
    live = service.get(gid)
    try:
        if not live.ended():
            raise ServiceError(
                409, "not_finished", "this game is not over yet: its public link works once it has ended"
            )
        record = service.game_record(live).to_dict()
    finally:
        # Anyone may open public links: a finished game loaded only for one leaves memory again.
        if not held and not live.connections and live.ended():
            service.drop(live)
    record["secret_key"] = live.key.hex()  # as the players' own download at the end
    return Response(json.dumps(record, indent=2), media_type="application/json")
