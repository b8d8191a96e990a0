"""E-mail (issue 41): `trapworks serve --smtp smtp://user:pass@host:port` sends mail through that
server (STARTTLS where it offers it; `smtps://` for a server that speaks TLS from the start).
Without --smtp every e-mail feature is hidden: GET /api/community/mail says `enabled: false`
and the other mail routes answer 404 `mail_disabled`.

- An address is confirmed by opening the link mailed to it (single use, CONFIRM_HOURS).
- A forgotten password: a reset link mailed to the account's confirmed address, single use,
  RESET_MINUTES; the new password ends every session of the account. The answer to "forgot" is
  the same whether or not the account exists (no one learns who has an address).
- Correspondence reminders: a player whose move has waited REMIND_AFTER_S in a game of a day or
  more per move is mailed once for that move (table community_reminders: once in a cluster).
- Challenge notices: a challenge received, mailed.
- Each mail in the player's language (en, fr), with an unsubscribe link (reminders and notices
  stop; a reset still comes).

Mail goes through a queue in the database (community_mail_outbox): a request only adds a row,
never waits for the SMTP server. A sender task on every node claims due rows (a conditional
UPDATE: a mail goes out once) and sends them in a thread; a failure (the server unreachable) is
retried later, the wait growing, so nothing is lost and the queue survives a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
import secrets
import smtplib
import ssl
import time
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage
from typing import Any
from urllib.parse import unquote, urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field
from sqlalchemy import delete, or_, select, update
from sqlalchemy.exc import IntegrityError

from ..accounts.credentials import BadCredentials, check_password, hash_password
from ..accounts.models import AccountGameRow, AccountRow, AccountSeatRow, SessionRow
from ..errors import ErrorCode, ServiceError
from .core import Community, aware, now
from .mail_texts import LANGUAGES, render
from .models import ChallengeRow, MailAddressRow, MailTokenRow, OutboxRow, ReminderRow
from .pages import page

log = logging.getLogger("trapworks.mail")

CONFIRM_HOURS = 48
RESET_MINUTES = 30
REMIND_AFTER_S = 6 * 3600  # a move waiting this long in a correspondence game: a reminder
CORRESPONDENCE_S = 86400  # a clock of at least this many seconds a move is correspondence
SEND_EVERY_S = 2.0  # the sender looks at the queue this often (and at once when a mail is added)
SCAN_EVERY_S = 60.0  # the reminders are looked for this often
RETRY_S = (5, 15, 60, 300, 900, 3600)  # waits after the 1st, 2nd, ... failure
MAX_ATTEMPTS = 30  # then the mail is marked failed
CLAIM_S = 120.0  # a claim of a node that stopped while sending lapses after this long
BATCH = 20
SMTP_TIMEOUT_S = 20.0
ADDRESS = re.compile(
    r"^[^@\s<>()\[\],;:\"]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+$"
)
DISABLED = "this server sends no e-mail (it was started without --smtp)"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# A mailed link refused: each purpose its own sentences (no English word put into a French one).
LINK_WORDS = {
    "confirm": {
        "bad": "this confirmation link is not valid (mistyped, or replaced by a newer one)",
        "used": "this confirmation link was used already: it works once",
        "expired": "this confirmation link has expired: ask for a new one",
    },
    "reset": {
        "bad": "this password reset link is not valid (mistyped, or replaced by a newer one)",
        "used": "this password reset link was used already: it works once",
        "expired": "this password reset link has expired: ask for a new one",
    },
}


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int
    user: str | None
    password: str | None
    implicit_tls: bool
    sender: str

    def describe(self) -> str:
        """Where mail goes, without the password (for logs and messages)."""
        scheme = "smtps" if self.implicit_tls else "smtp"
        return f"{scheme}://{self.user + '@' if self.user else ''}{self.host}:{self.port}"


def parse_smtp_url(url: str, sender: str | None = None) -> SmtpSettings:
    """smtp://[user[:password]@]host[:port] (STARTTLS where offered) or smtps://... (TLS from the
    start); `?from=address` sets the sender. A ValueError names what is wrong."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps"):
        raise ValueError(f"--smtp {parts.scheme or url!r}: use smtp://user:pass@host:port or smtps://...")
    if not parts.hostname:
        raise ValueError("--smtp: the URL names no host (smtp://user:pass@host:port)")
    try:
        port = parts.port or (465 if parts.scheme == "smtps" else 25)
    except ValueError:
        raise ValueError("--smtp: the port is not a number from 1 to 65535") from None
    query = dict(p.split("=", 1) for p in parts.query.split("&") if "=" in p)
    return SmtpSettings(
        host=parts.hostname,
        port=port,
        user=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
        implicit_tls=parts.scheme == "smtps",
        sender=sender or unquote(query.get("from", "")) or f"trapworks@{parts.hostname}",
    )


