"""Monte Carlo tree search (UCT) with explicit chance nodes, for any game of the kernel.

The search reads a game only through the kernel: `current_player`, `legal_actions`,
`chance_outcomes`, `apply_action`, `clone` and `returns`. It never names a game.

- Decision nodes select children by UCB1 (UCT). Rewards are the raw `returns()` of the
  seat that chose the edge; the exploration term is scaled by the spread of returns seen
  so far, so games that score -1/+1, 0/1 or by points all get a sensible exploration.
- Chance nodes are explicit tree nodes: each visit samples one outcome by its probability
  and follows (or creates) that outcome's child, so dice, draws and a trap's success are
  averaged over correctly instead of being folded into the parent.
- Leaves are valued by one rollout: uniformly random moves by default, or the agent the
  game declares for rollouts (its spec's `rollout_agent`, "the heuristic" below) for a share
  of the moves. A rollout that runs past `rollout_limit` actions is cut and valued by that
  agent's `evaluate(state)` when it has one (a list of returns), else as a draw.
- Budgets: `iterations`, `time_limit` (seconds), or both (whichever ends first). With an
  iteration budget alone the move is reproducible for a seed.
- The move played is the most visited root child (ties: higher mean, then first found).

Options (all keyword arguments of the agent): iterations, time_limit, c (exploration,
default 1.0 on returns normalised to [0, 1], the same as OpenSpiel's uct_c=2 on -1..+1),
rollout ("random" or "heuristic": the game's declared rollout agent), heuristic_share (share of
rollout moves made by the heuristic, default 1.0 when rollout="heuristic"), rollout_limit
(actions, default 400),
prior_weight (progressive bias toward the heuristic's move at each tree node, default 0:
UCB gets + prior_weight * c * spread / (visits + 1) on that move, and it is tried first, so
where rollouts tell little the search falls back on the heuristic's choice).
"""

from __future__ import annotations

import math
import time
from bisect import bisect_right
from collections.abc import Callable, Hashable, Sequence
from itertools import accumulate
from typing import Any

from trapworks.core import CHANCE, TERMINAL, Agent, Game, State, TrapworksError, sample_chance

DEFAULT_ITERATIONS = 1000
STEP_MARGIN = 3.0  # stop when this many typical rollout steps would pass the deadline
NO_HINT = -(2**62)  # a node whose heuristic move has not been asked for yet


class Node:
    """One state in the tree. `w` and `n` are the reward sum and visits of the edge into this
    node, the reward counted for `mover`, the seat that chose that edge."""

    __slots__ = (
        "player",
        "mover",
        "action",
        "n",
        "w",
        "avail",
        "kids",
        "untried",
        "outcomes",
        "cum",
        "by_action",
        "hint",
    )

    def __init__(self, player: int, mover: int, action: int | None):
        self.player = player
        self.mover = mover
        self.action = action
        self.n = 0
        self.w = 0.0
        self.avail = 0  # IS-MCTS: how often this edge was legal when its parent was visited
        self.kids: list[Node] = []
        self.untried: list[int] | None = None  # decision nodes: actions not yet expanded
        self.outcomes: list[int] | None = None  # chance nodes: outcome actions
        self.cum: list[float] | None = None  # chance nodes: cumulative probabilities
        self.by_action: dict[int, Node] = {}
        self.hint: int | None = NO_HINT  # the heuristic's move here (progressive bias)

    def mean(self) -> float:
        return self.w / self.n if self.n else 0.0


class SearchBudgetError(TrapworksError, ValueError):
    """An agent option that cannot be a search budget."""


def _positive(name: str, value: Any, kind: Callable[[Any], Any] = float) -> Any:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise SearchBudgetError(f"{name} {value!r}: give a positive number")
    return kind(value)


