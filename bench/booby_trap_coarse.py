"""Could a coarser physics make Booby Trap's batch simulation 5x faster with the same outcome
distribution (issue 42 item 5)? A probe, not a mode: the same seeds played by the kernel path
(`trapworks.sim.play_one`) under the shipped solver settings and under coarser ones (fewer
solver iterations, a larger time step, a looser rest test), each set applied to the physics
module's settings for its games (they are part of the removal cache's key, `_model_key`).

    python bench/booby_trap_coarse.py [--games 8] [--agents random,random] [--seed 1]

Prints, per setting, the CPU seconds per game and the means of the rows' statistics (removals,
trips, pieces thrown out, decisions, first seat's wins): a coarse setting is only worth a mode
if its statistics stay with the full model's (shown on 2,000 games, which this probe does not do)."""

from __future__ import annotations

import argparse
import os
import time
from statistics import mean

from trapworks.games.booby_trap import physics
from trapworks.sim import play_one

# Name -> the physics settings it changes (the shipped values: physics.py).
SETTINGS: dict[str, dict[str, float]] = {
    "full (shipped)": {},
    "iterations 8": {"ITERATIONS": 8, "WARMUP_ITERATIONS": 20},
    "iterations 6, rest test every 4 steps, 2 checks": {
        "ITERATIONS": 6,
        "WARMUP_ITERATIONS": 15,
        "SETTLE_CHECK_EVERY": 4,
        "REST_CHECKS": 2,
    },
    "iterations 8, time step 1/60": {
        "ITERATIONS": 8,
        "WARMUP_ITERATIONS": 20,
        "DT": 1 / 60,
        "MAX_SETTLE_STEPS": 1200,
        "WARMUP_STEPS": 20,
        "WARMUP_RAMP": 12,
        "SETTLE_CHECK_EVERY": 3,
    },
}


def play(seeds: list[int], agents: list[str], changes: dict[str, float]) -> tuple[float, dict[str, float]]:
    saved = {k: getattr(physics, k) for k in changes}
    for k, v in changes.items():
        setattr(physics, k, type(saved[k])(v))
    try:
        start = time.process_time()
        results = [play_one("booby-trap", {}, agents, s, index=k) for k, s in enumerate(seeds)]
        seconds = time.process_time() - start
    finally:
        for k, v in saved.items():
            setattr(physics, k, v)
    stats = {
        key: mean(float(r.stats.get(key, 0)) for r in results) for key in ("removals", "trips", "thrown_out")
    }
    stats["decisions"] = mean(r.decisions for r in results)
    stats["first seat wins"] = mean(1.0 if 0 in r.winners else 0.0 for r in results)
    return seconds / len(seeds), stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--agents", default="random,random")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    seeds = [args.seed * 1000 + k for k in range(args.games)]
    print(f"{args.games} games, {args.agents}; load average {os.getloadavg()[0]:.1f}", flush=True)
    full = None
    for name, changes in SETTINGS.items():
        per_game, stats = play(seeds, args.agents.split(","), changes)
        full = full or per_game
        shown = ", ".join(f"{k} {v:.1f}" for k, v in stats.items())
        print(f"{name}: {per_game:.3f} CPU s a game ({full / per_game:.2f}x); {shown}", flush=True)


if __name__ == "__main__":
    main()
