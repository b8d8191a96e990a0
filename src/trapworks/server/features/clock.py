"""The clock: the server times each human seat's turns (the `clock` creation option).

A turn is the run of actions one seat is asked for in a row (chance outcomes in between do not
end it). Only human seats are timed. `move` mode gives each turn `seconds`; `total` mode gives each
seat `seconds` for the whole game and adds `increment` after each of its turns (Fischer). One
asyncio timer per live game sleeps until the seat on move runs out; it then takes the game's lock
and applies the rule chosen at creation: `ai` (the seat's turn is played by an agent at
`ai_level`, through a SeatPlayer: from the seat's view, never the true state) or `forfeit` (the
seat is out, features/resign.py). Clients only display the numbers the server sends. Time while
the server is down is not charged: after a restart the turn on move starts again with the time the
seat had when that turn began. In a cluster the expiry acts once: the node whose claim the store
takes (server/store.py claim_timer).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from trapworks.agents import available_agents
from trapworks.core import CHANCE, Game

from ..errors import STORE_RETRY_S, ErrorCode, ServiceError
from ..messages import ClockSpec
from ..room import CONTROL_TRIES, Room
from ..seat_player import IllegalChoice, SeatPlayer
from . import Feature, Setup
from .resign import forfeit

log = logging.getLogger("trapworks.server")

MAX_CLOCK_TURN_ACTIONS = 200  # the clock's AI plays at most this many actions of one turn
# A cluster node's claim on a clock running out lapses after this long (then another node acts:
# the claimant may have died before it could).
CLOCK_CLAIM_S = 10.0


def check_clock(spec: ClockSpec | None, game: Game) -> dict[str, Any] | None:
    """A clock as the server keeps it. The pydantic model checked every field; what it cannot
    know is the game's agents (the `ai` rule's level) and that an increment is for `total` mode."""
    if spec is None:
        return None
    agents = available_agents(game)
    if spec.mode == "move" and spec.increment:
        raise ServiceError(
            ErrorCode.BAD_CLOCK, "clock.increment is for mode 'total' (a per-turn clock restarts anyway)"
        )
    if spec.on_timeout == "ai" and spec.ai_level not in agents:
        raise ServiceError(
            ErrorCode.BAD_CLOCK,
            "clock.ai_level {ai_level}: one of this game's agents ({agents})",
            ai_level=repr(spec.ai_level),
            agents=", ".join(agents),
        )
    return {
        "mode": spec.mode,
        "seconds": float(spec.seconds),
        "increment": float(spec.increment),
        "on_timeout": spec.on_timeout,
        "ai_level": spec.ai_level if spec.on_timeout == "ai" else None,
    }


@dataclass(eq=False)
class ClockTimer:
    """A room's clock in memory: the task that wakes when the seat on move runs out."""

    timer: asyncio.Task[None] | None = None
    deadline: float | None = None  # wall-clock time the seat on move runs out


