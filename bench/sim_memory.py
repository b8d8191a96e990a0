"""Peak memory of `trapworks simulate` against the number of games: the driver (the process
that runs the command) and the workers (local worker processes, or Ray's worker processes;
Ray's own daemons are listed apart), for Mouse Trap rows with 2 local workers and on a private
Ray instance with 2 CPUs. Memory is sampled from /proc (psutil) every 0.2 s over the whole
process tree; the rows of each run are checked (count and index).

    .venv/bin/python bench/sim_memory.py -n 100000 1000000 [--backend local ray] \
        [--agents heuristic] [--players 4] [--max-actions N]

`--max-actions N` stops each game after N actions (a truncated game is a full row: every
column of a Mouse Trap row, so the rows, chunks and files weigh what full games' do); it makes
a million rows affordable on a small machine. Flat means: the 1,000,000-game peak within 1.2x
of the 100,000-game peak.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import pyarrow.parquet as pq

TRAPWORKS = str(Path(sys.executable).with_name("trapworks"))
RAY_DAEMONS = ("gcs_server", "raylet", "dashboard", "log_monitor", "monitor.py", "runtime_env", "plasma")


def sample(proc: psutil.Process, peaks: dict[str, float], stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            tree = [proc, *proc.children(recursive=True)]
        except psutil.NoSuchProcess:
            return
        workers = daemons = 0.0
        for p in tree:
            try:
                rss = p.memory_info().rss / 2**20
                line = " ".join(p.cmdline())
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            if p.pid == proc.pid:
                peaks["driver"] = max(peaks["driver"], rss)
            elif any(d in line for d in RAY_DAEMONS):
                daemons += rss
            else:
                peaks["worker"] = max(peaks["worker"], rss)
                workers += rss
        peaks["workers_total"] = max(peaks["workers_total"], workers)
        peaks["ray_daemons"] = max(peaks["ray_daemons"], daemons)
        stop.wait(0.2)


def measure(n: int, backend: str, args: argparse.Namespace, folder: Path) -> dict[str, float]:
    out = folder / f"{backend}-{n}.parquet"
    cmd = [TRAPWORKS, "simulate", "mouse-trap", "-n", str(n), "-p", str(args.players), "-a", args.agents]
    cmd += ["--workers", "2", "--backend", backend, "--out", str(out), "--json", "--seed", "1"]
    if args.max_actions:
        cmd += ["--max-actions", str(args.max_actions)]
    peaks = {"driver": 0.0, "worker": 0.0, "workers_total": 0.0, "ray_daemons": 0.0}
    stop = threading.Event()
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    watcher = threading.Thread(target=sample, args=(psutil.Process(proc.pid), peaks, stop), daemon=True)
    watcher.start()
    stdout, stderr = proc.communicate()
    stop.set()
    watcher.join()
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {stderr[-2000:]}")
    summary = json.loads(stdout)
    meta = pq.ParquetFile(out).metadata
    assert summary["games"] == n == meta.num_rows, (summary["games"], meta.num_rows)
    size = out.stat().st_size / 2**20
    out.unlink()
    return {"games": n, "seconds": seconds, "file_mib": size, **peaks}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("-n", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--backend", nargs="+", default=["local", "ray"])
    parser.add_argument("--agents", default="heuristic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--max-actions", type=int, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="simmem") as tmp:
        results = []
        for backend in args.backend:
            for n in args.n:
                r = measure(n, backend, args, Path(tmp))
                r["backend"] = backend
                results.append(r)
                print(
                    f"{backend:5} {n:>9,} games {r['seconds']:7.0f} s  driver peak {r['driver']:6.0f} MiB  "
                    f"worker peak {r['worker']:6.0f} MiB (all workers {r['workers_total']:6.0f} MiB)  "
                    f"Ray daemons {r['ray_daemons']:6.0f} MiB  rows {r['file_mib']:.1f} MiB",
                    flush=True,
                )
        for backend in args.backend:
            runs = sorted((r for r in results if r["backend"] == backend), key=lambda r: r["games"])
            if len(runs) > 1:
                a, b = runs[0], runs[-1]
                print(
                    f"{backend}: driver {b['driver'] / a['driver']:.2f}x, "
                    f"worker {b['worker'] / a['worker']:.2f}x from {a['games']:,} to {b['games']:,} games"
                )


if __name__ == "__main__":
    main()
