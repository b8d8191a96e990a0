"""Moderation (issue 41): a moderator role (granted with `trapworks admin grant-moderator NAME`),
the moderation page (/mod): the reports queue, a player's history, chat lines in their context,
and the actions warn, mute for a time, ban (for a time or for good), unban, close a report. Every
action is written to the audit log in the same transaction as the action itself.

Enforced here, through hooks the rest of the server calls:
- a ban at log-in (`check_login`, called by Accounts.login), and a ban ends the player's sessions;
- a mute in the game chat (`check_chat`, called by the chat feature before a line is stored).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field
from sqlalchemy import delete, or_, select, update

from ..accounts.models import AccountGameRow, AccountSeatRow, SessionRow
from ..errors import ErrorCode, ServiceError
from ..store import ChatRow
from .core import Community, aware, iso, now, refusal
from .models import AuditRow, ReportRow, SanctionRow
from .pages import page

MAX_MUTE_MINUTES = 30 * 24 * 60
MAX_BAN_DAYS = 3650
CONTEXT_LINES = 10  # chat lines shown before and after a reported one


class Action(BaseModel):
    reason: str = Field(min_length=1, max_length=300)
    minutes: int | None = Field(None, ge=1, le=MAX_MUTE_MINUTES, description="a mute's length")
    days: int | None = Field(None, ge=1, le=MAX_BAN_DAYS, description="a ban's length (none: for good)")
    report: int | None = Field(None, ge=1, le=2**53, description="the report this answers (closed with it)")


class Close(BaseModel):
    resolution: str = Field(min_length=1, max_length=200)


def _sanctioned(code: ErrorCode, until: Any, reason: str) -> ServiceError:
    """The refusal of a banned or muted player: one sentence for good, one until a date (each a
    message of its own: no English word put into a French sentence)."""
    until = aware(until)
    banned = code == ErrorCode.BANNED
    if until is None:
        template = (
            "this account is banned for good: {reason}"
            if banned
            else ("a moderator muted you for good: {reason}")
        )
        return refusal(code, template, reason=reason)
    template = (
        "this account is banned until {until} UTC: {reason}"
        if banned
        else ("a moderator muted you until {until} UTC: {reason}")
    )
    return refusal(code, template, until=until.strftime("%Y-%m-%d %H:%M"), reason=reason)


class Moderation:
    def __init__(self, community: Community):
        self.c = community

    # --- enforcement (hooks) ------------------------------------------------------------------------
    def active(self, account_id: int, kind: str) -> SanctionRow | None:
        t = now()
        with self.c.db() as s:
            rows = s.scalars(
                select(SanctionRow).where(
                    SanctionRow.account_id == account_id,
                    SanctionRow.kind == kind,
                    SanctionRow.lifted.is_(False),
                )
            ).all()
        live = [r for r in rows if r.until is None or (aware(r.until) or t) > t]
        live.sort(key=lambda r: (r.until is not None, aware(r.until) or t), reverse=False)
        return live[0] if live else None

    def check_login(self, account_id: int) -> None:
        ban = self.active(account_id, "ban")
        if ban is not None:
            raise _sanctioned(ErrorCode.BANNED, ban.until, ban.reason)

    def check_chat(self, game_id: str, seat: int | None, viewer: Any = None, author: Any = ...) -> None:
        """Refuses a line from a muted player: the account holding the writer's seat, or the
        account logged in behind the socket (a spectator writing in a game open to their chat).
        `author`: the line's author as the chat found it already (safety.py `author_of`: the
        seat's holder, else `viewer`), so a line costs one seat-holder query; not given, it is
        looked up."""
        holder = self.c.seat_holder(game_id, seat) if author is ... else author
        writers = {w for w in (viewer, holder) if isinstance(w, int)}
        for account_id in sorted(writers):
            mute = self.active(account_id, "mute")
            if mute is not None:
                raise _sanctioned(ErrorCode.MUTED, mute.until, mute.reason)

    # --- the moderators -------------------------------------------------------------------------------
    def moderator(self, request: Request) -> Any:
        who = self.c.current(request)
        if not self.c.is_moderator(who.account_id):
            raise ServiceError(ErrorCode.NOT_MODERATOR, "this is for moderators")
        return who

    def acting_moderator(self, request: Request) -> Any:
        who = self.c.acting(request)
        if not self.c.is_moderator(who.account_id):
            raise ServiceError(ErrorCode.NOT_MODERATOR, "this is for moderators")
        return who

    def act(self, who: Any, username: str, kind: str, body: Action) -> dict[str, Any]:
        target, name = self.c.player(username)
        if target == who.account_id:
            raise ServiceError(ErrorCode.MODERATE_SELF, "a moderator does not act on their own account")
        if kind == "mute" and body.minutes is None:
            raise ServiceError(ErrorCode.MUTE_NEEDS_MINUTES, "a mute needs its length: minutes")
        t = now()
        until = (
            t + timedelta(minutes=body.minutes)
            if kind == "mute" and body.minutes
            else t + timedelta(days=body.days)
            if kind == "ban" and body.days
            else None
        )
        with self.c.db.begin() as s:
            if body.report is not None:
                report = s.get(ReportRow, body.report)
                if report is None or report.target_id != target:
                    raise refusal(
                        ErrorCode.NO_SUCH_REPORT,
                        "no report {report} about {name}",
                        report=body.report,
                        name=name,
                    )
            row = SanctionRow(
                account_id=target,
                kind=kind,
                reason=body.reason.strip(),
                by_id=who.account_id,
                created=t,
                until=until,
            )
            s.add(row)
            if kind == "ban":  # the banned player's browsers are logged out now, not at their next log-in
                s.execute(delete(SessionRow).where(SessionRow.account_id == target))
            if body.report is not None:
                s.execute(
                    update(ReportRow)
                    .where(ReportRow.id == body.report)
                    .values(
                        status="closed",
                        closed_by=who.account_id,
                        resolution=f"{kind}: {body.reason.strip()}"[:200],
                    )
                )
            self.c.audit(
                s,
                who.account_id,
                who.username,
                kind,
                target,
                name,
                {"reason": body.reason.strip(), "until": iso(until), "report": body.report},
            )
        return {"ok": True, "kind": kind, "username": name, "until": iso(until)}

    def unban(self, who: Any, username: str) -> dict[str, Any]:
        target, name = self.c.player(username)
        with self.c.db.begin() as s:
            done = s.execute(
                update(SanctionRow)
                .where(
                    SanctionRow.account_id == target,
                    SanctionRow.kind.in_(("ban", "mute")),
                    SanctionRow.lifted.is_(False),
                )
                .values(lifted=True)
            )
            if not done.rowcount:
                raise refusal(ErrorCode.NOT_SANCTIONED, "{name} is neither banned nor muted", name=name)
            self.c.audit(s, who.account_id, who.username, "lift", target, name, {})
        return {"ok": True, "username": name}

    def close(self, who: Any, report_id: int, resolution: str) -> None:
        with self.c.db.begin() as s:
            report = s.get(ReportRow, report_id)
            if report is None:
                raise refusal(ErrorCode.NO_SUCH_REPORT, "no report {report}", report=report_id)
            if report.status != "open":
                raise refusal(ErrorCode.REPORT_CLOSED, "report {report} is closed already", report=report_id)
            report.status, report.closed_by, report.resolution = "closed", who.account_id, resolution.strip()
            self.c.audit(
                s,
                who.account_id,
                who.username,
                "close-report",
                report.target_id,
                None,
                {"report": report_id, "resolution": resolution.strip()},
            )

    # --- reading --------------------------------------------------------------------------------------
    def _reports(self, rows: list[ReportRow]) -> list[dict[str, Any]]:
        names = self.c.names({r.reporter_id for r in rows} | {r.target_id for r in rows})
        return [
            {
                "id": r.id,
                "reporter": names.get(r.reporter_id),
                "username": names.get(r.target_id),
                "reason": r.reason,
                "details": r.details,
                "game_id": r.game_id,
                "chat_line": r.chat_line,
                "chat_text": r.chat_text,
                "status": r.status,
                "resolution": r.resolution,
                "created": iso(r.created),
            }
            for r in rows
        ]

    def queue(self, status: str = "open", limit: int = 100) -> list[dict[str, Any]]:
        with self.c.db() as s:
            rows = list(
                s.scalars(
                    select(ReportRow).where(ReportRow.status == status).order_by(ReportRow.id).limit(limit)
                ).all()
            )
        return self._reports(rows)

    def history(self, username: str) -> dict[str, Any]:
        target, name = self.c.player(username)
        with self.c.db() as s:
            sanctions = s.scalars(
                select(SanctionRow).where(SanctionRow.account_id == target).order_by(SanctionRow.id.desc())
            ).all()
            reports = list(
                s.scalars(
                    select(ReportRow)
                    .where(or_(ReportRow.target_id == target, ReportRow.reporter_id == target))
                    .order_by(ReportRow.id.desc())
                    .limit(100)
                ).all()
            )
            games = s.execute(
                select(
                    AccountSeatRow.game_id, AccountSeatRow.seat, AccountGameRow.game, AccountGameRow.status
                )
                .join(AccountGameRow, AccountGameRow.game_id == AccountSeatRow.game_id)
                .where(AccountSeatRow.account_id == target)
                .order_by(AccountSeatRow.joined.desc())
                .limit(50)
            ).all()
            lines = (
                s.execute(
                    select(ChatRow)
                    .join(
                        AccountSeatRow,
                        (AccountSeatRow.game_id == ChatRow.game_id) & (AccountSeatRow.seat == ChatRow.seat),
                    )
                    .where(AccountSeatRow.account_id == target)
                    .order_by(ChatRow.pk.desc())
                    .limit(50)
                )
                .scalars()
                .all()
            )
        by = self.c.names({r.by_id for r in sanctions if r.by_id})
        t = now()
        return {
            "username": name,
            "moderator": self.c.is_moderator(target),
            "banned": self.active(target, "ban") is not None,
            "muted": self.active(target, "mute") is not None,
            "sanctions": [
                {
                    "id": r.id,
                    "kind": r.kind,
                    "reason": r.reason,
                    "by": by.get(r.by_id) if r.by_id else None,
                    "created": iso(r.created),
                    "until": iso(r.until),
                    "active": not r.lifted
                    and (r.until is None or (aware(r.until) or t) > t)
                    and r.kind != "warn",
                }
                for r in sanctions
            ],
            "reports": self._reports(reports),
            "games": [{"id": g, "seat": seat, "game": game, "status": st} for g, seat, game, st in games],
            "chat": [{"id": c.pk, "game_id": c.game_id, "text": c.text, "at": iso(c.at)} for c in lines],
        }

    def chat_context(self, game_id: str, line: int | None) -> dict[str, Any]:
        with self.c.db() as s:
            q = select(ChatRow).where(ChatRow.game_id == game_id)
            if line is not None:
                q = q.where(ChatRow.pk >= line - 10_000)  # bounded scan; the window is cut below
            rows = list(s.scalars(q.order_by(ChatRow.pk)).all())
            seats = dict(
                s.execute(
                    select(AccountSeatRow.seat, AccountSeatRow.account_id).where(
                        AccountSeatRow.game_id == game_id
                    )
                ).all()
            )
        if not rows:
            raise refusal(ErrorCode.NO_CHAT, "game {game} has no chat lines", game=game_id[:32])
        if line is not None:
            at = next((i for i, r in enumerate(rows) if r.pk == line), None)
            if at is None:
                raise refusal(
                    ErrorCode.NO_SUCH_LINE,
                    "game {game} has no chat line {line}",
                    game=game_id[:32],
                    line=line,
                )
            rows = rows[max(0, at - CONTEXT_LINES) : at + CONTEXT_LINES + 1]
        else:
            rows = rows[-2 * CONTEXT_LINES :]
        names = self.c.names(set(seats.values()))
        return {
            "game_id": game_id,
            "lines": [
                {
                    "id": r.pk,
                    "seat": r.seat,
                    "name": r.name,
                    "account": names.get(seats.get(r.seat)) if r.seat is not None else None,  # type: ignore[arg-type]
                    "text": r.text,
                    "at": iso(r.at),
                    "reported": r.pk == line,
                }
                for r in rows
            ],
        }

    def audit_log(self, limit: int = 200) -> list[dict[str, Any]]:
        with self.c.db() as s:
            rows = s.scalars(select(AuditRow).order_by(AuditRow.id.desc()).limit(limit)).all()
        return [
            {"at": iso(r.at), "actor": r.actor, "action": r.action, "target": r.target, "detail": r.detail}
            for r in rows
        ]

    def notices(self, account_id: int) -> list[dict[str, Any]]:
        """A player's warnings not yet read and their mute or ban in force (then marked read)."""
        t = now()
        with self.c.db.begin() as s:
            rows = s.scalars(
                select(SanctionRow).where(SanctionRow.account_id == account_id, SanctionRow.lifted.is_(False))
            ).all()
            out = []
            for r in rows:
                in_force = r.kind != "warn" and (r.until is None or (aware(r.until) or t) > t)
                if (r.kind == "warn" and not r.seen) or in_force:
                    out.append(
                        {"kind": r.kind, "reason": r.reason, "until": iso(r.until), "created": iso(r.created)}
                    )
                if r.kind == "warn":
                    r.seen = True
        return out


