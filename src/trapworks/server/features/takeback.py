"""Takeback offers between human players, like lichess's `Takebacker`.

In a game with two or more human seats, a player proposes to take back their last move (and
everything played after it); every other human seat accepts or declines. Once all have accepted,
the moves are taken back by the one way back undo uses (features/undo.py `rewind`: the store's
rows first, then the room's copy, then everyone sent the game again). Against AI only, undo does
this without asking (one human seat: nobody to ask).

- The fair-play policy of undo applies (core.record.undo_refusal): no takeback after the end, and
  none across a revealed outcome (a die, a card, a physics result) unless the game was created as
  practice: a takeback that re-tried a removal after seeing it settle is unfair even agreed to, and
  in a game with hidden information the outcome has been seen.
- One offer at a time. A move played meanwhile, the end of the game or the proposer's seat handed
  to an AI makes an offer void (it was for a position that is gone).
- Declined offers cannot be spammed: after a decline the proposer waits DECLINED_WAIT_S x (their
  declined offers)^2 seconds before proposing again, and after MAX_DECLINED declined offers may not
  propose in this game any more. Cancelling one's own offer costs nothing.

The offer and the declines are the control document's `takeback` (stored before anyone is told,
so they hold across a restart and between the nodes of a cluster); every seat's update carries
`takeback` ({offer, can_propose, can_answer}); the page's part is js/takeback.js.
Socket: {"type": "takeback", "action": "propose" | "accept" | "decline" | "cancel"}, answered with
an ack; HTTP: POST /api/games/{gid}/takeback {token, action}.
"""

from __future__ import annotations

import copy
import time
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import BaseModel, Field

from trapworks.core import undo_refusal
from trapworks.core.words import Said

from ..errors import ErrorCode, ServiceError
from ..messages import ERROR_REPLIES, MAX_TOKEN, ControlReply, Ref
from ..room import CONTROL_TRIES, Room
from . import Call, Feature, Setup
from .resign import changed_elsewhere
from .undo import rewind

if TYPE_CHECKING:
    from fastapi import APIRouter

MAX_DECLINED = 3  # declined offers a seat may make in one game
DECLINED_WAIT_S = 20.0  # after n declined offers, wait this x n^2 seconds before the next

Action = Literal["propose", "accept", "decline", "cancel"]


class TakebackCommand(BaseModel):
    token: str = Field(max_length=MAX_TOKEN, description="your seat token")
    action: Action = Field(description="propose, accept, decline (another's offer) or cancel (your own)")


class TakebackMessage(BaseModel):
    type: Literal["takeback"]
    action: Action = Field(description="propose, accept, decline (another's offer) or cancel (your own)")
    ref: Ref


