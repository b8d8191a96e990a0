"""13 Dead End Drive's batched engine (batch.py) against the kernel (game.py), issue 31.

Move for move: the kernel's real `random` agents and its chance tables draw from the engine's own
stream (SharedStream), and the kernel's state is dealt, and reshuffles its discard pile, from that
stream as the engine does (batch.deal_from_stream; the kernel's own deal comes from Mersenne
Twister generators the engine does not reproduce). Every game is then the same action list,
with the same winner, returns and statistics as the kernel's events give (stats.game_stats).
Every option of the schema is covered by some configuration. Distribution: with independent
randomness (the kernel's own deal and Python's Mersenne Twister through trapworks.sim.play_one),
winners, endings, lengths and every statistics column agree (fixed seeds: deterministic).

What can make the two sides' distributions differ, the games being the same given the draws, is
the draws themselves, and those are checked directly, sharper and cheaper than whole games can:
the stream's deal is the kernel's own `_deal` with the stream for its generator (exactly), and the
stream's uniform choices, shuffles and chance draws are uniform and its consecutive draws
independent (chi-squared over tens of thousands of draws). The whole-game comparison stays as
the end-to-end check (simulate's own path, its statistics) with 100 kernel games a configuration.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import trapworks
from trapworks.agents import make_agent
from trapworks.core import TrapworksError
from trapworks.games.dead_end_drive.stats import game_stats

pytest.importorskip("numba")
from trapworks.games.dead_end_drive.batch import (  # noqa: E402
    STAT_COLUMNS,
    SharedStream,
    deal_from_stream,
    sample_chance_from_stream,
)
from trapworks.games.dead_end_drive.game import DeadEndDriveState  # noqa: E402

CONFIGS = [
    {"players": 4},
    {"players": 2},
    {"players": 3, "first_player": 2},
    {"players": 4, "first_player": 4, "blocked_die": "lose-turn", "after_draw": "none"},
    {"players": 2, "traps_per_kind": 1, "wild_cards": 0, "detective_cards": 24},
    {"players": 3, "traps_per_kind": 5, "wild_cards": 4, "detective_cards": 0},
    {"players": 4, "passage_hops": 0, "blocked_die": "lose-turn"},
    {"players": 3, "passage_hops": 3, "passage_start_hop": True, "after_draw": "none"},
    {"players": 2, "passage_hops": 5, "passage_start_hop": True, "first_player": 1},
    {"players": 4, "turn_limit": 25},
    {"players": 2, "turn_limit": 1},
]


def kernel_game(game, seed, agents=None):
    """The kernel's game with its real agents (random unless named), its chance tables, its deal
    and its reshuffles all drawing from the engine's stream; the state, every event, the seats'
    decisions."""
    stream = SharedStream(seed)
    agents = agents or ["random"] * game.players
    seats = [make_agent(agents[s], game, s, seed=0) for s in range(game.players)]
    for agent in seats:
        agent.rng = stream
    state = DeadEndDriveState(game, seed=seed, deal=False)
    deal_from_stream(state, stream)
    events = []
    decisions = 0
    state.first_decider = None
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_from_stream(state, stream))
        else:
            if state.first_decider is None:
                state.first_decider = state.current_player()
            state.apply_action(seats[state.current_player()].step(state))
            decisions += 1
        events.extend(state.stat_events())  # the last action's events, each once, as simulate reads them
    return state, events, decisions


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_batched_games_equal_the_kernel_move_for_move(options):
    game = trapworks.make("dead-end-drive", **options)
    seeds = [7, 2**64 - 1, 123456789] + list(range(1000, 1009))
    rows = game.play_batch(["random"] * game.players, seeds, moves=True)
    endings = set()
    for seed, row in zip(seeds, rows, strict=True):
        state, events, decisions = kernel_game(game, seed)
        assert row["moves"] == state.history(), seed
        assert row["actions"] == len(state.history())
        assert row["length"] == decisions
        assert row["winners"] == state.winners() and row["returns"] == state.returns(), seed
        assert row["truncated"] == state.is_truncated()
        assert row["first_seat"] == state.first_decider  # who started (the rows' first_seat)
        stats = game_stats(state, events)
        assert {k: row[k] for k in stats} == stats, seed
        endings.add(row["ending"])
    if options.get("turn_limit") == 1:
        assert endings == {"truncated"}


def _heuristic_seating(players, seed):
    """Every seat the heuristic in one game, the heuristic beside random agents in another."""
    if seed % 2:
        return ["heuristic"] * players
    return ["heuristic" if s % 2 == 0 else "random" for s in range(players)]


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_batched_heuristic_equals_the_kernel_heuristic_move_for_move(options):
    """The engine's heuristic (batch._heuristic) against agents.HeuristicAgent, its rng the
    stream: the same choices, jitter and bluffs drawn in the same order, the same games."""
    game = trapworks.make("dead-end-drive", **options)
    seeds = [7, 2**64 - 1, 123456789, 1000, 1001, 1002]
    endings = Counter()
    for seed in seeds:
        agents = _heuristic_seating(game.players, seed)
        (row,) = game.play_batch(agents, [seed], moves=True)
        state, events, decisions = kernel_game(game, seed, agents)
        assert row["moves"] == state.history(), (seed, agents)
        assert row["length"] == decisions
        assert row["winners"] == state.winners() and row["returns"] == state.returns(), seed
        assert row["truncated"] == state.is_truncated()
        stats = game_stats(state, events)
        assert {k: row[k] for k in stats} == stats, seed
        endings[row["ending"]] += 1
    if options.get("turn_limit") == 1:
        assert set(endings) == {"truncated"}


def test_the_batched_heuristic_bluffs_and_springs_traps():
    """The heuristic's own branches are reached in the compared games' configurations: it springs
    traps with its cards (cards_played), draws (draws) and bluffs."""
    game = trapworks.make("dead-end-drive", players=4)
    rows = game.play_batch(["heuristic"] * 4, range(40))
    assert sum(r["cards_played"] for r in rows) > 0
    assert sum(r["draws"] for r in rows) > 0
    assert sum(r["bluffs"] for r in rows) > 0
    assert {r["ending"] for r in rows} >= {"escape"}


def test_every_option_is_covered_by_a_configuration():
    game = trapworks.make("dead-end-drive")
    covered = {name for options in CONFIGS for name in options}
    # deal=chance (hidden draws as chance nodes) is the kernel's alone: the engine refuses it
    # (test_dd_chance_deal.py).
    assert {o.name for o in game.options_schema} - {"deal"} <= covered


def test_every_ending_and_a_bluff_occur_in_the_move_for_move_games():
    """The configurations reach each way a game ends (so each is compared above)."""
    seen = Counter()
    bluffs = 0
    for options in CONFIGS:
        game = trapworks.make("dead-end-drive", **options)
        for row in game.play_batch(
            ["random"] * game.players, [7, 2**64 - 1, 123456789] + list(range(1000, 1009))
        ):
            seen[row["ending"]] += 1
            bluffs += row["bluffs"]
    assert {"escape", "last-alive", "detective", "truncated"} <= set(seen)
    assert bluffs > 0


def test_unknown_agents_and_seat_counts_are_refused_by_name():
    game = trapworks.make("dead-end-drive", players=3)
    with pytest.raises(TrapworksError, match="'easy'"):
        game.play_batch(["random", "easy", "random"], [1])
    with pytest.raises(TrapworksError, match="2 agents for a 3-player game"):
        game.play_batch(["random", "random"], [1])
    assert type(game).batched_agents == frozenset({"random", "heuristic"})


def _table(a, b):
    cats = sorted(set(a) | set(b))
    t = np.array([[a[c] for c in cats], [b[c] for c in cats]])
    return t[:, t.sum(axis=0) >= 10]


@pytest.mark.slow
@pytest.mark.timeout(900)  # CPU-bound: about 340 s on a loaded 2-core machine, past the default 300
@pytest.mark.parametrize("options", [{"players": 4}, {"players": 2, "wild_cards": 8, "detective_cards": 6}])
def test_batched_outcomes_have_the_kernels_distribution(options):
    from scipy.stats import chi2_contingency

    from trapworks.sim import play_one

    # 100 kernel games (250 before; they are this test's cost, ~0.1-0.3 CPU s each): a column's
    # mean is still caught when it moves by about half a standard deviation of a game (80% power
    # at the 4.5 standard errors allowed: (4.5 + 0.84) * sqrt(1/100 + 1/4000) = 0.54 sd; 0.34 at
    # 250). Its sources of difference, the draws, are checked far more sharply below
    # (test_the_streams_deal_is_the_kernels_deal..., test_the_streams_draws_are_uniform...).
    n_batch, n_kernel = 4000, 100
    game = trapworks.make("dead-end-drive", **options)
    agents = ["random"] * game.players
    rng = random.Random(2026)
    rows = game.play_batch(agents, [rng.randrange(2**64) for _ in range(n_batch)])
    kernel = [play_one("dead-end-drive", options, agents, seed) for seed in range(n_kernel)]
    winners = _table(
        Counter(r["winners"][0] if r["winners"] else -1 for r in rows),
        Counter(k.winners[0] if k.winners else -1 for k in kernel),
    )
    assert chi2_contingency(winners)[1] > 0.001
    endings = _table(Counter(r["ending"] for r in rows), Counter(k.stats["ending"] for k in kernel))
    assert chi2_contingency(endings)[1] > 0.001
    for column in ("length", *STAT_COLUMNS):
        a = np.array([r[column] for r in rows], float)
        b = np.array([k.decisions if column == "length" else k.stats[column] for k in kernel], float)
        se = np.sqrt(a.var() / n_batch + b.var() / n_kernel) or 1.0
        assert abs(a.mean() - b.mean()) < 4.5 * se, column


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_streams_deal_is_the_kernels_deal_with_the_stream_for_generator(players):
    """deal_from_stream is the kernel's `_deal` (hands, 2-player secret cards, the trap pile) with
    the stream in place of Python's generator, and its reshuffles the stream's `shuffle`: so the
    batched games' deals are distributed as the kernel's exactly when the stream's shuffle is
    uniform (next test)."""
    game = trapworks.make("dead-end-drive", players=players)
    for seed in [0, 1, 7, 2**64 - 1, *range(1000, 1050)]:
        kernel = DeadEndDriveState(game, seed=None, deal=False)
        kernel.rng = SharedStream(seed)  # with no seed, `_deal` draws everything from state.rng
        kernel._deal()
        engine = DeadEndDriveState(game, seed=seed, deal=False)
        deal_from_stream(engine, SharedStream(seed))
        assert (engine.chars, engine.secret, engine.pile) == (kernel.chars, kernel.secret, kernel.pile)
        assert sorted(engine.pile) == sorted(game.deck) and len(engine.chars[0]) > 0
        # The discard pile's reshuffle: the stream's shuffle, draw for draw.
        mine, theirs = list(range(20)), list(range(20))
        engine.rng.shuffle(mine)
        kernel.rng.shuffle(theirs)
        assert mine == theirs


def test_the_streams_draws_are_uniform_and_independent():
    """The stream's draws, which stand for Python's Mersenne Twister in the batched games: a
    uniform choice among n (random agents, `below`), a shuffle (the deal: every card equally likely
    in every place), a chance draw by the kernel's own table (the dice), and two consecutive draws
    independent. Chi-squared, fixed seeds (deterministic), each at p > 1e-4. Power (noncentral
    chi-squared, one category's probability off by a share of itself): 5% off fails with
    probability >= 0.99 for a uniform choice among up to 24 and about that for the dice, 10% off
    0.98 for a card's place in the shuffle and 0.84 for a pair of consecutive draws."""
    from types import SimpleNamespace

    from scipy.stats import chisquare

    from trapworks.games.dead_end_drive.components import NUM_PAWNS

    stream = SharedStream(2026)
    for n in (2, 3, 5, 6, 12, 24):
        counts = np.bincount([stream.below(n) for _ in range(30_000 * n)], minlength=n)
        assert chisquare(counts)[1] > 1e-4, (n, counts)
    # Consecutive draws: the 36 pairs of two dice values, equally likely.
    pairs = np.bincount([stream.below(6) * 6 + stream.below(6) for _ in range(200_000)], minlength=36)
    assert chisquare(pairs)[1] > 1e-4, pairs
    # Shuffles of the Character cards: each card's place, uniform for every card.
    places = np.zeros((NUM_PAWNS, NUM_PAWNS), int)
    for _ in range(60_000):
        cards = list(range(NUM_PAWNS))
        stream.shuffle(cards)
        places[cards, np.arange(NUM_PAWNS)] += 1
    for card in range(NUM_PAWNS):
        assert chisquare(places[card])[1] > 1e-4, (card, places[card])
    # The dice, drawn from the kernel's own chance table as the engine draws them.
    # (a roll's `chance_table` is the game's `roll_table`: DeadEndDriveState.chance_table)
    table = trapworks.make("dead-end-drive", players=4).roll_table
    state = SimpleNamespace(chance_table=lambda: table)
    actions, cum = table
    probs = np.diff([0.0, *cum]) / cum[-1]
    index = {a: i for i, a in enumerate(actions)}
    draws = 200_000
    counts = np.bincount(
        [index[sample_chance_from_stream(state, stream)] for _ in range(draws)], minlength=len(actions)
    )
    assert chisquare(counts, probs * draws)[1] > 1e-4, counts


def test_simulate_plays_the_heuristic_in_the_batched_engine_and_says_so(tmp_path):
    """Issue 31: `simulate` with 13 Dead End Drive's heuristic uses the batched engine (and says
    so); the kernel's path (asked for with --max-actions) writes rows of the same schema."""
    import json

    import pyarrow.parquet as pq
    from typer.testing import CliRunner

    from trapworks.cli import app

    def run(*extra):
        # In this process (typer's CliRunner): the command's code and its --json answer, without
        # a `trapworks` process that imports trapworks and loads the engine again each run.
        out = tmp_path / f"rows{len(extra)}.parquet"
        args = [
            "simulate",
            "dead-end-drive",
            "-n",
            "6",
            "--players",
            "3",
            "-a",
            "heuristic",
            "--out",
            str(out),
        ]
        done = CliRunner().invoke(app, [*args, *extra, "--json"])
        assert done.exit_code == 0, (done.output, done.exception)
        return json.loads(done.stdout), pq.read_table(out)

    batched, rows_b = run()
    kernel, rows_k = run("--max-actions", "1000000")
    assert batched["engine"] == "batched" and kernel["engine"] == "kernel"
    assert rows_b.schema == rows_k.schema
    assert rows_b.num_rows == rows_k.num_rows == 6
