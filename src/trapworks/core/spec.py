"""What a game provides, declared once: a frozen `GameSpec` that each game package exports as `SPEC`.

    SPEC = GameSpec(
        game=MouseTrapGame, state=MouseTrapState,
        notation=Notation(parse=parse_position, write=write_position),
        render_text=render_text, encoder=MouseTrapEncoder,
        agents=(AgentSpec("heuristic", HeuristicAgent, "Rule-of-thumb player"),),
        levels={"hard": "double-catch"}, hint_agent="hard",
        stats=game_stats, explore_grid=explore_grid,
        renderer="mouse-trap.js", howto=("On your turn click Roll the die...",),
    )

Every hook is a real object (a class, a function), never a "module:attr" string, and the spec is
checked when it is made (`validate`): a missing or wrong hook fails at once with its name, not
when the hook is first called. Games are found through the `trapworks.games` entry-point group
(core/registry.py), so a game can live in another package; everything else (OpenSpiel parameters,
Gymnasium ids, the lobby's words, the how-to, the docs' option tables) is derived from the spec
and the game's option schema.

The spec is the one source of truth: making a spec links it to its Game class (`Game.spec`)
and copies nothing onto the classes; the kernel, the agents and the platform read every hook
through `spec_of(game)`. Agents are found through declared fields (`rollout_agent`,
`hint_agent`, `levels`), never by a conventional name.

Every optional hook has a default or its absence is declared, and the tests that iterate the
games skip what a game does not offer (Take-away, tests/fixtures/extgame, a game from another
package that declares only `game` and `state`, passes them all):
- no notation: no position text (`State.position` raises; records replay from their actions);
- no render_text: the position text, or the spectator's view as JSON;
- no encoder: no research adapters (they list only the games with one);
- no docs page: no options table (docs/<id>.md, or README.md in the game's own folder);
- no howto: no how-to steps; no catalog: its words stay in English (i18n/<lang>.po in its folder);
- no agents: the generic ones, and the levels' generic search;
- no rollout_agent: uniformly random rollouts and no prior; no hint_agent: the "hard" level.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from trapworks.core.words import plural

from .agent import Agent
from .encoding import Encoder
from .errors import TrapworksError
from .game import Game, State
from .views import view_shape

# The difficulty levels every game offers (trapworks.agents.levels resolves them).
LEVEL_NAMES = ("easy", "medium", "hard")


class SpecError(TrapworksError):
    """A game's spec is missing a hook or has a wrong one; the message names the hook."""

    def __init__(self, game_id: str, hook: str, problem: str):
        self.game_id = game_id
        self.hook = hook
        super().__init__(f"{game_id or 'a game'}: spec hook {hook!r}: {problem}")


@dataclass(frozen=True)
class Notation:
    """A game's position notation (like chess's FEN): parse(game, text) -> state, write(state) -> text."""

    parse: Callable[[Any, str], Any]
    write: Callable[[Any], str]


@dataclass(frozen=True)
class AgentSpec:
    """One of a game's own agents: `factory(game, seat, seed=..., **settings)` makes it; `words`
    are what a player reads in the lobby. An `analysis` agent reads what no seat may know (an
    oracle): it is made by name for simulations and tournaments, never offered to play against."""

    name: str
    factory: Callable[..., Agent]
    words: str
    analysis: bool = False


@dataclass(frozen=True)
class MoveVerdict:
    """A game's own word on one move of a finished game, for its review (`GameSpec.judge_move`):
    `outcome` is what the position before the move was for the player to move with best play
    ("win" or "loss"), `verdict` what the move made of it ("winning": it keeps a won position
    won; "losing" otherwise, every move of a lost position included), `best` a winning move in
    the game's action notation where the position had one (None in a lost position)."""

    outcome: str
    verdict: str
    best: str | None = None

    def __post_init__(self) -> None:
        if self.outcome not in ("win", "loss"):
            raise ValueError(f"a move verdict's outcome is 'win' or 'loss', got {self.outcome!r}")
        if self.verdict not in ("winning", "losing"):
            raise ValueError(f"a move verdict is 'winning' or 'losing', got {self.verdict!r}")
        if self.outcome == "loss" and self.verdict == "winning":
            raise ValueError("no move of a lost position is winning")

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "best": self.best, "verdict": self.verdict}


# What a level maps to: an agent's name, or a dict of settings (trapworks.agents.levels).
LevelSpec = str | Mapping[str, Any]


