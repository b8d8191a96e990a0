"""The community's pages (static files under web/static; their scripts under web/static/js)."""

from __future__ import annotations

from pathlib import Path

from fastapi.responses import FileResponse

STATIC_DIR = Path(__file__).resolve().parent.parent.parent / "web" / "static"


def page(name: str) -> FileResponse:
    return FileResponse(STATIC_DIR / name)
