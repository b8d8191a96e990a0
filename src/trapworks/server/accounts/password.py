"""Changing your password (issue 39, account page): the current password, then a new one that
passes the sign-up's checks (credentials.check_password). The new argon2 hash replaces the old
one and every other session of the account ends (a browser someone else holds is logged out);
this browser stays logged in.

POST /api/account/password {current, new}: a session and its CSRF token. A wrong current
password counts as a failed log-in (the log-in throttle: a stolen session cannot guess it
freely) and is refused with `wrong_password`; a weak new one with the sign-up's refusal
(`weak_password`, `long_password`), said under the field by the page.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field
from sqlalchemy import delete, select, update

from ..errors import ErrorCode
from ..service import ServiceError
from .credentials import BadCredentials, check_password, hash_password, username_key, verify_password
from .models import AccountRow, SessionRow

if TYPE_CHECKING:
    from .core import Accounts, Current

log = logging.getLogger("trapworks.accounts")


class PasswordChange(BaseModel):
    current: str = Field(max_length=1024, description="the password you have now")
    new: str = Field(max_length=1024, description="the password you want")


def change_password(accounts: Accounts, who: Current, current: Any, new: Any, address: str) -> int:
    """Check `current`, set `new`, end the account's other sessions; how many ended."""
    key = username_key(who.username)[:64]
    accounts.limiter.check(key, address)
    with accounts.db() as s:
        row = s.scalars(select(AccountRow).where(AccountRow.id == who.account_id)).first()
    if row is None or not isinstance(current, str) or not verify_password(row.password_hash, current):
        accounts.limiter.failed(key, address)
        raise ServiceError(ErrorCode.WRONG_PASSWORD, "your current password is not this one: type it again")
    accounts.limiter.succeeded(key, address)
    try:
        check_password(new, row.username)
    except BadCredentials as e:
        raise ServiceError(ErrorCode.of(e.code), e.message) from None
    new_hash = hash_password(new)
    with accounts.db.begin() as s:
        s.execute(update(AccountRow).where(AccountRow.id == who.account_id).values(password_hash=new_hash))
        others = SessionRow.account_id == who.account_id, SessionRow.id_hash != who.session_hash
        ended = len(s.scalars(select(SessionRow.id_hash).where(*others)).all())
        s.execute(delete(SessionRow).where(*others))
    log.info("password changed: account %d, %d other session(s) ended", who.account_id, ended)
    return ended


def add_password_routes(router: APIRouter, accounts: Accounts, gate: Any) -> None:
    # gate: routes.Gate (who asks, the CSRF check, the hashing queue); not imported: routes imports this
    @router.post("/api/account/password", summary="Change your password; your other sessions end")
    async def password(body: PasswordChange, request: Request):
        who = gate.acting(request, required=True)
        assert who is not None
        address = request.client.host if request.client else "unknown"
        # argon2 (a verification and a hash): in the hashing queue's threads, off the event loop
        ended = await gate.hashing.login(change_password, accounts, who, body.current, body.new, address)
        return {"ok": True, "other_sessions_ended": ended}
