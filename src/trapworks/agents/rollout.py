"""Flat Monte Carlo with common random numbers: one step of policy improvement over a base policy.

For every legal action the agent plays the game out many times from the position after it, every
seat following the base policy (by default the game's declared rollout agent, its spec's
`rollout_agent`, or uniformly random moves when it declares none; `policy` may name another of
the game's own agents), and plays the action with the best mean return for its seat. Rollout i
of every action uses the same random numbers (chance outcomes and the policies' own draws come
from generators seeded by i): the actions are compared on the same dice, so the paired
differences between them carry far less noise than separate samples would.

Why it helps: if the values were exact, the chosen action is at least as good as the base
policy's own choice at every decision (the policy-improvement theorem), so the agent is at least
as strong as its base policy. With estimates, it keeps the base policy's move unless another
action's paired advantage over it is clear (`margin_z` standard errors), so noise alone rarely
makes it deviate.

Budget: rounds of one rollout per action, up to `rollouts` rounds and `time_limit` seconds;
after `min_rollouts` rounds it stops early once the decision is settled: the leader beats every
other action by `stop_z` paired standard errors, or no difference can still exceed
`tolerance` (return units). A position with one legal action costs no rollout at all.

The agent reads the true state, so it refuses games with hidden information (like "mcts").
It never names a game: it reads one only through the kernel.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from trapworks.core import CHANCE, TERMINAL, Agent, Game, State, TrapworksError, sample_chance

from .levels import HARD_TIME_LIMIT
from .mcts import SearchBudgetError, _positive

SEED_SPACE = 2**62


class ActionStats:
    """Returns of one action's rollouts, in rollout order (rollout i shares its seed across actions)."""

    __slots__ = ("action", "returns")

    def __init__(self, action: int):
        self.action = action
        self.returns: list[float] = []

    def mean(self) -> float:
        return sum(self.returns) / len(self.returns) if self.returns else 0.0


