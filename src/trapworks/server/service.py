"""Games held by the web server: seats, tokens, views, AI seats and chance. No rule lives here.

Every rule question goes to the kernel: whose turn (`current_player`), what an action text means
(`string_to_action`, which raises with the reason), what a seat may see (`view`, `last_events`).
The service adds only the platform: who holds which seat (secret tokens), the order of writes
(store the action, then apply it, then tell the players), and playing the seats that are agents.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trapworks.agents import available_agents, make_agent
from trapworks.core import (
    CHANCE,
    Agent,
    Game,
    GameRecord,
    IllegalActionError,
    State,
    TrapworksError,
    UnknownGameError,
    available_games,
    game_class,
    make,
    sample_chance,
    story_entry,
    story_for,
    undo,
)
from trapworks.core.agent import ReasonedAgent, advice

from .store import PlyTaken, Store, StoredGame

# Agents asked for hints, best first (the game's own exact or strongest player).
HINT_AGENTS = ("perfect", "hard", "heuristic")
MAX_ACTION_TEXT = 200  # longer action texts are refused before the game parses them
# Agents whose recent steps took less than this run on the event loop itself (see _agent_step).
INLINE_AGENT_S = 0.002
# At most this many chance and fast-agent actions are stored together with a human's move.
MAX_FOLDED_REPLIES = 64
RENDERER_DIR = Path(__file__).resolve().parent.parent / "web" / "static" / "renderers"


class ServiceError(Exception):
    """A request the service refuses: `status` is the HTTP status, `message` says why."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def _seeded(*parts: Any) -> random.Random:
    # A stable seed from text: Python's hash() of str is salted per process, sha256 is not.
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


@dataclass(eq=False)
class Connection:
    """One open socket: which seat it speaks for (None: spectator) and how to send to it."""

    seat: int | None
    # Sends one frame: a message (dict), or several in order (list) that arrive together.
    send: Callable[[dict[str, Any] | list[dict[str, Any]]], Awaitable[None]]


