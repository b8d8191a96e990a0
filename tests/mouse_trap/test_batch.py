"""Mouse Trap's batched engine (batch.py) against the kernel (game.py), issue 31.

Move for move: the kernel's real agents and its chance tables draw from the engine's own stream
(SharedStream), and every game is the same action list, with the same winner, length and
statistics as the kernel's events give (stats.game_stats). Every option of the schema is covered
by some configuration. Distribution: with independent randomness (the kernel with Python's
Mersenne Twister through trapworks.sim.play_one), the outcomes and lengths agree (chi-square on
fixed seeds, so the test is deterministic).
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import trapworks
from trapworks.agents import make_agent
from trapworks.core import TrapworksError
from trapworks.games.mouse_trap.stats import game_stats

pytest.importorskip("numba")
from trapworks.games.mouse_trap.batch import SharedStream, sample_chance_from_stream  # noqa: E402

CONFIGS = [
    ({"players": 2}, ["random", "random"]),
    ({"players": 4}, ["random", "random", "random", "random"]),
    ({"players": 3, "variant": "original"}, ["heuristic", "random", "heuristic"]),
    (
        {"players": 4, "variant": "original", "first_player": "random"},
        ["random", "heuristic", "random", "double-catch"],
    ),
    ({"players": 4}, ["heuristic", "heuristic", "double-catch", "heuristic"]),
    ({"players": 3, "cheese_supply": 4, "steal_tie": "choose-or-divide"}, ["random", "random", "heuristic"]),
    (
        {"players": 4, "cheese_supply": 0, "empty_pile_source": "any"},
        ["random", "heuristic", "random", "random"],
    ),
    (
        {"players": 3, "follow_destination": True, "safe_protects_cheese": False, "crank_required": False},
        ["random", "random", "random"],
    ),
    (
        {
            "players": 4,
            "pay_while_mouse_on_wheel": False,
            "pay_miss_ends_turn": True,
            "build_optional": False,
        },
        ["random", "random", "heuristic", "random"],
    ),
    ({"players": 2, "trap_reliability": 1.0, "first_player": 1}, ["random", "heuristic"]),
    ({"players": 3, "trap_reliability": 0.0, "turn_limit": 40}, ["random", "random", "random"]),
    ({"players": 4, "trap_stage_odds": {"stairs": 0.5, "bathtub": 1.0}, "turn_limit": None}, ["random"] * 4),
    (
        {"players": 2, "variant": "original", "steal_tie": "choose-or-divide", "empty_pile_source": "most"},
        ["random"] * 2,
    ),
    ({"players": 3, "paid_move_follows": False}, ["random", "double-catch", "random"]),
    ({"players": 4, "variant": "original", "paid_move_follows": False}, ["random"] * 4),
]


def kernel_game(game, agents, seed):
    """The kernel's game with its real agents and chance tables, all drawing from the engine's stream;
    the state and every event (for the statistics)."""
    stream = SharedStream(seed)
    seats = [make_agent(name, game, s, seed=0) for s, name in enumerate(agents)]
    for agent in seats:
        agent.rng = stream
    state = game.new_initial_state(seed)
    events = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_from_stream(state, stream))
        else:
            state.apply_action(seats[state.current_player()].step(state))
        events.extend(state.all_events())  # the last action's events, each once
    return state, events


@pytest.mark.parametrize("options,agents", CONFIGS)
def test_batched_games_equal_the_kernel_move_for_move(options, agents):
    game = trapworks.make("mouse-trap", **options)
    seeds = [7, 2**64 - 1, 123456789] + list(range(1000, 1017))
    rows = game.play_batch(agents, seeds, moves=True)
    for seed, row in zip(seeds, rows, strict=True):
        state, events = kernel_game(game, agents, seed)
        assert row["moves"] == state.history(), seed
        assert row["actions"] == len(state.history())
        assert row["winners"] == state.winners() and row["returns"] == state.returns()
        assert row["truncated"] == state.is_truncated()
        first = next((e["player"] for e in events if e["type"] == "first"), game.options["first_player"])
        assert row["first_seat"] == first
        stats = game_stats(state, events)
        assert {k: row[k] for k in stats} == stats, seed


def test_results_do_not_depend_on_the_number_of_threads(monkeypatch):
    """play_columns splits a batch into one chunk of games per thread (issue 42: the serial
    engine without numba's parallel loop); each game is its seed's, whatever the split, moves
    included (a chunk's stream state or scratch shared with another would show here)."""
    from trapworks.games.mouse_trap import batch

    game = trapworks.make("mouse-trap", players=4, variant="original", first_player="random")
    agents = ["random", "heuristic", "random", "double-catch"]
    seeds = list(range(500, 3500))
    monkeypatch.setattr(batch, "_play_threads", lambda count: 1)
    one = batch.play_columns(game, agents, seeds, moves=True, max_moves=4000)
    monkeypatch.setattr(batch, "_play_threads", lambda count: 3)
    three = batch.play_columns(game, agents, seeds, moves=True, max_moves=4000)
    assert one.keys() == three.keys()
    for key in one:
        assert np.array_equal(one[key], three[key]), key


def test_every_option_is_covered_by_a_configuration():
    game = trapworks.make("mouse-trap")
    covered = {name for options, _ in CONFIGS for name in options}
    assert {o.name for o in game.options_schema} <= covered


def test_unknown_agents_and_seat_counts_are_refused_by_name():
    game = trapworks.make("mouse-trap", players=3)
    with pytest.raises(TrapworksError, match="mcts"):
        game.play_batch(["random", "mcts", "random"], [1])
    with pytest.raises(TrapworksError, match="2 agents for a 3-player game"):
        game.play_batch(["random", "random"], [1])


def _table(a, b):
    cats = sorted(set(a) | set(b))
    t = np.array([[a[c] for c in cats], [b[c] for c in cats]])
    return t[:, t.sum(axis=0) >= 10]


@pytest.mark.parametrize(
    "options,agents",
    [({"players": 4}, ["heuristic"] * 4), ({"players": 2, "variant": "original"}, ["random", "heuristic"])],
)
def test_batched_outcomes_have_the_kernels_distribution(options, agents):
    from scipy.stats import chi2_contingency

    from trapworks.sim import play_one

    n = 3000
    game = trapworks.make("mouse-trap", **options)
    rng = random.Random(2026)
    rows = game.play_batch(agents, [rng.randrange(2**64) for _ in range(n)])
    kernel = [play_one("mouse-trap", options, agents, seed) for seed in range(n)]
    winners = _table(
        Counter(r["winners"][0] if r["winners"] else -1 for r in rows),
        Counter(k.winners[0] if k.winners else -1 for k in kernel),
    )
    assert chi2_contingency(winners)[1] > 0.001
    # game length in decisions, in bins of 20
    lengths = _table(Counter(r["length"] // 20 for r in rows), Counter(k.decisions // 20 for k in kernel))
    assert chi2_contingency(lengths)[1] > 0.001
    for column in ("cranks", "captures", "jams", "cheese_paid", "steals"):
        a = np.array([r[column] for r in rows], float)
        b = np.array([k.stats[column] for k in kernel], float)
        se = np.sqrt(a.var() / n + b.var() / n) or 1.0
        assert abs(a.mean() - b.mean()) < 4.5 * se, column


def test_the_engine_uses_the_kernels_action_ids():
    from trapworks.games.mouse_trap import batch, game

    for name in ("ROLL", "CRANK", "END", "BUILD", "MOVE_BASE", "STEAL_BASE", "WORKS", "JAMS", "FIRST_BASE"):
        assert getattr(batch, name) == getattr(game, name), name


def _cli_json(*args: str) -> dict:
    """`trapworks ARGS --json`, run in this process by typer's CliRunner: the command's own code
    and its --json answer, without a new Python process that imports trapworks, loads the
    compiled engine and the report's libraries again for each run (these three tests ran the CLI
    six times as subprocesses; the CLI's process itself is tested by tests/cli and tests/sim)."""
    import json

    from typer.testing import CliRunner

    from trapworks.cli import app

    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, (result.output, result.exception)
    return json.loads(result.stdout)


def test_simulate_uses_the_batched_engine_and_says_so(tmp_path):
    import pyarrow.parquet as pq

    def run(*extra):
        out = tmp_path / f"rows{len(extra)}.parquet"
        args = ["simulate", "mouse-trap", "-n", "40", "--players", "3", "-a", "heuristic", "--out", str(out)]
        return _cli_json(*args, *extra), pq.read_table(out)

    batched, rows_b = run()
    kernel, rows_k = run("--max-actions", "100000")  # --max-actions asks for the kernel's path
    assert batched["engine"] == "batched" and kernel["engine"] == "kernel"
    assert rows_b.schema == rows_k.schema  # the rows are the same schema either way


def test_explore_uses_the_batched_engine_and_says_so(tmp_path):
    """Issue 31: explore, like simulate, says which engine played its cells (summary, --json and
    the report)."""

    def run(name, *extra):
        out = tmp_path / name
        args = ["explore", "mouse-trap", "--vary", "variant=milton-bradley,original", "--players", "3"]
        args += ["-a", "heuristic", "-n", "6", "--out", str(out), *extra]
        return _cli_json(*args), (out / "report.md").read_text()

    batched, report_b = run("b")
    kernel, report_k = run("k", "--max-actions", "100000")  # --max-actions asks for the kernel
    assert batched["engine"] == "batched" and kernel["engine"] == "kernel"
    assert "batched engine (compiled) played every cell" in report_b
    assert "the Python kernel played every cell" in report_k


def test_tournament_uses_the_batched_engine_and_says_so(tmp_path):
    def run(*extra):
        args = ["tournament", "mouse-trap", "-a", "heuristic,double-catch", "-n", "20", "--players", "2"]
        args += ["--out", str(tmp_path / f"t{len(extra)}.parquet"), *extra]
        return _cli_json(*args)

    assert run()["engine"] == "batched"
    assert run("--max-actions", "100000")["engine"] == "kernel"
