"""The server's refusal type and the store-retry policy, shared by every server module (a leaf:
it imports nothing of the server, so no module needs another just for its errors)."""

from __future__ import annotations

from typing import Any

STORE_RETRY_S = (0.2, 0.5, 1.0, 2.0, 5.0)  # an agent's move waits this long between failed writes
STORAGE_FAILED = (
    "the game store cannot save right now (nothing was saved and nothing was applied); try again in a moment"
)


class ServiceError(Exception):
    """A request the service refuses: `status` is the HTTP status, `message` says why."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[Any, ...]:  # crosses from a worker process intact
        return (ServiceError, (self.status, self.code, self.message))
