"""Booby Trap: where a removal's time goes, and what the removal cache saves (issue 31, item 5).

Two parts, one run, CPU time (`time.process_time`: the machine is shared).

**profile**: random pieces removed from fresh seeded trays (as bench/booby_trap_settle.py does,
the game's call `physics.resolve_removal(packing, piece, tape=True)`), every phase of each
removal timed by wrapping `physics.LeanWorld`'s methods: building the space, the warm-up that
loads a rebuilt space, the settle, reading the stress network, reading the packing and freeing
the space, each split by role: the removal's own world (the stored tray rebuilt, the piece taken
out, settled) and the hold check's worlds (the packing it would store, rebuilt and left alone
until at rest: issue 25). With `--cprofile` the same removals also run under cProfile and the
share of `cpSpaceStep` (Chipmunk's step) in the whole CPU time is printed.

**compare**, side by side in one run, alternating which goes first: *before* = the removal and
set-up caches off (empty, size 0: the code before them; stress_of's cache, which that code had,
stays on) and *after* = this code, on three workloads: (a) fresh random removals (nothing repeats:
a cache serves nothing there, and the rule allows no other saving, see BENCHMARKS.md); (b) the
undo of the last action of a game (heuristic against random; the web server's and the
terminal's undo replay the game from its seed, every removal simulated again); (c) a simulated
game with its record (`simulate --keep-records`: `GameRecord.from_state` replays the game).
Each workload checks that both give the same outcomes (positions, every removal, the rows and
records) and stops if not.

    python bench/booby_trap_speed.py [--trays 3] [--games 6] [--seed 2026] [--cprofile]
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import random
import statistics
import time
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pymunk

import trapworks
from trapworks.agents import make_agent
from trapworks.core import undo
from trapworks.games.booby_trap import physics
from trapworks.sim import play_one

PHASES = ("build", "warm_up", "settle", "stress", "packing", "close")


class Phases:
    """CPU seconds per (role, phase), taken by wrapping LeanWorld's methods."""

    def __init__(self) -> None:
        self.seconds: dict[tuple[str, str], float] = defaultdict(float)
        self.worlds_in_removal = 0
        self._undo: list[Callable[[], None]] = []

    def _wrap(self, owner: object, name: str, phase: str) -> None:
        original = getattr(owner, name)
        phases = self

        def timed(*args, **kwargs):
            world = args[0] if args and isinstance(args[0], physics.LeanWorld) else None
            role = getattr(world, "_bench_role", "removal")
            t0 = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                phases.seconds[(role, phase)] += time.process_time() - t0

        setattr(owner, name, timed)
        self._undo.append(lambda: setattr(owner, name, original))

    def install(self) -> None:
        original_init = physics.LeanWorld.__init__
        phases = self

        def init(world, packing):
            phases.worlds_in_removal += 1
            world._bench_role = "removal" if phases.worlds_in_removal == 1 else "hold check"
            t0 = time.process_time()
            original_init(world, packing)
            phases.seconds[(world._bench_role, "build")] += time.process_time() - t0

        physics.LeanWorld.__init__ = init  # type: ignore[method-assign]
        self._undo.append(lambda: setattr(physics.LeanWorld, "__init__", original_init))
        for name, phase in (
            ("warm_up", "warm_up"),
            ("settle", "settle"),
            ("packing", "packing"),
            ("close", "close"),
        ):
            self._wrap(physics.LeanWorld, name, phase)
        original_read = physics._read_stress

        def read(world, packing):
            t0 = time.process_time()
            try:
                return original_read(world, packing)
            finally:
                phases.seconds[(getattr(world, "_bench_role", "removal"), "stress")] += (
                    time.process_time() - t0
                )

        physics._read_stress = read
        self._undo.append(lambda: setattr(physics, "_read_stress", original_read))

    def uninstall(self) -> None:
        while self._undo:
            self._undo.pop()()


