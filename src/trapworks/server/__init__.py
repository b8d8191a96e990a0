"""The trapworks web server: FastAPI app, persistence and the game service (no rules here)."""

from .app import create_app
from .service import GameService, ServiceError
from .store import Store

__all__ = ["create_app", "GameService", "ServiceError", "Store"]
