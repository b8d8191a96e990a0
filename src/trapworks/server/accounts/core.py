"""Accounts: sign-up, log-in sessions, the seats an account holds, and rating games when they end.

Everything is stored in the server's database (tables in models.py) before it is acknowledged, so
accounts, sessions, ratings and histories survive a `kill -9`. The game service is only read from
(seats, tokens, states, results); the one hook is `game_changed`, called where the game's control
notices any change, which rates a finished game once (a conditional UPDATE: once in a cluster too).
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from ..service import ServiceError
from . import ratings
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
    AccountGameRow,
    AccountRow,
    AccountSeatRow,
    LoginFailureRow,
    RatingHistoryRow,
    RatingRow,
    SessionRow,
)

if TYPE_CHECKING:
    from ..room import Room
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


class Accounts:
    def __init__(self, service: GameService):
        self.service = service
        self.engine = service.store.engine  # its tables: migration 0003 (server/migrations)
        self.db = sessionmaker(self.engine, expire_on_commit=False)
        self.limiter = LoginLimiter(self.db)
        self.login_checks: list[Callable[[int], None]] = []  # i41: a ban refuses a log-in
        # game id -> {seat: account id} and whether it is rated and still on (None: no account
        # seat). Read once per game per process; kept in step by this class's own writes.
        self._games: dict[str, dict[str, Any] | None] = {}
        self._none_since: dict[str, float] = {}  # when a game was last seen with no account seat

    # --- sign-up, log-in, sessions ------------------------------------------------------------
    def signup(self, username: Any, password: Any) -> int:
        try:
            name = check_username(username)
            check_password(password, name)
        except BadCredentials as e:
            raise ServiceError(400, e.code, e.message) from None
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
                409, "username_taken", f"the username {name!r} is taken; choose another"
            ) from None
        log.info("account created: %s", name)
        return account_id

    def login(self, username: Any, password: Any, address: str) -> int:
        if not isinstance(username, str) or not isinstance(password, str) or len(password) > 1024:
            raise ServiceError(401, "wrong_login", WRONG_LOGIN)
        key = username_key(username.strip())[:64]
        self.limiter.check(key, address)
        with self.db() as s:
            row = s.scalars(select(AccountRow).where(AccountRow.username_key == key)).first()
        if not verify_password(row.password_hash if row else None, password) or row is None:
            self.limiter.failed(key, address)
            raise ServiceError(401, "wrong_login", WRONG_LOGIN)
        self.limiter.succeeded(key)
        for check in self.login_checks:  # i41: after the password: a guesser learns nothing
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
            raise ServiceError(401, "session_expired", "your session has expired: log in again")
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
            raise ServiceError(401, "session_expired", "your session has expired: log in again")
        sess, username = row
        return Current(sess.account_id, username, sess.csrf, h)

    def end_session(self, cookie: str) -> None:
        with self.db.begin() as s:
            s.execute(delete(SessionRow).where(SessionRow.id_hash == session_hash(cookie)))

    def delete_account(self, current: Current, password: Any) -> None:
        with self.db() as s:
            row = s.get(AccountRow, current.account_id)
        if row is None or not isinstance(password, str) or not verify_password(row.password_hash, password):
            raise ServiceError(403, "wrong_password", "to delete your account, type your password")
        with self.db.begin() as s:
            for table in (SessionRow, AccountSeatRow, RatingRow, RatingHistoryRow):
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
            raise ServiceError(404, "no_such_player", f"no player {username[:40]!r}")
        return row.id, row.username

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

    def register_game(self, live: Room, rated: bool) -> None:
        """A game made through the accounts (rated or not): its row, before any seat is attached."""
        now = _now()
        with self.db.begin() as s:
            if s.get(AccountGameRow, live.id) is None:
                s.add(
                    AccountGameRow(
                        game_id=live.id,
                        game=live.stored.game,
                        players=len(live.stored.seats),
                        variant=variant_of(live.stored.options),
                        rated=rated,
                        status="on",
                        created=now,
                    )
                )
        self._games.pop(live.id, None)

    def attach(self, account_id: int, gid: Any, token: Any) -> int:
        """The seat that `token` opens in game `gid` joins the account (the token proves it is
        the browser's); the seat number. Refused for a spectator token or a seat another holds."""
        if not isinstance(gid, str) or not isinstance(token, str):
            raise ServiceError(400, "bad_seat", "a seat is {game: id, token: its seat token}")
        live = self.service.get(gid)
        seat = live.seat_for(token)
        if seat is None:
            raise ServiceError(400, "spectator", "a spectator link holds no seat")
        if self._game(gid) is None:
            self.register_game(live, rated=False)
        try:
            with self.db.begin() as s:
                held = s.scalars(
                    select(AccountSeatRow).where(AccountSeatRow.game_id == gid, AccountSeatRow.seat == seat)
                ).first()
                if held is not None:
                    if held.account_id != account_id:
                        raise ServiceError(
                            409, "seat_held", f"seat {seat + 1} of this game belongs to another player"
                        )
                    return seat
                s.add(
                    AccountSeatRow(
                        account_id=account_id, game_id=gid, seat=seat, game=live.stored.game, joined=_now()
                    )
                )
        except IntegrityError:
            raise ServiceError(
                409, "seat_held", f"seat {seat + 1} of this game belongs to another player"
            ) from None
        self._games.pop(gid, None)
        # The game may have ended while the seat was anonymous: its result is filled in now.
        self.game_changed(live)
        if live.ended():
            self._fill_result(gid, seat)
        return seat

    def attach_many(self, account_id: int, seats: Any) -> dict[str, Any]:
        if not isinstance(seats, list) or len(seats) > MAX_ATTACH:
            raise ServiceError(400, "bad_seats", f"seats: a list of at most {MAX_ATTACH} {{game, token}}")
        joined, refused = [], []
        for entry in seats:
            gid = entry.get("game") if isinstance(entry, dict) else None
            try:
                seat = self.attach(account_id, gid, entry.get("token") if isinstance(entry, dict) else None)
                joined.append({"game": gid, "seat": seat})
            except ServiceError as e:
                refused.append(
                    {"game": gid if isinstance(gid, str) else None, "error": e.message, "code": e.code}
                )
        return {"joined": joined, "refused": refused}

    # --- the end of a game: results and ratings -------------------------------------------------
    def game_changed(self, live: Room) -> None:
        """Called on every change of a game (the control's hook): a game with account seats that
        has just ended gets its results and, if rated, its ratings; once."""
        info = self._game(live.id)
        if info is None or info["status"] != "on" or not live.ended():
            return
        try:
            info = self._game(live.id, fresh=True)  # the seats as stored now (any node may add one)
            if info is not None and info["status"] == "on":
                self._finish(live, info)
        except Exception:  # the game itself is stored; a failed rating is logged, not fatal
            log.exception("game %s: its results could not be stored", live.id)
        self._games.pop(live.id, None)

    def _finish(self, live: Room, info: dict[str, Any]) -> None:
        result = live.outcome()
        n = len(live.stored.seats)
        seats: dict[int, int] = dict(info["seats"])
        if result.aborted or result.returns is None:
            status, why = "aborted", "aborted games are not rated"
        elif not info["rated"]:
            status, why = "unrated", "a casual game"
        elif sorted(seats) != list(range(n)):
            status, why = "unrated", "not every seat was held by an account"
        elif len(set(seats.values())) != n:
            status, why = "unrated", "one account held two seats"
        else:
            status, why = "rated", None
        now = _now()
        with self.db.begin() as s:
            claimed = s.execute(
                update(AccountGameRow)
                .where(AccountGameRow.game_id == live.id, AccountGameRow.status == "on")
                .values(
                    status=status,
                    why_unrated=why,
                    ended=now,
                    returns=result.returns,
                    winners=list(result.winners),
                )
            )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                return  # finished already (another node, or a second notice)
            for seat in seats:
                s.execute(
                    update(AccountSeatRow)
                    .where(AccountSeatRow.game_id == live.id, AccountSeatRow.seat == seat)
                    .values(result=_seat_result(seat, result.returns, result.winners, n))
                )
            if status == "rated":
                assert result.returns is not None
                self._rate(s, live, seats, result.returns, now)
        log.info("game %s ended: %s", live.id, status)

    def _rate(self, s: Any, live: Room, seats: dict[int, int], returns: list[float], now: datetime) -> None:
        n = len(returns)
        game = live.stored.game
        rows = []
        for seat in range(n):
            row = s.scalars(
                select(RatingRow).where(
                    RatingRow.account_id == seats[seat], RatingRow.game == game, RatingRow.players == n
                )
            ).first()
            if row is None:
                row = RatingRow(
                    account_id=seats[seat],
                    game=game,
                    players=n,
                    mu=ratings.MU0,
                    sigma=ratings.SIGMA0,
                    games=0,
                    updated=now,
                )
                s.add(row)
            rows.append(row)
        before = [ratings.Skill(r.mu, r.sigma) for r in rows]
        after = ratings.rate(before, returns)
        ranks = ratings.ranks_of(returns)
        for seat, (row, old, new) in enumerate(zip(rows, before, after, strict=True)):
            row.mu, row.sigma, row.games, row.updated = new.mu, new.sigma, (row.games or 0) + 1, now
            s.add(
                RatingHistoryRow(
                    account_id=seats[seat],
                    game=game,
                    players=n,
                    game_id=live.id,
                    seat=seat,
                    rank=ranks[seat],
                    mu_before=old.mu,
                    sigma_before=old.sigma,
                    mu=new.mu,
                    sigma=new.sigma,
                    at=now,
                )
            )

    def _fill_result(self, gid: str, seat: int) -> None:
        with self.db.begin() as s:
            game = s.get(AccountGameRow, gid)
            if game is None or game.status == "on":
                return
            n = game.players
            result = (
                "aborted"
                if game.status == "aborted"
                else _seat_result(seat, game.returns, game.winners or [], n)
            )
            s.execute(
                update(AccountSeatRow)
                .where(AccountSeatRow.game_id == gid, AccountSeatRow.seat == seat)
                .values(result=result)
            )

    # --- reading: ratings, leaderboards, profiles, my games ----------------------------------------
    def rating(self, account_id: int, game: str, players: int) -> tuple[float, float, int]:
        with self.db() as s:
            row = s.scalars(
                select(RatingRow).where(
                    RatingRow.account_id == account_id, RatingRow.game == game, RatingRow.players == players
                )
            ).first()
        return (row.mu, row.sigma, row.games) if row else (ratings.MU0, ratings.SIGMA0, 0)

    def leaderboard(self, game: str, players: int | None, limit: int = 100) -> list[dict[str, Any]]:
        with self.db() as s:
            q = (
                select(RatingRow, AccountRow.username)
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(RatingRow.game == game, RatingRow.games > 0)
            )
            if players is not None:
                q = q.where(RatingRow.players == players)
            rows = s.execute(q).all()
        out: list[dict[str, Any]] = [
            {"username": name, "players": r.players, **ratings.describe(r.mu, r.sigma, r.games)}
            for r, name in rows
        ]
        out.sort(key=lambda x: (-x["rating"], x["username"].casefold()))
        for i, row in enumerate(out[:limit]):
            row["rank"] = i + 1
        return out[:limit]

    def profile(self, username: str) -> dict[str, Any]:
        account_id, name = self.account_id(username)
        with self.db() as s:
            rating_rows = s.scalars(select(RatingRow).where(RatingRow.account_id == account_id)).all()
            history = s.scalars(
                select(RatingHistoryRow)
                .where(RatingHistoryRow.account_id == account_id)
                .order_by(RatingHistoryRow.pk)
            ).all()
            seats = s.execute(
                select(AccountSeatRow, AccountGameRow)
                .join(AccountGameRow, AccountGameRow.game_id == AccountSeatRow.game_id)
                .where(AccountSeatRow.account_id == account_id)
                .order_by(AccountSeatRow.joined.desc(), AccountSeatRow.pk.desc())
            ).all()
            created = s.get(AccountRow, account_id).created  # type: ignore[union-attr]
            others = self._seat_names(s, [g.game_id for _, g in seats[:20]])
        rating_list = []
        for r in sorted(rating_rows, key=lambda r: (r.game, r.players)):
            points = [
                {
                    "game_id": h.game_id,
                    "at": _iso(h.at),
                    "rating": ratings.display(h.mu, h.sigma),
                    "before": ratings.display(h.mu_before, h.sigma_before),
                    "rank": h.rank,
                }
                for h in history
                if h.game == r.game and h.players == r.players
            ]
            rating_list.append(
                {
                    "game": r.game,
                    "players": r.players,
                    **ratings.describe(r.mu, r.sigma, r.games),
                    "history": points,
                }
            )
        stats: dict[tuple[str, str], dict[str, Any]] = {}
        for seat, game in seats:
            if game.status == "on":
                continue
            key = (game.game, game.variant)
            st = stats.setdefault(
                key,
                {
                    "game": game.game,
                    "variant": game.variant,
                    "played": 0,
                    "won": 0,
                    "lost": 0,
                    "drawn": 0,
                    "aborted": 0,
                },
            )
            if seat.result == "aborted" or game.status == "aborted":
                st["aborted"] += 1
                continue
            st["played"] += 1
            if seat.result in ("won", "lost", "drawn"):
                st[seat.result] += 1
        recent = []
        for seat, game in seats[:20]:
            recent.append(
                {
                    "id": game.game_id,
                    "game": game.game,
                    "variant": game.variant,
                    "seat": seat.seat,
                    "rated": game.status == "rated" or (game.rated and game.status == "on"),
                    "status": "on" if game.status == "on" else "over",
                    "result": seat.result,
                    "ended": _iso(game.ended),
                    "opponents": [
                        n for (gid, st), n in others.items() if gid == game.game_id and st != seat.seat
                    ],
                    "replay": f"/replay/{game.game_id}" if game.status != "on" else None,
                }
            )
        return {
            "username": name,
            "joined": _iso(created),
            "ratings": rating_list,
            "stats": sorted(stats.values(), key=lambda x: (x["game"], x["variant"])),
            "recent": recent,
        }

    @staticmethod
    def _seat_names(s: Any, gids: list[str]) -> dict[tuple[str, int], str]:
        if not gids:
            return {}
        rows = s.execute(
            select(AccountSeatRow.game_id, AccountSeatRow.seat, AccountRow.username)
            .join(AccountRow, AccountRow.id == AccountSeatRow.account_id)
            .where(AccountSeatRow.game_id.in_(gids))
        ).all()
        return {(gid, seat): name for gid, seat, name in rows}

    def my_games(self, account_id: int, game: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """The account's seats: your turn first, then waiting for others, then finished (newest
        first), each with its link (the seat's token: only ever sent to the account itself)."""
        from ..store import GameRow  # read the seats' tokens without replaying a finished game

        with self.db() as s:
            q = (
                select(AccountSeatRow, AccountGameRow)
                .join(AccountGameRow, AccountGameRow.game_id == AccountSeatRow.game_id)
                .where(AccountSeatRow.account_id == account_id)
            )
            if game:
                q = q.where(AccountSeatRow.game == game)
            rows = s.execute(
                q.order_by(AccountSeatRow.joined.desc(), AccountSeatRow.pk.desc()).limit(limit)
            ).all()
            gids = [g.game_id for _, g in rows]
            tokens = {
                gid: seats
                for gid, seats in s.execute(
                    select(GameRow.id, GameRow.seats).where(GameRow.id.in_(gids))
                ).all()
            }
            names = self._seat_names(s, gids)
        out = []
        for seat, g in rows:
            stored_seats = tokens.get(g.game_id) or []
            token = stored_seats[seat.seat].get("token") if seat.seat < len(stored_seats) else None
            entry: dict[str, Any] = {
                "id": g.game_id,
                "game": g.game,
                "variant": g.variant,
                "seat": seat.seat,
                "rated": g.rated,
                "status": g.status,
                "result": seat.result,
                "link": f"/g/{g.game_id}#t={token}" if token else None,
                "replay": f"/replay/{g.game_id}" if g.status != "on" else None,
                "opponents": [n for (gid, st), n in names.items() if gid == g.game_id and st != seat.seat],
                "ended": _iso(g.ended),
                "state": "finished",
                "deadline": None,
            }
            if g.status == "on":
                entry.update(self._live_state(g.game_id, seat.seat))
            out.append(entry)
        order = {"your_turn": 0, "waiting": 1, "finished": 2}
        out.sort(key=lambda e: order.get(e["state"], 2))  # stable: newest first within each group
        return out

    def _live_state(self, gid: str, seat: int) -> dict[str, Any]:
        try:
            live = self.service.get(gid)
        except ServiceError:
            return {"state": "waiting", "title": None}
        self.game_changed(live)  # an ended game found here gets its result now
        if live.ended():
            return {"state": "finished"}
        ctl = live.control
        deadline = getattr(ctl, "deadline", None)
        to_move = live.state.current_player()
        return {
            "state": "your_turn" if to_move == seat else "waiting",
            "ply": live.ply(),
            "deadline": datetime.fromtimestamp(deadline, UTC).isoformat(timespec="seconds")
            if deadline
            else None,
        }

    def export(self, account_id: int) -> dict[str, Any]:
        """Everything stored about the account, with its games as records (where the game allows:
        a game with hidden information still on keeps its record until it ends)."""
        with self.db() as s:
            account = s.get(AccountRow, account_id)
            assert account is not None
            rating_rows = s.scalars(select(RatingRow).where(RatingRow.account_id == account_id)).all()
            history = s.scalars(
                select(RatingHistoryRow).where(RatingHistoryRow.account_id == account_id)
            ).all()
        games = []
        for g in self.my_games(account_id, limit=10_000):
            token = g["link"].split("#t=", 1)[1] if g["link"] else None
            entry: dict[str, Any] = {
                k: g[k] for k in ("id", "game", "variant", "seat", "rated", "status", "result")
            }
            try:
                entry["record"] = self.service.record_dict(g["id"], token)
            except ServiceError as e:
                entry["record"] = None
                entry["why_no_record"] = e.message
            games.append(entry)
        return {
            "format": "trapworks-account-export",
            "username": account.username,
            "joined": _iso(account.created),
            "ratings": [
                {"game": r.game, "players": r.players, **ratings.describe(r.mu, r.sigma, r.games)}
                for r in rating_rows
            ],
            "rating_history": [
                {
                    "game": h.game,
                    "players": h.players,
                    "game_id": h.game_id,
                    "seat": h.seat,
                    "rank": h.rank,
                    "mu_before": h.mu_before,
                    "sigma_before": h.sigma_before,
                    "mu": h.mu,
                    "sigma": h.sigma,
                    "at": _iso(h.at),
                }
                for h in history
            ],
            "games": games,
        }

    def count_accounts(self) -> int:
        with self.db() as s:
            return int(s.scalar(select(func.count()).select_from(AccountRow)) or 0)


def _seat_result(seat: int, returns: list[float] | None, winners: list[int], n: int) -> str:
    if returns is None:
        return "aborted"
    if not winners or len(winners) == n:
        return "drawn"
    return "won" if seat in winners else "lost"


def _iso(when: datetime | None) -> str | None:
    when = _aware(when)
    return when.isoformat(timespec="seconds") if when else None
