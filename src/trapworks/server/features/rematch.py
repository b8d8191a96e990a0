"""Rematch: once every human seat of a finished game accepts, the same game again.

Same game, options, hints, practice, clock and hand-over wait; everyone one seat along. The
acceptances and the new game's id are the control document's `rematch` (stored before anyone is
told); each player's page is sent its own new link.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, Field

from ..errors import ServiceError
from ..messages import ERROR_REPLIES, ClockSpec, CreateGame, RematchReply, SeatSpec, TokenOnly
from ..room import CONTROL_TRIES, Room
from . import Feature, Setup
from .resign import changed_elsewhere, player_of

if TYPE_CHECKING:
    from fastapi import APIRouter


class Rematch(Feature):
    name = "rematch"
    order = 50
    commands: ClassVar[tuple[type[BaseModel], ...]] = (TokenOnly,)  # POST .../rematch
    state_fields: ClassVar[dict[str, Any]] = {
        "rematch": (
            dict[str, Any] | None,
            Field(
                None,
                description="{accepted: seats, needed: seats, game: new id or null, "
                "link: your new link or null}",
            ),
        )
    }

    def control(self, setup: Setup) -> dict[str, Any]:
        """`rematch` (the seats that accepted, the new game once made) and `rematch_of`."""
        return {"rematch": {"accepted": [], "game": None}, "rematch_of": setup.rematch_of}

    def routes(self, router: APIRouter) -> None:
        @router.post(
            "/api/games/{gid}/rematch",
            response_model=RematchReply,
            responses=ERROR_REPLIES,
            summary="Accept a rematch of a finished game; made once every human seat accepted",
        )
        async def rematch(gid: str, body: TokenOnly) -> dict[str, Any]:
            return await self.rematch(gid, body)

    def update(self, room: Room, viewer: int | None, state: Any) -> dict[str, Any]:
        if state is not room.state:
            return {}
        rematch = room.control.data["rematch"]
        humans = room.humans()
        return {
            "controls": {"can_rematch": viewer is not None and room.ended() and viewer in humans},
            "rematch": {
                "accepted": list(rematch["accepted"]),
                "needed": humans,
                "game": rematch["game"],
                "link": self._rematch_link(room, viewer),
            },
        }

    def info(self, room: Room) -> dict[str, Any]:
        return {"rematch_of": room.control.data["rematch_of"]}

    def _rematch_link(self, room: Room, viewer: int | None) -> str | None:
        new_id = room.control.data["rematch"]["game"]
        if not new_id:
            return None
        try:
            new = self.host.get(new_id)
        except ServiceError:
            return None
        if viewer is None:
            return f"/g/{new_id}#t={new.stored.spectator_token}"
        n = len(room.stored.seats)
        token = new.stored.seats[(viewer + 1) % n].get("token")
        return f"/g/{new_id}#t={token}" if token else f"/g/{new_id}#t={new.stored.spectator_token}"

    async def rematch(self, gid: str, cmd: TokenOnly) -> dict[str, Any]:
        """This seat accepts a rematch; once every human seat has, the new game is created (same
        game, options, hints, practice and clock; everyone one seat along) and each player's
        page is sent its own new link."""
        room = self.host.get(gid)
        seat = player_of(room, cmd.token, "ask for a rematch")
        async with room.lock:
            await room.refresh_locked()
            if not room.ended():
                raise ServiceError(409, "not_over", "a rematch is for a finished game; this one is still on")
            humans = room.humans()
            if seat not in humans:
                raise ServiceError(409, "seat_handed", "this seat is played by an AI now: no rematch for it")
            made: str | None = None  # a rematch made here (never made twice)
            for _ in range(CONTROL_TRIES):
                # (on the stored document again where another node changed it meanwhile: its
                # acceptances are kept, and a rematch it made is the rematch)
                rematch = room.control.data["rematch"]
                if rematch["game"] is not None:
                    break
                if seat not in rematch["accepted"]:
                    rematch["accepted"].append(seat)
                if set(humans) <= set(rematch["accepted"]):
                    rematch["game"] = made = made or await self._create_rematch(room)
                try:
                    stored = room.store_control("store a rematch")
                except ServiceError:
                    if rematch["game"] is None:
                        rematch["accepted"].remove(seat)
                    raise
                if stored:
                    await room.broadcast(sync=True)
                    break
            else:
                raise changed_elsewhere()
            rematch = room.control.data["rematch"]
        return {
            "ok": True,
            "accepted": list(rematch["accepted"]),
            "game": rematch["game"],
            "link": self._rematch_link(room, seat),
        }

    async def _create_rematch(self, room: Room) -> str:
        n = len(room.stored.seats)
        seats: list[dict[str, Any]] = [{}] * n
        for i, s in enumerate(room.stored.seats):
            entry = {"kind": s["kind"], "agent": s["agent"], "name": s.get("name") or ""}
            seats[(i + 1) % n] = entry
        d = room.control.data
        clock = d["clock"]
        request = CreateGame(
            game=room.stored.game,
            options=dict(room.stored.options),
            seats=[SeatSpec(kind=s["kind"], agent=s["agent"], name=s["name"] or None) for s in seats],
            hints=room.stored.hints,
            practice=room.stored.practice,
            # The same people play again: not listed as an open table, spectators as before.
            spectator_chat=room.stored.spectator_chat,
            clock=ClockSpec(**{**clock, "ai_level": clock["ai_level"] or "easy"}) if clock else None,
            hand_over_after=d["hand_over_after"],
        )
        new = await self.host.create(request, rematch_of=room.id)
        return new.id

    # --- seats whose player has gone ----------------------------------------------------------
