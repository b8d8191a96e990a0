"""The batched engine (batch.py) against the kernel (game.py), issue 19.

Move for move: with the engine's own random stream (SharedStream) plugged into the kernel's
real agents, every game is the same action list. Distribution: with independent randomness
(the kernel's agents on Python's Mersenne Twister), 100,000 matches give the same outcomes and
lengths (chi-square tests, fixed seeds, so the test is deterministic).
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from scipy.stats import chi2_contingency

import trapworks
from trapworks.agents import make_agent
from trapworks.core import TrapworksError
from trapworks.core.stream import SharedStream

pytestmark = pytest.mark.skipif(
    not trapworks.make("last-mouse-lost").batched_agents,
    reason="the batch runs the compiled engine, which is not built (or TRAPWORKS_PURE_PYTHON is set)",
)

CONFIGS = [
    ({}, ["random", "random"]),
    ({"rules": "advanced"}, ["random", "random"]),
    ({}, ["heuristic", "random"]),
    ({"rules": "advanced"}, ["random", "heuristic"]),
    ({"rules": "advanced", "opener": "loser", "first_player": "random"}, ["heuristic", "heuristic"]),
    ({"opener": "winner", "first_player": 1, "first_to": 2}, ["heuristic", "heuristic"]),
    ({"rules": "advanced", "board": [16, 1, 9, 15], "opener": "same"}, ["random", "heuristic"]),
    ({"board": [16, 16, 2, 1, 7], "first_to": 4, "first_player": "random"}, ["random", "heuristic"]),
]


def kernel_game(game, agents, seed):
    """The kernel's game with its real agents, all drawing from the engine's stream."""
    stream = SharedStream(seed)
    seats = [make_agent(name, game, s, seed=0) for s, name in enumerate(agents)]
    for agent in seats:
        agent.rng = stream
    state = game.new_initial_state(seed)
    rounds_won_by_opener = decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(stream.choice(state.legal_actions()))
            continue
        decisions += 1
        opener, before = state.round_opener, list(state.score)
        state.apply_action(seats[state.current_player()].step(state))
        if state.score != before and state.score[opener] != before[opener]:
            rounds_won_by_opener += 1
    return state, rounds_won_by_opener, decisions


@pytest.mark.parametrize("options,agents", CONFIGS)
def test_batched_games_equal_the_kernel_move_for_move(options, agents):
    game = trapworks.make("last-mouse-lost", **options)
    seeds = [7, 2**64 - 1, 123456789] + list(range(1000, 1025))
    rows = game.play_batch(agents, seeds, moves=True)
    for seed, row in zip(seeds, rows, strict=True):
        state, opener_wins, decisions = kernel_game(game, agents, seed)
        assert row["moves"] == state.history(), seed
        assert row["actions"] == len(state.history())  # every action, the opener's draw included
        assert row["length"] == decisions  # the seats' decisions, as the kernel's rows count them
        assert row["winners"] == state.winners() and row["returns"] == state.returns()
        assert row["rounds"] == sum(state.score) and row["opener_wins"] == opener_wins
        assert row["truncated"] is False


def outcome_table(rows_a, rows_b, key):
    a, b = Counter(map(key, rows_a)), Counter(map(key, rows_b))
    cats = sorted(set(a) | set(b))
    table = np.array([[a[c] for c in cats], [b[c] for c in cats]])
    return table[:, table.sum(axis=0) >= 10]  # drop categories too rare for the test


@pytest.mark.parametrize(
    "options,n", [({}, 100_000), ({"rules": "advanced", "first_player": "random", "opener": "loser"}, 20_000)]
)
def test_batched_outcomes_have_the_kernels_distribution(options, n):
    game = trapworks.make("last-mouse-lost", **options)
    rng = random.Random(19)
    choice = rng.choice
    kernel = []
    for _ in range(n):
        state = game.new_initial_state()
        opener_wins = 0
        while not state.is_terminal():
            opener, before = state.round_opener, state.score[:]
            state.apply_action(choice(state.legal_actions()))
            if state.score[opener] != before[opener]:
                opener_wins += 1
        kernel.append(
            {
                "winners": state.winners(),
                "actions": len(state.history()),
                "rounds": sum(state.score),
                "opener_wins": opener_wins,
            }
        )
    batched = game.play_batch(["random", "random"], range(n))

    def outcome(r):
        return (r["winners"][0], r["rounds"], r["opener_wins"])

    table = outcome_table(kernel, batched, outcome)
    assert table.shape[1] >= 8
    assert chi2_contingency(table).pvalue > 0.001
    # Lengths: bins holding about 5% of the kernel's games each.
    edges = np.unique(np.quantile([r["actions"] for r in kernel], np.linspace(0, 1, 21)))

    def length_bin(r):
        return int(np.searchsorted(edges, r["actions"], side="right"))

    table = outcome_table(kernel, batched, length_bin)
    assert table.shape[1] >= 8
    assert chi2_contingency(table).pvalue > 0.001
    # And a check that the test can fail: a biased engine (seat 0 always wins) is rejected.
    biased = [dict(r, winners=[0]) for r in batched]
    assert chi2_contingency(outcome_table(kernel, biased, outcome)).pvalue < 1e-6


def test_batched_engine_refuses_what_it_cannot_play():
    game = trapworks.make("last-mouse-lost")
    assert game.batched_agents == frozenset({"random", "heuristic"})
    with pytest.raises(TrapworksError, match="no batched Last Mouse Lost agent .mcts."):
        game.play_batch(["mcts", "random"], [1])
    with pytest.raises(TrapworksError, match="1 agent for a 2-player game"):
        game.play_batch(["random"], [1])
    booby_trap = trapworks.make("booby-trap")  # a game with no batched engine (its physics is pymunk)
    assert booby_trap.batched_agents == frozenset()
    with pytest.raises(NotImplementedError):
        booby_trap.play_batch(["random"] * 2, [1])
