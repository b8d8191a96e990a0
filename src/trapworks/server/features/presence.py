"""Who sits at a game and whether they are here: names and presence, live to every connection.

A human seat is `free` (a public or invited seat nobody has taken), `joined` (taken, its page not
opened yet), `online` (a socket open, the tab visible, heard from lately), `away` (sockets open but
every tab hidden, or silent for AWAY_AFTER_S) or `left` (no socket for LEFT_AFTER_S, or silent for
LEFT_SILENT_S). A reload closes and reopens the socket within the grace period, so it shows no
"left". Every change is sent as one `presence` message to every seat and spectator: seat numbers,
names, labels and statuses, never a token.

What survives a restart is in the store: the names (the game's seats), which seats are taken and
when each was last seen (seat_joins). After a restart a seat that had been seen is `left` until
its page reconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, ClassVar

from pydantic import BaseModel

from ..errors import ErrorCode, ServiceError
from ..limits import RateLimiter
from ..messages import PresenceMessage, SeatsPresenceMessage
from ..room import Connection, Room
from . import Call, Feature, Host

log = logging.getLogger("trapworks.server")

AWAY_AFTER_S = 45.0  # no message (the page sends a heartbeat every 15 s) for this long: away
LEFT_SILENT_S = 120.0  # no message at all for this long, socket or not: left
LEFT_AFTER_S = 4.0  # no socket for this long: left (a reload reconnects well within it)
SWEEP_S = 1.0  # how often statuses that change with time alone are looked at
# In a cluster each node tells the others which seats have a socket on it (on change, and again
# this often: another node forgets what a node has not repeated in REMOTE_PRESENCE_TTL_S).
REPUBLISH_S = 15.0
# Each change is shown to every connection of the game: a client flipping its visibility in a
# loop would flood them all. Per connection.
PRESENCE_RATE = (1.0, 10.0)  # heartbeats come every 15 s; visibility changes are rarer still


@dataclass
class Heard:
    """One connection's presence: whether its tab is visible and when it was last heard from."""

    visible: bool = True
    at: float = 0.0


