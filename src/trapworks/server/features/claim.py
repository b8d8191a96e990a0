"""Claim the game against a player who left (issue 39), as lichess offers "claim victory".

A human seat whose player has been gone longer than the game's wait (the same rule and the same
wait as the hand-over's: no socket on any node for `hand_over_after` seconds, an invited friend not
arrived yet longer) may be claimed against by another player of the game: the gone seat is out of
the game, as a resignation puts it ("left the game" in the record), and the game's own forfeit
policy (core/forfeit.py, the kernel) says who wins and whether the game goes on, a stand-in agent
playing the seat's turns where it does. The server decides no rule: a claim is a forfeit.

Each player's update lists the seats they may claim against (`controls.claimable`); the route is
POST /api/games/{gid}/claim-win {token, seat}.

Issue 41 (the judge: the claim came after ~125 s with no sign of it coming): from the moment an
opponent is gone (their last socket closed, past a reload's grace), every other player's update
has `controls.claim_in` (seat -> seconds until the claim is offered), and the page counts down
("You can claim the win in 0:45": js/claim.js); the opponent back, the countdown goes.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, Field

from ..errors import ErrorCode, ServiceError
from ..messages import ERROR_REPLIES, MAX_TOKEN, ControlReply
from ..room import Room
from . import Feature
from .handover import HandOver
from .resign import forfeit, player_of

if TYPE_CHECKING:
    from fastapi import APIRouter

__all__ = ["Claim", "ClaimWin"]

# A reload closes and reopens the socket at once: a seat is told gone (its countdown shown) only
# after this (presence's LEFT_AFTER_S, the same grace before "left").
GONE_GRACE_S = 4.0


@dataclass
class _Told:
    """The seats whose countdown the players were sent (told again when they are back)."""

    seats: set[int] = field(default_factory=set)


class ClaimWin(BaseModel):
    """Claim the game against seat `seat`, whose player left."""

    token: str = Field(max_length=MAX_TOKEN, description="your seat token")
    seat: int = Field(ge=0, le=64, description="the seat whose player left (0-based)")


class Claim(Feature):
    name = "claim"
    order = 61  # just after the hand-over, whose rule of who is gone it uses
    script = "js/claim.js"  # the countdown to the claim
    Local = _Told
    gone_grace_s = GONE_GRACE_S
    commands: ClassVar[tuple[type[BaseModel], ...]] = (ClaimWin,)  # POST .../claim-win
    translations: ClassVar[dict[str, dict[str, str]]] = {
        "fr": {
            "the game is over: there is nothing to claim": "la partie est finie : il n'y a rien à réclamer",
            "seat {seat_number} cannot be claimed against: only another player's seat whose player "
            "has had no connection for {wait} s": "la place {seat_number} ne peut pas être réclamée : "
            "seulement la place d'un autre joueur resté sans connexion depuis {wait} s",
        }
    }

    def routes(self, router: APIRouter) -> None:
        @router.post(
            "/api/games/{gid}/claim-win",
            response_model=ControlReply,
            responses=ERROR_REPLIES,
            summary="Claim the game against a player who left (gone longer than the hand-over wait)",
        )
        async def claim_win(gid: str, body: ClaimWin) -> dict[str, Any]:
            return await self.claim(gid, body)

    def claimable(self, room: Room, viewer: int | None) -> list[int]:
        """The seats `viewer` may claim against now: gone as long as the hand-over asks."""
        if viewer is None or viewer not in room.humans() or room.ended():
            return []
        return self.host.feature(HandOver)._handable(room, viewer)  # one rule of who is gone

    def claim_in(self, room: Room, viewer: int | None) -> dict[str, float]:
        """Seat (as a string: a JSON key) -> seconds until `viewer` may claim against it, for each
        other seat gone past the grace and not claimable yet."""
        if viewer is None or viewer not in room.humans() or room.ended():
            return {}
        handover = self.host.feature(HandOver)
        gone = handover.local(room).gone_since
        now = time.time()
        elsewhere = self.host.seats_elsewhere(room.id)
        out = {}
        for seat, since in sorted(gone.items()):
            if (
                seat == viewer
                or room.stored.seats[seat]["kind"] != "human"
                or any(c.seat == seat for c in room.connections)
                or seat in elsewhere
                or now - since < self.gone_grace_s
            ):
                continue
            left = since + handover._hand_over_wait(room, seat) - now
            if left > 0:
                out[str(seat)] = round(left, 1)
        return out

    def update(self, room: Room, viewer: int | None, state: Any) -> dict[str, Any]:
        if state is not room.state:
            return {}
        return {
            "controls": {"claimable": self.claimable(room, viewer), "claim_in": self.claim_in(room, viewer)}
        }

    def loaded(self, room: Room) -> None:
        """A game just made or loaded: a seat whose player never comes is gone from now (the
        hand-over's rule): the others are told once the grace is over."""
        for seat in room.humans():
            self.disconnected(room, seat)

    def disconnected(self, room: Room, seat: int | None) -> None:
        """A seat's last socket closed: once the grace is over and it is still gone, the others
        are told (their countdown starts)."""
        if seat is None or len(room.humans()) < 2 or any(c.seat == seat for c in room.connections):
            return  # (against the computer alone: nobody to claim)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        loop.call_later(self.gone_grace_s + 0.05, self._tell_gone, room, seat)

    def _tell_gone(self, room: Room, seat: int) -> None:
        if room.ended() or any(c.seat == seat for c in room.connections):
            return
        if seat not in self.host.feature(HandOver).local(room).gone_since:
            return
        self.local(room).seats.add(seat)
        self.host.spawn(room.tell_everyone())

    def connected(self, room: Room, seat: int | None) -> None:
        """A seat told gone is back: the others' countdown goes."""
        told = self.local(room).seats
        if seat is not None and seat in told:
            told.discard(seat)
            self.host.spawn(room.tell_everyone())

    async def claim(self, gid: str, cmd: ClaimWin) -> dict[str, Any]:
        room = self.host.get(gid)
        by = player_of(room, cmd.token, "claim a game")
        if cmd.seat >= len(room.stored.seats):
            last = len(room.stored.seats) - 1
            raise ServiceError(
                ErrorCode.BAD_SEAT, "seat {seat}: a seat number from 0 to {last}", seat=cmd.seat, last=last
            )
        async with room.lock:
            await room.refresh_locked()
            if room.ended():
                raise ServiceError(ErrorCode.GAME_OVER, "the game is over: there is nothing to claim")
            if room.stored.seats[by]["kind"] != "human":
                raise ServiceError(ErrorCode.SEAT_HANDED, "your own seat is played by an AI now")
            if cmd.seat not in self.claimable(room, by):
                wait = room.control.data["hand_over_after"]
                raise ServiceError(
                    ErrorCode.NOT_GONE,
                    "seat {seat_number} cannot be claimed against: only another player's seat whose player"
                    " has had no connection for {wait} s",
                    seat_number=cmd.seat + 1,
                    wait=format(wait, "g"),
                )
            await forfeit(room, cmd.seat, "left")
            self.host.feature(HandOver).local(room).gone_since.pop(cmd.seat, None)
        room.schedule_advance()
        return {"ok": True, "ended": room.ended(), "ply": room.ply()}
