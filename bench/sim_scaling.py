"""Scaling of `trapworks simulate`: games per second with 1 and 2 workers, on local processes and
on Ray, for the same run (Mouse Trap, heuristic agents, 2 players; the rows of every run are
checked equal). The Ray instance is started before timing (its start-up costs seconds once per
cluster, not per run); times cover playing and writing the Parquet rows.

    .venv/bin/python bench/sim_scaling.py [-n 30000] [--game mouse-trap] [--agents heuristic]
"""

from __future__ import annotations

import argparse
import logging
import os
import tempfile
import time
from pathlib import Path

import pandas as pd

from trapworks.sim.runner import Job, RunSpec, default_chunk_size, execute


def timed(spec: RunSpec, folder: Path, name: str, backend: str, workers: int) -> tuple[float, pd.DataFrame]:
    out = folder / f"{name}.parquet"
    t0 = time.perf_counter()
    execute([Job(spec, out)], backend=backend, workers=workers)
    return time.perf_counter() - t0, pd.read_parquet(out)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("-n", type=int, default=30000)
    parser.add_argument("--game", default="mouse-trap")
    parser.add_argument("--agents", default="heuristic")
    parser.add_argument("--repeat", type=int, default=2, help="runs per setting (the best is kept)")
    args = parser.parse_args()
    import ray

    agents = tuple(args.agents.split(","))
    settings = [(backend, workers) for backend in ("local", "ray") for workers in (1, 2)]
    best = dict.fromkeys(settings, float("inf"))
    reference = None
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        # Settings interleaved, best of --repeat rounds: on a shared machine the load changes
        # from minute to minute, and each setting should see the same spread of it.
        for r in range(args.repeat):
            for backend, workers in settings:
                if backend == "ray":
                    ray.init(
                        address="local",
                        num_cpus=workers,
                        include_dashboard=False,
                        logging_level=logging.ERROR,
                    )
                    # Warm the workers (imports) so start-up is not counted.
                    timed(
                        RunSpec(args.game, agents, 2 * workers, chunk_size=1),
                        folder,
                        "warm",
                        backend,
                        workers,
                    )
                spec = RunSpec(args.game, agents, args.n, chunk_size=default_chunk_size(args.n, workers))
                seconds, df = timed(spec, folder, f"{backend}{workers}-{r}", backend, workers)
                if backend == "ray":
                    ray.shutdown()
                if reference is None:
                    reference = df
                pd.testing.assert_frame_equal(df, reference)  # the same rows on every backend
                best[(backend, workers)] = min(best[(backend, workers)], seconds)
                print(f"round {r + 1}: {backend:5} {workers} worker(s): {seconds:6.2f} s", flush=True)
    results = [(b, w, best[(b, w)], args.n / best[(b, w)]) for b, w in settings]
    load = os.getloadavg()
    print()
    print(f"| backend | workers | seconds (best of {args.repeat}) | games/s | vs 1 worker |")
    print("|---|---:|---:|---:|---:|")
    for backend, workers, best, rate in results:
        one = next(r for b, w, _, r in results if b == backend and w == 1)
        print(f"| {backend} | {workers} | {best:.2f} | {rate:.0f} | {rate / one:.2f}x |")
    print(f"\nload average after the runs (1/5/15 min): {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")
    print(f"CPUs: {os.cpu_count()}")


if __name__ == "__main__":
    main()
