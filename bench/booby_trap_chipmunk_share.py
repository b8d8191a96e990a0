"""Booby Trap: how much of a removal is Chipmunk's step, and whether a loaded world can be copied
(issue 31, item 5, second pass).

Random pieces removed from fresh seeded trays until 10 are left (the positions of
bench/booby_trap_speed.py's profile), each with the game's call
`physics.resolve_removal(packing, piece, tape=True)` and the removal cache off (size 0), so every
removal runs its physics. CPU time throughout (`time.process_time`: the machine is shared).

1. **plain**: CPU per removal, no profiler.
2. **cProfile** on the CPU clock, the same removals: Chipmunk's `cpSpaceStep` split by its caller
   (the warm-ups that load a rebuilt tray, the settles), and the Python around it by part (making
   and freeing the space, the rest test, the squeeze test, the tape, the stress and packing
   read-outs). The step's time is C's own (the profiler adds its cost per Python call to the
   Python side), so `plain - cpSpaceStep` bounds what any rewrite of the Python (in C or not) can
   save.
3. **copy check** (`--copy-every K`, every K-th position): does a copy of the loaded world step
   as the fresh rebuild does? A cached loaded world per position would skip a rebuild's warm-up
   only if it did. For each position: the reference (pymunk's `World` rebuilt and loaded, the
   piece removed, settled with the squeeze test) against (a) `copy.deepcopy` of the loaded world
   (pymunk's `Space` pickling: bodies, shapes, joints, cached contacts) and (b) the same with
   every joint's accumulated impulse (`jAcc`, which pymunk does not copy) written in through the
   joints' memory (offsets checked against pymunk's `max_force` and `impulse` getters). Counted:
   removals whose steps, stored packing and squeezed pieces are identical; and, with nothing
   removed, how many bodies differ after one step.

    python bench/booby_trap_chipmunk_share.py [--trays 3] [--seed 2026] [--copy-every 3]
        [--games 8] [--callers 3]
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import math
import platform
import pstats
import random
import statistics
import time
from collections import defaultdict

import pymunk
from pymunk._chipmunk import ffi

import trapworks
from trapworks.games.booby_trap import physics
from trapworks.sim import play_one


def positions(trays: int, seed: int) -> list[tuple[physics.Packing, int]]:
    """(packing, piece) of every removal: fresh trays emptied to 10 pieces (as booby_trap_speed)."""
    out = []
    for s in range(seed * 100_000, seed * 100_000 + trays):
        rng = random.Random(f"settle-bench:{s}")
        packing = physics.set_up(s)
        while len(packing.pieces) > 10:
            piece = rng.choice(packing.pieces).id
            out.append((packing, piece))
            packing = physics.resolve_removal(packing, piece).after
    return out


def run(todo: list[tuple[physics.Packing, int]]) -> list[tuple]:
    physics.resolve_removal.cache_clear()
    physics.stress_of.cache_clear()
    rows = []
    for packing, piece in todo:
        r = physics.resolve_removal(packing, piece, tape=True)
        rows.append((r.travel, r.tripped, r.popped, r.after, r.steps, r.at_rest, r.slipped))
    return rows


# The Python around the steps, by part: (label, functions whose inclusive time it is).
PARTS = (
    ("making the space (LeanWorld.__init__)", physics.LeanWorld.__init__),
    ("freeing it (close)", physics.LeanWorld.close),
    ("rest test (max_speed, every 6 steps)", physics.LeanWorld.max_speed),
    ("tape (positions every 4 steps)", physics.LeanWorld.tape),
    ("stress read-out (hold check)", physics._read_stress),
    ("packing read-out", physics.LeanWorld.packing),
)


def profile(todo: list[tuple[physics.Packing, int]]) -> None:
    t0 = time.process_time()
    run(todo)
    plain = time.process_time() - t0
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    run(todo)
    profiler.disable()
    stats = pstats.Stats(profiler)
    table = stats.stats  # type: ignore[attr-defined]
    whole = stats.total_tt  # type: ignore[attr-defined]

    def of(function) -> float:
        code = function.__code__
        return sum(
            v[3] for k, v in table.items() if k == (code.co_filename, code.co_firstlineno, code.co_name)
        )

    step_by: dict[str, tuple[int, float]] = {}
    for k, v in table.items():
        if k[2] == "<built-in method pymunk._chipmunk.cpSpaceStep>":
            for caller, cv in v[4].items():
                n, t = step_by.get(caller[2], (0, 0.0))
                step_by[caller[2]] = (n + cv[1], t + cv[2])
    squeeze = of(physics.LeanWorld.squeezed)
    for k, v in table.items():  # the settle's quick look at the deepest contact
        if k[2] in (
            "<built-in method pymunk._chipmunk.cpSpaceEachCachedArbiter>",
            "<method 'min' of 'numpy.ndarray' objects>",
        ):
            squeeze += sum(cv[3] for caller, cv in v[4].items() if caller[2] == "settle")
    n = len(todo)
    steps = sum(t for _, t in step_by.values())
    print(
        f"\nplain: {n} removals, CPU {1000 * plain / n:.2f} ms per removal; "
        f"cpSpaceStep {1000 * steps / n:.2f} ms of it ({100 * steps / plain:.1f}%): "
        f"what is not Chipmunk's step: {1000 * (plain - steps) / n:.2f} ms "
        f"({100 * (plain - steps) / plain:.1f}%)"
    )
    print(f"cProfile (CPU clock; the Python side inflated by the profiler): {whole:.2f} s in all\n")
    print("| part | calls per removal | ms per removal (profiled) | share of profiled |")
    print("|---|---:|---:|---:|")
    for caller, (calls, t) in sorted(step_by.items()):
        print(
            f"| cpSpaceStep from {caller} | {calls / n:.1f} | {1000 * t / n:.2f} | {100 * t / whole:.1f}% |"
        )
    shown = steps + squeeze
    print(
        f"| squeeze test (settle's deepest-contact look, squeezed) | | {1000 * squeeze / n:.2f} | "
        f"{100 * squeeze / whole:.1f}% |"
    )
    for label, function in PARTS:
        t = of(function)
        shown += t
        print(f"| {label} | | {1000 * t / n:.2f} | {100 * t / whole:.1f}% |")
    print(
        f"| the rest (loops, spring force, bookkeeping) | | {1000 * (whole - shown) / n:.2f} | "
        f"{100 * (whole - shown) / whole:.1f}% |"
    )


# --- copy check ------------------------------------------------------------------------------
# Chipmunk's joint structs (chipmunk_private.h, the Chipmunk of pymunk 7.3.1): after the
# cpConstraint header (104 bytes: maxForce at 48), a pivot's jAcc at 200, a gear's at 144, a
# groove's at 256. Checked below against pymunk's getters before use.
_JACC = {"PivotJoint": (200, 208), "GearJoint": (144,), "GrooveJoint": (256, 264)}


def _doubles(joint: pymunk.Constraint, offset: int):
    return ffi.cast("double *", ffi.cast("char *", joint._constraint) + offset)


def _check_layout(world: physics.World) -> None:
    for joint in world.space.constraints:
        assert _doubles(joint, 48)[0] == joint.max_force
        offs = _JACC[type(joint).__name__]
        j = [_doubles(joint, o)[0] for o in offs]
        size = math.sqrt(j[0] * j[0] + j[1] * j[1]) if len(j) == 2 else abs(j[0])  # as cpvlength
        assert size == joint.impulse, (type(joint).__name__, size, joint.impulse)


def _copied(world: physics.World, impulses: bool) -> physics.World:
    buffer, world._buffer = world._buffer, None  # type: ignore[assignment]
    twin = copy.deepcopy(world)
    world._buffer = buffer
    twin._buffer = pymunk.batch.Buffer()
    twin.owner = {b.id: pid for pid, b in twin.bodies.items()}
    twin.owner[twin.bar.id] = -1
    if impulses:
        for a, b in zip(world.space.constraints, twin.space.constraints, strict=True):
            for off in _JACC[type(a).__name__]:
                _doubles(b, off)[0] = _doubles(a, off)[0]
    return twin


def _bodies(world: physics.World) -> list:
    return [(b.position, b.velocity, b.angle, b.angular_velocity) for b in world.space.bodies]


def copy_check(todo: list[tuple[physics.Packing, int]]) -> None:
    same = {"copy": 0, "copy + joint impulses": 0}
    one_step: dict[str, list[int]] = {"copy": [], "copy + joint impulses": []}
    cost: dict[str, list[float]] = {"build + warm-up": [], "copy": []}
    counted = {"copy": 0, "copy + joint impulses": 0}
    for packing, piece in todo:
        outcome = {}
        for mode in ("fresh", "copy", "copy + joint impulses"):
            t0 = time.process_time()
            world = physics.loaded_world(packing)
            if mode == "fresh":
                cost["build + warm-up"].append(time.process_time() - t0)
            else:
                _check_layout(world)
                t0 = time.process_time()
                twin = _copied(world, mode != "copy")
                cost["copy"].append(time.process_time() - t0)
                if mode == "copy":
                    assert _bodies(twin) == _bodies(world)
                world.step()
                twin.step()
                one_step[mode].append(sum(a != b for a, b in zip(_bodies(world), _bodies(twin), strict=True)))
                counted[mode] += len(_bodies(world))
                world = _copied(physics.loaded_world(packing), mode != "copy")
            world.remove_piece(piece)
            squeezed: set[int] = set()
            steps = physics.settle(world, squeezed=squeezed)
            outcome[mode] = (steps, world.packing(), sorted(squeezed))
        for mode in same:
            same[mode] += outcome[mode] == outcome["fresh"]
    n = len(todo)
    print(f"\ncopy check: {n} removals, pymunk's World (the removal's steps, squeeze test, no hold check)\n")
    print(
        "| a copy of the loaded world | removals identical to the fresh rebuild "
        "| bodies differing after one step, nothing removed |"
    )
    print("|---|---:|---:|")
    for mode in same:
        print(f"| {mode} | {same[mode]} of {n} | {sum(one_step[mode])} of {counted[mode]} |")
    print(
        f"\ncost, CPU median: build + warm-up {1000 * statistics.median(cost['build + warm-up']):.2f} ms "
        f"(pymunk objects), deepcopy of the loaded world {1000 * statistics.median(cost['copy']):.2f} ms"
    )


def _holds_before(packing: physics.Packing, max_steps: int | None = None):
    """`physics.holds` before this change: the same check, no reading left in stress_of's cache."""
    world = physics.LeanWorld(packing)
    world.warm_up()
    steps = world.settle(max_steps=max_steps)
    held = (
        steps < (physics.MAX_SETTLE_STEPS if max_steps is None else max_steps)
        and abs(packing.bar - world.bar_face()) < physics.HOLD
    )
    return held, world, steps


