"""The rollout agent (flat Monte Carlo, common random numbers): policy improvement on solved toy
games, common random numbers, forced moves, budgets, refusal of hidden information."""

from __future__ import annotations

import pytest
from search_toy_games import FirstActionHeuristic, MiniPoker, TreeGame, TreeState, with_heuristic

import trapworks
from trapworks.agents import available_agents, make_agent
from trapworks.agents.mcts import SearchBudgetError
from trapworks.agents.rollout import RolloutAgent, paired_difference
from trapworks.core import TrapworksError


class FirstPolicyTree(TreeGame):
    """A random game tree whose "heuristic" always plays the first legal action."""


with_heuristic(FirstPolicyTree, TreeState, FirstActionHeuristic)


def policy_value(node: dict, policy) -> list[float]:
    """Exact value vector when every seat follows `policy` (children -> chosen action)."""
    if node["kind"] == "terminal":
        return node["returns"]
    if node["kind"] == "chance":
        vals = [policy_value(node["children"][a], policy) for a, _ in node["outcomes"]]
        return [
            sum(p * v[i] for (_, p), v in zip(node["outcomes"], vals, strict=True))
            for i in range(len(vals[0]))
        ]
    kids = node["children"]
    if policy == "random":
        vals = [policy_value(c, policy) for c in kids.values()]
        return [sum(v[i] for v in vals) / len(vals) for i in range(len(vals[0]))]
    return policy_value(kids[policy(list(kids))], policy)


def first(actions):
    return actions[0]


def _trees(players: int, count: int, gap: float, policy):
    """Trees whose root actions, followed by `policy`, differ by at least `gap` for the mover,
    and whose best such action is not the policy's own choice (so improving on it is visible)."""
    out, seed = [], 0
    while len(out) < count:
        game = FirstPolicyTree(tree_seed=seed, players=players)
        root = game.root
        if root["kind"] == "decision":
            vals = {a: policy_value(c, policy)[root["player"]] for a, c in root["children"].items()}
            ranked = sorted(vals.values(), reverse=True)
            best = max(vals, key=vals.get)
            if ranked[0] - ranked[1] >= gap and (policy == "random" or best != first(list(vals))):
                out.append((game, vals))
        seed += 1
    return out


@pytest.mark.parametrize("players", [2, 3])
def test_rollout_agent_improves_on_its_base_policy(players):
    """Where the heuristic's own move is worse, the agent plays the action with the best exact
    value under the heuristic: one step of policy improvement, with chance weighted correctly."""
    for game, vals in _trees(players, 5, 0.2, first):
        agent = RolloutAgent(
            game, game.root["player"], seed=1, rollouts=400, min_rollouts=400, time_limit=None
        )
        assert agent.step(game.new_initial_state()) == max(vals, key=vals.get)
        for st in agent.last_stats:  # each mean estimates the exact value under the policy
            assert abs(st.mean() - vals[st.action]) < 0.15


def test_random_rollouts_estimate_the_random_policy_value():
    for game, vals in _trees(2, 4, 0.2, "random"):
        agent = RolloutAgent(
            game,
            game.root["player"],
            seed=2,
            policy="random",
            rollouts=600,
            min_rollouts=600,
            time_limit=None,
        )
        assert agent.step(game.new_initial_state()) == max(vals, key=vals.get)


def test_common_random_numbers_make_equal_actions_tie_exactly():
    """The same action evaluated twice gets identical returns, rollout by rollout, though the
    returns vary between rollouts (chance differs): differences carry no chance noise."""
    game = FirstPolicyTree(tree_seed=4, players=2)
    state = game.new_initial_state()
    agent = RolloutAgent(game, state.current_player(), seed=5, policy="random")
    a = state.legal_actions()[0]
    stats = agent.evaluate_actions(state, [a, a], 60, seed=9)
    assert stats[0].returns == stats[1].returns
    assert len(set(stats[0].returns)) > 1
    assert paired_difference(stats[0].returns, stats[1].returns) == (0.0, 0.0)


