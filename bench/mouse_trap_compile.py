"""What a cold compile of Mouse Trap's batched engine costs, and what the ways of compiling less
would cost in speed (issue 42 item 3): batch.py as shipped against variants of it, each
compiled in a fresh process on an empty numba cache, then timed warm on the same games.

Variants (text changes of batch.py, written to a temporary folder, never to the package):
  shipped   batch.py as it is: `_play` with parallel=True, every rule helper inline="always"
  serial    `_play` without parallel=True (range, not prange)
  top-call  `_chance`, `_legal`, `_policy`, `_decide` compiled on their own (not inlined)

    NUMBA_NUM_THREADS=1 python bench/mouse_trap_compile.py [--games 5000] [--variants shipped,serial]

Process CPU time (one thread), so the machine's load changes the wall time, not the figures."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import trapworks.games.mouse_trap as mouse_trap_package

TOP_LEVEL = ("_chance", "_legal", "_policy", "_decide")

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


def variant_source(name: str) -> str:
    source = (Path(mouse_trap_package.__file__).parent / "batch.py").read_text()
    source = source.replace("from .data import", "from trapworks.games.mouse_trap.data import")
    shipped = source
    if name == "serial":
        source = replaced(
            source,
            '@njit(cache=True, error_model="numpy", parallel=True)\ndef _play(',
            '@njit(cache=True, error_model="numpy")\ndef _play(',
        )
        source = replaced(source, "for g in prange(seeds.shape[0]):", "for g in range(seeds.shape[0]):")
    elif name == "top-call":
        for fn in TOP_LEVEL:
            pattern = r'@njit\(cache=True, inline="always", error_model="numpy"\)\ndef ' + fn + r"\("
            source, count = re.subn(pattern, f'@njit(cache=True, error_model="numpy")\ndef {fn}(', source)
            if count != 1:
                raise SystemExit(f"top-call: batch.py no longer declares {fn} as this script expects")
    elif name != "shipped":
        raise SystemExit(f"unknown variant {name!r}")
    assert name == "shipped" or source != shipped
    return source


def replaced(source: str, old: str, new: str) -> str:
    """`old` replaced by `new`, or a stop naming it: a variant that silently equals the shipped
    file would time the same thing twice."""
    if old not in source:
        raise SystemExit(f"batch.py no longer contains {old!r}: update this script")
    return source.replace(old, new)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--variants", default="shipped,serial,top-call")
    args = ap.parse_args()
    print("| variant | cold compile, CPU s | warm games/s (CPU, 1 thread) | same games |")
    print("|---|---:|---:|---|", flush=True)
    reference = None
    for name in args.variants.split(","):
        folder = Path(tempfile.mkdtemp(prefix="tw-compile-"))
        module = "mt_batch_" + name.replace("-", "_")
        (folder / f"{module}.py").write_text(variant_source(name))
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
        print(f"| {name} | {float(compile_s):.1f} | {float(rate):,.0f} | {same} |", flush=True)


if __name__ == "__main__":
    main()
