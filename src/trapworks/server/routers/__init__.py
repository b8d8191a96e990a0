"""The app's HTTP and WebSocket endpoints, one FastAPI APIRouter per area: pages, games (create,
join, play, records, replay), meta (schemas, the node), the game socket (socket.py); each
feature adds its own (features/*: `Feature.routes`), the accounts theirs (accounts/routes.py).
A route finds the service through the app (`Service`, a FastAPI dependency)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from ..service import GameService


async def service_of(request: Request) -> GameService:
    # async: a plain function would be run in a worker thread, a hand-off on every request (and
    # a client that half-closed its side meanwhile would get no answer: tests/web/test_docs_match).
    service: GameService = request.app.state.service
    return service


Service = Annotated[GameService, Depends(service_of)]
