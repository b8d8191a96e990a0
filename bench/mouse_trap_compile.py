"""What a cold compile of Mouse Trap's batched engine costs, and its warm speed (issue 42 item 3):
batch.py of this tree against batch.py of a git revision (by default 660bf21, the engine before
its split into serial rule functions without reference counts), each compiled in a fresh
process on an empty numba cache, then timed warm on the same games.

    NUMBA_NUM_THREADS=1 python bench/mouse_trap_compile.py [--games 5000] [--before 660bf21]
    NUMBA_NUM_THREADS=1 python bench/mouse_trap_compile.py --variants now

Variants: `now` (this tree's batch.py), `before` (the revision's). Process CPU time (one
thread), so the machine's load changes the wall time, not the figures; "same games" compares
the sum of the games' lengths with the first variant's."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import trapworks.games.mouse_trap as mouse_trap_package

# Run in the child: compile (first call), then warm games/s on `games` seeds, 3 blocks, best.
CHILD = """
import importlib, sys, time
from trapworks.core import make
sys.path.insert(0, sys.argv[1])
mod = importlib.import_module(sys.argv[2])
game = make("mouse-trap")
t = time.process_time(); mod.play_columns(game, ["random", "heuristic"], [1])
compile_s = time.process_time() - t
seeds = list(range(int(sys.argv[3])))
best = 0.0
for _ in range(3):
    a = time.process_time(); cols = mod.play_columns(game, ["random", "heuristic"], seeds)
    best = max(best, len(seeds) / (time.process_time() - a))
print(compile_s, best, int(cols["length"].sum()))
"""


BATCH = "src/trapworks/games/mouse_trap/batch.py"


def variant_source(name: str, before: str) -> str:
    """The text of batch.py for `name`, importable from a temporary folder."""
    if name == "now":
        source = (Path(mouse_trap_package.__file__).parent / "batch.py").read_text()
    elif name == "before":
        root = Path(__file__).resolve().parent.parent
        source = subprocess.run(
            ["git", "-C", str(root), "show", f"{before}:{BATCH}"], capture_output=True, text=True, check=True
        ).stdout
    else:
        raise SystemExit(f"unknown variant {name!r} (now, before)")
    return source.replace("from .data import", "from trapworks.games.mouse_trap.data import")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--variants", default="before,now")
    ap.add_argument("--before", default="660bf21", help="the git revision of `before`")
    args = ap.parse_args()
    print("| variant | cold compile, CPU s | warm games/s (CPU, 1 thread) | sum of lengths | same games |")
    print("|---|---:|---:|---:|---|", flush=True)
    reference = None
    for name in args.variants.split(","):
        folder = Path(tempfile.mkdtemp(prefix="tw-compile-"))
        module = "mt_batch_" + name.replace("-", "_")
        (folder / f"{module}.py").write_text(variant_source(name, args.before))
        env = dict(os.environ, NUMBA_CACHE_DIR=str(folder / "cache"), NUMBA_NUM_THREADS="1")
        out = subprocess.run(
            [sys.executable, "-c", CHILD, str(folder), module, str(args.games)],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if out.returncode != 0:
            sys.exit(f"{name} failed:\n{out.stderr[-3000:]}")
        compile_s, rate, check = out.stdout.split()
        reference = reference or check
        same = "yes" if check == reference else "NO"
        row = f"| {name} | {float(compile_s):.1f} | {float(rate):,.0f} | {int(check):,} | {same} |"
        print(row, flush=True)


if __name__ == "__main__":
    main()
