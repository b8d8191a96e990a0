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

The outcome curve (a player-judge's fix 4: "an outcome curve, only the turning moves marked"):
each seat's chance to win after each move, as lichess draws its advantage chart. Where the game
judges its moves, the chance is exact (the game's own verdict: a won position is 1, a lost one 0);
elsewhere it is estimated by playing the rest of the game out CURVE_ROLLOUTS times from the
position, every seat by the game's declared rollout agent, chance by its declared probabilities
(the record is public once the game is over), rollout i of every position on the same random
numbers. Bounded by CURVE_STEPS moves played and CURVE_SECONDS: a game too slow to play out that
often gets no curve (`curve` None) rather than a guess. The turning moves are the decisions where
the mover's own chance fell most (at least MISTAKE), MAX_TURNING at most.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from typing import Any

from fastapi import FastAPI

from trapworks.agents.rollout import play_out
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
CURVE_ROLLOUTS = 16  # play-outs a position's estimated chances are read from
CURVE_STEPS = 1_000_000  # moves played for one game's curve, at most
CURVE_SECONDS = 10.0  # and seconds (once per game: the analysis is cached): past either, no curve
ROLLOUT_LIMIT = 2000  # moves of one play-out before it is called a draw
MISTAKE = 0.2  # a decision that cost its mover at least this chance is a turning move
BLUNDER = 0.4  # ... and a blunder from this much (a won position given away: 1)
MAX_TURNING = 5  # turning moves marked, at most (the largest falls, the later first)
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
    curve, curve_kind = _curve(record, moves, key, judged=judge is not None)
    return {
        "ok": True,
        "game": game.game_id,
        # "solver": the game's own judge marked the moves (the page's words say so).
        "kind": "solver" if judge is not None else "agent" if agent is not None else "none",
        "agent": agent,
        "moves": moves,
        "rolls": rolls,
        "truncated": truncated,
        # [{"step", "chances": [each seat's chance to win at that step]}], or None (too slow)
        "curve": curve,
        # "exact" (the game's verdicts), "model" (its own valuation), "estimate" (play-outs)
        "curve_kind": curve_kind,
        "curve_rollouts": CURVE_ROLLOUTS if curve_kind == "estimate" else None,
        "turning": _turning(moves, curve) if curve is not None else [],
    }


def _winners(returns: list[float]) -> list[float]:
    """Each seat's share of a win in a finished game: the best return wins, a tie shares it."""
    best = max(returns)
    top = [i for i, r in enumerate(returns) if r >= best - 1e-9]
    return [1.0 / len(top) if i in top else 0.0 for i in range(len(returns))]


class _TooSlow(Exception):
    pass


def _curve(
    record: GameRecord, moves: list[dict[str, Any]], key: bytes, judged: bool
) -> tuple[list[dict[str, Any]] | None, str | None]:
    """Each seat's chance to win at the steps around each decision (and the start and the end),
    and how it was found ("exact", "model", "estimate"); (None, None) where it could not be."""
    states = [record.initial_state()]
    for text in record.actions:
        s = states[-1].clone()
        s.apply_action(s.string_to_action(text))
        states.append(s)
    n = len(record.actions)
    seats = states[0].num_players()
    final = states[-1]
    end = _winners(final.returns()) if final.is_terminal() else None
    points: dict[int, list[float]] = {}
    kind = "exact"
    if judged:
        # the game's own verdict: the mover's position was won (1) or lost (0), before each move
        for m in moves:
            if m.get("outcome") not in ("win", "loss"):
                continue
            won = m["outcome"] == "win"
            rest = (0.0 if won else 1.0) / max(seats - 1, 1)
            points[m["ply"]] = [(1.0 if won else 0.0) if s == m["seat"] else rest for s in range(seats)]
    else:
        try:
            points, kind = _estimated(states, moves, key, end)
        except _TooSlow:
            return None, None
    if end is not None:
        points[n] = end
    if not points:
        return None, None
    return [{"step": step, "chances": [round(p, 4) for p in points[step]]} for step in sorted(points)], kind


def _estimated(
    states: list[State], moves: list[dict[str, Any]], key: bytes, end: list[float] | None
) -> tuple[dict[int, list[float]], str]:
    """Each seat's share of wins over CURVE_ROLLOUTS play-outs from the steps before and after each
    decision; _TooSlow past the budget. A game whose rollout agent values positions itself (its
    `evaluate(state)`: each seat's expected return, as tree search cuts its rollouts by) is read
    from that value instead, scaled between the game's own worst and best final returns."""
    from trapworks.agents import rollout_policy  # not at import: the agents load the games

    game = states[0].game
    declared = rollout_policy(game)
    policies = [declared[1](game, s, seed=s) for s in range(game.num_players())] if declared else None
    evaluate = getattr(policies[0], "evaluate", None) if policies else None
    final = states[-1]
    if callable(evaluate) and end is not None:
        lo, hi = min(final.returns()), max(final.returns())
        if hi - lo > 1e-9:
            return {k: _scaled(evaluate(states[k]), lo, hi) for k in _wanted(states, moves)}, "model"
    wanted = _wanted(states, moves)
    base = int.from_bytes(key[:6], "big") if key else 0
    deadline = time.perf_counter() + CURVE_SECONDS
    budget = [CURVE_STEPS]
    points: dict[int, list[float]] = {}
    start, done, total = time.perf_counter(), 0, len(wanted) * CURVE_ROLLOUTS
    for k in wanted:
        wins = [0.0] * game.num_players()
        for i in range(CURVE_ROLLOUTS):
            share = _winners(_play_out(states[k].clone(), base + 7919 * i, policies, budget, deadline))
            wins = [w + x for w, x in zip(wins, share, strict=True)]
            done += 1
            # a game that will not fit is given up at once, not after the whole budget
            if (time.perf_counter() - start) / done * total > 2 * CURVE_SECONDS:
                raise _TooSlow
        points[k] = [w / CURVE_ROLLOUTS for w in wins]
    return points, "estimate"


def _wanted(states: list[State], moves: list[dict[str, Any]]) -> list[int]:
    """The steps before and after each real choice (a forced move, one legal action, turns
    nothing), and the start."""
    chosen = [m for m in moves if m["ply"] < len(states) and len(states[m["ply"]].legal_actions()) > 1]
    wanted = sorted({0, *(m["ply"] for m in chosen), *(m["ply"] + 1 for m in chosen)})
    return [k for k in wanted if k < len(states) and not states[k].is_terminal()]


def _scaled(values: Any, lo: float, hi: float) -> list[float]:
    """Expected returns as chances: a win's return 1, a loss's 0, shared to sum 1."""
    p = [min(1.0, max(0.0, (float(v) - lo) / (hi - lo))) for v in values]
    total = sum(p)
    return [x / total for x in p] if total > 0 else [1.0 / len(p)] * len(p)


def _play_out(
    s: State, seed: int, policies: list[Any] | None, budget: list[int], deadline: float
) -> list[float]:
    """The game played to its end from `s` (the declared rollout agent, or random moves; past
    ROLLOUT_LIMIT moves a draw), within the review's budget of moves and time (_TooSlow past it)."""

    def each_move(steps: int) -> None:
        budget[0] -= 1
        if budget[0] < 0 or (steps % 16 == 0 and time.perf_counter() > deadline):
            raise _TooSlow

    return play_out(s, seed, policies, ROLLOUT_LIMIT, each_move=each_move)


def _turning(moves: list[dict[str, Any]], curve: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The decisions where the mover's chance fell most: {ply, seat, before, after, word}."""
    at = {p["step"]: p["chances"] for p in curve}
    found = []
    for m in moves:
        before, after = at.get(m["ply"]), at.get(m["ply"] + 1)
        if before is None or after is None:
            continue
        fall = before[m["seat"]] - after[m["seat"]]
        if fall >= MISTAKE - 1e-9:
            word = "blunder" if fall >= BLUNDER - 1e-9 else "mistake"
            found.append(
                {
                    "ply": m["ply"],
                    "seat": m["seat"],
                    "before": before[m["seat"]],
                    "after": after[m["seat"]],
                    "fall": round(fall, 4),
                    "word": word,
                }
            )
    found.sort(key=lambda x: (-x["fall"], -x["ply"]))
    return sorted(found[:MAX_TURNING], key=lambda x: x["ply"])


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
