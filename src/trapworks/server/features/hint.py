"""Hints: the move an agent would play for the seat on move, and its reason in players' words.

Offered against AI (the seat the only human one) or where the game was created with hints on, in
games that have an agent for them (`trapworks.agents.hint_agent_name`: the game's declared hint
agent, else the "hard" level). The hint agent plays through a SeatPlayer like every AI seat: it
knows what the seat knows.

`hint_agent_name` is the one choice of a hint agent (the server's and the terminal's): the review
of a finished game (server/analysis.py) shows the same agent's choice beside each move of a game
without a judge.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, ClassVar

from fastapi import Query
from pydantic import BaseModel

from trapworks.agents import hint_agent_name
from trapworks.core import Game
from trapworks.core.agent import advice
from trapworks.core.messages import format_message

from ..errors import ErrorCode, ServiceError
from ..messages import HintMessage, HintReplyMessage, TokenOnly
from ..room import Room
from ..seat_player import IllegalChoice, SeatPlayer
from . import Call, Feature, Host

if TYPE_CHECKING:
    from fastapi import APIRouter

__all__ = ["Hint", "hint_agent_name"]


class Hint(Feature):
    name = "hint"
    order = 20
    commands: ClassVar[tuple[type[BaseModel], ...]] = (TokenOnly, HintMessage)  # GET .../hint, socket
    replies: ClassVar[tuple[type[BaseModel], ...]] = (HintReplyMessage,)
    state_fields: ClassVar[dict[str, Any]] = {"can_hint": (bool, False)}

    def routes(self, router: APIRouter) -> None:
        @router.get("/api/games/{gid}/hint", summary="The game's best agent's move for you (where allowed)")
        async def get_hint(gid: str, token: str | None = Query(None)) -> dict[str, Any]:
            return await self.hint(gid, token)

    async def on_message(self, command: HintMessage, call: Call) -> None:
        await call.reply({"type": "hint", **(await self.hint(call.room.id, call.token))})

    def __init__(self, host: Host):
        super().__init__(host)
        self._agents: dict[type, str | None] = {}  # game class -> its hint agent

    def agent_name(self, game: Game) -> str | None:
        kind = type(game)  # the agents on offer are a property of the game's class
        if kind not in self._agents:
            self._agents[kind] = hint_agent_name(game)
        return self._agents[kind]

    def can_hint(self, room: Room, seat: int | None) -> bool:
        return (
            seat is not None
            and room.stored.seats[seat]["kind"] == "human"
            and (room.stored.hints or room.against_ai_only(seat))
            and self.agent_name(room.game) is not None
        )

    def info(self, room: Room) -> dict[str, Any]:
        return {"hints": room.stored.hints}

    def update(self, room: Room, viewer: int | None, state: Any) -> dict[str, Any]:
        player = state.current_player()
        return {"can_hint": self.can_hint(room, viewer) and player == viewer and not room.ended()}

    async def hint(self, gid: str, token: str | None) -> dict[str, Any]:
        room = self.host.get(gid)
        seat = room.seat_for(token)
        if not self.can_hint(room, seat):
            raise ServiceError(
                ErrorCode.NO_HINT,
                "hints are allowed only against AI or when the game was created "
                "with hints on (and the game must have a hint agent)",
            )
        async with room.lock:
            state = room.state.clone()
            ply = room.ply()
        if state.current_player() != seat:
            raise ServiceError(ErrorCode.NOT_YOUR_TURN, "a hint is for your own turn")
        name = self.agent_name(room.game)
        assert name is not None  # hints are offered only in games that have an agent for them
        # The hint knows what this seat knows (server/seat_player.py), like every AI seat.
        helper = SeatPlayer.new(name, room.game, seat, room.key, "hint", ply)
        try:
            action, reason = await asyncio.to_thread(helper.choose_with_reason, state, ply)
        except IllegalChoice:
            raise ServiceError(
                ErrorCode.HINT_FAILED, "the hint agent suggested a move that is not legal here"
            ) from None
        agent = helper.agent
        # Only reasons in players' words are shown (no search statistics, no hidden readings),
        # and only when they add something to the move itself ("Roll the die.").
        text = state.describe_action(action)
        text_msg = state.describe_message(action)
        reason_msg = None
        if not agent.speaks_plainly:
            reason = None
        elif isinstance(reason, dict):
            # A typed reason (issue 37): the page words it from the game's catalog; the English
            # is for API clients.
            reason_msg = reason
            reason = format_message(reason, type(room.game), viewer=seat)
        elif reason:
            reason = advice(reason)
        if reason and reason.rstrip(".").lower() == text.rstrip(".").lower():
            reason = reason_msg = None
        return {
            "ok": True,
            "move": state.action_to_string(action),  # for the board (renderers mark it)
            "text": text,  # for people: the kernel's words (English)
            "text_msg": text_msg,  # the same, typed (None: the game has no typed words for it)
            "explanation": reason,
            "explanation_msg": reason_msg,
            "ply": ply,
        }
