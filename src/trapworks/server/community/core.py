"""What every community module shares: the database, the accounts, who is who, and requests made
by a logged-in player (the session cookie and its CSRF header, as the accounts' routes check them).

The database is the truth (every node of a cluster reads the same rows); a conditional UPDATE
settles anything two nodes could race on (a challenge answered twice).
"""

from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from fastapi import Request
from pydantic import BaseModel, Field
from sqlalchemy import Engine, delete, insert, or_, select, update
from sqlalchemy.orm import sessionmaker
from starlette.requests import HTTPConnection

from ..accounts.credentials import username_key
from ..accounts.models import AccountRow, AccountSeatRow
from ..errors import ErrorCode, ServiceError
from ..service import create_request
from .models import AuditRow, BlockRow, PresenceRow, RoleRow

if TYPE_CHECKING:
    from ..accounts.core import Accounts, Current
    from ..room import Room
    from ..service import GameService

SESSION_COOKIE = "tw_session"  # the accounts' cookie and header (server/accounts/routes.py)
CSRF_HEADER = "x-csrf-token"
ONLINE_S = 90.0  # seen by a community page this recently: online
MODERATOR = "moderator"


def refusal(code: ErrorCode, template: str, **values: str | int | None) -> ServiceError:
    """A refusal whose words the page can put in its own language: the English sentence as
    always, and its message id (`template`, a msgid of the catalog) with its values, each a name,
    a number or a date, never an English word (the reply's "msg" and "args": routers/errors.py)."""
    return ServiceError(code, template, **values)


def now() -> datetime:
    return datetime.now(UTC)


def aware(when: datetime | None) -> datetime | None:
    if when is None:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def iso(when: datetime | None) -> str | None:
    when = aware(when)
    return when.isoformat(timespec="seconds") if when else None


class Directory:
    """Who is who and who holds which role, on the database alone (the command line uses it)."""

    def __init__(self, engine: Engine):
        self.db: sessionmaker = sessionmaker(engine, expire_on_commit=False)

    # --- who --------------------------------------------------------------------------------------
    def player(self, username: Any) -> tuple[int, str]:
        """(account id, name as typed) of a username; 404 naming it when there is none."""
        if not isinstance(username, str) or not username.strip():
            raise ServiceError(ErrorCode.BAD_USERNAME, "give a player's username")
        name = username.strip()[:64]
        with self.db() as s:
            row = s.execute(
                select(AccountRow.id, AccountRow.username).where(
                    AccountRow.username_key == username_key(name)
                )
            ).first()
        if row is None:
            raise refusal(ErrorCode.NO_SUCH_PLAYER, "no player is called '{name}'", name=name[:40])
        return int(row[0]), str(row[1])

    def seat_holder(self, game_id: str, seat: int | None) -> int | None:
        """The account holding seat `seat` of game `game_id` (None: no seat, or nobody logged in
        took it). The one seat-holder query of a chat line (safety.py's author, moderation.py's
        mute check)."""
        if seat is None:
            return None
        with self.db() as s:
            holder = s.scalar(
                select(AccountSeatRow.account_id).where(
                    AccountSeatRow.game_id == game_id, AccountSeatRow.seat == seat
                )
            )
        return None if holder is None else int(holder)

    def names(self, ids: set[int]) -> dict[int, str]:
        if not ids:
            return {}
        with self.db() as s:
            return dict(
                s.execute(select(AccountRow.id, AccountRow.username).where(AccountRow.id.in_(ids))).all()
            )

    # --- roles and the audit log --------------------------------------------------------------------
    def is_moderator(self, account_id: int) -> bool:
        with self.db() as s:
            return s.get(RoleRow, (account_id, MODERATOR)) is not None

    def grant(self, account_id: int, role: str = MODERATOR, actor: str = "command line") -> bool:
        """Give `role`; False when it was held already. Logged for audit."""
        with self.db.begin() as s:
            if s.get(RoleRow, (account_id, role)) is not None:
                return False
            s.add(RoleRow(account_id=account_id, role=role, granted=now()))
            self.audit(
                s, None, actor, f"grant-{role}", account_id, self.names({account_id}).get(account_id), {}
            )
        return True

    def revoke(self, account_id: int, role: str = MODERATOR, actor: str = "command line") -> bool:
        with self.db.begin() as s:
            gone = s.execute(delete(RoleRow).where(RoleRow.account_id == account_id, RoleRow.role == role))
            if not gone.rowcount:
                return False
            self.audit(
                s, None, actor, f"revoke-{role}", account_id, self.names({account_id}).get(account_id), {}
            )
        return True

    @staticmethod
    def audit(
        s: Any,
        actor_id: int | None,
        actor: str,
        action: str,
        target_id: int | None,
        target: str | None,
        detail: dict[str, Any],
    ) -> None:
        """One line of the audit log, written in the caller's transaction (the action and its
        record commit together, or neither does)."""
        s.add(
            AuditRow(
                at=now(),
                actor_id=actor_id,
                actor=actor,
                action=action,
                target_id=target_id,
                target=target,
                detail=detail,
            )
        )


