"""Authentication: sign-up, log-in (throttled), sessions, deleting an account."""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from ..errors import ErrorCode
from ..service import ServiceError
from .credentials import (
    BadCredentials,
    check_password,
    check_username,
    hash_password,
    needs_rehash,
    username_key,
    verify_password,
)
from .models import (
    AccountRow,
    AccountSeatRow,
    PreferencesRow,
    RatingHistoryRow,
    RatingRow,
    SessionRow,
)

if TYPE_CHECKING:
    pass


from .base import SESSION_DAYS, WRONG_LOGIN, AccountsShared, Current, _aware, _now, session_hash

log = logging.getLogger("trapworks.accounts")


class Authentication(AccountsShared):
    # --- sign-up, log-in, sessions ------------------------------------------------------------
    def signup(self, username: Any, password: Any) -> int:
        try:
            name = check_username(username)
            check_password(password, name)
        except BadCredentials as e:
            raise ServiceError(ErrorCode.of(e.code), e.message) from None
        try:
            with self.db.begin() as s:
                row = AccountRow(
                    username=name,
                    username_key=username_key(name),
                    password_hash=hash_password(password),
                    created=_now(),
                )
                s.add(row)
                s.flush()
                account_id = row.id
        except IntegrityError:
            raise ServiceError(
                ErrorCode.USERNAME_TAKEN, "the username {name} is taken; choose another", name=repr(name)
            ) from None
        log.info("account created: %s", name)
        return account_id

    def login(self, username: Any, password: Any, address: str) -> int:
        if not isinstance(username, str) or not isinstance(password, str) or len(password) > 1024:
            raise ServiceError(ErrorCode.WRONG_LOGIN, WRONG_LOGIN)
        key = username_key(username.strip())[:64]
        self.limiter.check(key, address)
        with self.db() as s:
            row = s.scalars(select(AccountRow).where(AccountRow.username_key == key)).first()
        if not verify_password(row.password_hash if row else None, password) or row is None:
            self.limiter.failed(key, address)
            raise ServiceError(ErrorCode.WRONG_LOGIN, WRONG_LOGIN)
        self.limiter.succeeded(key, address)
        for check in self.login_checks:  # after the password: a guesser learns nothing
            check(row.id)
        if needs_rehash(row.password_hash):
            with self.db.begin() as s:
                s.execute(
                    update(AccountRow)
                    .where(AccountRow.id == row.id)
                    .values(password_hash=hash_password(password))
                )
        return row.id

    def new_session(self, account_id: int, old_cookie: str | None = None) -> tuple[str, str]:
        """A fresh session (cookie value, CSRF token); the browser's previous session, if any, is
        ended: a session id is never carried across a log-in (no fixation)."""
        cookie = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(32)
        now = _now()
        with self.db.begin() as s:
            if old_cookie:
                s.execute(delete(SessionRow).where(SessionRow.id_hash == session_hash(old_cookie)))
            s.add(
                SessionRow(
                    id_hash=session_hash(cookie),
                    account_id=account_id,
                    csrf=csrf,
                    created=now,
                    expires=now + timedelta(days=SESSION_DAYS),
                )
            )
        return cookie, csrf

    def session(self, cookie: str | None) -> Current | None:
        """The session of a cookie; None without one; ServiceError 401 for an expired or unknown one."""
        if not cookie:
            return None
        if len(cookie) > 200:
            raise ServiceError(ErrorCode.SESSION_EXPIRED, "your session has expired: log in again")
        h = session_hash(cookie)
        with self.db() as s:
            row = s.execute(
                select(SessionRow, AccountRow.username)
                .join(AccountRow, AccountRow.id == SessionRow.account_id)
                .where(SessionRow.id_hash == h)
            ).first()
        if row is None or (_aware(row[0].expires) or _now()) <= _now():
            if row is not None:
                self.end_session(cookie)
            raise ServiceError(ErrorCode.SESSION_EXPIRED, "your session has expired: log in again")
        sess, username = row
        return Current(sess.account_id, username, sess.csrf, h)

    def end_session(self, cookie: str) -> None:
        with self.db.begin() as s:
            s.execute(delete(SessionRow).where(SessionRow.id_hash == session_hash(cookie)))

    def delete_account(self, current: Current, password: Any) -> None:
        with self.db() as s:
            row = s.get(AccountRow, current.account_id)
        if row is None or not isinstance(password, str) or not verify_password(row.password_hash, password):
            raise ServiceError(ErrorCode.WRONG_PASSWORD, "to delete your account, type your password")
        with self.db.begin() as s:
            for table in (SessionRow, AccountSeatRow, RatingRow, RatingHistoryRow, PreferencesRow):
                s.execute(delete(table).where(table.account_id == current.account_id))
            s.execute(delete(AccountRow).where(AccountRow.id == current.account_id))
        self._games.clear()
        log.info("account deleted: id %d", current.account_id)

    def account_id(self, username: str) -> tuple[int, str]:
        with self.db() as s:
            row = s.scalars(
                select(AccountRow).where(AccountRow.username_key == username_key(username))
            ).first()
        if row is None:
            raise ServiceError(ErrorCode.NO_SUCH_PLAYER, "no player {name}", name=repr(username[:40]))
        return row.id, row.username

    def count_accounts(self) -> int:
        with self.db() as s:
            return int(s.scalar(select(func.count()).select_from(AccountRow)) or 0)
