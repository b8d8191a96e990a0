"""Quick game: seeks waiting to be paired, by game, variant and rating.

A seek waits for other players of the same game and options (and the same rated/casual choice
and correspondence clock). Two seeks pair when their display ratings are within both players'
windows; a window starts at WINDOW_START points and widens by WINDOW_PER_S each second waited, so
the nearest rating is preferred and a wait is never endless. After the wait the seeker chose
(`ai_after`), a seek still alone gets a game against the computer. Seeks are listed in the lobby
(no secret in the list) and anyone may accept one.

Seeks live in this server process (they are seconds old; a browser polls its own seek, and one not
polled for SEEK_IDLE_S is dropped). Matching runs when a seek is made or polled.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from trapworks.agents import available_agents

from ..service import ServiceError, create_request
from . import ratings
from .core import variant_of

if TYPE_CHECKING:
    from .core import Accounts, Current

WINDOW_START = 150.0  # display points either side at first
WINDOW_PER_S = 50.0  # the window widens by this much per second waited
WINDOW_MAX = 2000.0
SEEK_IDLE_S = 30.0  # a seek nobody has polled this long is dropped
AI_AFTER_MAX_S = 600.0
MAX_SEEKS = 1000
MAX_DAYS_PER_MOVE = 7


@dataclass(eq=False)
class Seek:
    secret: str  # the seeker's handle (polls, cancel)
    public_id: str  # shown in the lobby's list
    game: str
    title: str
    options: dict[str, Any]
    players: int
    account_id: int | None
    username: str | None
    name: str
    rating: int
    rated: bool
    ai_after: float | None
    ai_level: str
    days_per_move: int | None
    created: float = field(default_factory=time.monotonic)
    polled: float = field(default_factory=time.monotonic)
    result: dict[str, Any] | None = None

    def waited(self, now: float) -> float:
        return now - self.created

    def window(self, now: float) -> float:
        return min(WINDOW_MAX, WINDOW_START + WINDOW_PER_S * self.waited(now))

    def pool(self) -> tuple[str, str, bool, int | None]:
        return (self.game, json.dumps(self.options, sort_keys=True), self.rated, self.days_per_move)


class Matchmaker:
    def __init__(self, accounts: Accounts):
        self.accounts = accounts
        self.service = accounts.service
        self.seeks: dict[str, Seek] = {}
        self._lock = asyncio.Lock()

    async def seek(self, current: Current | None, body: dict[str, Any]) -> Seek:
        game_id = body.get("game")
        if not isinstance(game_id, str):
            raise ServiceError(400, "bad_game", "game: the id of a game, e.g. last-mouse-lost")
        game = self.service.make_game(game_id, body.get("options") or {})
        agents = available_agents(game)
        ai_after = body.get("ai_after", 30)
        if ai_after is not None and (
            isinstance(ai_after, bool)
            or not isinstance(ai_after, int | float)
            or not 1 <= ai_after <= AI_AFTER_MAX_S
        ):
            raise ServiceError(
                400,
                "bad_ai_after",
                f"ai_after {ai_after!r}: seconds from 1 to {AI_AFTER_MAX_S:g}, or null (never)",
            )
        level = body.get("ai_level", "easy")
        if level not in agents:
            raise ServiceError(400, "bad_ai_level", f"ai_level {level!r}: one of {', '.join(agents)}")
        days = body.get("days_per_move")
        if days is not None and (
            isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_DAYS_PER_MOVE
        ):
            raise ServiceError(
                400,
                "bad_days_per_move",
                f"days_per_move {days!r}: whole days from 1 to {MAX_DAYS_PER_MOVE}, or null",
            )
        rated = bool(body.get("rated", current is not None))
        if rated and current is None:
            raise ServiceError(
                401, "login_needed", "a rated game is for players with an account: log in, or play casual"
            )
        n = game.num_players()
        if current is not None:
            mu, sigma, _games = self.accounts.rating(current.account_id, game.game_id, n)
            rating = ratings.display(mu, sigma)
        else:
            rating = round(ratings.DISPLAY_BASE)
        name = current.username if current else str(body.get("name") or "")[:24]
        async with self._lock:
            self._expire()
            if current is not None:
                for old in [
                    s for s in self.seeks.values() if s.account_id == current.account_id and s.result is None
                ]:
                    del self.seeks[old.secret]  # one waiting seek per account: the newest
            if len(self.seeks) >= MAX_SEEKS:
                raise ServiceError(
                    503, "busy", "too many players are seeking right now; try again in a moment"
                )
            seek = Seek(
                secret=secrets.token_urlsafe(24),
                public_id=secrets.token_urlsafe(6),
                game=game.game_id,
                title=type(game).title or game.game_id,
                options=game.public_options(),
                players=n,
                account_id=current.account_id if current else None,
                username=current.username if current else None,
                name=name,
                rating=rating,
                rated=rated,
                ai_after=float(ai_after) if ai_after is not None else None,
                ai_level=level,
                days_per_move=days,
            )
            self.seeks[seek.secret] = seek
            await self._match()
        return seek

    async def poll(self, secret: str) -> Seek:
        seek = self.seeks.get(secret)
        if seek is None:
            raise ServiceError(
                404, "no_such_seek", "this seek is gone (cancelled, or not polled for a while)"
            )
        seek.polled = time.monotonic()
        if seek.result is None:
            async with self._lock:
                await self._match()
        return seek

    def cancel(self, secret: str) -> None:
        seek = self.seeks.get(secret)
        if seek is None or seek.result is not None:
            raise ServiceError(404, "no_such_seek", "no waiting seek with this id")
        del self.seeks[secret]

    async def accept(self, current: Current | None, public_id: str) -> Seek:
        """Take a listed seek: a game with its seeker at once, whatever the ratings."""
        async with self._lock:
            self._expire()
            target = next(
                (s for s in self.seeks.values() if s.public_id == public_id and s.result is None), None
            )
            if target is None:
                raise ServiceError(404, "no_such_seek", "this seek was taken or withdrawn; pick another")
            if current is not None and target.account_id == current.account_id:
                raise ServiceError(409, "own_seek", "this is your own seek")
            if target.rated and current is None:
                raise ServiceError(401, "login_needed", "this seek is for a rated game: log in to accept it")
            if target.players != 2:
                raise ServiceError(409, "not_two_players", "only two-player seeks are accepted from the list")
        body = {
            "game": target.game,
            "options": target.options,
            "rated": target.rated,
            "ai_after": None,
            "days_per_move": target.days_per_move,
        }
        mine = await self.seek(current, body)
        if mine.result is None:  # paired with someone else meanwhile
            async with self._lock:
                if target.result is None and target.secret in self.seeks:
                    await self._start([target, mine])
        return mine

    def listing(self, limit: int = 50) -> list[dict[str, Any]]:
        now = time.monotonic()
        self._expire()
        waiting = [s for s in self.seeks.values() if s.result is None]
        waiting.sort(key=lambda s: s.created)
        return [
            {
                "id": s.public_id,
                "game": s.game,
                "title": s.title,
                "variant": variant_of(s.options),
                "options": s.options,
                "players": s.players,
                "rated": s.rated,
                "name": s.username or s.name or "anonymous",
                "rating": s.rating,
                "days_per_move": s.days_per_move,
                "waiting_s": int(s.waited(now)),
            }
            for s in waiting[:limit]
        ]

    def _expire(self) -> None:
        now = time.monotonic()
        for key in [k for k, s in self.seeks.items() if now - s.polled > SEEK_IDLE_S]:
            del self.seeks[key]

    async def _match(self) -> None:
        """Pair what can be paired: the longest-waiting seek first, with the nearest ratings
        inside every window; then the computer for seeks whose chosen wait is over."""
        now = time.monotonic()
        waiting = sorted((s for s in self.seeks.values() if s.result is None), key=lambda s: s.created)
        taken: set[str] = set()
        for seek in waiting:
            if seek.secret in taken:
                continue
            others = [
                o
                for o in waiting
                if o is not seek
                and o.secret not in taken
                and o.pool() == seek.pool()
                and (o.account_id is None or o.account_id != seek.account_id)
                and abs(o.rating - seek.rating) <= min(o.window(now), seek.window(now))
            ]
            others.sort(key=lambda o: (abs(o.rating - seek.rating), o.created))
            group = [seek]
            for o in others:
                if len(group) == seek.players:
                    break
                if o.account_id is not None and any(g.account_id == o.account_id for g in group):
                    continue
                group.append(o)
            if len(group) == seek.players:
                taken.update(g.secret for g in group)
                await self._start(group)
        for seek in waiting:
            if seek.result is None and seek.ai_after is not None and seek.waited(now) >= seek.ai_after:
                await self._start([seek], ai=True)

    async def _start(self, group: list[Seek], ai: bool = False) -> None:
        first = group[0]
        n = first.players
        order = list(group)
        secrets.SystemRandom().shuffle(order)
        seats: list[dict[str, Any]] = []
        holders: list[Seek | None] = []
        for i in range(n):
            if i < len(order):
                seats.append({"kind": "human", "name": order[i].username or ""})
                holders.append(order[i])
            else:
                seats.append({"kind": "agent", "agent": first.ai_level})
                holders.append(None)
        if ai:  # the seeker's seat is random too
            k = secrets.randbelow(n)
            seats.insert(k, seats.pop(0))
            holders.insert(k, holders.pop(0))
        clock = (
            {"mode": "move", "seconds": first.days_per_move * 86400, "on_timeout": "forfeit"}
            if first.days_per_move
            else None
        )
        rated = first.rated and not ai and all(s.account_id is not None for s in group)
        try:
            live = await self.service.create(
                create_request(game=first.game, options=dict(first.options), seats=seats, clock=clock)
            )
        except ServiceError as e:
            for s in group:
                s.result = {"error": e.message}
            return
        if any(s.account_id is not None for s in group):
            self.accounts.register_game(live, rated=rated)
        for seat, holder in enumerate(holders):
            if holder is None:
                continue
            token = live.stored.seats[seat]["token"]
            if holder.account_id is not None:
                self.accounts.attach(holder.account_id, live.id, token)
            holder.result = {
                "game_id": live.id,
                "seat": seat,
                "token": token,
                "link": f"/g/{live.id}#t={token}",
                "rated": rated,
                "against_ai": ai,
            }

    @staticmethod
    def describe(seek: Seek) -> dict[str, Any]:
        now = time.monotonic()
        out: dict[str, Any] = {
            "seek": seek.secret,
            "id": seek.public_id,
            "game": seek.game,
            "rating": seek.rating,
            "rated": seek.rated,
            "waited_s": round(seek.waited(now), 1),
            "window": round(seek.window(now)),
            "ai_after": seek.ai_after,
            "status": "waiting"
            if seek.result is None
            else ("failed" if "error" in seek.result else "matched"),
        }
        if seek.result is not None:
            out.update(seek.result)
        return out
