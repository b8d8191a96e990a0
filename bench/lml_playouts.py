"""Random-playout throughput: trapworks' Last Mouse Lost vs OpenSpiel's C++ `nim`.

Both games are the same board (rows/piles 3,5,6,6,5,3), basic rules = misère Nim, one round.
Single-state contenders are driven by the *same* Python loop: new state, then
`apply_action(rng.choice(legal_actions()))` until terminal. trapworks' states have their hot path
compiled (_fastlml.c) where the extension is built; the same game on the pure-Python path
(what runs without it) is a contender too. Also in the same run: trapworks'
advanced rules through the same loop (a different game, more moves per round), and the batched
engine (`Game.play_batch`: the compiled engine's C match loop, one round per seed, random
policy) for both rule sets, timed as columns (batch.play_arrays) and as the row dicts
play_batch returns. Contenders alternate in blocks so that machine load hits all alike; the
figure is the median over blocks.

    python bench/lml_playouts.py [--seconds 2] [--blocks 7]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

import numpy as np
import pyspiel

import trapworks
from trapworks.games.last_mouse_lost import game as lml_game
from trapworks.games.last_mouse_lost.batch import play_arrays

# What a block's seconds are: wall-clock time (default), or this process's CPU time (--clock cpu:
# on a machine shared with other jobs, the time the scheduler gave to other processes is not
# counted against the contender that happened to be running).
CLOCK = time.perf_counter


def playout_loop(new_state, seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """The shared loop: random playouts until `seconds` pass. Returns (playouts, moves, elapsed)."""
    playouts = moves = 0
    choice = rng.choice
    start = CLOCK()
    deadline = start + seconds
    while True:
        state = new_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
            moves += 1
        playouts += 1
        if playouts % 64 == 0 and CLOCK() >= deadline:
            break
    return playouts, moves, CLOCK() - start


class _Floor:
    """The floor of the shared loop for any Python state: methods that do no work (13 moves of
    a constant 14-action list, the same shape as a round of the game)."""

    __slots__ = ("left",)
    LEGAL = list(range(14))

    def __init__(self) -> None:
        self.left = 13

    def is_terminal(self) -> bool:
        return self.left == 0

    def legal_actions(self) -> list[int]:
        return self.LEGAL[:]

    def apply_action(self, action: int) -> None:
        self.left -= 1


def batched_loop(game, seconds: float, rng: random.Random, rows: bool) -> tuple[int, int, float]:
    """The batched engine: batches of one-round games with fresh seeds until `seconds` pass."""
    size = 20_000 if rows else 400_000
    playouts = moves = 0
    start = CLOCK()
    while CLOCK() - start < seconds:
        first = rng.randrange(2**62)
        if rows:
            out = game.play_batch(["random", "random"], range(first, first + size))
            moves += sum(r["length"] for r in out)
        else:
            seeds = np.arange(first, first + size, dtype=np.uint64)
            moves += int(play_arrays(game, ["random", "random"], seeds)["length"].sum())
        playouts += size
    return playouts, moves, CLOCK() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per block and game")
    parser.add_argument("--blocks", type=int, default=7, help="alternating blocks per game")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table row set")
    parser.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall", help="time blocks by wall clock or CPU time"
    )
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter

    ours = trapworks.make("last-mouse-lost", rules="basic", first_to=1)
    # The same game on the Python reference path (what runs where the C extension is not built).
    pure = trapworks.make("last-mouse-lost", rules="basic", first_to=1)
    pure.state_class = lml_game.LastMouseLostState
    pure._initial = pure.state_class(pure)
    compiled = type(ours.new_initial_state()) is not lml_game.LastMouseLostState
    advanced = trapworks.make("last-mouse-lost", rules="advanced", first_to=1)
    theirs = pyspiel.load_game("nim", {"pile_sizes": "3;5;6;6;5;3", "is_misere": True})
    for g in (ours, advanced):  # compile the batched engine before timing
        g.play_batch(["random", "random"], [1])
    nim = "OpenSpiel nim (C++ via pybind11), same loop"
    basic = f"trapworks last-mouse-lost basic ({'compiled state' if compiled else 'Python'}), same loop"
    p_basic = "trapworks last-mouse-lost basic (Python reference path), same loop"
    adv = f"trapworks last-mouse-lost advanced ({'compiled state' if compiled else 'Python'}), same loop"
    b_basic = "trapworks batched basic (C match loop), columns"
    b_adv = "trapworks batched advanced (C match loop), columns"
    r_basic = "trapworks batched basic (C match loop), play_batch row dicts"
    floor = "floor: a Python state whose methods do nothing, same loop"
    contenders = {
        basic: lambda sec, rng: playout_loop(ours.new_initial_state, sec, rng),
        nim: lambda sec, rng: playout_loop(theirs.new_initial_state, sec, rng),
        p_basic: lambda sec, rng: playout_loop(pure.new_initial_state, sec, rng),
        adv: lambda sec, rng: playout_loop(advanced.new_initial_state, sec, rng),
        b_basic: lambda sec, rng: batched_loop(ours, sec, rng, rows=False),
        b_adv: lambda sec, rng: batched_loop(advanced, sec, rng, rows=False),
        r_basic: lambda sec, rng: batched_loop(ours, sec, rng, rows=True),
        floor: lambda sec, rng: playout_loop(_Floor, sec, rng),
    }
    rates: dict[str, list[float]] = {k: [] for k in contenders}
    move_rates: dict[str, list[float]] = {k: [] for k in contenders}
    rng = random.Random(12345)
    for _ in range(args.blocks):
        for name, run in contenders.items():
            n, m, dt = run(args.seconds, rng)
            rates[name].append(n / dt)
            move_rates[name].append(m / dt)

    med = {k: statistics.median(v) for k, v in rates.items()}
    mmed = {k: statistics.median(v) for k, v in move_rates.items()}
    print(
        f"python {platform.python_version()}, pyspiel nim pile_sizes=3;5;6;6;5;3 misère, one round per "
        f"playout, {args.blocks} blocks x {args.seconds}s ({args.clock} clock) each per contender, median "
        "over blocks, one core"
    )
    print(
        "| implementation | playouts/s (median) | min–max over blocks | moves/s (median) "
        "| moves per playout |"
    )
    print("|---|---:|---:|---:|---:|")
    for k in contenders:
        print(
            f"| {k} | {med[k]:,.0f} | {min(rates[k]):,.0f}–{max(rates[k]):,.0f} | {mmed[k]:,.0f} | "
            f"{mmed[k] / med[k]:.1f} |"
        )
    print()
    print(f"single-state basic / nim (playouts per second): **{med[basic] / med[nim]:.2f}**")
    print(f"pure-Python path basic / nim: **{med[p_basic] / med[nim]:.2f}**")
    print(f"floor (no work) / nim: **{med[floor] / med[nim]:.2f}**")
    print(f"batched basic (columns) / nim: **{med[b_basic] / med[nim]:.1f}**")
    print(f"batched basic (row dicts) / nim: **{med[r_basic] / med[nim]:.1f}**")
    print(
        f"single-state advanced / basic: playouts/s **{med[adv] / med[basic]:.2f}**, "
        f"moves/s **{mmed[adv] / mmed[basic]:.2f}**"
    )
    print(f"batched advanced / batched basic (playouts/s): **{med[b_adv] / med[b_basic]:.2f}**")


if __name__ == "__main__":
    main()
