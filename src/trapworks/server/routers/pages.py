"""The pages: the lobby, a game, the replay (of a file, or of a finished game's public link)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

STATIC_DIR = Path(__file__).resolve().parents[2] / "web" / "static"

router = APIRouter(include_in_schema=False)


@router.get("/")
async def lobby_page() -> FileResponse:
    return FileResponse(STATIC_DIR / "index.html")


@router.get("/g/{gid}")
async def game_page(gid: str) -> FileResponse:
    return FileResponse(STATIC_DIR / "game.html")


@router.get("/replay")
async def replay_page() -> FileResponse:
    return FileResponse(STATIC_DIR / "replay.html")


@router.get("/replay/{gid}")
async def public_replay_page(gid: str) -> FileResponse:
    # The page asks /api/public/games/<gid>/record; `?embed=1` drops the page's chrome.
    return FileResponse(STATIC_DIR / "replay.html")
