"""Information Set MCTS for games with hidden information: single-observer IS-MCTS (SO-ISMCTS).

The form (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree Search"):
one tree for the searching seat's information set; every iteration draws a fresh
determinization with `state.resample(seat, rng)` (a state consistent with everything this
seat has seen, all it cannot see re-drawn by the game) and walks the tree restricted to the
actions that are legal in that determinization. Edges are keyed by action id, so the
statistics of "play X" are shared across all determinizations in which X is legal; a
child's UCB uses its *availability* count (how often it was legal when its parent was
visited) in place of the parent's visits. Chance nodes are explicit, as in plain MCTS, with
probabilities taken from the current determinization (a deck's make-up is part of it).

Why this form: it needs nothing from a game beyond `resample(seat, rng)`, which every game
with secrets implements anyway; it searches one tree (no per-determinization trees to
average, unlike Perfect Information Monte Carlo), so its budget goes into one set of
statistics; and it avoids PIMC's worst flaw, strategy fusion at the root: the move is chosen
once for the whole information set, not separately per guessed deal. The multiple-observer
form (MO-ISMCTS) would also model what opponents can observe, but needs a per-seat
observation of every action, which the kernel does not define; SO-ISMCTS's known weakness
(opponent nodes are shared across deals, so the model of an opponent does not use that
opponent's own secrets) is the price of staying generic.

No peeking: the agent touches the true state only through `current_player()` and
`resample(self.seat, rng)`; every legal-action list, chance outcome and return it reads
comes from a determinization. tests/agents/test_search_ismcts.py poisons the hidden parts of the
true state and checks that the choices do not change.
"""

from __future__ import annotations

import math
from collections.abc import Hashable

from trapworks.core import State, TrapworksError, sample_chance

from .mcts import NO_HINT, MCTSAgent, Node


class ISMCTSAgent(MCTSAgent):
    """SO-ISMCTS; on a game without hidden information it is UCT over clones."""

    name = "ismcts"

    def _root_state(self, state: State) -> State:
        return state.resample(self.seat, self.rng)

    def _root_actions(self, state: State) -> list[int]:
        # The seat's own options, read from a determinization rather than the true state.
        return self._root_state(state).legal_actions()

    def _state_key(self, state: State) -> Hashable:
        return id(state)  # nothing more of the true state is read

    def search(self, state: State) -> Node:
        if state.current_player() != self.seat:
            raise TrapworksError(
                f"ismcts agent for seat {self.seat} asked to move "
                f"while seat {state.current_player()} is to move"
            )
        return super().search(state)

    # --- the tree-search core's hooks (mcts.py's _iterate): one tree over determinizations ---
    def _mover(self, node: Node, s: State) -> int:
        return s.current_player()  # a node is an information set: who moves is the sample's

    def _chance_outcome(self, node: Node, s: State) -> int:
        return sample_chance(s, self.rng)  # the determinization's own odds

    def _offer(self, node: Node, s: State, player: int) -> tuple[list[Node], int | None]:
        """The children legal in this determinization (each counted available), and an untried
        legal action to expand (the heuristic's first, where it has one)."""
        by_action = node.by_action
        available = []
        untried = []
        for a in s.legal_actions():
            ch = by_action.get(a)
            if ch is None:
                untried.append(a)
            else:
                available.append(ch)
        for ch in available:
            ch.avail += 1
        if node.hint == NO_HINT and self.prior_weight > 0.0:
            node.player = player
            assert self._heuristics is not None  # loaded whenever prior_weight > 0
            node.hint = self._heuristics[player].step(s)  # on this determinization
        if not untried:
            return available, None
        if node.hint in untried:
            return available, node.hint
        return available, untried[self.rng.randrange(len(untried))] if len(untried) > 1 else untried[0]

    def _adopt(self, node: Node, child: Node) -> None:
        assert child.action is not None
        child.avail = 1
        node.by_action[child.action] = child
        node.kids.append(child)

    def _select(self, node: Node, children: list[Node]) -> Node:
        """UCB1 with availability counts (an edge is scored against how often it was legal)."""
        k = self.c * ((self._hi - self._lo) if self._hi > self._lo else 1.0)
        log, sqrt = math.log, math.sqrt
        best, best_v = None, -math.inf
        hint = node.hint
        for ch in children:
            v = ch.w / ch.n + k * sqrt(log(ch.avail) / ch.n)
            if ch.action == hint:
                v += self.prior_weight * k / (ch.n + 1)
            if v > best_v:
                best, best_v = ch, v
        assert best is not None  # an expanded node has children
        return best


__all__ = ["ISMCTSAgent"]