def _frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class GameSpec:
    """Everything a game provides to the platform. Only `game` and `state` are required."""

    game: type[Game]
    state: type[State]
    notation: Notation | None = None
    # The terminal drawing: render_text(state, seat) -> text (None: the position text).
    render_text: Callable[[Any, int | None], str] | None = None
    # The observation encoder (a trapworks.core.encoding.Encoder subclass, made with the game).
    encoder: type[Encoder] | None = None
    agents: tuple[AgentSpec, ...] = ()
    # Level -> the agent that plays it or the generic search's settings (trapworks.agents.levels).
    levels: Mapping[str, LevelSpec] = field(default_factory=dict)
    # The agent that gives hints (and whose choice a review shows): it must play from the hinted
    # seat's knowledge only. None: the "hard" level, which every game offers.
    hint_agent: str | None = None
    # The game's own agent that tree search (agents/mcts.py, agents/ismcts.py) and the rollout
    # agent play rollouts with, take as a prior and value cut rollouts by (its `evaluate`, where
    # it has one). None: uniformly random rollouts and no prior.
    rollout_agent: str | None = None
    # stats(final_state, events) -> {column: scalar}: a finished game's own statistics.
    stats: Callable[[Any, Any], dict[str, Any]] | None = None
    # explore_grid(game_class) -> [{"label": str, "options": dict}]: `trapworks explore`'s cells.
    explore_grid: Callable[[Any], list[dict[str, Any]]] | None = None
    # solver(position_text, **options) -> a solution with to_dict(): `trapworks solve`.
    solver: Callable[..., Any] | None = None
    # judge_move(state, action) -> MoveVerdict | None: the game's exact word on one move (the
    # review of a finished game marks each move winning or losing with it; the server compares
    # nothing itself). None for a position it cannot judge (a chance node, the game over); a game
    # without this hook is reviewed with its hint agent's choice beside each move.
    judge_move: Callable[[Any, int], MoveVerdict | None] | None = None
    # The web renderer: a file name under the front end's renderers folder (generic.js: the
    # generic one, which draws any game from its views and legal actions).
    renderer: str = "generic.js"
    # "How to play" steps for the web page, in players' words (clicks, not notation).
    howto: tuple[str, ...] = ()
    # Extra data a renderer may ask for: extra(state, seat, name, params) -> JSON (KeyError: no
    # such data). None: the game offers none.
    extra: Callable[[Any, int | None, str, dict[str, Any]], Any] | None = None
    # The part of every view that never changes during a game (the board, its drawing):
    # static_view(game) -> dict, sent once with the game's info; views leave those keys out.
    static_view: Callable[[Any], dict[str, Any]] | None = None
    # The seat's dynamic view, typed: a TypedDict of what State.view(seat) returns, with the
    # fields only one seat may read marked core.views.Private (or inside PerSeat records); the
    # kernel strips them for every other viewer (State.view, State.view_for). None: untyped.
    view_type: type | None = None
    # The setup (a tray, a card deal) comes from a seed rather than from chance nodes: research
    # adapters take a `seed` parameter so that one loaded game always starts from the same setup.
    seeded_setup: bool = False
    # Hidden information as chance for tree search (the OpenSpiel adapter's `seed=-1`): a class
    # with `num_outcomes`, `takes_position` and `for_state(state)`, whose instances put the draws
    # the kernel makes from its seed (a deal, a pile's order, a tray) in the tree as chance nodes
    # (the protocol: trapworks.adapters._chance.ChanceLayer). None: the game has none.
    chance_layer: type | None = None
    # "module:Class" of a Gymnasium VectorEnv backed by the game's batched engine, for
    # `gymnasium.make_vec` (None: Gymnasium's copies of the single env). A name, not the class,
    # because the class needs the optional gymnasium and numba, loaded only when it is made.
    vector_env: str | None = None
    # Whether an action's text can carry a secret, so that a seat reads only its own actions'
    # texts until the end (State.action_text_visible). None: exactly when the game has hidden
    # information.
    secret_action_texts: bool | None = None
    # Options that make a short game (a small board, a short turn limit, few pieces): tests and
    # smoke runs start from them (the research tests' option sets are derived from them and the
    # schema).
    quick_options: Mapping[str, Any] = field(default_factory=dict)
    # The folder of the game's message catalog (issue 37, core/messages.py): <lang>.po files whose
    # message ids are the "msg" of every event and log line the game emits. None: it emits none.
    messages: Any = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "levels", _frozen(self.levels))
        object.__setattr__(self, "quick_options", _frozen(self.quick_options))
        object.__setattr__(self, "agents", tuple(self.agents))
        object.__setattr__(self, "howto", tuple(self.howto))
        self.validate()
        self.game.spec = self  # the one link: the kernel finds the spec from a game or a state

    # --- derived names ------------------------------------------------------------------
    @property
    def game_id(self) -> str:
        return self.game.game_id

    @property
    def title(self) -> str:
        return self.game.title or self.game.game_id

    @property
    def camel_name(self) -> str:
        """The id in CamelCase ("dead-end-drive" -> "DeadEndDrive"): Gymnasium ids use it."""
        return "".join(part.capitalize() for part in self.game_id.replace("_", "-").split("-"))

    @property
    def snake_name(self) -> str:
        """The id in snake_case ("dead-end-drive" -> "dead_end_drive"): OpenSpiel names use it."""
        return self.game_id.replace("-", "_")

    def agent(self, name: str) -> AgentSpec | None:
        return next((a for a in self.agents if a.name == name), None)

    def play_agents(self) -> dict[str, Callable[..., Agent]]:
        """The agents offered to play against, name -> factory."""
        return {a.name: a.factory for a in self.agents if not a.analysis}

    def analysis_agents(self) -> dict[str, Callable[..., Agent]]:
        return {a.name: a.factory for a in self.agents if a.analysis}

    def agent_words(self) -> dict[str, str]:
        return {a.name: a.words for a in self.agents}

    # --- checks -----------------------------------------------------------------------------
    def validate(self) -> None:
        """Check every hook; raise SpecError naming the first missing or wrong one."""
        gid = getattr(self.game, "game_id", "") if isinstance(self.game, type) else ""

        def fail(hook: str, problem: str) -> None:
            raise SpecError(gid, hook, problem)

        if not (isinstance(self.game, type) and issubclass(self.game, Game)):
            fail("game", f"must be a trapworks.core.Game subclass, got {self.game!r}")
        if not gid or not isinstance(gid, str):
            fail("game", f"{self.game.__name__} sets no game_id")
        if not (isinstance(self.state, type) and issubclass(self.state, State)):
            fail("state", f"must be a trapworks.core.State subclass, got {self.state!r}")
        if self.game.new_initial_state is Game.new_initial_state:
            fail("game", f"{self.game.__name__} does not implement new_initial_state")
        if self.game.num_players is Game.num_players:
            fail("game", f"{self.game.__name__} does not implement num_players")
        if self.state.current_player is State.current_player:
            fail("state", f"{self.state.__name__} does not implement current_player")
        if self.state.view is State.view and self.state._view is State._view:
            fail("state", f"{self.state.__name__} does not implement _view (or view)")
        if self.view_type is not None:
            try:
                view_shape(self.view_type)
            except TypeError as e:
                fail("view_type", str(e))
        if self.notation is not None:
            if not isinstance(self.notation, Notation):
                fail("notation", f"must be a Notation(parse=..., write=...), got {self.notation!r}")
            _check_callable(fail, "notation.parse", self.notation.parse, 2)
            _check_callable(fail, "notation.write", self.notation.write, 1)
        _check_callable(fail, "render_text", self.render_text, 2)
        if self.encoder is not None and not (
            isinstance(self.encoder, type) and issubclass(self.encoder, Encoder)
        ):
            fail("encoder", f"must be a trapworks.core.encoding.Encoder subclass, got {self.encoder!r}")
        self._validate_agents(fail)
        _check_callable(fail, "stats", self.stats, 2)
        _check_callable(fail, "explore_grid", self.explore_grid, 1)
        _check_callable(fail, "solver", self.solver, 1)
        _check_callable(fail, "judge_move", self.judge_move, 2)
        _check_callable(fail, "extra", self.extra, 4)
        _check_callable(fail, "static_view", self.static_view, 1)
        if not isinstance(self.renderer, str) or not self.renderer.endswith(".js") or "/" in self.renderer:
            fail("renderer", f"a .js file name in the renderers folder, got {self.renderer!r}")
        if self.vector_env is not None and not re.fullmatch(
            r"[A-Za-z_][\w.]*:[A-Za-z_]\w*", str(self.vector_env)
        ):
            fail("vector_env", f"'package.module:Class', got {self.vector_env!r}")
        if any(not isinstance(s, str) or not s.strip() for s in self.howto):
            fail("howto", "every step is a sentence")
        unknown = sorted(set(self.quick_options) - set(self.game.default_options))
        if unknown:
            fail("quick_options", f"unknown {plural(len(unknown), 'option')} {', '.join(unknown)}")

    def _validate_agents(self, fail: Callable[[str, str], None]) -> None:
        """The agents, and the levels, hint agent and rollout agent that name them."""
        names: set[str] = set()
        for i, a in enumerate(self.agents):
            if not isinstance(a, AgentSpec):
                fail(f"agents[{i}]", f"must be an AgentSpec, got {a!r}")
            if not a.name or not isinstance(a.name, str):
                fail(f"agents[{i}]", "has no name")
            if a.name in names:
                fail(f"agents[{i}]", f"the name {a.name!r} is used twice")
            names.add(a.name)
            _check_callable(fail, f"agents[{a.name!r}].factory", a.factory, 2)
            if not isinstance(a.words, str) or not a.words.strip():
                fail(f"agents[{a.name!r}].words", "say in a few words what this agent is, for the lobby")
        for level, value in self.levels.items():
            if level not in LEVEL_NAMES:
                fail(f"levels[{level!r}]", f"not a level; levels are {', '.join(LEVEL_NAMES)}")
            if isinstance(value, str):
                agent = self.agent(value)
                if agent is None or agent.analysis:
                    fail(f"levels[{level!r}]", f"names {value!r}, which is not one of the game's own agents")
            elif not isinstance(value, Mapping):
                fail(f"levels[{level!r}]", "must be an agent name or a dict of settings")
        if self.hint_agent is not None:
            allowed = {a.name for a in self.agents if not a.analysis} | set(LEVEL_NAMES)
            if self.hint_agent not in allowed:
                fail("hint_agent", f"{self.hint_agent!r} is neither a level nor one of the game's agents")
        if self.rollout_agent is not None:
            agent = self.agent(self.rollout_agent)
            if agent is None or agent.analysis:
                fail("rollout_agent", f"{self.rollout_agent!r} is not one of the game's own agents")

    def rollout_factory(self) -> Callable[..., Agent] | None:
        """The factory of the declared rollout agent (None: random rollouts)."""
        agent = self.agent(self.rollout_agent) if self.rollout_agent is not None else None
        return agent.factory if agent is not None else None


