"""Games to watch (issue 41): the live games of each game (every seat an account's: quick games,
challenges), with players, ratings, moves played and clock; and a featured game per game, the
ongoing one with the highest mean rating (lichess TV), which changes when it ends. Read from the
database on every request, so any node of a cluster answers the same (a game started or ended on
another node shows at the next look). Links are spectator links: a spectator sees only what a
spectator may.

When no game between players is on (a fresh server), the page still has something to watch: the
games of players against the computer going on (labelled so), and the games just ended, each with
its result and its review."""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse
from sqlalchemy import func, select

from ..accounts import ratings
from ..accounts.base import variant_parts
from ..accounts.models import AccountGameRow, AccountRow, AccountSeatRow, RatingRow
from ..store import ActionRow, ControlRow, GameRow
from .core import Community, iso, now
from .pages import page

MAX_LISTED = 100
# A game without a clock never ends by itself when its players leave (a clock runs out and ends
# it): the live list keeps it for its first hour only (judge 7: abandoned games in "Live now").
UNTIMED_LISTED_S = 3600
MAX_COMPUTER = 12  # games against the computer listed (something to watch when no game between players is on)
MAX_RECENT = 12  # games just ended listed, each with its review


def _clock(control: dict[str, Any] | None, t: float) -> dict[str, Any] | None:
    """The clock's setting and the seconds left to the seat on move (per-move clocks)."""
    clock = (control or {}).get("clock")
    if not isinstance(clock, dict):
        return None
    st = (control or {}).get("clock_state") or {}
    out: dict[str, Any] = {
        "mode": clock.get("mode"),
        "seconds": clock.get("seconds"),
        "to_move": st.get("turn_seat"),
    }
    running = st.get("turn_seat") is not None and st.get("turn_started")
    if clock.get("mode") == "move" and running:
        out["left_s"] = max(0, int(float(clock.get("seconds") or 0) - (t - float(st["turn_started"]))))
    if clock.get("mode") == "total":
        # each seat's time left (the seat on move's running down now), as lichess TV shows both clocks
        out["increment"] = clock.get("increment") or 0
        left = [float(x) for x in st.get("remaining") or []]
        if running and 0 <= st["turn_seat"] < len(left):
            left[st["turn_seat"]] -= t - float(st["turn_started"])
        out["remaining_s"] = [max(0, int(x)) for x in left]
    return out