def random_removals(trays: int, seed: int, phases: Phases | None = None) -> tuple[list[float], list[tuple]]:
    """CPU ms per removal and (steps, tripped, slipped) rows, fresh trays emptied to 10 pieces."""
    times: list[float] = []
    rows: list[tuple] = []
    for s in range(seed * 100_000, seed * 100_000 + trays):
        rng = random.Random(f"settle-bench:{s}")
        packing = physics.set_up(s)
        while len(packing.pieces) > 10:
            piece = rng.choice(packing.pieces).id
            if phases is not None:
                phases.worlds_in_removal = 0
            t0 = time.process_time()
            result = physics.resolve_removal(packing, piece, tape=True)
            times.append(1000 * (time.process_time() - t0))
            rows.append((result.steps, result.tripped, result.slipped))
            packing = result.after
    return times, rows


def clear_caches(stress: bool = True) -> None:
    """The removal and set-up caches (new); `stress`: also stress_of's, which the code before had."""
    physics.resolve_removal.cache_clear()
    physics._SET_UPS.clear()
    if stress:
        physics.stress_of.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trays", type=int, default=3, help="fresh trays for the profile")
    parser.add_argument("--games", type=int, default=6, help="games for the undo comparison")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cprofile", action="store_true")
    args = parser.parse_args()
    print(
        f"python {platform.python_version()}, pymunk {pymunk.version}, {physics.ITERATIONS} solver "
        f"iterations ({physics.WARMUP_ITERATIONS} in the {physics.WARMUP_STEPS}-step warm-up), CPU time"
    )

    # --- profile ---------------------------------------------------------------------------
    clear_caches()
    phases = Phases()
    phases.install()
    try:
        times, rows = random_removals(args.trays, args.seed, phases)
    finally:
        phases.uninstall()
    total = sum(phases.seconds.values())
    print(
        f"\nprofile: {len(times)} random removals on {args.trays} fresh trays (to 10 pieces left); "
        f"CPU per removal median {statistics.median(times):.1f} ms, mean {statistics.mean(times):.1f} ms; "
        f"settle steps median {statistics.median(r[0] for r in rows):.0f}; trips {sum(r[1] for r in rows)}"
    )
    print("| where the time goes | removal's world | hold check's worlds | share of all |")
    print("|---|---:|---:|---:|")
    for phase in PHASES:
        a = phases.seconds.get(("removal", phase), 0.0)
        b = phases.seconds.get(("hold check", phase), 0.0)
        print(
            f"| {phase} | {1000 * a / len(times):.2f} ms | {1000 * b / len(times):.2f} ms | "
            f"{100 * (a + b) / total:.1f}% |"
        )
    wrapped = 1000 * total / len(times)
    print(f"| all the phases, per removal | | | {wrapped:.2f} ms of {statistics.mean(times):.2f} ms |")
    if args.cprofile:
        clear_caches()
        profiler = cProfile.Profile(time.process_time)  # CPU time: the machine is shared
        profiler.enable()
        random_removals(args.trays, args.seed)
        profiler.disable()
        stats = pstats.Stats(profiler)
        whole = stats.total_tt  # type: ignore[attr-defined]
        table = stats.stats  # type: ignore[attr-defined]
        step = sum(v[2] for k, v in table.items() if k[2] == "<built-in method pymunk._chipmunk.cpSpaceStep>")
        print(f"cProfile: cpSpaceStep {step:.2f} s of {whole:.2f} s ({100 * step / whole:.1f}%), set-ups in")
        stats.sort_stats("tottime").print_stats(8)

    # --- compare: the code before (no removal or set-up cache) and now, side by side ---------
    print(
        "\ncompare, side by side in this run (alternating which goes first): 'before' = the removal "
        "and set-up caches off (size 0: the code before them; stress_of's cache, which it had, on), "
        "'after' = this code"
    )
    print("| workload (CPU time) | before | after | after / before | same outcomes |")
    print("|---|---:|---:|---:|---|")

    # (a) fresh removals: nothing repeats, nothing to serve from a cache.
    fresh: dict[str, list[float]] = {"before": [], "after": []}
    fresh_rows: dict[str, list] = {"before": [], "after": []}
    for t in range(args.trays):
        for label in ("before", "after") if t % 2 == 0 else ("after", "before"):
            clear_caches()
            with caches(label == "after"):
                ms, rows = random_removals(1, args.seed + 1 + t)
            fresh[label].extend(ms)
            fresh_rows[label].extend(rows)
    same = fresh_rows["before"] == fresh_rows["after"]
    check(same, "fresh removals")
    a, b = statistics.mean(fresh["before"]), statistics.mean(fresh["after"])
    print(
        f"| a fresh removal (random pieces, {args.trays} fresh trays, {len(fresh['after'])} removals), "
        f"mean ms | {a:.1f} | {b:.1f} | {b / a:.2f} | {same} |"
    )

    game = trapworks.make("booby-trap", players=2)
    master = random.Random(args.seed)
    seeds = [master.randrange(2**31) for _ in range(args.games)]

    # (b) undo: the web server's and the terminal's undo replays the game from its seed.
    undo_ms: dict[str, list[float]] = {"before": [], "after": []}
    removals = 0
    all_same = True
    for g, seed in enumerate(seeds):
        clear_caches()
        state = game.new_initial_state(seed)
        agents = [make_agent(name, game, s, seed=seed + s) for s, name in enumerate(("heuristic", "random"))]
        live = state
        while not state.is_terminal():
            live = state.clone()  # the game before its last action (no undo after the end)
            state.apply_action(agents[state.current_player()].step(state))
        got = {}
        for label in ("before", "after") if g % 2 == 0 else ("after", "before"):
            with caches(label == "after"):
                t0 = time.process_time()
                back = undo(live, 1)
                undo_ms[label].append(1000 * (time.process_time() - t0))
            got[label] = back.position()  # the tray (every piece's position), won pieces, discard, trips
        all_same &= got["before"] == got["after"]
        removals += getattr(back, "removals", 0)
    check(all_same, "undo")
    a, b = statistics.median(undo_ms["before"]), statistics.median(undo_ms["after"])
    print(
        f"| undo of the last action of a game ({args.games} heuristic-vs-random games, {removals} removals "
        f"replayed), median ms | {a:.0f} | {b:.1f} | {b / a:.3f} | {all_same} |"
    )

    # (c) simulate --keep-records: each game's record is made by replaying it (GameRecord.from_state).
    sim_ms: dict[str, list[float]] = {"before": [], "after": []}
    all_same = True
    for g, seed in enumerate(seeds):
        played: dict[str, tuple] = {}
        for label in ("before", "after") if g % 2 == 0 else ("after", "before"):
            clear_caches()
            with caches(label == "after"):
                t0 = time.process_time()
                result = play_one(
                    "booby-trap", {"players": 2}, ["heuristic", "random"], seed, keep_record=True
                )
                sim_ms[label].append(1000 * (time.process_time() - t0))
            played[label] = (result.returns, result.stats, result.record)
        all_same &= played["before"] == played["after"]
    check(all_same, "simulate")
    a, b = statistics.median(sim_ms["before"]), statistics.median(sim_ms["after"])
    print(
        f"| a simulated game with its record (`play_one(..., keep_record=True)`, {args.games} games), "
        f"median ms | {a:.0f} | {b:.0f} | {b / a:.2f} | {all_same} |"
    )


@contextmanager
def caches(on: bool) -> Iterator[None]:
    """On: the caches as they are. Off: empty caches of size 0 swapped in (the code before them),
    the real ones put back afterwards."""
    if on:
        yield
        return
    removal = physics.resolve_removal
    saved = (removal._cache, removal.size, physics._SET_UPS, physics._SET_UPS_KEPT)
    removal._cache, removal.size = OrderedDict(), 0
    physics._SET_UPS, physics._SET_UPS_KEPT = OrderedDict(), 0
    try:
        yield
    finally:
        removal._cache, removal.size, physics._SET_UPS, physics._SET_UPS_KEPT = saved


def check(same: bool, what: str) -> None:
    if not same:
        raise SystemExit(f"{what}: the outcomes with and without the caches differ")


if __name__ == "__main__":
    main()
