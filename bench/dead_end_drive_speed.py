"""13 Dead End Drive: actions per second of this code against an older copy, same seeds, same games.

Each engine runs in its own subprocess (`PYTHONPATH=<src>`), so the two copies never share a
module, a memo or a movement table: every run starts cold and pays for whatever it builds. Both
play the same random 4-player games (seeds SEED..SEED+N-1, uniformly random legal actions, chance
by its odds); the run checks that both played the same games (a digest of every action and the
returns), then prints actions per second and the ratio.

The machine is shared, so the engines run in alternating rounds (this, base, base, this, this,
base, ...): load that comes and goes hits both alike. Each child reports wall time and its own
CPU time (`time.process_time`); the ratio is taken per round and as the ratio of the medians.
OpenSpiel's C++ `backgammon` runs in this process, after the rounds, as the named peer.

    git archive <start commit> src | tar -x -C /tmp/ded_base
    .venv/bin/python bench/dead_end_drive_speed.py --base-src /tmp/ded_base/src [--games 20] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"

# Run inside the subprocess: plays the games and prints one JSON line.
_CHILD = r"""
import hashlib, json, random, sys, time
import trapworks
from trapworks.core import sample_chance

games, players, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
game = trapworks.make("dead-end-drive", players=players)
digest = hashlib.sha256()
actions = 0
start = time.perf_counter()
cpu = time.process_time()
for i in range(games):
    rng = random.Random(seed + i)
    state = game.new_initial_state(seed=seed + i)
    while not state.is_terminal():
        if state.is_chance_node():
            a = sample_chance(state, rng)
        else:
            a = rng.choice(state.legal_actions())
        state.apply_action(a)
        digest.update(a.to_bytes(4, "little", signed=True))
        actions += 1
    digest.update(repr(state.returns()).encode())
cpu = time.process_time() - cpu
elapsed = time.perf_counter() - start
print(json.dumps({"actions": actions, "seconds": elapsed, "cpu": cpu, "digest": digest.hexdigest(),
                  "file": trapworks.__file__}))
"""


def run_engine(src: Path, games: int, players: int, seed: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(games), str(players), str(seed)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd="/",
    )
    result: dict = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def backgammon(games: int, seed: int) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    import random
    import time

    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return actions / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base-src", type=Path, default=None, help="src/ of the code to compare against")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3, help="runs of each engine, alternating")
    args = ap.parse_args()

    head = f"{args.games} random {args.players}-player games, seeds {args.seed}..{args.seed + args.games - 1}"
    print(f"{head}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    engines = {"this code": SRC}
    if args.base_src is not None:
        engines["base (--base-src)"] = args.base_src
    runs: dict[str, list[dict]] = {name: [] for name in engines}
    names = list(engines)
    for r in range(args.rounds):
        order = names if r % 2 == 0 else names[::-1]
        for name in order:
            got = run_engine(engines[name], args.games, args.players, args.seed)
            runs[name].append(got)
            print(
                f"  round {r + 1} {name:>18}: {got['actions'] / got['seconds']:>9,.0f} actions/s wall, "
                f"{got['actions'] / got['cpu']:>9,.0f} per CPU second  (load {os.getloadavg()[0]:.2f})"
            )
    digests = {g["digest"] for rs in runs.values() for g in rs}
    actions = {g["actions"] for rs in runs.values() for g in rs}
    same = len(digests) == 1 and len(actions) == 1
    med = {}
    for name, rs in runs.items():
        wall = statistics.median(g["actions"] / g["seconds"] for g in rs)
        cpu = statistics.median(g["actions"] / g["cpu"] for g in rs)
        med[name] = (wall, cpu)
        print(
            f"{name:>28}: {wall:>10,.0f} actions/s wall, {cpu:>10,.0f} per CPU second "
            f"(median of {len(rs)}; {rs[0]['actions']:,} actions)"
        )
    if args.base_src is not None:
        this, base = runs["this code"], runs["base (--base-src)"]
        per_round = [
            (a["actions"] / a["seconds"]) / (b["actions"] / b["seconds"])
            for a, b in zip(this, base, strict=True)
        ]
        print(
            f"{'ratio this/base':>28}: {med['this code'][0] / med['base (--base-src)'][0]:>10.2f}x wall, "
            f"{med['this code'][1] / med['base (--base-src)'][1]:.2f}x CPU (medians); per round (wall) "
            + ", ".join(f"{x:.2f}x" for x in per_round)
            + f"  same games: {same}"
        )
        if not same:
            sys.exit("the engines played different games: a rule or record changed")
    peer = backgammon(max(10, args.games), args.seed)
    if peer is not None:
        print(f"{'peer: OpenSpiel backgammon':>28}: {peer:>10,.0f} actions/s")
        print(f"{'ratio this/backgammon':>28}: {med['this code'][0] / peer:>10.2f}x")


if __name__ == "__main__":
    main()
