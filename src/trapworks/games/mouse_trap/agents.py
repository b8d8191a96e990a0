"""The heuristic agent for Mouse Trap: cranks whenever it can, and pays cheese only to roll for
mice that one die can bring onto the Cheese Wheel, the richest first (a capture hands over their
cheese)."""

from __future__ import annotations

from typing import Any

from trapworks.core import ReasonedAgent
from trapworks.core.agent import Reason

from .data import CHEESE_WHEEL, LOOP_START, NUM_PARTS, SPACES
from .game import BUILD, CRANK, END, MOVE_BASE, P_BUILD, P_CRANK, P_STEAL, ROLL, STEAL_BASE, MouseTrapState


def distance_to_wheel(position: int) -> int:
    """Spaces a mouse must move to land exactly on the Cheese Wheel (0 when on it)."""
    if position >= LOOP_START:
        return (CHEESE_WHEEL - position) % (CHEESE_WHEEL - LOOP_START + 1)
    return CHEESE_WHEEL - position


def richest_target_in_reach(state, legal: list[int]) -> int | None:
    """The `move:P` action for the richest opponent whose mouse one die can bring onto the Cheese
    Wheel (a capture hands over their cheese), or None."""
    reachable = [
        a
        for a in legal
        if MOVE_BASE <= a < MOVE_BASE + 4 and 1 <= distance_to_wheel(state.mice[a - MOVE_BASE]) <= 6
    ]
    return max(reachable, key=lambda a: (state.cheese[a - MOVE_BASE], -a)) if reachable else None


def _hint(kind: str, **args: Any) -> dict[str, Any]:
    """A reason as a typed message of the game's catalog (mouse_trap.hint.*, i18n/*.po)."""
    return {"msg": f"mouse_trap.hint.{kind}", "args": args}


# What landing on a space does for the mouse, in the words of a roll's outlook (roll_outlook).
OUTLOOK_ORDER = ("build", "cheese", "wheel", "crank", "ahead", "setback", "nothing")


def landing(state, pos: int) -> str:
    """What landing on space `pos` does for the mouse to move, as one of OUTLOOK_ORDER."""
    space = SPACES[pos]
    kind = space["kind"]
    if kind in ("build", "loop_build"):
        return "build" if state.game.builds_here[pos] and state.parts < NUM_PARTS else "nothing"
    if kind == "cheese_wheel" or (kind == "go_to" and space["target"] == CHEESE_WHEEL):
        return "wheel"
    if kind in ("take", "steal_most"):
        return "cheese"
    if kind == "turn_crank":
        return "crank"
    if kind == "move_ahead" or (kind == "go_to" and space["target"] > pos):
        return "ahead"
    if kind in ("lose", "go_back", "go_to"):
        return "setback"
    return "nothing"


def roll_outlook(state) -> dict[str, Any]:
    """The reason for a roll that is the only move (issue 39: "Roll the die." said nothing): what
    the six numbers bring from where the mouse stands ("4 build a part, 1 takes cheese and 1 sets
    you back"), the game's own movement deciding where each lands."""
    pos = state.mice[state.to_move]
    counts: dict[str, int] = {}
    for die in range(1, 7):
        what = landing(state, MouseTrapState.advance(pos, die))
        counts[what] = counts.get(what, 0) + 1
    items = [_hint(f"roll_{what}", n=counts[what]) for what in OUTLOOK_ORDER if what in counts]
    return _hint("roll_from", at=pos, outlook=items)


class HeuristicAgent(ReasonedAgent):
    speaks_plainly = True  # its reasons are sentences about the board everyone sees
    name = "heuristic"

    def choose(self, state) -> tuple[int, Reason]:
        legal = state.legal_actions()
        if legal == [ROLL]:
            return ROLL, roll_outlook(state)
        if state.phase == P_BUILD:
            return BUILD, _hint("build")
        if state.phase == P_STEAL:
            best = max(legal, key=lambda a: (state.cheese[a - STEAL_BASE], -a))
            return best, _hint("take_richest", whom=best - STEAL_BASE)
        if state.phase == P_CRANK:
            if CRANK in legal:
                return CRANK, _hint("crank")
            if state.game.capture_chance > 0:
                best = richest_target_in_reach(state, legal)
                if best is not None:
                    n = distance_to_wheel(state.mice[best - MOVE_BASE])
                    return best, _hint("pay_richest", whom=best - MOVE_BASE, n=n)
            return END, _hint("end")
        return legal[0], _hint("only")


class DoubleCatchAgent(HeuristicAgent):
    """The heuristic, except where a rule allows paying while a mouse is on the Cheese Wheel
    (000): with an opponent already there and another opponent's mouse one die from it, it pays
    to roll for that one before turning the crank, hoping to catch two mice with one firing.

    Why: a miss costs one cheese and leaves the first mouse on the Wheel (the crank is still
    there to turn), while a hit makes the firing worth two players' cheese and, in a 3-player
    game, the win. Precise rollouts (bench/mouse_trap_decisions.py, docs/mouse-trap.md) found
    this the one place where the heuristic's move is clearly not the best."""

    name = "double-catch"

    def choose(self, state) -> tuple[int, Reason]:
        legal = state.legal_actions()
        if state.phase == P_CRANK and CRANK in legal and state.game.capture_chance > 0:
            best = richest_target_in_reach(state, legal)
            if best is not None:
                n = distance_to_wheel(state.mice[best - MOVE_BASE])
                return best, _hint("pay_before_crank", whom=best - MOVE_BASE, n=n)
        return super().choose(state)
