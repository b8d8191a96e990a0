"""A compiled engine's first run against its second (issue 42): the same `simulate` command
twice on a fresh data folder (so numba's cache, the data folder's numba-cache/, starts empty),
timing when "Compiling..." and "Engine ready" are printed, the whole command's wall time and
the CPU time of the command and everything it started (driver, compiler child, workers).

    python bench/first_run.py                 # simulate mouse-trap -n 10000 --workers 2
    python bench/first_run.py --game dead-end-drive -n 2000

Run it niced on a shared machine; the CPU columns say what the load cannot change."""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(cmd: list[str], env: dict[str, str]) -> dict[str, float | str | None]:
    """One run of the command: seconds to each message, wall and CPU, the summary's last lines."""
    marks: dict[str, float | None] = {"compiling": None, "ready": None}
    lines: list[str] = []
    cpu0 = child_cpu()
    start = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def read_err() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            now = time.monotonic() - start
            if line.startswith("Compiling") and marks["compiling"] is None:
                marks["compiling"] = now
            if line.startswith("Engine ready") and marks["ready"] is None:
                marks["ready"] = now
            lines.append(line.rstrip())

    reader = threading.Thread(target=read_err)
    reader.start()
    assert proc.stdout is not None
    out = proc.stdout.read()  # not communicate(): it would read stderr too, racing the reader
    proc.wait()
    reader.join()
    wall = time.monotonic() - start
    if proc.returncode != 0:
        sys.exit(f"the command failed ({proc.returncode}):\n" + "\n".join(lines[-20:]))
    return {
        "compiling": marks["compiling"],
        "ready": marks["ready"],
        "wall": wall,
        "cpu": child_cpu() - cpu0,
        # the summary table's seat rows and the length line: both runs must show the same games
        "summary": " | ".join(
            " ".join(x.strip("│┃ ").split()) for x in out.splitlines() if "seat" in x or "length" in x
        )[:300],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="mouse-trap")
    ap.add_argument("-n", type=int, default=10000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    home = Path(tempfile.mkdtemp(prefix="trapworks-first-run-"))
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["TRAPWORKS_HOME"] = str(home)
    cli = [sys.executable, "-c", "from trapworks.launch import main; main()"]  # the `trapworks` script
    results = []
    for k in (1, 2):
        out = home / f"run{k}.parquet"
        cmd = [
            *cli,
            "simulate",
            args.game,
            "-n",
            str(args.n),
            "--workers",
            str(args.workers),
            "--out",
            str(out),
        ]
        load = os.getloadavg()[0]
        r = run_once(cmd, env)
        r["load"] = load
        results.append(r)
    print(
        f"TRAPWORKS_HOME={home} trapworks simulate {args.game} -n {args.n} --workers {args.workers} "
        "--out runK.parquet, twice"
    )
    print(
        '| run | "Compiling..." after | engine ready after | whole command, wall '
        "| CPU (all processes) | load at start |"
    )
    print("|---|---:|---:|---:|---:|---:|")

    def s(x: object) -> str:
        return "-" if x is None else f"{x:.1f} s"

    for name, r in zip(("first (empty cache)", "second (cache filled by the first)"), results, strict=True):
        print(
            f"| {name} | {s(r['compiling'])} | {s(r['ready'])} | {s(r['wall'])} | {s(r['cpu'])} "
            f"| {r['load']:.1f} |"
        )
    first, second = results
    print(
        f"first/second: wall {first['wall'] / second['wall']:.2f}x, CPU {first['cpu'] / second['cpu']:.2f}x"
    )
    for r in results:
        print("summary:", r["summary"])


if __name__ == "__main__":
    main()
