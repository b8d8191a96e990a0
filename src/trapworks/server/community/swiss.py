"""Swiss tournaments for correspondence play (issue 41): players join while it is open; its
creator starts it; each round pairs every player once (the odd one out gets a bye, a win's points,
at most once where possible), no two players meet twice, players with equal scores meet where
they can; a win counts 1, a draw 1/2 (stored in halves). Round r+1 is paired when every game of
round r has ended: by whichever node's loop sees it first (a conditional UPDATE of the round
number: once in a cluster). The claim and the round's plan (its pairs as planned games, the bye)
commit in one transaction; the games are then made one by one under a lease (`pairing_until`): a
node lost half-way leaves the rest planned, and another node takes the pairing over once the
lease has run out, making only the games still planned (nothing paired twice, nothing lost); a
planned game's id is chosen with the plan, so a game made by a node lost before it swapped the
planned row is found and kept by the node taking over, never made twice.
The standings' tie-break is Buchholz (the sum of the opponents'
scores), then Sonneborn-Berger (the opponents beaten, plus half the opponents drawn, by score).

Pairing is a maximum-weight matching (networkx, the blossom algorithm) over the players who have
not met: an edge's weight prefers equal scores strongly, so score groups pair inside themselves
and float down only as far as needed; a player that cannot be matched gets the bye.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field
from sqlalchemy import func, or_, select, update

from ..accounts.models import AccountGameRow, AccountSeatRow
from ..errors import ErrorCode, ServiceError
from .core import Community, iso, now, refusal
from .models import SwissGameRow, SwissPlayerRow, SwissRow, TrophyRow
from .pages import page

MAX_ROUNDS = 15
PAIRING_LEASE_S = 30.0  # a pairing node silent this long has lost the round to another node
PENDING = "pending-"  # a planned game's id, until its game is made
MAX_DAYS = 7


class SwissBody(BaseModel):
    name: str = Field(min_length=1, max_length=80)
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    rounds: int = Field(ge=1, le=MAX_ROUNDS)
    days_per_move: int = Field(1, ge=1, le=MAX_DAYS)


def pair(
    halves: dict[int, int], met: dict[int, set[int]], byes: dict[int, int]
) -> tuple[list[tuple[int, int]], int | None]:
    """A round's pairs and its bye (None with an even count) for players `halves` (scores), never
    two who met. The bye goes to the lowest-scored player who had none, where possible."""
    players = sorted(halves, key=lambda p: (-halves[p], p))
    bye = None
    if len(players) % 2:
        for p in reversed(players):  # the lowest score first
            if byes.get(p, 0) == 0:
                bye = p
                break
        else:
            bye = players[-1]
        players.remove(bye)
    # Imported here, at the first pairing, not with the server: networkx is ~0.2 CPU s of every
    # server start (and of every test process that imports the app), and few servers pair.
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(players)
    top = max((halves[p] for p in players), default=0) + 1
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if b in met.get(a, set()):
                continue
            diff = abs(halves[a] - halves[b])
            graph.add_edge(a, b, weight=(top * 4) ** 2 - diff**2)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted((min(a, b), max(a, b)) for a, b in matching)
    paired = {p for pr in pairs for p in pr}
    left = [p for p in players if p not in paired]
    if left and bye is None and len(left) == 1:
        bye = left[0]
    return pairs, bye


class Swiss:
    def __init__(self, community: Community):
        self.c = community

    def create(self, account_id: int, body: SwissBody) -> dict[str, Any]:
        game = self.c.service.make_game(body.game, body.options)
        if game.num_players() != 2:
            raise ServiceError(
                ErrorCode.TWO_PLAYERS_ONLY, "a Swiss tournament's games are between two players"
            )
        row = SwissRow(
            id=secrets.token_urlsafe(9),
            name=body.name.strip(),
            game=game.game_id,
            options=game.public_options(),
            days_per_move=body.days_per_move,
            rounds=body.rounds,
            round=0,
            status="open",
            created_by=account_id,
            created=now(),
        )
        with self.c.db.begin() as s:
            s.add(row)
        return self.standings(row.id)

    def _get(self, swiss_id: str) -> SwissRow:
        with self.c.db() as s:
            row = s.get(SwissRow, swiss_id[:16])
        if row is None:
            raise ServiceError(ErrorCode.NO_SUCH_SWISS, "no such Swiss tournament")
        return row

    def join(self, account_id: int, swiss_id: str) -> None:
        row = self._get(swiss_id)
        if row.status != "open":
            raise refusal(
                ErrorCode.SWISS_STARTED,
                "'{name}' has ended: joining is closed"
                if row.status == "finished"
                else "'{name}' has started: joining is closed",
                name=row.name,
            )
        with self.c.db.begin() as s:
            if s.get(SwissPlayerRow, (row.id, account_id)) is None:
                s.add(SwissPlayerRow(swiss_id=row.id, account_id=account_id, halves=0, opponents=[], byes=0))

    async def start(self, account_id: int, swiss_id: str) -> None:
        row = self._get(swiss_id)
        if row.created_by != account_id:
            raise ServiceError(ErrorCode.NOT_YOURS, "only the tournament's creator starts it")
        with self.c.db() as s:
            count = len(
                s.scalars(select(SwissPlayerRow.account_id).where(SwissPlayerRow.swiss_id == row.id)).all()
            )
        if count < 2:
            raise ServiceError(ErrorCode.TOO_FEW_PLAYERS, "a Swiss tournament needs at least two players")
        with self.c.db.begin() as s:  # the claim and the round's plan commit together, or neither
            took = s.execute(
                update(SwissRow)
                .where(SwissRow.id == row.id, SwissRow.status == "open")
                .values(status="pairing", round=1, pairing_until=time.time() + PAIRING_LEASE_S)
            )
            if took.rowcount == 1:
                self._plan(s, row, 1)
        if took.rowcount != 1:
            raise ServiceError(ErrorCode.SWISS_STARTED, "this tournament has started already")
        await self._make_games(row.id)

    def _score(self, swiss_id: str) -> None:
        with self.c.db() as s:
            ended = s.execute(
                select(SwissGameRow.game_id, SwissGameRow.players)
                .join(AccountGameRow, AccountGameRow.game_id == SwissGameRow.game_id)
                .where(
                    SwissGameRow.swiss_id == swiss_id,
                    SwissGameRow.scored.is_(False),
                    AccountGameRow.status != "on",
                )
            ).all()
        for gid, holders in ended:
            with self.c.db.begin() as s:
                took = s.execute(
                    update(SwissGameRow)
                    .where(SwissGameRow.game_id == gid, SwissGameRow.scored.is_(False))
                    .values(scored=True)
                )
                if took.rowcount != 1:
                    continue
                results = dict(
                    s.execute(
                        select(AccountSeatRow.seat, AccountSeatRow.result).where(
                            AccountSeatRow.game_id == gid
                        )
                    ).all()
                )
                got = [{"won": 2, "drawn": 1}.get(results.get(seat) or "", 0) for seat in range(len(holders))]
                for seat, account_id in enumerate(holders):
                    player = s.get(SwissPlayerRow, (swiss_id, account_id))
                    if player is not None:
                        player.halves += got[seat]
                s.execute(update(SwissGameRow).where(SwissGameRow.game_id == gid).values(halves=got))

    async def advance(self, swiss_id: str) -> bool:
        """Score the ended games; when the round is complete, pair the next one (or finish), once."""
        self._score(swiss_id)
        row = self._get(swiss_id)
        if row.status != "running":
            return False
        with self.c.db() as s:
            open_games = s.scalars(
                select(SwissGameRow.game_id).where(
                    SwissGameRow.swiss_id == row.id,
                    SwissGameRow.round == row.round,
                    SwissGameRow.scored.is_(False),
                )
            ).all()
        if open_games:
            return False
        finishing = row.round >= row.rounds
        with self.c.db.begin() as s:  # the claim: this node moves the tournament on, no other
            took = s.execute(
                update(SwissRow)
                .where(SwissRow.id == row.id, SwissRow.round == row.round, SwissRow.status == "running")
                .values(
                    round=row.round + (0 if finishing else 1),
                    status="finished" if finishing else "pairing",
                    pairing_until=None if finishing else time.time() + PAIRING_LEASE_S,
                )
            )
            if took.rowcount == 1 and not finishing:
                self._plan(s, row, row.round + 1)  # decided with the claim: a takeover makes the same round
        if took.rowcount != 1:
            return False
        if finishing:
            self._trophies(row)
            return True
        await self._make_games(row.id)
        return True

    def _plan(self, s: Any, row: SwissRow, round_no: int) -> None:
        """Decide round `round_no` in the claiming transaction: each pair a planned game (a row
        whose id is PENDING..., until its game is made), the opponents met, the bye's point."""
        players = s.scalars(select(SwissPlayerRow).where(SwissPlayerRow.swiss_id == row.id)).all()
        halves = {p.account_id: p.halves for p in players}
        met = {p.account_id: set(p.opponents) for p in players}
        pairs, bye = pair(halves, met, {p.account_id: p.byes for p in players})
        by_id = {p.account_id: p for p in players}
        for a, b in pairs:
            holders = [a, b] if secrets.randbelow(2) else [b, a]
            s.add(
                SwissGameRow(
                    game_id=PENDING + secrets.token_urlsafe(9),  # then the game's own id
                    swiss_id=row.id,
                    round=round_no,
                    players=holders,
                    scored=False,
                )
            )
            by_id[a].opponents = [*by_id[a].opponents, b]
            by_id[b].opponents = [*by_id[b].opponents, a]
        if bye is not None:
            by_id[bye].halves += 2
            by_id[bye].byes += 1

    def _hold(self, swiss_id: str, lease: float) -> float | None:
        """Renew this node's pairing lease (`lease`: the one it holds); None: another node took it."""
        renewed = time.time() + PAIRING_LEASE_S
        with self.c.db.begin() as s:
            took = s.execute(
                update(SwissRow)
                .where(SwissRow.id == swiss_id, SwissRow.status == "pairing", SwissRow.pairing_until == lease)
                .values(pairing_until=renewed)
            )
        return renewed if took.rowcount == 1 else None

    async def _make_games(self, swiss_id: str) -> None:
        """Make the planned games of the round being paired, one by one, each swapped for its
        planned row as it is made; then the tournament runs. A node lost half-way leaves the rest
        planned: `tick` on any node takes the pairing over once the lease has run out."""
        row = self._get(swiss_id)
        lease = row.pairing_until
        with self.c.db() as s:
            planned = s.scalars(
                select(SwissGameRow).where(
                    SwissGameRow.swiss_id == swiss_id, SwissGameRow.game_id.like(PENDING + "%")
                )
            ).all()
        for g in planned:
            lease = self._hold(swiss_id, lease) if lease is not None else None
            if lease is None:
                return  # another node took the pairing over: it makes the rest
            clock = {"mode": "move", "seconds": row.days_per_move * 86400, "on_timeout": "forfeit"}
            # The game's id was chosen with the plan: a node lost between making the game and
            # swapping its row leaves a game that the node taking over finds, not a second one.
            live = await self.c.make_game(
                row.game, row.options, list(g.players), clock, rated=True, game_id=g.game_id[len(PENDING) :]
            )
            with self.c.db.begin() as s:
                s.execute(
                    update(SwissGameRow).where(SwissGameRow.game_id == g.game_id).values(game_id=live.id)
                )
        with self.c.db.begin() as s:
            s.execute(
                update(SwissRow)
                .where(SwissRow.id == swiss_id, SwissRow.status == "pairing", SwissRow.pairing_until == lease)
                .values(status="running", pairing_until=None)
            )

    async def take_over(self) -> None:
        """A round whose pairing node went quiet past its lease: this node makes its remaining games."""
        with self.c.db() as s:
            stuck = s.execute(
                select(SwissRow.id, SwissRow.pairing_until).where(
                    SwissRow.status == "pairing",
                    or_(SwissRow.pairing_until.is_(None), SwissRow.pairing_until < time.time()),
                )
            ).all()
        for swiss_id, old in stuck:
            with self.c.db.begin() as s:
                took = s.execute(
                    update(SwissRow)
                    .where(
                        SwissRow.id == swiss_id,
                        SwissRow.status == "pairing",
                        SwissRow.pairing_until.is_(None) if old is None else SwissRow.pairing_until == old,
                    )
                    .values(pairing_until=time.time() + PAIRING_LEASE_S)
                )
            if took.rowcount == 1:
                await self._make_games(swiss_id)

    def _table(self, swiss_id: str) -> list[dict[str, Any]]:
        with self.c.db() as s:
            players = s.scalars(select(SwissPlayerRow).where(SwissPlayerRow.swiss_id == swiss_id)).all()
            games = s.scalars(
                select(SwissGameRow).where(SwissGameRow.swiss_id == swiss_id, SwissGameRow.scored.is_(True))
            ).all()
        halves = {p.account_id: p.halves for p in players}
        sb: dict[int, float] = dict.fromkeys(halves, 0.0)
        for g in games:
            for seat, account_id in enumerate(g.players):
                other = g.players[1 - seat]
                sb[account_id] += (g.halves or [0, 0])[seat] / 2 * halves.get(other, 0) / 2
        names = self.c.names(set(halves))
        rows = [
            {
                "username": names.get(p.account_id),
                "account": p.account_id,
                "points": p.halves / 2,
                "buchholz": sum(halves.get(o, 0) for o in p.opponents) / 2,
                "sonneborn_berger": sb[p.account_id],
                "byes": p.byes,
                "opponents": [names.get(o) for o in p.opponents],
            }
            for p in players
        ]
        rows.sort(
            key=lambda r: (
                -r["points"],
                -r["buchholz"],
                -r["sonneborn_berger"],
                str(r["username"]).casefold(),
            )
        )
        for i, r in enumerate(rows):
            r["rank"] = i + 1
        return rows

    def _trophies(self, row: SwissRow) -> None:
        with self.c.db.begin() as s:
            for r in self._table(row.id)[:3]:
                s.add(
                    TrophyRow(
                        account_id=r["account"],
                        event_id=row.id,
                        event_name=row.name,
                        game=row.game,
                        place=r["rank"],
                        score=int(r["points"] * 2),
                        at=now(),
                    )
                )

    def standings(self, swiss_id: str) -> dict[str, Any]:
        row = self._get(swiss_id)
        with self.c.db() as s:
            games = s.scalars(
                select(SwissGameRow)
                .where(SwissGameRow.swiss_id == row.id, SwissGameRow.game_id.not_like(PENDING + "%"))
                .order_by(SwissGameRow.round)
            ).all()
        names = self.c.names({a for g in games for a in g.players} | {row.created_by})
        table = self._table(row.id)
        for r in table:
            r.pop("account")
        return {
            "id": row.id,
            "name": row.name,
            "game": row.game,
            "rounds": row.rounds,
            "round": row.round,
            "status": row.status,
            "days_per_move": row.days_per_move,
            "created": iso(row.created),
            "created_by": names.get(row.created_by),
            "standings": table,
            "games": [
                {
                    "id": g.game_id,
                    "round": g.round,
                    "players": [names.get(a) for a in g.players],
                    "points": [h / 2 for h in g.halves] if g.halves else None,
                }
                for g in games
            ],
        }

    def listing(self) -> list[dict[str, Any]]:
        """The newest tournaments (open ones first), with their player counts."""
        with self.c.db() as s:
            rows = s.scalars(select(SwissRow).order_by(SwissRow.created.desc()).limit(50)).all()
            counts = dict(
                s.execute(
                    select(SwissPlayerRow.swiss_id, func.count())
                    .where(SwissPlayerRow.swiss_id.in_([r.id for r in rows]))
                    .group_by(SwissPlayerRow.swiss_id)
                ).all()
            )
        order = {"open": 0, "pairing": 1, "running": 1, "finished": 2}
        rows = sorted(rows, key=lambda r: order.get(r.status, 1))  # stable: newest first in each
        return [
            {
                "id": r.id,
                "name": r.name,
                "game": r.game,
                "rounds": r.rounds,
                "round": r.round,
                "status": r.status,
                "days_per_move": r.days_per_move,
                "players": counts.get(r.id, 0),
                "created": iso(r.created),
            }
            for r in rows
        ]

    async def tick(self) -> None:
        await self.take_over()
        with self.c.db() as s:
            running = s.scalars(select(SwissRow.id).where(SwissRow.status == "running")).all()
        for swiss_id in running:
            await self.advance(swiss_id)


