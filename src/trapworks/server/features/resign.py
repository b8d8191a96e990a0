"""Resign and abort: a seat leaves the game, or the game ends with no result before its second move.

The server decides no rule here: what a resignation, a loss on time or an abort does to the result
is the kernel's (core/forfeit.py: the seats out, whether the game ends, the returns). This feature
keeps the platform's part: who asked, storing the decision (the control document's `forfeits`)
before anyone is told, and a stand-in agent for an out seat's turns where the game goes on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, Field

from trapworks.agents import available_agents
from trapworks.core import Forfeit, abort_refusal
from trapworks.core.words import Said

from ..errors import ErrorCode, ServiceError
from ..messages import ERROR_REPLIES, ControlReply, TokenOnly
from ..room import CONTROL_TRIES, Room
from . import Feature, Setup

if TYPE_CHECKING:
    from fastapi import APIRouter

STAND_IN = ("easy", "random")  # who plays an out seat's turns when the game goes on (first offered)


def changed_elsewhere() -> ServiceError:
    """Other nodes kept changing the game's control document at the same moment."""
    return ServiceError(
        ErrorCode.CHANGED_ELSEWHERE, "the game changed elsewhere at the same moment; try again"
    )


def stand_in(room: Room) -> str:
    agents = available_agents(room.game)
    return next((a for a in STAND_IN if a in agents), agents[0])


def player_of(room: Room, token: str | None, what: str) -> int:
    """The seat of a token that must be a player's (a spectator is refused)."""
    seat = room.seat_for(token)
    if seat is None:
        raise ServiceError(ErrorCode.SPECTATOR, "spectators cannot {what}", what=what)
    return seat


async def forfeit(room: Room, seat: int, reason: Any) -> None:
    """Seat `seat` is out (caller holds the lock): stored, then applied and told. Where the kernel
    says the game goes on, a stand-in agent plays the seat's turns."""
    host = room.host
    assert host is not None
    for _ in range(CONTROL_TRIES):
        if room.ended() or room.stored.seats[seat]["kind"] != "human":
            return  # (as another node stored meanwhile: the game ended, or the seat is out)
        ctl = room.control
        ctl.data["forfeits"].append(Forfeit(seat, reason, room.ply()).to_dict())
        seats = None
        if not room.outcome().ended:
            seats = [dict(s) for s in room.stored.seats]
            seats[seat].update(kind="agent", agent=stand_in(room))
        try:
            stored = room.store_control("store a forfeit")  # first: a conflict changes nothing
            if stored and seats is not None:
                host.store.update_seats(room.id, seats)
        except Exception as e:
            if ctl.data["forfeits"]:
                ctl.data["forfeits"].pop()
            if isinstance(e, ServiceError):
                raise
            raise host.store_failed(f"store a forfeit in game {room.id}", e) from None
        if stored:
            if seats is not None:
                room.adopt_seats(seats)
            await room.broadcast(sync=True)
            return
    raise changed_elsewhere()


def seat_moves(room: Room, enough: int = 2) -> int:
    """Moves by seats so far (chance outcomes do not count), counted up to `enough`: every state
    message asks, and a long game's log is long."""
    count = 0
    for seat, _text in room.log:
        if seat >= 0:
            count += 1
            if count >= enough:
                break
    return count