def build_router(community: Community, moderation: Moderation) -> APIRouter:
    router = APIRouter(tags=["community: moderation"])

    @router.get("/mod", include_in_schema=False)
    async def mod_page() -> FileResponse:
        return page("mod.html")

    @router.get("/api/community/me", summary="Your role and the moderators' notices to you")
    async def me(request: Request):
        who = community.current(request)
        return {
            "username": who.username,
            "moderator": community.is_moderator(who.account_id),
            "notices": moderation.notices(who.account_id),
        }

    @router.get("/api/mod/reports", summary="Moderators: the reports queue (oldest first)")
    async def reports(request: Request, status: str = Query("open", pattern="^(open|closed)$")):
        moderation.moderator(request)
        return {"reports": moderation.queue(status)}

    @router.get(
        "/api/mod/players/{username}", summary="Moderators: a player's sanctions, reports, games, chat"
    )
    async def history(username: str, request: Request):
        moderation.moderator(request)
        return moderation.history(username)

    @router.get("/api/mod/chat/{game_id}", summary="Moderators: a game's chat around a line")
    async def chat(game_id: str, request: Request, line: int | None = Query(None, ge=1, le=2**53)):
        moderation.moderator(request)
        return moderation.chat_context(game_id[:32], line)

    @router.get("/api/mod/audit", summary="Moderators: the audit log (newest first)")
    async def audit(request: Request):
        moderation.moderator(request)
        return {"audit": moderation.audit_log()}

    for kind in ("warn", "mute", "ban"):

        def _route(kind: str = kind) -> None:
            @router.post(f"/api/mod/players/{{username}}/{kind}", summary=f"Moderators: {kind} a player")
            async def act(username: str, body: Action, request: Request):
                who = moderation.acting_moderator(request)
                return moderation.act(who, username, kind, body)

        _route()

    @router.post("/api/mod/players/{username}/lift", summary="Moderators: end a player's ban and mute")
    async def lift(username: str, request: Request):
        who = moderation.acting_moderator(request)
        return moderation.unban(who, username)

    @router.post("/api/mod/reports/{report_id}/close", summary="Moderators: close a report")
    async def close(report_id: Annotated[int, Path(ge=1, le=2**53)], body: Close, request: Request):
        who = moderation.acting_moderator(request)
        moderation.close(who, report_id, body.resolution)
        return {"ok": True}

    return router
