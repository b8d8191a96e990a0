"""13 Dead End Drive games per second: the batched engine (batch.py, numba) against the kernel
path that `trapworks simulate` runs (`trapworks.sim.play_one`: one game at a time through the
Python kernel with the kernel's agents), on one core, in one run (issue 31).

For each player count, both contenders play in alternating blocks of about `--seconds` each; the
median games per second over the blocks is reported, by CPU time of this process (with
NUMBA_NUM_THREADS=1 the engine runs on one thread, as the kernel does; time the shared machine
gives other processes is not counted). The engine's compile time is excluded (one warm-up call).
"rows": `play_batch`, one Python dict per game (what `simulate` reads); "columns":
`play_columns`, the same results as NumPy columns. The agent is `random` (the one the engine
plays). With `--distribution N`, N batched games and N kernel games of the 4-player game are
also compared (the 100k distribution check of issue 31; N=100000 takes about 20 minutes of
kernel time).

    NUMBA_NUM_THREADS=1 python bench/dead_end_drive_batch.py [--seconds 3] [--blocks 3]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections import Counter

import trapworks
from trapworks.games.dead_end_drive.batch import STAT_COLUMNS, play_batch, play_columns
from trapworks.sim import play_one

CLOCK = time.process_time


def kernel_rate(options: dict, agents: list[str], seconds: float, start: int) -> tuple[float, int]:
    t0 = CLOCK()
    n = 0
    while CLOCK() - t0 < seconds:
        play_one("dead-end-drive", options, agents, start + n)
        n += 1
    return n / (CLOCK() - t0), start + n


def batched_rate(play, game, agents: list[str], seconds: float, start: int, batch: int) -> tuple[float, int]:
    t0 = CLOCK()
    n = 0
    while CLOCK() - t0 < seconds:
        play(game, agents, range(start + n, start + n + batch))
        n += batch
    return n / (CLOCK() - t0), start + n


def distribution(n: int) -> None:
    """Means of every column and the ending shares, batched against kernel, n games each."""
    import numpy as np

    options = {"players": 4}
    agents = ["random"] * 4
    game = trapworks.make("dead-end-drive", **options)
    rows = play_batch(game, agents, range(10**9, 10**9 + n))
    kernel = [play_one("dead-end-drive", options, agents, seed) for seed in range(n)]
    print(f"\n{n} games each, 4p random: column | batched mean | kernel mean | z")
    for column in ("length", *STAT_COLUMNS):
        a = np.array([r[column] for r in rows], float)
        b = np.array([k.decisions if column == "length" else k.stats[column] for k in kernel], float)
        se = np.sqrt(a.var() / n + b.var() / n) or 1.0
        print(f"| {column} | {a.mean():.3f} | {b.mean():.3f} | {(a.mean() - b.mean()) / se:+.2f} |")
    print("endings:", Counter(r["ending"] for r in rows), Counter(k.stats["ending"] for k in kernel))
    print("winners:", Counter(tuple(r["winners"]) for r in rows), Counter(tuple(k.winners) for k in kernel))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--blocks", type=int, default=3)
    ap.add_argument("--batch", type=int, default=500, help="games per play_batch call")
    ap.add_argument("--distribution", type=int, default=0, help="also compare N games each (4p)")
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
    for players in (4, 2):
        options = {"players": players}
        agents = ["random"] * players
        game = trapworks.make("dead-end-drive", **options)
        game.play_batch(agents, range(4))  # compile (cached on disk after the first run)
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
        print(
            f"| 13 Dead End Drive {players}p | {','.join(agents)} | {k:,.1f} | {r:,.0f} | {c:,.0f} "
            f"| {r / k:,.1f}x | {c / k:,.1f}x |",
            flush=True,
        )
    if args.distribution:
        distribution(args.distribution)


if __name__ == "__main__":
    main()
