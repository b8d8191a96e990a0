"""MCTS (UCT with explicit chance nodes): correctness on solved games, budgets, seeds."""

from __future__ import annotations

import random

import pytest
from search_toy_games import FirstActionHeuristic, TreeGame, TreeState, exact_values, with_heuristic

import trapworks
from trapworks.agents import make_agent
from trapworks.agents.mcts import MCTSAgent, SearchBudgetError
from trapworks.core import TrapworksError
from trapworks.games.last_mouse_lost import solver


def _clear_trees(players: int, count: int, gap: float = 0.3):
    """Tree games whose best root move beats the second best by at least `gap`."""
    out = []
    seed = 0
    while len(out) < count:
        game = TreeGame(tree_seed=seed, players=players)
        vals = sorted(exact_values(game).values(), reverse=True)
        if len(vals) >= 2 and vals[0] - vals[1] >= gap and game.root["kind"] == "decision":
            out.append(game)
        seed += 1
    return out


@pytest.mark.parametrize("game", _clear_trees(2, 8), ids=lambda g: f"tree{g.options['tree_seed']}")
def test_mcts_finds_the_expectimax_move_in_games_with_chance(game):
    """Chance nodes weighted by their (uneven) probabilities: the move MCTS plays is the
    one with the best exact expected value."""
    values = exact_values(game)
    agent = MCTSAgent(game, game.root["player"], seed=3, iterations=3000)
    assert agent.step(game.new_initial_state()) == max(values, key=values.get)


def test_mcts_plays_three_seat_games_by_each_seats_own_returns():
    """Each seat maximises its own return (max^n): seat 0 avoids the branch with its best leaf,
    because seat 1 would steer away from it there."""
    game = TreeGame(tree_seed=0, players=3)
    t = lambda *r: {"kind": "terminal", "returns": list(r)}  # noqa: E731
    game.root = {
        "kind": "decision",
        "player": 0,
        "children": {
            0: {"kind": "decision", "player": 1, "children": {0: t(0.9, 0.1, 0.5), 1: t(0.2, 0.8, 0.5)}},
            1: {"kind": "decision", "player": 2, "children": {0: t(0.5, 0.5, 0.1), 1: t(0.6, 0.4, 0.9)}},
        },
    }
    for seed in range(3):
        agent = MCTSAgent(game, 0, seed=seed, iterations=1500)
        assert agent.step(game.new_initial_state()) == 1
        kids = {k.action: k for k in agent.last_root.kids}
        assert abs(kids[1].mean() - 0.6) < 0.05


def test_chance_probabilities_matter_not_just_outcomes():
    """A tree where treating chance outcomes as equally likely would pick the wrong move."""
    game = TreeGame(tree_seed=0)
    game.root = {
        "kind": "decision",
        "player": 0,
        "children": {
            0: {"kind": "terminal", "returns": [0.2, -0.2]},
            1: {
                "kind": "chance",
                "outcomes": [(100, 0.7), (101, 0.3)],
                "children": {
                    100: {"kind": "terminal", "returns": [1.0, -1.0]},
                    101: {"kind": "terminal", "returns": [-1.0, 1.0]},
                },
            },
            2: {
                "kind": "chance",
                "outcomes": [(100, 0.3), (101, 0.7)],
                "children": {
                    100: {"kind": "terminal", "returns": [1.0, -1.0]},
                    101: {"kind": "terminal", "returns": [-1.0, 1.0]},
                },
            },
        },
    }
    agent = MCTSAgent(game, 0, seed=1, iterations=2000)
    assert agent.step(game.new_initial_state()) == 1  # EV +0.4, against 0.2 and -0.4
    root = agent.last_root
    assert {k.action for k in root.kids} == {0, 1, 2}
    chance = next(k for k in root.kids if k.action == 1)
    kids = chance.by_action
    assert kids[100].n > kids[101].n  # outcomes visited about in proportion to probability
    assert 0.6 < kids[100].n / chance.n < 0.8


def _winning_positions(rules: str, count: int, seed: int):
    game = trapworks.make("last-mouse-lost", rules=rules, first_to=1)
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        s = game.new_initial_state()
        while not s.is_terminal() and sum(bin(r).count("1") for r in s.rows) > rng.randint(5, 9):
            s.apply_action(rng.choice(s.legal_actions()))
        if s.is_terminal():
            continue
        if solver.solve(s).outcome == "win" and len(s.legal_actions()) > 1:
            found.append(s)
    return game, found


@pytest.mark.parametrize("rules", ["basic", "advanced"])
def test_mcts_finds_winning_moves_in_last_mouse_lost_endgames(rules):
    """002: 'The player who ends up pressing down the last mouse on the board loses the round':
    in won endgames (checked by the exact solver) MCTS plays a move that keeps the win."""
    game, positions = _winning_positions(rules, 6, seed=11)
    for i, s in enumerate(positions):
        agent = MCTSAgent(game, s.current_player(), seed=i, iterations=3000)
        a = agent.step(s)
        after = s.clone()
        after.apply_action(a)
        if after.is_terminal():
            assert s.current_player() in after.winners()
            continue
        assert solver.solve(after).outcome == "loss", (
            f"{s.position()}: {s.action_to_string(a)} throws the win away"
        )


