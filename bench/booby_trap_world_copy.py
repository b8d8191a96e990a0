"""Booby Trap: a removal started from the loaded tray its hold check kept (issue 31, item 5).

A removal rebuilds the stored tray and loads it (`warm_up`: 40 steps at 60 solver iterations)
before it takes the piece out; the hold check that stored that tray has just rebuilt and loaded
the very same space. `physics.world_copies` keeps an exact copy of it (`_worldcopy.c`) and the
next removal from that tray starts from the copy. This script measures, side by side in one run
and alternating which goes first, *without* (`world_copies.size = 0`: every removal loads its
tray, the code before) and *with* (this code), CPU time throughout (`time.process_time`):

  (a) fresh removals: random pieces taken from fresh seeded trays, each from the tray the last
      one left, until `--left` pieces are left (the game's call `resolve_removal(packing, piece,
      tape=True)`; nothing repeats, so the removal cache serves nothing);
  (b) whole games: `play_one` with heuristic against random (2 players), every cache emptied
      before each game;
  (c) the copy itself against what it replaces: building a space and writing a loaded one's
      state into it, against building and loading it.

(a) and (b) check that both give the same outcomes (every removal's fields, bit for bit: travel,
pops, stored tray, steps, animation; each game's returns, statistics and record) and stop if not.

    python bench/booby_trap_world_copy.py [--trays 4] [--left 10] [--games 6] [--seed 2026]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time

import pymunk

from trapworks.games.booby_trap import physics
from trapworks.sim import play_one


def clear_caches() -> None:
    physics.world_copies.clear()
    physics.resolve_removal.cache_clear()
    physics.stress_of.cache_clear()
    physics._SET_UPS.clear()


def removal_fields(r: physics.Removal) -> tuple:
    return (r.piece, r.travel, r.tripped, r.popped, r.after, r.steps, r.tape, r.at_rest, r.slipped)


def removals(seed: int, left: int) -> tuple[list[tuple], list[float]]:
    """Random removals from the fresh tray of `seed` until `left` pieces are left."""
    rng = random.Random(seed)
    packing = physics.set_up(seed)
    out, cpu = [], []
    while len(packing.pieces) > left:
        piece = rng.choice(packing.pieces).id
        t0 = time.process_time()
        removal = physics.resolve_removal(packing, piece, tape=True)
        cpu.append(1000 * (time.process_time() - t0))
        out.append(removal_fields(removal))
        packing = removal.after
    return out, cpu


def check(same: bool, what: str) -> None:
    if not same:
        sys.exit(f"{what}: the outcomes differ with and without the kept worlds")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trays", type=int, default=4)
    parser.add_argument("--left", type=int, default=10)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(
        f"python {platform.python_version()}, pymunk {pymunk.version}, {platform.machine()}, "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    clear_caches()
    with physics.LeanWorld(physics.set_up(args.seed)) as world:
        world.warm_up()
        if not physics.world_copies.available(world):
            sys.exit("the world copy is not available here (extension not built, or another pymunk)")

    print(
        "| workload (CPU) | without (load every tray) | with (kept copies) | with / without | same outcomes |"
    )
    print("|---|---:|---:|---:|---|")

    # (a) fresh removals
    ms: dict[str, list[float]] = {"without": [], "with": []}
    taken = 0
    for t in range(args.trays):
        seed = args.seed + t
        runs = {}
        for label in ("without", "with") if t % 2 == 0 else ("with", "without"):
            clear_caches()
            physics.world_copies.size = 32 if label == "with" else 0
            runs[label], cpu = removals(seed, args.left)
            ms[label].extend(cpu)
            if label == "with":
                taken += physics.world_copies.taken
        check(runs["with"] == runs["without"], f"tray {seed}")
    n = len(ms["with"])
    for stat, f in (("median", statistics.median), ("mean", statistics.fmean)):
        a, b = f(ms["without"]), f(ms["with"])
        print(
            f"| a fresh removal ({args.trays} trays emptied to {args.left} pieces, {n} removals, "
            f"{taken} from a kept copy), {stat} ms | {a:.2f} | {b:.2f} | **{b / a:.2f}** | yes |"
        )

    # (b) whole games
    game_ms: dict[str, list[float]] = {"without": [], "with": []}
    for g in range(args.games):
        seed = args.seed + 100 + g
        played = {}
        for label in ("without", "with") if g % 2 == 0 else ("with", "without"):
            clear_caches()
            physics.world_copies.size = 32 if label == "with" else 0
            t0 = time.process_time()
            result = play_one("booby-trap", {"players": 2}, ["heuristic", "random"], seed, keep_record=True)
            game_ms[label].append(1000 * (time.process_time() - t0))
            played[label] = (result.returns, result.stats, result.record)
        check(played["with"] == played["without"], f"game {seed}")
    a, b = statistics.median(game_ms["without"]), statistics.median(game_ms["with"])
    print(
        f"| a whole game (`play_one`, heuristic against random, {args.games} games, set-up "
        f"included), median ms | {a:.0f} | {b:.0f} | **{b / a:.2f}** | yes |"
    )

    # (c) the copy against what it replaces
    clear_caches()
    physics.world_copies.size = 32
    packing = physics.set_up(args.seed)
    with physics.LeanWorld(packing) as world:
        world.warm_up()
        reps = 200
        t0 = time.process_time()
        for _ in range(reps):
            physics.LeanWorld(packing).close()
        build = 1000 * (time.process_time() - t0) / reps
        t0 = time.process_time()
        for _ in range(reps):
            world.copy().close()
        copy = 1000 * (time.process_time() - t0) / reps
    t0 = time.process_time()
    for _ in range(20):
        with physics.LeanWorld(packing) as fresh:
            fresh.warm_up()
    loaded = 1000 * (time.process_time() - t0) / 20
    print(
        f"| a loaded tray of {len(packing.pieces)} pieces: built and loaded (`warm_up`) against "
        f"built and copied (build alone {build:.3f} ms), mean ms | {loaded:.2f} | {copy:.3f} | "
        f"{copy / loaded:.3f} | (tests) |"
    )
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
