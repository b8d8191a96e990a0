"""The game kernel: what a game and a state are, in OpenSpiel's vocabulary.

A `Game` is immutable rules plus options; it makes `State`s. A `State` is one position:
whose move it is (a seat number, `CHANCE`, or `TERMINAL`), the legal actions (integers),
the chance outcomes with their probabilities at chance nodes, and what each seat may see.

Subclasses implement the underscored hooks; the public methods here validate input first,
so an illegal or malformed action never changes a state.
"""

from __future__ import annotations

import copy
import json
import random
from bisect import bisect
from collections.abc import Iterable, Sequence
from itertools import accumulate
from typing import Any, ClassVar, Protocol

from trapworks.core.words import plural

from .errors import IllegalActionError, OptionError, PositionError
from .options import Option, check_options, untyped
from .views import ViewShape, strip_private, view_shape


class ViewEncoder(Protocol):
    """What a state asks of its game's encoder (trapworks.core.encoding.Encoder implements it;
    declared here so that the kernel's game module does not import the encoding module, which
    imports it)."""

    @property
    def low(self) -> float: ...
    @property
    def high(self) -> float: ...
    def observation_shape(self) -> tuple[int, ...]: ...
    def observation_size(self) -> int: ...
    def information_state_shape(self) -> tuple[int, ...]: ...
    def observation_tensor(self, view: dict[str, Any]) -> list[float]: ...
    def observation_string(self, view: dict[str, Any]) -> str: ...
    def information_state_tensor(self, view: dict[str, Any]) -> list[float]: ...
    def information_state_string(self, view: dict[str, Any], public_history: Sequence[int]) -> str: ...


# Same numbers as OpenSpiel's kChancePlayerId / kTerminalPlayerId, so adapters stay thin.
CHANCE = -1
TERMINAL = -4

# What a game's fast path (State._fast_apply) answers: not taken (0: the checked path applies the
# action), applied, or applied revealing an outcome nobody chose (a chance outcome...).
FAST_DECLINED = 0
FAST_APPLIED = 1
FAST_REVEALED = 2


