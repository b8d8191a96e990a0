"""What the accounts' parts share: the database, the log-in throttle (throttle.py), a game's
account seats (read once per game), and small helpers (accounts/core.py puts the parts together)."""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import sessionmaker

from .models import (
    AccountGameRow,
    AccountSeatRow,
)
from .throttle import LoginThrottle

if TYPE_CHECKING:
    from ..service import GameService

log = logging.getLogger("trapworks.accounts")

SESSION_DAYS = 30
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


def variant_parts(key: str, game: str | None = None) -> dict[str, Any]:
    """A variant as typed data, for the pages to word in their own language (issue 39: French pages
    showed "regular, 2 players"): the rules or variant option's value and the player count, read
    back from the key variant_of made (ratings and results are kept under that key), and `name`:
    the game's own short name of that choice (its option's `names`, a message id of the catalog
    the page words with t(); issue 37: the page keeps no table of the games' variants)."""
    value: str | None = None
    players: int | None = None
    for part in key.split(", "):
        count = part.removesuffix(" players")
        if count != part and count.isdigit():
            players = int(count)
        elif part and part != "standard":
            value = part
    return {"value": value, "players": players, "name": variant_name(game, value)}


@lru_cache(maxsize=64)
def variant_name(game: str | None, value: str | None) -> str | None:
    """The game's short name of its rules or variant choice `value` (None: no such game or choice)."""
    if game is None or value is None:
        return None
    from trapworks.core.registry import available_games, game_class

    if game not in available_games():
        return None
    for option in game_class(game).options_schema:
        if option.name in ("variant", "rules") and option.kind == "choice" and value in option.choices:
            return option.choice_name(value)
    return None


@dataclass(frozen=True)
class Current:
    """The account a request is made by (its session)."""

    account_id: int
    username: str
    csrf: str
    session_hash: str


class AccountsShared:
    def __init__(self, service: GameService):
        self.service = service
        self.engine = service.store.engine  # its tables: migration 0003 (server/migrations)
        self.db = sessionmaker(self.engine, expire_on_commit=False)
        self.limiter = LoginThrottle(self.db)  # by address, by name from it, by name (throttle.py)
        self.login_checks: list[Callable[[int], None]] = []  # a ban refuses a log-in (community)
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
