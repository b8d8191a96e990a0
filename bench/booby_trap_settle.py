"""Booby Trap: is every removal judged at rest? Settle lengths over many removals, against the cap.

001: "If the spring bar moves one or more markings, the player is penalized". A removal is
judged where the tray comes to hold, so `physics.resolve_removal` runs the tray until every body
(bar included) is slower than `physics.REST_SPEED` at `REST_CHECKS` checks in a row and the
packing it stores holds when rebuilt (issue 25: rebuilt, loaded and left alone, its bar moves
less than `physics.HOLD_MARKS` of a mark; a rebuilt tray that slips on is part of the removal),
with a cap of `MAX_SETTLE_STEPS` on the whole motion (a removal that reaches it says so:
`Removal.at_rest` is False). This script plays removals on fresh trays (random pieces removed in
turn, each tray until 10 pieces are left, then a new seeded tray) and reports how many removals
reached rest, how many stored trays slipped on when first rebuilt, the largest motion seen
against the cap, and the distribution of settle lengths. With `--hold-every K` it also loads
every K-th stored packing, leaves it alone for four times the cap and reports the bar's largest
motion against HOLD. Seeded: the same command gives the same figures.

    python bench/booby_trap_settle.py [--removals 10000] [--seed 2026] [--workers 2] [--hold-every 0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from trapworks.games.booby_trap import physics


def left_alone(packing: physics.Packing) -> float:
    """The bar's motion (mm) when the packing is rebuilt, loaded and left for 4x the cap."""
    with physics.LeanWorld(packing) as world:
        world.warm_up()
        for _ in range(4 * physics.MAX_SETTLE_STEPS):
            world.step()
        return abs(packing.bar - world.bar_face())


def tray_removals(seed: int, limit: int, hold_every: int = 0) -> list[tuple]:
    """(steps, at_rest, tripped, travel, slipped, left alone or None) per removal on one tray."""
    rng = random.Random(f"settle-bench:{seed}")
    packing = physics.set_up(seed)
    out: list[tuple] = []
    while len(packing.pieces) > 10 and len(out) < limit:
        piece = rng.choice(packing.pieces).id
        result = physics.resolve_removal(packing, piece)
        packing = result.after
        alone = left_alone(packing) if hold_every and len(out) % hold_every == 0 else None
        out.append((result.steps, result.at_rest, result.tripped, result.travel, result.slipped, alone))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--removals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hold-every", type=int, default=0, help="leave every K-th stored tray alone")
    args = parser.parse_args()

    started = time.perf_counter()
    rows: list[tuple] = []
    seeds = iter(range(args.seed * 100_000, args.seed * 100_000 + 10**6))
    with ProcessPoolExecutor(args.workers) as pool:
        while len(rows) < args.removals:
            batch = [next(seeds) for _ in range(8)]
            limits = [args.removals] * len(batch)
            for got in pool.map(tray_removals, batch, limits, [args.hold_every] * len(batch)):
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
    slipped = [r for r in rows if r[4]]
    print(
        f"stored at a pause but slipped on when rebuilt (judged with the removal): {len(slipped)} "
        f"removals ({sum(r[4] for r in rows)} failed checks); of them tripped: "
        f"{sum(1 for r in slipped if r[2])}"
    )
    alone = [r[5] for r in rows if r[5] is not None]
    if alone:
        print(
            f"left alone for 4x the cap ({4 * cap} steps): {len(alone)} stored trays, the bar moved at "
            f"most {max(alone):.3f} mm (median {statistics.median(alone):.3f}) against HOLD "
            f"{physics.HOLD:.3f} mm ({physics.HOLD_MARKS} of a mark)"
        )


if __name__ == "__main__":
    main()
