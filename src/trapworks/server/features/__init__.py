"""The server's off-board features, one module each, behind one small protocol (`Feature`).

Like lichess's round module keeps each off-board feature in one small class (`Drawer`,
`Takebacker`, ...), each feature here is one module: clock, resign (and abort), rematch,
hand-over, undo, hint, chat, presence, names, open tables. A feature declares its commands as
pydantic models (server/messages.py: the one validation at the boundary) and answers the room's
hooks (server/room.py):

- `after_step(room)`: the game moved on or changed off the board (the room's lock held, everyone
  about to be told): the clock ends a turn and starts the next.
- `update(room, viewer, state)`: what it adds to a seat's update (a state message).
- `info(room)`: what it adds to the game's info (sent once, with the hello).
- `record(room)`: what it adds to the game's record.
- `at_end(room)`: the game just ended (on the board or off it).
- `check_play(room, seat, by)`: refuse a seat's action (a resigned or handed seat plays no more).
- `loaded`, `reloaded`, `seat_taken`, `connected`, `disconnected`, `stop`: the room's life (read
  from the store, changed by another node, a seat taken, a socket opened or closed, the room
  leaving memory).

Every hook does nothing by default. A feature reaches the rest of the server only through its
`Host` (the service, named here, not imported: no import cycle in server/).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from pydantic import BaseModel

if TYPE_CHECKING:
    import concurrent.futures

    from trapworks.core import Game

    from ..bus import Bus
    from ..errors import ServiceError
    from ..messages import CreateGame
    from ..room import Room
    from ..store import Store, StoredGame


F = TypeVar("F", bound="Feature")


class Host(Protocol):
    """What rooms and features need of the service (server/service.py's GameService)."""

    live: dict[str, Room]
    store: Store
    bus: Bus
    features: list[Feature]
    store_failures: int
    last_activity: float
    catch_ups: int
    agent_time: dict[tuple[str, str], float]
    apply_time: dict[str, float]
    apply_pool: concurrent.futures.ThreadPoolExecutor
    # game id -> node -> (when heard; seat -> status): seats with a socket on another node
    remote_seats: dict[str, dict[str, tuple[float, dict[int, str]]]]

    @property
    def clustered(self) -> bool: ...
    def get(self, gid: str) -> Room: ...
    def store_failed(self, what: str, error: BaseException) -> ServiceError: ...
    def spawn(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task | None: ...
    def claim_timer(self, room: Room, kind: str, ply: int, hold_s: float) -> bool: ...
    def seats_elsewhere(self, gid: str) -> dict[int, str]: ...
    def rebuild(self, stored: StoredGame) -> Room: ...
    def free_seats(self, stored: StoredGame) -> list[int]: ...
    def make_game(self, game_id: str, options: dict[str, Any]) -> Game: ...
    async def create(self, request: CreateGame, *, rematch_of: str | None = None) -> Room: ...
    def take_seat(self, room: Room, seat: int) -> None: ...
    def feature(self, kind: type[F]) -> F: ...


class Feature:
    """One off-board feature (see the module's text). Subclasses set `name` and `commands`."""

    name: ClassVar[str] = ""
    commands: ClassVar[tuple[type[BaseModel], ...]] = ()  # its commands, as pydantic models

    def __init__(self, host: Host):
        self.host = host

    def after_step(self, room: Room) -> None:
        return None

    def update(self, room: Room, viewer: int | None, state: Any) -> dict[str, Any]:
        return {}

    def info(self, room: Room) -> dict[str, Any]:
        return {}

    def record(self, room: Room) -> dict[str, Any]:
        return {}

    def at_end(self, room: Room) -> None:
        return None

    def check_play(self, room: Room, seat: int, by: str) -> None:
        return None

    def loaded(self, room: Room) -> None:
        return None

    def reloaded(self, room: Room) -> None:
        return None

    def seat_taken(self, room: Room, seat: int) -> None:
        return None

    def connected(self, room: Room, seat: int | None) -> None:
        return None

    def disconnected(self, room: Room, seat: int | None) -> None:
        return None

    def stop(self, room: Room) -> None:
        return None
