"""A room: one live game as a server process holds it, and the one path of its actions.

A `Room` owns one game (its state, log, seats, lock, connections and control document) and every
action of a seat goes into it by one public path, `play(seat, action, by=...)`: validated (the
seat's turn, a legal action, the features' say: a resigned or handed seat plays no more),
committed to the store, then fanned out (each connection its seat's view of every step, the other
nodes of a cluster told). Whoever chose the action: a human (`move`, which reads the seat's text
first), an AI seat (`advance`), the clock's AI. Every AI seat plays through a `SeatPlayer`
(server/seat_player.py): it sees only its seat's view.

What happens off the board is the features' (server/features/: clock, resign, rematch, hand-over,
undo, hint, chat, presence, names, open tables): the room calls their hooks after each step and
asks them what a seat's update and the record carry. The room knows no rule: the kernel answers
every rule question. Its host (server/service.py's GameService) holds what all rooms share: the
store, the bus, the worker pools, the features.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypedDict, TypeVar, cast

from trapworks.core import (
    CHANCE,
    Forfeit,
    Game,
    IllegalActionError,
    State,
    TrapworksError,
    checked_events,
    outcome,
    story_entry,
    story_for,
)
from trapworks.core.forfeit import Outcome
from trapworks.core.randomness import chance_outcome
from trapworks.core.spec import dynamic_view, static_view

from .catalog import renderer_url
from .errors import STORE_RETRY_S, ServiceError
from .outbox import SocketDropped
from .seat_player import SeatPlayer
from .store import ControlConflict, PlyTaken, Store, StoredGame

if TYPE_CHECKING:
    import concurrent.futures

    from .bus import Bus
    from .messages import CreateGame

log = logging.getLogger("trapworks.server")

# Agents whose recent steps took less than this run on the event loop itself (see _agent_step).
INLINE_AGENT_S = 0.002
# At most this many chance and fast-agent actions are stored together with a human's move.
MAX_FOLDED_REPLIES = 64
INLINE_APPLY_S = 0.005  # a game whose recent applies took longer applies in a thread
# A cluster node's claim on playing chance or an AI seat at one ply lapses after this long (then
# another node plays it: the claimant may have died).
ADVANCE_CLAIM_S = 10.0
# A change of the control document is made again on the stored one at most this many times when
# other nodes keep changing it at the same moment (then 409: try again).
CONTROL_TRIES = 5
DEFAULT_HAND_OVER_AFTER_S = 120.0  # a seat with no socket this long may be handed to an AI


@dataclass(eq=False)
class Connection:
    """One open socket: which seat it speaks for (None: spectator) and how to send to it."""

    seat: int | None
    # Sends one frame: a message (dict), or several in order (list) that arrive together.
    send: Callable[[dict[str, Any] | list[dict[str, Any]]], Awaitable[None]]


class ClockState(TypedDict):
    remaining: list[float]
    turn_seat: int | None
    turn_ply: int
    turn_started: float


class RematchState(TypedDict):
    accepted: list[int]
    game: str | None


class ControlDoc(TypedDict):
    """The game's control document, stored as JSON (the `game_control` table): each feature owns
    its keys (clock: clock, clock_state, clock_moves; resign: forfeits; hand-over: handed,
    hand_over_after; rematch: rematch, rematch_of)."""

    clock: dict[str, Any] | None
    clock_state: ClockState
    clock_moves: list[int]
    forfeits: list[dict[str, Any]]
    handed: list[dict[str, Any]]
    rematch: RematchState
    rematch_of: str | None
    hand_over_after: float


def new_doc(
    clock: dict[str, Any] | None, hand_over_after: float, seats: int, rematch_of: str | None
) -> ControlDoc:
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


@dataclass(eq=False)
class GameControl:
    """One room's control document (stored) and its features' timers (not stored)."""

    data: ControlDoc
    version: int = 0  # the stored version it was read at (0: none stored): written only over it
    timer: asyncio.Task | None = None  # the clock's (features/clock.py)
    deadline: float | None = None  # wall-clock time the seat on move runs out
    # Seat -> when its last socket closed (time.time()); a seat never connected since this server
    # loaded the game counts from then (features/handover.py).
    gone_since: dict[int, float] = field(default_factory=dict)
    watch: asyncio.TimerHandle | None = None  # the hand-over's
    before: ControlDoc | None = None  # the document before another node's change was adopted

    @property
    def clock(self) -> dict[str, Any] | None:
        return self.data.get("clock")

    def forfeits(self) -> list[Forfeit]:
        return [Forfeit.from_dict(f) for f in self.data.get("forfeits", [])]


Step = tuple[int, str, State]  # (seat, action text, the state after it)


class Hooks(Protocol):
    """What a room asks of each feature (server/features/__init__.py's Feature has it all)."""

    def after_step(self, room: Room) -> None: ...
    def update(self, room: Room, viewer: int | None, state: Any) -> dict[str, Any]: ...
    def info(self, room: Room) -> dict[str, Any]: ...
    def at_end(self, room: Room) -> None: ...
    def check_play(self, room: Room, seat: int, by: str) -> None: ...
    def reloaded(self, room: Room) -> None: ...


H = TypeVar("H", bound=Hooks)


class Host(Protocol):
    """What rooms and their features need of the service (server/service.py's GameService):
    named here, not imported, so that nothing below the service imports it."""

    live: dict[str, Room]
    store: Store
    bus: Bus
    store_failures: int
    last_activity: float
    catch_ups: int
    agent_time: dict[tuple[str, str], float]
    apply_time: dict[str, float]
    apply_pool: concurrent.futures.ThreadPoolExecutor
    # game id -> node -> (when heard; seat -> status): seats with a socket on another node
    remote_seats: dict[str, dict[str, tuple[float, dict[int, str]]]]

    @property
    def features(self) -> Sequence[Hooks]: ...
    @property
    def clustered(self) -> bool: ...
    def get(self, gid: str) -> Room: ...
    def store_failed(self, what: str, error: BaseException) -> ServiceError: ...
    def spawn(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task | None: ...
    def claim_timer(self, room: Room, kind: str, ply: int, hold_s: float) -> bool: ...
    def seats_elsewhere(self, gid: str) -> dict[int, str]: ...
    def rebuild(self, stored: StoredGame) -> Room: ...
    def free_seats(self, stored: StoredGame) -> list[int]: ...
    def make_game(self, game_id: str, options: dict[str, Any]) -> Game: ...
    async def create(self, request: CreateGame, *, rematch_of: str | None = None) -> Room: ...
    def take_seat(self, room: Room, seat: int) -> None: ...
    def feature(self, kind: type[H]) -> H: ...


@dataclass(eq=False)
class Room:
    stored: StoredGame
    game: Game
    state: State
    log: list[tuple[int, str]]  # (seat, text) per ply, exactly the stored rows
    # Per ply, the kernel's words for it (core.story_entry: whose turn, lines, private ones marked).
    stories: list[dict[str, Any]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    agents: dict[int, SeatPlayer] = field(default_factory=dict)  # the AI seats' players
    failed: str | None = None  # an agent crashed: the reason, shown to the players
    human_seats: list[int] | None = None  # made on first use
    # (seat, ply) -> the action text as sent, for moves applied here: a repeat is answered, not applied.
    sent_texts: dict[tuple[int, int], str] = field(default_factory=dict)
    key: bytes = b""  # the secret randomness key (see game_key)
    control_doc: GameControl | None = None
    # The ply last told to the other nodes of a cluster (server/bus.py): the next message carries
    # the actions after it.
    published_ply: int = 0
    used: float = field(default_factory=time.monotonic)  # i26: last asked for (eviction.py)
    host: Host | None = None  # the service holding the room (None: a room made by hand, tests)
    end_told: bool = False  # the features were told the game ended (at_end)

    @property
    def id(self) -> str:
        return self.stored.id

    def ply(self) -> int:
        return len(self.log)

    @property
    def control(self) -> GameControl:
        """The control document (a room made without the service: a plain one)."""
        if self.control_doc is None:
            self.control_doc = GameControl(
                new_doc(None, DEFAULT_HAND_OVER_AFTER_S, len(self.stored.seats), None)
            )
        return self.control_doc

    @control.setter
    def control(self, value: GameControl | None) -> None:
        self.control_doc = value

    @property
    def _host(self) -> Host:
        assert self.host is not None, "a room acts only inside a service"
        return self.host

    # --- the result ----------------------------------------------------------------------
    def outcome(self) -> Outcome:
        """The kernel's result, counting the seats out off the board (core/forfeit.py)."""
        return outcome(self.state, self.control.forfeits())

    def ended(self) -> bool:
        """Over on the board or off it (resigned, out of time, aborted)."""
        if self.state.is_terminal():
            return True
        return bool(self.control.data["forfeits"]) and self.outcome().ended

    def waiting_for_invited(self) -> bool:
        """The clocks wait until every human seat is taken (issue 27): while an invited seat's
        link is unopened, no seat's clock runs (a friend is not timed out before they have seen
        the game, and a player is not timed out waiting for a friend who has not come)."""
        return any(s["kind"] == "human" and s.get("invite") for s in self.stored.seats)

    async def tell_everyone(self) -> None:
        """Every connection gets the game now (a change off the board: a seat became handable, a
        clock started), in order with the moves' updates, never between them."""
        async with self.lock:
            await self.broadcast()

    def store_control(self, what: str) -> bool:
        """Store the control document over the version read: True. False where another node of
        a cluster changed it meanwhile: the stored one (and the seats) adopted instead, for the
        caller to make its change again on it (no node's change is lost). ServiceError 503
        where the store fails (nothing was acknowledged)."""
        try:
            self.control.version = self._host.store.save_control(
                self.id, self.control.data, self.control.version
            )
            return True
        except ControlConflict:
            log.info("game %s: its control changed elsewhere (%s): reloaded", self.id, what)
            self._reload_control()
            return False
        except Exception as e:
            raise self._host.store_failed(f"{what} of game {self.id}", e) from None

    def adopt_seats(self, seats: list[dict[str, Any]]) -> None:
        """New seat rows (a seat handed to an AI, a name): the AI seats' players made again."""
        self.stored.seats = seats
        self.human_seats = None
        self.agents.clear()

    def seat_for(self, token: str | None) -> int | None:
        """Seat of a token (None: the spectator token). Raise 401/403 otherwise."""
        if not token:
            raise ServiceError(
                401,
                "missing_token",
                "this game needs a token: the secret from your seat or spectator link (?token=...)",
            )
        given = str(token).encode()
        for i, s in enumerate(self.stored.seats):
            if s["token"] and secrets.compare_digest(str(s["token"]).encode(), given):
                return i
        if secrets.compare_digest(self.stored.spectator_token.encode(), given):
            return None
        raise ServiceError(403, "wrong_token", "this token opens no seat of this game; check the link")

    def humans(self) -> list[int]:
        if self.human_seats is None:  # seats never change after creation
            self.human_seats = [i for i, s in enumerate(self.stored.seats) if s["kind"] == "human"]
        return self.human_seats

    def against_ai_only(self, seat: int | None) -> bool:
        """This seat is the only human one (everyone else is an agent)."""
        return seat is not None and self.humans() == [seat]

    def seat_label(self, seat: int) -> str:
        s = self.stored.seats[seat]
        who = s["name"] or (s["agent"] if s["kind"] == "agent" else "")
        return f"Player {seat + 1}" + (f" ({who})" if who else "")

    def players(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": i,
                "kind": s["kind"],
                "agent": s["agent"],
                "name": s["name"],
                "label": self.seat_label(i),
            }
            for i, s in enumerate(self.stored.seats)
        ]

    def _visible_text(
        self, viewer: int | None, seat: int, text: str, state: State | None = None
    ) -> str | None:
        # Which texts a seat may read is the game's declaration, read by the kernel.
        return text if (state or self.state).action_text_visible(seat, viewer) else None

    def log_for(self, viewer: int | None) -> list[dict[str, Any]]:
        return [
            {
                "ply": p,
                "seat": s,
                "text": self._visible_text(viewer, s, t),
                "story": self._story(p, viewer),
            }
            for p, (s, t) in enumerate(self.log)
        ]

    def _story(self, ply: int, viewer: int | None) -> dict[str, Any] | None:
        # The ply in players' words as this viewer may read them (the log shows these, keyed by ply).
        return story_for(self.stories[ply], viewer) if ply < len(self.stories) else None

    def snapshot(
        self,
        viewer: int | None,
        *,
        sync: bool,
        state: State | None = None,
        ply: int | None = None,
    ) -> dict[str, Any]:
        """What `viewer` is sent of the game: now, or of an earlier `state` after `ply` actions."""
        state = self.state if state is None else state
        ply = self.ply() if ply is None else ply
        player = state.current_player()
        terminal = state.is_terminal()
        last = None
        if ply:
            s, t = self.log[ply - 1]
            last = {
                "ply": ply - 1,
                "seat": s,
                "text": self._visible_text(viewer, s, t, state),
                "story": self._story(ply - 1, viewer),
            }
        msg: dict[str, Any] = {
            "type": "state",
            "id": self.id,
            "game": self.stored.game,
            "seat": viewer,
            "ply": ply,
            # An update leaves out the view's static part (sent once in the game's info).
            "view": state.view(viewer) if sync else dynamic_view(state, viewer),
            "events": checked_events(state, viewer),
            "last_action": last,
            "to_move": player if player >= 0 else None,
            "terminal": terminal,
            "returns": state.returns() if terminal else None,
            "winners": state.winners() if terminal else None,
            "truncated": state.is_truncated() if terminal else False,
            "error": self.failed,
            "sync": sync,
        }
        # What the features add (can_undo, can_hint; now only: the clock, the ending, the controls).
        for feature in self._host.features:
            for k, v in feature.update(self, viewer, state).items():
                if k == "controls" and isinstance(msg.get("controls"), dict):
                    msg["controls"] = {**msg["controls"], **v}
                else:
                    msg[k] = v
        if sync:
            msg["log"] = self.log_for(viewer)
        return msg

    def game_info(self, viewer: int | None) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.stored.game,
            "title": type(self.game).title or self.stored.game,
            "options": self.stored.options,
            "seat": viewer,
            "renderer": renderer_url(self.stored.game),
            "static_view": static_view(self.game),  # the views' unchanging part (core/spec.py)
            "help": self.game.help_text(),
            "has_hidden_information": type(self.game).has_hidden_information,
            "created": self.stored.created,
            # The creator chose the seed or start position (it may know the secrets).
            "chosen_setup": self.stored.chosen_setup,
            # The features' part: players (names), hints, practice (undo), public (tables),
            # spectator_chat (chat), clock, hand_over_after, rematch_of.
            **{k: v for f in self._host.features for k, v in f.info(self).items()},
        }

    async def broadcast(self, *, sync: bool = False, rewound: bool = False) -> None:
        """Send every connection of the game its seat's view of the game now (and tell the other
        nodes of a cluster that it changed; `rewound`: actions were taken back)."""
        self.after_step()
        await self._deliver(lambda seat: self.snapshot(seat, sync=sync))
        self.publish_state(control=True, rewound=rewound)

    async def _deliver(
        self,
        frame_for: Callable[[int | None], Any],
        reply_to: Connection | None = None,
        reply: dict[str, Any] | None = None,
    ) -> None:
        """Send each connection one frame, `frame_for(its seat)` (made once per seat); `reply_to`
        also gets `reply` in the same frame."""
        cache: dict[int | None, Any] = {}
        for conn in list(self.connections):
            if conn.seat not in cache:
                cache[conn.seat] = frame_for(conn.seat)
            frame = cache[conn.seat]
            if conn is reply_to:
                frame = (frame if isinstance(frame, list) else [frame]) + [reply]
            try:
                # Only queued here (the socket's own writer sends it): no network I/O under the lock.
                await conn.send(frame[0] if isinstance(frame, list) and len(frame) == 1 else frame)
            except Exception:  # a closed or dropped socket: others still get theirs
                self.connections.discard(conn)
        if reply_to is not None and reply_to not in self.connections:
            try:  # a socket of a game object since reloaded: the reply still goes
                await reply_to.send(reply)  # type: ignore[arg-type]
            except SocketDropped:
                pass

    async def move(
        self,
        seat: int | None,
        text: str,
        expected_ply: int,
        *,
        reply_to: Connection | None = None,
        ref: Any = None,
    ) -> dict[str, Any]:
        """A human seat's move, `text` in the game's notation at move count `expected_ply` (both
        already checked by the request's pydantic model, server/messages.py): read, then played by
        `play`. Returns {"ply": the new ply count, "repeat": whether this was a repeat of an applied
        move, answered and not applied again}.

        The action is committed to the store before this returns (and before anyone is told).
        With `reply_to`, that connection's acknowledgement ({"type": "ack", "ref", "ply"}) goes in
        the same frame as its updates.
        """
        if seat is None:
            raise ServiceError(403, "spectator", "spectators cannot move")
        shown = text.strip()
        async with self.lock:
            if self._host.bus.clustered and expected_ply > self.ply():
                await self.catch_up_locked(control=True)  # the player saw moves made elsewhere
            if self.state.is_terminal():
                raise ServiceError(409, "game_over", "the game is over")
            repeat = self._repeat_of(seat, expected_ply, text)
            if repeat is not None:
                # The same move again (a resend after a lost answer): the earlier result, not applied again.
                if reply_to is not None:
                    await reply_to.send({"type": "ack", "ref": ref, "ply": repeat, "repeat": True})
                return {"ply": repeat, "repeat": True}
            self.check_may_play(seat, "human")
            if expected_ply != self.ply():
                raise ServiceError(
                    409,
                    "stale",
                    f"your move was for move number {expected_ply}, but the game is "
                    f"at {self.ply()} (someone moved first); the board is refreshed",
                )
            self._check_turn(seat)
            try:
                action = self.state.string_to_action(text)
            except IllegalActionError as e:
                raise ServiceError(422, "illegal_move", f"illegal move {shown!r}: {e.reason}") from None
            except TrapworksError as e:
                raise ServiceError(422, "illegal_move", f"illegal move {shown!r}: {e}") from None
            first = self.ply()
            ack = {"type": "ack", "ref": ref, "ply": first + 1}
            await self.play(seat, action, by="human", reply_to=reply_to, reply=ack, shown=shown)
            self.sent_texts[(seat, first)] = shown
        self.schedule_advance()
        return {"ply": first + 1, "repeat": False}

    def check_may_play(self, seat: int, by: str) -> None:
        """Whether `seat` may act now off the board: the game not over, and (for a human) the seat
        not resigned or handed to an AI: the features say (features/resign.py, handover.py)."""
        if self.ended():
            raise ServiceError(409, "game_over", "the game is over")
        for feature in self._host.features:
            feature.check_play(self, seat, by)

    def _check_turn(self, seat: int) -> None:
        player = self.state.current_player()
        if player != seat:
            whom = "chance" if player == CHANCE else self.seat_label(player)
            raise ServiceError(409, "not_your_turn", f"it is not your turn: {whom} is to move")

    async def play(
        self,
        seat: int,
        action: int,
        *,
        by: str,
        reply_to: Connection | None = None,
        reply: dict[str, Any] | None = None,
        shown: str | None = None,
    ) -> list[Step]:
        """The one path of a seat's action into the game, whoever chose it (`by`: "human",
        "agent", "clock"): validated (the game on, the seat's turn, the features' say, a legal
        action: the kernel's), applied, followed by chance's and quick agents' replies, committed
        to the store, then fanned out: every socket here gets its seat's view of every step
        (`reply_to` its `reply` in the same frame) and the other nodes of a cluster are told. The
        caller holds self.lock. The steps (seat, text, state after) stored."""
        self.check_may_play(seat, by)
        self._check_turn(seat)
        state = self.state
        first = self.ply()
        try:
            after = await self._applied(state, action)
        except IllegalActionError as e:
            what = shown or str(action)
            raise ServiceError(422, "illegal_move", f"illegal move {what!r}: {e.reason}") from None
        except TrapworksError as e:
            raise ServiceError(422, "illegal_move", f"illegal move {shown or action!r}: {e}") from None
        steps = [(seat, state.action_to_string(action), after)]
        self._fast_replies(steps)
        try:
            await self._commit(steps)
        except ServiceError as e:
            log.info("game %s: %s action at ply %d not stored: %s", self.id, by, first, e.code)
            raise
        await self._send_steps(first, steps, reply_to, reply or {})
        return steps

    def after_step(self) -> None:
        """The game moved on or changed off the board (caller holds the lock, about to tell
        everyone): each feature's hook (the clock ends a turn and starts the next), and once the
        game has ended, each feature's end (its timers stopped, an open table closed)."""
        for feature in self._host.features:
            feature.after_step(self)
        if not self.end_told and self.ended():
            self.end_told = True
            for feature in self._host.features:
                feature.at_end(self)

    def _repeat_of(self, seat: int, ply: int, text: str) -> int | None:
        """The result of this seat's move at `ply` if it is already applied with this text."""
        if ply >= self.ply():
            return None
        stored_seat, stored_text = self.log[ply]
        if stored_seat != seat:
            return None
        shown = text.strip()
        if shown in (stored_text, self.sent_texts.get((seat, ply))):
            return ply + 1
        return None

    async def _send_steps(
        self,
        first: int,
        steps: list[tuple[int, str, State]],
        reply_to: Connection | None,
        reply: dict[str, Any],
    ) -> None:
        """Each connection gets one frame: the update after each step, in order (plus the reply
        for `reply_to`). One frame instead of one per step: under load the server's time per
        frame sent is a large share of a move's."""
        self.after_step()
        await self._deliver(self._step_frames(first, steps), reply_to, reply)
        # The control document changes with a move only where a clock runs.
        self.publish_state(control=bool(self.control.clock))

    def _step_frames(
        self, first: int, steps: list[tuple[int, str, State]]
    ) -> Callable[[int | None], list[dict[str, Any]]]:
        return lambda seat: [
            self.snapshot(seat, sync=False, state=after, ply=first + i + 1)
            for i, (_seat, _text, after) in enumerate(steps)
        ]

    def _fast_replies(self, steps: list[tuple[int, str, State]]) -> None:
        """Append the moves of chance and of fast agents that follow steps[-1], while they are fast.

        Against a quick agent the reply then shares the human move's lock and commit: one
        transaction and no extra task per move, which is most of the server's work under load.
        A slow agent (a search) is left to advance(), which thinks in a thread.
        """
        state = steps[-1][2]
        if self._apply_is_slow():
            return  # replies whose physics take time are played by advance(), off the event loop
        while len(steps) < MAX_FOLDED_REPLIES and not state.is_terminal():
            player = state.current_player()
            try:
                if player == CHANCE:
                    action = chance_outcome(state, self.key)
                elif self.stored.seats[player]["kind"] == "agent" and self._agent_is_fast(player):
                    action = self._think(player, state)
                else:
                    return
                after = state.clone()
                text = after.action_to_string(action)
                after.apply_action(action)
            except Exception:  # advance() plays this seat again and reports a failure to the players
                return
            steps.append((player, text, after))
            state = after

    def _apply_is_slow(self) -> bool:
        return self._host.apply_time.get(self.stored.game, 0.0) >= INLINE_APPLY_S

    def _apply_timed(self, state: State, action: int) -> State:
        after = state.clone()
        started = time.perf_counter()
        try:
            after.apply_action(action)
        finally:
            took = time.perf_counter() - started
            typical = self._host.apply_time.get(self.stored.game)
            # The slowest recent applies count: one physics removal in ten is the stall to avoid.
            self._host.apply_time[self.stored.game] = took if typical is None else max(took, 0.95 * typical)
        return after

    async def _applied(self, state: State, action: int) -> State:
        """A copy of `state` after `action`. In a game whose actions have taken time to apply (Booby
        Trap's physics), in a capped thread pool: pymunk's C code runs while the loop serves others."""
        if not self._apply_is_slow():
            return self._apply_timed(state, action)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._host.apply_pool, self._apply_timed, state, action)

    async def _commit(self, steps: list[tuple[int, str, State]]) -> None:
        """Store the steps' actions (seat, text, state after), then make the last state the game's.
        The caller holds self.lock."""
        actions = [(seat, text) for seat, text, _ in steps]
        self._host.last_activity = time.monotonic()
        stored = self._host.store.append_actions_soon(self.id, self.ply(), actions)

        def adopt(done: asyncio.Future) -> None:
            # Runs once the commit is done even if the caller is cancelled meanwhile (a server
            # shutting down): what is stored is always what the game holds.
            if not done.cancelled() and done.exception() is None:
                self._adopt_steps(steps)

        stored.add_done_callback(adopt)
        try:
            await asyncio.shield(stored)
        except PlyTaken:
            # Another server process (a node of the cluster) stored this ply first: our copy was
            # stale. Catch up from the store (the players here see the moves they missed), then
            # refuse this one as stale: it was for a position that is gone.
            try:
                await self.catch_up_locked(control=True)
            except Exception as e:
                log.error("game %s: cannot catch up after a lost ply race: %s", self.id, e)
                self._host.live.pop(self.id, None)  # reloaded from the store on the next request
            self.schedule_advance()
            raise ServiceError(
                409, "stale", "another move was stored first; the board is refreshed"
            ) from None
        except Exception as e:  # the store failed: nothing stored, nothing applied, nothing acked
            raise self._host.store_failed(f"store game {self.id} ply {self.ply()}", e) from None

    def _adopt_steps(self, steps: list[tuple[int, str, State]]) -> None:
        """Make stored steps (seat, text, state after) the game's: its state, log and stories."""
        before = self.state
        for _seat, _text, after in steps:
            action = after.history()[-1]
            self.stories.append(story_entry(before.story_owner(action), after, action))
            before = after
        self.state = steps[-1][2]
        self.log.extend((seat, text) for seat, text, _ in steps)

    def publish_state(self, *, control: bool, rewound: bool = False) -> None:
        """Tell the other nodes that the game changed: its ply now and the actions since the last
        message (the database has them all; these save a read), whether its control document or
        seats changed, and whether actions were taken back."""
        if not self._host.bus.clustered:
            return
        first = self.published_ply
        msg: dict[str, Any] = {"k": "state", "g": self.id, "ply": self.ply(), "from": first}
        if control:
            msg["c"] = 1
        if rewound or first > self.ply():
            msg["rewound"] = 1
        elif self.ply() - first <= MAX_FOLDED_REPLIES:
            msg["a"] = self.log[first:]
        self.published_ply = self.ply()
        self._host.bus.publish(msg)

    def publish(self, kind: str, **fields: Any) -> None:
        """Tell the other nodes something else about the game (seats, chat, presence)."""
        if self._host.bus.clustered:
            self._host.bus.publish({"k": kind, "g": self.id, **fields})

    async def refresh_locked(self) -> None:
        """Before acting on the game off the board (resign, rematch, a timer): our copy and its
        control document as stored (caller holds the lock). Nothing to do on a single node."""
        if self._host.bus.clustered:
            await self.catch_up_locked(control=True)

    async def catch_up_locked(self, *, hint: dict[str, Any] | None = None, control: bool = False) -> bool:
        """Apply the actions other nodes stored since our copy's ply (from `hint`, a bus message,
        when it has them, else read from the store), reload the control document and seats if
        asked, and send our sockets every step in order. The caller holds self.lock. Whether
        anything changed."""
        first = self.ply()
        if hint is not None and hint.get("rewound"):
            await self._reload_locked()
            return True
        actions: list[tuple[int, str]]
        if hint is not None and isinstance(hint.get("ply"), int) and hint["ply"] <= first:
            actions = []  # nothing new (we read it through the store before the message came)
        elif hint is not None and hint.get("from") == first and "a" in hint:
            actions = [(int(a[0]), str(a[1])) for a in hint["a"]]
        else:
            try:
                actions = self._host.store.actions_from(self.id, first)
                if not actions and self._host.store.ply_count(self.id) < first:
                    await self._reload_locked()  # taken back elsewhere (undo)
                    return True
            except ServiceError:
                raise
            except Exception as e:
                raise self._host.store_failed(f"catch up on game {self.id}", e) from None
        steps: list[tuple[int, str, State]] = []
        state = self.state
        try:
            for seat, text in actions:
                action = state.string_to_action(text)
                after = await self._applied(state, action)
                steps.append((seat, text, after))
                state = after
        except TrapworksError as e:  # our copy and the store disagree: start again from the store
            log.error("game %s: stored actions do not follow our copy (%s): reloading it", self.id, e)
            await self._reload_locked()
            return True
        if steps:
            self._adopt_steps(steps)
            self.sent_texts = {k: v for k, v in self.sent_texts.items() if k[1] < first}
        if control:
            self._reload_control()
        self.published_ply = self.ply()
        if not steps and not control:
            return False
        self._host.catch_ups += 1
        self._host.last_activity = time.monotonic()
        if steps:
            await self._deliver(self._step_frames(first, steps))
        else:
            await self._deliver(lambda seat: self.snapshot(seat, sync=False))
        return True

    def _reload_control(self) -> None:
        try:
            found = self._host.store.load_control_version(self.id)
            seats = self._host.store.load_seats(self.id)
            joins = self._host.store.seat_joins(self.id)
        except Exception as e:
            raise self._host.store_failed(f"reload the control of game {self.id}", e) from None
        if seats is not None and seats != self.stored.seats:
            self.stored.seats = seats
            self.human_seats = None
            self.agents.clear()
        self.stored.joins = joins
        self.stored.open_seats = len(self._host.free_seats(self.stored)) if self.stored.public else 0
        if found is None:
            return
        data, self.control.version = found
        self.control.before, self.control.data = self.control.data, cast(ControlDoc, data)
        for feature in self._host.features:
            feature.reloaded(self)

    async def _reload_locked(self) -> None:
        """Our copy replaced by the stored game (actions taken back elsewhere, or a copy that no
        longer agrees): every socket here gets the whole game again."""
        try:
            stored = self._host.store.load_game(self.id)
        except Exception as e:
            raise self._host.store_failed(f"reload game {self.id}", e) from None
        if stored is None:
            return
        fresh = self._host.rebuild(stored)
        self.stored, self.game, self.state = fresh.stored, fresh.game, fresh.state
        self.log, self.stories, self.key = fresh.log, fresh.stories, fresh.key
        self.sent_texts.clear()
        self.agents.clear()
        self.human_seats = None
        self.failed = None
        self._reload_control()
        self.published_ply = self.ply()
        self._host.catch_ups += 1
        await self._deliver(lambda seat: self.snapshot(seat, sync=True))

    def schedule_advance(self) -> None:
        if self.needs_server():
            self._host.spawn(self.advance())

    def _recheck_later(self, after_s: float) -> None:
        ply = self.ply()

        def again() -> None:
            if self._host.live.get(self.id) is self and self.ply() == ply:
                self.schedule_advance()

        asyncio.get_running_loop().call_later(after_s + 0.1, again)

    def needs_server(self) -> bool:
        state = self.state
        if state.is_terminal() or self.failed or self.ended():
            return False
        p = state.current_player()
        return p == CHANCE or (p >= 0 and self.stored.seats[p]["kind"] == "agent")

    def _agent(self, seat: int) -> SeatPlayer:
        """The seat's player (server/seat_player.py: it sees only the seat's view), made once."""
        player = self.agents.get(seat)
        if player is None:
            name = self.stored.seats[seat]["agent"]
            player = SeatPlayer.new(name, self.game, seat, self.key, "agent")
            self.agents[seat] = player
        return player

    def _agent_is_fast(self, seat: int) -> bool:
        typical = self._host.agent_time.get((self.stored.game, self.stored.seats[seat]["agent"]))
        if typical is None:  # not timed yet: trust the agent's own word (a fresh server's first replies)
            return self._agent(seat).quick
        return typical < INLINE_AGENT_S

    def _think(self, seat: int, state: State) -> int:
        """The seat's agent's action in `state` (after `self.ply()` or the folded steps' plies; the
        agent sees only the seat's view of it), timing the thinking alone (a thread hand-off waits
        for the busy event loop; counting that wait would keep a fast agent in the thread pool for
        good)."""
        player = self._agent(seat)
        key = (self.stored.game, self.stored.seats[seat]["agent"])
        started = time.perf_counter()
        try:
            return player.choose(state, len(state.history()))
        finally:
            took = time.perf_counter() - started
            typical = self._host.agent_time.get(key)
            # A moving average: a long think (a search) sends the agent to a thread for dozens of
            # steps (its instant forced moves do not bring it back at once), while one step slowed
            # by the machine does not move an agent that takes microseconds.
            self._host.agent_time[key] = took if typical is None else 0.9 * typical + 0.1 * took

    async def _agent_step(self, seat: int, state: State) -> int:
        """Ask the seat's agent for its action. A slow agent (search) thinks in a worker thread so the
        server keeps answering everyone else; an agent that has been fast (under INLINE_AGENT_S per
        step) runs inline, saving the thread hand-off that would cost more than its thinking."""
        if self._agent_is_fast(seat):
            return self._think(seat, state)
        return await asyncio.to_thread(self._think, seat, state.clone())

    async def advance(self) -> None:
        """Play chance and agent seats until a human is to move or the game ends."""
        retries = 0
        while True:
            async with self.lock:
                if self.id not in self._host.live or not self.needs_server():
                    return
                if self._host.bus.clustered:
                    # Once in the cluster: the node whose claim on this ply the store takes plays it;
                    # the others look again when the claim lapses (its node may have died).
                    await self.catch_up_locked()
                    if not self.needs_server():
                        return
                    if not self._host.claim_timer(self, "advance", self.ply(), ADVANCE_CLAIM_S):
                        self._recheck_later(ADVANCE_CLAIM_S)
                        return
                state = self.state
                player = state.current_player()
                failed_write = False
                try:
                    if player == CHANCE:
                        # Fixed by the secret key and the ply: a restart or an undo draws the same outcome.
                        action = chance_outcome(state, self.key)
                    else:
                        action = await self._agent_step(player, state)  # from the seat's view only
                    await self.play(player, action, by="chance" if player == CHANCE else "agent")
                except ServiceError as e:
                    if e.status == 503:
                        failed_write = True
                    elif e.code == "illegal_move":
                        await self._could_not_play(player, e.message)
                        return
                    else:
                        return  # another node stored this ply first (we caught up) or the game ended
                except Exception as e:  # an agent bug must not kill the server; the players are told
                    await self._could_not_play(player, str(e))
                    return
            if failed_write:
                # The store failed: the move is not lost, it is played again once the store works
                # (the same chance outcome and, agents being seeded, the same move).
                retries += 1
                await asyncio.sleep(STORE_RETRY_S[min(retries, len(STORE_RETRY_S)) - 1])
            else:
                retries = 0

    async def _could_not_play(self, player: int, why: str) -> None:
        who = self.seat_label(player) if player >= 0 else "chance"
        self.failed = f"the server could not play {who}: {why}"
        await self.broadcast()
