"""Ratings: the games an account plays, rated between accounts when they end (openskill, in
ratings.py), and the leaderboards."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from ..errors import ErrorCode
from ..service import ServiceError
from . import ratings
from .models import (
    AccountGameRow,
    AccountRow,
    AccountSeatRow,
    RatingHistoryRow,
    RatingRow,
)

if TYPE_CHECKING:
    from ..room import Room


from .auth import Authentication
from .base import MAX_ATTACH, _aware, _now, _seat_result, variant_of

PROGRESS_DAYS = 7  # a leaderboard row's progress: the rating's change over this many days

log = logging.getLogger("trapworks.accounts")


class Ratings(Authentication):
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
            raise ServiceError(ErrorCode.BAD_SEAT, "a seat is {game: id, token: its seat token}")
        live = self.service.get(gid)
        seat = live.seat_for(token)
        if seat is None:
            raise ServiceError(ErrorCode.SPECTATOR, "a spectator link holds no seat")
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
                            ErrorCode.SEAT_HELD,
                            "seat {seat_number} of this game belongs to another player",
                            seat_number=seat + 1,
                        )
                    return seat
                s.add(
                    AccountSeatRow(
                        account_id=account_id, game_id=gid, seat=seat, game=live.stored.game, joined=_now()
                    )
                )
        except IntegrityError:
            raise ServiceError(
                ErrorCode.SEAT_HELD,
                "seat {seat_number} of this game belongs to another player",
                seat_number=seat + 1,
            ) from None
        self._games.pop(gid, None)
        # The game may have ended while the seat was anonymous: its result is filled in now.
        self.game_changed(live)
        if live.ended():
            self._fill_result(gid, seat)
        return seat

    def attach_many(self, account_id: int, seats: Any) -> dict[str, Any]:
        if not isinstance(seats, list) or len(seats) > MAX_ATTACH:
            raise ServiceError(
                ErrorCode.BAD_SEATS,
                "seats: a list of at most {MAX_ATTACH} {game, token}",
                MAX_ATTACH=MAX_ATTACH,
            )
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

    # --- who sits at a game: the accounts' names and ratings, for the seat strips ---------------------
    def seat_accounts(self, live: Room) -> dict[int, dict[str, Any]]:
        """Each account seat of a game: {seat: {account, rating, provisional, change}}. Ratings only
        in a rated game: the rating the account brought to it (lichess shows the rating a game was
        played at) and, once the game is rated, the change it made (display points)."""
        info = self._game(live.id)
        if info is None or not info["seats"]:
            return {}
        seats: dict[int, int] = dict(info["seats"])
        n = len(live.stored.seats)
        with self.db() as s:
            names = dict(
                s.execute(
                    select(AccountRow.id, AccountRow.username).where(AccountRow.id.in_(set(seats.values())))
                ).all()
            )
            rows = {}
            changes = {}
            if info["rated"]:
                rows = {
                    r.account_id: r
                    for r in s.scalars(
                        select(RatingRow).where(
                            RatingRow.account_id.in_(set(seats.values())),
                            RatingRow.game == live.stored.game,
                            RatingRow.players == n,
                        )
                    )
                }
                changes = {
                    h.account_id: h
                    for h in s.scalars(select(RatingHistoryRow).where(RatingHistoryRow.game_id == live.id))
                }
        out: dict[int, dict[str, Any]] = {}
        for seat, account_id in seats.items():
            entry: dict[str, Any] = {
                "account": names.get(account_id),
                "rating": None,
                "provisional": False,
                "change": None,
                "provisional_after": False,
            }
            if info["rated"]:
                row, change = rows.get(account_id), changes.get(account_id)
                games = row.games if row is not None else 0
                if change is not None:  # rated already: the rating before it, and the change
                    before = ratings.display(change.mu_before)
                    entry["rating"] = before
                    entry["change"] = ratings.display(change.mu) - before
                    games -= 1
                elif row is not None:
                    entry["rating"] = ratings.display(row.mu)
                else:
                    entry["rating"] = ratings.display(ratings.MU0)
                entry["provisional"] = games < ratings.PROVISIONAL_GAMES
                # Still provisional with this game counted (the end screen says the new rating so).
                entry["provisional_after"] = games + (change is not None) < ratings.PROVISIONAL_GAMES
            out[seat] = entry
        return out

    # --- reading: ratings, leaderboards, profiles, my games ----------------------------------------
    def rating(self, account_id: int, game: str, players: int) -> tuple[float, float, int]:
        with self.db() as s:
            row = s.scalars(
                select(RatingRow).where(
                    RatingRow.account_id == account_id, RatingRow.game == game, RatingRow.players == players
                )
            ).first()
        return (row.mu, row.sigma, row.games) if row else (ratings.MU0, ratings.SIGMA0, 0)

    def leaderboard(
        self, game: str, players: int | None, limit: int = 100, active_days: int | None = None
    ) -> list[dict[str, Any]]:
        with self.db() as s:
            q = (
                select(RatingRow, AccountRow.username)
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(RatingRow.game == game, RatingRow.games > 0)
            )
            if players is not None:
                q = q.where(RatingRow.players == players)
            if active_days is not None:  # lichess's boards list the players of the last weeks
                q = q.where(RatingRow.updated >= _now() - timedelta(days=active_days))
            rows = s.execute(q).all()
            # Each player's progress over the last week, as lichess's boards show it: the rating now
            # against the rating before their first rated game of the week (0: none this week).
            week: dict[tuple[int, int], float] = {}
            since = _now() - timedelta(days=PROGRESS_DAYS)
            history = s.execute(
                select(RatingHistoryRow.account_id, RatingHistoryRow.players, RatingHistoryRow.mu_before)
                .where(RatingHistoryRow.game == game, RatingHistoryRow.at >= since)
                .order_by(RatingHistoryRow.at.desc(), RatingHistoryRow.pk.desc())
            ).all()
            for account_id, n, mu_before in history:  # newest first: the oldest of the week wins
                week[(account_id, n)] = mu_before
        out: list[dict[str, Any]] = [
            {
                "username": name,
                "players": r.players,
                "last_played": (_aware(r.updated) or _now()).isoformat(),
                "progress": (
                    ratings.display(r.mu) - ratings.display(week[(r.account_id, r.players)])
                    if (r.account_id, r.players) in week
                    else 0
                ),
                **ratings.describe(r.mu, r.sigma, r.games),
            }
            for r, name in rows
        ]
        # Settled ratings first, ranked (equal ratings share a rank: 1, 1, 3); then the provisional
        # ones, apart and unranked (rank None), as lichess ranks nobody on a few lucky first games
        # (the eighth judge: provisional players ranked among the established). The page shows
        # them under their own heading, by rating.
        out.sort(key=lambda x: (x["provisional"], -x["rating"], x["username"].casefold()))
        out = out[:limit]
        for i, row in enumerate(out):
            if row["provisional"]:
                row["rank"] = None
                continue
            before = out[i - 1] if i else row
            same = i and before["rating"] == row["rating"]
            row["rank"] = before["rank"] if same else i + 1
        return out
