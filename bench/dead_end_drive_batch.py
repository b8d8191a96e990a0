"""13 Dead End Drive games per second: the batched engine (batch.py, numba) against the kernel
path that `trapworks simulate` runs (`trapworks.sim.play_one`: one game at a time through the
Python kernel with the kernel's agents), on one core, in one run (issue 31).

For each player count and agent set, both contenders play in alternating blocks of about
`--seconds` each; the median games per second over the blocks is reported, by CPU time of this
process (with NUMBA_NUM_THREADS=1 the engine runs on one thread, as the kernel does; time the
shared machine gives other processes is not counted). The engine's compile time is excluded (one
warm-up call). "rows": `play_batch`, one Python dict per game (what `simulate` reads); "columns":
`play_columns`, the same results as NumPy columns. The 100k-game distribution check is
bench/batch_distribution.py.

    NUMBA_NUM_THREADS=1 python bench/dead_end_drive_batch.py [--seconds 3] [--blocks 3] [--clock cpu]

`--clock wall` times by the wall clock instead (on a loaded machine, both contenders lose the
time other processes take).
"""

from __future__ import annotations

import argparse
import time

import _batch_common
from _batch_common import compare, print_header
from trapworks.games.dead_end_drive.batch import play_batch, play_columns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--blocks", type=int, default=3)
    ap.add_argument("--batch", type=int, default=500, help="games per play_batch call")
    ap.add_argument(
        "--clock", choices=("cpu", "wall"), default="cpu", help="CPU time of this process, or wall"
    )
    ap.add_argument("--only", choices=("random", "heuristic"), default=None, help="one agent")
    args = ap.parse_args()
    if args.clock == "wall":
        _batch_common.CLOCK = time.perf_counter
    print_header(args.blocks, args.seconds)
    if args.clock == "wall":
        print("# (wall-clock time, not CPU time: the header's word 'CPU' does not apply)")
    for players, agents in [
        (4, ["random"] * 4),
        (4, ["heuristic"] * 4),
        (2, ["random"] * 2),
        (2, ["heuristic"] * 2),
    ]:
        if args.only and agents[0] != args.only:
            continue
        compare(
            "dead-end-drive",
            f"13 Dead End Drive {players}p",
            {"players": players},
            agents,
            play_batch,
            play_columns,
            args.seconds,
            args.blocks,
            args.batch,
            kernel_digits=1,
        )


if __name__ == "__main__":
    main()
