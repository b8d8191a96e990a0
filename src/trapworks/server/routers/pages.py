"""The pages: the lobby, a game, the replay (of a file, or of a finished game's public link)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from ..errors import ErrorCode, ServiceError

STATIC_DIR = Path(__file__).resolve().parents[2] / "web" / "static"

router = APIRouter(include_in_schema=False)


@router.get("/")
async def lobby_page() -> FileResponse:
    return FileResponse(STATIC_DIR / "index.html")


def _known(request: Request, gid: str) -> None:
    """A game of no id this server knows: the site's 404 page (issue 41), not an empty page."""
    if request.app.state.service.store.load_seats(gid[:64]) is None:
        raise ServiceError(ErrorCode.NO_SUCH_GAME, "no game {gid}", gid=repr(gid[:64]))


@router.get("/g/{gid}")
async def game_page(gid: str, request: Request) -> FileResponse:
    _known(request, gid)
    return FileResponse(STATIC_DIR / "game.html")


@router.get("/replay")
async def replay_page() -> FileResponse:
    return FileResponse(STATIC_DIR / "replay.html")


@router.get("/replay/{gid}")
async def public_replay_page(gid: str, request: Request) -> FileResponse:
    _known(request, gid)
    # The page asks /api/public/games/<gid>/record; `?embed=1` drops the page's chrome.
    return FileResponse(STATIC_DIR / "replay.html")