class Resign(Feature):
    name = "resign"
    order = 30
    commands: ClassVar[tuple[type[BaseModel], ...]] = (TokenOnly,)  # POST .../resign, .../abort
    state_fields: ClassVar[dict[str, Any]] = {
        "ending": (
            dict[str, Any] | None,
            Field(
                None,
                description="how the game ended off the board: "
                "{forfeits: [{seat, reason, ply}], aborted, out}",
            ),
        ),
        # Resign's can_resign and can_abort; rematch and hand-over add theirs.
        "controls": (
            dict[str, Any] | None,
            Field(
                None,
                description="what this seat may do now: can_resign, can_abort, can_rematch, handable (seats)",
            ),
        ),
    }

    def control(self, setup: Setup) -> dict[str, Any]:
        """`forfeits`: the seats out off the board (the kernel's Forfeit; the clock adds its own)."""
        return {"forfeits": []}

    def routes(self, router: APIRouter) -> None:
        @router.post(
            "/api/games/{gid}/resign",
            response_model=ControlReply,
            responses=ERROR_REPLIES,
            summary="Resign: your seat is out (the kernel decides whether the game ends)",
        )
        async def resign(gid: str, body: TokenOnly) -> dict[str, Any]:
            return await self.resign(gid, body)

        @router.post(
            "/api/games/{gid}/abort",
            response_model=ControlReply,
            responses=ERROR_REPLIES,
            summary="Abort the game before its second move: it ends with no result",
        )
        async def abort(gid: str, body: TokenOnly) -> dict[str, Any]:
            return await self.abort(gid, body)

    def check_play(self, room: Room, seat: int, by: str) -> None:
        """A resigned (out) seat or one handed to an AI plays no more by its human's hand."""
        if by != "human":
            return
        if room.stored.seats[seat]["kind"] != "human":
            out = seat in room.outcome().out
            why = Said("you are out of this game") if out else Said("your seat was handed to an AI")
            raise ServiceError(ErrorCode.SEAT_HANDED, "{why}: the server plays this seat now", why=why)

    def update(self, room: Room, viewer: int | None, state: Any) -> dict[str, Any]:
        """The result off the board and the buttons to resign or abort (see docs/web.md)."""
        if state is not room.state:
            return {}
        out: dict[str, Any] = {}
        forfeits = room.control.forfeits()
        result = room.outcome() if forfeits else None
        if result is not None and result.ended and not room.state.is_terminal():
            out.update(terminal=True, returns=result.returns, winners=result.winners, to_move=None)
        elif result is not None and room.state.is_terminal():
            out.update(returns=result.returns, winners=result.winners)
        out["ending"] = (
            {
                "forfeits": [f.to_dict() for f in forfeits],
                "aborted": bool(result and result.aborted),
                "out": sorted(result.out) if result else [],
            }
            if forfeits
            else None
        )
        ended = room.ended()
        is_player = viewer is not None and viewer in room.humans()
        out["controls"] = {
            "can_resign": is_player and not ended,
            "can_abort": is_player and not ended and self.abort_refusal(room) is None,
        }
        return out

    def record(self, room: Room) -> dict[str, Any]:
        return {"forfeits": room.control.forfeits()}

    @staticmethod
    def abort_refusal(room: Room) -> str | None:
        return abort_refusal(room.state, seat_moves(room))

    async def resign(self, gid: str, cmd: TokenOnly) -> dict[str, Any]:
        room = self.host.get(gid)
        seat = player_of(room, cmd.token, "resign")
        async with room.lock:
            await room.refresh_locked()
            if room.ended():
                raise ServiceError(ErrorCode.GAME_OVER, "the game is over: there is nothing to resign")
            if room.stored.seats[seat]["kind"] != "human":
                raise ServiceError(ErrorCode.SEAT_HANDED, "this seat is already out or played by an AI")
            await forfeit(room, seat, "resigned")
        room.schedule_advance()
        return {"ok": True, "ended": room.ended(), "ply": room.ply()}

    async def abort(self, gid: str, cmd: TokenOnly) -> dict[str, Any]:
        room = self.host.get(gid)
        player_of(room, cmd.token, "abort")
        async with room.lock:
            await room.refresh_locked()
            if room.ended():
                raise ServiceError(ErrorCode.GAME_OVER, "the game is over: there is nothing to abort")
            why = self.abort_refusal(room)
            if why is not None:
                raise ServiceError(ErrorCode.TOO_LATE_TO_ABORT, "abort refused: {why}", why=why)
            for _ in range(CONTROL_TRIES):
                ctl = room.control
                ctl.data["forfeits"].append(Forfeit(None, "aborted", room.ply()).to_dict())
                try:
                    stored = room.store_control("store an abort")
                except ServiceError:
                    ctl.data["forfeits"].pop()
                    raise
                if stored:
                    break
                if room.ended():  # (as another node stored meanwhile)
                    raise ServiceError(ErrorCode.GAME_OVER, "the game is over: there is nothing to abort")
            else:
                raise changed_elsewhere()
            await room.broadcast(sync=True)
        return {"ok": True, "ended": True, "ply": room.ply()}
