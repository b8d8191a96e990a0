"""The agent interface every player program implements (OpenSpiel's Bot, in short)."""

from __future__ import annotations

import random
import re
from typing import Any

from .game import CHANCE, Game, State, sample_chance


class Agent:
    """Chooses actions for one seat. Agents read only `state.view(seat)`, or a state
    resampled from the seat's view, so hidden information stays hidden."""

    name: str = "agent"
    # A hint for programs that host agents: True when a step never searches (about a millisecond
    # or less), so a host may run it without handing it to another thread.
    quick: bool = False
    # The level ("easy", "medium", "hard") this agent was made for, when made by level name.
    level: str | None = None
    # True when `explain` gives its reasons in players' words, from the seat's own knowledge (a
    # hint shows them then; search statistics and readings of hidden state are never shown).
    speaks_plainly: bool = False

    def __init__(self, game: Game, seat: int, seed: int | None = None, **options: Any):
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)
        self.options = options

    def step(self, state: State) -> int:
        """Return the action to play in `state` (where `state.current_player() == seat`)."""
        raise NotImplementedError

    def explain(self, state: State) -> str | None:
        """An optional sentence on why the agent would play what it plays."""
        return None

    def explain_typed(self, state: State) -> Reason | None:
        """`explain` as the page gets it: a typed message of the game's catalog where the agent
        has one (the page words it in the viewer's language), else its sentence."""
        return self.explain(state)

    def restart(self) -> None:
        """Forget anything learned during a game (called before a new game)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seat={self.seat})"


# An agent's reason for its move: a sentence (in the first person, English), or a typed message
# of the game's catalog ({"msg", "args"}, issue 37) that each front end words in its language.
Reason = str | dict[str, Any]


class ReasonedAgent(Agent):
    """An agent that picks an action and says why in one go: implement `choose(state)` returning
    (action, reason); `step` and `explain` come from it."""

    def choose(self, state: State) -> tuple[int, Reason]:
        raise NotImplementedError

    def step(self, state: State) -> int:
        return self.choose(state)[0]

    def explain(self, state: State) -> str | None:
        reason = self.choose(state)[1]
        if isinstance(reason, dict):  # a typed reason: in English, "you" for the agent's seat
            from .messages import format_message

            return format_message(reason, type(self.game), viewer=self.seat)
        return reason

    def explain_typed(self, state: State) -> Reason | None:
        return self.choose(state)[1]


_FIRST_PERSON = (
    (r"\bI am\b", "you are"),
    (r"\bI\b", "you"),
    (r"\bmy\b", "your"),
    (r"\bMy\b", "Your"),
    (r"\bmine\b", "yours"),
    (r"\bme\b", "you"),
)


def advice(reason: str) -> str:
    """An agent's reason, written in the first person ("the portrait shows my own pawn"), as
    advice to the seat it plays for ("...your own pawn"), starting with a capital letter."""
    for pattern, repl in _FIRST_PERSON:
        reason = re.sub(pattern, repl, reason)
    reason = reason.strip()
    return reason[:1].upper() + reason[1:] if reason else reason


def play_game(state: State, agents: list[Agent], rng: random.Random, max_actions: int | None = None) -> State:
    """Play `state` to the end: chance by `rng`, seats by their agents."""
    n = 0
    while not state.is_terminal():
        if max_actions is not None and n >= max_actions:
            break
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(agents[player].step(state))
        n += 1
    return state
