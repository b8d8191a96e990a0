"""Games to watch (issue 41): the live games of each game (every seat an account's: quick games,
challenges), with players, ratings, moves played and clock; and a featured game per game, the
ongoing one with the highest mean rating (lichess TV), which changes when it ends. Read from the
database on every request, so any node of a cluster answers the same (a game started or ended on
another node shows at the next look). Links are spectator links: a spectator sees only what a
spectator may."""

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
        with self.c.db() as s:
            q = (
                select(AccountGameRow, GameRow.spectator_token, ControlRow.data)
                .join(GameRow, GameRow.id == AccountGameRow.game_id)
                .outerjoin(ControlRow, ControlRow.game_id == AccountGameRow.game_id)
                .where(AccountGameRow.status == "on")
                .order_by(AccountGameRow.created.desc())
                .limit(5 * MAX_LISTED)
            )
            if game:
                q = q.where(AccountGameRow.game == game)
            games = s.execute(q).all()
            gids = [g.game_id for g, _t, _o in games]
            seats = s.execute(
                select(
                    AccountSeatRow.game_id,
                    AccountSeatRow.seat,
                    AccountSeatRow.account_id,
                    AccountRow.username,
                )
                .join(AccountRow, AccountRow.id == AccountSeatRow.account_id)
                .where(AccountSeatRow.game_id.in_(gids))
            ).all()
            plies = dict(
                s.execute(
                    select(ActionRow.game_id, func.count())
                    .where(ActionRow.game_id.in_(gids))
                    .group_by(ActionRow.game_id)
                ).all()
            )
            account_ids = {a for _g, _s, a, _n in seats}
            rating_rows = s.scalars(select(RatingRow).where(RatingRow.account_id.in_(account_ids))).all()
        rating = {(r.account_id, r.game, r.players): ratings.display(r.mu) for r in rating_rows}
        by_game: dict[str, list[tuple[int, int, str]]] = {}
        for gid, seat, account_id, name in seats:
            by_game.setdefault(gid, []).append((seat, account_id, name))
        t = now()
        out = []
        for g, spectator, control in games:
            held = sorted(by_game.get(g.game_id, []))
            if len(held) != g.players or len({a for _s, a, _n in held}) != g.players:
                continue  # a seat without an account (an invite not yet taken, a computer): not listed
            players: list[dict[str, Any]] = [
                {
                    "seat": seat,
                    "username": name,
                    "rating": rating.get((account_id, g.game, g.players), round(ratings.DISPLAY_BASE)),
                }
                for seat, account_id, name in held
            ]
            created: datetime = g.created
            age = (t - (created if created.tzinfo else created.replace(tzinfo=t.tzinfo))).total_seconds()
            clock = _clock(control, time.time())
            if clock is None and age > UNTIMED_LISTED_S:
                continue
            out.append(
                {
                    "id": g.game_id,
                    "game": g.game,
                    "variant": g.variant,
                    # typed, for the page's language (issues 39, 37)
                    "variant_parts": variant_parts(g.variant, g.game),
                    "rated": g.rated,
                    "players": players,
                    "mean_rating": round(sum(p["rating"] for p in players) / len(players)),
                    "moves": plies.get(g.game_id, 0),
                    "clock": clock,
                    "started": iso(created),
                    "seconds": int(age),
                    "watch": f"/g/{g.game_id}#t={spectator}",
                }
            )
        out.sort(key=lambda x: (-x["mean_rating"], x["seconds"]))
        return out[:MAX_LISTED]

    def featured(self) -> dict[str, dict[str, Any]]:
        """Per game: its best-rated ongoing game (ties: the newest)."""
        best: dict[str, dict[str, Any]] = {}
        for g in self.live():
            if g["game"] not in best:
                best[g["game"]] = g
        return best


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
        }

    return router