class Clock(Feature):
    name = "clock"
    order = 40
    commands: ClassVar[tuple[type[BaseModel], ...]] = (ClockSpec,)  # a creation option
    state_fields: ClassVar[dict[str, Any]] = {
        "clock": (
            dict[str, Any] | None,
            Field(
                None,
                description="the clock: its settings, `running` (the seat on move, or null) and "
                "`remaining_ms` per seat as of sending (null: not timed)",
            ),
        )
    }
    Local = ClockTimer

    # --- its part of the control document --------------------------------------------------------
    def control(self, setup: Setup) -> dict[str, Any]:
        """`clock` (its settings, None: untimed), `clock_state` (the turn on move and the time
        left per seat) and `clock_moves` (the plies its AI played)."""
        request = setup.request
        clock = None
        if request is not None and setup.game is not None:
            clock = check_clock(request.clock, setup.game)
        return {
            "clock": clock,
            "clock_state": {
                "remaining": [clock["seconds"]] * setup.seats if clock else [],
                "turn_seat": None,
                "turn_ply": 0,
                "turn_started": 0.0,
            },
            "clock_moves": [],
        }

    def deadline(self, room: Room) -> float | None:
        """When the seat on move runs out (a Unix time; None: no clock running)."""
        held = room.control.local.get(self.name)
        return held.deadline if held is not None else None

    def busy(self, room: Room) -> bool:
        held = room.control.local.get(self.name)
        return held is not None and held.timer is not None and not held.timer.done()

    async def start(self) -> None:
        self.resume()  # clocks run again at once, not when a player comes back

    # --- the room's life -----------------------------------------------------------------------
    def loaded(self, room: Room) -> None:
        """A game read from the store (a restart): the turn on move starts again now (downtime is
        not charged)."""
        state = room.control.data["clock_state"]
        # In a cluster another node may be serving the game right now: its clock runs on as stored.
        if room.control.data["clock"] and state["turn_seat"] is not None and not self.host.clustered:
            state["turn_started"] = time.time()

    def reloaded(self, room: Room) -> None:
        """Another node changed the game's control document (adopted by the room): the timer set
        again where the clock's turn changed."""
        held = self.local(room)
        ctl = room.control
        before = ctl.before["clock_state"] if ctl.before is not None else None
        if ctl.data["clock"] and (
            ctl.data["clock_state"] != before or held.timer is None or held.timer.done()
        ):
            if held.timer is None or held.timer is not asyncio.current_task():
                self._arm(room)

    def resume(self) -> None:
        """After a restart: load every game whose clock was running, so that its timer is set
        again now (a game that cannot be loaded is logged and left for its players to see)."""
        try:
            ids = self.host.store.games_on_the_clock()
        except Exception as e:
            log.error("cannot list the games on the clock: %s", e)
            return
        for gid in ids:
            try:
                self.host.get(gid)
            except ServiceError as e:
                log.error("game %s: its clock cannot resume: %s", gid, e.message)

    def stop(self, room: Room) -> None:
        held = self.local(room)
        if held.timer is not None and held.timer is not asyncio.current_task():
            held.timer.cancel()
        held.timer = None

    def at_end(self, room: Room) -> None:
        self.stop(room)  # no turn runs any more

    def seat_taken(self, room: Room, seat: int) -> None:
        """An invited or open seat was just taken: once every human seat is, the turn of the
        seat on move starts now."""
        ctl = room.control
        if not ctl.data["clock"] or room.ended():
            return
        st = ctl.data["clock_state"]
        if st["turn_seat"] is None or room.waiting_for_invited():
            return
        for _ in range(CONTROL_TRIES):
            st = ctl.data["clock_state"]
            if not ctl.data["clock"] or room.ended() or st["turn_seat"] is None or room.waiting_for_invited():
                break  # (as stored by another node meanwhile)
            st["turn_started"] = time.time()
            if self._stored(room):
                break
        self._arm(room)
        self.host.spawn(room.tell_everyone())  # the others' pages start its countdown

    @staticmethod
    def _stored(room: Room) -> bool:
        """Store the clock (True); False where another node changed the document meanwhile (the
        stored one adopted: the caller does its change again). A store failure is logged and the
        clock runs on in memory (the next change stores it)."""
        try:
            return room.store_control("store the clock")
        except ServiceError:
            return True

    def _clock_view(self, room: Room) -> dict[str, Any] | None:
        ctl = room.control
        clock = ctl.data["clock"]
        if not clock:
            return None
        st = ctl.data["clock_state"]
        running = st["turn_seat"] if not room.ended() else None
        if running is not None and room.waiting_for_invited():
            running = None  # waiting for its player to arrive: shown full, not counting down
        now = time.time()
        if clock["mode"] == "total":
            remaining: list[float | None] = list(st["remaining"])
        else:
            remaining = [clock["seconds"] if s["kind"] == "human" else None for s in room.stored.seats]
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

    # --- what a seat is sent, what the record holds ------------------------------------------------
    def update(self, room: Room, viewer: int | None, state: Any) -> dict[str, Any]:
        return {"clock": self._clock_view(room)} if state is room.state else {}

    def info(self, room: Room) -> dict[str, Any]:
        return {"clock": room.control.data["clock"]}

    def record(self, room: Room) -> dict[str, Any]:
        d = room.control.data
        return {"clock": d["clock"], "clock_moves": list(d["clock_moves"])}

    # --- the clock ------------------------------------------------------------------------------

    def after_step(self, room: Room) -> None:
        """The game moved on (caller holds the lock, about to tell everyone): end the turn that
        ended, start the one that began, store the clock and set its timer. Where another node
        changed the control document meanwhile (a resignation, a rematch), the turn is worked out
        again on the stored document: neither change is lost."""
        held = self.local(room)
        for _ in range(CONTROL_TRIES):
            changed = self._turn(room)
            if changed is None:
                return  # no clock
            if not changed:
                if held.timer is None or held.timer.done():
                    self._arm(room)  # a game just loaded (a restart): its timer is set again
                return  # its timer (or the clock's AI playing the turn) carries on
            if self._stored(room):
                break
        self._arm(room)

    def _turn(self, room: Room) -> bool | None:
        """Work out the turn in the control document: whether it changed (to be stored); None
        where the game has no clock."""
        ctl = room.control
        if not ctl.data["clock"]:
            return None
        st = ctl.data["clock_state"]
        state = room.state
        player = state.current_player()
        ply = room.ply()
        now = time.time()
        turn = st["turn_seat"]
        if turn is not None and player == turn and not room.ended():
            # Still the same seat's turn if nobody else acted since it began (chance may have).
            if ply >= st["turn_ply"] and all(s in (turn, CHANCE) for s, _ in room.log[st["turn_ply"] :]):
                return False  # still the same turn
        clock = ctl.data["clock"]
        if turn is not None and clock["mode"] == "total" and not room.waiting_for_invited():
            # (no time is spent while the clocks wait for a seat to be taken)
            spent = now - st["turn_started"]
            left = max(0.0, st["remaining"][turn] - spent)
            # The increment is for a turn played: none for the turn a game ended in, nor for one
            # taken back by undo (undo then a move again must not add it twice).
            played = left > 0 and not room.ended() and ply > st["turn_ply"]
            st["remaining"][turn] = left + clock["increment"] if played else left
        human_turn = player >= 0 and room.stored.seats[player]["kind"] == "human" and not room.ended()
        st["turn_seat"] = player if human_turn else None
        st["turn_ply"] = ply
        st["turn_started"] = now
        return True

    def _arm(self, room: Room) -> None:
        held = self.local(room)
        ctl = room.control
        if held.timer is not None and held.timer is not asyncio.current_task():
            held.timer.cancel()
        held.timer = None
        st = ctl.data["clock_state"]
        clock = ctl.data["clock"]
        if not clock or st["turn_seat"] is None or room.ended():
            held.deadline = None
            return
        seat = st["turn_seat"]
        if room.waiting_for_invited():
            held.deadline = None  # its clock starts when its player takes the seat (seat_taken)
            return
        budget = st["remaining"][seat] if clock["mode"] == "total" else clock["seconds"]
        deadline = st["turn_started"] + budget
        held.deadline = deadline
        held.timer = self.host.spawn(self._expire_at(room, st["turn_ply"], seat, deadline))

    async def _expire_at(self, room: Room, turn_ply: int, seat: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        for wait in (*STORE_RETRY_S, None):
            try:
                await self._expire(room, turn_ply, seat)
                return
            except ServiceError as e:
                if e.status != 503 or wait is None:
                    await self._clock_failed(room, seat, e)
                    return
                # The store failed: nothing was applied; try again (the turn is checked again).
                log.error("clock of game %s: %s; retrying in %s s", room.id, e.message, wait)
                await asyncio.sleep(wait)
            except Exception as e:  # an agent bug must not kill the server; the players are told
                log.exception("clock of game %s failed", room.id)
                await self._clock_failed(room, seat, str(e))
                return

    async def _clock_failed(self, room: Room, seat: int, why: ServiceError | str) -> None:
        async with room.lock:
            who = {"seat": seat, "label": room.seat_label(seat)}
            room.failed = ServiceError(
                ErrorCode.CLOCK_AGENT_FAILED,
                "the clock could not play for {who} when time ran out: {why}",
                who=who,
                why=why,
            )
            await room.broadcast()

    async def _expire(self, room: Room, turn_ply: int, seat: int) -> None:
        """The seat on move ran out of time: the chosen rule, under the game's lock."""
        held = self.local(room)
        ctl = room.control
        async with room.lock:
            await room.refresh_locked()  # in a cluster: as stored, moves made elsewhere
            st = ctl.data["clock_state"]
            if (
                self.host.live.get(room.id) is not room
                or room.ended()
                or st["turn_seat"] != seat
                or st["turn_ply"] != turn_ply
                or room.state.current_player() != seat
            ):
                return  # the turn ended meanwhile (a move arrived as the timer fired)
            assert ctl.data["clock"] is not None
            budget = (
                st["remaining"][seat]
                if ctl.data["clock"]["mode"] == "total"
                else ctl.data["clock"]["seconds"]
            )
            if time.time() < st["turn_started"] + budget - 0.01:
                self._arm(room)  # the turn was restarted meanwhile (a seat taken): not yet
                return
            if not self.host.claim_timer(room, "clock", turn_ply, CLOCK_CLAIM_S):
                # Another node acts on it. Should it die first, its claim lapses: look again then.
                held.timer = self.host.spawn(
                    self._expire_at(room, turn_ply, seat, time.time() + CLOCK_CLAIM_S + 0.1)
                )
                return
            if ctl.data["clock"]["mode"] == "total":
                st["remaining"][seat] = 0.0
            if ctl.data["clock"]["on_timeout"] == "forfeit":
                await forfeit(room, seat, "out_of_time")
            else:
                await self._clock_plays(room, seat)
        room.schedule_advance()

    async def _clock_plays(self, room: Room, seat: int) -> None:
        """The clock's AI plays the rest of `seat`'s turn (caller holds the lock)."""
        ctl = room.control
        assert ctl.data["clock"] is not None
        level = ctl.data["clock"]["ai_level"]
        for _ in range(MAX_CLOCK_TURN_ACTIONS):
            state = room.state
            if room.ended() or state.current_player() != seat:
                return
            ply = room.ply()
            # Never the true state: the agent sees what the seat may know (server/seat_player.py).
            player = SeatPlayer.new(level, room.game, seat, room.key, "clock", seat, ply)
            try:
                action = await asyncio.to_thread(player.choose, state, ply)
            except IllegalChoice:
                raise ServiceError(
                    ErrorCode.CLOCK_AGENT_FAILED,
                    "the clock's {level} agent chose an illegal action",
                    level=level,
                ) from None
            ctl.data["clock_moves"].append(ply)
            try:
                await room.play(seat, action, by="clock")
            except ServiceError:
                ctl.data["clock_moves"].pop()
                raise
