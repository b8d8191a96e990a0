"""Game control off the board: resign, abort, rematch, clocks and seats handed to an AI.

The server decides no rule here either: what a resignation or a loss on time does to the result is
the kernel's (core/forfeit.py: out seats, whether the game ends, the returns); whose turn it is comes
from `current_player`. This module keeps the platform's part: who asked, the clock's arithmetic and
its timer, and storing every decision (the `game_control` table) before anyone is told.

Clocks. A turn is the run of actions one seat is asked for in a row (chance outcomes in between
do not end it). Only human seats are timed. `move` mode gives each turn `seconds`; `total` mode
gives each seat `seconds` for the whole game and adds `increment` after each of its turns
(Fischer). One asyncio timer per live game sleeps until the seat on move runs out; it then takes
the game's lock and applies the rule chosen at creation: `ai` (the seat's turn is played by an
agent at `ai_level`, from a state resampled from the seat's view where the game hides
information, never the true one) or `forfeit` (the seat is out, core/forfeit.py). Clients only
display the numbers the server sends. Time while the server is down is not charged: after a
restart the turn on move starts again with the time the seat had when that turn began.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from trapworks.agents import available_agents
from trapworks.core import CHANCE, Forfeit, abort_refusal, outcome
from trapworks.core.forfeit import Outcome

from .errors import STORE_RETRY_S, ServiceError
from .live import LiveGame
from .seat_player import IllegalChoice, SeatPlayer


class GameService(Protocol):
    """What the control needs of the service (server/service.py's GameService has it): named
    here, not imported, so that control.py and service.py do not import each other."""

    live: dict[str, LiveGame]
    store_failures: int
    store: Any  # server/store.Store

    def broadcast(self, *args: Any, **kwargs: Any) -> Any: ...
    def claim_timer(self, *args: Any, **kwargs: Any) -> Any: ...
    def create(self, *args: Any, **kwargs: Any) -> Any: ...
    def get(self, *args: Any, **kwargs: Any) -> Any: ...
    def play_locked(self, *args: Any, **kwargs: Any) -> Any: ...
    def refresh_locked(self, *args: Any, **kwargs: Any) -> Any: ...
    def schedule_advance(self, *args: Any, **kwargs: Any) -> Any: ...
    def seat_for(self, *args: Any, **kwargs: Any) -> Any: ...
    def seat_label(self, *args: Any, **kwargs: Any) -> Any: ...
    def seats_elsewhere(self, *args: Any, **kwargs: Any) -> Any: ...
    def spawn(self, *args: Any, **kwargs: Any) -> Any: ...
    def store_failed(self, *args: Any, **kwargs: Any) -> Any: ...

    @property
    def clustered(self) -> bool: ...


log = logging.getLogger("trapworks.server")

CLOCK_MODES = ("move", "total")
TIMEOUT_RULES = ("ai", "forfeit")
DEFAULT_HAND_OVER_AFTER_S = 120.0  # a seat with no socket this long may be handed to an AI
# i26: an invited seat whose link nobody has opened yet is handed to an AI no sooner than this,
# whatever hand_over_after says (the invited friend needs time to get the link and arrive).
HAND_OVER_INVITE_FLOOR_S = 300.0
STAND_IN = ("easy", "random")  # who plays an out seat's turns when the game goes on (first offered)
MAX_CLOCK_TURN_ACTIONS = 200  # the clock's AI plays at most this many actions of one turn
# A cluster node's claim on a clock running out lapses after this long (then another node acts:
# the claimant may have died before it could).
CLOCK_CLAIM_S = 10.0


def check_clock(spec: Any, agents: list[str]) -> dict[str, Any] | None:
    """A clock option as the server keeps it, or ServiceError 400 naming what is wrong."""
    if spec is None:
        return None
    if not isinstance(spec, dict):
        raise ServiceError(400, "bad_clock", "clock must be an object {mode, seconds, increment, on_timeout}")
    mode = spec.get("mode", "move")
    if mode not in CLOCK_MODES:
        raise ServiceError(
            400, "bad_clock", f"clock.mode {mode!r}: 'move' (per turn) or 'total' (per player)"
        )
    seconds = spec.get("seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 1 <= seconds <= 86400 * 7:
        raise ServiceError(
            400, "bad_clock", f"clock.seconds {seconds!r}: a number of seconds from 1 to 604800"
        )
    increment = spec.get("increment", 0)
    if isinstance(increment, bool) or not isinstance(increment, int | float) or not 0 <= increment <= 3600:
        raise ServiceError(400, "bad_clock", f"clock.increment {increment!r}: seconds from 0 to 3600")
    if mode == "move" and increment:
        raise ServiceError(
            400, "bad_clock", "clock.increment is for mode 'total' (a per-turn clock restarts anyway)"
        )
    rule = spec.get("on_timeout", "ai")
    if rule not in TIMEOUT_RULES:
        raise ServiceError(
            400, "bad_clock", f"clock.on_timeout {rule!r}: 'ai' (an AI plays the turn) or 'forfeit'"
        )
    level = spec.get("ai_level", "easy")
    if rule == "ai" and level not in agents:
        raise ServiceError(
            400, "bad_clock", f"clock.ai_level {level!r}: one of this game's agents ({', '.join(agents)})"
        )
    return {
        "mode": mode,
        "seconds": float(seconds),
        "increment": float(increment),
        "on_timeout": rule,
        "ai_level": level if rule == "ai" else None,
    }


def check_hand_over_after(value: Any) -> float:
    if value is None:
        return DEFAULT_HAND_OVER_AFTER_S
    if isinstance(value, bool) or not isinstance(value, int | float) or not 1 <= value <= 86400:
        raise ServiceError(400, "bad_hand_over_after", f"hand_over_after {value!r}: seconds from 1 to 86400")
    return float(value)


@dataclass(eq=False)
class GameControl:
    """One live game's control document (stored as JSON) and its timers (not stored)."""

    data: dict[str, Any]
    timer: asyncio.Task | None = None
    deadline: float | None = None  # wall-clock time the seat on move runs out
    # Seat -> when its last socket closed (time.time()); a seat never connected since this server
    # loaded the game counts from then.
    gone_since: dict[int, float] = field(default_factory=dict)
    watch: asyncio.TimerHandle | None = None

    @property
    def clock(self) -> dict[str, Any] | None:
        return self.data.get("clock")

    def forfeits(self) -> list[Forfeit]:
        return [Forfeit.from_dict(f) for f in self.data.get("forfeits", [])]


def new_data(
    clock: dict[str, Any] | None, hand_over_after: float, seats: int, rematch_of: str | None
) -> dict[str, Any]:
    return {
        "clock": clock,
        "clock_state": {
            "remaining": [clock["seconds"]] * seats if clock else [],
            "turn_seat": None,
            "turn_ply": 0,
            "turn_started": 0.0,
        },
        "clock_moves": [],
        "forfeits": [],
        "handed": [],
        "rematch": {"accepted": [], "game": None},
        "rematch_of": rematch_of,
        "hand_over_after": hand_over_after,
    }


class Control:
    """Resign, abort, rematch, clocks and hand-over for every game of one GameService."""

    def __init__(self, service: GameService):
        self.service = service
        self.store = service.store

    # --- lifecycle -----------------------------------------------------------------------
    def setup(
        self,
        live: LiveGame,
        clock: Any,
        hand_over_after: Any,
        rematch_of: str | None = None,
    ) -> None:
        """Check the creation options (before the game is stored); the document is stored by
        `created` once the game row exists."""
        checked = check_clock(clock, available_agents(live.game))
        live.control = GameControl(
            new_data(checked, check_hand_over_after(hand_over_after), len(live.stored.seats), rematch_of)
        )
        self._start_gone_watch(live)

    def created(self, live: LiveGame) -> None:
        if self._plain(live):
            return  # nothing to store until something happens
        self._save(live)

    def load(self, live: LiveGame) -> None:
        """A game read from the store (a restart): its control document, the turn on move started
        again now (downtime is not charged)."""
        stored = self.store.load_control(live.id)
        n = len(live.stored.seats)
        live.control = GameControl(stored or new_data(None, DEFAULT_HAND_OVER_AFTER_S, n, None))
        state = live.control.data["clock_state"]
        # In a cluster another node may be serving the game right now: its clock runs on as stored.
        if live.control.clock and state["turn_seat"] is not None and not self.service.clustered:
            state["turn_started"] = time.time()
        self._start_gone_watch(live)

    def reloaded(self, live: LiveGame, data: dict[str, Any] | None) -> None:
        """Another node changed the game's control document: adopt the stored one (its timer
        set again where the clock's turn changed)."""
        if data is None:
            return
        ctl = control_of(live)
        before = ctl.data.get("clock_state")
        ctl.data = data
        if data.get("clock") and (data.get("clock_state") != before or ctl.timer is None or ctl.timer.done()):
            if ctl.timer is None or ctl.timer is not asyncio.current_task():
                self._arm(live)
        self._watch_gone(live)

    def resume_clocks(self) -> None:
        """After a restart: load every game whose clock was running, so that its timer is set
        again now (a game that cannot be loaded is logged and left for its players to see)."""
        try:
            ids = self.store.games_on_the_clock()
        except Exception as e:
            log.error("cannot list the games on the clock: %s", e)
            return
        for gid in ids:
            try:
                self.service.get(gid)
            except ServiceError as e:
                log.error("game %s: its clock cannot resume: %s", gid, e.message)

    def _plain(self, live: LiveGame) -> bool:
        d = control_of(live).data
        return (
            not d["clock"]
            and not d["forfeits"]
            and not d["handed"]
            and not d["rematch"]["accepted"]
            and not d["rematch_of"]
            and d["hand_over_after"] == DEFAULT_HAND_OVER_AFTER_S
        )

    def _save(self, live: LiveGame) -> None:
        try:
            self.store.save_control(live.id, control_of(live).data)
        except Exception as e:
            raise self.service.store_failed(f"store the control of game {live.id}", e) from None

    def stop(self, live: LiveGame) -> None:
        ctl = live.control
        if ctl is None:
            return
        if ctl.timer is not None:
            ctl.timer.cancel()
            ctl.timer = None
        if ctl.watch is not None:
            ctl.watch.cancel()
            ctl.watch = None

    # --- the result --------------------------------------------------------------------
    def outcome(self, live: LiveGame) -> Outcome:
        return outcome(live.state, control_of(live).forfeits())

    def ended(self, live: LiveGame) -> bool:
        """Over on the board or off it (resigned, out of time, aborted)."""
        if live.state.is_terminal():
            return True
        return bool(control_of(live).data["forfeits"]) and self.outcome(live).ended

    def check_can_move(self, live: LiveGame, seat: int) -> None:
        if self.ended(live):
            raise ServiceError(409, "game_over", "the game is over")
        s = live.stored.seats[seat]
        if s["kind"] != "human":
            out = seat in self.outcome(live).out
            why = "you are out of this game" if out else "your seat was handed to an AI"
            raise ServiceError(409, "seat_handed", f"{why}: the server plays this seat now")

    def record_extra(self, live: LiveGame) -> dict[str, Any]:
        d = control_of(live).data
        return {
            "forfeits": self.outcome_forfeits(live),
            "clock": d["clock"],
            "clock_moves": list(d["clock_moves"]),
            "handed_to_ai": list(d["handed"]),
        }

    def outcome_forfeits(self, live: LiveGame) -> list[Forfeit]:
        return control_of(live).forfeits()

    # --- what a seat is sent ----------------------------------------------------------------
    def info(self, live: LiveGame) -> dict[str, Any]:
        d = control_of(live).data
        return {"clock": d["clock"], "hand_over_after": d["hand_over_after"], "rematch_of": d["rematch_of"]}

    def view(self, live: LiveGame, viewer: int | None) -> dict[str, Any]:
        """The control fields of a state message for `viewer` (see docs/web.md)."""
        ctl = control_of(live)
        d = ctl.data
        out: dict[str, Any] = {}
        forfeits = ctl.forfeits()
        result = self.outcome(live) if forfeits else None
        if result is not None and result.ended and not live.state.is_terminal():
            out.update(terminal=True, returns=result.returns, winners=result.winners, to_move=None)
            out.update(can_undo=False, can_hint=False)
        elif result is not None and live.state.is_terminal():
            out.update(returns=result.returns, winners=result.winners)
        out["ending"] = (
            {
                "forfeits": [f.to_dict() for f in forfeits],
                "aborted": bool(result and result.aborted),
                "out": sorted(result.out) if result else [],
            }
            if forfeits
            else None
        )
        out["clock"] = self._clock_view(live)
        ended = self.ended(live)
        humans = self._present_humans(live)
        is_player = viewer is not None and viewer in humans
        out["controls"] = {
            "can_resign": is_player and not ended,
            "can_abort": is_player and not ended and self._abort_refusal(live) is None,
            "can_rematch": viewer is not None and ended and viewer in humans,
            "handable": self._handable(live, viewer) if is_player and not ended else [],
            "handed": [h["seat"] for h in d["handed"]],  # seats handed to an AI (shown on the page)
        }
        rematch = d["rematch"]
        out["rematch"] = {
            "accepted": list(rematch["accepted"]),
            "needed": humans,
            "game": rematch["game"],
            "link": self._rematch_link(live, viewer),
        }
        return out

    @staticmethod
    def _not_arrived(live: LiveGame, seat: int) -> bool:
        """The clocks wait until every human seat is taken (issue 27): while an invited seat's
        link is unopened, no seat's clock runs (a friend is not timed out before they have seen
        the game, and a player is not timed out waiting for a friend who has not come)."""
        return any(s["kind"] == "human" and s.get("invite") for s in live.stored.seats)

    def seat_taken(self, live: LiveGame, seat: int) -> None:
        """An invited or open seat was just taken: once every human seat is, the turn of the
        seat on move starts now."""
        ctl = live.control
        if ctl is None or not ctl.clock or self.ended(live):
            return
        st = ctl.data["clock_state"]
        if st["turn_seat"] is None or self._not_arrived(live, st["turn_seat"]):
            return
        st["turn_started"] = time.time()
        try:
            self.store.save_control(live.id, ctl.data)
        except Exception as e:  # the clock runs in memory; the next change stores it
            self.service.store_failures += 1
            log.error("storage failure (clock of game %s): %s", live.id, e)
        self._arm(live)
        self._spawn(live, self._tell_everyone(live))  # the others' pages start its countdown

    def _clock_view(self, live: LiveGame) -> dict[str, Any] | None:
        ctl = control_of(live)
        clock = ctl.clock
        if not clock:
            return None
        st = ctl.data["clock_state"]
        running = st["turn_seat"] if not self.ended(live) else None
        if running is not None and self._not_arrived(live, running):
            running = None  # waiting for its player to arrive: shown full, not counting down
        now = time.time()
        if clock["mode"] == "total":
            remaining = list(st["remaining"])
        else:
            remaining = [clock["seconds"] if s["kind"] == "human" else None for s in live.stored.seats]
        if running is not None:
            base = st["remaining"][running] if clock["mode"] == "total" else clock["seconds"]
            remaining[running] = max(0.0, base - (now - st["turn_started"]))
        return {
            **clock,
            "running": running,
            # Milliseconds left per seat as of sending: the page counts down from these numbers.
            "remaining_ms": [None if r is None else round(r * 1000) for r in remaining],
            "moves": list(ctl.data["clock_moves"]),  # plies the clock's AI played
        }

    def _present_humans(self, live: LiveGame) -> list[int]:
        return [i for i, s in enumerate(live.stored.seats) if s["kind"] == "human"]

    def _rematch_link(self, live: LiveGame, viewer: int | None) -> str | None:
        new_id = control_of(live).data["rematch"]["game"]
        if not new_id:
            return None
        try:
            new = self.service.get(new_id)
        except ServiceError:
            return None
        if viewer is None:
            return f"/g/{new_id}#t={new.stored.spectator_token}"
        n = len(live.stored.seats)
        token = new.stored.seats[(viewer + 1) % n].get("token")
        return f"/g/{new_id}#t={token}" if token else f"/g/{new_id}#t={new.stored.spectator_token}"

    # --- resign and abort --------------------------------------------------------------------
    def _player(self, live: LiveGame, token: str | None, what: str) -> int:
        seat = self.service.seat_for(live, token)
        if seat is None:
            raise ServiceError(403, "spectator", f"spectators cannot {what}")
        return seat

    async def resign(self, gid: str, token: str | None) -> dict[str, Any]:
        live = self.service.get(gid)
        seat = self._player(live, token, "resign")
        async with live.lock:
            await self.service.refresh_locked(live)
            if self.ended(live):
                raise ServiceError(409, "game_over", "the game is over: there is nothing to resign")
            if live.stored.seats[seat]["kind"] != "human":
                raise ServiceError(409, "seat_handed", "this seat is already out or played by an AI")
            await self._forfeit(live, seat, "resigned")
        self.service.schedule_advance(live)
        return {"ok": True, "ended": self.ended(live), "ply": live.ply()}

    async def _forfeit(self, live: LiveGame, seat: int, reason: Any) -> None:
        """Seat `seat` is out (caller holds the lock): stored, then applied and told. Where the
        kernel says the game goes on, a stand-in agent plays the seat's turns."""
        ctl = control_of(live)
        ctl.data["forfeits"].append(Forfeit(seat, reason, live.ply()).to_dict())
        seats = None
        if not self.outcome(live).ended:
            agents = available_agents(live.game)
            stand_in = next((a for a in STAND_IN if a in agents), agents[0])
            seats = [dict(s) for s in live.stored.seats]
            seats[seat].update(kind="agent", agent=stand_in)
        try:
            if seats is not None:
                self.store.update_seats(live.id, seats)
            self.store.save_control(live.id, ctl.data)
        except Exception as e:
            ctl.data["forfeits"].pop()
            raise self.service.store_failed(f"store a forfeit in game {live.id}", e) from None
        if seats is not None:
            self._adopt_seats(live, seats)
        await self.service.broadcast(live, sync=True)

    def _adopt_seats(self, live: LiveGame, seats: list[dict[str, Any]]) -> None:
        live.stored.seats = seats
        live.human_seats = None
        live.agents.clear()

    @staticmethod
    def _seat_moves(live: LiveGame, enough: int = 2) -> int:
        """Moves by seats so far (chance outcomes do not count), counted up to `enough`: every
        state message asks, and a long game's log is long."""
        count = 0
        for seat, _text in live.log:
            if seat >= 0:
                count += 1
                if count >= enough:
                    break
        return count

    def _abort_refusal(self, live: LiveGame) -> str | None:
        return abort_refusal(live.state, self._seat_moves(live))

    async def abort(self, gid: str, token: str | None) -> dict[str, Any]:
        live = self.service.get(gid)
        self._player(live, token, "abort")
        async with live.lock:
            await self.service.refresh_locked(live)
            if self.ended(live):
                raise ServiceError(409, "game_over", "the game is over: there is nothing to abort")
            why = self._abort_refusal(live)
            if why is not None:
                raise ServiceError(409, "too_late_to_abort", f"abort refused: {why}")
            ctl = control_of(live)
            ctl.data["forfeits"].append(Forfeit(None, "aborted", live.ply()).to_dict())
            try:
                self.store.save_control(live.id, ctl.data)
            except Exception as e:
                ctl.data["forfeits"].pop()
                raise self.service.store_failed(f"store an abort in game {live.id}", e) from None
            await self.service.broadcast(live, sync=True)
        return {"ok": True, "ended": True, "ply": live.ply()}

    # --- rematch -------------------------------------------------------------------------------
    async def rematch(self, gid: str, token: str | None) -> dict[str, Any]:
        """This seat accepts a rematch; once every human seat has, the new game is created (same
        game, options, hints, practice and clock; everyone one seat along) and each player's
        page is sent its own new link."""
        live = self.service.get(gid)
        seat = self._player(live, token, "ask for a rematch")
        async with live.lock:
            await self.service.refresh_locked(live)
            if not self.ended(live):
                raise ServiceError(409, "not_over", "a rematch is for a finished game; this one is still on")
            ctl = control_of(live)
            humans = self._present_humans(live)
            if seat not in humans:
                raise ServiceError(409, "seat_handed", "this seat is played by an AI now: no rematch for it")
            rematch = ctl.data["rematch"]
            if rematch["game"] is None:
                if seat not in rematch["accepted"]:
                    rematch["accepted"].append(seat)
                if set(humans) <= set(rematch["accepted"]):
                    rematch["game"] = await self._create_rematch(live)
                try:
                    self.store.save_control(live.id, ctl.data)
                except Exception as e:
                    if rematch["game"] is None:
                        rematch["accepted"].remove(seat)
                    raise self.service.store_failed(f"store a rematch of game {live.id}", e) from None
                await self.service.broadcast(live, sync=True)
        return {
            "ok": True,
            "accepted": list(rematch["accepted"]),
            "game": rematch["game"],
            "link": self._rematch_link(live, seat),
        }

    async def _create_rematch(self, live: LiveGame) -> str:
        n = len(live.stored.seats)
        seats: list[dict[str, Any]] = [{}] * n
        for i, s in enumerate(live.stored.seats):
            entry = {"kind": s["kind"], "agent": s["agent"], "name": s.get("name") or ""}
            seats[(i + 1) % n] = entry
        d = control_of(live).data
        new = await self.service.create(
            live.stored.game,
            dict(live.stored.options),
            seats,
            hints=live.stored.hints,
            practice=live.stored.practice,
            # The same people play again: not listed as an open table, spectators as before.
            spectator_chat=live.stored.spectator_chat,
            clock=d["clock"],
            hand_over_after=d["hand_over_after"],
            rematch_of=live.id,
        )
        return new.id

    # --- seats whose player has gone ----------------------------------------------------------
    def _start_gone_watch(self, live: LiveGame) -> None:
        now = time.time()
        ctl = control_of(live)
        for i, s in enumerate(live.stored.seats):
            if s["kind"] == "human":
                ctl.gone_since.setdefault(i, now)
        self._watch_gone(live)

    def connected(self, live: LiveGame, seat: int | None) -> None:
        if seat is not None and live.control is not None:
            live.control.gone_since.pop(seat, None)

    def disconnected(self, live: LiveGame, seat: int | None) -> None:
        """A socket closed: if its seat has no other, it is gone from now; the other players are
        told when it has been gone long enough to be handed to an AI."""
        if seat is None or live.control is None:
            return
        if any(c.seat == seat for c in live.connections):
            return
        live.control.gone_since[seat] = time.time()
        self._watch_gone(live)

    def _watch_gone(self, live: LiveGame) -> None:
        ctl = control_of(live)
        if ctl.watch is not None:
            ctl.watch.cancel()
            ctl.watch = None
        if not ctl.gone_since or self.ended(live) or len(self._present_humans(live)) < 2:
            return  # nobody else to offer a seat to
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        now = time.time()
        later = [t + self._hand_over_wait(live, i) for i, t in ctl.gone_since.items()]
        later = [t for t in later if t > now]
        if not later:
            return
        due = min(later)
        ctl.watch = loop.call_later(due - now + 0.05, self._gone_due, live)

    def _gone_due(self, live: LiveGame) -> None:
        # A seat just became handable: everyone's page is told (the offer appears live).
        ctl = control_of(live)
        ctl.watch = None
        self._spawn(live, self._tell_everyone(live))
        self._watch_gone(live)

    async def _tell_everyone(self, live: LiveGame) -> None:
        async with live.lock:  # in order with the moves' updates, never between them
            await self.service.broadcast(live)

    def _hand_over_wait(self, live: LiveGame, seat: int) -> float:
        wait = control_of(live).data["hand_over_after"]
        if self._not_arrived(live, seat):  # i26: the floor for a friend not arrived yet
            return max(wait, HAND_OVER_INVITE_FLOOR_S)
        return wait

    def _handable(self, live: LiveGame, viewer: int | None) -> list[int]:
        ctl = control_of(live)
        now = time.time()
        elsewhere = self.service.seats_elsewhere(live.id)  # connected to another node of a cluster
        return [
            i
            for i, since in sorted(ctl.gone_since.items())
            if i != viewer
            and live.stored.seats[i]["kind"] == "human"
            and not any(c.seat == i for c in live.connections)
            and i not in elsewhere
            and now - since >= self._hand_over_wait(live, i)
        ]

    async def hand_over(self, gid: str, token: str | None, seat: Any, agent: Any) -> dict[str, Any]:
        live = self.service.get(gid)
        by = self._player(live, token, "hand a seat to an AI")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(live.stored.seats):
            last = len(live.stored.seats) - 1
            raise ServiceError(400, "bad_seat", f"seat {seat!r}: a seat number from 0 to {last}")
        agents = available_agents(live.game)
        ctl = control_of(live)
        stand_in = next((a for a in STAND_IN if a in agents), agents[0])
        level = agent or (ctl.clock or {}).get("ai_level") or stand_in
        if level not in agents:
            raise ServiceError(400, "bad_agent", f"agent {level!r}: one of {', '.join(agents)}")
        async with live.lock:
            await self.service.refresh_locked(live)
            if self.ended(live):
                raise ServiceError(409, "game_over", "the game is over")
            if live.stored.seats[by]["kind"] != "human":
                raise ServiceError(403, "seat_handed", "your own seat is played by an AI now")
            if seat not in self._handable(live, by):
                raise ServiceError(
                    409,
                    "not_gone",
                    f"seat {seat + 1} cannot be handed to an AI: only another human seat whose player "
                    f"has had no connection for {ctl.data['hand_over_after']:g} s"
                    + (
                        f" (an invited player who has not opened the link yet: "
                        f"{HAND_OVER_INVITE_FLOOR_S:g} s)"
                        if self._not_arrived(live, seat)
                        else ""
                    ),
                )
            seats = [dict(s) for s in live.stored.seats]
            seats[seat].update(kind="agent", agent=level)
            entry = {"seat": seat, "agent": level, "ply": live.ply(), "by": by}
            ctl.data["handed"].append(entry)
            try:
                self.store.update_seats(live.id, seats)
                self.store.save_control(live.id, ctl.data)
            except Exception as e:
                ctl.data["handed"].pop()
                raise self.service.store_failed(f"hand a seat of game {live.id} to an AI", e) from None
            self._adopt_seats(live, seats)
            ctl.gone_since.pop(seat, None)
            await self.service.broadcast(live, sync=True)
        self.service.schedule_advance(live)
        return {"ok": True, "seat": seat, "agent": level}

    # --- the clock -----------------------------------------------------------------------------
    def changed(self, live: LiveGame) -> None:
        """The game moved on (caller holds the lock, about to tell everyone): end the turn that
        ended, start the one that began, store the clock and set its timer."""
        ctl = live.control
        if ctl is None or not ctl.clock:
            return
        st = ctl.data["clock_state"]
        state = live.state
        player = state.current_player()
        ply = live.ply()
        now = time.time()
        turn = st["turn_seat"]
        if turn is not None and player == turn and not self.ended(live):
            # Still the same seat's turn if nobody else acted since it began (chance may have).
            if ply >= st["turn_ply"] and all(s in (turn, CHANCE) for s, _ in live.log[st["turn_ply"] :]):
                if ctl.timer is None or ctl.timer.done():
                    self._arm(live)  # a game just loaded (a restart): its timer is set again
                return  # its timer (or the clock's AI playing the turn) carries on
        clock = ctl.clock
        if turn is not None and clock["mode"] == "total" and not self._not_arrived(live, turn):
            # (no time is spent while the clocks wait for a seat to be taken)
            spent = now - st["turn_started"]
            left = max(0.0, st["remaining"][turn] - spent)
            # The increment is for a turn played: none for the turn a game ended in, nor for one
            # taken back by undo (undo then a move again must not add it twice).
            played = left > 0 and not self.ended(live) and ply > st["turn_ply"]
            st["remaining"][turn] = left + clock["increment"] if played else left
        human_turn = player >= 0 and live.stored.seats[player]["kind"] == "human" and not self.ended(live)
        if human_turn:
            st.update(turn_seat=player, turn_ply=ply, turn_started=now)
        else:
            st.update(turn_seat=None, turn_ply=ply, turn_started=now)
        try:
            self.store.save_control(live.id, ctl.data)
        except Exception as e:  # the clock keeps running in memory; the next change stores it
            self.service.store_failures += 1
            log.error("storage failure (clock of game %s): %s", live.id, e)
        self._arm(live)

    def _arm(self, live: LiveGame) -> None:
        ctl = control_of(live)
        if ctl.timer is not None and ctl.timer is not asyncio.current_task():
            ctl.timer.cancel()
        ctl.timer = None
        st = ctl.data["clock_state"]
        clock = ctl.clock
        if not clock or st["turn_seat"] is None or self.ended(live):
            ctl.deadline = None
            return
        seat = st["turn_seat"]
        if self._not_arrived(live, seat):
            ctl.deadline = None  # its clock starts when its player takes the seat (seat_taken)
            return
        budget = st["remaining"][seat] if clock["mode"] == "total" else clock["seconds"]
        ctl.deadline = st["turn_started"] + budget
        ctl.timer = self._spawn(live, self._expire_at(live, st["turn_ply"], seat, ctl.deadline))

    def _spawn(self, live: LiveGame, work: Any) -> asyncio.Task | None:
        return self.service.spawn(work)

    async def _expire_at(self, live: LiveGame, turn_ply: int, seat: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        for wait in (*STORE_RETRY_S, None):
            try:
                await self._expire(live, turn_ply, seat)
                return
            except ServiceError as e:
                if e.status != 503 or wait is None:
                    await self._clock_failed(live, seat, e.message)
                    return
                # The store failed: nothing was applied; try again (the turn is checked again).
                log.error("clock of game %s: %s; retrying in %s s", live.id, e.message, wait)
                await asyncio.sleep(wait)
            except Exception as e:  # an agent bug must not kill the server; the players are told
                log.exception("clock of game %s failed", live.id)
                await self._clock_failed(live, seat, str(e))
                return

    async def _clock_failed(self, live: LiveGame, seat: int, why: str) -> None:
        async with live.lock:
            who = self.service.seat_label(live, seat)
            live.failed = f"the clock could not play for {who} when time ran out: {why}"
            await self.service.broadcast(live)

    async def _expire(self, live: LiveGame, turn_ply: int, seat: int) -> None:
        """The seat on move ran out of time: the chosen rule, under the game's lock."""
        ctl = control_of(live)
        async with live.lock:
            await self.service.refresh_locked(live)  # in a cluster: as stored, moves made elsewhere
            st = ctl.data["clock_state"]
            if (
                self.service.live.get(live.id) is not live
                or self.ended(live)
                or st["turn_seat"] != seat
                or st["turn_ply"] != turn_ply
                or live.state.current_player() != seat
            ):
                return  # the turn ended meanwhile (a move arrived as the timer fired)
            assert ctl.clock is not None
            budget = st["remaining"][seat] if ctl.clock["mode"] == "total" else ctl.clock["seconds"]
            if time.time() < st["turn_started"] + budget - 0.01:
                self._arm(live)  # the turn was restarted meanwhile (a seat taken): not yet
                return
            if not self.service.claim_timer(live, "clock", turn_ply, CLOCK_CLAIM_S):
                # Another node acts on it. Should it die first, its claim lapses: look again then.
                ctl.timer = self._spawn(
                    live, self._expire_at(live, turn_ply, seat, time.time() + CLOCK_CLAIM_S + 0.1)
                )
                return
            if ctl.clock["mode"] == "total":
                st["remaining"][seat] = 0.0
            if ctl.clock["on_timeout"] == "forfeit":
                await self._forfeit(live, seat, "out_of_time")
            else:
                await self._clock_plays(live, seat)
        self.service.schedule_advance(live)

    async def _clock_plays(self, live: LiveGame, seat: int) -> None:
        """The clock's AI plays the rest of `seat`'s turn (caller holds the lock)."""
        ctl = control_of(live)
        assert ctl.clock is not None
        level = ctl.clock["ai_level"]
        for _ in range(MAX_CLOCK_TURN_ACTIONS):
            state = live.state
            if self.ended(live) or state.current_player() != seat:
                return
            ply = live.ply()
            # Never the true state: the agent sees what the seat may know (server/seat_player.py).
            player = SeatPlayer.new(level, live.game, seat, live.key, "clock", seat, ply)
            try:
                action = await asyncio.to_thread(player.choose, state, ply)
            except IllegalChoice:
                raise ServiceError(
                    500, "clock_agent_failed", f"the clock's {level} agent chose an illegal action"
                ) from None
            ctl.data["clock_moves"].append(ply)
            try:
                await self.service.play_locked(live, seat, action, by="clock")
            except ServiceError:
                ctl.data["clock_moves"].pop()
                raise


def control_of(live: LiveGame) -> GameControl:
    if live.control is None:  # a game made without the service's create or get (tests)
        live.control = GameControl(new_data(None, DEFAULT_HAND_OVER_AFTER_S, len(live.stored.seats), None))
    ctl: GameControl = live.control
    return ctl
