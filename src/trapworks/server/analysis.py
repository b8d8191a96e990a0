"""Review with analysis (issue 27): every decision of a finished game beside what the game's own
analysis says of it, for the replay page.

GET /api/games/{id}/analysis, for a game that is over only (its record is public then, with every
secret it held). The server decides no rule: each answer comes from the game's spec.

- A game that judges its own moves (`GameSpec.judge_move(state, action)` -> a
  `core.spec.MoveVerdict`, e.g. Last Mouse Lost's exact solver): each move is marked winning or
  losing as the game says, with a winning move where the position had one. The server only
  copies the verdict: what makes a move winning is the game's rule, not the server's.
- Any other game: the hint agent's choice (features/hint.py's `hint_agent_name`, the agent a hint
  would have asked) beside each move, chosen as a hint is, from what that seat knew at the time
  (server/seat_player.py: a resample of the seat's view, seeded from the game's key, purpose
  "analysis").

Bounded: at most MAX_DECISIONS decisions a game are analysed (`truncated` says so), one
computation at a time per game, in a thread (never on the event loop), results cached for the
CACHE most recent games (a finished game never changes).

Each chance outcome (a die's roll, a card drawn) comes with its chance, read from the game's own
declared chance outcomes (`State.chance_outcomes`, OpenSpiel's probabilities): what was rolled,
how likely it was, and how likely a roll at most as likely was. Nothing says whether a roll was
"good": that would be a rule, and no game declares it.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import Any

from fastapi import FastAPI

from trapworks.core import State
from trapworks.core.record import GameRecord
from trapworks.core.spec import MoveVerdict, spec_of

from .errors import ErrorCode, ServiceError
from .features.hint import hint_agent_name
from .messages import ErrorReply
from .seat_player import IllegalChoice, SeatPlayer
from .service import GameService

MAX_DECISIONS = 400
MAX_ROLLS = 2000  # chance outcomes told with their chance (a game's rolls, draws), at most
CACHE = 64
log = logging.getLogger(__name__)


def _judged(judge: Any, before: State, action: int) -> MoveVerdict | None:
    """The game's verdict on one move, on a copy of the position (a judge may play it out)."""
    try:
        verdict = judge(before.clone(), action)
    except Exception:  # a position the game cannot judge: no verdict rather than a wrong one
        log.exception("%s: judge_move failed; the move is shown without a verdict", before.game.game_id)
        return None
    return verdict if isinstance(verdict, MoveVerdict) else None


def _roll(before: State, action: int, ply: int, text: str) -> dict[str, Any] | None:
    """A chance outcome of the game (a die, a draw) with its chance, from the game's own declared
    chance outcomes (OpenSpiel's `chance_outcomes`: each outcome with its probability) and nothing
    else: `probability` that outcome's, `outcomes` how many there were, `as_rare` the chance of an
    outcome at most as likely as this one (1 where every outcome was as likely). None where the
    game declared no probability for it (then nothing is said: no number is made up)."""
    try:
        outcomes = before.chance_outcomes()
    except Exception:  # a chance node the game cannot list: said nothing of
        log.exception("%s: chance_outcomes failed; the roll is shown without its chance", before.game.game_id)
        return None
    chances = dict(outcomes)
    p = chances.get(action)
    if p is None or not outcomes:
        return None
    as_rare = sum(q for q in chances.values() if q <= p + 1e-12)
    return {
        "ply": ply,
        "outcome": text,
        "probability": p,
        "outcomes": len(chances),
        "as_rare": min(1.0, as_rare),
    }


def analyse(record: GameRecord, key: bytes) -> dict[str, Any]:
    """Every decision of `record`'s game with the game's own verdict or the hint agent's choice."""
    state = record.initial_state()
    game = state.game
    spec = spec_of(type(game))
    judge = spec.judge_move if spec is not None else None
    agent = None if judge is not None else hint_agent_name(game)
    moves: list[dict[str, Any]] = []
    rolls: list[dict[str, Any]] = []
    decisions = 0
    truncated = False
    for ply, text in enumerate(record.actions):
        before = state
        action = before.string_to_action(text)
        after = before.clone()
        after.apply_action(action)
        seat = None if before.is_chance_node() else before.current_player()
        if seat is None and len(rolls) < MAX_ROLLS:
            roll = _roll(before, action, ply, text)
            if roll is not None:
                rolls.append(roll)
        if seat is not None and seat >= 0:
            if decisions >= MAX_DECISIONS:
                truncated = True
            else:
                decisions += 1
                entry: dict[str, Any] = {"ply": ply, "seat": seat, "move": text}
                if judge is not None:
                    verdict = _judged(judge, before, action)
                    if verdict is not None:
                        entry.update(verdict.to_dict())
                elif agent is not None:
                    helper = SeatPlayer.new(agent, game, seat, key, "analysis", ply)
                    try:
                        choice = helper.choose(before, ply)
                    except IllegalChoice:
                        choice = None
                    if choice is not None:
                        entry["choice"] = before.action_to_string(choice)
                        entry["choice_text"] = before.describe_action(choice)
                        # the same words typed (the page says them in its language; None: none)
                        entry["choice_msg"] = before.describe_message(choice)
                        entry["same"] = choice == action
                moves.append(entry)
        state = after
    return {
        "ok": True,
        "game": game.game_id,
        # "solver": the game's own judge marked the moves (the page's words say so).
        "kind": "solver" if judge is not None else "agent" if agent is not None else "none",
        "agent": agent,
        "moves": moves,
        "rolls": rolls,
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
                    ErrorCode.NOT_FINISHED, "this game is not over yet: it is analysed once it has ended"
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