def first_touch(games: int, seed: int) -> None:
    game = trapworks.make("booby-trap", players=2)
    master = random.Random(seed)
    seeds = [master.randrange(2**31) for _ in range(games)]
    after_holds = physics.holds
    cost: dict[str, dict[str, list[float]]] = {
        "set-up + first touch": {"before": [], "after": []},
        "a whole game": {"before": [], "after": []},
    }
    same = True
    for g, s in enumerate(seeds):
        got: dict[str, tuple] = {}
        for label in ("before", "after") if g % 2 == 0 else ("after", "before"):
            physics.holds = _holds_before if label == "before" else after_holds
            try:
                physics.resolve_removal.cache_clear()
                physics.stress_of.cache_clear()
                physics._SET_UPS.clear()
                t0 = time.process_time()
                state = game.new_initial_state(s)
                seat = state.current_player()
                pieces = state.packing.pieces  # type: ignore[attr-defined]
                state.apply_action(pieces[g % len(pieces)].id)  # a touch
                cost["set-up + first touch"][label].append(time.process_time() - t0)
                view = state.view(seat)
                physics.resolve_removal.cache_clear()
                physics.stress_of.cache_clear()
                physics._SET_UPS.clear()
                t0 = time.process_time()
                result = play_one("booby-trap", {"players": 2}, ["heuristic", "random"], s)
                cost["a whole game"][label].append(time.process_time() - t0)
                got[label] = (view, result.returns, result.stats)
            finally:
                physics.holds = after_holds
        same &= got["before"] == got["after"]
    if not same:
        raise SystemExit("first touch: the outcomes before and after differ")
    print(f"\nfirst touch: {games} games (2 players), CPU, side by side, alternating which goes first\n")
    print("| workload | before, median | after, median | after / before, median per game | same outcomes |")
    print("|---|---:|---:|---:|---|")
    for what, by in cost.items():
        ratio = statistics.median(a / b for a, b in zip(by["after"], by["before"], strict=True))
        print(
            f"| {what} | {1000 * statistics.median(by['before']):.1f} ms | "
            f"{1000 * statistics.median(by['after']):.1f} ms | {ratio:.3f} | {same} |"
        )


