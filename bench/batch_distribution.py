"""The batched engines against the kernel by distribution (issue 31, the 100k check): for Mouse
Trap and 13 Dead End Drive, `--engine` games (default 100,000) in the engine and `--kernel` games
through the kernel path (`trapworks.sim.play_one`: the kernel's agents with their own Mersenne
Twister randomness, independent of the engine's stream). The kernel side is sampled smaller by
default (2,000 games: the kernel plays 13 Dead End Drive at tens of games per second); the
standard errors below count both sample sizes.

Printed per configuration: every statistics column and the game length (seats' decisions), each
as the engine's mean, the kernel's mean and z = (difference) / (standard error of the
difference); winners by seat (-1: nobody) as shares, with the chi-square p-value of the two
tables; 13 Dead End Drive's endings the same way.

    python bench/batch_distribution.py [--engine 100000] [--kernel 2000] [--only mouse-trap]
        [--workers 2]

The engine's games are played in calls of 10,000 (the same games as one call: each game is its
seed's); `--workers` plays the kernel's games in that many processes (the same games, in order).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from multiprocessing import Pool
from typing import Any

import numpy as np
from scipy.stats import chi2_contingency

import trapworks
from trapworks.games.dead_end_drive import batch as dd_batch
from trapworks.games.mouse_trap import batch as mt_batch
from trapworks.sim import play_one

CONFIGS: list[tuple[str, dict[str, Any], list[str], Any]] = [
    ("mouse-trap", {"players": 4}, ["random"] * 4, mt_batch),
    ("mouse-trap", {"players": 4}, ["heuristic"] * 4, mt_batch),
    ("mouse-trap", {"players": 2, "variant": "original"}, ["random", "heuristic"], mt_batch),
    ("dead-end-drive", {"players": 4}, ["random"] * 4, dd_batch),
    ("dead-end-drive", {"players": 2}, ["random"] * 2, dd_batch),
]


def _p(a: Counter, b: Counter) -> float:
    cats = sorted(set(a) | set(b), key=str)
    t = np.array([[a[c] for c in cats], [b[c] for c in cats]])
    t = t[:, t.sum(axis=0) >= 10]
    return float(chi2_contingency(t)[1]) if t.shape[1] > 1 else 1.0


def _kernel_game(job: tuple[str, dict, list[str], int]) -> Any:
    return play_one(*job)


def compare(
    game_id: str, options: dict, agents: list[str], batch: Any, n_engine: int, n_kernel: int, workers: int = 1
) -> None:
    game = trapworks.make(game_id, **options)
    rng = random.Random(2026)
    seeds = [rng.randrange(2**64) for _ in range(n_engine)]
    t0 = time.perf_counter()
    rows = []
    for i in range(0, n_engine, 10_000):
        rows.extend(batch.play_batch(game, agents, seeds[i : i + 10_000]))
    t1 = time.perf_counter()
    jobs = [(game_id, options, agents, seed) for seed in range(n_kernel)]
    if workers > 1:
        with Pool(workers) as pool:
            kernel = pool.map(_kernel_game, jobs, chunksize=10)
    else:
        kernel = [_kernel_game(job) for job in jobs]
    t2 = time.perf_counter()
    print(
        f"\n### {game_id} {options} {','.join(agents)}: engine {n_engine:,} games ({t1 - t0:.1f} s), "
        f"kernel {n_kernel:,} games ({t2 - t1:.1f} s)\n"
    )
    print("| column | engine mean | kernel mean | z |")
    print("|---|---:|---:|---:|")
    for column in ("length", *batch.STAT_COLUMNS):
        a = np.array([r[column] for r in rows], float)
        b = np.array([k.decisions if column == "length" else k.stats[column] for k in kernel], float)
        se = float(np.sqrt(a.var() / len(a) + b.var() / len(b)))
        z = (a.mean() - b.mean()) / se if se else 0.0
        print(f"| {column} | {a.mean():.4f} | {b.mean():.4f} | {z:+.2f} |")
    wa = Counter(r["winners"][0] if r["winners"] else -1 for r in rows)
    wb = Counter(k.winners[0] if k.winners else -1 for k in kernel)
    seats = sorted(set(wa) | set(wb))
    print(
        "\nwinners by seat (engine / kernel): "
        + ", ".join(f"{s}: {wa[s] / n_engine:.3f} / {wb[s] / n_kernel:.3f}" for s in seats)
        + f"; chi-square p = {_p(wa, wb):.3f}"
    )
    if "ending" in rows[0]:
        ea = Counter(r["ending"] for r in rows)
        eb = Counter(k.stats["ending"] for k in kernel)
        print(
            "endings (engine / kernel): "
            + ", ".join(
                f"{e}: {ea[e] / n_engine:.3f} / {eb[e] / n_kernel:.3f}" for e in sorted(set(ea) | set(eb))
            )
            + f"; chi-square p = {_p(ea, eb):.3f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", type=int, default=100_000, help="games in the engine per configuration")
    ap.add_argument("--kernel", type=int, default=2_000, help="games through the kernel per configuration")
    ap.add_argument("--only", default=None, help="one game id")
    ap.add_argument(
        "--players", type=int, default=None, help="only the configurations with this many players"
    )
    ap.add_argument("--workers", type=int, default=1, help="processes for the kernel's games")
    args = ap.parse_args()
    for game_id, options, agents, batch in CONFIGS:
        if args.only and game_id != args.only:
            continue
        if args.players and options["players"] != args.players:
            continue
        compare(game_id, options, agents, batch, args.engine, args.kernel, args.workers)


if __name__ == "__main__":
    main()