def paired_difference(a: list[float], b: list[float]) -> tuple[float, float]:
    """Mean and standard error of a[i] - b[i] over the rollouts both have."""
    n = min(len(a), len(b))
    if n == 0:
        return 0.0, math.inf
    diffs = [a[i] - b[i] for i in range(n)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


class RolloutAgent(Agent):
    """Flat Monte Carlo over the legal actions, base-policy rollouts, common random numbers.

    Options: rollouts (most rounds; a round is one rollout per action, default 200), time_limit
    (seconds, default the hard level's cap, 0.85, so that a slow game cannot stall a move; None:
    no cap, and the move depends only on the seed), min_rollouts (rounds before an early stop,
    default 24), stop_z
    (default 3.0), tolerance (default 0.02), margin_z (standard errors by which another action
    must beat the base policy's choice to replace it, default 1.0; 0 plays the best mean),
    policy (the base policy: "random" or the name of one of the game's own agents; the default
    and "heuristic": the game's declared rollout agent),
    rollout_limit (actions per rollout before it is cut and valued by the heuristic's
    `evaluate(state)` or as a draw, default 2000).
    """

    name = "rollout"

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int | None = None,
        *,
        rollouts: int = 200,
        time_limit: float | None = HARD_TIME_LIMIT,
        min_rollouts: int = 24,
        stop_z: float = 3.0,
        tolerance: float = 0.02,
        margin_z: float = 1.0,
        policy: str | None = None,
        rollout_limit: int = 2000,
        **options: Any,
    ):
        super().__init__(game, seat, seed=seed, **options)
        if game.has_hidden_information:
            raise TrapworksError(
                f"{game.game_id} has hidden information: rollouts from the true state would read other "
                "seats' secrets; use the 'ismcts' agent"
            )
        self.rollouts = _positive("rollouts", rollouts, int)
        self.time_limit = _positive("time_limit", time_limit, float)
        self.min_rollouts = _positive("min_rollouts", min_rollouts, int)
        for name, value in (("stop_z", stop_z), ("tolerance", tolerance), ("margin_z", margin_z)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise SearchBudgetError(f"{name} {value!r}: a number >= 0")
        self.stop_z, self.tolerance, self.margin_z = float(stop_z), float(tolerance), float(margin_z)
        from . import own_agents, rollout_policy  # without a cycle at import

        own = own_agents(game)
        declared = rollout_policy(game)
        if policy == "heuristic":  # the game's declared rollout agent, which it must declare
            if declared is None:
                raise TrapworksError(f"{game.game_id} declares no rollout_agent; use policy=random")
            policy = declared[0]
        elif policy is None:
            policy = declared[0] if declared is not None else "random"
        if policy != "random" and (not isinstance(policy, str) or policy not in own):
            choices = ", ".join(["random", *sorted(own)])
            raise SearchBudgetError(f"policy {policy!r}: choose one of {choices}")
        self.policy = policy
        self.rollout_limit = _positive("rollout_limit", rollout_limit, int)
        self._policies: list[Agent] | None = None
        self._evaluate = None
        if policy != "random":
            self._load_policy(policy)
        self.last_stats: list[ActionStats] = []
        self.last_base_action: int | None = None
        self.last_iterations = 0  # rollouts played for the last move (0: a forced move)
        self.last_seconds = 0.0

    def _load_policy(self, name: str) -> None:
        from . import _resolve, own_agents  # the same lookup as make_agent, without a cycle at import

        factory = own_agents(self.game).get(name)
        if factory is None:
            raise TrapworksError(f"{self.game.game_id} has no agent {name!r}; use policy=random")
        cls = _resolve(factory)
        self._policies = [cls(self.game, s, seed=s) for s in range(self.game.num_players())]
        evaluate = getattr(self._policies[0], "evaluate", None)
        self._evaluate = evaluate if callable(evaluate) else None

    # --- the agent interface -------------------------------------------------------------
    def step(self, state: State) -> int:
        return self.choose(state)

    def explain(self, state: State) -> str | None:
        self.choose(state)
        if not self.last_stats:
            return None
        rows = sorted(self.last_stats, key=lambda st: st.mean(), reverse=True)
        parts = [f"{state.action_to_string(st.action)} {st.mean():+.3f}" for st in rows]
        return (
            f"rollout: {len(rows[0].returns)} rollouts per action in {self.last_seconds:.2f} s; "
            f"mean return: " + ", ".join(parts)
        )

    def base_action(self, state: State) -> int | None:
        """The base policy's move here (None for random rollouts: no preferred move)."""
        if self._policies is None:
            return None
        h = self._policies[state.current_player()]
        h.restart()
        return h.step(state.clone())

    def choose(self, state: State) -> int:
        player = state.current_player()
        if player < 0:
            raise TrapworksError(f"rollout agent asked to move where no seat moves (player {player})")
        legal = state.legal_actions()
        self.last_stats, self.last_iterations, self.last_seconds = [], 0, 0.0
        if len(legal) == 1:  # nothing to think about
            self.last_base_action = legal[0]
            return legal[0]
        start = time.perf_counter()
        deadline = start + self.time_limit if self.time_limit is not None else None
        base = self.base_action(state)
        self.last_base_action = base
        stats = self.evaluate_actions(
            state, legal, self.rollouts, self.rng.randrange(SEED_SPACE), deadline=deadline, early_stop=True
        )
        self.last_stats = stats
        self.last_iterations = sum(len(st.returns) for st in stats)
        self.last_seconds = time.perf_counter() - start
        return self.pick(stats, base)

    def pick(self, stats: list[ActionStats], base: int | None) -> int:
        """The best mean; the base policy's move unless another beats it by `margin_z` SEs."""
        best = max(stats, key=lambda st: st.mean())  # first of the tied: legal order
        if base is None or best.action == base:
            return best.action
        base_stats = next((st for st in stats if st.action == base), None)
        if base_stats is None:
            return best.action
        diff, se = paired_difference(best.returns, base_stats.returns)
        return best.action if diff > self.margin_z * se else base

    # --- rollouts ------------------------------------------------------------------------------
    def evaluate_actions(
        self,
        state: State,
        actions: list[int],
        rounds: int,
        seed: int,
        deadline: float | None = None,
        early_stop: bool = False,
    ) -> list[ActionStats]:
        """Play `rounds` rounds of one rollout per action (rollout i of each action seeded alike)
        and return each action's returns for the seat to move."""
        seat = state.current_player()
        stats = [ActionStats(a) for a in actions]
        clock = time.perf_counter
        round_cost = 0.0
        for i in range(rounds):
            if deadline is not None and i > 0 and clock() + round_cost >= deadline:
                break
            t = clock()
            rollout_seed = (seed + 7919 * i) % SEED_SPACE
            for st in stats:
                s = state.clone()
                s.apply_action(st.action)
                st.returns.append(self._rollout(s, rollout_seed)[seat])
            round_cost = max(round_cost, clock() - t) if i < 3 else 0.8 * round_cost + 0.2 * (clock() - t)
            if early_stop and i + 1 >= self.min_rollouts and (i + 1) % 4 == 0 and self._settled(stats):
                break
        return stats

    def _settled(self, stats: list[ActionStats]) -> bool:
        best = max(stats, key=lambda st: st.mean())
        clear = True
        for st in stats:
            if st is best:
                continue
            diff, se = paired_difference(best.returns, st.returns)
            if diff <= self.stop_z * se and diff + self.stop_z * se > self.tolerance:
                clear = False  # neither clearly behind nor a difference too small to matter
                break
        return clear

    def _rollout(self, s: State, seed: int) -> list[float]:
        return play_out(s, seed, self._policies, self.rollout_limit, self._evaluate)


def play_out(
    s: State,
    seed: int,
    policies: list[Any] | None,
    limit: int,
    evaluate: Any = None,
    each_move: Any = None,
) -> list[float]:
    """`s` played to its end (modified in place): chance drawn from `seed`, each seat by its policy
    (`policies`, restarted and seeded from `seed`, so their own draws are common to every action
    compared) or by random moves. Past `limit` moves: `evaluate(s)` if given, else a draw.
    `each_move()` is called before each move (the review's budget: it may raise to stop)."""
    rng = random.Random(seed)
    if policies is not None:
        for k, h in enumerate(policies):
            h.restart()
            h.rng.seed(seed + k + 1)
    steps = 0
    while True:
        player = s.current_player()
        if player == TERMINAL:
            return s.returns()
        if steps >= limit:
            return list(evaluate(s)) if evaluate is not None else [0.0] * s.num_players()
        if each_move is not None:
            each_move(steps)
        if player == CHANCE:
            a = sample_chance(s, rng)
        elif policies is not None:
            a = policies[player].step(s)
        else:
            a = rng.choice(s.legal_actions())
        s.apply_action(a)
        steps += 1


__all__ = ["RolloutAgent", "ActionStats", "paired_difference", "play_out"]
