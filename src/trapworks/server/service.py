"""The games a server process holds: the rooms and the features they share. No rule lives here.

Every rule question goes to the kernel: whose turn (`current_player`), what an action text means
(`string_to_action`, which raises with the reason), what a seat may see (`view`, `last_events`).
The service is the rooms' host (server/room.py: one live game each, and the one path of its
actions): it makes and loads rooms, holds what they share (the store, the bus to the other nodes
of a cluster, the worker pools, the timings that choose between inline and threaded work) and the
off-board features (server/features/: each one module behind one protocol).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import secrets
import time
from typing import Any, TypeVar

from pydantic import ValidationError

from trapworks.agents import available_agents
from trapworks.core import (
    Game,
    GameRecord,
    IllegalActionError,
    State,
    TrapworksError,
    UnknownGameError,
    available_games,
    checked_events,
    game_class,
    make,
    story_entry,
    story_for,
)
from trapworks.core.forfeit import outcome as forfeit_outcome
from trapworks.core.randomness import derive, new_key, seed_key
from trapworks.core.registry import is_loaded
from trapworks.core.spec import spec_of

from .bus import Bus, LocalBus
from .catalog import catalog_words, renderer_url
from .errors import STORAGE_FAILED, ErrorCode, ServiceError
from .features import Feature, Setup, discover
from .features.hint import Hint
from .features.names import BadName, clean_name
from .messages import CreateGame, Move, MoveMessage, SeatSpec
from .protocol import Protocol
from .room import Connection, ControlDoc, GameControl, Hooks, Room
from .store import SeatTaken, Store, StoredGame

log = logging.getLogger("trapworks.server")

CPU_WORKERS = 2  # processes for CPU-heavy requests (replays): the event loop never runs them
APPLY_THREADS = 4  # threads for actions whose physics take time (Booby Trap)
CPU_QUEUE = 8  # requests running or waiting for a worker; more are refused (503, retry later)
# A replay of at most this many actions runs in a thread of the server (a played game: a few
# hundred actions; 200 Mouse Trap actions answered in 0.5 s; the GIL still hands the event loop
# its turns every few ms). Only a longer record waits for a worker process: starting one (a
# fresh interpreter that imports trapworks) took 10 s on a quiet machine and 49 s under load,
# the first "Review the game" of a server's life (judge, issue 39).
REPLAY_IN_THREAD_ACTIONS = 1200
# Another node's word on which seats it has sockets for counts this long (it repeats it sooner).
REMOTE_PRESENCE_TTL_S = 40.0
# The features: every module of server/features/, in the order their hooks run and their fields
# join a seat's update (each declares its `order`: undo and hint before resign, a game ended off
# the board offers neither).
FEATURES: tuple[type[Feature], ...] = discover()
F = TypeVar("F", bound=Hooks)


def create_request(**fields: Any) -> CreateGame:
    """A creation request the server makes itself (the accounts' challenges and quick games),
    validated by the same model as a client's; a refusal names the field (bad_clock, bad_request)."""
    try:
        return CreateGame.model_validate(fields)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ())) or "request"
        code = ErrorCode.BAD_CLOCK if where.startswith("clock") else ErrorCode.BAD_REQUEST
        raise ServiceError(code, "{where}: {why}", where=where, why=first.get("msg")) from None


def game_key(stored: StoredGame) -> bytes:
    """The game's secret randomness key (a game stored before keys existed: its seed's key)."""
    if stored.secret:
        return bytes.fromhex(stored.secret)
    return seed_key(stored.seed)


def setup_seed(stored: StoredGame) -> int:
    """The seed the game's setup (deal, pile, tray, noise) is made from: the creator's chosen seed,
    else 256 bits derived from the secret key (nothing public is a function of a small value)."""
    if stored.chosen_setup or not stored.secret:
        return stored.seed
    return derive(game_key(stored), "setup")