class Named(BaseModel):
    """A request naming one player (follow, block, mute...)."""

    username: str = Field(max_length=64)


class Community(Directory):
    """The community's state, shared by its modules (friends, challenges, safety, moderation)."""

    def __init__(self, service: GameService, accounts: Accounts):
        super().__init__(accounts.engine)
        self.service = service
        self.accounts = accounts

    # --- requests ---------------------------------------------------------------------------------
    def current(self, request: Request) -> Current:
        """The logged-in player of a request (401 when none); their presence is renewed."""
        who = self.accounts.session(request.cookies.get(SESSION_COOKIE))
        if who is None:
            raise ServiceError(ErrorCode.LOGIN_NEEDED, "log in first: this is for players with an account")
        self.seen(who.account_id)
        return who

    def viewer_of(self, socket: HTTPConnection) -> int | None:
        """The account logged in behind a game socket (its session cookie), or None."""
        try:
            who = self.accounts.session(socket.cookies.get(SESSION_COOKIE))
        except ServiceError:  # an expired session: watching as nobody in particular
            return None
        return who.account_id if who is not None else None

    def acting(self, request: Request) -> Current:
        """The logged-in player of a state-changing request, after its CSRF check."""
        who = self.current(request)
        sent = request.headers.get(CSRF_HEADER) or ""
        if not sent or not secrets.compare_digest(sent.encode(), who.csrf.encode()):
            raise ServiceError(
                ErrorCode.CSRF_FAILED,
                "this request's CSRF token is missing or wrong: reload the page and try again",
            )
        return who

    # --- who and games, shared by the features ---------------------------------------------------
    def other(self, account_id: int, username: Any, itself: ServiceError) -> tuple[int, str]:
        """(account id, name) of the player `username` names, who must not be `account_id`
        (`itself`: the refusal when it is: "you cannot follow yourself")."""
        target, name = self.player(username)
        if target == account_id:
            raise itself
        return target, name

    async def make_game(
        self,
        game: str,
        options: dict[str, Any],
        holders: list[int],
        clock: Any,
        rated: bool,
        game_id: str | None = None,
    ) -> Room:
        """A game between accounts, `holders[seat]` at each seat (named by their usernames), made
        on this node, registered (rated or not) and attached to each account (their "My games").
        `game_id`, chosen ahead (a planned game): made once whatever node asks and however often;
        a game of that id already made (by a node lost before it recorded it) is taken as it is."""
        live = self._made(game_id)
        if live is None:
            names = self.names(set(holders))
            seats = [{"kind": "human", "name": names.get(h, "")} for h in holders]
            request = create_request(game=game, options=dict(options), seats=seats, clock=clock)
            try:
                live = await self.service.create(request, new_id=game_id)
            except ServiceError:
                live = self._made(game_id)  # another node made it that moment (the id is unique)
                if live is None:
                    raise
        self.accounts.register_game(live, rated=rated)  # (both once per game and seat)
        for seat, holder in enumerate(holders):
            self.accounts.attach(holder, live.id, live.stored.seats[seat]["token"])
        return live

    def _made(self, game_id: str | None) -> Room | None:
        if game_id is None:
            return None
        try:
            return self.service.get(game_id)
        except ServiceError as e:
            if e.code == ErrorCode.NO_SUCH_GAME:
                return None
            raise

    # --- presence ---------------------------------------------------------------------------------
    def seen(self, account_id: int) -> None:
        t = time.time()
        with self.db.begin() as s:
            done = s.execute(update(PresenceRow).where(PresenceRow.account_id == account_id).values(seen=t))
            if not done.rowcount:
                s.execute(insert(PresenceRow).values(account_id=account_id, seen=t))

    def online(self, ids: set[int]) -> set[int]:
        if not ids:
            return set()
        since = time.time() - ONLINE_S
        with self.db() as s:
            return set(
                s.scalars(
                    select(PresenceRow.account_id).where(
                        PresenceRow.account_id.in_(ids), PresenceRow.seen >= since
                    )
                ).all()
            )

    # --- blocks (read by challenges and pairing) ----------------------------------------------------
    def blocked_between(self, a: int | None, b: int | None) -> bool:
        """Whether either of two accounts blocks the other (anonymous players block nobody)."""
        if a is None or b is None or a == b:
            return False
        with self.db() as s:
            found = s.scalar(
                select(BlockRow.blocker_id)
                .where(
                    or_(
                        (BlockRow.blocker_id == a) & (BlockRow.blocked_id == b),
                        (BlockRow.blocker_id == b) & (BlockRow.blocked_id == a),
                    )
                )
                .limit(1)
            )
        return found is not None

    def blocks(self, a: int, b: int) -> bool:
        """Whether `a` blocks `b`."""
        with self.db() as s:
            return s.get(BlockRow, (a, b)) is not None
