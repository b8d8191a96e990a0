"""13 Dead End Drive: complete random 4-player games per second on one core.

Every game is played to its end by uniformly random legal actions (chance by its odds), in this
one process, and timed whole (setup, move generation with the path search, card play, views not
included). No published engine plays 13 Dead End Drive, so there is no like-for-like peer; for
scale, the same run times OpenSpiel's `backgammon` (C++; also two dice, pieces on a board) with
random play through pyspiel, the same loop in Python.

    python bench/dead_end_drive_games.py [--games 40] [--players 4] [--seed 1] [--markdown]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections import Counter

import trapworks
from trapworks.core import sample_chance


def play_random(game, seed: int):
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    actions = decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        actions += 1
    return state, actions, decisions


def openspiel_backgammon(games: int, seed: int) -> tuple[float, float] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()

    game = trapworks.make("dead-end-drive", players=args.players)
    per_game: list[float] = []
    lengths: list[int] = []
    decisions: list[int] = []
    turns: list[int] = []
    reasons: Counter = Counter()
    start = time.perf_counter()
    for i in range(args.games):
        t0 = time.perf_counter()
        state, n_actions, n_decisions = play_random(game, args.seed + i)
        per_game.append(time.perf_counter() - t0)
        lengths.append(n_actions)
        decisions.append(n_decisions)
        turns.append(state.turns)
        reasons["truncated" if state.truncated else state.win_reason] += 1
    total = time.perf_counter() - start
    peer = openspiel_backgammon(max(10, args.games), args.seed)

    rows = [
        ("complete random games per second", f"{args.games / total:.2f}"),
        ("actions per second (chance included)", f"{sum(lengths) / total:,.0f}"),
        ("seconds per game, median (max)", f"{statistics.median(per_game):.2f} ({max(per_game):.2f})"),
        ("actions per game, median", f"{statistics.median(lengths):,.0f}"),
        ("turns per game, median (max)", f"{statistics.median(turns):,.0f} ({max(turns):,})"),
        ("how the games ended", ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))),
    ]
    if peer:
        rows.append(("peer: OpenSpiel backgammon random games per second", f"{peer[0]:.1f}"))
        rows.append(("peer: OpenSpiel backgammon actions per second", f"{peer[1]:,.0f}"))
    head = (
        f"python {platform.python_version()}, {args.games} games of {args.players} players, "
        f"seeds {args.seed}..{args.seed + args.games - 1}, one process"
    )
    if args.markdown:
        print(head)
        print()
        print("| measure | value |")
        print("|---|---:|")
        for k, v in rows:
            print(f"| {k} | {v} |")
    else:
        print(head)
        for k, v in rows:
            print(f"{k:>52}: {v}")


if __name__ == "__main__":
    main()
