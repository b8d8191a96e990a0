"""Booby Trap's settle and warm-up loops in C against the Python loops (issue 42 item 5), side by
side in one run: whole games as `simulate` plays them (`trapworks.sim.play_one`), and the 4x-cap
hold check of tests/booby_trap/test_at_rest.py (`left_alone`: a stored tray rebuilt, loaded and
stepped 9,600 times).

*before*: the loops in Python (`physics._steps = None`, what TRAPWORKS_PURE_PYTHON or a build
without the extension runs, and all there was before); *after*: the loops in `_worldcopy.c`.
The two alternate which goes first; every cache is emptied before each game (each runs all its
physics), and each game's row and every removal's outcome must be the same under both, else the
run stops.

    PYTHONPATH=src python bench/booby_trap_loop_speed.py [--games 6] [--agents random,random] [--trays 6]

CPU time of this process (`time.process_time`: the machine is shared)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from trapworks.games.booby_trap import physics

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "booby_trap"))
from make_sim_games import play  # noqa: E402  (the games and removals as test_settle_loop stores them)

COMPILED = physics._steps


def clear() -> None:
    physics.world_copies.clear()
    physics.resolve_removal.cache_clear()
    physics.stress_of.cache_clear()
    physics._SET_UPS.clear()


def timed(name: str, work):
    physics._steps = COMPILED if name == "after" else None
    clear()
    try:
        start = time.process_time()
        got = work()
        return time.process_time() - start, got
    finally:
        physics._steps = COMPILED


def left_alone(packing: physics.Packing) -> float:
    with physics.LeanWorld(packing) as world:
        world.warm_up()
        world.run(4 * physics.MAX_SETTLE_STEPS)
        return abs(packing.bar - world.bar_face())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--agents", default="random,random")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--trays", type=int, default=6, help="stored trays for the hold check (each size)")
    args = ap.parse_args()
    if COMPILED is None:
        raise SystemExit("the compiled loop is not built (python setup.py build_ext --inplace)")
    agents = args.agents.split(",")
    load = os.getloadavg()[0]
    cpu = {"before": 0.0, "after": 0.0}
    for k in range(args.games):
        seed = args.seed * 1000 + k
        order = ("before", "after") if k % 2 == 0 else ("after", "before")
        got = {}
        for name in order:
            seconds, got[name] = timed(name, lambda seed=seed: play({}, agents, seed))
            cpu[name] += seconds
        if got["before"] != got["after"]:
            raise SystemExit(f"seed {seed}: the two loops gave different games")
    hold = {"before": 0.0, "after": 0.0}
    trays = [physics.set_up(s, per) for per in (5, 20) for s in range(args.trays)]
    for k, tray in enumerate(trays):
        order = ("before", "after") if k % 2 == 0 else ("after", "before")
        moved = {}
        for name in order:
            seconds, moved[name] = timed(name, lambda tray=tray: left_alone(tray))
            hold[name] += seconds
        if moved["before"] != moved["after"]:
            raise SystemExit(f"tray {k}: the two loops moved the bar differently")
    print(f"booby-trap {args.agents}, {args.games} games each, load average {load:.1f} at the start")
    print("| loops | CPU s per game | games per CPU s | same games |")
    print("|---|---:|---:|---|")
    for name in ("before", "after"):
        per = cpu[name] / args.games
        print(f"| {name} | {per:.3f} | {1 / per:.3f} | yes |")
    print(f"after / before, games per CPU second: {cpu['before'] / cpu['after']:.2f}x")
    print(f"hold check of test_at_rest ({len(trays)} set-ups, 5 and 20 pieces a size, 9,600 steps each):")
    for name in ("before", "after"):
        print(f"| {name} | {hold[name] / len(trays):.3f} CPU s a tray | same bar travel: yes |")
    print(f"after / before: {hold['before'] / hold['after']:.2f}x")


if __name__ == "__main__":
    main()