def deliver(settings: SmtpSettings, to: str, subject: str, body: str) -> None:
    """Send one mail (blocking: called in a thread). STARTTLS when the server offers it; the
    password is never sent in the clear to a server that is not on this machine."""
    msg = EmailMessage()
    msg["From"] = settings.sender
    msg["To"] = to
    msg["Subject"] = subject
    msg.set_content(body)
    context = ssl.create_default_context()
    smtp: smtplib.SMTP
    if settings.implicit_tls:
        smtp = smtplib.SMTP_SSL(settings.host, settings.port, timeout=SMTP_TIMEOUT_S, context=context)
    else:
        smtp = smtplib.SMTP(settings.host, settings.port, timeout=SMTP_TIMEOUT_S)
    with smtp:
        smtp.ehlo()
        secure = settings.implicit_tls
        if not secure and smtp.has_extn("starttls"):
            smtp.starttls(context=context)
            smtp.ehlo()
            secure = True
        if settings.user:
            if not secure and settings.host not in ("127.0.0.1", "::1", "localhost"):
                raise smtplib.SMTPException(
                    "the server offers no STARTTLS: the password is not sent in the clear"
                )
            smtp.login(settings.user, settings.password or "")
        smtp.send_message(msg)


class AddressBody(BaseModel):
    address: str = Field(max_length=254)
    language: str = Field("en", max_length=8)


class SettingsBody(BaseModel):
    language: str | None = Field(None, max_length=8)
    reminders: bool | None = None


class TokenBody(BaseModel):
    token: str = Field(max_length=200)


class ForgotBody(BaseModel):
    username: str = Field(max_length=64)


class ResetBody(BaseModel):
    token: str = Field(max_length=200)
    password: str = Field(max_length=1024)


