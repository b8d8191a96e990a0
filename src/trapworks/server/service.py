"""Games held by the web server: seats, tokens, views, AI seats and chance. No rule lives here.

Every rule question goes to the kernel: whose turn (`current_player`), what an action text means
(`string_to_action`, which raises with the reason), what a seat may see (`view`, `last_events`).
The service adds only the platform: who holds which seat (secret tokens), the order of writes
(store the action, then apply it, then tell the players), and playing the seats that are agents.
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trapworks.agents import available_agents
from trapworks.core import (
    CHANCE,
    Game,
    GameRecord,
    IllegalActionError,
    State,
    TrapworksError,
    UnknownGameError,
    available_games,
    game_class,
    make,
    story_entry,
    story_for,
    undo,
    undo_refusal,
)
from trapworks.core.agent import advice
from trapworks.core.forfeit import outcome as forfeit_outcome
from trapworks.core.randomness import chance_outcome, derive, new_key, seed_key
from trapworks.core.spec import dynamic_view, spec_of, static_view

from .bus import Bus, LocalBus
from .catalog import catalog_words, spec_for_id
from .control import Control
from .errors import STORAGE_FAILED, STORE_RETRY_S, ServiceError
from .live import Connection, LiveGame
from .names import BadName, clean_name
from .outbox import SocketDropped
from .seat_player import IllegalChoice, SeatPlayer
from .store import PlyTaken, SeatTaken, Store, StoredGame

log = logging.getLogger("trapworks.server")

# Agents asked for hints, best first (the game's own exact or strongest player).
HINT_AGENTS = ("perfect", "hard", "heuristic")
MAX_ACTION_TEXT = 200  # longer action texts are refused before the game parses them
# Agents whose recent steps took less than this run on the event loop itself (see _agent_step).
INLINE_AGENT_S = 0.002
# At most this many chance and fast-agent actions are stored together with a human's move.
MAX_FOLDED_REPLIES = 64
RENDERER_DIR = Path(__file__).resolve().parent.parent / "web" / "static" / "renderers"
CPU_WORKERS = 2  # processes for CPU-heavy requests (replays): the event loop never runs them
APPLY_THREADS = 4  # threads for actions whose physics take time (Booby Trap)
INLINE_APPLY_S = 0.005  # a game whose recent applies took longer applies in a thread
CPU_QUEUE = 8  # requests running or waiting for a worker; more are refused (503, retry later)
# A cluster node's claim on playing chance or an AI seat at one ply lapses after this long (then
# another node plays it: the claimant may have died).
ADVANCE_CLAIM_S = 10.0
# Another node's word on which seats it has sockets for counts this long (it repeats it sooner).
REMOTE_PRESENCE_TTL_S = 40.0


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


def renderer_url(game_id: str) -> str:
    spec = spec_for_id(game_id)
    if spec is not None and (RENDERER_DIR / spec.renderer).is_file():
        return f"/static/renderers/{spec.renderer}"
    if (RENDERER_DIR / f"{game_id}.js").is_file():
        return f"/static/renderers/{game_id}.js"
    return "/static/renderers/generic.js"


class GameService:
    def __init__(self, store: Store):
        self.store = store
        self.live: dict[str, LiveGame] = {}
        self._tasks: set[asyncio.Task] = set()
        self._agent_time: dict[tuple[str, str], float] = {}  # (game, agent) -> recent step time, s
        self._hint_agents: dict[type, str | None] = {}  # game class -> its hint agent
        self.last_activity = time.monotonic()  # when a game was last created or an action stored
        self._cpu_pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._cpu_slots = asyncio.Semaphore(CPU_QUEUE)
        self.store_failures = 0  # failed writes so far (each logged)
        self._apply_time: dict[str, float] = {}  # game id -> recent slow apply_action time, s
        self._apply_pool = concurrent.futures.ThreadPoolExecutor(APPLY_THREADS, thread_name_prefix="apply")
        self.control = Control(self)  # resign, abort, rematch, clocks, hand-over (server/control.py)
        # The other nodes of a cluster (server/bus.py); the single-process default tells nobody.
        self.bus: Bus = LocalBus()
        self.catch_ups = 0  # times this node brought a game up to date from the store
        # game id -> node -> (when heard, monotonic; seat -> "online"/"away"): the seats that have a
        # socket on another node of the cluster (server/presence.py publishes ours).
        self.remote_seats: dict[str, dict[str, tuple[float, dict[int, str]]]] = {}

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
            "hint_agent": self._hint_agent_name(game),
            "has_hidden_information": cls.has_hidden_information,
            "has_chance": cls.has_chance,
            "help": game.help_text(),
            "renderer": renderer_url(game.game_id),
            **catalog_words(game),
        }

    def make_game(self, game_id: str, options: dict[str, Any]) -> Game:
        if not isinstance(options, dict):
            raise ServiceError(400, "bad_options", "options must be a JSON object of option name -> value")
        try:
            return make(game_id, **options)
        except UnknownGameError as e:
            raise ServiceError(404, "unknown_game", str(e)) from None
        except TrapworksError as e:
            raise ServiceError(400, "bad_options", str(e)) from None
        except TypeError as e:
            raise ServiceError(400, "bad_options", f"{game_id}: bad options: {e}") from None

    def check_options(self, game_id: str, options: dict[str, Any]) -> dict[str, Any]:
        return self._describe(self.make_game(game_id, options))

    def _hint_agent_name(self, game: Game) -> str | None:
        kind = type(game)  # the agents on offer are a property of the game's class
        if kind not in self._hint_agents:
            names = available_agents(game)
            spec = spec_of(kind)
            own = spec.hint_agent if spec is not None else None  # the game's choice: from the seat's view
            self._hint_agents[kind] = (
                own if own in names else next((n for n in HINT_AGENTS if n in names), None)
            )
        return self._hint_agents[kind]

    # --- creating and loading ---------------------------------------------------------
    async def create(
        self,
        game_id: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        *,
        hints: bool = False,
        seed: int | None = None,
        start: str | None = None,
        practice: bool = False,
        public: bool = False,
        spectator_chat: bool = False,
        clock: dict[str, Any] | None = None,
        hand_over_after: float | None = None,
        rematch_of: str | None = None,
    ) -> LiveGame:
        game = self.make_game(game_id, options)
        n = game.num_players()
        if not isinstance(seats, list) or len(seats) != n:
            raise ServiceError(
                400,
                "bad_seats",
                f"{game_id} with these options has {n} seats; "
                f"give exactly {n} seat entries, got {len(seats) if isinstance(seats, list) else seats!r}",
            )
        agents = available_agents(game)
        seat_rows = []
        for i, s in enumerate(seats):
            kind = s.get("kind") if isinstance(s, dict) else None
            name = s.get("name") if isinstance(s, dict) else None
            try:
                name = clean_name(name) if name else ""
            except BadName as e:
                raise ServiceError(400, "bad_name", f"seat {i + 1}: {e}") from None
            if kind == "human":
                # An invited seat's token goes only to whoever claims its invite link (one use):
                # the creator hands out the link, never the token.
                invite = secrets.token_urlsafe(18) if isinstance(s, dict) and s.get("invite") else None
                seat_rows.append(
                    {
                        "kind": "human",
                        "agent": None,
                        "name": name,
                        "token": secrets.token_urlsafe(18),
                        "invite": invite,
                    }
                )
            elif kind == "agent":
                agent = s.get("agent")
                if agent not in agents:
                    raise ServiceError(
                        400,
                        "bad_seats",
                        f"seat {i + 1}: unknown agent {agent!r}; {game_id} offers {', '.join(agents)}",
                    )
                seat_rows.append({"kind": "agent", "agent": agent, "name": name, "token": None})
            else:
                raise ServiceError(
                    400, "bad_seats", f"seat {i + 1}: kind must be 'human' or 'agent', not {kind!r}"
                )
        bad_seed = isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63
        if seed is not None and bad_seed:
            raise ServiceError(400, "bad_seed", f"seed {seed!r} must be an integer from 0 to 2**63-1")
        self._check_chosen_setup(game, seat_rows, seed, start)
        # A server-drawn game: 256 secret bits. A chosen seed stands for its own key (the creator
        # may know every outcome: allowed only where no other human is at a disadvantage).
        key = seed_key(seed) if seed is not None else new_key()
        stored = StoredGame(
            id=secrets.token_urlsafe(9),
            game=game_id,
            options=game.public_options(),
            seed=seed if seed is not None else 0,
            start=start,
            seats=seat_rows,
            spectator_token=secrets.token_urlsafe(18),
            hints=bool(hints),
            created="",
            secret=key.hex(),
            chosen_setup=seed is not None or start is not None,
            practice=bool(practice),
            public=bool(public),
            spectator_chat=bool(spectator_chat),
        )
        # A public game's invited seats are its free seats: anyone may take one from the lobby.
        stored.open_seats = len(self.free_seats(stored)) if public else 0
        try:
            state = (
                game.state_from_position(start)
                if start is not None
                else game.new_initial_state(seed=setup_seed(stored))
            )
        except TrapworksError as e:
            raise ServiceError(400, "bad_position", str(e)) from None
        live = LiveGame(stored=stored, game=game, state=state, log=[], key=key)
        self.control.setup(live, clock, hand_over_after, rematch_of)  # checks the clock first
        try:
            self.store.create_game(stored)
            self.control.created(live)
        except ServiceError:
            raise
        except Exception as e:
            raise self._store_failed("create a game", e) from None
        self.last_activity = time.monotonic()
        self.live[stored.id] = live
        self.control.changed(live)  # a clock starts with the first turn
        self.schedule_advance(live)
        return live

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
                400,
                "chosen_seed_shared",
                f"a chosen seed fixes every secret and chance outcome of {game.game_id}: "
                "allowed only with at most one human seat",
            )
        if start is not None and cls.has_hidden_information:
            raise ServiceError(
                400,
                "chosen_start_shared",
                f"a chosen start position shows its hidden parts of {game.game_id} to its creator: "
                "allowed only with at most one human seat",
            )

    def get(self, gid: str) -> LiveGame:
        live = self.live.get(gid)
        if live is not None:
            live.used = time.monotonic()  # i26: a game asked for is not evicted (eviction.py)
            return live
        if not isinstance(gid, str) or len(gid) > 64:
            raise ServiceError(404, "no_such_game", f"no game {gid!r}")
        try:
            stored = self.store.load_game(gid)
        except Exception as e:
            raise self._store_failed(f"load game {gid!r}", e) from None
        if stored is None:
            raise ServiceError(404, "no_such_game", f"no game {gid!r} on this server")
        live = self._rebuild(stored)
        live.published_ply = live.ply()
        try:
            self.control.load(live)
        except Exception as e:
            raise self._store_failed(f"load the control of game {gid!r}", e) from None
        self.live[gid] = live
        self.control.changed(live)
        self.schedule_advance(live)  # it may have stopped while an agent or chance was to move
        return live

    def store_failed(self, what: str, error: BaseException) -> ServiceError:
        """Log a failed store operation; the 503 to answer with (nothing was acknowledged)."""
        self.store_failures += 1
        log.error("storage failure (%s): %s: %s", what, type(error).__name__, error)
        return ServiceError(503, "storage_unavailable", STORAGE_FAILED)

    _store_failed = store_failed  # the name the server's modules used before it was public

    def _rebuild(self, stored: StoredGame) -> LiveGame:
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
                        500,
                        "cannot_resume",
                        f"game {stored.id}: stored action {i + 1} ({text!r}) no longer replays: {e.reason}",
                    ) from None
        except TrapworksError as e:
            raise ServiceError(500, "cannot_resume", f"game {stored.id} cannot be resumed: {e}") from None
        return LiveGame(
            stored=stored,
            game=game,
            state=state,
            log=list(stored.actions),
            key=game_key(stored),
            stories=stories,
        )

    # --- who is asking ----------------------------------------------------------------
    def seat_for(self, live: LiveGame, token: str | None) -> int | None:
        """Seat of a token (None: the spectator token). Raise 401/403 otherwise."""
        if not token:
            raise ServiceError(
                401,
                "missing_token",
                "this game needs a token: the secret from your seat or spectator link (?token=...)",
            )
        given = str(token).encode()
        for i, s in enumerate(live.stored.seats):
            if s["token"] and secrets.compare_digest(str(s["token"]).encode(), given):
                return i
        if secrets.compare_digest(live.stored.spectator_token.encode(), given):
            return None
        raise ServiceError(403, "wrong_token", "this token opens no seat of this game; check the link")

    def claim(self, gid: str, invite: str) -> int:
        """The seat whose invite this is; the seat is taken (stored) before the token is given."""
        live = self.get(gid)
        given = str(invite).encode()
        for i, s in enumerate(live.stored.seats):
            if s.get("invite") and secrets.compare_digest(str(s["invite"]).encode(), given):
                self.take_seat(live, i)
                return i
        raise ServiceError(
            403,
            "invite_used",
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

    def take_seat(self, live: LiveGame, seat: int) -> None:
        """Hand a free seat out once: stored before its token is given, and the database's unique
        (game, seat) pair refuses a second taker, even one served by another server process."""
        left = [i for i in self.free_seats(live.stored) if i != seat] if live.stored.public else []
        try:
            joined = self.store.take_seat(live.id, seat, len(left))
        except SeatTaken:
            raise ServiceError(
                409, "seat_taken", f"seat {seat + 1} was taken by someone else first"
            ) from None
        except Exception as e:
            raise self._store_failed(f"take a seat of game {live.id}", e) from None
        live.stored.joins[seat] = (joined, None)
        live.stored.open_seats = len(left)
        seats = [dict(x) for x in live.stored.seats]
        seats[seat]["invite"] = None
        try:
            self.store.update_seats(live.id, seats)
        except Exception as e:  # the seat is taken all the same (its join row says so)
            log.error("game %s: seat %d taken but its invite not cleared: %s", live.id, seat, e)
        live.stored.seats = seats
        self.control.seat_taken(live, seat)
        self.publish("seats", live)

    def disconnect(self, live: LiveGame, conn: Connection) -> None:
        """A socket closed. A finished game nobody watches any more leaves memory (it is in the
        store: a later request loads it again)."""
        # The game object may have been reloaded meanwhile; drop the connection from whichever holds it.
        live.connections.discard(conn)
        current = self.live.get(live.id)
        if current is not None:
            current.connections.discard(conn)
            self.control.disconnected(current, conn.seat)
            if not current.connections and self.control.ended(current):
                self.control.stop(current)
                del self.live[live.id]

    def humans(self, live: LiveGame) -> list[int]:
        if live.human_seats is None:  # seats never change after creation
            live.human_seats = [i for i, s in enumerate(live.stored.seats) if s["kind"] == "human"]
        return live.human_seats

    def against_ai_only(self, live: LiveGame, seat: int | None) -> bool:
        """This seat is the only human one (everyone else is an agent)."""
        return seat is not None and self.humans(live) == [seat]

    def can_hint(self, live: LiveGame, seat: int | None) -> bool:
        return (
            seat is not None
            and live.stored.seats[seat]["kind"] == "human"
            and (live.stored.hints or self.against_ai_only(live, seat))
            and self._hint_agent_name(live.game) is not None
        )

    def seat_label(self, live: LiveGame, seat: int) -> str:
        s = live.stored.seats[seat]
        who = s["name"] or (s["agent"] if s["kind"] == "agent" else "")
        return f"Player {seat + 1}" + (f" ({who})" if who else "")

    def players(self, live: LiveGame) -> list[dict[str, Any]]:
        return [
            {
                "seat": i,
                "kind": s["kind"],
                "agent": s["agent"],
                "name": s["name"],
                "label": self.seat_label(live, i),
            }
            for i, s in enumerate(live.stored.seats)
        ]

    # --- what a seat receives ---------------------------------------------------------------
    def _visible_text(
        self, live: LiveGame, viewer: int | None, seat: int, text: str, state: State | None = None
    ) -> str | None:
        # Which texts a seat may read is the game's declaration, read by the kernel.
        return text if (state or live.state).action_text_visible(seat, viewer) else None

    def log_for(self, live: LiveGame, viewer: int | None) -> list[dict[str, Any]]:
        return [
            {
                "ply": p,
                "seat": s,
                "text": self._visible_text(live, viewer, s, t),
                "story": self._story(live, p, viewer),
            }
            for p, (s, t) in enumerate(live.log)
        ]

    @staticmethod
    def _story(live: LiveGame, ply: int, viewer: int | None) -> dict[str, Any] | None:
        # The ply in players' words as this viewer may read them (the log shows these, keyed by ply).
        return story_for(live.stories[ply], viewer) if ply < len(live.stories) else None

    def snapshot(
        self,
        live: LiveGame,
        viewer: int | None,
        *,
        sync: bool,
        state: State | None = None,
        ply: int | None = None,
    ) -> dict[str, Any]:
        """What `viewer` is sent of the game: now, or of an earlier `state` after `ply` actions."""
        state = live.state if state is None else state
        ply = live.ply() if ply is None else ply
        player = state.current_player()
        terminal = state.is_terminal()
        last = None
        if ply:
            s, t = live.log[ply - 1]
            last = {
                "ply": ply - 1,
                "seat": s,
                "text": self._visible_text(live, viewer, s, t, state),
                "story": self._story(live, ply - 1, viewer),
            }
        msg = {
            "type": "state",
            "id": live.id,
            "game": live.stored.game,
            "seat": viewer,
            "ply": ply,
            # An update leaves out the view's static part (sent once in the game's info).
            "view": state.view(viewer) if sync else dynamic_view(state, viewer),
            "events": state.last_events(viewer),
            "last_action": last,
            "to_move": player if player >= 0 else None,
            "terminal": terminal,
            "returns": state.returns() if terminal else None,
            "winners": state.winners() if terminal else None,
            "truncated": state.is_truncated() if terminal else False,
            "can_undo": self._can_undo(live, viewer),
            "can_hint": self.can_hint(live, viewer) and player == viewer,
            "error": live.failed,
            "sync": sync,
        }
        if state is live.state:  # now (a moment of the past has no clock or result off the board)
            msg.update(self.control.view(live, viewer))
        if sync:
            msg["log"] = self.log_for(live, viewer)
        return msg

    def _undo_steps(self, live: LiveGame, seat: int | None) -> tuple[int | None, str | None]:
        """(actions to take back, why not): undo takes back this seat's last move and everything
        after it, by the one undo policy shared with the terminal (core.record.undo_refusal)."""
        if not self.against_ai_only(live, seat):
            return None, "undo is only for a game against AI (you the only human seat)"
        # From the end: in a game against AI the seat's own last move is a few plies back.
        keep = next((p for p in range(len(live.log) - 1, -1, -1) if live.log[p][0] == seat), None)
        if keep is None:
            return None, "you have no move to take back"
        steps = live.ply() - keep
        return steps, undo_refusal(live.state, steps, against_ai=True, practice=live.stored.practice)

    def _can_undo(self, live: LiveGame, seat: int | None) -> bool:
        steps, refusal = self._undo_steps(live, seat)
        return steps is not None and refusal is None

    def game_info(self, live: LiveGame, viewer: int | None) -> dict[str, Any]:
        return {
            "id": live.id,
            "game": live.stored.game,
            "title": type(live.game).title or live.stored.game,
            "options": live.stored.options,
            "seat": viewer,
            "players": self.players(live),
            "hints": live.stored.hints,
            "practice": live.stored.practice,
            "renderer": renderer_url(live.stored.game),
            "static_view": static_view(live.game),  # the views' unchanging part (core/spec.py)
            "help": live.game.help_text(),
            "has_hidden_information": type(live.game).has_hidden_information,
            "created": live.stored.created,
            # The creator chose the seed or start position (it may know the secrets).
            "chosen_setup": live.stored.chosen_setup,
            "public": live.stored.public,
            "spectator_chat": live.stored.spectator_chat,
            **self.control.info(live),
        }

    async def broadcast(self, live: LiveGame, *, sync: bool = False, rewound: bool = False) -> None:
        """Send every connection of the game its seat's view of the game now (and tell the other
        nodes of a cluster that it changed; `rewound`: actions were taken back)."""
        self.control.changed(live)
        await self._deliver(live, lambda seat: self.snapshot(live, seat, sync=sync))
        self.publish_state(live, control=True, rewound=rewound)

    async def _deliver(
        self,
        live: LiveGame,
        frame_for: Callable[[int | None], Any],
        reply_to: Connection | None = None,
        reply: dict[str, Any] | None = None,
    ) -> None:
        """Send each connection one frame, `frame_for(its seat)` (made once per seat); `reply_to`
        also gets `reply` in the same frame."""
        cache: dict[int | None, Any] = {}
        for conn in list(live.connections):
            if conn.seat not in cache:
                cache[conn.seat] = frame_for(conn.seat)
            frame = cache[conn.seat]
            if conn is reply_to:
                frame = (frame if isinstance(frame, list) else [frame]) + [reply]
            try:
                # Only queued here (the socket's own writer sends it): no network I/O under the lock.
                await conn.send(frame[0] if isinstance(frame, list) and len(frame) == 1 else frame)
            except Exception:  # a closed or dropped socket: others still get theirs
                live.connections.discard(conn)
        if reply_to is not None and reply_to not in live.connections:
            try:  # a socket of a game object since reloaded: the reply still goes
                await reply_to.send(reply)  # type: ignore[arg-type]
            except SocketDropped:
                pass

    # --- acting -----------------------------------------------------------------------------
    async def move(
        self,
        gid: str,
        token: str | None,
        text: Any,
        expected_ply: Any = None,
        *,
        reply_to: Connection | None = None,
        ref: Any = None,
    ) -> dict[str, Any]:
        """Validate and apply one action of the token's seat; return {"ply": the new ply count,
        "repeat": whether this was a repeat of an applied move, answered and not applied again}.

        The action is committed to the store before this returns (and before anyone is told).
        With `reply_to`, that connection's acknowledgement ({"type": "ack", "ref", "ply"}) goes in
        the same frame as its updates.
        """
        live = self.get(gid)
        seat = self.seat_for(live, token)
        if seat is None:
            raise ServiceError(403, "spectator", "spectators cannot move")
        if not isinstance(text, str) or not text.strip():
            raise ServiceError(
                400,
                "bad_action",
                "an action is a non-empty text in the game's notation, e.g. "
                + (live.game.help_text()[:120] or "as listed in the view"),
            )
        if expected_ply is None:
            raise ServiceError(
                400,
                "missing_ply",
                "a move needs 'ply': the move count you saw (a repeat of the same move is then "
                "answered, never applied twice)",
            )
        if isinstance(expected_ply, bool) or not isinstance(expected_ply, int) or expected_ply < 0:
            raise ServiceError(
                400,
                "bad_ply",
                f"ply {expected_ply!r} must be an integer >= 0 (the move count you saw)",
            )
        if len(text) > MAX_ACTION_TEXT:
            raise ServiceError(400, "bad_action", f"an action text is at most {MAX_ACTION_TEXT} characters")
        shown = text.strip()
        async with live.lock:
            if self.bus.clustered and expected_ply > live.ply():
                await self.catch_up_locked(live, control=True)  # the player saw moves made elsewhere
            state = live.state
            if state.is_terminal():
                raise ServiceError(409, "game_over", "the game is over")
            repeat = self._repeat_of(live, seat, expected_ply, text)
            if repeat is None:
                self.control.check_can_move(live, seat)  # resigned, aborted, or handed to an AI
            if repeat is not None:
                # The same move again (a resend after a lost answer): the earlier result, not applied again.
                if reply_to is not None:
                    await reply_to.send({"type": "ack", "ref": ref, "ply": repeat, "repeat": True})
                return {"ply": repeat, "repeat": True}
            if expected_ply != live.ply():
                raise ServiceError(
                    409,
                    "stale",
                    f"your move was for move number {expected_ply}, but the game is "
                    f"at {live.ply()} (someone moved first); the board is refreshed",
                )
            player = state.current_player()
            if player != seat:
                whom = "chance" if player == CHANCE else self.seat_label(live, player)
                raise ServiceError(409, "not_your_turn", f"it is not your turn: {whom} is to move")
            try:
                action = state.string_to_action(text)
                new_state = await self._applied(live, state, action)
            except IllegalActionError as e:
                raise ServiceError(422, "illegal_move", f"illegal move {shown!r}: {e.reason}") from None
            except TrapworksError as e:
                raise ServiceError(422, "illegal_move", f"illegal move {shown!r}: {e}") from None
            first = live.ply()
            ack = {"type": "ack", "ref": ref, "ply": first + 1}
            await self.play_locked(
                live, seat, action, by="human", after=new_state, reply_to=reply_to, reply=ack
            )
            live.sent_texts[(seat, first)] = shown
        self.schedule_advance(live)
        return {"ply": first + 1, "repeat": False}

    async def play_locked(
        self,
        live: LiveGame,
        seat: int,
        action: int,
        *,
        by: str,
        after: State | None = None,
        reply_to: Connection | None = None,
        reply: dict[str, Any] | None = None,
    ) -> list[tuple[int, str, State]]:
        """The path of a seat's action into the game, whoever chose it (`by`: "human", "clock"):
        applied (unless `after`, the state it gives, is known), followed by chance's and quick
        agents' replies, committed to the store, then sent to every socket here (each its seat's
        view of every step, `reply_to` its `reply` in the same frame) and told to the other nodes
        of a cluster. The caller holds live.lock and has checked that the seat may act. The steps
        (seat, text, state after) stored."""
        state = live.state
        first = live.ply()
        if after is None:
            after = await self._applied(live, state, action)
        steps = [(seat, state.action_to_string(action), after)]
        self._fast_replies(live, steps)
        try:
            await self._commit(live, steps)
        except ServiceError as e:
            log.info("game %s: %s action at ply %d not stored: %s", live.id, by, first, e.code)
            raise
        await self._send_steps(live, first, steps, reply_to, reply or {})
        return steps

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

    @staticmethod
    def _repeat_of(live: LiveGame, seat: int, ply: int, text: str) -> int | None:
        """The result of this seat's move at `ply` if it is already applied with this text."""
        if ply >= live.ply():
            return None
        stored_seat, stored_text = live.log[ply]
        if stored_seat != seat:
            return None
        shown = text.strip()
        if shown in (stored_text, live.sent_texts.get((seat, ply))):
            return ply + 1
        return None

    async def _send_steps(
        self,
        live: LiveGame,
        first: int,
        steps: list[tuple[int, str, State]],
        reply_to: Connection | None,
        reply: dict[str, Any],
    ) -> None:
        """Each connection gets one frame: the update after each step, in order (plus the reply
        for `reply_to`). One frame instead of one per step: under load the server's time per
        frame sent is a large share of a move's."""
        self.control.changed(live)
        await self._deliver(live, self._step_frames(live, first, steps), reply_to, reply)
        # The control document changes with a move only where a clock runs.
        self.publish_state(live, control=bool(self.control.info(live)["clock"]))

    def _step_frames(
        self, live: LiveGame, first: int, steps: list[tuple[int, str, State]]
    ) -> Callable[[int | None], list[dict[str, Any]]]:
        return lambda seat: [
            self.snapshot(live, seat, sync=False, state=after, ply=first + i + 1)
            for i, (_seat, _text, after) in enumerate(steps)
        ]

    def _fast_replies(self, live: LiveGame, steps: list[tuple[int, str, State]]) -> None:
        """Append the moves of chance and of fast agents that follow steps[-1], while they are fast.

        Against a quick agent the reply then shares the human move's lock and commit: one
        transaction and no extra task per move, which is most of the server's work under load.
        A slow agent (a search) is left to advance(), which thinks in a thread.
        """
        state = steps[-1][2]
        if self._apply_is_slow(live):
            return  # replies whose physics take time are played by advance(), off the event loop
        while len(steps) < MAX_FOLDED_REPLIES and not state.is_terminal():
            player = state.current_player()
            try:
                if player == CHANCE:
                    action = chance_outcome(state, live.key)
                elif live.stored.seats[player]["kind"] == "agent" and self._agent_is_fast(live, player):
                    action = self._think(live, player, state)
                else:
                    return
                after = state.clone()
                text = after.action_to_string(action)
                after.apply_action(action)
            except Exception:  # advance() plays this seat again and reports a failure to the players
                return
            steps.append((player, text, after))
            state = after

    def _apply_is_slow(self, live: LiveGame) -> bool:
        return self._apply_time.get(live.stored.game, 0.0) >= INLINE_APPLY_S

    def _apply_timed(self, live: LiveGame, state: State, action: int) -> State:
        after = state.clone()
        started = time.perf_counter()
        try:
            after.apply_action(action)
        finally:
            took = time.perf_counter() - started
            typical = self._apply_time.get(live.stored.game)
            # The slowest recent applies count: one physics removal in ten is the stall to avoid.
            self._apply_time[live.stored.game] = took if typical is None else max(took, 0.95 * typical)
        return after

    async def _applied(self, live: LiveGame, state: State, action: int) -> State:
        """A copy of `state` after `action`. In a game whose actions have taken time to apply (Booby
        Trap's physics), in a capped thread pool: pymunk's C code runs while the loop serves others."""
        if not self._apply_is_slow(live):
            return self._apply_timed(live, state, action)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._apply_pool, self._apply_timed, live, state, action)

    async def _commit(self, live: LiveGame, steps: list[tuple[int, str, State]]) -> None:
        """Store the steps' actions (seat, text, state after), then make the last state the game's.
        The caller holds live.lock."""
        actions = [(seat, text) for seat, text, _ in steps]
        self.last_activity = time.monotonic()
        stored = self.store.append_actions_soon(live.id, live.ply(), actions)

        def adopt(done: asyncio.Future) -> None:
            # Runs once the commit is done even if the caller is cancelled meanwhile (a server
            # shutting down): what is stored is always what the game holds.
            if not done.cancelled() and done.exception() is None:
                self._adopt_steps(live, steps)

        stored.add_done_callback(adopt)
        try:
            await asyncio.shield(stored)
        except PlyTaken:
            # Another server process (a node of the cluster) stored this ply first: our copy was
            # stale. Catch up from the store (the players here see the moves they missed), then
            # refuse this one as stale: it was for a position that is gone.
            try:
                await self.catch_up_locked(live, control=True)
            except Exception as e:
                log.error("game %s: cannot catch up after a lost ply race: %s", live.id, e)
                self.live.pop(live.id, None)  # reloaded from the store on the next request
            self.schedule_advance(live)
            raise ServiceError(
                409, "stale", "another move was stored first; the board is refreshed"
            ) from None
        except Exception as e:  # the store failed: nothing stored, nothing applied, nothing acked
            raise self._store_failed(f"store game {live.id} ply {live.ply()}", e) from None

    @staticmethod
    def _adopt_steps(live: LiveGame, steps: list[tuple[int, str, State]]) -> None:
        """Make stored steps (seat, text, state after) the game's: its state, log and stories."""
        before = live.state
        for _seat, _text, after in steps:
            action = after.history()[-1]
            live.stories.append(story_entry(before.story_owner(action), after, action))
            before = after
        live.state = steps[-1][2]
        live.log.extend((seat, text) for seat, text, _ in steps)

    # --- a cluster: other nodes serve the same games (server/bus.py, docs/cluster.md) ---------
    @property
    def clustered(self) -> bool:
        return self.bus.clustered

    def publish_state(self, live: LiveGame, *, control: bool, rewound: bool = False) -> None:
        """Tell the other nodes that the game changed: its ply now and the actions since the last
        message (the database has them all; these save a read), whether its control document or
        seats changed, and whether actions were taken back."""
        if not self.bus.clustered:
            return
        first = live.published_ply
        msg: dict[str, Any] = {"k": "state", "g": live.id, "ply": live.ply(), "from": first}
        if control:
            msg["c"] = 1
        if rewound or first > live.ply():
            msg["rewound"] = 1
        elif live.ply() - first <= MAX_FOLDED_REPLIES:
            msg["a"] = live.log[first:]
        live.published_ply = live.ply()
        self.bus.publish(msg)

    def publish(self, kind: str, live: LiveGame, **fields: Any) -> None:
        """Tell the other nodes something else about the game (seats, chat, presence)."""
        if self.bus.clustered:
            self.bus.publish({"k": kind, "g": live.id, **fields})

    async def heard_state(self, msg: dict[str, Any]) -> None:
        """Another node changed a game: bring our copy up to date and tell our sockets."""
        live = self.live.get(msg.get("g", ""))
        if live is None:
            return  # not served here: it is read from the store when someone asks for it
        async with live.lock:
            await self.catch_up_locked(live, hint=msg, control=bool(msg.get("c")))
        self.schedule_advance(live)

    async def fresh(self, gid: str) -> LiveGame:
        """The game, up to date with the store where other nodes may have moved it (a read
        through: a node never answers an old ply as current, even before the bus's message)."""
        live = self.get(gid)
        if self.bus.clustered:
            try:
                stored_ply = self.store.ply_count(live.id)
            except Exception as e:
                raise self._store_failed(f"read game {gid!r}", e) from None
            if stored_ply != live.ply():
                async with live.lock:
                    await self.catch_up_locked(live, control=True)
                self.schedule_advance(live)
        return live

    async def refresh_locked(self, live: LiveGame) -> None:
        """Before acting on the game off the board (resign, rematch, a timer): our copy and its
        control document as stored (caller holds the lock). Nothing to do on a single node."""
        if self.bus.clustered:
            await self.catch_up_locked(live, control=True)

    async def catch_up_locked(
        self, live: LiveGame, *, hint: dict[str, Any] | None = None, control: bool = False
    ) -> bool:
        """Apply the actions other nodes stored since our copy's ply (from `hint`, a bus message,
        when it has them, else read from the store), reload the control document and seats if
        asked, and send our sockets every step in order. The caller holds live.lock. Whether
        anything changed."""
        first = live.ply()
        if hint is not None and hint.get("rewound"):
            await self._reload_locked(live)
            return True
        actions: list[tuple[int, str]]
        if hint is not None and isinstance(hint.get("ply"), int) and hint["ply"] <= first:
            actions = []  # nothing new (we read it through the store before the message came)
        elif hint is not None and hint.get("from") == first and "a" in hint:
            actions = [(int(a[0]), str(a[1])) for a in hint["a"]]
        else:
            try:
                actions = self.store.actions_from(live.id, first)
                if not actions and self.store.ply_count(live.id) < first:
                    await self._reload_locked(live)  # taken back elsewhere (undo)
                    return True
            except ServiceError:
                raise
            except Exception as e:
                raise self._store_failed(f"catch up on game {live.id}", e) from None
        steps: list[tuple[int, str, State]] = []
        state = live.state
        try:
            for seat, text in actions:
                action = state.string_to_action(text)
                after = await self._applied(live, state, action)
                steps.append((seat, text, after))
                state = after
        except TrapworksError as e:  # our copy and the store disagree: start again from the store
            log.error("game %s: stored actions do not follow our copy (%s): reloading it", live.id, e)
            await self._reload_locked(live)
            return True
        if steps:
            self._adopt_steps(live, steps)
            live.sent_texts = {k: v for k, v in live.sent_texts.items() if k[1] < first}
        if control:
            self._reload_control(live)
        live.published_ply = live.ply()
        if not steps and not control:
            return False
        self.catch_ups += 1
        self.last_activity = time.monotonic()
        if steps:
            await self._deliver(live, self._step_frames(live, first, steps))
        else:
            await self._deliver(live, lambda seat: self.snapshot(live, seat, sync=False))
        return True

    def _reload_control(self, live: LiveGame) -> None:
        try:
            data = self.store.load_control(live.id)
            seats = self.store.load_seats(live.id)
            joins = self.store.seat_joins(live.id)
        except Exception as e:
            raise self._store_failed(f"reload the control of game {live.id}", e) from None
        if seats is not None and seats != live.stored.seats:
            live.stored.seats = seats
            live.human_seats = None
            live.agents.clear()
        live.stored.joins = joins
        live.stored.open_seats = len(self.free_seats(live.stored)) if live.stored.public else 0
        self.control.reloaded(live, data)

    async def _reload_locked(self, live: LiveGame) -> None:
        """Our copy replaced by the stored game (actions taken back elsewhere, or a copy that no
        longer agrees): every socket here gets the whole game again."""
        try:
            stored = self.store.load_game(live.id)
        except Exception as e:
            raise self._store_failed(f"reload game {live.id}", e) from None
        if stored is None:
            return
        fresh = self._rebuild(stored)
        live.stored, live.game, live.state = fresh.stored, fresh.game, fresh.state
        live.log, live.stories, live.key = fresh.log, fresh.stories, fresh.key
        live.sent_texts.clear()
        live.agents.clear()
        live.human_seats = None
        live.failed = None
        self._reload_control(live)
        live.published_ply = live.ply()
        self.catch_ups += 1
        await self._deliver(live, lambda seat: self.snapshot(live, seat, sync=True))

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

    def claim_timer(self, live: LiveGame, kind: str, ply: int, hold_s: float) -> bool:
        """Whether this node fires timer (kind, ply) of the game: always on a single node; in a
        cluster, the one node whose claim the store takes (a claim lapses after `hold_s`)."""
        if not self.bus.clustered:
            return True
        try:
            return self.store.claim_timer(live.id, kind, ply, self.bus.node, hold_s)
        except Exception as e:
            log.error("game %s: cannot claim its %s timer: %s", live.id, kind, e)
            return False

    def schedule_advance(self, live: LiveGame) -> None:
        if self._needs_server(live):
            task = asyncio.get_running_loop().create_task(self.advance(live))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _recheck_later(self, live: LiveGame, after_s: float) -> None:
        ply = live.ply()

        def again() -> None:
            if self.live.get(live.id) is live and live.ply() == ply:
                self.schedule_advance(live)

        asyncio.get_running_loop().call_later(after_s + 0.1, again)

    def _needs_server(self, live: LiveGame) -> bool:
        state = live.state
        if state.is_terminal() or live.failed or self.control.ended(live):
            return False
        p = state.current_player()
        return p == CHANCE or (p >= 0 and live.stored.seats[p]["kind"] == "agent")

    def _agent(self, live: LiveGame, seat: int) -> SeatPlayer:
        """The seat's player (server/seat_player.py: it sees only the seat's view), made once."""
        player = live.agents.get(seat)
        if player is None:
            name = live.stored.seats[seat]["agent"]
            player = SeatPlayer.new(name, live.game, seat, live.key, "agent")
            live.agents[seat] = player
        return player

    def _agent_is_fast(self, live: LiveGame, seat: int) -> bool:
        typical = self._agent_time.get((live.stored.game, live.stored.seats[seat]["agent"]))
        if typical is None:  # not timed yet: trust the agent's own word (a fresh server's first replies)
            return self._agent(live, seat).quick
        return typical < INLINE_AGENT_S

    def _think(self, live: LiveGame, seat: int, state: State) -> int:
        """The seat's agent's action in `state` (after `live.ply()` or the folded steps' plies; the
        agent sees only the seat's view of it), timing the thinking alone (a thread hand-off waits
        for the busy event loop; counting that wait would keep a fast agent in the thread pool for
        good)."""
        player = self._agent(live, seat)
        key = (live.stored.game, live.stored.seats[seat]["agent"])
        started = time.perf_counter()
        try:
            return player.choose(state, len(state.history()))
        finally:
            took = time.perf_counter() - started
            typical = self._agent_time.get(key)
            # A moving average: a long think (a search) sends the agent to a thread for dozens of
            # steps (its instant forced moves do not bring it back at once), while one step slowed
            # by the machine does not move an agent that takes microseconds.
            self._agent_time[key] = took if typical is None else 0.9 * typical + 0.1 * took

    async def _agent_step(self, live: LiveGame, seat: int, state: State) -> int:
        """Ask the seat's agent for its action. A slow agent (search) thinks in a worker thread so the
        server keeps answering everyone else; an agent that has been fast (under INLINE_AGENT_S per
        step) runs inline, saving the thread hand-off that would cost more than its thinking."""
        if self._agent_is_fast(live, seat):
            return self._think(live, seat, state)
        return await asyncio.to_thread(self._think, live, seat, state.clone())

    async def advance(self, live: LiveGame) -> None:
        """Play chance and agent seats until a human is to move or the game ends."""
        retries = 0
        while True:
            async with live.lock:
                if live.id not in self.live or not self._needs_server(live):
                    return
                if self.bus.clustered:
                    # Once in the cluster: the node whose claim on this ply the store takes plays it;
                    # the others look again when the claim lapses (its node may have died).
                    await self.catch_up_locked(live)
                    if not self._needs_server(live):
                        return
                    if not self.claim_timer(live, "advance", live.ply(), ADVANCE_CLAIM_S):
                        self._recheck_later(live, ADVANCE_CLAIM_S)
                        return
                state = live.state
                player = state.current_player()
                try:
                    if player == CHANCE:
                        # Fixed by the secret key and the ply: a restart or an undo draws the same outcome.
                        action = chance_outcome(state, live.key)
                    else:
                        action = await self._agent_step(live, player, state)
                    text = state.action_to_string(action)
                    new_state = await self._applied(live, state, action)
                except Exception as e:  # an agent bug must not kill the server; the players are told
                    who = self.seat_label(live, player) if player >= 0 else "chance"
                    live.failed = f"the server could not play {who}: {e}"
                    await self.broadcast(live)
                    return
                try:
                    await self._commit(live, [(player, text, new_state)])
                except ServiceError as e:
                    if e.status != 503:
                        return
                    failed_write = True
                else:
                    failed_write = False
                    await self.broadcast(live)
            if failed_write:
                # The store failed: the move is not lost, it is played again once the store works
                # (the same chance outcome and, agents being seeded, the same move).
                retries += 1
                await asyncio.sleep(STORE_RETRY_S[min(retries, len(STORE_RETRY_S)) - 1])
            else:
                retries = 0

    async def undo(self, gid: str, token: str | None) -> int:
        """Take back this seat's last move and everything after it (only against AI)."""
        live = self.get(gid)
        seat = self.seat_for(live, token)
        if not self.against_ai_only(live, seat):
            raise ServiceError(403, "no_undo", "undo is only for a game against AI (you the only human seat)")
        async with live.lock:
            if self.control.ended(live):
                raise ServiceError(409, "game_over", "undo refused: there is no undo after the end")
            steps, refusal = self._undo_steps(live, seat)
            if steps is None:
                raise ServiceError(409, "nothing_to_undo", "you have no move to take back")
            if refusal is not None:
                code = "game_over" if live.state.is_terminal() else "outcome_revealed"
                raise ServiceError(409, code, f"undo refused: {refusal}")
            keep = live.ply() - steps
            new_state = undo(live.state, steps)
            try:
                self.store.truncate_actions(live.id, keep)
            except Exception as e:
                raise self._store_failed(f"undo in game {live.id}", e) from None
            for key in [k for k in live.sent_texts if k[1] >= keep]:
                del live.sent_texts[key]
            live.state = new_state
            del live.log[keep:]
            del live.stories[keep:]
            live.failed = None
            await self.broadcast(live, sync=True, rewound=True)
            return live.ply()

    async def hint(self, gid: str, token: str | None) -> dict[str, Any]:
        live = self.get(gid)
        seat = self.seat_for(live, token)
        if not self.can_hint(live, seat):
            raise ServiceError(
                403,
                "no_hint",
                "hints are allowed only against AI or when the game was created "
                "with hints on (and the game must have a hint agent)",
            )
        async with live.lock:
            state = live.state.clone()
            ply = live.ply()
        if state.current_player() != seat:
            raise ServiceError(409, "not_your_turn", "a hint is for your own turn")
        name = self._hint_agent_name(live.game)
        assert name is not None  # hints are offered only in games that have an agent for them
        # The hint knows what this seat knows (server/seat_player.py), like every AI seat.
        helper = SeatPlayer.new(name, live.game, seat, live.key, "hint", ply)
        try:
            action, reason = await asyncio.to_thread(helper.choose_with_reason, state, ply)
        except IllegalChoice:
            raise ServiceError(
                500, "hint_failed", "the hint agent suggested a move that is not legal here"
            ) from None
        agent = helper.agent
        # Only reasons in players' words are shown (no search statistics, no hidden readings),
        # and only when they add something to the move itself ("Roll the die.").
        text = state.describe_action(action)
        reason = advice(reason) if reason and agent.speaks_plainly else None
        if reason and reason.rstrip(".").lower() == text.rstrip(".").lower():
            reason = None
        return {
            "ok": True,
            "move": state.action_to_string(action),  # for the board (renderers mark it)
            "text": text,  # for people: the kernel's words
            "explanation": reason,
            "ply": ply,
        }

    def moment(self, gid: str, token: str | None, ply: int) -> dict[str, Any]:
        """What the token's seat saw right after `ply` actions (a log line clicked): the game is
        replayed to that point and only that seat's view is sent, as at the time."""
        live = self.get(gid)
        seat = self.seat_for(live, token)
        log = list(live.log)
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(log):
            raise ServiceError(400, "bad_ply", f"move {ply!r} is not in this game (0 to {len(log)})")
        stored = live.stored
        state = (
            live.game.state_from_position(stored.start)
            if stored.start is not None
            else live.game.new_initial_state(seed=setup_seed(stored))
        )
        for _seat, text in log[:ply]:
            state.apply_action(state.string_to_action(text))
        snap = self.snapshot(live, seat, sync=False, state=state, ply=ply)
        # A moment is drawn on its own: it carries the whole view (static part included).
        return {**snap, "view": state.view(seat), "can_undo": False, "can_hint": False, "moment": True}

    def record(self, gid: str, token: str | None) -> GameRecord:
        live = self.get(gid)
        self.seat_for(live, token)  # any seat or spectator of this game
        return self.game_record(live)

    def game_record(self, live: LiveGame) -> GameRecord:
        """The game's record, refused while a game with hidden information is on (it shows all)."""
        if type(live.game).has_hidden_information and not self.control.ended(live):
            raise ServiceError(
                403,
                "record_hidden",
                "this game has hidden information: its record (which shows "
                "everything) can be downloaded once the game is over",
            )
        names = [self.seat_label(live, i) for i in range(len(live.stored.seats))]
        extra = self.control.record_extra(live)
        record = GameRecord.from_state(
            live.state, players=names, practice=live.stored.practice, forfeits=extra.pop("forfeits")
        )
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
        if self.control.ended(live):
            out["secret_key"] = live.key.hex()
        return out

    def extra(self, gid: str, token: str | None, name: str, params: dict[str, Any]) -> Any:
        live = self.get(gid)
        seat = self.seat_for(live, token)
        spec = spec_of(live.game)
        hook = spec.extra if spec is not None else None
        if hook is None:
            raise ServiceError(404, "no_extra", f"{live.stored.game} offers no extra data")
        try:
            return hook(live.state, seat, name, params)
        except TrapworksError as e:
            raise ServiceError(400, "bad_extra", str(e)) from None
        except KeyError:
            raise ServiceError(404, "no_extra", f"{live.stored.game} offers no extra data {name!r}") from None

    # --- replay of a record in the browser ----------------------------------------------------
    @staticmethod
    def replay_steps(record: GameRecord, seat: int | None = None, limit: int = 5000) -> dict[str, Any]:
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or seat < 0):
            raise ServiceError(
                400, "bad_seat", f"seat {seat!r}: a seat number from 0, or null for a spectator"
            )
        if len(record.actions) > limit:
            raise ServiceError(
                413, "record_too_long", f"record has {len(record.actions)} actions; at most {limit}"
            )
        try:
            game = make(record.game, **record.options)
        except TrapworksError as e:
            raise ServiceError(400, "bad_record", str(e)) from None
        except TypeError as e:
            raise ServiceError(400, "bad_record", f"record options: {e}") from None
        if seat is not None and seat >= game.num_players():
            raise ServiceError(
                400,
                "bad_seat",
                f"seat {seat}: this {record.game} game has seats 0-{game.num_players() - 1}",
            )
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
                        "events": state.last_events(seat),
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
            raise ServiceError(400, "bad_record", str(e)) from None
        except ValueError as e:
            raise ServiceError(400, "bad_record", f"record forfeits: {e}") from None
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
            "actions": record.actions,
            "renderer": renderer_url(record.game),
            "steps": steps,
        }

    async def replay(self, record_data: dict[str, Any], seat: int | None) -> bytes:
        """replay_steps in a worker process (a 5,000-move record takes seconds of CPU): the event
        loop keeps serving every game meanwhile. At most CPU_QUEUE replays run or wait. The answer
        comes back as JSON bytes, encoded in the worker: encoding megabytes of views is CPU work too."""
        if self._cpu_slots.locked():
            raise ServiceError(503, "busy", "the server is busy with other replays; try again in a moment")
        async with self._cpu_slots:
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
        self._apply_pool.shutdown(wait=False, cancel_futures=True)


def _background_priority() -> None:
    """A worker process yields the CPU to the server's event loop (replays are background work)."""
    with contextlib.suppress(OSError):
        os.nice(10)


def _replay_job(record_data: dict[str, Any], seat: int | None) -> bytes:
    """Runs in a worker process: the replay of a record as JSON, or the ServiceError it would raise."""
    import orjson

    from trapworks.core import RecordError

    try:
        record = GameRecord.from_dict(record_data)
    except RecordError as e:
        raise ServiceError(400, "bad_record", str(e)) from None
    return orjson.dumps(GameService.replay_steps(record, seat), option=orjson.OPT_NON_STR_KEYS)
