"""Arenas (issue 41), as lichess runs them: an arena has a game and its options, a clock, a start
and a length; players join and leave at any time while it runs; whoever is free is paired again
at once (by standing: neighbours in the table play), avoiding an immediate rematch where anyone
else is free (after REMATCH_WAIT_S the two may meet again rather than wait on); a win scores 2, a
draw 1, a loss 0, and after two wins in a row (a streak: "on fire") a win scores 4 and a draw 2
until the streak ends. Standings are read from the database on every request; when the arena ends
the podium gets trophies (shown on the profiles).

Several nodes: every node runs the arena loop; each pairing wave is claimed by a conditional
UPDATE of the arena's row (wave number seen, nobody's claim running or a claim lapsed), so exactly
one node pairs each wave and a node lost mid-arena only delays the next wave by LAPSE_S; a pair
is recorded (its game's id chosen) before its game is made, and the next wave makes what a lost
node left recorded but not made, or finds it made: one game per pair, none outside the arena. A game's
points are written once (a conditional UPDATE of its `scored` flag, in the same transaction as the
points), from the result the accounts stored when it ended, whichever node played it: no score is
lost with a node.

Recurring arenas (issue 41, a player-judge's fix: "recurring arenas, hourly, per game"): with
`recurring` on (`trapworks serve` turns it on; `enable_recurring_arenas`), each game of RECURRING
has an arena every hour, at its own minute of the hour (the games one after another, so one is
always about to start), RECURRING_MINUTES long, with the game's rulebook options for two and a
clock of RECURRING_CLOCK_S a move. The arena loop keeps the one running and the next one made.
Each has an id fixed by its game and its start ("h" + the game's code + the start's time): every
node of a cluster may try to make it, the database's primary key keeps exactly one (the node
whose INSERT commits made it; the others find it made).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import time
from datetime import datetime, timedelta
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field
from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from ..accounts.models import AccountGameRow, AccountSeatRow
from ..errors import ErrorCode, ServiceError
from ..features.resign import Resign, seat_moves
from ..messages import TokenOnly
from .core import Community, aware, iso, now, refusal
from .models import ArenaGameRow, ArenaPlayerRow, ArenaRow, SwissRow, TrophyRow
from .pages import page
from .swiss import Swiss

log = logging.getLogger("trapworks.arena")

WAVE_S = 1.0  # how often a node looks for a wave to pair
MIN_GAP_S = 0.5  # the shortest time between two waves of one arena (on any node)
LAPSE_S = 10.0  # a wave claimed this long ago by a node that did not finish it: taken over
REMATCH_WAIT_S = 3.0  # two players free only for each other wait this long, then meet again
# A pairing whose game is not played (a player absent, as lichess's arena): a seat that has not
# made its first move this long after the game began (or after the first move, for the second
# seat) is gone; the game is aborted (no points) and the absent player paused, the other paired again.
ABSENT_S = 30.0
ABSENT_MAX_PLIES = 8  # more actions stored than this (chance outcomes included): being played
MAX_MINUTES = 24 * 60
PODIUM = 3
# Recurring arenas: (game, its code in the arena's id, options for two players, minute of the hour).
RECURRING: tuple[tuple[str, str, dict[str, Any], int], ...] = (
    ("last-mouse-lost", "lml", {}, 0),
    ("booby-trap", "bt", {}, 15),
    ("mouse-trap", "mt", {}, 30),
    ("dead-end-drive", "ded", {"players": 2}, 45),
)
RECURRING_MINUTES = 40  # each runs 40 minutes of its hour
RECURRING_CLOCK_S = 30  # seconds a move (the create form's default too)
RECURRING_CHECK_S = 30.0  # how often a node makes sure the next ones exist


def points_for(result: str, streak: int) -> tuple[int, int]:
    """(points, new streak) of a result (won, drawn, lost) for a player on `streak` wins."""
    fire = streak >= 2
    if result == "won":
        return (4 if fire else 2), streak + 1
    if result == "drawn":
        return (2 if fire else 1), 0
    return 0, 0


class ArenaBody(BaseModel):
    name: str = Field(min_length=1, max_length=80)
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    minutes: int = Field(ge=1, le=MAX_MINUTES, description="how long it runs")
    starts_in_s: int = Field(0, ge=0, le=30 * 86400, description="seconds from now to its start")
    seconds_per_move: int | None = Field(None, ge=5, le=3600)


class Arenas:
    def __init__(self, community: Community, swiss: Swiss | None = None):
        self.c = community
        self.swiss = swiss  # its rounds move on in the same loop
        self.node = secrets.token_hex(6)
        self.wave_s = WAVE_S
        self.rematch_wait_s = REMATCH_WAIT_S
        self.absent_s = ABSENT_S
        self.recurring = False  # the hourly arenas per game (enable_recurring_arenas)
        self._recurring_at = 0.0  # when this node last made sure they exist
        self._task: asyncio.Task | None = None

    # --- the players' operations ----------------------------------------------------------------------
    def create(self, account_id: int, body: ArenaBody) -> dict[str, Any]:
        game = self.c.service.make_game(body.game, body.options)
        if game.num_players() != 2:
            raise ServiceError(ErrorCode.TWO_PLAYERS_ONLY, "an arena's games are between two players")
        clock = (
            {"mode": "move", "seconds": body.seconds_per_move, "on_timeout": "forfeit"}
            if body.seconds_per_move
            else None
        )
        row = ArenaRow(
            id=secrets.token_urlsafe(9),
            name=body.name.strip(),
            game=game.game_id,
            options=game.public_options(),
            clock=clock,
            starts=now() + timedelta(seconds=body.starts_in_s),
            minutes=body.minutes,
            created_by=account_id,
            wave=0,
            wave_at=0.0,
            finished=False,
        )
        with self.c.db.begin() as s:
            s.add(row)
        return self.standings(row.id)

    # --- recurring arenas ----------------------------------------------------------------------------
    @staticmethod
    def recurring_id(code: str, starts: datetime) -> str:
        return f"h{code}-{starts:%y%m%d%H%M}"  # at most 15 characters (the id's column: 16)

    def planned(self, t: datetime) -> list[tuple[str, str, dict[str, Any], datetime]]:
        """The recurring arenas that should exist at `t`: per game, the one running (if any) and
        the next one. (game, id, options, start)."""
        hour = t.replace(minute=0, second=0, microsecond=0)
        out: list[tuple[str, str, dict[str, Any], datetime]] = []
        for game, code, options, minute in RECURRING:
            starts = [hour + timedelta(hours=h, minutes=minute) for h in (-1, 0, 1)]
            running = [a for a in starts if a <= t < a + timedelta(minutes=RECURRING_MINUTES)]
            upcoming = [a for a in starts if a > t][:1]
            out.extend((game, self.recurring_id(code, a), options, a) for a in running + upcoming)
        return out

    def make_recurring(self, t: datetime | None = None) -> list[str]:
        """Make the recurring arenas that should exist at `t` (default now) and do not: the ids
        this node made. Safe on every node at once: a fixed id is inserted once (the others'
        INSERT fails on the primary key and finds it made)."""
        t = t or now()
        made = []
        for game, arena_id, options, starts in self.planned(t):
            with self.c.db() as s:
                if s.get(ArenaRow, arena_id) is not None:
                    continue
            the_game = self.c.service.make_game(game, options)
            row = ArenaRow(
                id=arena_id,
                name=f"Hourly {the_game.game_id} arena",  # the page names it in its language
                game=the_game.game_id,
                options=the_game.public_options(),
                clock={"mode": "move", "seconds": RECURRING_CLOCK_S, "on_timeout": "forfeit"},
                starts=starts,
                minutes=RECURRING_MINUTES,
                created_by=None,
                wave=0,
                wave_at=0.0,
                finished=False,
            )
            try:
                with self.c.db.begin() as s:
                    s.add(row)
            except IntegrityError:
                continue  # another node made it that moment
            made.append(arena_id)
        return made

    def _keep_recurring(self) -> None:
        if not self.recurring or time.time() - self._recurring_at < RECURRING_CHECK_S:
            return
        self._recurring_at = time.time()
        made = self.make_recurring()
        if made:
            log.info("recurring arenas made: %s", ", ".join(made))

    @staticmethod
    def is_recurring(arena: ArenaRow) -> bool:
        return arena.created_by is None and re.fullmatch(r"h[a-z]+-[0-9]{10}", arena.id) is not None

    def _arena(self, arena_id: str) -> ArenaRow:
        with self.c.db() as s:
            row = s.get(ArenaRow, arena_id[:16])
        if row is None:
            raise ServiceError(ErrorCode.NO_SUCH_ARENA, "no such arena")
        return row

    @staticmethod
    def _ends(arena: ArenaRow) -> Any:
        return (aware(arena.starts) or now()) + timedelta(minutes=arena.minutes)

    def join(self, account_id: int, arena_id: str) -> None:
        arena = self._arena(arena_id)
        if arena.finished or self._ends(arena) <= now():
            raise refusal(
                ErrorCode.ARENA_FINISHED, "the arena '{name}' is over: join another", name=arena.name
            )
        with self.c.db.begin() as s:
            row = s.get(ArenaPlayerRow, (arena.id, account_id))
            if row is None:
                s.add(
                    ArenaPlayerRow(
                        arena_id=arena.id,
                        account_id=account_id,
                        active=True,
                        score=0,
                        streak=0,
                        games=0,
                        joined=now(),
                    )
                )
            else:
                row.active = True

    def leave(self, account_id: int, arena_id: str) -> None:
        arena = self._arena(arena_id)
        with self.c.db.begin() as s:
            row = s.get(ArenaPlayerRow, (arena.id, account_id))
            if row is None:
                raise ServiceError(ErrorCode.NOT_IN_ARENA, "you have not joined this arena")
            row.active = False  # the score stays; joining again resumes

    def standings(self, arena_id: str) -> dict[str, Any]:
        arena = self._arena(arena_id)
        with self.c.db() as s:
            players = s.scalars(select(ArenaPlayerRow).where(ArenaPlayerRow.arena_id == arena.id)).all()
            games = s.execute(
                select(ArenaGameRow, AccountGameRow.status)
                .join(AccountGameRow, AccountGameRow.game_id == ArenaGameRow.game_id, isouter=True)
                .where(ArenaGameRow.arena_id == arena.id)
                .order_by(ArenaGameRow.created)
            ).all()
        names = self.c.names({p.account_id for p in players})
        playing = {a: g.game_id for g, st in games if not g.scored and st == "on" for a in g.players}
        table = sorted(players, key=lambda p: (-p.score, -p.streak, names.get(p.account_id, "").casefold()))
        t = now()
        state = (
            "finished"
            if arena.finished or self._ends(arena) <= t
            else "running"
            if (aware(arena.starts) or t) <= t
            else "upcoming"
        )
        return {
            "id": arena.id,
            "name": arena.name,
            "game": arena.game,
            "options": arena.options,
            "clock": arena.clock,
            "starts": iso(arena.starts),
            "ends": iso(self._ends(arena)),
            "minutes": arena.minutes,
            "state": state,
            "recurring": "hourly" if self.is_recurring(arena) else None,
            "waves": arena.wave,
            "standings": [
                {
                    "rank": i + 1,
                    "username": names.get(p.account_id),
                    "score": p.score,
                    "games": p.games,
                    "streak": p.streak,
                    "on_fire": p.streak >= 2,
                    "active": p.active,
                    "playing": playing.get(p.account_id),
                }
                for i, p in enumerate(table)
            ],
            "games": [
                {
                    "id": g.game_id,
                    "players": [names.get(a) for a in g.players],
                    "wave": g.wave,
                    "points": g.points,
                    "on": not g.scored and st == "on",
                }
                for g, st in games
            ],
        }

    def listing(self) -> list[dict[str, Any]]:
        """Upcoming, running and recent arenas, with how many joined each; a recurring arena that
        ended with nobody in it is left out (an hour of empty ones is noise, not news)."""
        with self.c.db() as s:
            rows = s.scalars(select(ArenaRow).order_by(ArenaRow.starts.desc()).limit(80)).all()
            joined = dict(
                s.execute(
                    select(ArenaPlayerRow.arena_id, func.count())
                    .where(ArenaPlayerRow.arena_id.in_([a.id for a in rows]))
                    .group_by(ArenaPlayerRow.arena_id)
                ).all()
            )
        t = now()
        out = []
        for a in rows:
            state = (
                "finished"
                if a.finished or self._ends(a) <= t
                else "running"
                if (aware(a.starts) or t) <= t
                else "upcoming"
            )
            recurring = self.is_recurring(a)
            if recurring and state == "finished" and not joined.get(a.id):
                continue
            out.append(
                {
                    "id": a.id,
                    "name": a.name,
                    "game": a.game,
                    "starts": iso(a.starts),
                    "ends": iso(self._ends(a)),
                    "minutes": a.minutes,
                    "clock": a.clock,
                    "state": state,
                    "recurring": "hourly" if recurring else None,
                    "players": int(joined.get(a.id, 0)),
                }
            )
        return out[:50]

    def trophies(self, username: str) -> list[dict[str, Any]]:
        account_id, _ = self.c.player(username)
        with self.c.db() as s:
            rows = s.scalars(
                select(TrophyRow).where(TrophyRow.account_id == account_id).order_by(TrophyRow.at.desc())
            ).all()
        return [
            {
                "event": r.event_id,
                "name": r.event_name,
                "game": r.game,
                "place": r.place,
                "score": r.score,
                "at": iso(r.at),
            }
            for r in rows
        ]

    def mine(self, account_id: int) -> dict[str, Any]:
        """Where the player stands in the arenas they joined that are not over: the arena (the
        newest such where they are active, else paused), whether they are in the pool, and their
        arena game going on with their seat's link (only ever sent to the player): every page
        of the site takes them to it at once (js/arena-follow.js), as lichess's arena does."""
        t = now()
        with self.c.db() as s:
            rows = s.execute(
                select(ArenaRow, ArenaPlayerRow)
                .join(ArenaPlayerRow, ArenaPlayerRow.arena_id == ArenaRow.id)
                .where(ArenaPlayerRow.account_id == account_id, ArenaRow.finished.is_(False))
            ).all()
        live = [(a, p) for a, p in rows if self._ends(a) > t]
        if not live:
            return {"arena": None, "game": None}
        live.sort(key=lambda ap: (not ap[1].active, -(aware(ap[0].starts) or t).timestamp()))
        arena, player = live[0]
        game = self._game_of(account_id, [a.id for a, _ in live])
        return {
            "arena": {
                "id": arena.id,
                "name": arena.name,
                "state": "running" if (aware(arena.starts) or t) <= t else "upcoming",
                "starts": iso(arena.starts),
                "ends": iso(self._ends(arena)),
                "active": player.active,
            },
            "game": game,
        }

    def _game_of(self, account_id: int, arena_ids: list[str]) -> dict[str, Any] | None:
        """The player's arena game going on (of `arena_ids`), with their seat's link; None."""
        from ..store import GameRow  # the seat's token, as the account's games list reads it

        with self.c.db() as s:
            found = s.execute(
                select(ArenaGameRow.game_id, ArenaGameRow.arena_id, AccountSeatRow.seat, GameRow.seats)
                .join(AccountGameRow, AccountGameRow.game_id == ArenaGameRow.game_id)
                .join(AccountSeatRow, AccountSeatRow.game_id == ArenaGameRow.game_id)
                .join(GameRow, GameRow.id == ArenaGameRow.game_id)
                .where(
                    ArenaGameRow.arena_id.in_(arena_ids),
                    ArenaGameRow.scored.is_(False),
                    AccountGameRow.status == "on",
                    AccountSeatRow.account_id == account_id,
                )
                .order_by(ArenaGameRow.created.desc())
                .limit(1)
            ).first()
        if found is None:
            return None
        gid, arena_id, seat, seats = found
        token = seats[seat].get("token") if seat < len(seats or []) else None
        return {"id": gid, "arena": arena_id, "link": f"/g/{gid}#t={token}" if token else f"/g/{gid}"}

    def arena_of_game(self, game_id: str) -> dict[str, Any] | None:
        """The arena a game was played in (the end screen's "Back to the arena"); None."""
        with self.c.db() as s:
            row = s.execute(
                select(ArenaRow.id, ArenaRow.name)
                .join(ArenaGameRow, ArenaGameRow.arena_id == ArenaRow.id)
                .where(ArenaGameRow.game_id == game_id[:32])
            ).first()
        return None if row is None else {"id": row[0], "name": row[1]}

    # --- waves ----------------------------------------------------------------------------------------
    def _claim(self, arena: ArenaRow) -> bool:
        t = time.time()
        with self.c.db.begin() as s:
            done = s.execute(
                update(ArenaRow)
                .where(
                    ArenaRow.id == arena.id,
                    ArenaRow.wave == arena.wave,
                    ArenaRow.finished.is_(False),
                    ArenaRow.wave_at <= t - MIN_GAP_S,
                    or_(ArenaRow.wave_node.is_(None), ArenaRow.wave_at < t - LAPSE_S),
                )
                .values(wave=arena.wave + 1, wave_node=self.node, wave_at=t)
            )
        return done.rowcount == 1

    def _release(self, arena_id: str) -> None:
        with self.c.db.begin() as s:
            s.execute(
                update(ArenaRow)
                .where(ArenaRow.id == arena_id, ArenaRow.wave_node == self.node)
                .values(wave_node=None, wave_at=time.time())
            )

    def _score_ended(self, arena_id: str) -> None:
        """Points for every game of the arena that has ended and is not scored yet (once each)."""
        with self.c.db() as s:
            ended = s.execute(
                select(ArenaGameRow.game_id, ArenaGameRow.players)
                .join(AccountGameRow, AccountGameRow.game_id == ArenaGameRow.game_id)
                .where(
                    ArenaGameRow.arena_id == arena_id,
                    ArenaGameRow.scored.is_(False),
                    AccountGameRow.status != "on",
                )
            ).all()
        for gid, holders in ended:
            with self.c.db.begin() as s:
                took = s.execute(
                    update(ArenaGameRow)
                    .where(ArenaGameRow.game_id == gid, ArenaGameRow.scored.is_(False))
                    .values(scored=True)
                )
                if took.rowcount != 1:
                    continue  # scored by another node meanwhile
                results = dict(
                    s.execute(
                        select(AccountSeatRow.seat, AccountSeatRow.result).where(
                            AccountSeatRow.game_id == gid
                        )
                    ).all()
                )
                points = []
                for seat, account_id in enumerate(holders):
                    player = s.get(ArenaPlayerRow, (arena_id, account_id))
                    result = results.get(seat) or "aborted"
                    if player is None or result == "aborted":
                        points.append(0)
                        continue
                    gained, player.streak = points_for(result, player.streak)
                    player.score += gained
                    player.games += 1
                    points.append(gained)
                s.execute(update(ArenaGameRow).where(ArenaGameRow.game_id == gid).values(points=points))

    async def _drop_absent(self, arena_id: str) -> None:
        """Games of the arena not played: a seat that has not made its first move `absent_s` after
        the game began (the second seat: twice that) is absent; the game is aborted (no points,
        as a game aborted by a player) and the absent player paused (join again to come back):
        the other is free at the next wave, not left waiting on a game nobody plays."""
        cutoff = now() - timedelta(seconds=self.absent_s)
        with self.c.db() as s:
            stale = s.execute(
                select(ArenaGameRow.game_id, ArenaGameRow.players, ArenaGameRow.created)
                .join(AccountGameRow, AccountGameRow.game_id == ArenaGameRow.game_id)
                .where(
                    ArenaGameRow.arena_id == arena_id,
                    ArenaGameRow.scored.is_(False),
                    AccountGameRow.status == "on",
                    ArenaGameRow.created <= cutoff,
                )
            ).all()
        store = self.c.service.store
        for gid, holders, created in stale:
            # From the store first (cheap, and no copy of a game played on another node is loaded
            # here): a game whose seats have made their first moves is being played.
            if store.ply_count(gid) > ABSENT_MAX_PLIES:
                continue
            moves = sum(1 for seat, _text in store.actions_from(gid, 0) if seat >= 0)
            age = (now() - (aware(created) or now())).total_seconds()
            if moves >= 2 or age < self.absent_s * (1 + moves):
                continue
            try:
                room = self.c.service.get(gid)
            except ServiceError:
                continue
            if room.ended() or seat_moves(room) != moves:
                continue  # moved meanwhile
            seat = room.state.current_player()
            token = next((st["token"] for st in room.stored.seats if st.get("token")), None)
            if token is None:
                continue
            try:
                await self.c.service.feature(Resign).abort(gid, TokenOnly(token=token))
            except ServiceError as e:  # moved meanwhile, or ended: nothing to drop
                log.info("arena %s: game %s not aborted: %s", arena_id, gid, e.message)
                continue
            if 0 <= seat < len(holders):
                with self.c.db.begin() as s:
                    s.execute(
                        update(ArenaPlayerRow)
                        .where(
                            ArenaPlayerRow.arena_id == arena_id, ArenaPlayerRow.account_id == holders[seat]
                        )
                        .values(active=False)
                    )
            log.info("arena %s: game %s aborted, seat %s absent", arena_id, gid, seat)

    def _free(self, arena_id: str) -> tuple[list[ArenaPlayerRow], dict[int, float]]:
        """Active players in no game going on, best first; and when each one's last game ended."""
        with self.c.db() as s:
            players = s.scalars(
                select(ArenaPlayerRow).where(
                    ArenaPlayerRow.arena_id == arena_id, ArenaPlayerRow.active.is_(True)
                )
            ).all()
            games = s.execute(
                select(ArenaGameRow.players, ArenaGameRow.scored, AccountGameRow.status, AccountGameRow.ended)
                .join(AccountGameRow, AccountGameRow.game_id == ArenaGameRow.game_id, isouter=True)
                .where(ArenaGameRow.arena_id == arena_id)
                .order_by(ArenaGameRow.created)
            ).all()
        busy: set[int] = set()
        ended_at: dict[int, float] = {}
        for holders, scored, status, ended in games:
            if not scored and status in ("on", None):
                busy.update(holders)
            elif ended is not None:
                for a in holders:
                    ended_at[a] = (aware(ended) or now()).timestamp()
        free = [p for p in players if p.account_id not in busy]
        free.sort(key=lambda p: (-p.score, secrets.randbelow(1 << 30)))
        return free, ended_at

    def plan(self, free: list[ArenaPlayerRow], ended_at: dict[int, float], t: float) -> list[tuple[int, int]]:
        """Pairs among the free players: neighbours by score, no immediate rematch where another
        opponent is free (two free only for each other meet again after rematch_wait_s)."""
        left = list(free)
        pairs = []
        while len(left) >= 2:
            p = left.pop(0)
            pick = next(
                (
                    q
                    for q in left
                    if not (p.last_opponent == q.account_id and q.last_opponent == p.account_id)
                ),
                None,
            )
            if pick is None:
                q = left[0]
                if t - ended_at.get(p.account_id, 0.0) < self.rematch_wait_s:
                    continue  # p waits a moment for another opponent
                pick = q
            left.remove(pick)
            pairs.append((p.account_id, pick.account_id))
        return pairs

    async def _pair(self, arena: ArenaRow, wave: int) -> None:
        """Each pair recorded first (its game's id chosen ahead), then its game made: a node lost
        in between leaves a recorded game that the next wave's node makes (`_make_missing`), or
        finds made; never a game outside the arena, nor a second game for the same pair."""
        free, ended_at = self._free(arena.id)
        for a, b in self.plan(free, ended_at, time.time()):
            holders = [a, b] if secrets.randbelow(2) else [b, a]
            game_id = secrets.token_urlsafe(9)
            with self.c.db.begin() as s:
                s.add(
                    ArenaGameRow(
                        game_id=game_id,
                        arena_id=arena.id,
                        players=holders,
                        wave=wave,
                        created=now(),
                        scored=False,
                    )
                )
                s.execute(
                    update(ArenaPlayerRow)
                    .where(ArenaPlayerRow.arena_id == arena.id, ArenaPlayerRow.account_id == a)
                    .values(last_opponent=b)
                )
                s.execute(
                    update(ArenaPlayerRow)
                    .where(ArenaPlayerRow.arena_id == arena.id, ArenaPlayerRow.account_id == b)
                    .values(last_opponent=a)
                )
            await self._make(arena, game_id, holders)

    async def _make(self, arena: ArenaRow, game_id: str, holders: list[int]) -> None:
        try:
            await self.c.make_game(
                arena.game, arena.options, holders, arena.clock, rated=True, game_id=game_id
            )
        except ServiceError as e:  # never made: the pair is free again
            log.error("arena %s: a game could not be made: %s", arena.id, e.message)
            with self.c.db.begin() as s:
                s.execute(delete(ArenaGameRow).where(ArenaGameRow.game_id == game_id))

    async def _make_missing(self, arena: ArenaRow) -> None:
        """The games recorded but not made (their node was lost in between): made, or found made."""
        with self.c.db() as s:
            missing = s.execute(
                select(ArenaGameRow.game_id, ArenaGameRow.players)
                .join(AccountGameRow, AccountGameRow.game_id == ArenaGameRow.game_id, isouter=True)
                .where(ArenaGameRow.arena_id == arena.id, AccountGameRow.game_id.is_(None))
            ).all()
        for game_id, holders in missing:
            await self._make(arena, game_id, list(holders))

    def _finish(self, arena: ArenaRow) -> None:
        """The arena is over: its podium's trophies, once (the flag set in the same transaction)."""
        with self.c.db.begin() as s:
            took = s.execute(
                update(ArenaRow)
                .where(ArenaRow.id == arena.id, ArenaRow.finished.is_(False))
                .values(finished=True)
            )
            if took.rowcount != 1:
                return
            players = s.scalars(
                select(ArenaPlayerRow).where(ArenaPlayerRow.arena_id == arena.id, ArenaPlayerRow.games > 0)
            ).all()
            ranked = sorted(players, key=lambda p: (-p.score, -p.streak))
            for place, p in enumerate(ranked[:PODIUM], start=1):
                s.add(
                    TrophyRow(
                        account_id=p.account_id,
                        event_id=arena.id,
                        event_name=arena.name,
                        game=arena.game,
                        place=place,
                        score=p.score,
                        at=now(),
                    )
                )

    def _quiet(self, arena_ids: list[str]) -> set[str]:
        """The arenas of `arena_ids` that nobody has joined."""
        if not arena_ids:
            return set()
        with self.c.db() as s:
            joined = set(
                s.scalars(
                    select(ArenaPlayerRow.arena_id).where(ArenaPlayerRow.arena_id.in_(arena_ids)).distinct()
                ).all()
            )
        return set(arena_ids) - joined

    async def tick(self) -> None:
        """One look at every arena running or just over: this node pairs the waves it claims."""
        t = now()
        with self.c.db() as s:
            arenas = s.scalars(
                select(ArenaRow).where(ArenaRow.finished.is_(False), ArenaRow.starts <= t)
            ).all()
        quiet = await asyncio.to_thread(self._quiet, [a.id for a in arenas]) if arenas else set()
        for arena in arenas:
            if arena.id in quiet and self._ends(arena) > now():
                continue  # nobody joined yet: no wave to pair (a recurring arena waits for players)
            if not await asyncio.to_thread(self._claim, arena):
                continue  # another node has this wave
            try:
                await self._make_missing(arena)
                await self._drop_absent(arena.id)
                await asyncio.to_thread(self._score_ended, arena.id)
                if self._ends(arena) <= now():
                    await asyncio.to_thread(self._finish, arena)
                else:
                    await self._pair(arena, arena.wave + 1)
            finally:
                await asyncio.to_thread(self._release, arena.id)

    async def _loop(self) -> None:
        while True:
            try:
                if self.recurring:
                    await asyncio.to_thread(self._keep_recurring)
                await self.tick()
                if self.swiss is not None:
                    await self.swiss.tick()
            except Exception as e:  # a database hiccup: the next wave tries again
                log.error("arena loop: %s: %s", type(e).__name__, e)
            await asyncio.sleep(self.wave_s)

    def start(self) -> None:
        """At the app's start: the loop runs if an arena or a Swiss tournament is under way (else
        it starts with the first one this node is asked about: `wake`); always with recurring
        arenas (it makes them)."""
        if self.recurring:
            self.wake()
            return
        with self.c.db() as s:
            pending = s.scalar(select(ArenaRow.id).where(ArenaRow.finished.is_(False)).limit(1)) or s.scalar(
                select(SwissRow.id).where(SwissRow.status != "finished").limit(1)
            )
        if pending is not None:
            self.wake()

    def wake(self) -> None:
        # An app may be started again on another event loop (a test's second client): a task
        # of the old loop is forgotten, not awaited.
        if self._task is None or self._task.get_loop() is not asyncio.get_running_loop():
            self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None and task.get_loop() is asyncio.get_running_loop():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def build_router(community: Community, arenas: Arenas) -> APIRouter:
    router = APIRouter(tags=["community: arenas"])

    @router.get("/arena", include_in_schema=False)
    async def arena_page() -> FileResponse:
        return page("arena.html")

    @router.get("/api/community/arenas", summary="Arenas: upcoming, running and recent")
    async def listing():
        return {"arenas": arenas.listing()}

    @router.post("/api/community/arenas", status_code=201, summary="Create an arena")
    async def create(body: ArenaBody, request: Request):
        who = community.acting(request)
        arenas.wake()
        return arenas.create(who.account_id, body)

    @router.get(
        "/api/community/arenas/mine", summary="Your arena now: in the pool or paused, your game going on"
    )
    async def mine(request: Request):
        # Asked by every page of the site (js/arena-follow.js): nobody logged in is an answer, not
        # a refusal (a 401 on every page a visitor opens would be noise in their console).
        try:
            who = community.current(request)
        except ServiceError:
            return {"player": False, "arena": None, "game": None}
        mine = arenas.mine(who.account_id)
        if mine["arena"] is not None:  # (not the loop started by every page a player opens)
            arenas.wake()
        return {"player": True, **mine}

    @router.get(
        "/api/community/arenas/of-game/{game_id}", summary="The arena a game was played in (null: none)"
    )
    async def of_game(game_id: str):
        # Every game page asks: a game of no arena is an answer ({"arena": null}), not a 404.
        return {"arena": arenas.arena_of_game(game_id)}

    @router.get("/api/community/arenas/{arena_id}", summary="An arena and its live standings")
    async def standings(arena_id: str):
        arenas.wake()
        return arenas.standings(arena_id)

    @router.post("/api/community/arenas/{arena_id}/join", summary="Join (or come back to) an arena")
    async def join(arena_id: str, request: Request):
        who = community.acting(request)
        arenas.wake()
        arenas.join(who.account_id, arena_id)
        return {"ok": True}

    @router.post("/api/community/arenas/{arena_id}/leave", summary="Leave an arena (your score stays)")
    async def leave(arena_id: str, request: Request):
        who = community.acting(request)
        arenas.leave(who.account_id, arena_id)
        return {"ok": True}

    @router.get("/api/community/players/{username}/trophies", summary="A player's trophies from events")
    async def trophies(username: str):
        return {"trophies": arenas.trophies(username)}

    return router
