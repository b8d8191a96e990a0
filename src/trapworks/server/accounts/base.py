"""What the accounts' parts share: the database, the login limiter, a game's account seats (read
once per game), and small helpers (accounts/core.py puts the parts together)."""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import sessionmaker

from ..service import ServiceError
from .models import (
    AccountGameRow,
    AccountSeatRow,
    LoginFailureRow,
)

if TYPE_CHECKING:
    from ..service import GameService

log = logging.getLogger("trapworks.accounts")

SESSION_DAYS = 30
# Failed log-ins allowed per window, per account and per client address; then 429 until it passes.
LOGIN_WINDOW_S = 15 * 60
LOGIN_FAILS_PER_ACCOUNT = 5
LOGIN_FAILS_PER_ADDRESS = 20
WRONG_LOGIN = "wrong username or password"  # the same words for a wrong user and a wrong password
MAX_ATTACH = 200  # seats sent at once when a browser's anonymous games join an account
NONE_TTL_S = 10.0  # a game seen with no account seat is looked up again after this long
MAX_CACHED_GAMES = 20_000
_MISSING: Any = object()


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(when: datetime | None) -> datetime | None:
    if when is None:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def session_hash(cookie: str) -> str:
    return hashlib.sha256(cookie.encode()).hexdigest()


def variant_of(options: dict[str, Any]) -> str:
    """A short name for a game's variant: its rules or variant option, and the player count."""
    parts = [str(options[k]) for k in ("variant", "rules") if k in options]
    if "players" in options:
        parts.append(f"{options['players']} players")
    return ", ".join(parts) or "standard"


@dataclass(frozen=True)
class Current:
    """The account a request is made by (its session)."""

    account_id: int
    username: str
    csrf: str
    session_hash: str


class LoginLimiter:
    """Failed log-ins in a sliding window, per account and per address, in the database: every
    node of a cluster counts the same failures (a guesser gains nothing by spreading attempts over
    the nodes behind a balancer)."""

    def __init__(self, db: sessionmaker) -> None:
        self.db = db

    @staticmethod
    def _key(kind: str, value: str) -> str:
        return hashlib.sha256(f"{kind}:{value}".encode()).hexdigest()

    def check(self, account: str, address: str) -> None:
        now = _now()
        since = now - timedelta(seconds=LOGIN_WINDOW_S)
        for kind, value, limit in (
            ("account", account, LOGIN_FAILS_PER_ACCOUNT),
            ("address", address, LOGIN_FAILS_PER_ADDRESS),
        ):
            key = self._key(kind, value)
            with self.db() as s:
                count, first = s.execute(
                    select(func.count(), func.min(LoginFailureRow.at)).where(
                        LoginFailureRow.key_hash == key, LoginFailureRow.at > since
                    )
                ).one()
            if count >= limit:
                oldest = _aware(first) or now
                wait = int((oldest - since).total_seconds()) + 1
                what = "this account" if kind == "account" else "your address"
                raise ServiceError(
                    429,
                    "too_many_attempts",
                    f"too many failed log-ins for {what}: try again in {wait // 60 + 1} minutes",
                )

    def failed(self, account: str, address: str) -> None:
        now = _now()
        with self.db.begin() as s:
            # Bounded: what has left the window goes as new failures come.
            s.execute(
                delete(LoginFailureRow).where(LoginFailureRow.at <= now - timedelta(seconds=LOGIN_WINDOW_S))
            )
            s.add_all(
                [
                    LoginFailureRow(key_hash=self._key("account", account), at=now),
                    LoginFailureRow(key_hash=self._key("address", address), at=now),
                ]
            )

    def succeeded(self, account: str) -> None:
        with self.db.begin() as s:
            s.execute(
                delete(LoginFailureRow).where(LoginFailureRow.key_hash == self._key("account", account))
            )


class AccountsShared:
    def __init__(self, service: GameService):
        self.service = service
        self.engine = service.store.engine  # its tables: migration 0003 (server/migrations)
        self.db = sessionmaker(self.engine, expire_on_commit=False)
        self.limiter = LoginLimiter(self.db)
        # game id -> {seat: account id} and whether it is rated and still on (None: no account
        # seat). Read once per game per process; kept in step by this class's own writes.
        self._games: dict[str, dict[str, Any] | None] = {}
        self._none_since: dict[str, float] = {}  # when a game was last seen with no account seat

    # --- seats held by accounts -----------------------------------------------------------------
    def _game(self, gid: str, fresh: bool = False) -> dict[str, Any] | None:
        cached = self._games.get(gid, _MISSING)
        if cached is None and time.monotonic() - self._none_since.get(gid, 0.0) > NONE_TTL_S:
            cached = _MISSING  # another node may have attached a seat since: look again
        if fresh or cached is _MISSING:
            if len(self._games) > MAX_CACHED_GAMES:
                self._games.clear()
                self._none_since.clear()
            with self.db() as s:
                game = s.get(AccountGameRow, gid)
                seats = s.execute(
                    select(AccountSeatRow.seat, AccountSeatRow.account_id).where(
                        AccountSeatRow.game_id == gid
                    )
                ).all()
            self._games[gid] = (
                None
                if game is None
                else {"rated": game.rated, "status": game.status, "seats": {seat: a for seat, a in seats}}
            )
            if game is None:
                self._none_since[gid] = time.monotonic()
        return self._games[gid]


def _seat_result(seat: int, returns: list[float] | None, winners: list[int], n: int) -> str:
    if returns is None:
        return "aborted"
    if not winners or len(winners) == n:
        return "drawn"
    return "won" if seat in winners else "lost"


def _iso(when: datetime | None) -> str | None:
    when = _aware(when)
    return when.isoformat(timespec="seconds") if when else None