def _check_callable(fail: Callable[[str, str], None], hook: str, fn: Any, arity: int) -> None:
    """`fn` (None allowed) is callable with `arity` positional arguments."""
    if fn is None:
        return
    if not callable(fn):
        fail(hook, f"must be callable, got {fn!r}")
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return  # a builtin without a signature: trust it
    try:
        sig.bind(*([None] * arity))
    except TypeError as e:
        fail(
            hook,
            f"{getattr(fn, '__qualname__', fn)} cannot be called with "
            f"{arity} {plural(arity, 'argument')}: {e}",
        )


def static_view(game: Game) -> dict[str, Any] | None:
    """The static part of `game`'s views (its spec's `static_view`; None: it declares none),
    made once per game object."""
    cached = game.__dict__.get("_static_view")
    if cached is None:
        spec = spec_of(game)
        if spec is None or spec.static_view is None:
            return None
        cached = game.__dict__["_static_view"] = spec.static_view(game)
    found: dict[str, Any] = cached
    return found


def dynamic_view(state: State, seat: int | None) -> dict[str, Any]:
    """`state.view(seat)` without the static part's keys: what changes, sent with every update
    (the static part went once with the game's info; a front end puts the two together)."""
    view = state.view(seat)
    static = static_view(state.game)
    if not static:
        return view
    return {k: v for k, v in view.items() if k not in static}


def spec_of(game: Game | State | type[Game]) -> GameSpec | None:
    """The spec bound to a game, a game class or a state's game (None: no spec was made for it)."""
    if isinstance(game, State):
        game = game.game
    cls = game if isinstance(game, type) else type(game)
    found = getattr(cls, "spec", None)
    return found if isinstance(found, GameSpec) else None


__all__ = [
    "AgentSpec",
    "GameSpec",
    "LEVEL_NAMES",
    "MoveVerdict",
    "Notation",
    "SpecError",
    "dynamic_view",
    "spec_of",
    "static_view",
]
