"""The app's HTTP and WebSocket endpoints, one FastAPI APIRouter per area: pages, games (create,
join, play, records, replay), meta (schemas, the node), the game socket (socket.py); each
feature adds its own (features/*: `Feature.routes`), the accounts theirs (accounts/routes.py).
A route finds the service through the app (`Service`, a FastAPI dependency)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from ..service import GameService


def service_of(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


Service = Annotated[GameService, Depends(service_of)]
