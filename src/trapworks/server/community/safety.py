"""Protection between players (issue 41): block, personal mute, report.

- Block: the blocked player can no longer challenge you, be paired with you by the quick game, or
  follow you; follows both ways and open challenges between you end.
- Mute: you stop seeing a player's chat lines, wherever they write them (from a seat, or as a
  logged-in spectator) and wherever you read (your seat's sockets, or a game you watch logged in),
  on every node: each line is stored with its author's account (`author_of`), and the chat
  (features/chat.py) sends it to none of its muters' sockets (`mutes_in`); it does not silence
  them for others (a moderator's mute does: moderation.py).
- Report: a reason and, where it concerns one, the game and the chat line; the line is copied as
  it was, so the moderators read what was reported even if the game goes.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field
from sqlalchemy import delete, or_, select, update

from ..accounts.models import AccountSeatRow
from ..errors import ErrorCode, ServiceError
from ..store import ChatRow
from .core import Community, Named, iso, now, refusal
from .models import BlockRow, ChallengeRow, FollowRow, MuteRow, ReportRow

REASONS = ("abuse", "cheating", "spam", "stalling", "other")
MAX_DETAILS = 1000
MAX_OPEN_REPORTS_PER_PLAYER = 20  # a reporter's open reports: more wait until some are closed


class ReportBody(BaseModel):
    username: str = Field(max_length=64)
    reason: str = Field(max_length=32, description=f"one of {', '.join(REASONS)}")
    details: str = Field("", max_length=MAX_DETAILS)
    game_id: str | None = Field(None, max_length=32)
    chat_line: int | None = Field(None, ge=1, le=2**53, description="the chat line's id (in the game given)")


class Safety:
    def __init__(self, community: Community):
        self.c = community

    def block(self, account_id: int, username: str) -> str:
        target, name = self.c.other(
            account_id, username, refusal(ErrorCode.BLOCK_SELF, "you cannot block yourself")
        )
        with self.c.db.begin() as s:
            if s.get(BlockRow, (account_id, target)) is None:
                s.add(BlockRow(blocker_id=account_id, blocked_id=target, created=now()))
            s.execute(
                delete(FollowRow).where(
                    or_(
                        (FollowRow.follower_id == account_id) & (FollowRow.followee_id == target),
                        (FollowRow.follower_id == target) & (FollowRow.followee_id == account_id),
                    )
                )
            )
            s.execute(
                update(ChallengeRow)
                .where(
                    ChallengeRow.status == "open",
                    or_(
                        (ChallengeRow.challenger_id == account_id) & (ChallengeRow.challenged_id == target),
                        (ChallengeRow.challenger_id == target) & (ChallengeRow.challenged_id == account_id),
                    ),
                )
                .values(status="cancelled", answered=now())
            )
        return name

    def unblock(self, account_id: int, username: str) -> str:
        target, name = self.c.player(username)
        with self.c.db.begin() as s:
            gone = s.execute(
                delete(BlockRow).where(BlockRow.blocker_id == account_id, BlockRow.blocked_id == target)
            )
        if not gone.rowcount:
            raise refusal(ErrorCode.NOT_BLOCKED, "you do not block {name}", name=name)
        return name

    def mute(self, account_id: int, username: str) -> str:
        target, name = self.c.other(
            account_id, username, refusal(ErrorCode.MUTE_SELF, "you cannot mute yourself")
        )
        with self.c.db.begin() as s:
            if s.get(MuteRow, (account_id, target)) is None:
                s.add(MuteRow(muter_id=account_id, muted_id=target, created=now()))
        return name

    def author_of(self, game_id: str, seat: int | None, viewer: Any) -> int | None:
        """The account a chat line is written by: the holder of the writer's seat, else the
        account logged in behind the socket (a spectator), else nobody known."""
        holder = self.c.seat_holder(game_id, seat)
        if holder is not None:
            return holder
        return viewer if isinstance(viewer, int) else None

    def mutes_in(self, game_id: str, viewers: set[Any]) -> tuple[dict[int, set[int]], dict[int, set[int]]]:
        """Whom they mute: each of `viewers` (the accounts behind a game's sockets, seated or
        watching) and the holder of each seat of game `game_id` (a socket of that seat may be
        opened by its link, logged in or not). The chat (features/chat.py) sends a line to none
        of the sockets whose account, or whose seat's holder, mutes the line's author."""
        ids = {v for v in viewers if isinstance(v, int)}
        with self.c.db() as s:
            holders = s.execute(
                select(AccountSeatRow.seat, AccountSeatRow.account_id).where(
                    AccountSeatRow.game_id == game_id
                )
            ).all()
            muters = ids | {int(a) for _, a in holders}
            rows = (
                s.execute(
                    select(MuteRow.muter_id, MuteRow.muted_id).where(MuteRow.muter_id.in_(muters))
                ).all()
                if muters
                else []
            )
        muted: dict[int, set[int]] = {}
        for muter, target in rows:
            muted.setdefault(int(muter), set()).add(int(target))
        by_viewer = {v: muted[v] for v in ids if v in muted}
        by_seat = {int(seat): muted[int(a)] for seat, a in holders if int(a) in muted}
        return by_viewer, by_seat

    def unmute(self, account_id: int, username: str) -> str:
        target, name = self.c.player(username)
        with self.c.db.begin() as s:
            gone = s.execute(
                delete(MuteRow).where(MuteRow.muter_id == account_id, MuteRow.muted_id == target)
            )
        if not gone.rowcount:
            raise refusal(ErrorCode.NOT_MUTED, "you do not mute {name}", name=name)
        return name

    def lists(self, account_id: int) -> dict[str, Any]:
        with self.c.db() as s:
            blocked = set(
                s.scalars(select(BlockRow.blocked_id).where(BlockRow.blocker_id == account_id)).all()
            )
            muted = set(s.scalars(select(MuteRow.muted_id).where(MuteRow.muter_id == account_id)).all())
            reports = s.scalars(
                select(ReportRow)
                .where(ReportRow.reporter_id == account_id)
                .order_by(ReportRow.id.desc())
                .limit(20)
            ).all()
        names = self.c.names(blocked | muted | {r.target_id for r in reports})
        return {
            "blocked": sorted((names[i] for i in blocked if i in names), key=str.casefold),
            "muted": sorted((names[i] for i in muted if i in names), key=str.casefold),
            "reports": [
                {
                    "id": r.id,
                    "username": names.get(r.target_id),
                    "reason": r.reason,
                    "status": r.status,
                    "created": iso(r.created),
                }
                for r in reports
            ],
        }

    def report(self, account_id: int, body: ReportBody) -> int:
        target, name = self.c.other(
            account_id, body.username, refusal(ErrorCode.REPORT_SELF, "you cannot report yourself")
        )
        if body.reason not in REASONS:
            raise ServiceError(
                ErrorCode.BAD_REASON,
                "reason {reason}: one of {reasons}",
                reason=repr(body.reason[:32]),
                reasons=", ".join(REASONS),
            )
        if body.chat_line is not None and not body.game_id:
            raise ServiceError(
                ErrorCode.CHAT_LINE_NEEDS_GAME, "a reported chat line needs its game (game_id)"
            )
        chat_text = None
        with self.c.db() as s:
            if body.game_id:
                seats = dict(
                    s.execute(
                        select(AccountSeatRow.seat, AccountSeatRow.account_id).where(
                            AccountSeatRow.game_id == body.game_id
                        )
                    ).all()
                )
                if target not in seats.values():
                    raise refusal(
                        ErrorCode.NOT_IN_GAME, "{name} did not play game {game}", name=name, game=body.game_id
                    )
            if body.chat_line is not None:
                line = s.get(ChatRow, body.chat_line)
                if line is None or line.game_id != body.game_id:
                    raise refusal(
                        ErrorCode.NO_SUCH_LINE,
                        "game {game} has no chat line {line}",
                        game=body.game_id,
                        line=body.chat_line,
                    )
                if line.seat is None or seats.get(line.seat) != target:
                    raise refusal(
                        ErrorCode.NOT_THEIR_LINE,
                        "chat line {line} was not written by {name}",
                        line=body.chat_line,
                        name=name,
                    )
                chat_text = line.text
            mine = len(
                s.scalars(
                    select(ReportRow.id).where(
                        ReportRow.reporter_id == account_id, ReportRow.status == "open"
                    )
                ).all()
            )
        if mine >= MAX_OPEN_REPORTS_PER_PLAYER:
            raise ServiceError(
                ErrorCode.TOO_MANY_REPORTS,
                "you have {mine} reports waiting for a moderator: wait until they are read",
                mine=mine,
            )
        with self.c.db.begin() as s:
            row = ReportRow(
                reporter_id=account_id,
                target_id=target,
                reason=body.reason,
                details=body.details.strip(),
                game_id=body.game_id,
                chat_line=body.chat_line,
                chat_text=chat_text,
                status="open",
                created=now(),
            )
            s.add(row)
            s.flush()
            return row.id


def build_router(community: Community, safety: Safety) -> APIRouter:
    router = APIRouter(tags=["community: safety"])

    @router.get("/api/community/safety", summary="Whom you block and mute, your recent reports")
    async def lists(request: Request):
        who = community.current(request)
        return safety.lists(who.account_id)

    @router.post("/api/community/block", summary="Block a player (no challenge, pairing or follow)")
    async def block(body: Named, request: Request):
        who = community.acting(request)
        return {"ok": True, "blocked": safety.block(who.account_id, body.username)}

    @router.post("/api/community/unblock", summary="Unblock a player")
    async def unblock(body: Named, request: Request):
        who = community.acting(request)
        return {"ok": True, "unblocked": safety.unblock(who.account_id, body.username)}

    @router.post("/api/community/mute", summary="Hide a player's chat lines from yourself")
    async def mute(body: Named, request: Request):
        who = community.acting(request)
        return {"ok": True, "muted": safety.mute(who.account_id, body.username)}

    @router.post("/api/community/unmute", summary="See a player's chat lines again")
    async def unmute(body: Named, request: Request):
        who = community.acting(request)
        return {"ok": True, "unmuted": safety.unmute(who.account_id, body.username)}

    @router.post("/api/community/report", status_code=201, summary="Report a player to the moderators")
    async def report(body: ReportBody, request: Request):
        who = community.acting(request)
        return {"ok": True, "report": safety.report(who.account_id, body)}

    return router
