"""Random-playout throughput: trapworks' Last Mouse Lost vs OpenSpiel's C++ `nim`.

Both games are the same board (rows/piles 3,5,6,6,5,3), basic rules = misère Nim, one round.
Both are driven by the *same* Python loop: new state, then `apply_action(rng.choice(
legal_actions()))` until terminal. Runs alternate in blocks so that machine load hits both
alike; the figure reported is the median over blocks.

    python bench/lml_playouts.py [--seconds 2] [--blocks 7] [--markdown]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

import pyspiel

import trapworks


def playout_loop(new_state, seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """The shared loop: random playouts until `seconds` pass. Returns (playouts, moves, elapsed)."""
    playouts = moves = 0
    choice = rng.choice
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = new_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
            moves += 1
        playouts += 1
        if playouts % 64 == 0 and time.perf_counter() >= deadline:
            break
    return playouts, moves, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per block and game")
    parser.add_argument("--blocks", type=int, default=7, help="alternating blocks per game")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table row set")
    args = parser.parse_args()

    ours = trapworks.make("last-mouse-lost", rules="basic", first_to=1)
    theirs = pyspiel.load_game("nim", {"pile_sizes": "3;5;6;6;5;3", "is_misere": True})
    contenders = {
        "trapworks last-mouse-lost (Python)": ours.new_initial_state,
        "OpenSpiel nim (C++ via pybind11)": theirs.new_initial_state,
    }
    rates: dict[str, list[float]] = {k: [] for k in contenders}
    move_rates: dict[str, list[float]] = {k: [] for k in contenders}
    rng = random.Random(12345)
    for _ in range(args.blocks):
        for name, new_state in contenders.items():
            n, m, dt = playout_loop(new_state, args.seconds, rng)
            rates[name].append(n / dt)
            move_rates[name].append(m / dt)

    med = {k: statistics.median(v) for k, v in rates.items()}
    names = list(contenders)
    ratio = med[names[0]] / med[names[1]]
    print(
        f"python {platform.python_version()}, pyspiel nim pile_sizes=3;5;6;6;5;3 misère, "
        f"{args.blocks} blocks x {args.seconds}s each, median over blocks"
    )
    print(
        "| implementation | playouts/s (median) | min–max over blocks | moves/s (median) "
        "| moves per playout |"
    )
    print("|---|---:|---:|---:|---:|")
    for k in names:
        mr = statistics.median(move_rates[k])
        print(
            f"| {k} | {med[k]:,.0f} | {min(rates[k]):,.0f}–{max(rates[k]):,.0f} | {mr:,.0f} | "
            f"{mr / med[k]:.1f} |"
        )
    print(f"\nratio trapworks / OpenSpiel (playouts per second): **{ratio:.2f}**")


if __name__ == "__main__":
    main()