def test_a_forced_move_costs_no_rollout():
    game = FirstPolicyTree(tree_seed=0, players=2, branching=2)
    state = game.new_initial_state()
    # A decision node with one child: the agent answers without playing anything out.
    state.node = {"kind": "decision", "player": 0, "children": {7: {"kind": "terminal", "returns": [1, -1]}}}
    agent = RolloutAgent(game, 0, seed=0)
    assert agent.step(state) == 7
    assert agent.last_iterations == 0 and agent.last_stats == []


def test_keeps_the_base_move_unless_another_is_clearly_better():
    """margin_z: with actions of equal value the base policy's move is kept."""
    game = FirstPolicyTree(tree_seed=0, players=2)
    t = {"kind": "terminal", "returns": [0.0, 0.0]}
    coin = {
        "kind": "chance",
        "outcomes": [(100, 0.5), (101, 0.5)],
        "children": {
            100: {"kind": "terminal", "returns": [1.0, -1.0]},
            101: {"kind": "terminal", "returns": [-1.0, 1.0]},
        },
    }
    game.root = {"kind": "decision", "player": 0, "children": {0: t, 1: coin, 2: coin}}
    for seed in range(6):
        agent = RolloutAgent(game, 0, seed=seed, rollouts=40, min_rollouts=40, margin_z=2.0, time_limit=None)
        assert agent.step(game.new_initial_state()) == 0  # the heuristic's first action


def test_stops_early_when_the_decision_is_settled_and_is_reproducible():
    game = FirstPolicyTree(tree_seed=0, players=2)
    win = {"kind": "terminal", "returns": [1.0, -1.0]}
    lose = {"kind": "terminal", "returns": [-1.0, 1.0]}
    game.root = {"kind": "decision", "player": 0, "children": {0: lose, 1: win}}
    agent = RolloutAgent(game, 0, seed=3, rollouts=500, min_rollouts=8, time_limit=None)
    assert agent.step(game.new_initial_state()) == 1
    assert agent.last_iterations == 2 * 8  # settled after the minimum rounds
    # Without a time limit a move depends only on the seed: two agents alike play alike.
    game, _ = _trees(2, 1, 0.0, first)[0]
    a, b = (RolloutAgent(game, game.root["player"], seed=11, rollouts=50, time_limit=None) for _ in range(2))
    assert a.step(game.new_initial_state()) == b.step(game.new_initial_state())
    assert [st.returns for st in a.last_stats] == [st.returns for st in b.last_stats]


def test_options_are_checked_and_hidden_information_is_refused():
    game = FirstPolicyTree(tree_seed=0)
    assert RolloutAgent(game, 0).time_limit == 0.85  # a default cap: a slow game cannot stall a move
    for bad in ({"rollouts": 0}, {"time_limit": -1}, {"margin_z": -1}, {"policy": "greedy"}):
        with pytest.raises(SearchBudgetError):
            RolloutAgent(game, 0, **bad)
    with pytest.raises(TrapworksError, match="hidden information"):
        RolloutAgent(MiniPoker(), 0)
    assert "rollout" not in available_agents(MiniPoker())
    assert "rollout" in available_agents(trapworks.make("mouse-trap"))
    with pytest.raises(TrapworksError, match="declares no rollout_agent"):
        RolloutAgent(TreeGame(tree_seed=0), 0, policy="heuristic")


def test_made_by_name_and_honours_a_time_limit():
    game = trapworks.make("mouse-trap")
    agent = make_agent("rollout", game, 0, seed=1, time_limit=0.05, rollouts=100000)
    state = game.state_from_position("mice=46,47 cheese=14,16 pile=0 parts=24 turn=53 next=1 phase=crank")
    assert agent.step(state) in state.legal_actions()
    assert 0 < agent.last_iterations < 2 * 100000  # the time limit, not the rollouts, ended the search
