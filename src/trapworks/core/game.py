"""The game kernel: what a game and a state are, in OpenSpiel's vocabulary.

A `Game` is immutable rules plus options; it makes `State`s. A `State` is one position:
whose move it is (a seat number, `CHANCE`, or `TERMINAL`), the legal actions (integers),
the chance outcomes with their probabilities at chance nodes, and what each seat may see.

Subclasses implement the underscored hooks; the public methods here validate input first,
so an illegal or malformed action never changes a state.
"""

from __future__ import annotations

import copy
import random
from bisect import bisect
from collections.abc import Iterable, Sequence
from itertools import accumulate
from typing import Any, ClassVar

from .errors import IllegalActionError, OptionError, PositionError

# Same numbers as OpenSpiel's kChancePlayerId / kTerminalPlayerId, so adapters stay thin.
CHANCE = -1
TERMINAL = -4


class Game:
    """Rules and options of one game. Subclasses set the class attributes and hooks."""

    game_id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    # option name -> default value; `make()` rejects names not listed here.
    default_options: ClassVar[dict[str, Any]] = {}
    # Options with a fixed set of values: name -> the values (front ends offer them as a list).
    option_choices: ClassVar[dict[str, list[Any]]] = {}
    # How a choice is shown to people (the lobby), per option, keyed by the choice's JSON text,
    # e.g. {"first_player": {"0": "Player 1", "1": "Player 2"}}; unlisted choices show as themselves.
    option_labels: ClassVar[dict[str, dict[str, str]]] = {}
    # Whether some seat can ever lack information another seat has (cards, tensions...).
    has_hidden_information: ClassVar[bool] = False
    has_chance: ClassVar[bool] = False
    # Agents this game provides, name -> "module:callable" or callable(game, seat, seed).
    agents: ClassVar[dict[str, Any]] = {}
    # Agents that `play_batch` can play (a compiled engine playing many games at once); a
    # simulation uses it when every seat's agent is listed here.
    batched_agents: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, **options: Any):
        unknown = sorted(set(options) - set(self.default_options))
        if unknown:
            known = ", ".join(sorted(self.default_options)) or "none"
            raise OptionError(
                f"{self.game_id}: unknown option(s) {', '.join(unknown)}; known options: {known}"
            )
        merged = dict(self.default_options)
        merged.update(options)
        self.options: dict[str, Any] = self._validate_options(merged)

    # --- hooks -----------------------------------------------------------------
    def _validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Check and normalise options; raise OptionError naming the bad one."""
        return options

    def num_players(self) -> int:
        raise NotImplementedError

    def new_initial_state(self, seed: int | None = None) -> State:
        raise NotImplementedError

    def state_from_position(self, text: str) -> State:
        """Set up a state from the game's one-line position notation."""
        raise PositionError(text, f"{self.game_id} has no position notation")

    def max_game_length(self) -> int | None:
        return None

    def help_text(self) -> str:
        """How to write actions, for terminal prompts."""
        return ""

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

    def __init__(self, game: Game, seed: int | None = None, start: str | None = None):
        self.game = game
        self.seed = seed
        # Position text this state was set up from (None: the game's initial state).
        self.start = start
        self._history: list[int] = []
        # Events the last action caused (a round won, a trap sprung...): dicts with at least
        # "type" and "text"; an event with "to": [seats] is private to those seats.
        self._events: list[dict[str, Any]] = []

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
        """Apply a legal action; raise IllegalActionError (state unchanged) otherwise."""
        self._check_action(action)
        self._events = []
        self._apply_action(action)
        self._history.append(action)

    def last_events(self, seat: int | None = None) -> list[dict[str, Any]]:
        """Events caused by the last action that `seat` may see (None: public ones only)."""
        return [e for e in self._events if "to" not in e or (seat is not None and seat in e["to"])]

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
        raise NotImplementedError

    # --- information --------------------------------------------------------------
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """A JSON-serialisable dict of what `seat` may know (None: a spectator)."""
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

    def __deepcopy__(self, memo):
        # The game is immutable and shared; everything else is copied.
        cls = type(self)
        new = cls.__new__(cls)
        memo[id(self)] = new
        for k, v in self.__dict__.items():
            setattr(new, k, v if k == "game" else copy.deepcopy(v, memo))
        return new

    # --- presentation -------------------------------------------------------------
    def render_text(self, seat: int | None = None) -> str:
        """A drawing for the terminal from `seat`'s point of view."""
        return self.position()

    def __str__(self) -> str:
        return self.render_text()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.position()!r}>"


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw one chance outcome by its probability.

    The draw is exactly `rng.choices(actions, weights)[0]` (the same number from the same
    generator, so seeded games and records replay), without rebuilding the weights each time.
    """
    actions, cum = state.chance_table()
    total = cum[-1]
    if total > 0.0 and isinstance(rng, random.Random):
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
    "Game",
    "State",
    "sample_chance",
    "apply_sequence",
    "legal_action_strings",
    "check_seat",
]