class Presence(Feature):
    name = "presence"
    order = 70
    commands: ClassVar[tuple[type[BaseModel], ...]] = (PresenceMessage,)
    replies: ClassVar[tuple[type[BaseModel], ...]] = (SeatsPresenceMessage,)
    bus_kinds = ("presence", "seats")

    def __init__(self, host: Host):
        super().__init__(host)
        self._rate = RateLimiter(*PRESENCE_RATE)
        self._heard: dict[str, dict[Connection, Heard]] = {}  # game id -> its open sockets
        # game id -> seat -> when its last socket closed (monotonic), for the grace before "left"
        self._closed: dict[str, dict[int, float]] = {}
        self._shown: dict[str, list[dict[str, Any]]] = {}  # game id -> the seats last broadcast
        self._sweeper: asyncio.Task | None = None
        # game id -> what this node last told the other nodes of a cluster (seat, status) pairs
        self._published: dict[str, list[list[Any]]] = {}
        self._republished = time.monotonic()

    def stop(self, room: Room) -> None:
        """The room leaves memory (no socket is open to it): what was shown of it is forgotten."""
        self._shown.pop(room.id, None)
        self._closed.pop(room.id, None)
        self._published.pop(room.id, None)

    # --- statuses -------------------------------------------------------------------------
    def status(self, live: Room, seat: int, now: float | None = None) -> str | None:
        stored = live.stored
        s = stored.seats[seat]
        if s["kind"] != "human":
            return None
        now = time.monotonic() if now is None else now
        here = self._here(live, seat, now)
        if here is not None:
            return here
        elsewhere = self.host.seats_elsewhere(live.id).get(seat)  # another node of a cluster
        if elsewhere is not None:
            return elsewhere
        if seat not in stored.joins:
            return "free" if s.get("invite") else "joined"
        closed = self._closed.get(live.id, {}).get(seat)
        if closed is not None and now - closed < LEFT_AFTER_S:
            shown = self._shown.get(live.id)
            previous = shown[seat]["status"] if shown and seat < len(shown) else None
            if previous in ("online", "away"):
                return previous  # a reload: not "left" yet
        if stored.joins[seat][1] is None and closed is None:
            return "joined"  # taken (a lobby join, an invite), its page not opened yet
        return "left"

    def _here(self, live: Room, seat: int, now: float) -> str | None:
        """The seat's status from its sockets on this node (None: it has none here)."""
        heard = [h for c, h in self._heard.get(live.id, {}).items() if c.seat == seat]
        if not heard:
            return None
        latest = max(h.at for h in heard)
        if now - latest > LEFT_SILENT_S:
            return "left"
        if now - latest > AWAY_AFTER_S or not any(h.visible for h in heard):
            return "away"
        return "online"

    def _publish_here(self, live: Room, force: bool = False) -> None:
        """Tell the other nodes of a cluster which seats have a socket here, if that changed."""
        if not self.host.clustered:
            return
        now = time.monotonic()
        seats = sorted({c.seat for c in self._heard.get(live.id, {}) if c.seat is not None})
        statuses = [(seat, self._here(live, seat, now)) for seat in seats]
        here = [[seat, status] for seat, status in statuses if status in ("online", "away")]
        if not force and self._published.get(live.id, []) == here:
            return
        self._published[live.id] = here
        live.publish("presence", seats=here)

    async def on_message(self, command: PresenceMessage, call: Call) -> None:
        if not self._rate.allow(id(call.conn)):
            raise ServiceError(
                ErrorCode.PRESENCE_RATE_LIMITED, "too many presence messages: one every 15 s is enough"
            )
        self.mark(call.room, call.conn, visible=command.visible)
        await self.refresh(call.room)
        await call.ack()

    async def heard_elsewhere(self, msg: dict[str, Any]) -> None:
        """Another node of the cluster says which seats of a game have a socket on it (or its
        seats changed: names, a seat taken; the service has reloaded them)."""
        if msg.get("k") == "seats":
            changed = self.host.live.get(str(msg.get("g")))
            if changed is not None:
                await self.refresh(changed)
            return
        gid, node = str(msg.get("g")), str(msg.get("n"))
        seats = {int(seat): str(status) for seat, status in msg.get("seats", [])}
        nodes = self.host.remote_seats.setdefault(gid, {})
        before = nodes.get(node, (0.0, {}))[1]
        now = time.monotonic()
        nodes[node] = (now, seats)
        for seat in before:
            if seat not in seats:  # its socket there closed: the grace before "left" starts
                self._closed.setdefault(gid, {})[seat] = now
        live = self.host.live.get(gid)
        if live is not None:
            await self.refresh(live)

    def seats(self, live: Room) -> list[dict[str, Any]]:
        """Every seat as the presence message shows it (no token, no invite code)."""
        now = time.monotonic()
        return [
            {
                "seat": i,
                "kind": s["kind"],
                "agent": s["agent"] if s["kind"] == "agent" else None,
                "name": s["name"],
                "label": live.seat_label(i),
                "status": self.status(live, i, now),
            }
            for i, s in enumerate(live.stored.seats)
        ]

    async def refresh(self, live: Room) -> bool:
        """Send every connection the seats if anything shown changed (whether it did)."""
        self._publish_here(live)
        seats = self.seats(live)
        if self._shown.get(live.id) == seats:
            return False
        self._shown[live.id] = seats
        await send_all(live, {"type": "presence", "seats": seats})
        return True

    # --- sockets ----------------------------------------------------------------------------
    async def hello(self, room: Room, conn: Connection) -> dict[str, Any]:
        return {"presence": await self.socket_opened(room, conn)}

    async def socket_opened(self, live: Room, conn: Connection) -> list[dict[str, Any]]:
        """A socket opens (before it joins the game's connections): the others are told if its
        seat's status changes; the seats are returned for its hello."""
        self._heard.setdefault(live.id, {})[conn] = Heard(visible=True, at=time.monotonic())
        self._start_sweeper()
        if conn.seat is not None and live.stored.seats[conn.seat]["kind"] == "human":
            self._closed.get(live.id, {}).pop(conn.seat, None)
            self._seen(live, conn.seat)
        await self.refresh(live)
        return self._shown[live.id]

    async def socket_closed(self, room: Room, conn: Connection) -> None:
        sockets = self._heard.get(room.id, {})
        sockets.pop(conn, None)
        if not sockets:
            self._heard.pop(room.id, None)
        seat = conn.seat
        if seat is not None and not any(c.seat == seat for c in sockets):
            self._closed.setdefault(room.id, {})[seat] = time.monotonic()
            self._seen(room, seat)
        # The sweep says "left" once the grace is over; nothing changes on screen before that.

    def heard(self, room: Room, conn: Connection) -> None:
        self.mark(room, conn)

    def mark(self, room: Room, conn: Connection, visible: bool | None = None) -> None:
        """The connection was heard from now (and its tab is `visible` or not, where it says)."""
        h = self._heard.get(room.id, {}).get(conn)
        if h is None:
            return
        h.at = time.monotonic()
        if visible is not None:
            h.visible = visible

    def _seen(self, live: Room, seat: int) -> None:
        """Store when the seat's socket last opened or closed (presence after a restart)."""
        now = datetime.now(UTC)
        joined = live.stored.joins.get(seat, (now, None))[0]
        live.stored.joins[seat] = (joined, now)
        try:
            self.host.store.seat_seen(live.id, seat, now)
        except Exception as e:  # presence is not worth refusing a connection for
            log.error("game %s: could not store seat %d's presence: %s", live.id, seat, e)

    def _start_sweeper(self) -> None:
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        """Statuses that change with time alone (the grace before "left", a silent page going
        away): looked at every SWEEP_S in the games someone is watching."""
        while True:
            await asyncio.sleep(SWEEP_S)
            republish = time.monotonic() - self._republished >= REPUBLISH_S
            if republish:
                self._republished = time.monotonic()
            for gid in list(self._heard):
                if republish and gid in self.host.live:
                    self._publish_here(self.host.live[gid], force=True)
                live = self.host.live.get(gid)
                if live is not None:
                    try:
                        await self.refresh(live)
                    except Exception as e:  # one game's failure must not stop the others' presence
                        log.error("presence of game %s: %s", live.id, e)
            for gid in [g for g in self._shown if g not in self.host.live]:
                self._shown.pop(gid, None)
                self._closed.pop(gid, None)
                self._published.pop(gid, None)

    async def shutdown(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sweeper


async def send_all(live: Room, msg: dict[str, Any]) -> None:
    """Queue one message to every connection of the game (only queued: no network I/O here)."""
    for conn in list(live.connections):
        try:
            await conn.send(msg)
        except Exception:  # a closed or dropped socket: the others still get it
            live.connections.discard(conn)
