"""Challenges (issue 41): challenge a named player to a game (its options, a clock, rated or not);
they accept, decline or let it expire; you may cancel it while it is open.

A challenge is a row (status open) until answered. Accepting makes the game (every seat an
account's: rated when asked) and answers the challenge in one conditional UPDATE ... WHERE
status = 'open', so a challenge is answered once even when both players act at the same moment
on two nodes. A challenge to or from a player who blocks the other is refused with the reason;
an expired or answered one cannot be answered again (410 / 409, and nothing changes).
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Request
from pydantic import Field
from sqlalchemy import or_, select, update

from ..accounts.base import variant_of, variant_parts
from ..accounts.clocks import ClockChoice
from ..errors import ErrorCode, ServiceError
from .core import Community, aware, iso, now, refusal
from .models import ChallengeRow

LIVE_EXPIRY_S = 10 * 60  # an open challenge with a live clock (or none) waits this long
CORRESPONDENCE_EXPIRY_S = 3 * 86400
MAX_OPEN_SENT = 10  # open challenges one player may have sent at once


# A challenge answered before: each status its own sentence (no English word put into a French one).
ANSWERED_ALREADY = {
    "accepted": "this challenge was accepted already",
    "declined": "this challenge was declined already",
    "cancelled": "this challenge was cancelled already",
    "expired": "this challenge has expired",
    "failed": "this challenge's game could not be made",
}


class ChallengeBody(ClockChoice):
    username: str = Field(max_length=64, description="the player you challenge")
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    rated: bool = False
    seat: int | None = Field(None, ge=0, le=15, description="your seat (default: chosen at random)")
    expires_in_s: int | None = Field(
        None, ge=10, le=CORRESPONDENCE_EXPIRY_S, description="how long it stays open"
    )


class Challenges:
    def __init__(self, community: Community):
        self.c = community
        self.on_sent: list[Any] = []  # callbacks (challenge dict) for the notices (mail)

    def send(self, account_id: int, username: str, body: ChallengeBody) -> dict[str, Any]:
        target, name = self.c.other(
            account_id, body.username, refusal(ErrorCode.CHALLENGE_SELF, "you cannot challenge yourself")
        )
        if self.c.blocks(target, account_id):
            raise refusal(ErrorCode.BLOCKED, "{name} does not accept challenges from you", name=name)
        if self.c.blocks(account_id, target):
            raise refusal(ErrorCode.BLOCKING, "you block {name}: unblock them to challenge them", name=name)
        game = self.c.service.make_game(body.game, body.options)  # unknown game or bad options: 4xx
        n = game.num_players()
        if n != 2:
            raise ServiceError(
                ErrorCode.TWO_PLAYERS_ONLY,
                "a challenge is between two players; these options make a {n}-player game",
                n=n,
            )
        if body.seat is not None and body.seat >= n:
            raise refusal(
                ErrorCode.BAD_SEAT, "seat {seat}: this game has seats 0 to {last}", seat=body.seat, last=n - 1
            )
        clock = body.clock()
        wait = body.expires_in_s or (CORRESPONDENCE_EXPIRY_S if body.days_per_move else LIVE_EXPIRY_S)
        self._expire()
        created = now()
        with self.c.db.begin() as s:
            open_sent = s.scalars(
                select(ChallengeRow.id).where(
                    ChallengeRow.challenger_id == account_id, ChallengeRow.status == "open"
                )
            ).all()
            if len(open_sent) >= MAX_OPEN_SENT:
                raise ServiceError(
                    ErrorCode.TOO_MANY_CHALLENGES,
                    "you have {MAX_OPEN_SENT} open challenges: cancel some first",
                    MAX_OPEN_SENT=MAX_OPEN_SENT,
                )
            row = ChallengeRow(
                id=secrets.token_urlsafe(9),
                challenger_id=account_id,
                challenged_id=target,
                game=game.game_id,
                options=game.public_options(),
                rated=body.rated,
                clock=clock,
                seat=body.seat,
                status="open",
                created=created,
                expires=created + timedelta(seconds=wait),
            )
            s.add(row)
        out = self._describe(row, {account_id: username, target: name}, account_id)
        for notify in self.on_sent:
            notify(row)
        return out

    def _expire(self) -> None:
        with self.c.db.begin() as s:
            s.execute(
                update(ChallengeRow)
                .where(ChallengeRow.status == "open", ChallengeRow.expires <= now())
                .values(status="expired")
            )

    def _get(self, challenge_id: str) -> ChallengeRow:
        with self.c.db() as s:
            row = s.get(ChallengeRow, challenge_id[:16])
        if row is None:
            raise ServiceError(ErrorCode.NO_SUCH_CHALLENGE, "no such challenge")
        return row

    def _answer(self, row: ChallengeRow, status: str, **values: Any) -> None:
        """Move an open challenge to `status`, once (a conditional UPDATE); the reason otherwise."""
        if row.status == "open" and (aware(row.expires) or now()) <= now():
            self._expire()
            raise ServiceError(ErrorCode.CHALLENGE_EXPIRED, "this challenge has expired")
        if row.status == "expired":
            raise ServiceError(ErrorCode.CHALLENGE_EXPIRED, "this challenge has expired")
        if row.status != "open":
            raise ServiceError(
                ErrorCode.CHALLENGE_ANSWERED, ANSWERED_ALREADY.get(row.status, ANSWERED_ALREADY["accepted"])
            )
        with self.c.db.begin() as s:
            done = s.execute(
                update(ChallengeRow)
                .where(ChallengeRow.id == row.id, ChallengeRow.status == "open", ChallengeRow.expires > now())
                .values(status=status, answered=now(), **values)
            )
        if done.rowcount != 1:
            raise ServiceError(ErrorCode.CHALLENGE_ANSWERED, "this challenge was answered meanwhile")

    async def accept(self, account_id: int, challenge_id: str) -> dict[str, Any]:
        row = self._get(challenge_id)
        if row.challenged_id != account_id:
            raise ServiceError(
                ErrorCode.NOT_YOUR_CHALLENGE, "only the challenged player may accept this challenge"
            )
        if self.c.blocked_between(row.challenger_id, row.challenged_id):
            raise ServiceError(
                ErrorCode.BLOCKED, "one of you blocks the other: this challenge cannot be played"
            )
        # Claimed before the game is made: a second accept (another tab, another node) finds it taken.
        self._answer(row, "accepted")
        mine = row.seat if row.seat is not None else secrets.randbelow(2)
        holders = (
            [row.challenger_id, row.challenged_id] if mine == 0 else [row.challenged_id, row.challenger_id]
        )
        try:
            live = await self.c.make_game(row.game, row.options, holders, row.clock, rated=row.rated)
        except ServiceError as e:
            with self.c.db.begin() as s:  # the game could not be made: said, not left half-accepted
                s.execute(update(ChallengeRow).where(ChallengeRow.id == row.id).values(status="failed"))
            raise ServiceError(e.status, e.code, "the game could not be made: {why}", why=e) from None
        with self.c.db.begin() as s:
            s.execute(
                update(ChallengeRow)
                .where(ChallengeRow.id == row.id)
                .values(game_id=live.id, challenger_seat=mine)
            )
        token = live.stored.seats[1 - mine]["token"]
        return {"ok": True, "game_id": live.id, "seat": 1 - mine, "link": f"/g/{live.id}#t={token}"}

    def decline(self, account_id: int, challenge_id: str) -> None:
        row = self._get(challenge_id)
        if row.challenged_id != account_id:
            raise ServiceError(
                ErrorCode.NOT_YOUR_CHALLENGE, "only the challenged player may decline this challenge"
            )
        self._answer(row, "declined")

    def cancel(self, account_id: int, challenge_id: str) -> None:
        row = self._get(challenge_id)
        if row.challenger_id != account_id:
            raise ServiceError(ErrorCode.NOT_YOUR_CHALLENGE, "only who sent this challenge may cancel it")
        self._answer(row, "cancelled")

    def _describe(self, row: ChallengeRow, names: dict[int, str], viewer: int) -> dict[str, Any]:
        status = row.status
        if status == "open" and (aware(row.expires) or now()) <= now():
            status = "expired"
        out: dict[str, Any] = {
            "id": row.id,
            "from": names.get(row.challenger_id),
            "to": names.get(row.challenged_id),
            "game": row.game,
            "options": row.options,
            # the variant in the page's language (variantText): a challenge reads as a sentence
            "variant_parts": variant_parts(variant_of({"players": 2, **(row.options or {})}), row.game),
            "rated": row.rated,
            "clock": row.clock,
            "status": status,
            "created": iso(row.created),
            "expires": iso(row.expires),
            "game_id": row.game_id,
            "link": None,
        }
        if row.game_id and row.challenger_seat is not None:
            seat = row.challenger_seat if viewer == row.challenger_id else 1 - row.challenger_seat
            try:  # the viewer's own seat link (their seat's token: sent only to them)
                token = self.c.service.get(row.game_id).stored.seats[seat]["token"]
                out["link"] = f"/g/{row.game_id}#t={token}"
            except ServiceError:
                out["link"] = None
        return out

    def listing(self, account_id: int, limit: int = 30) -> dict[str, Any]:
        self._expire()
        with self.c.db() as s:
            rows = s.scalars(
                select(ChallengeRow)
                .where(
                    or_(ChallengeRow.challenger_id == account_id, ChallengeRow.challenged_id == account_id)
                )
                .order_by(ChallengeRow.created.desc())
                .limit(limit)
            ).all()
        names = self.c.names({r.challenger_id for r in rows} | {r.challenged_id for r in rows})
        described = [self._describe(r, names, account_id) for r in rows]
        return {
            "incoming": [d for r, d in zip(rows, described, strict=True) if r.challenged_id == account_id],
            "outgoing": [d for r, d in zip(rows, described, strict=True) if r.challenger_id == account_id],
        }


def build_router(community: Community, challenges: Challenges) -> APIRouter:
    router = APIRouter(tags=["community: challenges"])

    @router.post("/api/community/challenges", status_code=201, summary="Challenge a named player")
    async def send(body: ChallengeBody, request: Request):
        who = community.acting(request)
        return {"ok": True, "challenge": challenges.send(who.account_id, who.username, body)}

    @router.get("/api/community/challenges", summary="Challenges you sent and received (newest first)")
    async def listing(request: Request):
        who = community.current(request)
        return challenges.listing(who.account_id)

    @router.post("/api/community/challenges/{challenge_id}/accept", summary="Accept: the game is made")
    async def accept(challenge_id: str, request: Request):
        who = community.acting(request)
        return await challenges.accept(who.account_id, challenge_id)

    @router.post("/api/community/challenges/{challenge_id}/decline", summary="Decline a challenge")
    async def decline(challenge_id: str, request: Request):
        who = community.acting(request)
        challenges.decline(who.account_id, challenge_id)
        return {"ok": True}

    @router.post("/api/community/challenges/{challenge_id}/cancel", summary="Withdraw your challenge")
    async def cancel(challenge_id: str, request: Request):
        who = community.acting(request)
        challenges.cancel(who.account_id, challenge_id)
        return {"ok": True}

    return router