class Game:
    """Rules and options of one game. Subclasses set the class attributes and hooks."""

    game_id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    # The game's options, declared once (core/options.py): names, types, choices, defaults, labels
    # and help. `Game.__init__` checks every value with it; the CLI and the web lobby read it.
    options_schema: ClassVar[tuple[Option, ...]] = ()
    # Derived from options_schema: option name -> default value; `make()` rejects other names.
    # A game may still declare it the old way (a dict, no schema): its options are then untyped and
    # only `_validate_options` checks them; options listed here and not in the schema are appended
    # to the schema as untyped, so a half-converted game keeps working.
    default_options: ClassVar[dict[str, Any]] = {}
    # Derived from options_schema (kept for older callers): name -> the values of choice options,
    # and name -> {choice JSON text: words} for their labels.
    option_choices: ClassVar[dict[str, list[Any]]] = {}
    option_labels: ClassVar[dict[str, dict[str, str]]] = {}
    # Whether some seat can ever lack information another seat has (cards, tensions...).
    has_hidden_information: ClassVar[bool] = False
    has_chance: ClassVar[bool] = False
    # The game's declaration (core/spec.py: a GameSpec), linked here when the spec is made: the
    # one source of every hook (notation, drawing, agents, levels...); the kernel reads them
    # from it and nothing is copied onto the classes.
    spec: ClassVar[Any] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__
        if "options_schema" not in own and "default_options" not in own:
            return  # inherits both from its parent
        schema = list(cls.options_schema)
        declared = {o.name for o in schema}
        if "default_options" in own:  # the old style: a dict of defaults
            schema += [untyped(k, v) for k, v in own["default_options"].items() if k not in declared]
        cls.options_schema = tuple(schema)
        cls.default_options = {o.name: o.default for o in schema}
        cls.option_choices = {o.name: list(o.choices) for o in schema if o.kind == "choice"}
        cls.option_labels = {o.name: dict(o.labels) for o in schema if o.labels}

    @classmethod
    def option(cls, name: str) -> Option:
        """The declared option called `name` (KeyError if there is none)."""
        for o in cls.options_schema:
            if o.name == name:
                return o
        raise KeyError(name)

    # Agents that `play_batch` can play (a compiled engine playing many games at once); a
    # simulation uses it when every seat's agent is listed here.
    batched_agents: ClassVar[frozenset[str]] = frozenset()
    # Whether that engine is compiled on first use (numba: warmed once before a run's workers
    # start, trapworks.sim.runner.engines_to_warm), not built at install (a C extension).
    batched_engine_jit: ClassVar[bool] = False

    def __init__(self, **options: Any):
        unknown = sorted(set(options) - set(self.default_options))
        if unknown:
            known = ", ".join(sorted(self.default_options)) or "none"
            raise OptionError(
                f"{self.game_id}: unknown {plural(len(unknown), 'option')} {', '.join(unknown)}; "
                f"known options: {known}"
            )
        merged = dict(self.default_options)
        merged.update(options)
        # The schema's checks first (types, choices, ranges), then the game's cross-checks.
        self.options: dict[str, Any] = self._validate_options(check_options(self.options_schema, merged))

    # --- hooks -----------------------------------------------------------------
    def _validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Checks the schema cannot express (one option's range depending on another) and
        normalisation; raise OptionError naming the bad option. Runs after the schema's checks."""
        return options

    def num_players(self) -> int:
        raise NotImplementedError

    def new_initial_state(self, seed: int | None = None) -> State:
        raise NotImplementedError

    def new_initial_state_from(self, rng: random.Random) -> State:
        """A new game whose random setup is drawn from `rng` (the environments' generator, which
        then draws the game's chance too): here its seed, one 63-bit draw. A game whose batched
        engine sets up from its stream otherwise (or draws nothing) says so, so that a single
        environment and the engine's vector environment play the same game from one stream."""
        return self.new_initial_state(seed=rng.getrandbits(63))

    def state_from_position(self, text: str) -> State:
        """Set up a state from the game's one-line position notation."""
        notation = getattr(type(self).spec, "notation", None)
        if notation is None:
            raise PositionError(text, f"{self.game_id} has no position notation")
        state: State = notation.parse(self, text)
        return state

    def max_game_length(self) -> int | None:
        return None

    def help_text(self) -> str:
        """How to write actions, for terminal prompts."""
        return ""

    # --- action spaces and utilities (OpenSpiel's GameInfo; the research adapters read these) ---
    def num_distinct_actions(self) -> int:
        """Player actions are ids 0..num_distinct_actions()-1 (some may never be legal)."""
        raise NotImplementedError(f"{self.game_id} does not state its action space")

    def chance_actions(self) -> tuple[int, ...]:
        """Every action id a chance node can produce under these options, in a fixed order.

        Chance outcome *numbers* (OpenSpiel's own space, from 0) are positions in this tuple:
        `chance_outcome_index(action)` and `chance_outcome_action(index)` map between them, so
        records and golden games keep the kernel's ids. Empty: no chance under these options.
        """
        return ()

    def max_chance_outcomes(self) -> int:
        return len(self.chance_actions())

    def chance_outcome_index(self, action: int) -> int:
        """The chance outcome number (0..max_chance_outcomes()-1) of a chance action id."""
        table = self.__dict__.get("_chance_index")
        if table is None:
            table = self._chance_index = {a: i for i, a in enumerate(self.chance_actions())}
        try:
            return table[action]
        except KeyError:
            raise ValueError(f"{self.game_id}: {action!r} is not a chance outcome") from None

    def chance_outcome_action(self, index: int) -> int:
        """The chance action id of a chance outcome number (inverse of chance_outcome_index)."""
        actions = self.chance_actions()
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(actions):
            raise ValueError(f"{self.game_id}: chance outcome {index!r} is not in 0..{len(actions) - 1}")
        return actions[index]

    def min_utility(self) -> float:
        """The lowest value returns() can give a seat."""
        return -1.0

    def max_utility(self) -> float:
        """The highest value returns() can give a seat."""
        return 1.0

    def utility_sum(self) -> float | None:
        """The sum of returns() in every terminal state, or None when it varies (general-sum)."""
        return 0.0

    # --- a game ended off the board (core/forfeit.py: resignations, time forfeits) ---------
    def forfeit_ends_game(self, remaining: Sequence[int]) -> bool:
        """Whether the game ends when only `remaining` seats are left in (the others resigned or
        lost on time). Default: it ends when at most one is left; otherwise it goes on."""
        return len(remaining) <= 1

    def forfeit_returns(self, state: State, out: frozenset[int]) -> list[float]:
        """Returns per seat when seats `out` left the game (the game ended by forfeit, or was
        played to its end with stand-ins for them). Default: out seats score the lowest utility;
        a game that ends with one seat left gives it the highest; a game played to its end keeps
        the others' own returns. In a zero-sum game the losers share the winner's gain."""
        n = state.num_players()
        low, high = self.min_utility(), self.max_utility()
        if state.is_terminal():
            returns = list(state.returns())
            return [low if s in out else r for s, r in enumerate(returns)]
        remaining = [s for s in range(n) if s not in out]
        if len(remaining) != 1:
            return [low] * n
        if self.utility_sum() == 0.0 and n > 1:
            share = -high / (n - 1)
            return [high if s in remaining else share for s in range(n)]
        return [high if s in remaining else low for s in range(n)]

    def encoder(self) -> ViewEncoder:
        """The game's observation encoder (its spec's `encoder`), made once."""
        enc = self.__dict__.get("_encoder")
        if enc is None:
            factory = getattr(type(self).spec, "encoder", None)
            if factory is None:
                raise NotImplementedError(f"{self.game_id} has no observation encoding")
            made: ViewEncoder = factory(self)
            enc = self._encoder = made
        return enc

    # --- copying and pickling ---------------------------------------------------
    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        # A game is immutable rules and options: copies of states (and of wrappers holding the
        # game, such as OpenSpiel's) share it.
        return self

    def __copy__(self) -> Game:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # A game is its class and options: its tables (move tables, the mansion...) are rebuilt
        # or found again on unpickling, never written into the pickle.
        return (_rebuild_game, (type(self), self.options))

    def play_batch(self, agents: Sequence[str], seeds: Sequence[int]) -> list[dict[str, Any]]:
        """Play one game per seed with `agents` (one name per seat, all in `batched_agents`).

        One row per game: "winners", "returns", "length" (actions, chance included),
        "truncated", and the game's own statistics.
        """
        raise NotImplementedError(f"{self.game_id} has no batched playouts")

    # --- conveniences ---------------------------------------------------------
    def public_options(self) -> dict[str, Any]:
        """Options as JSON-serialisable values (records keep these)."""
        return dict(self.options)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({opts})"


class State:
    """One position of a game. Subclasses implement the underscored hooks."""

    # Attributes that point into tables the game shares between its states (a transposition
    # table's node, a cache): deepcopy shares them, pickle leaves them out (as None; the state
    # must rebuild them on use), so neither ever copies the game's tables.
    shared_attrs: ClassVar[tuple[str, ...]] = ()

    def __init__(self, game: Game, seed: int | None = None, start: str | None = None):
        self.game = game
        self.seed = seed
        # Position text this state was set up from (None: the game's initial state).
        self.start = start
        self._history: list[int] = []
        # Events the last action caused (a round won, a trap sprung...): dicts with at least
        # "type" and "text"; an event with "to": [seats] is private to those seats.
        self._events: list[Any] = []  # event dicts (or what a game's all_events() makes them from)
        # Actions up to and including the last one that revealed an outcome nobody chose (a
        # chance outcome, a physics result): an int, so shallow clones cannot share it by mistake.
        self._revealed_upto = 0

    # --- who moves ---------------------------------------------------------------
    def current_player(self) -> int:
        raise NotImplementedError

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_truncated(self) -> bool:
        """True when a turn limit stopped the game: a terminal state that nobody won."""
        return False

    def num_players(self) -> int:
        return self.game.num_players()

    # --- actions ------------------------------------------------------------------
    def legal_actions(self, player: int | None = None) -> list[int]:
        """Legal actions of the player to move (chance outcomes at chance nodes).

        With `player` given and not the one to move, the list is empty (OpenSpiel's habit).
        """
        if self.is_terminal():
            return []
        if player is not None and player != self.current_player():
            return []
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        return self._legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(action, probability) pairs at a chance node; empty elsewhere."""
        if not self.is_chance_node():
            return []
        return self._chance_outcomes()

    def apply_action(self, action: int) -> None:
        """Apply a legal action; raise IllegalActionError (state unchanged) otherwise.

        The bookkeeping (the history, the last revealed outcome, the events' reset) lives here
        only. A game with a fast path for its common actions implements `_fast_apply`; anything
        it declines goes through the checked path: validation, then `_apply_action`."""
        if action.__class__ is int:
            done = self._fast_apply(action)
            if done:
                self._history.append(action)
                if done == FAST_REVEALED:
                    self._revealed_upto = len(self._history)
                return
        self._check_action(action)
        reveals = self.is_chance_node() or self.reveals_outcome(action)
        self._events = []
        self._apply_action(action)
        self._history.append(action)
        if reveals:
            self._revealed_upto = len(self._history)

    def _fast_apply(self, action: int) -> int:
        """A game's fast path: if `action` is a legal action this path knows, apply it (starting
        the action's events itself) and return FAST_APPLIED, or FAST_REVEALED when it revealed
        an outcome nobody chose; else change nothing and return FAST_DECLINED, leaving the action
        to the checked path. The kernel keeps the history either way."""
        return FAST_DECLINED

    def reveals_outcome(self, action: int) -> bool:
        """True when `action` (a seat's) reveals an outcome nobody chose, as a removal reveals how
        the tray settles. Chance outcomes always count; a game overrides this for the rest."""
        return False

    def revealed_upto(self) -> int:
        """How many of the history's actions reach the last revealed outcome (0: none yet)."""
        return getattr(self, "_revealed_upto", 0)

    def last_events(self, seat: int | None = None) -> list[dict[str, Any]]:
        """Events caused by the last action that `seat` may see (None: public ones only)."""
        return [e for e in self.all_events() if "to" not in e or (seat is not None and seat in e["to"])]

    def all_events(self) -> list[dict[str, Any]]:
        """Every event of the last action, private ones included (for the log's story, which
        sorts them out per seat). Games that make their events lazily make them here."""
        return self._events

    def stat_events(self) -> list[dict[str, Any]]:
        """Every event of the last action as the game's statistics read them (simulation rows):
        all_events, less what only a viewer needs, which a game may then never make (Booby
        Trap's removal animation)."""
        return self.all_events()

    # --- hooks a game implements -----------------------------------------------------
    def _legal_actions(self) -> list[int]:
        raise NotImplementedError

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        raise NotImplementedError

    def _apply_action(self, action: int) -> None:
        raise NotImplementedError

    def _check_action(self, action: Any) -> None:
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(action, "an action is an integer id; use string_to_action() for text")
        if self.is_terminal():
            raise IllegalActionError(action, "the game is over")
        reason = self._why_illegal(action)
        if reason:
            raise IllegalActionError(action, reason)

    def _why_illegal(self, action: int) -> str | None:
        """Return why `action` is illegal here, or None. Games may override with a faster test."""
        if action not in self.legal_actions():
            return f"not one of the {len(self.legal_actions())} legal actions in this state"
        return None

    def history(self) -> list[int]:
        return list(self._history)

    def move_number(self) -> int:
        return len(self._history)

    # --- notation -----------------------------------------------------------------
    def action_to_string(self, action: int, player: int | None = None) -> str:
        raise NotImplementedError

    def describe_action(self, action: int) -> str:
        """`action`, legal in this state, as advice to the seat to move in players' words
        ("Press 2 mice in row b"), saying nothing its result would reveal. Games override this;
        the default is the action's notation."""
        return self.action_to_string(action)

    def describe_message(self, action: int) -> dict[str, Any] | None:
        """`describe_action` as a typed message of the game's catalog ({"msg", "args"}: the
        page words it in the viewer's language); None where the game has none."""
        return None

    def string_to_action(self, text: str) -> int:
        """Parse action text in this state; raise IllegalActionError naming the problem.

        The default matches against the legal actions' own strings.
        """
        if not isinstance(text, str):
            raise IllegalActionError(text, "action text must be a string")
        wanted = text.strip().lower()
        for a in self.legal_actions():
            if self.action_to_string(a).lower() == wanted:
                return a
        raise IllegalActionError(text, "not a legal action here")

    def position(self) -> str:
        """The position in the game's notation (its spec's `notation.write`)."""
        notation = getattr(type(self.game).spec, "notation", None)
        if notation is None:
            raise NotImplementedError(f"{self.game.game_id} has no position notation")
        text: str = notation.write(self)
        return text

    # --- information --------------------------------------------------------------
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """A JSON-serialisable dict of what `seat` may know (None: a spectator): the game's
        `_view(seat)`, with every private field of its typed view (the spec's `view_type`,
        core/views.py) that is not `seat`'s replaced by its empty value."""
        return self.view_for(seat, seat)

    def view_for(self, seat: int | None, viewer: int | None) -> dict[str, Any]:
        """The view made for `seat` as `viewer` may read it (None: a spectator): the kernel
        strips the private fields that are not the viewer's (a hand-over screen, a review)."""
        view = self._view(seat)
        shape = _view_shape_of(self.game)
        return view if shape is None else strip_private(view, shape, seat, viewer)

    def _view(self, seat: int | None) -> dict[str, Any]:
        """The game's view for `seat` (None: a spectator), as its view type declares it."""
        raise NotImplementedError

    def resample(self, seat: int, rng: random.Random | None = None) -> State:
        """A state consistent with everything `seat` has seen, hidden parts re-drawn.

        Games without hidden information return a clone; games with secrets override
        `_resample` so that search never reads what the seat cannot see.
        """
        if seat is not None and not 0 <= seat < self.num_players():
            raise ValueError(f"seat {seat} does not exist (players: {self.num_players()})")
        if not self.game.has_hidden_information:
            return self.clone()
        return self._resample(seat, rng or random.Random())

    def _resample(self, seat: int, rng: random.Random) -> State:
        raise NotImplementedError(f"{self.game.game_id} must implement _resample")

    # --- the story of the game, in players' words ----------------------------------------
    def story_owner(self, action: int) -> int | None:
        """Whose turn `action`, about to be applied in this state, belongs to in the game's log:
        the seat to move, or for a chance action the seat it is rolled for (None: nobody's).
        Games fold their dice into the move they belong to by overriding this."""
        player = self.current_player()
        return player if player >= 0 else None

    def story(self, action: int) -> list[dict[str, Any]]:
        """What `action` (just applied to this state) did, as typed messages (core/messages.py):
        dicts with "msg" and "args" (seats as seat numbers) and, for a line private to some
        seats, "to". The default tells the action's events; games reword or add lines (an action
        that causes no event, a die folded into the move). Never engine notation."""
        return [
            {"msg": e["msg"], "args": e.get("args", {}), **({"to": list(e["to"])} if "to" in e else {})}
            for e in self.all_events()
            if e.get("msg")
        ]

    def chance_table(self) -> tuple[Sequence[int], Sequence[float]]:
        """The chance outcomes as (actions, cumulative probabilities), what `sample_chance`
        draws from. Games with few distinct chance nodes may return cached tables."""
        outcomes = self.chance_outcomes()
        return [a for a, _ in outcomes], list(accumulate(p for _, p in outcomes))

    # --- results ----------------------------------------------------------------
    def returns(self) -> list[float]:
        """One number per seat: final outcome when terminal, 0 elsewhere."""
        raise NotImplementedError

    def winners(self) -> list[int]:
        """Seats that won (empty before the end, or on a truncation)."""
        if not self.is_terminal() or self.is_truncated():
            return []
        r = self.returns()
        best = max(r)
        return [i for i, v in enumerate(r) if v == best and v > min(r)]

    # --- copying ------------------------------------------------------------------
    def clone(self) -> State:
        return copy.deepcopy(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        cls = type(self)
        if cls.clone is not State.clone:
            # The game's own clone is the cheap, complete copy (OpenSpiel, Ray and wrappers
            # deep-copy states all the time).
            new = self.clone()
            memo[id(self)] = new
            return new
        # The game is immutable and shared, and so are the tables it marks; the rest is copied.
        new = cls.__new__(cls)
        memo[id(self)] = new
        keep = ("game", *cls.shared_attrs)
        for k, v in self.__dict__.items():
            setattr(new, k, v if k in keep else copy.deepcopy(v, memo))
        return new

    def __getstate__(self) -> dict[str, Any]:
        # The game pickles as its class and options (Game.__reduce__); shared tables are left out.
        state = dict(self.__dict__)
        for k in type(self).shared_attrs:
            if k in state:
                state[k] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    # --- encodings (built from view(seat) only, so they can never carry a secret) ---------
    def observation_tensor(self, seat: int) -> list[float]:
        check_seat(self, seat)
        return self.game.encoder().observation_tensor(self.view(seat))

    def observation_string(self, seat: int) -> str:
        check_seat(self, seat)
        return self.game.encoder().observation_string(self.view(seat))

    def information_state_tensor(self, seat: int) -> list[float]:
        check_seat(self, seat)
        return self.game.encoder().information_state_tensor(self.view(seat))

    def information_state_string(self, seat: int) -> str:
        check_seat(self, seat)
        return self.game.encoder().information_state_string(self.view(seat), self.public_history())

    def public_history(self) -> list[int]:
        """The actions every seat has seen, in order (games with secret actions override)."""
        return self.history()

    def action_text_visible(self, actor: int | None, viewer: int | None) -> bool:
        """Whether `viewer` (None: a spectator) may read the text of an action seat `actor`
        played in this game, as things stand in this state. The game declares it in its spec
        (`secret_action_texts`; unset: secret exactly when the game has hidden information): a
        secret text (a card drawn, a die only one seat saw) is read by its own seat only until
        the game is over; events say the rest."""
        spec = type(self.game).spec
        declared = getattr(spec, "secret_action_texts", None)
        secret = self.game.has_hidden_information if declared is None else declared
        if not secret or self.is_terminal():
            return True
        return viewer is not None and actor == viewer

    # --- presentation -------------------------------------------------------------
    def render_text(self, seat: int | None = None) -> str:
        """A drawing for the terminal from `seat`'s point of view."""
        renderer = getattr(type(self.game).spec, "render_text", None)
        if renderer is not None:
            drawn: str = renderer(self, seat)
            return drawn
        if getattr(type(self.game).spec, "notation", None) is not None:
            return self.position()
        return json.dumps(self.view(seat), sort_keys=True)  # a game that declares neither

    def __str__(self) -> str:
        return self.render_text()

    def __repr__(self) -> str:
        if getattr(type(self.game).spec, "notation", None) is None:
            return f"<{type(self).__name__} after {self.history()!r}>"
        return f"<{type(self).__name__} {self.position()!r}>"


def _view_shape_of(game: Game) -> ViewShape | None:
    """The shape of the view type the game's spec declares (None: no typed view)."""
    spec = getattr(type(game), "spec", None)
    view_type = getattr(spec, "view_type", None)
    return None if view_type is None else view_shape(view_type)


def story_entry(owner: int | None, state: State, action: int) -> dict[str, Any]:
    """The log entry of one ply: whose turn it belongs to and its typed lines, from the state
    right after `action`; `owner` is `story_owner` asked before it. The kernel's boundary: a
    line whose message id the game's catalog does not declare raises UndeclaredMessage."""
    from .messages import check_messages

    lines = [dict(line) for line in state.story(action)]
    check_messages(state.game, lines)
    return {"seat": owner, "lines": lines}


def checked_events(state: State, seat: int | None = None) -> list[dict[str, Any]]:
    """`state.last_events(seat)`, each message id checked against the game's catalog (the
    boundary where events leave the kernel for a front end)."""
    from .messages import check_messages

    events = state.last_events(seat)
    check_messages(state.game, events)
    return events


def story_for(entry: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """A log entry as `viewer` may read it (None: a spectator): private lines of others left out."""
    lines = [
        {"msg": line["msg"], "args": line.get("args", {})}
        for line in entry["lines"]
        if "to" not in line or (viewer is not None and viewer in line["to"])
    ]
    return {"seat": entry["seat"], "lines": lines}


_GAME_CACHE: dict[tuple[type, str], Game] = {}


def _rebuild_game(cls: type[Game], options: dict[str, Any]) -> Game:
    """Unpickle a game: one object per class and options in this process (games are immutable)."""
    key = (cls, repr(sorted(options.items())))
    game = _GAME_CACHE.get(key)
    if game is None:
        if len(_GAME_CACHE) > 256:
            _GAME_CACHE.clear()
        game = _GAME_CACHE[key] = cls(**options)
    return game


_Random = random.Random


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw one chance outcome by its probability.

    The draw is exactly `rng.choices(actions, weights)[0]` (the same number from the same
    generator, so seeded games and records replay), without rebuilding the weights each time.
    """
    actions, cum = state.chance_table()
    total = cum[-1]
    if total > 0.0 and (rng.__class__ is _Random or isinstance(rng, _Random)):
        return actions[bisect(cum, rng.random() * total, 0, len(cum) - 1)]
    return rng.choices(actions, cum_weights=cum)[0]  # also raises on a bad total


def apply_sequence(state: State, actions: Iterable[int | str]) -> State:
    """Apply actions (ids or text) in order; errors name the step that failed."""
    for i, a in enumerate(actions):
        try:
            state.apply_action(state.string_to_action(a) if isinstance(a, str) else a)
        except IllegalActionError as e:
            raise IllegalActionError(a, f"at step {i + 1}: {e.reason}") from None
    return state


def stats_hook(game_cls: type[Game]) -> Any:
    """The game's statistics hook (its spec's `stats`), or None."""
    return getattr(game_cls.spec, "stats", None)


def game_statistics(state: State, events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A finished game's own statistics through its `stats` hook ({} for a game without one).

    Values are scalars (int, float, str, bool or None) so that each becomes a typed column.
    """
    hook = stats_hook(type(state.game))
    if hook is None:
        return {}
    result: dict[str, Any] = hook(state, events)
    return result


def explore_cells(game_cls: type[Game]) -> list[dict[str, Any]]:
    """The default cells `trapworks explore` compares for a game (its `explore_grid` hook)."""
    grid = getattr(game_cls.spec, "explore_grid", None)
    if grid is None:
        return [{"label": "defaults", "options": {}}]
    cells: list[dict[str, Any]] = grid(game_cls)
    return cells


def legal_action_strings(state: State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def check_seat(state: State, seat: Any) -> None:
    if seat is None:
        return
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_players():
        raise ValueError(f"seat {seat!r} does not exist; seats are 0..{state.num_players() - 1}")


__all__: Sequence[str] = [
    "CHANCE",
    "TERMINAL",
    "FAST_APPLIED",
    "FAST_DECLINED",
    "FAST_REVEALED",
    "Game",
    "State",
    "sample_chance",
    "checked_events",
    "story_entry",
    "story_for",
    "apply_sequence",
    "legal_action_strings",
    "check_seat",
    "game_statistics",
    "explore_cells",
]