def callers(games: int, seed: int) -> None:
    counts: dict[str, int] = defaultdict(int)
    seconds: dict[str, float] = defaultdict(float)

    def timed(label, function):
        def wrapper(*args, **kwargs):
            t0 = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                seconds[label] += time.process_time() - t0
                counts[label] += 1

        return wrapper

    stress_call = physics._StressOf.__call__

    def reading(self, packing):
        label = "stress reading served from the cache" if packing in self._cache else "stress reading built"
        return timed(label, stress_call)(self, packing)

    saved = (physics._StressOf.__call__, physics._resolve_removal, physics._set_up_pile)
    physics._StressOf.__call__ = reading  # type: ignore[method-assign]
    physics._resolve_removal = timed("removal physics", physics._resolve_removal)
    physics._set_up_pile = timed("set-up pile", physics._set_up_pile)
    print(f"\nwho calls the physics: {games} games per pairing (2 players), CPU\n")
    print("| pairing | whole games | set-up pile | removals' physics | stress readings built | served |")
    print("|---|---:|---:|---:|---:|---:|")
    try:
        for seats in (["hard", "heuristic"], ["heuristic", "random"]):
            counts.clear()
            seconds.clear()
            t0 = time.process_time()
            for g in range(games):
                _caches_emptied()
                play_one("booby-trap", {"players": 2}, seats, seed + g)
            total = time.process_time() - t0
            row = [f"{total:.2f} s"]
            for label in (
                "set-up pile",
                "removal physics",
                "stress reading built",
                "stress reading served from the cache",
            ):
                row.append(f"{counts[label]}, {seconds[label]:.2f} s")
            print(f"| {' vs '.join(seats)} | " + " | ".join(row) + " |")
    finally:
        physics._StressOf.__call__, physics._resolve_removal, physics._set_up_pile = saved  # type: ignore[method-assign]


def _caches_emptied() -> None:
    physics.resolve_removal.cache_clear()
    physics.stress_of.cache_clear()
    physics._SET_UPS.clear()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trays", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--copy-every", type=int, default=3, help="copy check on every K-th removal (0: none)"
    )
    parser.add_argument("--games", type=int, default=8, help="games for the first-touch comparison (0: none)")
    parser.add_argument("--callers", type=int, default=3, help="games per pairing for who calls (0: none)")
    args = parser.parse_args()
    print(
        f"python {platform.python_version()}, pymunk {pymunk.version}, {physics.ITERATIONS} solver "
        f"iterations ({physics.WARMUP_ITERATIONS} in the {physics.WARMUP_STEPS}-step warm-up), CPU time"
    )
    todo = positions(args.trays, args.seed)
    size = physics.resolve_removal.size
    physics.resolve_removal.size = 0
    try:
        profile(todo)
        if args.copy_every:
            copy_check(todo[:: args.copy_every])
        if args.games:
            first_touch(args.games, args.seed)
        if args.callers:
            callers(args.callers, args.seed)
    finally:
        physics.resolve_removal.size = size


if __name__ == "__main__":
    main()