class Mail:
    def __init__(self, community: Community):
        self.c = community
        self.settings: SmtpSettings | None = None
        self.remind_after_s = REMIND_AFTER_S
        self.scan_every_s = SCAN_EVERY_S
        self.send_every_s = SEND_EVERY_S
        self.retry_s = RETRY_S
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task] = []
        self.node = secrets.token_hex(6)

    @property
    def enabled(self) -> bool:
        return self.settings is not None

    def need(self) -> SmtpSettings:
        if self.settings is None:
            raise ServiceError(ErrorCode.MAIL_DISABLED, DISABLED)
        return self.settings

    # --- the queue -----------------------------------------------------------------------------------
    def queue(self, to: str, kind: str, subject: str, body: str) -> int:
        """Add a mail to the outbox (committed on return); the sender sends it soon."""
        with self.c.db.begin() as s:
            row = OutboxRow(
                to_address=to,
                subject=subject[:200],
                body=body,
                kind=kind,
                status="waiting",
                attempts=0,
                next_try=time.time(),
                created=now(),
            )
            s.add(row)
            s.flush()
            mail_id = row.id
        with contextlib.suppress(RuntimeError):  # no loop (a thread): the sender's next look finds it
            asyncio.get_running_loop().call_soon(self._wake.set)
        return mail_id

    def _claim(self) -> list[OutboxRow]:
        t = time.time()
        claim = secrets.token_hex(8)
        with self.c.db.begin() as s:
            ids = s.scalars(
                select(OutboxRow.id)
                .where(
                    OutboxRow.status == "waiting",
                    OutboxRow.next_try <= t,
                    or_(OutboxRow.claim.is_(None), OutboxRow.claimed_until < t),
                )
                .order_by(OutboxRow.id)
                .limit(BATCH)
            ).all()
            if not ids:
                return []
            s.execute(
                update(OutboxRow)
                .where(
                    OutboxRow.id.in_(ids),
                    OutboxRow.status == "waiting",
                    or_(OutboxRow.claim.is_(None), OutboxRow.claimed_until < t),
                )
                .values(claim=claim, claimed_until=t + CLAIM_S)
            )
            return list(s.scalars(select(OutboxRow).where(OutboxRow.claim == claim)).all())

    def send_due(self) -> int:
        """Send what is due (blocking: in a thread); how many were sent."""
        settings = self.settings
        if settings is None:
            return 0
        sent = 0
        for row in self._claim():
            try:
                deliver(settings, row.to_address, row.subject, row.body)
            except (OSError, smtplib.SMTPException) as e:
                attempts = row.attempts + 1
                wait = self.retry_s[min(attempts, len(self.retry_s)) - 1]
                error = f"{type(e).__name__}: {e}"[:300]
                log.warning("mail %d not sent (attempt %d, next in %d s): %s", row.id, attempts, wait, error)
                with self.c.db.begin() as s:
                    s.execute(
                        update(OutboxRow)
                        .where(OutboxRow.id == row.id)
                        .values(
                            attempts=attempts,
                            next_try=time.time() + wait,
                            claim=None,
                            last_error=error,
                            status="failed" if attempts >= MAX_ATTEMPTS else "waiting",
                        )
                    )
                continue
            sent += 1
            with self.c.db.begin() as s:
                s.execute(
                    update(OutboxRow)
                    .where(OutboxRow.id == row.id)
                    .values(status="sent", sent=now(), attempts=row.attempts + 1, claim=None, last_error=None)
                )
        return sent

    async def _sender(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=self.send_every_s)
            self._wake.clear()
            try:
                await asyncio.to_thread(self.send_due)
            except Exception as e:  # the database away for a moment: the next look tries again
                log.error("mail sender: %s", type(e).__name__)

    async def _reminders(self) -> None:
        while True:
            try:
                await self.remind_due()
            except Exception as e:
                log.error("mail reminders: %s: %s", type(e).__name__, e)
            await asyncio.sleep(self.scan_every_s)

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        if self.settings is None or (self._tasks and self._tasks[0].get_loop() is loop):
            return
        log.warning("mail: sending through %s", self.settings.describe())
        self._wake = asyncio.Event()  # of this loop (an app may be started again on another one)
        self._tasks = [asyncio.create_task(self._sender()), asyncio.create_task(self._reminders())]

    async def stop(self) -> None:
        tasks, self._tasks = self._tasks, []
        mine = [t for t in tasks if t.get_loop() is asyncio.get_running_loop()]
        for task in mine:
            task.cancel()
        for task in mine:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # --- addresses ---------------------------------------------------------------------------------
    def _address(self, account_id: int) -> MailAddressRow | None:
        with self.c.db() as s:
            return s.get(MailAddressRow, account_id)

    def _new_token(self, s: Any, account_id: int, purpose: str, address: str, life: timedelta) -> str:
        token = secrets.token_urlsafe(32)
        s.execute(  # one live link of a kind per account: an older one stops working
            delete(MailTokenRow).where(MailTokenRow.account_id == account_id, MailTokenRow.purpose == purpose)
        )
        s.add(
            MailTokenRow(
                token_hash=token_hash(token),
                account_id=account_id,
                purpose=purpose,
                address=address,
                expires=now() + life,
            )
        )
        return token

    def set_address(self, account_id: int, username: str, body: AddressBody, base: str) -> dict[str, Any]:
        self.need()
        address = body.address.strip()
        if not ADDRESS.match(address):
            raise ServiceError(
                ErrorCode.BAD_ADDRESS,
                "{address} is not an e-mail address (name@example.org)",
                address=repr(address[:60]),
            )
        if body.language not in LANGUAGES:
            raise ServiceError(
                ErrorCode.BAD_LANGUAGE,
                "language {language}: one of {languages}",
                language=repr(body.language[:8]),
                languages=", ".join(LANGUAGES),
            )
        key = secrets.token_urlsafe(24)
        with self.c.db.begin() as s:
            row = s.get(MailAddressRow, account_id)
            if row is None:
                row = MailAddressRow(account_id=account_id)
                s.add(row)
            row.address, row.confirmed, row.language, row.unsubscribed = address, False, body.language, False
            row.unsubscribe_hash, row.base, row.updated = token_hash(key), base, now()
            token = self._new_token(s, account_id, "confirm", address, timedelta(hours=CONFIRM_HOURS))
        subject, text = render(
            "confirm",
            body.language,
            {
                "username": username,
                "address": address,
                "hours": CONFIRM_HOURS,
                "link": f"{base}/mail#confirm={token}",
            },
            None,
        )
        self.queue(address, "confirm", subject, text)
        return self.describe(account_id)

    def describe(self, account_id: int) -> dict[str, Any]:
        row = self._address(account_id)
        out: dict[str, Any] = {"enabled": self.enabled}
        if row is not None and self.enabled:
            out.update(
                address=row.address,
                confirmed=row.confirmed,
                language=row.language,
                reminders=not row.unsubscribed,
            )
        return out

    def change_settings(self, account_id: int, body: SettingsBody) -> dict[str, Any]:
        self.need()
        if body.language is not None and body.language not in LANGUAGES:
            raise ServiceError(
                ErrorCode.BAD_LANGUAGE,
                "language {language}: one of {languages}",
                language=repr(body.language[:8]),
                languages=", ".join(LANGUAGES),
            )
        with self.c.db.begin() as s:
            row = s.get(MailAddressRow, account_id)
            if row is None:
                raise ServiceError(ErrorCode.NO_ADDRESS, "give your e-mail address first")
            if body.language is not None:
                row.language = body.language
            if body.reminders is not None:
                row.unsubscribed = not body.reminders
        return self.describe(account_id)

    def _use_token(self, token: str, purpose: str) -> MailTokenRow:
        """The link's row, marked used (once: a conditional UPDATE); 410 for a used or expired one."""
        h = token_hash(token)
        with self.c.db() as s:
            row = s.get(MailTokenRow, h)
        if row is None or row.purpose != purpose:
            raise ServiceError(ErrorCode.BAD_LINK, LINK_WORDS[purpose]["bad"])
        if row.used is not None:
            raise ServiceError(ErrorCode.LINK_USED, LINK_WORDS[purpose]["used"])
        if (aware(row.expires) or now()) <= now():
            raise ServiceError(ErrorCode.LINK_EXPIRED, LINK_WORDS[purpose]["expired"])
        with self.c.db.begin() as s:
            done = s.execute(
                update(MailTokenRow)
                .where(MailTokenRow.token_hash == h, MailTokenRow.used.is_(None))
                .values(used=now())
            )
        if done.rowcount != 1:
            raise ServiceError(ErrorCode.LINK_USED, LINK_WORDS[purpose]["used"])
        return row

    def confirm(self, token: str) -> str:
        self.need()
        row = self._use_token(token, "confirm")
        with self.c.db.begin() as s:
            address = s.get(MailAddressRow, row.account_id)
            if address is None or address.address != row.address:
                raise ServiceError(
                    ErrorCode.LINK_EXPIRED, "this address was changed since: confirm the new one"
                )
            address.confirmed = True
        return row.address

    def forgot(self, username: str) -> None:
        """Mail a reset link to the account's confirmed address, if it has one (the answer is the
        same either way)."""
        self.need()
        try:
            account_id, name = self.c.player(username)
        except ServiceError:
            return
        with self.c.db.begin() as s:
            address = s.get(MailAddressRow, account_id)
            if address is None or not address.confirmed:
                return
            token = self._new_token(s, account_id, "reset", address.address, timedelta(minutes=RESET_MINUTES))
            to, language, base = address.address, address.language, address.base
        subject, text = render(
            "reset",
            language,
            {"username": name, "minutes": RESET_MINUTES, "link": f"{base}/mail#reset={token}"},
            None,
        )
        self.queue(to, "reset", subject, text)

    def reset(self, token: str, password: str) -> str:
        """Set the new password (the link used once); every session of the account ends."""
        self.need()
        h = token_hash(token)
        with self.c.db() as s:
            pending = s.get(MailTokenRow, h)
            name = (
                s.scalar(select(AccountRow.username).where(AccountRow.id == pending.account_id))
                if pending
                else None
            )
        if pending is not None and name is not None and pending.used is None:
            try:  # a weak password is refused before the link is spent
                check_password(password, name)
            except BadCredentials as e:
                raise ServiceError(ErrorCode.of(e.code), e.message) from None
        row = self._use_token(token, "reset")
        new_hash = hash_password(password)
        with self.c.db.begin() as s:
            s.execute(
                update(AccountRow).where(AccountRow.id == row.account_id).values(password_hash=new_hash)
            )
            s.execute(delete(SessionRow).where(SessionRow.account_id == row.account_id))
        log.info("password reset by mail: account %d", row.account_id)
        return name or ""

    def unsubscribe(self, key: str) -> None:
        self.need()
        with self.c.db.begin() as s:
            done = s.execute(
                update(MailAddressRow)
                .where(MailAddressRow.unsubscribe_hash == token_hash(key))
                .values(unsubscribed=True)
            )
        if not done.rowcount:
            raise ServiceError(
                ErrorCode.BAD_LINK, "this unsubscribe link is not valid (the address was changed since?)"
            )

    # --- notices and reminders ---------------------------------------------------------------------
    def _notice_target(self, account_id: int) -> tuple[MailAddressRow, str] | None:
        """The address and a fresh unsubscribe link of a player who takes notices, or None."""
        if not self.enabled:
            return None
        with self.c.db.begin() as s:
            row = s.get(MailAddressRow, account_id)
            if row is None or not row.confirmed or row.unsubscribed:
                return None
            key = secrets.token_urlsafe(24)
            row.unsubscribe_hash = token_hash(key)  # the newest mail's link works (one key per address)
            return row, f"{row.base}/mail#unsubscribe={key}"

    def challenge_notice(self, row: ChallengeRow) -> None:
        target = self._notice_target(row.challenged_id)
        if target is None:
            return
        address, unsubscribe = target
        names = self.c.names({row.challenger_id, row.challenged_id})
        subject, text = render(
            "challenge",
            address.language,
            {
                "username": names.get(row.challenged_id, ""),
                "challenger": names.get(row.challenger_id, ""),
                "game": row.game,
                "link": f"{address.base}/friends",
            },
            unsubscribe,
        )
        self.queue(address.address, "challenge", subject, text)

    async def remind_due(self) -> int:
        """Queue a reminder for every correspondence move waiting long enough; how many."""
        if not self.enabled:
            return 0
        with self.c.db() as s:
            rows = s.execute(
                select(AccountSeatRow.account_id, AccountSeatRow.game_id, AccountSeatRow.seat)
                .join(AccountGameRow, AccountGameRow.game_id == AccountSeatRow.game_id)
                .join(MailAddressRow, MailAddressRow.account_id == AccountSeatRow.account_id)
                .where(
                    AccountGameRow.status == "on",
                    MailAddressRow.confirmed.is_(True),
                    MailAddressRow.unsubscribed.is_(False),
                )
            ).all()
        count = 0
        t = time.time()
        for account_id, gid, seat in rows:
            try:
                live = await self.c.service.fresh(gid)
            except ServiceError:
                continue
            data = live.control.data  # the clock feature's part of the control document
            clock = data.get("clock")
            if (
                not clock
                or clock.get("mode") != "move"
                or clock.get("seconds", 0) < CORRESPONDENCE_S
                or live.ended()
            ):
                continue
            st = data.get("clock_state") or {}
            if st.get("turn_seat") != seat or live.state.current_player() != seat:
                continue
            waited = t - float(st.get("turn_started") or t)
            if waited < self.remind_after_s:
                continue
            try:
                with self.c.db.begin() as s:
                    s.add(ReminderRow(account_id=account_id, game_id=gid, ply=live.ply(), at=now()))
            except IntegrityError:
                continue  # reminded already (here or by another node)
            target = self._notice_target(account_id)
            if target is None:
                continue
            address, unsubscribe = target
            names = self.c.names({account_id})
            opponents = [s.get("name") or "?" for i, s in enumerate(live.stored.seats) if i != seat]
            subject, text = render(
                "reminder",
                address.language,
                {
                    "username": names.get(account_id, ""),
                    "game": live.stored.game,
                    "opponent": ", ".join(opponents),
                    "hours": max(0, int((clock["seconds"] - waited) // 3600)),
                    "link": f"{address.base}/account#my-games",
                },
                unsubscribe,
            )
            self.queue(address.address, "reminder", subject, text)
            count += 1
        return count


def build_router(community: Community, mail: Mail) -> APIRouter:
    router = APIRouter(tags=["community: mail"])

    def base(request: Request) -> str:
        return str(request.base_url).rstrip("/")

    @router.get("/mail", include_in_schema=False)
    async def mail_page() -> FileResponse:
        return page("mail.html")

    @router.get("/api/community/mail", summary="Whether this server sends mail; your address and settings")
    async def describe(request: Request):
        who = community.accounts.session(request.cookies.get("tw_session"))
        if who is None:
            return {"enabled": mail.enabled}
        return mail.describe(who.account_id)

    @router.post("/api/community/mail", summary="Set your e-mail address (a confirmation link is mailed)")
    async def set_address(body: AddressBody, request: Request):
        who = community.acting(request)
        return {"ok": True, **mail.set_address(who.account_id, who.username, body, base(request))}

    @router.post(
        "/api/community/mail/settings", summary="Your mails' language; reminders and notices on or off"
    )
    async def settings(body: SettingsBody, request: Request):
        who = community.acting(request)
        return {"ok": True, **mail.change_settings(who.account_id, body)}

    @router.post("/api/community/mail/confirm", summary="Confirm an address (the mailed link, once)")
    async def confirm(body: TokenBody):
        return {"ok": True, "confirmed": mail.confirm(body.token)}

    @router.post("/api/community/mail/unsubscribe", summary="No more reminders or notices (the mailed link)")
    async def unsubscribe(body: TokenBody):
        mail.unsubscribe(body.token)
        return {"ok": True}

    @router.post(
        "/api/community/password/forgot", summary="Mail a password reset link to the account's address"
    )
    async def forgot(body: ForgotBody):
        mail.forgot(body.username)
        return {
            "ok": True,
            "message": "if this account has a confirmed e-mail address, a reset link is on its way",
        }

    @router.post("/api/community/password/reset", summary="Choose a new password (the mailed link, once)")
    async def reset(body: ResetBody):
        name = await asyncio.to_thread(mail.reset, body.token, body.password)  # argon2: off the loop
        return {"ok": True, "username": name}

    return router
