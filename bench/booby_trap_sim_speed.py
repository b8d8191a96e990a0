"""Booby Trap on the kernel path, as `simulate` plays it (issue 42 item 5): whole games by
`trapworks.sim.play_one`, this code against the code before, side by side in one run.

*before*: the statistics read `all_events()`, which makes every removal's animation (60 frames
at the eye's resolution) though no statistic reads it; *after*: `stat_events()`, without it.
Runs alternate which goes first; each game's result (rows: returns, winners, length, the game's
statistics) must be the same under both, else the run stops.

    python bench/booby_trap_sim_speed.py [--games 6] [--agents random,random] [--seed 1]

CPU time of this process (`time.process_time`: the machine is shared), games per CPU second;
`simulate --workers 2` plays two such streams at once."""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

from trapworks.games.booby_trap.game import BoobyTrapState
from trapworks.sim import GameResult, play_one


@contextmanager
def before() -> Iterator[None]:
    """The code before: the statistics read every event as all_events() makes it."""
    saved = BoobyTrapState.stat_events
    BoobyTrapState.stat_events = BoobyTrapState.all_events  # type: ignore[method-assign]
    try:
        yield
    finally:
        BoobyTrapState.stat_events = saved  # type: ignore[method-assign]


def play(seeds: list[int], agents: list[str]) -> tuple[float, list[GameResult]]:
    start = time.process_time()
    results = [play_one("booby-trap", {}, agents, seed, index=k) for k, seed in enumerate(seeds)]
    return time.process_time() - start, results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--agents", default="random,random")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    agents = args.agents.split(",")
    seeds = [args.seed * 1000 + k for k in range(args.games)]
    cpu = {"before": 0.0, "after": 0.0}
    load = os.getloadavg()[0]
    for k, seed in enumerate(seeds):
        order = ("before", "after") if k % 2 == 0 else ("after", "before")
        got = {}
        for name in order:
            if name == "before":
                with before():
                    seconds, results = play([seed], agents)
            else:
                seconds, results = play([seed], agents)
            cpu[name] += seconds
            got[name] = results[0].to_dict()
        if got["before"] != got["after"]:
            raise SystemExit(f"seed {seed}: the two codes gave different games")
    print(f"booby-trap {args.agents}, {args.games} games each, load average {load:.1f} at the start")
    print("| code | CPU s per game | games per CPU s | same games |")
    print("|---|---:|---:|---|")
    for name in ("before", "after"):
        per = cpu[name] / args.games
        print(f"| {name} | {per:.3f} | {1 / per:.3f} | yes |")
    print(f"after / before, games per CPU second: {cpu['before'] / cpu['after']:.2f}x")


if __name__ == "__main__":
    main()