class Takeback(Feature):
    name = "takeback"
    order = 15  # after undo and hint, before resign
    commands: ClassVar[tuple[type[BaseModel], ...]] = (TakebackCommand, TakebackMessage)
    state_fields: ClassVar[dict[str, Any]] = {
        "takeback": (
            dict[str, Any] | None,
            Field(
                None,
                description="takeback offers between players: {offer: {by, accepted, needed} or null, "
                "can_propose, can_answer}; null where the game has fewer than two human seats",
            ),
        )
    }
    script = "js/takeback.js"
    translations: ClassVar[dict[str, dict[str, str]]] = {
        "fr": {
            "Propose a takeback": "Proposer de reprendre",
            "{who} proposes to take back their last move.": "{who} propose de reprendre son dernier coup.",
            "You proposed to take back your last move: waiting for the others.": (
                "Vous avez proposé de reprendre votre dernier coup : en attente des autres."
            ),
            "Accept the takeback": "Accepter la reprise",
            "Decline the takeback": "Refuser la reprise",
            "Cancel your offer": "Annuler votre proposition",
            "takeback offers are for games between two or more human players (against AI, use undo)": (
                "les reprises se proposent entre deux joueurs humains ou plus (contre l'IA, utilisez annuler)"
            ),
            "a spectator cannot take part in a takeback": "un spectateur ne prend pas part à une reprise",
            "this seat is played by an AI now: no takeback for it": (
                "ce siège est joué par une IA désormais : pas de reprise pour lui"
            ),
            "the game is over: there is no takeback after the end": (
                "la partie est finie : pas de reprise après la fin"
            ),
            "you have no move to take back": "vous n'avez aucun coup à reprendre",
            "takeback refused: {refusal}": "reprise refusée : {refusal}",
            "you already proposed a takeback: wait for the answer or cancel it": (
                "vous avez déjà proposé une reprise : attendez la réponse ou annulez-la"
            ),
            "{who} proposed a takeback: accept or decline it first": (
                "{who} a proposé une reprise : acceptez-la ou refusez-la d'abord"
            ),
            "your takeback offers were declined {n} times: no more offers in this game": (
                "vos propositions de reprise ont été refusées {n} fois : "
                "plus de proposition dans cette partie"
            ),
            "your last takeback offer was declined: wait {wait} s before the next": (
                "votre dernière proposition de reprise a été refusée : attendez {wait} s avant la suivante"
            ),
            "there is no takeback offer to answer": (
                "il n'y a pas de proposition de reprise à laquelle répondre"
            ),
            "this is your own offer: cancel it instead": "c'est votre propre proposition : annulez-la plutôt",
            "you have no takeback offer to cancel": "vous n'avez pas de proposition de reprise à annuler",
        }
    }

    # --- its state ------------------------------------------------------------------------------
    def control(self, setup: Setup) -> dict[str, Any]:
        """`takeback`: the open offer ({by, ply, steps, accepted}) and each seat's declined offers
        ({seat: {count, at}}, `at` a Unix time)."""
        return {"takeback": {"offer": None, "declined": {}}}

    @staticmethod
    def between_players(room: Room) -> bool:
        return len(room.humans()) >= 2

    @staticmethod
    def offer(room: Room) -> dict[str, Any] | None:
        """The open offer, None where there is none or it is void (a move played since, the game
        over, the proposer's seat handed to an AI)."""
        offer: dict[str, Any] | None = room.control.data["takeback"]["offer"]
        if offer is None or offer["ply"] != room.ply() or room.ended() or offer["by"] not in room.humans():
            return None
        return offer

    @staticmethod
    def steps(room: Room, seat: int) -> tuple[int | None, str | None]:
        """(actions to take back: the seat's last move and everything after, why not)."""
        last = next((p for p in range(len(room.log) - 1, -1, -1) if room.log[p][0] == seat), None)
        if last is None:
            return None, Said("you have no move to take back")
        steps = room.ply() - last
        # Undo's fair-play policy, as against AI: no revealed outcome taken back outside practice.
        return steps, undo_refusal(room.state, steps, against_ai=True, practice=room.stored.practice)

    def update(self, room: Room, viewer: int | None, state: Any) -> dict[str, Any]:
        if state is not room.state:
            return {}
        if not self.between_players(room):
            return {"takeback": None}
        offer = self.offer(room)
        player = viewer is not None and viewer in room.humans() and not room.ended()
        shown = None
        if offer is not None:
            needed = [s for s in room.humans() if s != offer["by"]]
            shown = {"by": offer["by"], "accepted": list(offer["accepted"]), "needed": needed}
        return {
            "takeback": {
                "offer": shown,
                "can_propose": player and offer is None and self._proposal_refusal(room, viewer) is None,
                "can_answer": player and offer is not None and viewer not in offer["accepted"],
            }
        }

    # --- its commands ---------------------------------------------------------------------------
    def routes(self, router: APIRouter) -> None:
        @router.post(
            "/api/games/{gid}/takeback",
            response_model=ControlReply,
            responses=ERROR_REPLIES,
            summary="Propose a takeback to the other players, accept or decline theirs, or cancel yours",
        )
        async def takeback(gid: str, body: TakebackCommand) -> dict[str, Any]:
            room = await self.act(gid, body.token, body.action)
            return {"ok": True, "ended": room.ended(), "ply": room.ply()}

    async def on_message(self, command: TakebackMessage, call: Call) -> None:
        room = await self.act(call.room.id, call.token, command.action)
        await call.ack(room.ply())

    async def act(self, gid: str, token: str | None, action: Action) -> Room:
        """One seat's takeback action, stored, then everyone told (the moves taken back once every
        other human seat has accepted). The room."""
        room = self.host.get(gid)
        seat = room.seat_for(token)
        if seat is None:
            raise ServiceError(ErrorCode.SPECTATOR, "a spectator cannot take part in a takeback")
        if not self.between_players(room):
            raise ServiceError(
                ErrorCode.NO_TAKEBACK,
                "takeback offers are for games between two or more human players (against AI, use undo)",
            )
        if seat not in room.humans():
            raise ServiceError(ErrorCode.SEAT_HANDED, "this seat is played by an AI now: no takeback for it")
        async with room.lock:
            await room.refresh_locked()
            steps = self._decide(room, seat, action)
            if steps is None:
                await room.broadcast()
            else:
                await rewind(room, steps, "takeback")
        room.schedule_advance()
        return room

    def _decide(self, room: Room, seat: int, action: Action) -> int | None:
        """The action made in the control document and stored (on the stored one again where
        another node changed it meanwhile); the actions to take back now, if any. The caller
        holds the lock."""
        for _ in range(CONTROL_TRIES):
            part = room.control.data["takeback"]
            before = copy.deepcopy(part)
            try:
                steps = getattr(self, f"_{action}")(room, seat, part)
                stored = room.store_control(f"store a takeback {action}")
            except ServiceError:
                room.control.data["takeback"] = before  # refused, or not stored: nothing changed
                raise
            if stored:
                return steps
        raise changed_elsewhere()

    def _proposal_refusal(self, room: Room, seat: int | None) -> ServiceError | None:
        if seat is None or room.ended():
            return ServiceError(ErrorCode.GAME_OVER, "the game is over: there is no takeback after the end")
        declined = room.control.data["takeback"]["declined"].get(str(seat))
        if declined is not None:
            n = declined["count"]
            if n >= MAX_DECLINED:
                return ServiceError(
                    ErrorCode.TAKEBACK_DECLINED,
                    "your takeback offers were declined {n} times: no more offers in this game",
                    n=n,
                )
            wait = DECLINED_WAIT_S * n * n - (time.time() - declined["at"])
            if wait > 0:
                wait = round(wait)
                return ServiceError(
                    ErrorCode.TAKEBACK_TOO_SOON,
                    "your last takeback offer was declined: wait {wait} s before the next",
                    wait=wait,
                )
        steps, refusal = self.steps(room, seat)
        if steps is None:
            return ServiceError(ErrorCode.NOTHING_TO_TAKE_BACK, "you have no move to take back")
        if refusal is not None:
            return ServiceError(ErrorCode.TAKEBACK_REFUSED, "takeback refused: {refusal}", refusal=refusal)
        return None

    def _propose(self, room: Room, seat: int, part: dict[str, Any]) -> int | None:
        offer = self.offer(room)
        if offer is not None and offer["by"] == seat:
            raise ServiceError(
                ErrorCode.OFFER_PENDING, "you already proposed a takeback: wait for the answer or cancel it"
            )
        if offer is not None:
            who = {"seat": offer["by"], "label": room.seat_label(offer["by"])}
            raise ServiceError(
                ErrorCode.OFFER_PENDING, "{who} proposed a takeback: accept or decline it first", who=who
            )
        refusal = self._proposal_refusal(room, seat)
        if refusal is not None:
            raise refusal
        steps, _ = self.steps(room, seat)
        part["offer"] = {"by": seat, "ply": room.ply(), "steps": steps, "accepted": [seat]}
        return None

    def _answerable(self, room: Room, seat: int) -> dict[str, Any]:
        offer = self.offer(room)
        if offer is None:
            raise ServiceError(ErrorCode.NO_OFFER, "there is no takeback offer to answer")
        if offer["by"] == seat:
            raise ServiceError(ErrorCode.OWN_OFFER, "this is your own offer: cancel it instead")
        return offer

    def _accept(self, room: Room, seat: int, part: dict[str, Any]) -> int | None:
        offer = self._answerable(room, seat)
        if seat not in offer["accepted"]:
            offer["accepted"].append(seat)
        if not set(room.humans()) <= set(offer["accepted"]):
            return None  # others still to answer
        part["offer"] = None
        steps, refusal = self.steps(room, offer["by"])  # the policy again, on the game now
        if steps is None:
            raise ServiceError(ErrorCode.NOTHING_TO_TAKE_BACK, "you have no move to take back")
        if refusal is not None:
            raise ServiceError(ErrorCode.TAKEBACK_REFUSED, "takeback refused: {refusal}", refusal=refusal)
        return steps

    def _decline(self, room: Room, seat: int, part: dict[str, Any]) -> int | None:
        offer = self._answerable(room, seat)
        by = str(offer["by"])
        count = part["declined"].get(by, {}).get("count", 0) + 1
        part["declined"][by] = {"count": count, "at": time.time()}
        part["offer"] = None
        return None

    def _cancel(self, room: Room, seat: int, part: dict[str, Any]) -> int | None:
        offer = self.offer(room)
        if offer is None or offer["by"] != seat:
            raise ServiceError(ErrorCode.NO_OFFER, "you have no takeback offer to cancel")
        part["offer"] = None
        return None
