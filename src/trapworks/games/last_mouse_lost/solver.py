"""Exact solver for a round of Last Mouse Lost, both rule sets.

Basic rules are misère Nim with one heap per row (its raised mice). Advanced rules are the
same game with one heap per run of adjacent raised mice: pressing part of a run of n leaves
two runs a and b with a + b <= n - 1. The misère-Nim rule holds for both:

    The player to move loses exactly when
      (a) every heap has at most 1 mouse and the number of heaps is odd, or
      (b) some heap has 2 or more mice and the nim-sum (XOR) of the heap sizes is 0.

Why the rule holds for the advanced game (the proof in docs/last-mouse-lost.md, and an
exhaustive check in tests/test_lml_solver.py): every Nim move (shrink one heap) is also an
advanced move (press the end of a run), so the winning replies of misère Nim are available;
and every advanced move from a heap n leaves heaps a, b with a XOR b <= a + b < n, so it
changes the nim-sum exactly as a Nim move would (never to the same value), which is all the
misère-Nim proof uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trapworks.core import Agent, State, TrapworksError
from trapworks.core.messages import format_message
from trapworks.core.spec import MoveVerdict

from .game import ROW_NAMES, LastMouseLostState, mice_text, runs_of


@dataclass
class Heap:
    row: int
    start: int  # index of the first mouse of the heap (advanced: a run); basic: unused
    size: int
    mask: int  # the raised mice that make up this heap


@dataclass
class Solution:
    outcome: str  # "win" or "loss" for the player to move
    move: str | None  # a winning move in action notation, or None
    action: int | None
    nim_sum: int
    heaps: list[int]
    explanation: str
    rules: str
    player: int
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "move": self.move,
            "action": self.action,
            "player_to_move": self.player + 1,
            "rules": self.rules,
            "heaps": self.heaps,
            "nim_sum": self.nim_sum,
            "explanation": self.explanation,
        }


def heaps_of(state: LastMouseLostState) -> list[Heap]:
    game = state.game
    heaps = []
    for r, (raised, n) in enumerate(zip(state.rows, game.board, strict=False)):
        if not raised:
            continue
        if game.advanced:
            for start, size in runs_of(raised, n):
                heaps.append(Heap(r, start, size, ((1 << size) - 1) << start))
        else:
            heaps.append(Heap(r, 0, bin(raised).count("1"), raised))
    return heaps


def mover_wins(sizes: list[int]) -> bool:
    """The misère-Nim rule: does the player to move win with heaps `sizes`?"""
    nim_sum = 0
    big = False
    for s in sizes:
        nim_sum ^= s
        big = big or s >= 2
    if big:
        return nim_sum != 0
    ones = sum(1 for s in sizes if s == 1)
    return ones % 2 == 0


def _press_action(state: LastMouseLostState, heap: Heap, leave: int) -> int:
    """The action pressing all but `leave` mice of a heap (the leftmost `leave` stay raised)."""
    game = state.game
    if not game.advanced:
        return game.row_offset[heap.row] + heap.size - leave - 1
    pressed = ((1 << (heap.size - leave)) - 1) << (heap.start + leave)
    return game.run_action[(heap.row, pressed)]


def _msg(name: str, **args: Any) -> dict[str, Any]:
    """A typed message of the game's catalog (issue 37): the solver's words in every language."""
    return {"msg": f"last_mouse_lost.solver.{name}", "args": args}


def _describe(state: LastMouseLostState, heap: Heap) -> dict[str, Any]:
    name = ROW_NAMES[heap.row]
    if state.game.advanced:
        return _msg("heap_run", n=heap.size, row=name, mice=mice_text(heap.mask))
    return _msg("heap_row", n=heap.size, row=name)


def _plan(
    state: LastMouseLostState, heaps: list[Heap], big: list[Heap], nim_sum: int, listing: str
) -> tuple[dict[str, Any], tuple[Heap, int] | None]:
    """Why the position is won or lost, as a typed message addressed to the player to move, and
    the winning target (the heap, and how many mice of it to leave raised), or None when every
    move loses."""
    advanced = state.game.advanced
    unit, units = (_msg("unit_run"), _msg("unit_runs")) if advanced else (_msg("unit_row"), _msg("unit_rows"))
    target: tuple[Heap, int] | None = None
    if not big:
        ones = len(heaps)
        if ones == 1:
            plan = _msg("last_one", unit=unit)
        elif ones % 2 == 0:
            target = (heaps[0], 0)
            plan = (
                _msg("even_two", n=ones, units=units)
                if ones == 2
                else _msg("even_more", n=ones, units=units, m=ones - 1)
            )
        else:
            plan = _msg("odd", n=ones, units=units)
    elif len(big) == 1:
        h = big[0]
        ones = len(heaps) - 1
        leave = 1 if ones % 2 == 0 else 0
        target = (h, leave)
        singles = ones + leave
        # One mouse left is "a single mouse" the opponent must press, not "1 single mice" that
        # players "take one each" of (wording found in review, issue 13).
        heap = _describe(state, h)
        plan = (
            _msg("one_big_single", heap=heap, k=h.size - leave)
            if singles == 1
            else _msg("one_big_odd", heap=heap, k=h.size - leave, s=singles)
        )
    elif nim_sum == 0:
        plan = _msg("lost", units=units, listing=listing)
    else:
        for h in heaps:
            leave = h.size ^ nim_sum
            if leave < h.size:
                target = (h, leave)
                break
        assert target is not None
        h, leave = target
        plan = _msg(
            "nim",
            units=units,
            unit=unit,
            listing=listing,
            x=nim_sum,
            k=h.size - leave,
            heap=_describe(state, h),
            leave=leave,
        )
    return plan, target


def solve(state: State) -> Solution:
    """Outcome of the current round for the player to move, and a winning move if any."""
    if not isinstance(state, LastMouseLostState):
        raise TrapworksError("the Last Mouse Lost solver needs a Last Mouse Lost state")
    if state.is_terminal():
        raise TrapworksError("the match is over: there is nothing to solve")
    if state.is_chance_node():
        raise TrapworksError("the opener is still to be drawn: solve once a player is to move")
    game = state.game
    heaps = heaps_of(state)
    sizes = [h.size for h in heaps]
    nim_sum = 0
    for s in sizes:
        nim_sum ^= s
    big = [h for h in heaps if h.size >= 2]
    listing = ", ".join(str(s) for s in sizes)
    plan, target = _plan(state, heaps, big, nim_sum, listing)

    move = action = None
    if target is not None:
        h, leave = target
        action = _press_action(state, h, leave)
        move = state.action_to_string(action)
        plan = _msg("winning_move", text=plan, move=move)
    outcome = "win" if target is not None else "loss"
    # The English of the typed plan (the CLI's and the API's words; the page words the typed one).
    text = format_message(plan, type(game))
    solution = Solution(outcome, move, action, nim_sum, sizes, text, game.rules, state.current_player())
    solution.extra["explanation_msg"] = plan
    return solution


def judge_move(state: State, action: int) -> MoveVerdict | None:
    """The solver's word on one move (`GameSpec.judge_move`, for the review of a finished game).

    The position before the move is won or lost for the mover (`solve`). In a lost one every
    move loses against best play. In a won one the move is winning when it is the solver's move,
    or when the round goes on (nobody pressed the last mouse: the score is unchanged) and the
    position it leaves is lost for the opponent, now to move. A move that ends the round lost it:
    whoever presses the last mouse loses the round. None where nobody is to move (the opener
    still to be drawn, the match over)."""
    if not isinstance(state, LastMouseLostState) or state.is_terminal() or state.is_chance_node():
        return None
    sol = solve(state)
    if sol.outcome == "loss":
        return MoveVerdict("loss", "losing", None)
    winning = action == sol.action
    if not winning:
        after = state.clone()
        after.apply_action(action)
        round_goes_on = not after.is_terminal() and after.score == state.score
        winning = round_goes_on and solve(after).outcome == "loss"
    return MoveVerdict("win", "winning" if winning else "losing", sol.move)


class PerfectAgent(Agent):
    """Plays the solver's winning move; in a lost position, the move that leaves the most
    room for an opponent's mistake (one mouse from the largest heap)."""

    name = "perfect"
    speaks_plainly = True  # the solver explains its move in sentences (Last Mouse Lost hides nothing)

    def step(self, state: State) -> int:
        if state.is_chance_node():
            raise TrapworksError("agents do not play chance nodes")
        sol = solve(state)
        if sol.action is not None:
            return sol.action
        assert isinstance(state, LastMouseLostState)  # solve() above accepted it
        h = max(heaps_of(state), key=lambda x: x.size)
        return _press_action(state, h, h.size - 1)

    def explain(self, state: State) -> str | None:
        return solve(state).explanation

    def explain_typed(self, state: State) -> dict[str, Any] | None:
        return solve(state).extra["explanation_msg"]
