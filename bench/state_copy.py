"""Copying a state: `copy.deepcopy` and `pickle` against the game's own `clone()`, every game.

OpenSpiel deep-copies Python states (its `State.clone()` for Python games), and Ray,
multiprocessing and environment wrappers pickle or deep-copy them. Since issue 17 both go through
`State.__deepcopy__` (the game's clone) and `State.__getstate__` / `Game.__reduce__` (a game
pickles as its class and options; attributes a state marks in `shared_attrs` are left out).

(Until issue 19 replaced Last Mouse Lost's shared position table by a bitboard, this script also
reproduced the behaviour before issue 17 on that table; BENCHMARKS.md keeps those figures.)

    .venv/bin/python bench/state_copy.py      # prints a Markdown table
"""

from __future__ import annotations

import argparse
import copy
import pickle
import platform
import random
import time
from typing import Any

import trapworks

GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("last-mouse-lost", {}, 1),
    ("last-mouse-lost", {}, 6),
    ("mouse-trap", {"players": 4}, 200),
    ("booby-trap", {}, 30),
    ("dead-end-drive", {"players": 4}, 150),
]


def mid_game(game_id: str, options: dict[str, Any], moves: int, seed: int = 1):
    game = trapworks.make(game_id, **options)
    rng = random.Random(seed)
    if game_id == "last-mouse-lost":
        # Warm the shared position table as a server or a search would (many playouts).
        for _ in range(3000):
            s = game.new_initial_state()
            while not s.is_terminal() and sum(s.score) == 0:
                s.apply_action(rng.choice(s.legal_actions()))
    state = game.new_initial_state(seed=seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def per_call(fn, min_seconds: float = 0.1, max_calls: int = 100_000, repeats: int = 5) -> float:
    """Seconds per call of `fn`: the best of `repeats` blocks, each the mean over at least
    `min_seconds` (the best block is the one least disturbed by other load on the machine)."""
    best = float("inf")
    for _ in range(repeats):
        calls = 0
        start = time.perf_counter()
        while True:
            fn()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= min_seconds or calls >= max_calls:
                break
        best = min(best, elapsed / calls)
    return best


def fmt_time(s: float) -> str:
    if s >= 0.1:
        return f"{s:.2f} s"
    if s >= 1e-4:
        return f"{s * 1e3:.2f} ms"
    return f"{s * 1e6:.1f} µs"


def fmt_size(n: int) -> str:
    return f"{n / 2**20:.1f} MiB" if n >= 2**20 else f"{n / 1024:.1f} KiB" if n >= 1024 else f"{n} B"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    rows = []
    for game_id, options, moves in GAMES:
        state = mid_game(game_id, options, moves)
        data = pickle.dumps(state)
        row = {
            "game": f"{game_id}, {state.move_number()} moves in",
            "clone": per_call(state.clone),
            "deepcopy": per_call(lambda s=state: copy.deepcopy(s)),
            "dumps": per_call(lambda s=state: pickle.dumps(s)),
            "loads": per_call(lambda d=data: pickle.loads(d)),
            "size": len(data),
        }
        rows.append(row)
    print(f"python {platform.python_version()}, {platform.machine()}")
    header = "| game | clone() | deepcopy | pickle.dumps | pickle.loads | pickle size |"
    print(header)
    print("|" + "---|" * 6)
    for r in rows:
        loads = fmt_time(r["loads"]) if r["loads"] is not None else "-"
        name = r["game"] + (f" ({r['nodes']} boards in the table)" if "nodes" in r else "")
        print(
            f"| {name} | {fmt_time(r['clone'])} | {fmt_time(r['deepcopy'])} | {fmt_time(r['dumps'])} | "
            f"{loads} | {fmt_size(r['size'])} |"
        )


if __name__ == "__main__":
    main()