class GameService:
    def __init__(self, store: Store):
        self.store = store
        self.live: dict[str, Room] = {}
        self._tasks: set[asyncio.Task] = set()
        self.agent_time: dict[tuple[str, str], float] = {}  # (game, agent) -> recent step time, s
        self.last_activity = time.monotonic()  # when a game was last created or an action stored
        self._cpu_pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._cpu_slots = asyncio.Semaphore(CPU_QUEUE)
        self.store_failures = 0  # failed writes so far (each logged)
        self.apply_time: dict[str, float] = {}  # game id -> recent slow apply_action time, s
        self.apply_pool = concurrent.futures.ThreadPoolExecutor(APPLY_THREADS, thread_name_prefix="apply")
        # The other nodes of a cluster (server/bus.py); the single-process default tells nobody.
        self.bus: Bus = LocalBus()
        self.catch_ups = 0  # times this node brought a game up to date from the store
        # game id -> node -> (when heard, monotonic; seat -> "online"/"away"): the seats that have a
        # socket on another node of the cluster (features/presence.py publishes ours).
        self.remote_seats: dict[str, dict[str, tuple[float, dict[int, str]]]] = {}
        self.features: list[Feature] = [kind(self) for kind in FEATURES]
        self._by_kind: dict[type, Feature] = {type(f): f for f in self.features}
        self._protocol: Protocol | None = None
        self.viewer_of: Any = lambda _socket: None  # i41: a socket's logged-in account (the community's)

    def add_feature(self, feature: Feature) -> None:
        """A feature from elsewhere (the accounts' games): its hooks run after the others'."""
        self.features.append(feature)
        self._by_kind[type(feature)] = feature
        self._protocol = None

    @property
    def protocol(self) -> Protocol:
        """The socket protocol the features make (server/protocol.py)."""
        if self._protocol is None:
            self._protocol = Protocol(self.features)
        return self._protocol

    def owner(self, message_type: str) -> Feature:
        """The feature that answers a socket message type (KeyError: none does)."""
        return self.feature(self.protocol.owners[message_type])

    def plain_control(self, seats: int) -> ControlDoc:
        """The control document of a game created with no off-board choice (not stored)."""
        return self.new_control(Setup(None, None, seats))

    def new_control(self, setup: Setup) -> ControlDoc:
        """A new game's control document: each feature's part."""
        doc: ControlDoc = {}
        for feature in self.features:
            doc.update(feature.control(setup))
        return doc

    # --- sockets and the server's life: each feature's part ----------------------------------------
    async def socket_opened(self, live: Room, conn: Connection) -> dict[str, Any]:
        """A socket opens: what its hello carries besides the game (the features' parts)."""
        hello: dict[str, Any] = {}
        for feature in self.features:
            hello.update(await feature.hello(live, conn))
        return hello

    async def socket_closed(self, live: Room, conn: Connection) -> None:
        for feature in self.features:
            await feature.socket_closed(live, conn)

    def heard(self, live: Room, conn: Connection) -> None:
        for feature in self.features:
            feature.heard(live, conn)

    async def heard_elsewhere(self, msg: dict[str, Any]) -> bool:
        """A bus message for the features (whether any feature answers its kind)."""
        hearing = [f for f in self.features if msg.get("k") in f.bus_kinds]
        for feature in hearing:
            await feature.heard_elsewhere(msg)
        return bool(hearing)

    async def start(self) -> None:
        for feature in self.features:
            await feature.start()

    async def stop_features(self) -> None:
        for feature in self.features:
            await feature.shutdown()
        self._by_kind[type(feature)] = feature

    def feature(self, kind: type[F]) -> F:
        """The service's instance of a feature class."""
        found = self._by_kind[kind]
        assert isinstance(found, kind)
        return found

    # --- catalog ----------------------------------------------------------------------
    def catalog(self) -> list[dict[str, Any]]:
        out = []
        for gid in available_games():
            try:
                cls = game_class(gid)
                game = cls()
            except Exception as e:  # a game that cannot load must not take the lobby down
                out.append({"id": gid, "title": gid, "error": f"cannot load: {e}"})
                continue
            out.append(self._describe(game))
        return out

    def _describe(self, game: Game) -> dict[str, Any]:
        cls = type(game)
        return {
            "id": game.game_id,
            "title": cls.title or game.game_id,
            "options": game.public_options(),
            "option_choices": dict(getattr(cls, "option_choices", {}) or {}),
            "option_labels": dict(getattr(cls, "option_labels", {}) or {}),
            # The declared options (core/options.py): the lobby builds its controls from this.
            "options_schema": [o.to_json() for o in cls.options_schema],
            "players": game.num_players(),
            "agents": available_agents(game),
            "hint_agent": self.feature(Hint).agent_name(game),
            "has_hidden_information": cls.has_hidden_information,
            "has_chance": cls.has_chance,
            "help": game.help_text(),
            "renderer": renderer_url(game.game_id),
            **catalog_words(game),
        }

    def make_game(self, game_id: str, options: dict[str, Any]) -> Game:
        if not isinstance(options, dict):
            raise ServiceError(ErrorCode.BAD_OPTIONS, "options must be a JSON object of option name -> value")
        try:
            return make(game_id, **options)
        except UnknownGameError as e:
            raise ServiceError(ErrorCode.UNKNOWN_GAME, str(e)) from None
        except TrapworksError as e:
            raise ServiceError(ErrorCode.BAD_OPTIONS, str(e)) from None
        except TypeError as e:
            raise ServiceError(
                ErrorCode.BAD_OPTIONS, "{game_id}: bad options: {e}", game_id=game_id, e=e
            ) from None

    def _first_load(self, game_id: str, options: dict[str, Any]) -> None:
        """Import what a game's creation needs (its module, its agents); a refusal is left to the
        creation itself, on the loop."""
        with contextlib.suppress(ServiceError):
            available_agents(self.make_game(game_id, options))

    def check_options(self, game_id: str, options: dict[str, Any]) -> dict[str, Any]:
        return self._describe(self.make_game(game_id, options))

    # --- creating and loading ---------------------------------------------------------
    async def create(
        self, request: CreateGame, *, rematch_of: str | None = None, new_id: str | None = None
    ) -> Room:
        """A new game as the request asks (checked field by field by its pydantic model, the one
        validation at the boundary: server/messages.py). Only what needs the game is checked here:
        the options (the game's), the number of seats, the agents it offers, the clock's level."""
        game_id = request.game
        if not is_loaded(game_id):
            # i40: a game's first creation on a node imports its modules (measured 0.3-2 s: numpy,
            # numba, pymunk): in a worker thread, so the loop serves every other game meanwhile.
            await asyncio.to_thread(self._first_load, game_id, request.options)
        game = self.make_game(game_id, request.options)
        n = game.num_players()
        seats = request.seats if request.seats is not None else [SeatSpec(kind="human")] * n
        if len(seats) != n:
            raise ServiceError(
                ErrorCode.BAD_SEATS,
                # Worded so that any count reads right ("1 seats" never), in every language.
                "{game_id} with these options needs one entry per seat: expected {expected}, got {given}",
                game_id=game_id,
                expected=n,
                given=len(seats),
            )
        seat_rows = self._seat_rows(game, game_id, seats)
        seed, start = request.seed, request.start
        self._check_chosen_setup(game, seat_rows, seed, start)
        # A server-drawn game: 256 secret bits. A chosen seed stands for its own key (the creator
        # may know every outcome: allowed only where no other human is at a disadvantage).
        key = seed_key(seed) if seed is not None else new_key()
        stored = StoredGame(
            id=new_id or secrets.token_urlsafe(9),  # i41: an id chosen ahead makes it once in a cluster
            game=game_id,
            options=game.public_options(),
            seed=seed if seed is not None else 0,
            start=start,
            seats=seat_rows,
            spectator_token=secrets.token_urlsafe(18),
            hints=request.hints,
            created="",
            secret=key.hex(),
            chosen_setup=seed is not None or start is not None,
            practice=request.practice,
            public=request.public,
            spectator_chat=request.spectator_chat,
        )
        # A public game's invited seats are its free seats: anyone may take one from the lobby.
        stored.open_seats = len(self.free_seats(stored)) if request.public else 0
        try:
            state = (
                game.state_from_position(start)
                if start is not None
                else game.new_initial_state(seed=setup_seed(stored))
            )
        except TrapworksError as e:
            raise ServiceError(ErrorCode.BAD_POSITION, str(e)) from None
        control = self.new_control(Setup(request, game, n, rematch_of))  # the clock checked here
        room = Room(stored=stored, game=game, state=state, log=[], key=key, host=self)
        room.control = GameControl(control)
        try:
            self.store.check_file()  # on the loop: it may reopen the move writer's connection
            if self.store.writes_from_any_thread:
                # i40: the game's row is committed in a worker thread: during a creation flood
                # the commits no longer run on the event loop between the players' moves.
                await asyncio.to_thread(self._insert_game_after_moves, room, n)
            else:
                self._insert_game(room, n)
        except Exception as e:
            raise self.store_failed("create a game", e) from None
        self.last_activity = time.monotonic()
        self.live[stored.id] = room
        for feature in self.features:
            feature.loaded(room)
        room.after_step()  # a clock starts with the first turn
        room.schedule_advance()
        return room

    def _insert_game_after_moves(self, room: Room, n: int) -> None:
        """In a worker thread: the moves waiting to be committed go first (store.py)."""
        with self.store.creation_turn():
            self._insert_game(room, n)

    def _insert_game(self, room: Room, n: int) -> None:
        self.store.insert_game(room.stored)
        if room.control.data != self.plain_control(n):
            # (a plain one is not stored)
            room.control.version = self.store.save_control(room.id, room.control.data)

    @staticmethod
    def _seat_rows(game: Game, game_id: str, seats: list[SeatSpec]) -> list[dict[str, Any]]:
        """The stored seats: a human's secret token (and invite, for a seat offered by link), an
        agent the game offers, each seat's cleaned name."""
        agents = available_agents(game)
        seat_rows = []
        for i, s in enumerate(seats):
            try:
                name = clean_name(s.name) if s.name else ""
            except BadName as e:
                raise ServiceError(
                    ErrorCode.BAD_NAME, "seat {seat_number}: {e}", seat_number=i + 1, e=e
                ) from None
            if s.kind == "human":
                # An invited seat's token goes only to whoever claims its invite link (one use):
                # the creator hands out the link, never the token.
                invite = secrets.token_urlsafe(18) if s.invite else None
                seat_rows.append(
                    {
                        "kind": "human",
                        "agent": None,
                        "name": name,
                        "token": secrets.token_urlsafe(18),
                        "invite": invite,
                    }
                )
            else:
                if s.agent not in agents:
                    raise ServiceError(
                        ErrorCode.BAD_SEATS,
                        "seat {seat}: unknown agent {agent}; {game_id} offers {agents}",
                        seat=i + 1,
                        agent=repr(s.agent),
                        game_id=game_id,
                        agents=", ".join(agents),
                    )
                seat_rows.append({"kind": "agent", "agent": s.agent, "name": name, "token": None})
        return seat_rows

    @staticmethod
    def _check_chosen_setup(
        game: Game, seat_rows: list[dict[str, Any]], seed: int | None, start: str | None
    ) -> None:
        """A creator who chooses the seed knows every secret and every chance outcome; one who
        chooses the start position knows the hidden parts of it. Refused where another human
        would play against that knowledge."""
        humans = sum(1 for s in seat_rows if s["kind"] == "human")
        if humans < 2:
            return
        cls = type(game)
        if seed is not None and (cls.has_hidden_information or cls.has_chance):
            raise ServiceError(
                ErrorCode.CHOSEN_SEED_SHARED,
                "a chosen seed fixes every secret and chance outcome of {game_id}:"
                " allowed only with at most one human seat",
                game_id=game.game_id,
            )
        if start is not None and cls.has_hidden_information:
            raise ServiceError(
                ErrorCode.CHOSEN_START_SHARED,
                "a chosen start position shows its hidden parts of {game_id} to its creator:"
                " allowed only with at most one human seat",
                game_id=game.game_id,
            )

    def get(self, gid: str) -> Room:
        live = self.live.get(gid)
        if live is not None:
            live.used = time.monotonic()  # i26: a game asked for is not evicted (eviction.py)
            return live
        if not isinstance(gid, str) or len(gid) > 64:
            raise ServiceError(ErrorCode.NO_SUCH_GAME, "no game {gid}", gid=repr(gid))
        try:
            stored = self.store.load_game(gid)
        except Exception as e:
            raise self.store_failed(f"load game {gid!r}", e) from None
        if stored is None:
            raise ServiceError(ErrorCode.NO_SUCH_GAME, "no game {gid} on this server", gid=repr(gid))
        live = self.rebuild(stored)
        live.published_ply = live.ply()
        try:
            found = self.store.load_control_version(live.id)
        except Exception as e:
            raise self.store_failed(f"load the control of game {gid!r}", e) from None
        plain = self.plain_control(len(live.stored.seats))
        if found is None:
            live.control = GameControl(plain)
        else:  # (stored before a feature existed: that feature's keys as for a new game)
            live.control = GameControl({**plain, **found[0]}, version=found[1])
        for feature in self.features:
            feature.loaded(live)  # a restart: the clock's turn starts again now
        self.live[gid] = live
        live.after_step()
        live.schedule_advance()  # it may have stopped while an agent or chance was to move
        return live

    def store_failed(self, what: str, error: BaseException) -> ServiceError:
        """Log a failed store operation; the 503 to answer with (nothing was acknowledged)."""
        self.store_failures += 1
        log.error("storage failure (%s): %s: %s", what, type(error).__name__, error)
        return ServiceError(ErrorCode.STORAGE_UNAVAILABLE, STORAGE_FAILED)

    def rebuild(self, stored: StoredGame) -> Room:
        """Replay the stored actions: the state after a restart is the state before it."""
        try:
            game = make(stored.game, **stored.options)
            state = (
                game.state_from_position(stored.start)
                if stored.start is not None
                else game.new_initial_state(seed=setup_seed(stored))
            )
            stories = []
            for i, (_seat, text) in enumerate(stored.actions):
                try:
                    action = state.string_to_action(text)
                    owner = state.story_owner(action)
                    state.apply_action(action)
                    stories.append(story_entry(owner, state, action))
                except IllegalActionError as e:
                    raise ServiceError(
                        ErrorCode.CANNOT_RESUME,
                        "game {id}: stored action {action_number} ({text}) no longer replays: {reason}",
                        id=stored.id,
                        action_number=i + 1,
                        text=repr(text),
                        reason=e.reason,
                    ) from None
        except TrapworksError as e:
            raise ServiceError(
                ErrorCode.CANNOT_RESUME, "game {id} cannot be resumed: {e}", id=stored.id, e=e
            ) from None
        return Room(
            stored=stored,
            game=game,
            state=state,
            log=list(stored.actions),
            key=game_key(stored),
            stories=stories,
            host=self,
        )

    # --- who is asking ----------------------------------------------------------------
    def claim(self, gid: str, invite: str) -> int:
        """The seat whose invite this is; the seat is taken (stored) before the token is given."""
        live = self.get(gid)
        given = str(invite).encode()
        for i, s in enumerate(live.stored.seats):
            if s.get("invite") and secrets.compare_digest(str(s["invite"]).encode(), given):
                self.take_seat(live, i)
                return i
        raise ServiceError(
            ErrorCode.INVITE_USED,
            "this invite link was already used or is not one of this game's; ask for a new one",
        )

    @staticmethod
    def free_seats(stored: StoredGame) -> list[int]:
        """Human seats whose invite nobody has used yet (a public game lists them in the lobby)."""
        return [
            i
            for i, s in enumerate(stored.seats)
            if s["kind"] == "human" and s.get("invite") and i not in stored.joins
        ]

    def take_seat(self, live: Room, seat: int) -> None:
        """Hand a free seat out once: stored before its token is given, and the database's unique
        (game, seat) pair refuses a second taker, even one served by another server process."""
        left = [i for i in self.free_seats(live.stored) if i != seat] if live.stored.public else []
        try:
            joined = self.store.take_seat(live.id, seat, len(left))
        except SeatTaken:
            raise ServiceError(
                ErrorCode.SEAT_TAKEN,
                "seat {seat_number} was taken by someone else first",
                seat_number=seat + 1,
            ) from None
        except Exception as e:
            raise self.store_failed(f"take a seat of game {live.id}", e) from None
        live.stored.joins[seat] = (joined, None)
        live.stored.open_seats = len(left)
        seats = [dict(x) for x in live.stored.seats]
        seats[seat]["invite"] = None
        try:
            self.store.update_seats(live.id, seats)
        except Exception as e:  # the seat is taken all the same (its join row says so)
            log.error("game %s: seat %d taken but its invite not cleared: %s", live.id, seat, e)
        live.stored.seats = seats
        for feature in self.features:
            feature.seat_taken(live, seat)
        live.publish("seats")

    def disconnect(self, live: Room, conn: Connection) -> None:
        """A socket closed. A finished game nobody watches any more leaves memory (it is in the
        store: a later request loads it again)."""
        # The game object may have been reloaded meanwhile; drop the connection from whichever holds it.
        live.connections.discard(conn)
        current = self.live.get(live.id)
        if current is not None:
            current.connections.discard(conn)
            for feature in self.features:
                feature.disconnected(current, conn.seat)
            if not current.connections and current.ended():
                self.drop(current)

    def connected(self, live: Room, conn: Connection) -> None:
        """A socket opened (it joined the room's connections)."""
        for feature in self.features:
            feature.connected(live, conn.seat)

    def drop(self, live: Room) -> None:
        """The room leaves memory (it is in the store): its features' timers stop."""
        for feature in self.features:
            feature.stop(live)
        if self.live.get(live.id) is live:
            del self.live[live.id]

    def spawn(self, work: Any) -> asyncio.Task | None:
        """Run `work` (a coroutine) as a task the service cancels when it shuts down (None: no
        event loop is running; the coroutine is closed unrun)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            work.close()
            return None
        task = loop.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # --- acting ----------------------------------------------------------------------------
    async def move(
        self,
        gid: str,
        token: str | None,
        cmd: Move | MoveMessage,
        *,
        reply_to: Connection | None = None,
        ref: Any = None,
    ) -> dict[str, Any]:
        """The token's seat's move, as its request's model checked it (server/messages.py), played
        by the game's room (server/room.py: Room.move, then Room.play)."""
        live = self.get(gid)
        seat = live.seat_for(token)
        return await live.move(seat, cmd.action, cmd.ply, reply_to=reply_to, ref=ref)

    # --- a cluster: other nodes serve the same games (server/bus.py, docs/cluster.md) ---------
    @property
    def clustered(self) -> bool:
        return self.bus.clustered

    async def heard_state(self, msg: dict[str, Any]) -> None:
        """Another node changed a game: bring our copy up to date and tell our sockets."""
        live = self.live.get(msg.get("g", ""))
        if live is None:
            return  # not served here: it is read from the store when someone asks for it
        async with live.lock:
            await live.catch_up_locked(hint=msg, control=bool(msg.get("c")))
        live.schedule_advance()

    async def fresh(self, gid: str) -> Room:
        """The game, up to date with the store where other nodes may have moved it (a read
        through: a node never answers an old ply as current, even before the bus's message)."""
        live = self.get(gid)
        if self.bus.clustered:
            try:
                stored_ply = self.store.ply_count(live.id)
            except Exception as e:
                raise self.store_failed(f"read game {gid!r}", e) from None
            if stored_ply != live.ply():
                async with live.lock:
                    await live.catch_up_locked(control=True)
                live.schedule_advance()
        return live

    def seats_elsewhere(self, gid: str) -> dict[int, str]:
        """Seat -> its best status ("online" before "away") on the other nodes of a cluster that
        said so lately (a node that stopped saying it, or died, no longer counts)."""
        nodes = self.remote_seats.get(gid)
        if not nodes:
            return {}
        now = time.monotonic()
        out: dict[int, str] = {}
        for node, (heard, seats) in list(nodes.items()):
            if now - heard > REMOTE_PRESENCE_TTL_S:
                del nodes[node]
                continue
            for seat, status in seats.items():
                if out.get(seat) != "online":
                    out[seat] = status
        return out

    def claim_timer(self, live: Room, kind: str, ply: int, hold_s: float) -> bool:
        """Whether this node fires timer (kind, ply) of the game: always on a single node; in a
        cluster, the one node whose claim the store takes (a claim lapses after `hold_s`)."""
        if not self.bus.clustered:
            return True
        try:
            return self.store.claim_timer(live.id, kind, ply, self.bus.node, hold_s)
        except Exception as e:
            log.error("game %s: cannot claim its %s timer: %s", live.id, kind, e)
            return False

    def moment(self, gid: str, token: str | None, ply: int) -> dict[str, Any]:
        """What the token's seat saw right after `ply` actions (a log line clicked): the game is
        replayed to that point and only that seat's view is sent, as at the time."""
        live = self.get(gid)
        seat = live.seat_for(token)
        log = list(live.log)
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(log):
            raise ServiceError(
                ErrorCode.BAD_PLY,
                "move {ply} is not in this game (0 to {last_ply})",
                ply=repr(ply),
                last_ply=len(log),
            )
        stored = live.stored
        state = (
            live.game.state_from_position(stored.start)
            if stored.start is not None
            else live.game.new_initial_state(seed=setup_seed(stored))
        )
        for _seat, text in log[:ply]:
            state.apply_action(state.string_to_action(text))
        snap = live.snapshot(seat, sync=False, state=state, ply=ply)
        # A moment is drawn on its own: it carries the whole view (static part included).
        return {**snap, "view": state.view(seat), "can_undo": False, "can_hint": False, "moment": True}

    def record(self, gid: str, token: str | None) -> GameRecord:
        live = self.get(gid)
        live.seat_for(token)  # any seat or spectator of this game
        return self.game_record(live)

    def game_record(self, live: Room) -> GameRecord:
        """The game's record, refused while a game with hidden information is on (it shows all)."""
        if type(live.game).has_hidden_information and not live.ended():
            raise ServiceError(
                ErrorCode.RECORD_HIDDEN,
                "this game has hidden information: its record (which shows "
                "everything) can be downloaded once the game is over",
            )
        extra: dict[str, Any] = {}
        for feature in self.features:  # names, forfeits (resign), clock and its moves, hand-overs
            extra.update(feature.record(live))
        # Who sat where, by the names the players had (a feature's "shown_names": an account's name
        # where one held the seat), so that the review names them as the game did.
        shown = extra.pop("shown_names", [])
        names = [
            live.seat_label(i, shown[i] if i < len(shown) else None) for i in range(len(live.stored.seats))
        ]
        record = GameRecord.from_state(
            live.state, players=names, practice=live.stored.practice, forfeits=extra.pop("forfeits")
        )
        # The same, typed: the replay page names each seat from it as the game page did.
        record.seats = [
            {
                "kind": s["kind"],
                "agent": s["agent"] if s["kind"] == "agent" else None,
                "name": (shown[i] if i < len(shown) else None) or None,
            }
            for i, s in enumerate(live.stored.seats)
        ]
        record.clock, record.clock_moves, record.handed_to_ai = (
            extra["clock"],
            extra["clock_moves"],
            extra["handed_to_ai"],
        )
        return record

    def record_dict(self, gid: str, token: str | None) -> dict[str, Any]:
        """The record as JSON; once the game is over it also reveals the randomness key, so anyone
        can check every chance outcome and the setup (never before: it predicts them all)."""
        record = self.record(gid, token)
        out = record.to_dict()
        live = self.get(gid)
        if live.ended():
            out["secret_key"] = live.key.hex()
        return out

    def extra(self, gid: str, token: str | None, name: str, params: dict[str, Any]) -> Any:
        live = self.get(gid)
        seat = live.seat_for(token)
        spec = spec_of(live.game)
        hook = spec.extra if spec is not None else None
        if hook is None:
            raise ServiceError(ErrorCode.NO_EXTRA, "{game} offers no extra data", game=live.stored.game)
        try:
            return hook(live.state, seat, name, params)
        except TrapworksError as e:
            raise ServiceError(ErrorCode.BAD_EXTRA, str(e)) from None
        except KeyError:
            raise ServiceError(
                ErrorCode.NO_EXTRA,
                "{game} offers no extra data {name}",
                game=live.stored.game,
                name=repr(name),
            ) from None

    # --- replay of a record in the browser ----------------------------------------------------
    @staticmethod
    def _replayed_game(record: GameRecord, seat: int | None, limit: int) -> Game:
        """The record's game, once the seat asked for and the record's length are checked."""
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or seat < 0):
            raise ServiceError(
                ErrorCode.BAD_SEAT,
                "seat {seat}: a seat number from 0, or null for a spectator",
                seat=repr(seat),
            )
        if len(record.actions) > limit:
            raise ServiceError(
                ErrorCode.RECORD_TOO_LONG,
                "record has {actions} actions; at most {limit}",
                actions=len(record.actions),
                limit=limit,
            )
        try:
            game = make(record.game, **record.options)
        except TrapworksError as e:
            raise ServiceError(ErrorCode.BAD_RECORD, str(e)) from None
        except TypeError as e:
            raise ServiceError(ErrorCode.BAD_RECORD, "record options: {e}", e=e) from None
        if seat is not None and seat >= game.num_players():
            raise ServiceError(
                ErrorCode.BAD_SEAT,
                "seat {seat}: this {game} game has seats 0-{last_seat}",
                seat=seat,
                game=record.game,
                last_seat=game.num_players() - 1,
            )
        return game

    @staticmethod
    def replay_steps(record: GameRecord, seat: int | None = None, limit: int = 5000) -> dict[str, Any]:
        game = GameService._replayed_game(record, seat, limit)
        steps = []
        previous = None
        before: State | None = None
        try:
            for i, state in enumerate(record.states()):
                player = state.current_player()
                story = None
                if before is not None:
                    action = state.history()[-1]
                    story = story_for(story_entry(before.story_owner(action), state, action), seat)
                before = state
                steps.append(
                    {
                        "ply": i,
                        "view": state.view(seat),
                        "events": checked_events(state, seat),
                        "last_action": (
                            {"ply": i - 1, "seat": previous, "text": record.actions[i - 1], "story": story}
                            if i
                            else None
                        ),
                        "to_move": player if player >= 0 else None,
                        "terminal": state.is_terminal(),
                        "returns": state.returns() if state.is_terminal() else None,
                        "winners": state.winners() if state.is_terminal() else None,
                    }
                )
                previous = player
            forfeits = record.forfeit_list()
        except TrapworksError as e:
            raise ServiceError(ErrorCode.BAD_RECORD, str(e)) from None
        except ValueError as e:
            raise ServiceError(ErrorCode.BAD_RECORD, "record forfeits: {e}", e=e) from None
        ending = None
        if forfeits:
            # Ended off the board (resigned, out of time, aborted): the kernel's result on the last step.
            result = forfeit_outcome(state, forfeits)
            if result.ended:
                steps[-1].update(terminal=True, to_move=None, returns=result.returns, winners=result.winners)
            ending = {
                "forfeits": [f.to_dict() for f in forfeits],
                "aborted": result.aborted,
                "out": sorted(result.out),
            }
        return {
            "ending": ending,
            "clock": record.clock,
            "clock_moves": record.clock_moves,
            "handed_to_ai": record.handed_to_ai,
            "game": record.game,
            "title": type(game).title,
            "options": game.public_options(),
            "players": record.players,
            "seats": record.seats,
            "actions": record.actions,
            "renderer": renderer_url(record.game),
            "steps": steps,
        }

    async def replay(self, record_data: dict[str, Any], seat: int | None) -> bytes:
        """replay_steps in a thread (a record of at most REPLAY_IN_THREAD_ACTIONS actions) or in a
        worker process (a 5,000-move record takes seconds of CPU): the event loop keeps serving
        every game meanwhile. At most CPU_QUEUE replays run or wait. The answer
        comes back as JSON bytes, encoded in the worker: encoding megabytes of views is CPU work too."""
        if self._cpu_slots.locked():
            raise ServiceError(ErrorCode.BUSY, "the server is busy with other replays; try again in a moment")
        async with self._cpu_slots:
            if _action_count(record_data) <= REPLAY_IN_THREAD_ACTIONS:
                return await asyncio.to_thread(_replay_job, record_data, seat)
            if self._cpu_pool is None:
                # spawn: a fresh interpreter, not a fork of this threaded server process.
                self._cpu_pool = concurrent.futures.ProcessPoolExecutor(
                    CPU_WORKERS,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_background_priority,
                )
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._cpu_pool, _replay_job, record_data, seat)

    async def shutdown(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._cpu_pool is not None:
            self._cpu_pool.shutdown(wait=False, cancel_futures=True)
        self.apply_pool.shutdown(wait=False, cancel_futures=True)


def _background_priority() -> None:
    """A worker process yields the CPU to the server's event loop (replays are background work)."""
    with contextlib.suppress(OSError):
        os.nice(10)


def _action_count(record_data: dict[str, Any]) -> int:
    """How many actions a record holds, before it is checked (a malformed one: 0, and the
    replay's own checks name what is wrong)."""
    actions = record_data.get("actions") if isinstance(record_data, dict) else None
    return len(actions) if isinstance(actions, list) else 0


def _replay_job(record_data: dict[str, Any], seat: int | None) -> bytes:
    """Runs in a worker process: the replay of a record as JSON, or the ServiceError it would raise."""
    import orjson

    from trapworks.core import RecordError

    try:
        record = GameRecord.from_dict(record_data)
    except RecordError as e:
        raise ServiceError(ErrorCode.BAD_RECORD, str(e)) from None
    return orjson.dumps(GameService.replay_steps(record, seat), option=orjson.OPT_NON_STR_KEYS)
