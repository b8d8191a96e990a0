"""The heuristic agent for Mouse Trap: cranks whenever it can, and pays cheese only to roll for
mice that one die can bring onto the Cheese Wheel, the richest first (a capture hands over their
cheese)."""

from __future__ import annotations

from trapworks.core import ReasonedAgent

from .data import CHEESE_WHEEL, LOOP_START
from .game import BUILD, CRANK, END, MOVE_BASE, P_BUILD, P_CRANK, P_STEAL, ROLL, STEAL_BASE


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


class HeuristicAgent(ReasonedAgent):
    speaks_plainly = True  # its reasons are sentences about the board everyone sees
    name = "heuristic"

    def choose(self, state) -> tuple[int, str]:
        legal = state.legal_actions()
        if legal == [ROLL]:
            return ROLL, "Roll the die."
        if state.phase == P_BUILD:
            return BUILD, "Build: one more part of the trap and a cheese per part."
        if state.phase == P_STEAL:
            best = max(legal, key=lambda a: (state.cheese[a - STEAL_BASE], -a))
            return best, f"Take from player {best - STEAL_BASE + 1}, the richest of the tied rivals."
        if state.phase == P_CRANK:
            if CRANK in legal:
                return CRANK, "An opposing mouse is on the Cheese Wheel: turn the crank."
            if state.game.capture_chance > 0:
                best = richest_target_in_reach(state, legal)
                if best is not None:
                    return best, (
                        f"Pay 1 cheese: player {best - MOVE_BASE + 1}'s mouse is "
                        f"{distance_to_wheel(state.mice[best - MOVE_BASE])} spaces from the "
                        "Cheese Wheel, a 1-in-6 shot, and the richest target."
                    )
            return END, "No mouse within one die of the Cheese Wheel: keep the cheese and end the turn."
        return legal[0], "The only move."


class DoubleCatchAgent(HeuristicAgent):
    """The heuristic, except where a rule allows paying while a mouse is on the Cheese Wheel
    (000): with an opponent already there and another opponent's mouse one die from it, it pays
    to roll for that one before turning the crank, hoping to catch two mice with one firing.

    Why: a miss costs one cheese and leaves the first mouse on the Wheel (the crank is still
    there to turn), while a hit makes the firing worth two players' cheese and, in a 3-player
    game, the win. Precise rollouts (bench/mouse_trap_decisions.py, docs/mouse-trap.md) found
    this the one place where the heuristic's move is clearly not the best."""

    name = "double-catch"

    def choose(self, state) -> tuple[int, str]:
        legal = state.legal_actions()
        if state.phase == P_CRANK and CRANK in legal and state.game.capture_chance > 0:
            best = richest_target_in_reach(state, legal)
            if best is not None:
                return best, (
                    f"Pay 1 cheese before cranking: player {best - MOVE_BASE + 1}'s mouse is "
                    f"{distance_to_wheel(state.mice[best - MOVE_BASE])} spaces from the Cheese "
                    "Wheel; a hit catches two mice with one firing, a miss still leaves the crank."
                )
        return super().choose(state)
