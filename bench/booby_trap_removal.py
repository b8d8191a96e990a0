"""Booby Trap: time to resolve one removal, next to the raw pymunk step rate for the same bodies.

For each seed a 2-player game is played by two agents (heuristic vs random by default, so
there are both quiet removals and trips). Every removal is timed as the game resolves it
(`physics.resolve_removal(...)` with the arguments the game passes: rebuild the space, load it,
take the piece out, settle, detect pops, keep the positions for the animation). In the same run,
right after each removal, for the same packing, the raw rate of pymunk's `space.step()` is
measured on a loaded world with no Python in the loop but the step call, so the removal times
can be read as "steps taken x raw step time + our overhead". The ratio is given as the issue
measured it (median removal time over the median steps at the median raw rate) and per removal
(its time over its own steps at its own packing's raw rate, median over removals), in wall
time and in CPU time (`time.process_time`: the machine is shared). Whole games are timed too
(setup included): the target is < 5 s per 2-player game.

    python bench/booby_trap_removal.py [--games 6] [--agents heuristic,random] [--markdown]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

import pymunk

import trapworks
from trapworks.agents import make_agent
from trapworks.games.booby_trap import physics


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def raw_step_rate(packing: physics.Packing, steps: int = 400) -> tuple[float, float]:
    """Steps per second (wall, CPU) of pymunk alone on this packing's bodies (loaded, at rest)."""
    world = physics.loaded_world(packing)
    space, dt = world.space, physics.DT
    start = time.perf_counter()
    cpu = time.process_time()
    for _ in range(steps):
        space.step(dt)
    cpu = time.process_time() - cpu
    return steps / (time.perf_counter() - start), steps / cpu


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--agents", default="heuristic,random")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()

    game = trapworks.make("booby-trap", players=2)
    names = args.agents.split(",")
    removal_ms: list[float] = []
    trip_ms: list[float] = []
    quiet_ms: list[float] = []
    steps: list[int] = []
    raw_rates: list[float] = []
    raw_cpu_rates: list[float] = []
    removal_cpu_ms: list[float] = []
    per_removal: list[float] = []
    per_removal_cpu: list[float] = []
    setup_s: list[float] = []
    game_s: list[float] = []
    master = random.Random(args.seed)

    original = physics.resolve_removal

    def timed(packing, piece, **kwargs):
        t0 = time.perf_counter()
        c0 = time.process_time()
        result = original(packing, piece, **kwargs)
        cpu = (time.process_time() - c0) * 1000
        dt = (time.perf_counter() - t0) * 1000
        removal_ms.append(dt)
        removal_cpu_ms.append(cpu)
        (trip_ms if result.tripped else quiet_ms).append(dt)
        n = result.steps + physics.WARMUP_STEPS
        steps.append(n)
        rate, cpu_rate = raw_step_rate(packing)  # same bodies, same run (not in the game's time)
        raw_rates.append(rate)
        raw_cpu_rates.append(cpu_rate)
        per_removal.append(dt / (1000 * n / rate))
        per_removal_cpu.append(cpu / (1000 * n / cpu_rate))
        timed.extra += time.perf_counter() - t0 - dt / 1000
        return result

    timed.extra = 0.0
    physics.resolve_removal = timed
    try:
        for g in range(args.games):
            seed = master.randrange(2**31)
            timed.extra = 0.0
            t0 = time.perf_counter()
            state = game.new_initial_state(seed)
            setup_s.append(time.perf_counter() - t0)
            agents = [make_agent(names[(s + g) % len(names)], game, s, seed=seed + s) for s in range(2)]
            while not state.is_terminal():
                state.apply_action(agents[state.current_player()].step(state))
            game_s.append(time.perf_counter() - t0 - timed.extra)
    finally:
        physics.resolve_removal = original

    raw = statistics.median(raw_rates)
    med_steps = statistics.median(steps)
    print(
        f"python {platform.python_version()}, pymunk {pymunk.version} "
        f"(Chipmunk {pymunk.chipmunk_version[:5]}), "
        f"{args.games} games of 2 players ({args.agents}, seats alternating), dt={physics.DT:.5f} s, "
        f"{physics.ITERATIONS} solver iterations"
    )
    print("| measure | median | p95 | n |")
    print("|---|---:|---:|---:|")
    print(
        f"| resolve one removal (ms), all | {statistics.median(removal_ms):.1f} | "
        f"{percentile(removal_ms, 0.95):.1f} | {len(removal_ms)} |"
    )
    if quiet_ms:
        print(
            f"| resolve one removal (ms), bar did not trip | {statistics.median(quiet_ms):.1f} | "
            f"{percentile(quiet_ms, 0.95):.1f} | {len(quiet_ms)} |"
        )
    if trip_ms:
        print(
            f"| resolve one removal (ms), bar tripped | {statistics.median(trip_ms):.1f} | "
            f"{percentile(trip_ms, 0.95):.1f} | {len(trip_ms)} |"
        )
    print(
        f"| simulation steps per removal (warm-up + settle) | {med_steps:.0f} "
        f"| {percentile(steps, 0.95):.0f} | "
        f"{len(steps)} |"
    )
    print(
        f"| raw pymunk `space.step` rate, same bodies (steps/s) | {raw:,.0f} | "
        f"{percentile(raw_rates, 0.05):,.0f} (p5) | {len(raw_rates)} |"
    )
    print(f"| removal time if it were raw steps only (ms) | {1000 * med_steps / raw:.1f} | | |")
    raw_cpu = statistics.median(raw_cpu_rates)
    print(
        f"| resolve one removal, CPU time (ms), all | {statistics.median(removal_cpu_ms):.1f} | "
        f"{percentile(removal_cpu_ms, 0.95):.1f} | {len(removal_cpu_ms)} |"
    )
    print(f"| raw steps only, CPU time (ms) | {1000 * med_steps / raw_cpu:.1f} | | |")
    print(
        f"| removal / its raw steps, per removal (wall) | {statistics.median(per_removal):.2f} | "
        f"{percentile(per_removal, 0.95):.2f} | {len(per_removal)} |"
    )
    print(
        f"| removal / its raw steps, per removal (CPU) | {statistics.median(per_removal_cpu):.2f} | "
        f"{percentile(per_removal_cpu, 0.95):.2f} | {len(per_removal_cpu)} |"
    )
    print(
        f"| set-up (mix, release, settle) (s) | {statistics.median(setup_s):.2f} "
        f"| {max(setup_s):.2f} (max) | "
        f"{len(setup_s)} |"
    )
    print(
        f"| whole 2-player game incl. set-up and agents (s) | {statistics.median(game_s):.2f} | "
        f"{max(game_s):.2f} (max) | {len(game_s)} |"
    )

    ratio = statistics.median(removal_ms) / (1000 * med_steps / raw)
    ratio_cpu = statistics.median(removal_cpu_ms) / (1000 * med_steps / raw_cpu)
    print(
        f"\nremoval / raw steps (median removal time over median steps at the median raw rate): "
        f"{ratio:.2f}x wall, {ratio_cpu:.2f}x CPU; per removal (median): "
        f"{statistics.median(per_removal):.2f}x wall, {statistics.median(per_removal_cpu):.2f}x CPU"
    )


if __name__ == "__main__":
    main()
