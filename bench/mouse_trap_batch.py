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

from _batch_common import compare, print_header
from trapworks.games.mouse_trap.batch import play_batch, play_columns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--blocks", type=int, default=3)
    ap.add_argument("--batch", type=int, default=20000, help="games per play_batch call")
    args = ap.parse_args()
    print_header(args.blocks, args.seconds)
    for players, agents, options in [
        (4, ["random"] * 4, {"players": 4}),
        (4, ["heuristic"] * 4, {"players": 4}),
        (2, ["random", "heuristic"], {"players": 2, "variant": "original"}),
    ]:
        label = f"Mouse Trap {players}p {options.get('variant', 'milton-bradley')}"
        compare(
            "mouse-trap",
            label,
            options,
            agents,
            play_batch,
            play_columns,
            args.seconds,
            args.blocks,
            args.batch,
        )


if __name__ == "__main__":
    main()
