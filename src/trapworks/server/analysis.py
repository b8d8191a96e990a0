"""Review with analysis (issue 27): every decision of a finished game beside what the game's own
analysis says of it, for the replay page.

GET /api/games/{id}/analysis, for a game that is over only (its record is public then, with every
secret it held). The server decides no rule: each answer comes from the game's spec.

- A game with a solver (`GameSpec.solver`, position text -> a solution whose `to_dict()` says
  `outcome` "win"/"loss" for the player to move and a winning `move`): each move is marked
  winning or losing, with a winning move where the position had one. A move is winning when the
  mover's position was won and the move keeps it won: it is the solver's move, or the position
  after it (same round: fewer `heaps` left) is lost for the other player to move.
- Any other game: the hint agent's choice (`GameSpec.hint_agent`) beside each move, chosen as a
  hint is, from what that seat knew at the time (server/seat_player.py: a resample of the seat's
  view, seeded from the game's key, purpose "analysis").

Bounded: at most MAX_DECISIONS decisions a game are analysed (`truncated` says so), one
computation at a time per game, in a thread (never on the event loop), results cached for the
CACHE most recent games (a finished game never changes).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from fastapi import FastAPI

from trapworks.agents import available_agents
from trapworks.core import Game, State
from trapworks.core.record import GameRecord
from trapworks.core.spec import spec_of

from .errors import ServiceError
from .messages import ErrorReply
from .seat_player import IllegalChoice, SeatPlayer
from .service import GameService

MAX_DECISIONS = 400
CACHE = 64
HINT_AGENTS = ("hard", "heuristic", "perfect")  # the service's own fallback order for hints


def hint_agent_name(game: Game) -> str | None:
    names = available_agents(game)
    spec = spec_of(type(game))
    own = spec.hint_agent if spec is not None else None
    return own if own in names else next((n for n in HINT_AGENTS if n in names), None)


def _solve(solver: Any, state: State, options: dict[str, Any]) -> dict[str, Any] | None:
    if state.is_terminal() or state.is_chance_node():
        return None
    try:
        return dict(solver(state.position(), **options).to_dict())
    except Exception:  # a position the solver does not take: no verdict rather than a wrong one
        return None


def _left(solution: dict[str, Any]) -> int | None:
    heaps = solution.get("heaps")
    return sum(heaps) if isinstance(heaps, list) else None


def judge(
    solver: Any, before: State, action: int, after: State, options: dict[str, Any]
) -> dict[str, Any] | None:
    """The solver's word on one move: winning or losing, and a winning move where one existed."""
    sol = _solve(solver, before, options)
    if sol is None or sol.get("outcome") not in ("win", "loss"):
        return None
    mover = before.current_player()
    out: dict[str, Any] = {"outcome": sol["outcome"], "best": sol.get("move")}
    if sol["outcome"] == "loss":
        out["verdict"] = "losing"  # every move loses against best play
        return out
    winning = sol.get("action") == action
    if not winning:
        nxt = _solve(solver, after, options)
        left_before, left_after = _left(sol), (_left(nxt) if nxt else None)
        same_round = left_before is not None and left_after is not None and left_after < left_before
        if nxt is not None and same_round and after.current_player() != mover:
            winning = nxt.get("outcome") == "loss"
    out["verdict"] = "winning" if winning else "losing"
    return out


def analyse(record: GameRecord, key: bytes) -> dict[str, Any]:
    """Every decision of `record`'s game with the solver's verdict or the hint agent's choice."""
    state = record.initial_state()
    game = state.game
    spec = spec_of(type(game))
    solver = spec.solver if spec is not None else None
    agent = None if solver is not None else hint_agent_name(game)
    options = dict(getattr(game, "options", {}) or {})
    moves: list[dict[str, Any]] = []
    decisions = 0
    truncated = False
    for ply, text in enumerate(record.actions):
        before = state
        action = before.string_to_action(text)
        after = before.clone()
        after.apply_action(action)
        seat = None if before.is_chance_node() else before.current_player()
        if seat is not None and seat >= 0:
            if decisions >= MAX_DECISIONS:
                truncated = True
            else:
                decisions += 1
                entry: dict[str, Any] = {"ply": ply, "seat": seat, "move": text}
                if solver is not None:
                    verdict = judge(solver, before, action, after, options)
                    if verdict:
                        entry.update(verdict)
                elif agent is not None:
                    helper = SeatPlayer.new(agent, game, seat, key, "analysis", ply)
                    try:
                        choice = helper.choose(before, ply)
                    except IllegalChoice:
                        choice = None
                    if choice is not None:
                        entry["choice"] = before.action_to_string(choice)
                        entry["choice_text"] = before.describe_action(choice)
                        entry["same"] = choice == action
                moves.append(entry)
        state = after
    return {
        "ok": True,
        "game": game.game_id,
        "kind": "solver" if solver is not None else "agent" if agent is not None else "none",
        "agent": agent,
        "moves": moves,
        "truncated": truncated,
    }


class Analyses:
    """The analyses of finished games: cached, one computation per game at a time."""

    def __init__(self, service: GameService):
        self.service = service
        self.cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.running: dict[str, asyncio.Future[dict[str, Any]]] = {}

    async def get(self, gid: str) -> dict[str, Any]:
        if gid in self.cache:
            self.cache.move_to_end(gid)
            return self.cache[gid]
        if gid in self.running:
            return await asyncio.shield(self.running[gid])
        service = self.service
        held = gid in service.live
        live = service.get(gid)
        try:
            if not live.ended():
                raise ServiceError(
                    409, "not_finished", "this game is not over yet: it is analysed once it has ended"
                )
            record = service.game_record(live)
            key = live.key
        finally:
            # As the public record: a finished game loaded only for this leaves memory again.
            if not held and not live.connections and live.ended():
                service.drop(live)
        task = asyncio.ensure_future(asyncio.to_thread(analyse, record, key))
        self.running[gid] = task
        try:
            result = await asyncio.shield(task)
        finally:
            self.running.pop(gid, None)
        self.cache[gid] = result
        while len(self.cache) > CACHE:
            self.cache.popitem(last=False)
        return result


def add_analysis_routes(app: FastAPI, service: GameService) -> None:
    analyses = Analyses(service)

    @app.get(
        "/api/games/{gid}/analysis",
        responses={404: {"model": ErrorReply}, 409: {"model": ErrorReply}},
        summary="A finished game's moves beside the solver's verdict or the hint agent's choice",
    )
    async def analysis(gid: str):
        return await analyses.get(gid)