def build_router(community: Community, swiss: Swiss, wake: Callable[[], None]) -> APIRouter:
    """`wake`: starts this node's loop (arena.py), which moves the rounds on."""
    router = APIRouter(tags=["community: swiss"])

    @router.get("/swiss", include_in_schema=False)
    async def swiss_page() -> FileResponse:
        return page("swiss.html")

    @router.get("/api/community/swiss", summary="Swiss tournaments: open, running and finished")
    async def listing():
        return {"swiss": swiss.listing()}

    @router.post(
        "/api/community/swiss", status_code=201, summary="Create a Swiss tournament (correspondence)"
    )
    async def create(body: SwissBody, request: Request):
        who = community.acting(request)
        return swiss.create(who.account_id, body)

    @router.get(
        "/api/community/swiss/{swiss_id}", summary="A Swiss tournament: standings (tie-breaks) and games"
    )
    async def standings(swiss_id: str):
        wake()
        return swiss.standings(swiss_id)

    @router.post("/api/community/swiss/{swiss_id}/join", summary="Join a Swiss tournament before it starts")
    async def join(swiss_id: str, request: Request):
        who = community.acting(request)
        swiss.join(who.account_id, swiss_id)
        return {"ok": True}

    @router.post("/api/community/swiss/{swiss_id}/start", summary="Start it (its creator): round 1 is paired")
    async def start(swiss_id: str, request: Request):
        who = community.acting(request)
        wake()
        await swiss.start(who.account_id, swiss_id)
        return swiss.standings(swiss_id)

    return router
