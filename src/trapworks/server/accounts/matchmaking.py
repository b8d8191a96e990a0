"""Quick game: seeks waiting to be paired, by game, variant and rating.

A seek waits for other players of the same game and options (and the same rated/casual choice
and correspondence clock). Two seeks pair when their display ratings are within both players'
windows; a window starts at WINDOW_START points and widens by WINDOW_PER_S each second waited, so
the nearest rating is preferred and a wait is never endless. After the wait the seeker chose
(`ai_after`), a seek still alone gets a game against the computer. Seeks are listed in the lobby
(no secret in the list) and anyone may accept one.

Seeks live in the database (table quick_seeks, migration 0006), so every node of a cluster pairs
every seek: a seek made on node A and one made on node B make one game. Matching runs on the node
where a seek is made or polled: it reads the waiting seeks, plans the groups, and claims each
group before making its game, in one transaction that takes every seek of the group or none
(PostgreSQL: SELECT ... FOR UPDATE SKIP LOCKED, then UPDATE; SQLite: a conditional UPDATE ...
WHERE status = 'waiting', its row count checked, as writers are serialised there), so two nodes
planning at once never pair one seek twice. The game's links are written to the seeks' rows (a
poll on any node reads them) and the bus tells every node (message `seek`), which wakes a poll
waiting there (`GET /api/seeks/{id}?wait=...`). A browser polls its own seek; one not polled for
SEEK_IDLE_S (its page gone) is deleted, and a result nobody fetched goes after RESULT_KEEP_S.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import DBAPIError

from trapworks.agents import available_agents

from ..errors import ErrorCode
from ..service import ServiceError, create_request
from . import ratings
from .clocks import MAX_DAYS_PER_MOVE
from .core import variant_of, variant_parts
from .models import SeekRow

if TYPE_CHECKING:
    from .core import Accounts, Current

WINDOW_START = 150.0  # display points either side at first
WINDOW_PER_S = 50.0  # the window widens by this much per second waited
WINDOW_MAX = 2000.0
SEEK_IDLE_S = 30.0  # a seek nobody has polled this long is dropped (the page that polled it is gone)
RESULT_KEEP_S = 120.0  # a matched or failed seek's result is kept this long after its last poll
CLAIM_LAPSE_S = 60.0  # a claim this old was left by a node that stopped while making the game
AI_AFTER_MAX_S = 600.0
MAX_SEEKS = 1000
MAX_WAIT_S = 25.0  # the longest a poll may wait for its match (?wait=)
SWEEP_EVERY_S = 1.0  # how often a node deletes expired seeks

log = logging.getLogger("trapworks.server")


def _now() -> float:
    return time.time()  # seconds since the epoch: the same clock on every node


def seek_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(eq=False)
class Seek:
    key: str  # SHA-256 of the seeker's handle (the row's key)
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
    created: float = field(default_factory=_now)
    polled: float = field(default_factory=_now)
    status: str = "waiting"
    result: dict[str, Any] | None = None
    secret: str = ""  # the handle, known only where the seeker sent it (made, polled)

    def waited(self, now: float) -> float:
        return max(0.0, now - self.created)

    def window(self, now: float) -> float:
        return min(WINDOW_MAX, WINDOW_START + WINDOW_PER_S * self.waited(now))

    def pool(self) -> str:
        key = (self.game, json.dumps(self.options, sort_keys=True), self.rated, self.days_per_move)
        return hashlib.sha256(json.dumps(key).encode()).hexdigest()

    @classmethod
    def from_row(cls, r: SeekRow) -> Seek:
        return cls(
            key=r.id_hash,
            public_id=r.public_id,
            game=r.game,
            title=r.title,
            options=dict(r.options),
            players=r.players,
            account_id=r.account_id,
            username=r.username,
            name=r.name,
            rating=r.rating,
            rated=r.rated,
            ai_after=r.ai_after,
            ai_level=r.ai_level,
            days_per_move=r.days_per_move,
            created=r.created,
            polled=r.polled,
            status=r.status,
            result=dict(r.result) if r.result is not None else None,
        )

    def row(self) -> SeekRow:
        return SeekRow(
            id_hash=self.key,
            public_id=self.public_id,
            pool=self.pool(),
            game=self.game,
            title=self.title,
            options=self.options,
            players=self.players,
            account_id=self.account_id,
            username=self.username,
            name=self.name,
            rating=self.rating,
            rated=self.rated,
            ai_after=self.ai_after,
            ai_level=self.ai_level,
            days_per_move=self.days_per_move,
            created=self.created,
            polled=self.polled,
            status="waiting",
        )


class Matchmaker:
    def __init__(self, accounts: Accounts):
        self.accounts = accounts
        self.service = accounts.service
        self.db = accounts.db
        self._postgres = accounts.engine.dialect.name == "postgresql"
        self._lock = asyncio.Lock()  # one matching pass at a time in this process
        self._matched: dict[str, asyncio.Event] = {}  # seek key -> set when it is settled (polls wait)
        self._swept = 0.0  # when this node last deleted expired seeks
        self.kept_apart: Callable[[int | None, int | None], bool] = lambda a, b: False  # i41: blocks

    # --- the public operations ------------------------------------------------------------------
    async def seek(self, current: Current | None, body: dict[str, Any]) -> Seek:
        game_id = body.get("game")
        if not isinstance(game_id, str):
            raise ServiceError(ErrorCode.BAD_GAME, "game: the id of a game, e.g. last-mouse-lost")
        game = self.service.make_game(game_id, body.get("options") or {})
        agents = available_agents(game)
        ai_after = body.get("ai_after", 30)
        if ai_after is not None and (
            isinstance(ai_after, bool)
            or not isinstance(ai_after, int | float)
            or not 1 <= ai_after <= AI_AFTER_MAX_S
        ):
            raise ServiceError(
                ErrorCode.BAD_AI_AFTER,
                "ai_after {ai_after}: seconds from 1 to {AI_AFTER_MAX_S}, or null (never)",
                ai_after=repr(ai_after),
                AI_AFTER_MAX_S=format(AI_AFTER_MAX_S, "g"),
            )
        level = body.get("ai_level", "easy")
        if level not in agents:
            raise ServiceError(
                ErrorCode.BAD_AI_LEVEL,
                "ai_level {level}: one of {levels}",
                level=repr(level),
                levels=", ".join(agents),
            )
        days = body.get("days_per_move")
        if days is not None and (
            isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_DAYS_PER_MOVE
        ):
            raise ServiceError(
                ErrorCode.BAD_DAYS_PER_MOVE,
                "days_per_move {days}: whole days from 1 to {MAX_DAYS_PER_MOVE}, or null",
                days=repr(days),
                MAX_DAYS_PER_MOVE=MAX_DAYS_PER_MOVE,
            )
        rated = bool(body.get("rated", current is not None))
        if rated and current is None:
            raise ServiceError(
                ErrorCode.LOGIN_NEEDED, "a rated game is for players with an account: log in, or play casual"
            )
        n = game.num_players()
        if current is not None:
            mu, _sigma, _games = self.accounts.rating(current.account_id, game.game_id, n)
            rating = ratings.display(mu)
        else:
            rating = round(ratings.DISPLAY_BASE)
        name = current.username if current else str(body.get("name") or "")[:24]
        secret = secrets.token_urlsafe(24)
        seek = Seek(
            key=seek_hash(secret),
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
            secret=secret,
        )
        await asyncio.to_thread(self._insert, seek)
        await self._match()
        return await self._fresh(seek)

    async def poll(self, secret: str, wait: float = 0.0) -> Seek:
        """The seek behind `secret`, after a matching pass; with `wait`, a seek still waiting is
        answered when it is matched (here or on another node: the bus says so) or after `wait` s."""
        key = seek_hash(secret)
        seek = await asyncio.to_thread(self._touch, key)
        if seek is None:
            raise ServiceError(
                ErrorCode.NO_SUCH_SEEK, "this seek is gone (cancelled, or not polled for a while)"
            )
        if seek.status == "waiting":
            await self._match()
            seek = await asyncio.to_thread(self._load, key) or seek
        deadline = time.monotonic() + min(max(wait, 0.0), MAX_WAIT_S)
        try:
            while seek.status in ("waiting", "claimed") and (left := deadline - time.monotonic()) > 0:
                event = self._matched.setdefault(key, asyncio.Event())
                try:
                    await asyncio.wait_for(event.wait(), timeout=min(left, 1.0))
                except TimeoutError:
                    await self._match()  # the computer's turn may have come, or a seek made elsewhere
                seek = await asyncio.to_thread(self._load, key) or seek
        finally:
            self._matched.pop(key, None)  # bounded: only polls waiting now hold an event
        seek.secret = secret
        return seek

    def cancel(self, secret: str) -> None:
        with self.db.begin() as s:
            gone = s.execute(
                delete(SeekRow).where(SeekRow.id_hash == seek_hash(secret), SeekRow.status == "waiting")
            )
        if not gone.rowcount:  # type: ignore[attr-defined]
            raise ServiceError(ErrorCode.NO_SUCH_SEEK, "no waiting seek with this id")

    async def accept(self, current: Current | None, public_id: str) -> Seek:
        """Take a listed seek: a game with its seeker at once, whatever the ratings."""
        target = await asyncio.to_thread(self._by_public_id, public_id)
        if target is None:
            raise ServiceError(ErrorCode.NO_SUCH_SEEK, "this seek was taken or withdrawn; pick another")
        if current is not None and target.account_id == current.account_id:
            raise ServiceError(ErrorCode.OWN_SEEK, "this is your own seek")
        if current is not None and self.kept_apart(current.account_id, target.account_id):  # community
            raise ServiceError(ErrorCode.BLOCKED, "you cannot play this player: one of you blocks the other")
        if target.rated and current is None:
            raise ServiceError(ErrorCode.LOGIN_NEEDED, "this seek is for a rated game: log in to accept it")
        if target.players != 2:
            raise ServiceError(ErrorCode.NOT_TWO_PLAYERS, "only two-player seeks are accepted from the list")
        body = {
            "game": target.game,
            "options": target.options,
            "rated": target.rated,
            "ai_after": None,
            "days_per_move": target.days_per_move,
        }
        mine = await self.seek(current, body)
        if mine.status == "waiting":  # not paired with someone else meanwhile: the listed seek
            async with self._lock:
                if await asyncio.to_thread(self._claim, [target.key, mine.key], token := _token()):
                    await self._start([target, mine], token)
            mine = await self._fresh(mine)
        return mine

    def listing(self, limit: int = 50) -> list[dict[str, Any]]:
        now = _now()
        with self.db() as s:  # read only (the lobby asks often): expired seeks are left out
            rows = s.scalars(
                select(SeekRow)
                .where(SeekRow.status == "waiting", SeekRow.polled >= now - SEEK_IDLE_S)
                .order_by(SeekRow.created)
                .limit(limit)
            ).all()
            waiting = [Seek.from_row(r) for r in rows]
        return [
            {
                "id": s.public_id,
                "game": s.game,
                "title": s.title,
                "variant": variant_of(s.options),
                "variant_parts": variant_parts(variant_of(s.options), s.game),
                "options": s.options,
                "players": s.players,
                "rated": s.rated,
                "name": s.username or s.name or "anonymous",
                "rating": s.rating,
                "days_per_move": s.days_per_move,
                "waiting_s": int(s.waited(now)),
            }
            for s in waiting
        ]

    async def heard(self, msg: dict[str, Any]) -> None:
        """Another node settled seeks (bus message `seek`): wake the polls waiting for them here."""
        for key in msg.get("seeks") or []:
            event = self._matched.get(str(key))
            if event is not None:
                event.set()

    # --- the database (called in a thread) --------------------------------------------------------
    def _expire(self, now: float) -> None:
        """Delete seeks whose page stopped polling and results nobody fetched; turn claims left by
        a node that stopped while making the game into failures. At most once per SWEEP_EVERY_S
        on a node, in its own short transaction; best effort (two nodes sweeping at once may
        collide: one of them sweeps next time)."""
        if now - self._swept < SWEEP_EVERY_S:
            return
        self._swept = now
        try:
            with self.db.begin() as s:
                s.execute(
                    delete(SeekRow).where(SeekRow.status == "waiting", SeekRow.polled < now - SEEK_IDLE_S)
                )
                s.execute(
                    delete(SeekRow).where(
                        SeekRow.status.in_(("matched", "failed")), SeekRow.polled < now - RESULT_KEEP_S
                    )
                )
                s.execute(  # rather than pair the seek twice: "seek again"
                    update(SeekRow)
                    .where(SeekRow.status == "claimed", SeekRow.claimed_at < now - CLAIM_LAPSE_S)
                    .values(
                        status="failed",
                        result={
                            "error": "the server making this game stopped; seek again",
                            "msg": "the server making this game stopped; seek again",
                            "args": {},
                        },
                    )
                )
        except DBAPIError as e:
            log.warning("quick game: expired seeks not swept this time: %s", type(e).__name__)

    def _insert(self, seek: Seek) -> None:
        self._expire(seek.created)
        with self.db.begin() as s:
            if seek.account_id is not None:  # one waiting seek per account: the newest
                s.execute(
                    delete(SeekRow).where(SeekRow.account_id == seek.account_id, SeekRow.status == "waiting")
                )
            count = s.scalar(select(func.count()).select_from(SeekRow).where(SeekRow.status == "waiting"))
            if (count or 0) >= MAX_SEEKS:
                raise ServiceError(
                    ErrorCode.BUSY, "too many players are seeking right now; try again in a moment"
                )
            s.add(seek.row())

    def _load(self, key: str) -> Seek | None:
        with self.db() as s:
            row = s.get(SeekRow, key)
            return Seek.from_row(row) if row is not None else None

    def _touch(self, key: str) -> Seek | None:
        """The seek `key`, its poll time renewed; None when it is gone or expired."""
        now = _now()
        self._expire(now)
        with self.db.begin() as s:
            row = s.get(SeekRow, key)
            if row is None or (row.status == "waiting" and row.polled < now - SEEK_IDLE_S):
                return None  # its page stopped polling: it expired (deleted at the next sweep)
            row.polled = now
            return Seek.from_row(row)

    def _by_public_id(self, public_id: str) -> Seek | None:
        now = _now()
        self._expire(now)
        with self.db() as s:
            row = s.scalars(
                select(SeekRow).where(
                    SeekRow.public_id == public_id,
                    SeekRow.status == "waiting",
                    SeekRow.polled >= now - SEEK_IDLE_S,
                )
            ).first()
            return Seek.from_row(row) if row is not None else None

    def _waiting(self) -> list[Seek]:
        now = _now()
        self._expire(now)
        with self.db() as s:
            rows = s.scalars(
                select(SeekRow)
                .where(SeekRow.status == "waiting", SeekRow.polled >= now - SEEK_IDLE_S)
                .order_by(SeekRow.created)
            ).all()
            return [Seek.from_row(r) for r in rows]

    def _claim(self, keys: list[str], token: str) -> bool:
        """Claim every seek of `keys` for one game, or none: True when all were still waiting
        (committed on return). Two nodes claiming overlapping groups at once: one wins."""
        now = _now()
        try:
            with self.db.begin() as s:
                if self._postgres:
                    # Lock the group's waiting rows; rows another node holds are skipped, not
                    # waited for (no two nodes wait on each other's groups: no deadlock).
                    got = s.scalars(
                        select(SeekRow.id_hash)
                        .where(SeekRow.id_hash.in_(keys), SeekRow.status == "waiting")
                        .with_for_update(skip_locked=True)
                    ).all()
                    if len(got) != len(keys):
                        raise _Lost
                taken = s.execute(
                    update(SeekRow)
                    .where(SeekRow.id_hash.in_(keys), SeekRow.status == "waiting")
                    .values(status="claimed", claim=token, claimed_at=now)
                )
                if taken.rowcount != len(keys):  # type: ignore[attr-defined]
                    raise _Lost  # some seek was paired elsewhere meanwhile: roll back, make nothing
        except _Lost:
            return False
        return True

    def _settle(self, token: str, results: dict[str, dict[str, Any]]) -> None:
        with self.db.begin() as s:
            for key, result in results.items():
                s.execute(
                    update(SeekRow)
                    .where(SeekRow.id_hash == key, SeekRow.claim == token)
                    .values(status="failed" if "error" in result else "matched", result=result)
                )

    async def _fresh(self, seek: Seek) -> Seek:
        found = await asyncio.to_thread(self._load, seek.key)
        if found is None:
            return seek
        found.secret = seek.secret
        return found

    # --- pairing ---------------------------------------------------------------------------------
    async def _match(self) -> None:
        """Pair what can be paired: the longest-waiting seek first, with the nearest ratings
        inside every window; then the computer for seeks whose chosen wait is over. Each group is
        claimed in the database before its game is made (another node may be pairing too)."""
        async with self._lock:
            waiting = await asyncio.to_thread(self._waiting)
            for group, ai in plan(waiting, _now(), self.kept_apart):
                token = _token()
                if await asyncio.to_thread(self._claim, [g.key for g in group], token):
                    await self._start(group, token, ai=ai)

    async def _start(self, group: list[Seek], token: str, ai: bool = False) -> None:
        """Make the game of a claimed group and write each seat's link to its seek."""
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
            await self._settled(token, {s.key: {"error": e.message, **e.typed} for s in group})
            return
        if any(s.account_id is not None for s in group):
            self.accounts.register_game(live, rated=rated)
        results: dict[str, dict[str, Any]] = {}
        for seat, holder in enumerate(holders):
            if holder is None:
                continue
            seat_token = live.stored.seats[seat]["token"]
            if holder.account_id is not None:
                self.accounts.attach(holder.account_id, live.id, seat_token)
            results[holder.key] = {
                "game_id": live.id,
                "seat": seat,
                "token": seat_token,
                "link": f"/g/{live.id}#t={seat_token}",
                "rated": rated,
                "against_ai": ai,
            }
        await self._settled(token, results)

    async def _settled(self, token: str, results: dict[str, dict[str, Any]]) -> None:
        """Write the results, wake this node's waiting polls and tell the other nodes (the bus)."""
        await asyncio.to_thread(self._settle, token, results)
        for key in results:
            event = self._matched.get(key)
            if event is not None:
                event.set()
        self.service.bus.publish({"k": "seek", "seeks": sorted(results)})

    @staticmethod
    def describe(seek: Seek) -> dict[str, Any]:
        now = _now()
        out: dict[str, Any] = {
            "seek": seek.secret,
            "id": seek.public_id,
            "game": seek.game,
            "rating": seek.rating,
            "rated": seek.rated,
            "waited_s": round(seek.waited(now), 1),
            "window": round(seek.window(now)),
            "ai_after": seek.ai_after,
            # "claimed" (a node is making the game) reads as waiting: the link follows in a moment.
            "status": "waiting"
            if seek.result is None
            else ("failed" if "error" in seek.result else "matched"),
        }
        if seek.result is not None:
            out.update(seek.result)
        return out


class _Lost(Exception):
    """A claim found a seek of its group taken: the transaction rolls back."""


def _token() -> str:
    return secrets.token_hex(8)


def plan(
    waiting: list[Seek], now: float, kept_apart: Callable[[int | None, int | None], bool] | None = None
) -> list[tuple[list[Seek], bool]]:
    """The groups to make from `waiting` (oldest first): (seeks, against the computer)."""
    waiting = sorted(waiting, key=lambda s: s.created)
    taken: set[str] = set()
    groups: list[tuple[list[Seek], bool]] = []
    for seek in waiting:
        if seek.key in taken:
            continue
        others = [
            o
            for o in waiting
            if o is not seek
            and o.key not in taken
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
            if kept_apart and any(kept_apart(g.account_id, o.account_id) for g in group):
                continue  # i41: a player who blocks another is never paired with them
            group.append(o)
        if len(group) == seek.players:
            taken.update(g.key for g in group)
            groups.append((group, False))
    for seek in waiting:
        if seek.key not in taken and seek.ai_after is not None and seek.waited(now) >= seek.ai_after:
            groups.append(([seek], True))
    return groups
