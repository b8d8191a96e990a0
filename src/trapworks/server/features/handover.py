"""Hand-over: a human seat whose player has gone may be handed to an AI by the other players.

A seat with no socket (on any node of a cluster) for `hand_over_after` seconds (default 120; an
invited seat whose link nobody has opened yet: at least HAND_OVER_INVITE_FLOOR_S) is offered to
the other players; one of them hands it to an agent (a level), which plays it from then on
through a SeatPlayer (the seat's view only). Each hand-over is in the control document's `handed`
and in the record.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel

from trapworks.agents import available_agents

from ..errors import ErrorCode, ServiceError
from ..messages import ERROR_REPLIES
from ..messages import HandOver as HandOverCommand
from ..room import CONTROL_TRIES, Room
from . import Feature, Setup
from .resign import changed_elsewhere, player_of, stand_in

if TYPE_CHECKING:
    from fastapi import APIRouter

__all__ = ["DEFAULT_HAND_OVER_AFTER_S", "HAND_OVER_INVITE_FLOOR_S", "HandOver"]

# i26: an invited seat whose link nobody has opened yet is handed to an AI no sooner than this,
# whatever hand_over_after says (the invited friend needs time to get the link and arrive).
HAND_OVER_INVITE_FLOOR_S = 300.0
DEFAULT_HAND_OVER_AFTER_S = 120.0  # a seat with no socket this long may be handed to an AI


@dataclass(eq=False)
class GoneWatch:
    """A room's hand-over in memory: since when each seat has had no socket, and the timer that
    tells the others when one becomes handable."""

    # Seat -> when its last socket closed (time.time()); a seat never connected since this server
    # loaded the game counts from then.
    gone_since: dict[int, float] = field(default_factory=dict)
    watch: asyncio.TimerHandle | None = None


class HandOver(Feature):
    name = "hand_over"
    order = 60
    commands: ClassVar[tuple[type[BaseModel], ...]] = (HandOverCommand,)  # POST .../hand-over
    Local = GoneWatch

    def routes(self, router: APIRouter) -> None:
        @router.post(
            "/api/games/{gid}/hand-over",
            responses=ERROR_REPLIES,
            summary="Hand a seat whose player has gone to an AI",
        )
        async def hand_over(gid: str, body: HandOverCommand) -> dict[str, Any]:
            return await self.hand_over(gid, body)

    def control(self, setup: Setup) -> dict[str, Any]:
        """`handed` (the hand-overs so far) and `hand_over_after` (the wait chosen at creation)."""
        after = setup.request.hand_over_after if setup.request is not None else None
        return {
            "handed": [],
            "hand_over_after": DEFAULT_HAND_OVER_AFTER_S if after is None else float(after),
        }

    def loaded(self, room: Room) -> None:
        self._start_gone_watch(room)

    def reloaded(self, room: Room) -> None:
        self._watch_gone(room)

    def stop(self, room: Room) -> None:
        held = self.local(room)
        if held.watch is not None:
            held.watch.cancel()
            held.watch = None

    def at_end(self, room: Room) -> None:
        self.stop(room)  # nothing to hand over any more

    def update(self, room: Room, viewer: int | None, state: Any) -> dict[str, Any]:
        if state is not room.state:
            return {}
        ended = room.ended()
        is_player = viewer is not None and viewer in room.humans()
        return {
            "controls": {
                "handable": self._handable(room, viewer) if is_player and not ended else [],
                "handed": [h["seat"] for h in room.control.data["handed"]],  # shown on the page
            }
        }

    def info(self, room: Room) -> dict[str, Any]:
        return {"hand_over_after": room.control.data["hand_over_after"]}

    def record(self, room: Room) -> dict[str, Any]:
        return {"handed_to_ai": list(room.control.data["handed"])}

    def _start_gone_watch(self, room: Room) -> None:
        held = self.local(room)
        now = time.time()
        for i, s in enumerate(room.stored.seats):
            if s["kind"] == "human":
                held.gone_since.setdefault(i, now)
        self._watch_gone(room)

    def connected(self, room: Room, seat: int | None) -> None:
        held = self.local(room)
        if seat is not None:
            held.gone_since.pop(seat, None)

    def disconnected(self, room: Room, seat: int | None) -> None:
        """A socket closed: if its seat has no other, it is gone from now; the other players are
        told when it has been gone long enough to be handed to an AI."""
        held = self.local(room)
        if seat is None:
            return
        if any(c.seat == seat for c in room.connections):
            return
        held.gone_since[seat] = time.time()
        self._watch_gone(room)

    def _watch_gone(self, room: Room) -> None:
        held = self.local(room)
        if held.watch is not None:
            held.watch.cancel()
            held.watch = None
        if not held.gone_since or room.ended() or len(room.humans()) < 2:
            return  # nobody else to offer a seat to
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        now = time.time()
        later = [t + self._hand_over_wait(room, i) for i, t in held.gone_since.items()]
        later = [t for t in later if t > now]
        if not later:
            return
        due = min(later)
        held.watch = loop.call_later(due - now + 0.05, self._gone_due, room)

    def _gone_due(self, room: Room) -> None:
        held = self.local(room)
        # A seat just became handable: everyone's page is told (the offer appears live).
        held.watch = None
        self.host.spawn(room.tell_everyone())
        self._watch_gone(room)

    def _hand_over_wait(self, room: Room, seat: int) -> float:
        wait = room.control.data["hand_over_after"]
        if room.waiting_for_invited():  # i26: the floor for a friend not arrived yet
            return max(wait, HAND_OVER_INVITE_FLOOR_S)
        return wait

    def _handable(self, room: Room, viewer: int | None) -> list[int]:
        held = self.local(room)
        now = time.time()
        elsewhere = self.host.seats_elsewhere(room.id)  # connected to another node of a cluster
        return [
            i
            for i, since in sorted(held.gone_since.items())
            if i != viewer
            and room.stored.seats[i]["kind"] == "human"
            and not any(c.seat == i for c in room.connections)
            and i not in elsewhere
            and now - since >= self._hand_over_wait(room, i)
        ]

    async def hand_over(self, gid: str, cmd: HandOverCommand) -> dict[str, Any]:
        room = self.host.get(gid)
        held = self.local(room)
        by = player_of(room, cmd.token, "hand a seat to an AI")
        seat, agent = cmd.seat, cmd.agent
        if seat >= len(room.stored.seats):  # the model checked it is a number >= 0
            last = len(room.stored.seats) - 1
            raise ServiceError(
                ErrorCode.BAD_SEAT, "seat {seat}: a seat number from 0 to {last}", seat=repr(seat), last=last
            )
        agents = available_agents(room.game)
        ctl = room.control
        level = agent or (ctl.data.get("clock") or {}).get("ai_level") or stand_in(room)
        if level not in agents:
            raise ServiceError(
                ErrorCode.BAD_AGENT,
                "agent {level}: one of {agents}",
                level=repr(level),
                agents=", ".join(agents),
            )
        async with room.lock:
            await room.refresh_locked()
            if room.ended():
                raise ServiceError(ErrorCode.GAME_OVER, "the game is over")
            if room.stored.seats[by]["kind"] != "human":
                raise ServiceError(ErrorCode.SEAT_HANDED, "your own seat is played by an AI now")
            if seat not in self._handable(room, by):
                raise ServiceError(
                    ErrorCode.NOT_GONE,
                    f"seat {seat + 1} cannot be handed to an AI: only another human seat whose player "
                    f"has had no connection for {ctl.data['hand_over_after']:g} s"
                    + (
                        f" (an invited player who has not opened the link yet: "
                        f"{HAND_OVER_INVITE_FLOOR_S:g} s)"
                        if room.waiting_for_invited()
                        else ""
                    ),
                )
            for _ in range(CONTROL_TRIES):
                seats = [dict(s) for s in room.stored.seats]
                seats[seat].update(kind="agent", agent=level)
                entry = {"seat": seat, "agent": level, "ply": room.ply(), "by": by}
                ctl.data["handed"].append(entry)
                try:
                    stored = room.store_control("hand a seat to an AI")  # first: a conflict changes nothing
                    if stored:
                        self.host.store.update_seats(room.id, seats)
                except Exception as e:
                    if ctl.data["handed"]:
                        ctl.data["handed"].pop()
                    if isinstance(e, ServiceError):
                        raise
                    raise self.host.store_failed(f"hand a seat of game {room.id} to an AI", e) from None
                if stored:
                    break
                # Another node changed the document meanwhile (stored one adopted): still to do?
                if room.ended():
                    raise ServiceError(ErrorCode.GAME_OVER, "the game is over")
                if room.stored.seats[seat]["kind"] != "human":
                    raise ServiceError(
                        ErrorCode.NOT_GONE,
                        "seat {seat_number} was handed to an AI already",
                        seat_number=seat + 1,
                    )
            else:
                raise changed_elsewhere()
            room.adopt_seats(seats)
            held.gone_since.pop(seat, None)
            await room.broadcast(sync=True)
        room.schedule_advance()
        return {"ok": True, "seat": seat, "agent": level}
