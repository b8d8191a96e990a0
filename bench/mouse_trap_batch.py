"""Mouse Trap games per second: the batched engine (batch.py, numba) against the kernel path that
`trapworks simulate` ran before it (`trapworks.sim.play_one`: one game at a time through the
Python kernel with the kernel's agents), on one core, in one run (issue 31).

For each agent set and player count, both contenders play in alternating blocks of about
`--seconds` each; the median games per second over the blocks is reported, by CPU time of this
process (with NUMBA_NUM_THREADS=1 the engine runs on one thread, as the kernel does; the
machine may be shared: time given to other processes is not counted). The engine's compile
time is excluded (one warm-up call). "rows": `play_batch`, one Python dict per game (what
`simulate` reads); "columns": `play_columns`, the same results as NumPy columns.

    NUMBA_NUM_THREADS=1 python bench/mouse_trap_batch.py [--seconds 2] [--blocks 3]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import trapworks
from trapworks.games.mouse_trap.batch import play_batch, play_columns
from trapworks.sim import play_one

CLOCK = time.process_time


def kernel_rate(options: dict, agents: list[str], seconds: float, start: int) -> tuple[float, int]:
    t0 = CLOCK()
    n = 0
    while CLOCK() - t0 < seconds:
        play_one("mouse-trap", options, agents, start + n)
        n += 1
    return n / (CLOCK() - t0), start + n


def batched_rate(play, game, agents: list[str], seconds: float, start: int, batch: int) -> tuple[float, int]:
    t0 = CLOCK()
    n = 0
    while CLOCK() - t0 < seconds:
        play(game, agents, range(start + n, start + n + batch))
        n += batch
    return n / (CLOCK() - t0), start + n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--blocks", type=int, default=3)
    ap.add_argument("--batch", type=int, default=20000, help="games per play_batch call")
    args = ap.parse_args()
    print(
        f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
        f"CPU time of one process, median of {args.blocks} blocks of {args.seconds} s"
    )
    print(
        "| game | agents | kernel games/s | batched, rows | batched, columns "
        "| rows / kernel | columns / kernel |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    for players, agents, options in [
        (4, ["random"] * 4, {"players": 4}),
        (4, ["heuristic"] * 4, {"players": 4}),
        (2, ["random", "heuristic"], {"players": 2, "variant": "original"}),
    ]:
        game = trapworks.make("mouse-trap", **options)
        game.play_batch(agents, range(10))  # compile (cached on disk after the first run)
        ks, rs, cs = [], [], []
        seed_k = seed_r = seed_c = 0
        for _ in range(args.blocks):
            rate, seed_k = kernel_rate(options, agents, args.seconds, seed_k)
            ks.append(rate)
            rate, seed_r = batched_rate(play_batch, game, agents, args.seconds, seed_r, args.batch)
            rs.append(rate)
            rate, seed_c = batched_rate(play_columns, game, agents, args.seconds, seed_c, args.batch)
            cs.append(rate)
        k, r, c = statistics.median(ks), statistics.median(rs), statistics.median(cs)
        label = f"Mouse Trap {players}p {options.get('variant', 'milton-bradley')}"
        print(
            f"| {label} | {','.join(agents)} | {k:,.0f} | {r:,.0f} | {c:,.0f} "
            f"| {r / k:,.1f}x | {c / k:,.1f}x |",
            flush=True,
        )


if __name__ == "__main__":
    main()