class Watch:
    def __init__(self, community: Community):
        self.c = community

    def live(self, game: str | None = None) -> list[dict[str, Any]]:
        """Ongoing games whose every seat is an account's, the best rated first."""
        return self._ongoing(game, computer=False)

    def computer(self, game: str | None = None) -> list[dict[str, Any]]:
        """Ongoing games of players with an account against the computer (every other seat the
        computer's, not a practice game), the newest first: something to watch when no game
        between players is on. Spectator links, as the live games'."""
        return self._ongoing(game, computer=True)[:MAX_COMPUTER]

    def _ongoing(self, game: str | None, computer: bool) -> list[dict[str, Any]]:
        with self.c.db() as s:
            q = (
                select(AccountGameRow, GameRow.spectator_token, ControlRow.data, GameRow.seats)
                .join(GameRow, GameRow.id == AccountGameRow.game_id)
                .outerjoin(ControlRow, ControlRow.game_id == AccountGameRow.game_id)
                .where(AccountGameRow.status == "on")
                .order_by(AccountGameRow.created.desc())
                .limit(5 * MAX_LISTED)
            )
            if computer:
                q = q.where(GameRow.practice.is_(False))
            if game:
                q = q.where(AccountGameRow.game == game)
            games = s.execute(q).all()
            gids = [g.game_id for g, _t, _o, _st in games]
            seats = self._seats(s, gids)
            plies = dict(
                s.execute(
                    select(ActionRow.game_id, func.count())
                    .where(ActionRow.game_id.in_(gids))
                    .group_by(ActionRow.game_id)
                ).all()
            )
            rating = self._ratings(s, {a for _g, _s, a, _n in seats})
        by_game: dict[str, list[tuple[int, int, str]]] = {}
        for gid, seat, account_id, name in seats:
            by_game.setdefault(gid, []).append((seat, account_id, name))
        t = now()
        out = []
        for g, spectator, control, stored_seats in games:
            held = sorted(by_game.get(g.game_id, []))
            players = self._players(g, held, stored_seats, rating, computer)
            if players is None:
                continue
            created: datetime = g.created
            age = (t - (created if created.tzinfo else created.replace(tzinfo=t.tzinfo))).total_seconds()
            clock = _clock(control, time.time())
            if clock is None and age > UNTIMED_LISTED_S:
                continue
            rated = [p["rating"] for p in players if "rating" in p]
            out.append(
                {
                    "id": g.game_id,
                    "game": g.game,
                    "variant": g.variant,
                    # typed, for the page's language (issues 39, 37)
                    "variant_parts": variant_parts(g.variant, g.game),
                    "rated": g.rated,
                    "players": players,
                    "mean_rating": round(sum(rated) / len(rated)) if rated else 0,
                    "moves": plies.get(g.game_id, 0),
                    "clock": clock,
                    "started": iso(created),
                    "seconds": int(age),
                    "watch": f"/g/{g.game_id}#t={spectator}",
                }
            )
        if not computer:
            out.sort(key=lambda x: (-x["mean_rating"], x["seconds"]))
        return out[:MAX_LISTED]

    @staticmethod
    def _seats(s: Any, gids: list[str]) -> list[Any]:
        return list(
            s.execute(
                select(
                    AccountSeatRow.game_id,
                    AccountSeatRow.seat,
                    AccountSeatRow.account_id,
                    AccountRow.username,
                )
                .join(AccountRow, AccountRow.id == AccountSeatRow.account_id)
                .where(AccountSeatRow.game_id.in_(gids))
            ).all()
        )

    @staticmethod
    def _ratings(s: Any, account_ids: set[int]) -> dict[tuple[int, str, int], int]:
        rows = s.scalars(select(RatingRow).where(RatingRow.account_id.in_(account_ids))).all()
        return {(r.account_id, r.game, r.players): ratings.display(r.mu) for r in rows}

    @staticmethod
    def _players(
        g: Any,
        held: list[tuple[int, int, str]],
        stored_seats: list[dict[str, Any]] | None,
        rating: dict[tuple[int, str, int], int],
        computer: bool,
    ) -> list[dict[str, Any]] | None:
        """The seats of a game as the lists show them; None when the game is not of the list:
        between players, every seat an account's (one each); against the computer, every seat
        an account's or the computer's, at least one of each (a seat of nobody yet: not listed)."""
        accounts = {seat: (a, name) for seat, a, name in held}
        if len({a for a, _n in accounts.values()}) != len(accounts):
            return None  # one account at two seats (a game against oneself)
        stored = list(stored_seats or [])
        agents = {
            i: str(st.get("agent") or "")
            for i, st in enumerate(stored)
            if isinstance(st, dict) and st.get("kind") == "agent"
        }
        if computer:
            if not accounts or not agents or len(accounts) + len(agents) != g.players:
                return None
        elif len(accounts) != g.players:
            return None  # a seat without an account (an invite not yet taken, a computer)
        out: list[dict[str, Any]] = []
        for seat in range(g.players):
            if seat in accounts:
                account_id, name = accounts[seat]
                out.append(
                    {
                        "seat": seat,
                        "username": name,
                        "rating": rating.get((account_id, g.game, g.players), round(ratings.DISPLAY_BASE)),
                    }
                )
            elif seat in agents:
                out.append({"seat": seat, "username": None, "computer": agents[seat]})
            else:
                return None
        return out

    def recent(self, game: str | None = None) -> list[dict[str, Any]]:
        """The games that ended last (not aborted), between players or against the computer, with
        each seat's result and the link to the game's public review (/replay/<id>: only a game
        that is over has one, and it holds what the end of the game shows everyone)."""
        with self.c.db() as s:
            q = (
                select(AccountGameRow, GameRow.seats)
                .join(GameRow, GameRow.id == AccountGameRow.game_id)
                .where(AccountGameRow.status.in_(("rated", "unrated")), AccountGameRow.ended.is_not(None))
                .order_by(AccountGameRow.ended.desc())
                .limit(3 * MAX_RECENT)
            )
            if game:
                q = q.where(AccountGameRow.game == game)
            games = s.execute(q).all()
            gids = [g.game_id for g, _st in games]
            seats = self._seats(s, gids)
            results = dict(
                ((gid, seat), result)
                for gid, seat, result in s.execute(
                    select(AccountSeatRow.game_id, AccountSeatRow.seat, AccountSeatRow.result).where(
                        AccountSeatRow.game_id.in_(gids)
                    )
                ).all()
            )
            rating = self._ratings(s, {a for _g, _s, a, _n in seats})
        by_game: dict[str, list[tuple[int, int, str]]] = {}
        for gid, seat, account_id, name in seats:
            by_game.setdefault(gid, []).append((seat, account_id, name))
        out = []
        for g, stored_seats in games:
            held = sorted(by_game.get(g.game_id, []))
            players = self._players(g, held, stored_seats, rating, computer=False) or self._players(
                g, held, stored_seats, rating, computer=True
            )
            if players is None:
                continue
            winners = list(g.winners or [])
            for p in players:
                p["result"] = results.get((g.game_id, p["seat"])) or _result(p["seat"], winners, g.players)
            out.append(
                {
                    "id": g.game_id,
                    "game": g.game,
                    "variant_parts": variant_parts(g.variant, g.game),
                    "rated": g.status == "rated",
                    "against_computer": any("computer" in p for p in players),
                    "players": players,
                    "ended": iso(g.ended),
                    "review": f"/replay/{g.game_id}",
                }
            )
        return out[:MAX_RECENT]

    def featured(self) -> dict[str, dict[str, Any]]:
        """Per game: its best-rated ongoing game (ties: the newest)."""
        best: dict[str, dict[str, Any]] = {}
        for g in self.live():
            if g["game"] not in best:
                best[g["game"]] = g
        return best


def _result(seat: int, winners: list[int], n: int) -> str:
    if not winners or len(winners) == n:
        return "drawn"
    return "won" if seat in winners else "lost"


def build_router(community: Community, watch: Watch) -> APIRouter:
    router = APIRouter(tags=["community: watch"])

    @router.get("/watch", include_in_schema=False)
    async def watch_page() -> FileResponse:
        return page("watch.html")

    @router.get(
        "/api/community/live", summary="Ongoing games between players with accounts, best rated first"
    )
    async def live(game: str | None = Query(None, max_length=64)):
        games = watch.live(game)
        return {
            "games": games,
            "featured": watch.featured() if game is None else ({game: games[0]} if games else {}),
            "computer": watch.computer(game),
            "recent": watch.recent(game),
        }

    return router
