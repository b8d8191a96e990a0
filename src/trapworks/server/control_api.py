"""HTTP routes for the game-control features (features/resign.py, rematch.py, handover.py) and
the public link of a finished game.

A finished game's public link is `/replay/<game id>`: the id is not a secret (it is in every seat's
link before the `#`), the seat tokens are, and none is in the link or in what it serves. Add
`?embed=1` for the page made for an <iframe>. Only a game that is over has one; while a game is
on, its record stays behind a seat's token (and a game with hidden information's record is
refused even then, see GameService.game_record).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse, Response

from .errors import ServiceError
from .features.handover import HandOver as HandOverFeature
from .features.rematch import Rematch
from .features.resign import Resign
from .messages import ControlReply, ErrorReply, HandOver, RematchReply, TokenOnly
from .service import GameService

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"
ERRORS: dict[int | str, dict[str, Any]] = {s: {"model": ErrorReply} for s in (400, 401, 403, 404, 409, 503)}


def add_control_routes(app: FastAPI, service: GameService) -> None:
    resigning = service.feature(Resign)
    rematches = service.feature(Rematch)
    hand_overs = service.feature(HandOverFeature)

    @app.post(
        "/api/games/{gid}/resign",
        response_model=ControlReply,
        responses=ERRORS,
        summary="Resign: your seat is out (the kernel decides whether the game ends)",
    )
    async def resign(gid: str, body: TokenOnly):
        return await resigning.resign(gid, body)

    @app.post(
        "/api/games/{gid}/abort",
        response_model=ControlReply,
        responses=ERRORS,
        summary="Abort the game before its second move: it ends with no result",
    )
    async def abort(gid: str, body: TokenOnly):
        return await resigning.abort(gid, body)

    @app.post(
        "/api/games/{gid}/rematch",
        response_model=RematchReply,
        responses=ERRORS,
        summary="Accept a rematch of a finished game; made once every human seat accepted",
    )
    async def rematch(gid: str, body: TokenOnly):
        return await rematches.rematch(gid, body)

    @app.post(
        "/api/games/{gid}/hand-over",
        responses=ERRORS,
        summary="Hand a seat whose player has gone to an AI",
    )
    async def hand_over(gid: str, body: HandOver):
        return await hand_overs.hand_over(gid, body)

    @app.get(
        "/api/public/games/{gid}/record",
        responses={404: {"model": ErrorReply}, 409: {"model": ErrorReply}},
        summary="A finished game's record, for anyone (no token; the randomness key revealed)",
    )
    async def public_record(gid: str):
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

    @app.get("/replay/{gid}", include_in_schema=False)
    async def public_replay_page(gid: str):
        # The page asks /api/public/games/<gid>/record; `?embed=1` drops the page's chrome.
        return FileResponse(STATIC_DIR / "replay.html")