class MCTSAgent(Agent):
    """UCT with explicit chance nodes, for games with perfect information.

    On a game with hidden information this agent would search the true state, i.e. cheat;
    `make_agent` gives such games the IS-MCTS agent instead (see ismcts.py), and this class
    refuses them unless `allow_hidden=True` (used only by tests that show the difference).
    """

    name = "mcts"

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        time_limit: float | None = None,
        c: float = 1.0,
        rollout: str = "random",
        heuristic_share: float | None = None,
        rollout_limit: int = 400,
        prior_weight: float = 0.0,
        allow_hidden: bool = False,
        **options: Any,
    ):
        super().__init__(game, seat, seed=seed, **options)
        if game.has_hidden_information and not allow_hidden and type(self) is MCTSAgent:
            raise TrapworksError(
                f"{game.game_id} has hidden information: plain MCTS would read other seats' secrets; "
                "use the 'ismcts' agent"
            )
        self.iterations = _positive("iterations", iterations, int)
        self.time_limit = _positive("time_limit", time_limit, float)
        if self.iterations is None and self.time_limit is None:
            self.iterations = DEFAULT_ITERATIONS
        self.c = float(c)
        if rollout not in ("random", "heuristic"):
            raise SearchBudgetError(f"rollout {rollout!r}: choose random or heuristic")
        self.rollout_kind = rollout
        if heuristic_share is None:
            heuristic_share = 1.0 if rollout == "heuristic" else 0.0
        if not 0.0 <= heuristic_share <= 1.0:
            raise SearchBudgetError(f"heuristic_share {heuristic_share!r}: a share between 0 and 1")
        self.heuristic_share = float(heuristic_share)
        self.rollout_limit = _positive("rollout_limit", rollout_limit, int)
        if isinstance(prior_weight, bool) or not isinstance(prior_weight, (int, float)) or prior_weight < 0:
            raise SearchBudgetError(f"prior_weight {prior_weight!r}: a number >= 0")
        self.prior_weight = float(prior_weight)
        self._heuristics: list[Agent] | None = None
        # The heuristic's value of a cut rollout, seat by seat (None: it has none).
        self._evaluate: Callable[[State], Sequence[float]] | None = None
        if self.heuristic_share > 0.0 or self.prior_weight > 0.0:
            self._load_heuristic()
        self.last_root: Node | None = None
        self._last_key: Hashable = None  # which state the last search was for
        self.last_iterations = 0
        self.last_seconds = 0.0
        self._lo = math.inf  # smallest and largest return seen: they scale exploration
        self._hi = -math.inf
        self._deadline: float | None = None
        # Typical cost of one rollout step (seconds, a moving average), to stop before a step
        # would overrun the deadline; an average, so that one pause of the process does not
        # cut every later search short.
        self._step_cost = 0.0

    # --- the game's own heuristic: the rollout agent its spec declares -------------------
    def _load_heuristic(self) -> None:
        from . import rollout_policy  # without a cycle at import

        found = rollout_policy(self.game)
        if found is None:
            raise TrapworksError(
                f"{self.game.game_id} declares no rollout_agent to use in rollouts or as a prior; "
                "use rollout=random and prior_weight=0"
            )
        cls = found[1]
        self._heuristics = [
            cls(self.game, seat, seed=self.rng.randrange(2**63)) for seat in range(self.game.num_players())
        ]
        evaluate = getattr(self._heuristics[0], "evaluate", None)
        self._evaluate = evaluate if callable(evaluate) else None

    # --- the agent interface -------------------------------------------------------------
    def step(self, state: State) -> int:
        root = self.search(state)
        action = self._best(root).action
        assert action is not None  # only the root has no action
        return action

    def restart(self) -> None:
        self.last_root = None

    def explain(self, state: State) -> str | None:
        """The last search's best candidates (searching now if the last search was elsewhere)."""
        root = self.last_root
        if root is None or self._last_key != self._state_key(state):
            root = self.search(state)
        kids = sorted(root.kids, key=lambda k: (k.n, k.mean()), reverse=True)[:3]
        if not kids:
            return None
        span = (self._hi - self._lo) or 1.0
        parts = []
        for k in kids:
            assert k.action is not None  # only the root has no action
            score = (k.mean() - self._lo) / span if k.n else 0.0
            parts.append(f"{state.action_to_string(k.action)} ({k.n} visits, value {score:.2f})")
        return (
            f"{self.name}: {self.last_iterations} iterations in {self.last_seconds:.2f} s; "
            f"best: " + ", ".join(parts)
        )

    # --- search --------------------------------------------------------------------------
    def _state_key(self, state: State) -> Hashable:
        return id(state), state.move_number()

    def _root_state(self, state: State) -> State:
        """The state one iteration starts from (IS-MCTS re-draws hidden parts here)."""
        return state.clone()

    def search(self, state: State) -> Node:
        player = state.current_player()
        if player < 0:
            raise TrapworksError(f"{self.name} agent asked to move where no seat moves (player {player})")
        root = Node(player, -1, None)
        self._last_key = self._state_key(state)
        legal = self._root_actions(state)
        if len(legal) == 1:  # nothing to think about
            root.kids.append(Node(player, player, legal[0]))
            root.untried = []
            self.last_root, self.last_iterations, self.last_seconds = root, 0, 0.0
            return root
        start = time.perf_counter()
        deadline = self._deadline = start + self.time_limit if self.time_limit is not None else None
        limit = self.iterations
        done = 0
        clock = time.perf_counter
        while limit is None or done < limit:
            self._iterate(root, self._root_state(state))
            done += 1
            # Checked every iteration: in a game with a slow state one iteration can be long,
            # so stop when even the tree descent (a couple of slow steps) would overrun.
            if deadline is not None and clock() + STEP_MARGIN * self._step_cost >= deadline:
                break
        self.last_root, self.last_iterations = root, root.n  # completed iterations
        self.last_seconds = time.perf_counter() - start
        return root

    def _root_actions(self, state: State) -> list[int]:
        return state.legal_actions()

    @staticmethod
    def _best(root: Node) -> Node:
        """The most visited child; ties go to the heuristic's move, then the higher mean."""
        best: Node | None = None
        for k in root.kids:
            if (
                best is None
                or k.n > best.n
                or (
                    k.n == best.n
                    and (k.action == root.hint or (best.action != root.hint and k.mean() > best.mean()))
                )
            ):
                best = k
        assert best is not None, "a searched root has children"
        return best

    # --- the tree-search core: one descent, expansion and backup for MCTS and IS-MCTS ---------
    # The steps that differ between the two are the hooks below it (ismcts.py overrides them):
    # who moves at a node, how a chance node draws, which children a node offers and which
    # action it expands, and how a child is chosen among those offered.
    def _iterate(self, root: Node, s: State) -> None:
        node = root
        path = [root]
        while True:
            player = self._mover(node, s)
            if player == TERMINAL:
                break
            if player == CHANCE:
                a = self._chance_outcome(node, s)
                s.apply_action(a)
                child = node.by_action.get(a)
                if child is None:
                    child = Node(s.current_player(), CHANCE, a)
                    node.by_action[a] = child
                    path.append(child)
                    break
                node = child
                path.append(child)
                continue
            children, expand = self._offer(node, s, player)
            if expand is not None:
                s.apply_action(expand)
                child = Node(s.current_player(), player, expand)
                self._adopt(node, child)
                path.append(child)
                break
            best = self._select(node, children)
            assert best.action is not None  # only the root has no action
            s.apply_action(best.action)
            node = best
            path.append(best)
        returns = self._rollout(s)
        if returns is not None:  # None: the time ran out mid-rollout; the search stops now
            self._backup(path, returns)

    def _mover(self, node: Node, s: State) -> int:
        """Who moves at `node` (the tree's own record: one game, one tree)."""
        return node.player

    def _chance_outcome(self, node: Node, s: State) -> int:
        """A chance node's outcome, drawn by its probabilities (cached on the node)."""
        actions, cum = node.outcomes, node.cum
        if actions is None or cum is None:  # both are set together, on the first visit
            outcomes = s.chance_outcomes()
            actions = node.outcomes = [a for a, _ in outcomes]
            cum = node.cum = list(accumulate(p for _, p in outcomes))
        i = bisect_right(cum, self.rng.random() * cum[-1])
        return actions[min(i, len(cum) - 1)]

    def _offer(self, node: Node, s: State, player: int) -> tuple[list[Node], int | None]:
        """(the children to choose among, an action to expand instead or None)."""
        untried = node.untried
        if untried is None:
            untried = node.untried = list(s.legal_actions())
            self.rng.shuffle(untried)
            if self.prior_weight > 0.0:
                self._set_hint(node, s, untried)
        return node.kids, (untried.pop() if untried else None)

    def _adopt(self, node: Node, child: Node) -> None:
        node.kids.append(child)

    def _select(self, node: Node, children: list[Node]) -> Node:
        """UCB1 over the expanded children, with the progressive bias toward the heuristic."""
        k = self.c * ((self._hi - self._lo) if self._hi > self._lo else 1.0)
        logn = math.log(node.n)
        sqrt = math.sqrt
        best, best_v = None, -math.inf
        hint = node.hint
        for ch in children:
            v = ch.w / ch.n + k * sqrt(logn / ch.n)
            if ch.action == hint:
                v += self.prior_weight * k / (ch.n + 1)
            if v > best_v:
                best, best_v = ch, v
        assert best is not None  # an expanded node has children
        return best

    def _set_hint(self, node: Node, s: State, untried: list[int]) -> None:
        """Ask the heuristic for its move here; try it first (untried pops from the end)."""
        assert self._heuristics is not None  # loaded whenever prior_weight > 0
        hint = self._heuristics[node.player].step(s)
        node.hint = hint
        if hint in untried:
            untried.remove(hint)
            untried.append(hint)

    def _backup(self, path: list[Node], returns: Sequence[float]) -> None:
        lo, hi = min(returns), max(returns)
        if lo < self._lo:
            self._lo = lo
        if hi > self._hi:
            self._hi = hi
        for node in path:
            node.n += 1
            mover = node.mover
            if mover >= 0:
                node.w += returns[mover]

    def _rollout(self, s: State) -> list[float] | None:
        rng = self.rng
        choice = rng.choice
        heuristics = self._heuristics
        share = self.heuristic_share
        if heuristics is not None and share > 0.0:
            for h in heuristics:  # plans kept from another rollout's position mean nothing here
                h.restart()
        limit = self.rollout_limit
        deadline = self._deadline
        clock = time.perf_counter
        steps = 0
        while True:
            player = s.current_player()
            if player == TERMINAL:
                return s.returns()
            if steps >= limit:
                return self._cut_value(s)
            if deadline is not None:
                # Stop before a step that, a few times slower than usual, would end past the deadline.
                now = clock()
                if now + STEP_MARGIN * self._step_cost >= deadline:
                    return None
            if player == CHANCE:
                a = sample_chance(s, rng)
            elif heuristics is not None and (share >= 1.0 or rng.random() < share):
                a = heuristics[player].step(s)
            else:
                a = choice(s.legal_actions())
            s.apply_action(a)
            steps += 1
            if deadline is not None:
                self._step_cost += 0.2 * (clock() - now - self._step_cost)

    def _cut_value(self, s: State) -> list[float]:
        """Value of a rollout cut before the end: the heuristic's estimate, else a draw."""
        if self._evaluate is not None:
            return list(self._evaluate(s))
        mid = (self._lo + self._hi) / 2 if self._hi >= self._lo else 0.0
        return [mid] * s.num_players()


__all__ = ["MCTSAgent", "Node", "SearchBudgetError"]
