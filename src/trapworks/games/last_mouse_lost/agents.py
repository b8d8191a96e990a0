"""The heuristic agent for Last Mouse Lost: the endgame everyone learns, and no more.

It knows the endgame rule of misère Nim (when at most one row, or run, holds two or more mice,
leave your opponent an odd number of single mice) and looks one move ahead: it takes a move that
hands the opponent a lost endgame, avoids moves that hand them a won one or press the last mouse
itself, and otherwise plays at random. It does not know the nim-sum, which decides the middle of
the game: the exact solver (`perfect`, the hard level) beats it, and it beats random play.
"""

from __future__ import annotations

from trapworks.core import ReasonedAgent, TrapworksError
from trapworks.core.agent import Reason

from .solver import heaps_of, mover_wins, solve


class HeuristicAgent(ReasonedAgent):
    name = "heuristic"

    def choose(self, state) -> tuple[int, Reason]:
        if state.is_chance_node() or state.is_terminal():
            raise TrapworksError("the heuristic plays only a player's turn")
        legal = state.legal_actions()
        if sum(1 for h in heaps_of(state) if h.size >= 2) <= 1:
            sol = solve(state)  # the endgame rule decides it exactly
            if sol.action is not None:
                return sol.action, sol.extra["explanation_msg"]
        winning, safe = [], []
        for action in legal:
            after = state.clone()
            after.apply_action(action)
            if after.score != state.score or after.is_terminal():
                continue  # this presses the last mouse: the round is lost
            sizes = [h.size for h in heaps_of(after)]
            if sum(1 for s in sizes if s >= 2) > 1:
                safe.append(action)  # still the middle game
            elif not mover_wins(sizes):
                winning.append(action)  # an endgame the opponent loses
            # else: an endgame the opponent wins; avoided
        if winning:
            return self.rng.choice(winning), {"msg": "last_mouse_lost.heuristic.wins_endgame", "args": {}}
        if safe:
            return self.rng.choice(safe), {"msg": "last_mouse_lost.heuristic.keeps_safe", "args": {}}
        return self.rng.choice(legal), {"msg": "last_mouse_lost.heuristic.all_lose", "args": {}}
