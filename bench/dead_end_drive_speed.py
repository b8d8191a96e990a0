"""13 Dead End Drive: actions per second of this code against an older copy, same seeds, same games.

Each engine runs in its own subprocess (`PYTHONPATH=<src>`), so the two copies never share a
module or the movement memo. Both play the same random 4-player games (seeds SEED..SEED+N-1,
uniformly random legal actions, chance by its odds); the run checks that both played the same
games (same action sequence digest), then prints actions per second and the ratio. OpenSpiel's
C++ `backgammon` runs in the same process loop as the named peer.

    git archive <start commit> src | tar -x -C /tmp/ded_base
    .venv/bin/python bench/dead_end_drive_speed.py --base-src /tmp/ded_base/src [--games 20]
"""

from __future__ import annotations

import argparse
import json
import os
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
elapsed = time.perf_counter() - start
print(json.dumps({"actions": actions, "seconds": elapsed, "digest": digest.hexdigest(),
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
    args = ap.parse_args()

    head = f"{args.games} random {args.players}-player games, seeds {args.seed}..{args.seed + args.games - 1}"
    print(f"{head}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    now = run_engine(SRC, args.games, args.players, args.seed)
    now_rate = now["actions"] / now["seconds"]
    print(f"{'this code':>28}: {now_rate:>10,.0f} actions/s ({now['actions']:,} actions)")
    if args.base_src is not None:
        base = run_engine(args.base_src, args.games, args.players, args.seed)
        base_rate = base["actions"] / base["seconds"]
        same = base["digest"] == now["digest"]
        print(f"{'base (--base-src)':>28}: {base_rate:>10,.0f} actions/s ({base['actions']:,} actions)")
        print(f"{'ratio this/base':>28}: {now_rate / base_rate:>10.2f}x  same games: {same}")
        if not same:
            sys.exit("the two engines played different games: a rule or record changed")
    peer = backgammon(max(10, args.games), args.seed)
    if peer is not None:
        print(f"{'peer: OpenSpiel backgammon':>28}: {peer:>10,.0f} actions/s")
        print(f"{'ratio this/backgammon':>28}: {now_rate / peer:>10.2f}x")


if __name__ == "__main__":
    main()
