"""The room's state and what every seam of it reads: its game, seats, log, control document and
the features' hooks (the room made of it: server/room/__init__.py)."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from trapworks.core import (
    CHANCE,
    Forfeit,
    Game,
    State,
    outcome,
    story_entry,
    story_for,
)
from trapworks.core.forfeit import Outcome

from ..errors import ErrorCode, ServiceError
from ..seat_player import SeatPlayer
from ..store import Store, StoredGame

if TYPE_CHECKING:
    import concurrent.futures

    from ..bus import Bus
    from ..messages import CreateGame
    from . import Room

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


@dataclass(eq=False)
class Connection:
    """One open socket: which seat it speaks for (None: spectator) and how to send to it."""

    seat: int | None
    # Sends one frame: a message (dict), or several in order (list) that arrive together.
    send: Callable[[dict[str, Any] | list[dict[str, Any]]], Awaitable[None]]
    viewer: Any = None  # i41: the account logged in behind it (service.viewer_of), for personal mutes


# The game's control document, stored as JSON (the `game_control` table). Each feature declares
# its own keys and their values for a new game (features/__init__.py `Feature.control`); the room
# reads only `forfeits`, the kernel's off-board outcome (core/forfeit.py), which resign and the
# clock write.
ControlDoc = dict[str, Any]


@dataclass(eq=False)
class GameControl:
    """One room's control document (stored) and what its features keep in memory only (their
    timers: `Feature.local`)."""

    data: ControlDoc
    version: int = 0  # the stored version it was read at (0: none stored): written only over it
    before: ControlDoc | None = None  # the document before another node's change was adopted
    local: dict[str, Any] = field(default_factory=dict)  # feature name -> its in-memory part

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
    @property
    def script(self) -> str | None: ...


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
    async def create(
        self, request: CreateGame, *, rematch_of: str | None = None, new_id: str | None = None
    ) -> Room: ...
    def take_seat(self, room: Room, seat: int) -> None: ...
    def feature(self, kind: type[H]) -> H: ...
    def plain_control(self, seats: int) -> ControlDoc: ...


@dataclass(eq=False)
class RoomBase:
    """One live game as held in memory (the fields) and the questions every seam asks of it."""

    stored: StoredGame
    game: Game
    state: State
    log: list[tuple[int, str]]  # (seat, text) per ply, exactly the stored rows
    # Per ply, the kernel's words for it (core.story_entry: whose turn, lines, private ones marked).
    stories: list[dict[str, Any]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    agents: dict[int, SeatPlayer] = field(default_factory=dict)  # the AI seats' players
    failed: ServiceError | None = None  # an agent crashed: the reason (typed), shown to the players
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
        """The control document (a room made without the service: an empty one)."""
        if self.control_doc is None:
            plain = self.host.plain_control(len(self.stored.seats)) if self.host is not None else {}
            self.control_doc = GameControl(plain)
        return self.control_doc

    @control.setter
    def control(self, value: GameControl | None) -> None:
        self.control_doc = value

    @property
    def room(self) -> Room:
        """This room as its features are given it (the whole Room, of which this is the base)."""
        return cast("Room", self)

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
        return bool(self.control.data.get("forfeits")) and self.outcome().ended

    def waiting_for_invited(self) -> bool:
        """The clocks wait until every human seat is taken (issue 27): while an invited seat's
        link is unopened, no seat's clock runs (a friend is not timed out before they have seen
        the game, and a player is not timed out waiting for a friend who has not come)."""
        return any(s["kind"] == "human" and s.get("invite") for s in self.stored.seats)

    def adopt_seats(self, seats: list[dict[str, Any]]) -> None:
        """New seat rows (a seat handed to an AI, a name): the AI seats' players made again."""
        self.stored.seats = seats
        self.human_seats = None
        self.agents.clear()

    def seat_for(self, token: str | None) -> int | None:
        """Seat of a token (None: the spectator token). Raise 401/403 otherwise."""
        if not token:
            raise ServiceError(
                ErrorCode.MISSING_TOKEN,
                "this game needs a token: the secret from your seat or spectator link (?token=...)",
            )
        given = str(token).encode()
        for i, s in enumerate(self.stored.seats):
            if s["token"] and secrets.compare_digest(str(s["token"]).encode(), given):
                return i
        if secrets.compare_digest(self.stored.spectator_token.encode(), given):
            return None
        raise ServiceError(ErrorCode.WRONG_TOKEN, "this token opens no seat of this game; check the link")

    def humans(self) -> list[int]:
        if self.human_seats is None:  # seats never change after creation
            self.human_seats = [i for i, s in enumerate(self.stored.seats) if s["kind"] == "human"]
        return self.human_seats

    def against_ai_only(self, seat: int | None) -> bool:
        """This seat is the only human one (everyone else is an agent)."""
        return seat is not None and self.humans() == [seat]

    def seat_label(self, seat: int, name: str | None = None) -> str:
        """ "Player 2 (Alice)": the seat's number and its name (`name`: the one shown, an account's
        name included; default the name stored with the seat), a computer seat's agent, or none."""
        s = self.stored.seats[seat]
        who = name or s["name"] or (s["agent"] if s["kind"] == "agent" else "")
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

    def check_may_play(self, seat: int, by: str) -> None:
        """Whether `seat` may act now off the board: the game not over, and (for a human) the seat
        not resigned or handed to an AI: the features say (features/resign.py, handover.py)."""
        if self.ended():
            raise ServiceError(ErrorCode.GAME_OVER, "the game is over")
        for feature in self._host.features:
            feature.check_play(self.room, seat, by)

    def _check_turn(self, seat: int) -> None:
        player = self.state.current_player()
        if player != seat:
            # A seat as the page names it (its label for the English), chance as a word of the catalog.
            whom = (
                {"msg": "chance"} if player == CHANCE else {"seat": player, "label": self.seat_label(player)}
            )
            raise ServiceError(ErrorCode.NOT_YOUR_TURN, "it is not your turn: {whom} is to move", whom=whom)

    def after_step(self) -> None:
        """The game moved on or changed off the board (caller holds the lock, about to tell
        everyone): each feature's hook (the clock ends a turn and starts the next), and once the
        game has ended, each feature's end (its timers stopped, an open table closed)."""
        for feature in self._host.features:
            feature.after_step(self.room)
        if not self.end_told and self.ended():
            self.end_told = True
            for feature in self._host.features:
                feature.at_end(self.room)

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

    def _adopt_steps(self, steps: list[tuple[int, str, State]]) -> None:
        """Make stored steps (seat, text, state after) the game's: its state, log and stories."""
        before = self.state
        for _seat, _text, after in steps:
            action = after.history()[-1]
            self.stories.append(story_entry(before.story_owner(action), after, action))
            before = after
        self.state = steps[-1][2]
        self.log.extend((seat, text) for seat, text, _ in steps)