def test_same_seed_same_search():
    game = trapworks.make("last-mouse-lost", first_to=1)
    s = game.new_initial_state()
    runs = []
    for _ in range(2):
        agent = MCTSAgent(game, 0, seed=42, iterations=500)
        a = agent.step(s)
        runs.append((a, sorted((k.action, k.n, round(k.w, 6)) for k in agent.last_root.kids)))
    assert runs[0] == runs[1]
    other = MCTSAgent(game, 0, seed=43, iterations=500)
    other.step(s)
    assert sorted((k.action, k.n) for k in other.last_root.kids) != [(a, n) for a, n, _ in runs[0][1]]


def test_iteration_budget_is_exact_and_time_budget_stops():
    game = trapworks.make("last-mouse-lost", first_to=1)
    s = game.new_initial_state()
    agent = MCTSAgent(game, 0, seed=1, iterations=321)
    agent.step(s)
    assert agent.last_iterations == 321 and agent.last_root.n == 321
    timed = MCTSAgent(game, 0, seed=1, time_limit=0.05)
    assert timed.iterations is None
    timed.step(s)  # returns (a search bounded only by time ends)
    assert timed.last_iterations >= 1 and timed.last_root.n == timed.last_iterations
    both = MCTSAgent(game, 0, seed=1, iterations=50, time_limit=30)
    both.step(s)
    assert both.last_iterations == 50


def test_a_single_legal_move_is_played_without_search():
    game = trapworks.make("last-mouse-lost", first_to=1)
    s = game.state_from_position("o../...../....../....../...../... 1 0-0 1")
    agent = MCTSAgent(game, 0, seed=1, iterations=100)
    assert s.action_to_string(agent.step(s)) == "a1"
    assert agent.last_iterations == 0


@pytest.mark.parametrize(
    "bad",
    [
        {"iterations": 0},
        {"iterations": -3},
        {"time_limit": "fast"},
        {"rollout": "smart"},
        {"heuristic_share": 1.5},
        {"iterations": True},
    ],
)
def test_bad_budgets_are_refused_with_a_reason(bad):
    game = trapworks.make("last-mouse-lost")
    with pytest.raises(TrapworksError) as e:
        MCTSAgent(game, 0, **bad)
    assert list(bad)[0] in str(e.value)


def test_heuristic_rollout_needs_a_declared_rollout_agent():
    game = TreeGame(tree_seed=0)  # its spec-less class declares no rollout agent
    with pytest.raises(TrapworksError, match="declares no rollout_agent"):
        MCTSAgent(game, 0, rollout="heuristic")


def test_mcts_refuses_hidden_information_games():
    from search_toy_games import MiniPoker

    with pytest.raises(TrapworksError, match="ismcts"):
        make_agent("mcts", MiniPoker(), 0)


def test_explain_names_the_candidates():
    game = trapworks.make("last-mouse-lost", first_to=1)
    s = game.new_initial_state()
    agent = MCTSAgent(game, 0, seed=1, iterations=200)
    agent.step(s)
    text = agent.explain(s)
    assert "200 iterations" in text and "visits" in text


def test_search_budget_error_is_a_value_error():
    assert issubclass(SearchBudgetError, ValueError)


def test_progressive_bias_falls_back_on_the_heuristic_when_rollouts_are_blind():
    """With rollouts cut at once (valued as draws) the statistics say nothing; the prior
    makes the search play the registered heuristic's move, and without it the choice is
    not tied to the heuristic."""

    class Blind(TreeGame):
        pass

    with_heuristic(Blind, TreeState, FirstActionHeuristic)

    game = Blind(tree_seed=4)
    game.root = {
        "kind": "decision",
        "player": 0,
        "children": {
            a: {
                "kind": "decision",
                "player": 1,
                "children": {
                    0: {"kind": "terminal", "returns": [0.0, 0.0]},
                    1: {"kind": "terminal", "returns": [0.0, 0.0]},
                },
            }
            for a in range(4)
        },
    }
    s = game.new_initial_state()
    picks = {
        MCTSAgent(game, 0, seed=i, iterations=40, rollout_limit=1, prior_weight=1.0).step(s) for i in range(5)
    }
    assert picks == {0}  # FirstActionHeuristic always names the first legal action
    free = {MCTSAgent(game, 0, seed=i, iterations=40, rollout_limit=1).step(s) for i in range(12)}
    assert free != {0}


def test_a_time_limit_cuts_a_long_rollout():
    """Slow iterations: the search stops when the time is up and still plays a legal move
    (completed iterations only are counted); a rollout running past the deadline is dropped."""
    import time as _time

    class Slow(TreeGame):
        pass

    game = Slow(tree_seed=1, depth=4)
    s = game.new_initial_state()
    agent = MCTSAgent(game, game.root["player"], seed=1, time_limit=0.05)
    original = agent._rollout

    def slow_rollout(state):
        _time.sleep(0.02)
        return original(state)

    agent._rollout = slow_rollout
    assert agent.step(s) in s.legal_actions()
    assert agent.last_root.n == agent.last_iterations
    agent._deadline = _time.perf_counter() - 1
    assert original(s.clone()) is None
    agent._deadline = None
    assert original(s.clone()) is not None
