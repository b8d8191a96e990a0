"""One service on many processes: what a node does with what the bus tells it.

The database is the truth; the bus (server/bus.py) only says what changed where. A message:
- `state` (a move, chance, an AI's or the clock's move, a resignation, an abort, a rematch, a
  seat handed to an AI, an undo): the node brings its copy of the game up to date (the actions
  from the message or the store, the control document and seats from the store) and sends its
  own sockets every step in order (GameService.heard_state);
- `seats` (a seat taken, a name): the seats and the control document are read again, and the
  presence is shown again;
- `chat`: the line goes to this node's sockets of that game;
- `presence`: which seats of a game have a socket on the sending node;
- any other kind goes to the handler registered for it (`on`): `seek` (quick-game seeks paired
  on another node: server/accounts/matchmaking.py wakes its waiting polls).
A node only acts on games it holds in memory (those its sockets use, or that it loaded); any
other game is read from the store when someone asks for it. Timers (a clock running out, chance
or an AI seat to move) fire on the one node whose claim the store takes (`Store.claim_timer`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from .bus import Bus

if TYPE_CHECKING:
    from .service import GameService

log = logging.getLogger("trapworks.server")


class ClusterLink:
    """Connects a node's service and its features to the bus."""

    def __init__(self, bus: Bus, service: GameService):
        self.bus = bus
        self.service = service
        service.bus = bus
        self.handlers: dict[str, Callable[[dict[str, Any]], Awaitable[None]]] = {}

    def on(self, kind: str, handler: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        """Messages of `kind` (another part of the server's own) go to `handler`."""
        self.handlers[kind] = handler

    async def start(self) -> None:
        await self.bus.start(self.handle, self.resync)
        if self.bus.clustered:
            log.warning("cluster node %s: bus %s", self.bus.node, self.bus.describe())

    async def stop(self) -> None:
        await self.bus.stop()

    async def handle(self, msg: dict[str, Any]) -> None:
        kind = msg.get("k")
        if kind == "state":
            await self.service.heard_state(msg)
            return
        if kind == "seats":  # the seats reloaded here first; then the features hear of it
            await self.service.heard_state({**msg, "c": 1, "seats": 1})
        if await self.service.heard_elsewhere(msg):  # chat, presence, seats: the features'
            return
        if isinstance(kind, str) and kind in self.handlers:
            await self.handlers[kind](msg)

    async def resync(self) -> None:
        """The bus was lost for a while: every game held here catches up from the store."""
        for live in list(self.service.live.values()):
            try:
                async with live.lock:
                    await live.catch_up_locked(control=True)
                live.schedule_advance()
            except Exception as e:
                log.error("game %s: cannot catch up after the bus came back: %s", live.id, e)
