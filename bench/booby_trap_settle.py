"""Booby Trap: is every removal judged at rest? Settle lengths over many removals, against the cap.

001: "If the spring bar moves one or more markings, the player is penalized". A removal is
judged where the bar stops, so `physics.resolve_removal` runs the tray until every body (bar
included) is slower than `physics.REST_SPEED` at `REST_CHECKS` checks in a row, with a cap of
`MAX_SETTLE_STEPS` that only guards against a model that never comes to rest (a removal that
hits it says so: `Removal.at_rest` is False). This script plays removals on fresh trays
(random pieces removed in turn, each tray until 10 pieces are left, then a new seeded tray) and
reports how many removals reached rest, the largest settle seen against the cap, and the
distribution of settle lengths. Seeded: the same command gives the same figures.

    python bench/booby_trap_settle.py [--removals 10000] [--seed 2026] [--workers 2]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from trapworks.games.booby_trap import physics


def tray_removals(seed: int, limit: int) -> list[tuple[int, bool, bool, float]]:
    """(steps, at_rest, tripped, travel) for each removal on one seeded tray."""
    rng = random.Random(f"settle-bench:{seed}")
    packing = physics.set_up(seed)
    out = []
    while len(packing.pieces) > 10 and len(out) < limit:
        piece = rng.choice(packing.pieces).id
        result = physics.resolve_removal(packing, piece)
        out.append((result.steps, result.at_rest, result.tripped, result.travel))
        packing = result.after
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--removals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    started = time.perf_counter()
    rows: list[tuple[int, bool, bool, float]] = []
    seeds = iter(range(args.seed * 100_000, args.seed * 100_000 + 10**6))
    with ProcessPoolExecutor(args.workers) as pool:
        while len(rows) < args.removals:
            batch = [next(seeds) for _ in range(8)]
            for got in pool.map(tray_removals, batch, [args.removals] * len(batch)):
                rows.extend(got)
    rows = rows[: args.removals]
    steps = sorted(r[0] for r in rows)
    at_rest = sum(1 for r in rows if r[1])
    trips = sum(1 for r in rows if r[2])
    dt = physics.DT
    cap = physics.MAX_SETTLE_STEPS
    old_cap_hits = sum(1 for s in steps if s > 480)

    def pct(q: float) -> int:
        return steps[min(len(steps) - 1, round(q * (len(steps) - 1)))]

    print(f"removals: {len(rows)} (trips {trips}), seed {args.seed}, {time.perf_counter() - started:.0f} s")
    print(f"judged at rest: {at_rest} of {len(rows)}; cap hit: {len(rows) - at_rest}")
    print(
        f"settle steps: median {statistics.median(steps):.0f}, p99 {pct(0.99)}, p99.9 {pct(0.999)}, "
        f"largest {steps[-1]} ({steps[-1] * dt:.1f} model s) against the cap {cap} ({cap * dt:.0f} model s)"
    )
    print(f"settles longer than the old cap of 480 steps (judged mid-motion before): {old_cap_hits}")


if __name__ == "__main__":
    main()
