"""Undo: in a game against AI (the seat the only human one), take back the seat's last move and
everything after it, by the one undo policy shared with the terminal (core.record.undo_refusal:
no undo after the end, nor of a chance or physics outcome already seen outside practice)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, Field

from trapworks.core import undo, undo_refusal
from trapworks.core.words import Said

from ..errors import ErrorCode, ServiceError
from ..messages import TokenOnly, UndoMessage
from ..room import Room
from . import Call, Feature

if TYPE_CHECKING:
    from fastapi import APIRouter


class Undo(Feature):
    name = "undo"
    order = 10
    commands: ClassVar[tuple[type[BaseModel], ...]] = (TokenOnly, UndoMessage)  # POST .../undo, socket
    state_fields: ClassVar[dict[str, Any]] = {
        "can_undo": (bool, False),
        "undo_why": (
            dict[str, Any] | None,
            Field(
                None,
                description="why this seat may not undo now, as a typed message ({msg, args}: the page "
                "words it on the Undo button); null where it may, or is a spectator",
            ),
        ),
    }

    def routes(self, router: APIRouter) -> None:
        @router.post("/api/games/{gid}/undo", summary="Take back your last move (against AI only)")
        async def post_undo(gid: str, body: TokenOnly) -> dict[str, Any]:
            return {"ok": True, "ply": await self.undo(gid, body.token)}

    async def on_message(self, command: UndoMessage, call: Call) -> None:
        await call.ack(await self.undo(call.room.id, call.token))

    def info(self, room: Room) -> dict[str, Any]:
        # A practice game: undo may take back chance and physics outcomes already seen.
        return {"practice": room.stored.practice}

    def update(self, room: Room, viewer: int | None, state: Any) -> dict[str, Any]:
        steps, refusal = self.steps(room, viewer)  # once: both fields read it
        ended = room.ended()
        return {
            "can_undo": steps is not None and refusal is None and not ended,
            "undo_why": self.why_not(viewer, ended, refusal),
        }

    @staticmethod
    def steps(room: Room, seat: int | None) -> tuple[int | None, str | None]:
        """(actions to take back, why not)."""
        if not room.against_ai_only(seat):
            return None, Said("undo is only for a game against AI (you the only human seat)")
        # From the end: in a game against AI the seat's own last move is a few plies back.
        keep = next((p for p in range(len(room.log) - 1, -1, -1) if room.log[p][0] == seat), None)
        if keep is None:
            return None, Said("you have no move to take back")
        steps = room.ply() - keep
        return steps, undo_refusal(room.state, steps, against_ai=True, practice=room.stored.practice)

    @staticmethod
    def why_not(seat: int | None, ended: bool, refusal: str | None) -> dict[str, Any] | None:
        """Why `seat` may not undo now (`refusal`: the policy's, from steps()), typed for the page
        (issue 39: a greyed-out Undo said nothing)."""
        if seat is None:
            return None
        why: str | None = Said("the game is over: there is no undo after the end") if ended else refusal
        if why is None:
            return None
        if isinstance(why, Said):
            return {"msg": why.msg, "args": dict(why.values)}
        return {"msg": str(why), "args": {}}

    def can_undo(self, room: Room, seat: int | None) -> bool:
        steps, refusal = self.steps(room, seat)
        return steps is not None and refusal is None and not room.ended()

    async def undo(self, gid: str, token: str | None) -> int:
        """Take back this seat's last move and everything after it; the ply now."""
        room = self.host.get(gid)
        seat = room.seat_for(token)
        if not room.against_ai_only(seat):
            raise ServiceError(
                ErrorCode.NO_UNDO, "undo is only for a game against AI (you the only human seat)"
            )
        async with room.lock:
            if room.ended():
                raise ServiceError(ErrorCode.GAME_OVER, "undo refused: there is no undo after the end")
            steps, refusal = self.steps(room, seat)
            if steps is None:
                raise ServiceError(ErrorCode.NOTHING_TO_UNDO, "you have no move to take back")
            if refusal is not None:
                code = ErrorCode.GAME_OVER if room.state.is_terminal() else ErrorCode.OUTCOME_REVEALED
                raise ServiceError(code, "undo refused: {refusal}", refusal=refusal)
            await rewind(room, steps, "undo")
            return room.ply()


async def rewind(room: Room, steps: int, what: str) -> None:
    """Take back the last `steps` actions (stored first: the store's rows are cut, then the room's
    copy), and send everyone the game again. The caller holds the room's lock and has checked the
    fair-play policy (core.record.undo_refusal). Undo's and takeback's one way back."""
    assert room.host is not None, "a room rewinds only inside a service"
    keep = room.ply() - steps
    new_state = undo(room.state, steps)
    try:
        room.host.store.truncate_actions(room.id, keep)
    except Exception as e:
        raise room.host.store_failed(f"{what} in game {room.id}", e) from None
    for key in [k for k in room.sent_texts if k[1] >= keep]:
        del room.sent_texts[key]
    room.state = new_state
    del room.log[keep:]
    del room.stories[keep:]
    room.failed = None
    await room.broadcast(sync=True, rewound=True)
