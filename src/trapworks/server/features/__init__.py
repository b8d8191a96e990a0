"""The server's off-board features, one module each, behind one small protocol (`Feature`).

Like lichess's round module keeps each off-board feature in one small class (`Drawer`,
`Takebacker`, ...), each feature here is one module: clock, resign (and abort), rematch,
hand-over, undo, takeback, hint, chat, presence, names, open tables. A module of this package
that defines a `Feature` subclass IS the feature: `discover()` finds it (nothing else lists it).

A feature owns its commands and its state:

- `commands`: its commands as pydantic models (server/messages.py or its own module: the one
  validation at the boundary). Those with a `type` field are socket messages: the game socket
  hands each one to `on_message` of the feature that declares it (one dispatch line,
  server/routers/socket.py). `routes(router)` adds its HTTP endpoints (FastAPI).
- `replies`: the socket messages it sends (server to client), for the published schema.
- `control(setup)`: its keys of the game's stored control document (the `game_control` table)
  with their values for a new game; a document stored before the feature existed gets them too.
  `Local` (a class): what it keeps per room in memory only (timers), `local(room)`.
- `state_fields`: the fields it adds to the state message (pydantic field definitions), which
  `update` fills.
- `script`: its front-end module (under web/static/): the game page imports it and calls its
  `install(page)` (js/game.js, `loadFeatures`); `translations`: its words in other languages.

And it answers the room's hooks:

- `after_step(room)`: the game moved on or changed off the board (the room's lock held, everyone
  about to be told): the clock ends a turn and starts the next.
- `update(room, viewer, state)`: what it adds to a seat's update (a state message).
- `info(room)`: what it adds to the game's info (sent once, with the hello).
- `record(room)`: what it adds to the game's record.
- `at_end(room)`: the game just ended (on the board or off it).
- `check_play(room, seat, by)`: refuse a seat's action (a resigned or handed seat plays no more).
- `loaded`, `reloaded`, `seat_taken`, `connected`, `disconnected`, `stop`, `busy`: the room's life
  (read from the store, changed by another node, a seat taken, a socket opened or closed, the
  room leaving memory, whether something of the feature's still needs the room in memory).
- `hello(room, conn)`, `socket_closed(room, conn)`, `heard(room, conn)`: a socket opened (what its
  hello carries), closed, or sent anything. `heard_elsewhere(msg)`: a bus message of one of its
  `bus_kinds` from another node of a cluster. `start()`, `shutdown()`: the server's life.

Every hook does nothing by default. A feature reaches the rest of the server only through the
room and its `Host` (the service, named in server/room.py, not imported: no import cycle in
server/, type-only imports included).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel

from ..room import Connection, Host, Room

if TYPE_CHECKING:
    from fastapi import APIRouter

    from trapworks.core import Game

    from ..messages import CreateGame

__all__ = ["Call", "Feature", "Host", "Setup", "discover"]


@dataclass(frozen=True)
class Setup:
    """What a new game's control document is made from: the creation request (None: a plain
    document, as for a game stored before control documents existed), the game and its seats."""

    request: CreateGame | None
    game: Game | None
    seats: int
    rematch_of: str | None = None


@dataclass(eq=False)
class Call:
    """One socket message on its way to the feature that declares it: the room, who sent it and
    how to answer (`ref` is echoed)."""

    room: Room
    token: str | None
    seat: int | None
    conn: Connection
    ref: Any

    async def reply(self, msg: dict[str, Any]) -> None:
        await self.conn.send({**msg, "ref": self.ref})

    async def ack(self, ply: int | None = None) -> None:
        await self.reply({"type": "ack", "ply": self.room.ply() if ply is None else ply})


class Feature:
    """One off-board feature (see the module's text). Subclasses set `name` and `commands`."""

    name: ClassVar[str] = ""
    order: ClassVar[int] = 100  # hooks run and update fields join in this order (then by name)
    commands: ClassVar[tuple[type[BaseModel], ...]] = ()  # its commands, as pydantic models
    replies: ClassVar[tuple[type[BaseModel], ...]] = ()  # socket messages it sends
    state_fields: ClassVar[dict[str, Any]] = {}  # state message fields: name -> (type, Field)
    bus_kinds: ClassVar[tuple[str, ...]] = ()  # cluster bus messages it answers (heard_elsewhere)
    script: ClassVar[str | None] = None  # its front-end module, under web/static/
    translations: ClassVar[dict[str, dict[str, str]]] = {}  # language -> English text -> words
    Local: ClassVar[type | None] = None  # what it keeps per room in memory (made on first use)

    def __init__(self, host: Host):
        self.host = host

    @classmethod
    def socket_commands(cls) -> dict[str, type[BaseModel]]:
        """Its socket messages: type -> model (the commands with a literal `type`)."""
        found = {}
        for model in cls.commands:
            kind = model.model_fields.get("type")
            literal: Any = getattr(kind, "annotation", None)
            if getattr(literal, "__args__", None):
                found[literal.__args__[0]] = model
        return found

    def local(self, room: Room) -> Any:
        """What this feature keeps for `room` in memory only (an instance of `Local`)."""
        held = room.control.local
        if self.name not in held:
            assert self.Local is not None, f"{type(self).__name__} keeps nothing per room"
            held[self.name] = self.Local()
        return held[self.name]

    # --- its state and commands ---------------------------------------------------------------
    def control(self, setup: Setup) -> dict[str, Any]:
        return {}

    async def on_message(self, command: Any, call: Call) -> None:
        raise NotImplementedError(f"{type(self).__name__} declares no socket message")

    def routes(self, router: APIRouter) -> None:
        return None

    # --- the room's hooks ---------------------------------------------------------------------
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

    def busy(self, room: Room) -> bool:
        return False

    # --- sockets and the server's life ---------------------------------------------------------
    async def hello(self, room: Room, conn: Connection) -> dict[str, Any]:
        return {}

    async def socket_closed(self, room: Room, conn: Connection) -> None:
        return None

    def heard(self, room: Room, conn: Connection) -> None:
        return None

    async def heard_elsewhere(self, msg: dict[str, Any]) -> None:
        return None

    async def start(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None


def discover() -> tuple[type[Feature], ...]:
    """Every feature: the one Feature subclass of each module of this package, in hook order."""
    found: list[type[Feature]] = []
    for module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
        mod = importlib.import_module(f"{__name__}.{module}")
        found.extend(
            c
            for c in vars(mod).values()
            if inspect.isclass(c) and issubclass(c, Feature) and c.__module__ == mod.__name__
        )
    return tuple(sorted(found, key=lambda c: (c.order, c.name)))
