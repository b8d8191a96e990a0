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

Every hook does nothing by default. A feature reaches the rest of the server only through the
room and its `Host` (the service, named in server/room.py, not imported: no import cycle in
server/, type-only imports included).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel

from ..room import Host, Room

__all__ = ["Feature", "Host"]


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