@dataclass(eq=False)
class LiveGame:
    stored: StoredGame
    game: Game
    state: State
    log: list[tuple[int, str]]  # (seat, text) per ply, exactly the stored rows
    # Per ply, the kernel's words for it (core.story_entry: whose turn, lines, private ones marked).
    stories: list[dict[str, Any]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    agents: dict[int, Agent] = field(default_factory=dict)
    failed: str | None = None  # an agent crashed: the reason, shown to the players
    human_seats: list[int] | None = None  # made on first use

    @property
    def id(self) -> str:
        return self.stored.id

    def ply(self) -> int:
        return len(self.log)


def renderer_url(game_id: str) -> str:
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
            own = getattr(kind, "hint_agent", None)  # the game's choice: plays from the seat's view
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
            name = str(s.get("name") or "")[:40] if isinstance(s, dict) else ""
            if kind == "human":
                seat_rows.append(
                    {"kind": "human", "agent": None, "name": name, "token": secrets.token_urlsafe(18)}
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
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise ServiceError(400, "bad_seed", f"seed {seed!r} must be a non-negative integer")
        try:
            state = (
                game.state_from_position(start) if start is not None else game.new_initial_state(seed=seed)
            )
        except TrapworksError as e:
            raise ServiceError(400, "bad_position", str(e)) from None
        stored = StoredGame(
            id=secrets.token_urlsafe(9),
            game=game_id,
            options=game.public_options(),
            seed=seed,
            start=start,
            seats=seat_rows,
            spectator_token=secrets.token_urlsafe(18),
            hints=bool(hints),
            created="",
        )
        self.store.create_game(stored)
        self.last_activity = time.monotonic()
        live = LiveGame(stored=stored, game=game, state=state, log=[])
        self.live[stored.id] = live
        self.schedule_advance(live)
        return live

    def get(self, gid: str) -> LiveGame:
        live = self.live.get(gid)
        if live is not None:
            return live
        if not isinstance(gid, str) or len(gid) > 64:
            raise ServiceError(404, "no_such_game", f"no game {gid!r}")
        stored = self.store.load_game(gid)
        if stored is None:
            raise ServiceError(404, "no_such_game", f"no game {gid!r} on this server")
        live = self._rebuild(stored)
        self.live[gid] = live
        self.schedule_advance(live)  # it may have stopped while an agent or chance was to move
        return live

    def _rebuild(self, stored: StoredGame) -> LiveGame:
        """Replay the stored actions: the state after a restart is the state before it."""
        try:
            game = make(stored.game, **stored.options)
            state = (
                game.state_from_position(stored.start)
                if stored.start is not None
                else game.new_initial_state(seed=stored.seed)
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
        return LiveGame(stored=stored, game=game, state=state, log=list(stored.actions), stories=stories)

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

    def disconnect(self, live: LiveGame, conn: Connection) -> None:
        """A socket closed. A finished game nobody watches any more leaves memory (it is in the
        store: a later request loads it again)."""
        # The game object may have been reloaded meanwhile; drop the connection from whichever holds it.
        live.connections.discard(conn)
        current = self.live.get(live.id)
        if current is not None:
            current.connections.discard(conn)
            if not current.connections and current.state.is_terminal():
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
        # An action's text can carry a secret (a card drawn, a die only one seat saw) in games with
        # hidden information: there a seat reads only its own actions' texts; events say the rest.
        if not live.game.has_hidden_information or (state or live.state).is_terminal():
            return text
        return text if viewer is not None and seat == viewer else None

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
            "view": state.view(viewer),
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
        if sync:
            msg["log"] = self.log_for(live, viewer)
        return msg

    def _can_undo(self, live: LiveGame, seat: int | None) -> bool:
        # From the end: in a game against AI the seat's own last move is a few plies back.
        return self.against_ai_only(live, seat) and any(s == seat for s, _ in reversed(live.log))

    def game_info(self, live: LiveGame, viewer: int | None) -> dict[str, Any]:
        return {
            "id": live.id,
            "game": live.stored.game,
            "title": type(live.game).title or live.stored.game,
            "options": live.stored.options,
            "seat": viewer,
            "players": self.players(live),
            "hints": live.stored.hints,
            "renderer": renderer_url(live.stored.game),
            "help": live.game.help_text(),
            "has_hidden_information": type(live.game).has_hidden_information,
            "created": live.stored.created,
        }

    async def broadcast(self, live: LiveGame, *, sync: bool = False) -> None:
        """Send every connection of the game its seat's view of the game now."""
        await self._deliver(live, lambda seat: self.snapshot(live, seat, sync=sync))

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
                await conn.send(frame[0] if isinstance(frame, list) and len(frame) == 1 else frame)
            except Exception:  # a closed socket: its handler removes it; others still get theirs
                live.connections.discard(conn)
        if reply_to is not None and reply_to not in live.connections:
            await reply_to.send(reply)  # a socket of a game object since reloaded: the reply still goes

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
    ) -> int:
        """Validate and apply one action of the token's seat; return the new ply count.

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
        if expected_ply is not None and (isinstance(expected_ply, bool) or not isinstance(expected_ply, int)):
            raise ServiceError(
                400, "bad_ply", f"ply {expected_ply!r} must be an integer (the move count you saw)"
            )
        if len(text) > MAX_ACTION_TEXT:
            raise ServiceError(400, "bad_action", f"an action text is at most {MAX_ACTION_TEXT} characters")
        shown = text.strip()
        async with live.lock:
            state = live.state
            if state.is_terminal():
                raise ServiceError(409, "game_over", "the game is over")
            if expected_ply is not None and expected_ply != live.ply():
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
                new_state = state.clone()
                new_state.apply_action(action)
            except IllegalActionError as e:
                raise ServiceError(422, "illegal_move", f"illegal move {shown!r}: {e.reason}") from None
            except TrapworksError as e:
                raise ServiceError(422, "illegal_move", f"illegal move {shown!r}: {e}") from None
            steps = [(seat, state.action_to_string(action), new_state)]
            first = live.ply()
            self._fast_replies(live, steps)
            await self._commit(live, steps)
            ack = {"type": "ack", "ref": ref, "ply": first + 1}
            await self._send_steps(live, first, steps, reply_to, ack)
        self.schedule_advance(live)
        return first + 1

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
        await self._deliver(
            live,
            lambda seat: [
                self.snapshot(live, seat, sync=False, state=after, ply=first + i + 1)
                for i, (_seat, _text, after) in enumerate(steps)
            ],
            reply_to,
            reply,
        )

    def _fast_replies(self, live: LiveGame, steps: list[tuple[int, str, State]]) -> None:
        """Append the moves of chance and of fast agents that follow steps[-1], while they are fast.

        Against a quick agent the reply then shares the human move's lock and commit: one
        transaction and no extra task per move, which is most of the server's work under load.
        A slow agent (a search) is left to advance(), which thinks in a thread.
        """
        state = steps[-1][2]
        first = live.ply()
        while len(steps) < MAX_FOLDED_REPLIES and not state.is_terminal():
            player = state.current_player()
            try:
                if player == CHANCE:
                    action = sample_chance(state, _seeded(live.stored.seed, "chance", first + len(steps)))
                elif live.stored.seats[player]["kind"] == "agent" and self._agent_is_fast(live, player):
                    action = self._think(live, player, state.clone())
                else:
                    return
                after = state.clone()
                text = after.action_to_string(action)
                after.apply_action(action)
            except Exception:  # advance() plays this seat again and reports a failure to the players
                return
            steps.append((player, text, after))
            state = after

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
                before = live.state
                for _seat, _text, after in steps:
                    action = after.history()[-1]
                    live.stories.append(story_entry(before.story_owner(action), after, action))
                    before = after
                live.state = steps[-1][2]
                live.log.extend(actions)

        stored.add_done_callback(adopt)
        try:
            await asyncio.shield(stored)
        except PlyTaken:
            # Another server process wrote this ply: our copy is stale; reload it from the store.
            self.live.pop(live.id, None)
            raise ServiceError(409, "stale", "another move was stored first; reload the game") from None

    def schedule_advance(self, live: LiveGame) -> None:
        if self._needs_server(live):
            task = asyncio.get_running_loop().create_task(self.advance(live))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _needs_server(self, live: LiveGame) -> bool:
        state = live.state
        if state.is_terminal() or live.failed:
            return False
        p = state.current_player()
        return p == CHANCE or (p >= 0 and live.stored.seats[p]["kind"] == "agent")

    def _agent(self, live: LiveGame, seat: int) -> Agent:
        agent = live.agents.get(seat)
        if agent is None:
            seed = _seeded(live.stored.seed, "agent", seat).randrange(2**31)
            agent = make_agent(live.stored.seats[seat]["agent"], live.game, seat, seed=seed)
            live.agents[seat] = agent
        return agent

    def _agent_is_fast(self, live: LiveGame, seat: int) -> bool:
        typical = self._agent_time.get((live.stored.game, live.stored.seats[seat]["agent"]))
        if typical is None:  # not timed yet: trust the agent's own word (a fresh server's first replies)
            return self._agent(live, seat).quick
        return typical < INLINE_AGENT_S

    def _think(self, live: LiveGame, seat: int, position: State) -> int:
        """The seat's agent's action in `position` (a copy it may change), timing the thinking alone
        (a thread hand-off waits for the busy event loop; counting that wait would keep a fast agent
        in the thread pool for good)."""
        agent = self._agent(live, seat)
        key = (live.stored.game, live.stored.seats[seat]["agent"])
        started = time.perf_counter()
        try:
            return agent.step(position)
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
            return self._think(live, seat, state.clone())
        return await asyncio.to_thread(self._think, live, seat, state.clone())

    async def advance(self, live: LiveGame) -> None:
        """Play chance and agent seats until a human is to move or the game ends."""
        while True:
            async with live.lock:
                if live.id not in self.live or not self._needs_server(live):
                    return
                state = live.state
                player = state.current_player()
                ply = live.ply()
                try:
                    if player == CHANCE:
                        # One RNG per (game seed, ply): a restart draws the same outcome at the same ply.
                        action = sample_chance(state, _seeded(live.stored.seed, "chance", ply))
                    else:
                        action = await self._agent_step(live, player, state)
                    new_state = state.clone()
                    text = new_state.action_to_string(action)
                    new_state.apply_action(action)
                except Exception as e:  # an agent bug must not kill the server; the players are told
                    live.failed = f"the server could not play {self.seat_label(live, player) if player >= 0 else 'chance'}: {e}"
                    await self.broadcast(live)
                    return
                try:
                    await self._commit(live, [(player, text, new_state)])
                except ServiceError:
                    return
                await self.broadcast(live)

    async def undo(self, gid: str, token: str | None) -> int:
        """Take back this seat's last move and everything after it (only against AI)."""
        live = self.get(gid)
        seat = self.seat_for(live, token)
        if not self.against_ai_only(live, seat):
            raise ServiceError(403, "no_undo", "undo is only for a game against AI (you the only human seat)")
        async with live.lock:
            mine = [p for p, (s, _) in enumerate(live.log) if s == seat]
            if not mine:
                raise ServiceError(409, "nothing_to_undo", "you have no move to take back")
            keep = mine[-1]
            new_state = undo(live.state, live.ply() - keep)
            self.store.truncate_actions(live.id, keep)
            live.state = new_state
            del live.log[keep:]
            del live.stories[keep:]
            live.failed = None
            await self.broadcast(live, sync=True)
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
        rng = _seeded(live.stored.seed, "hint", ply)
        agent = make_agent(name, live.game, seat, seed=rng.randrange(2**31))
        # The hint knows what this seat knows: with hidden information the agent gets a state
        # resampled from the seat's view, never the true one.
        position = state.resample(seat, rng) if type(live.game).has_hidden_information else state
        if isinstance(agent, ReasonedAgent):  # the move and its reason from one decision
            action, reason = await asyncio.to_thread(agent.choose, position.clone())
        else:
            action = await asyncio.to_thread(agent.step, position.clone())
            reason = await asyncio.to_thread(agent.explain, position.clone())
        if action not in state.legal_actions():  # a resample must keep the seat's own choices
            raise ServiceError(500, "hint_failed", "the hint agent suggested a move that is not legal here")
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
            else live.game.new_initial_state(seed=stored.seed)
        )
        for _seat, text in log[:ply]:
            state.apply_action(state.string_to_action(text))
        snap = self.snapshot(live, seat, sync=False, state=state, ply=ply)
        return {**snap, "can_undo": False, "can_hint": False, "moment": True}

    def record(self, gid: str, token: str | None) -> GameRecord:
        live = self.get(gid)
        self.seat_for(live, token)  # any seat or spectator of this game
        if type(live.game).has_hidden_information and not live.state.is_terminal():
            raise ServiceError(
                403,
                "record_hidden",
                "this game has hidden information: its record (which shows "
                "everything) can be downloaded once the game is over",
            )
        names = [self.seat_label(live, i) for i in range(len(live.stored.seats))]
        return GameRecord.from_state(live.state, players=names)

    def extra(self, gid: str, token: str | None, name: str, params: dict[str, Any]) -> Any:
        live = self.get(gid)
        seat = self.seat_for(live, token)
        hook = getattr(live.state, "web_extra", None)
        if hook is None:
            raise ServiceError(404, "no_extra", f"{live.stored.game} offers no extra data")
        try:
            return hook(seat, name, params)
        except TrapworksError as e:
            raise ServiceError(400, "bad_extra", str(e)) from None
        except KeyError:
            raise ServiceError(404, "no_extra", f"{live.stored.game} offers no extra data {name!r}") from None

    # --- replay of a record in the browser ----------------------------------------------------
    @staticmethod
    def replay_steps(record: GameRecord, seat: int | None = None, limit: int = 5000) -> dict[str, Any]:
        if len(record.actions) > limit:
            raise ServiceError(
                413, "record_too_long", f"record has {len(record.actions)} actions; at most {limit}"
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
        except TrapworksError as e:
            raise ServiceError(400, "bad_record", str(e)) from None
        try:
            game = make(record.game, **record.options)
        except TrapworksError as e:
            raise ServiceError(400, "bad_record", str(e)) from None
        return {
            "game": record.game,
            "title": type(game).title,
            "options": game.public_options(),
            "players": record.players,
            "actions": record.actions,
            "renderer": renderer_url(record.game),
            "steps": steps,
        }

    async def shutdown(self) -> None:
        for task in list(self._tasks):
            task.cancel()
