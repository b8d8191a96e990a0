"""What an observation tensor costs next to a step, every game (issue 30, deliver 5).

Random playouts of each game are recorded; then, over the same positions:
- step: one kernel step as an environment makes it (`legal_actions()`, then `apply_action`),
  chance nodes included (drawn from a seeded rng), per action;
- tensor (kernel): `state.observation_tensor(seat)` for the seat to move (its view, encoded);
- tensor (adapters): what the Gymnasium and PettingZoo environments call for their observation
  (a float32 numpy array): `trapworks.adapters._common.observation_writer(game)`, the function
  they keep, called with (state, seat). An encoder that keeps
  tables (`clear_caches()`) has them cleared before each pass and filled by as many other games
  (other seeds) first, so that no timed position's tensor was made before (a long run's tables).
Times are the thread's CPU time (time.thread_time), so that other work on a shared machine counts
less.

    .venv/bin/python bench/observation_cost.py            # prints a Markdown table
    .venv/bin/python bench/observation_cost.py --check    # also: fast path == the view encoder
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from typing import Any

import numpy as np

import trapworks
from trapworks.adapters._common import observation_array, observation_writer
from trapworks.core.game import CHANCE, sample_chance

GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("last-mouse-lost", {}, 60),
    ("mouse-trap", {"players": 4, "turn_limit": 200}, 20),
    ("booby-trap", {}, 4),
    ("dead-end-drive", {"players": 4, "turn_limit": 100}, 8),
]


def playouts(
    game_id: str, options: dict[str, Any], games: int, seed: int = 0, game: Any = None, first: int = 0
):
    """(initial state, actions, positions where a seat is to move) of `games` random games
    (game seeds first, first + 1, ...; on `game` when given)."""
    game = game if game is not None else trapworks.make(game_id, **options)
    rng = random.Random(seed)
    runs = []
    for g in range(first, first + games):
        state = game.new_initial_state(seed=g)
        start = state.clone()
        actions: list[int] = []
        positions = []
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                a = sample_chance(state, rng)
            else:
                positions.append(state.clone())
                a = rng.choice(state.legal_actions())
            state.apply_action(a)
            actions.append(a)
        runs.append((start, actions, positions))
    return runs


def time_steps(runs) -> tuple[float, int]:
    total = 0.0
    count = 0
    for start, actions, _ in runs:
        state = start.clone()
        t = time.thread_time()
        for a in actions:
            if state.current_player() != CHANCE:
                state.legal_actions()
            state.apply_action(a)
        total += time.thread_time() - t
        count += len(actions)
    return total, count


def time_tensors(runs, fn, warm=None) -> tuple[float, int]:
    if warm is not None:
        enc = runs[0][0].game.encoder()
        if hasattr(enc, "clear_caches"):
            enc.clear_caches()
        for _, _, positions in warm:
            for p in positions:
                fn(p, p.current_player())
    total = 0.0
    count = 0
    for _, _, positions in runs:
        seats = [p.current_player() for p in positions]
        t = time.thread_time()
        for p, s in zip(positions, seats, strict=True):
            fn(p, s)
        total += time.thread_time() - t
        count += len(positions)
    return total, count


def check(runs) -> int:
    """Every seat's fast tensor equals the view encoder's, on every recorded position."""
    n = 0
    for _, _, positions in runs:
        for p in positions:
            enc = p.game.encoder()
            for s in range(p.num_players()):
                want = np.asarray(enc.observation_tensor(p.view(s)), dtype=np.float32)
                got = observation_array(p, s)
                assert np.array_equal(want, got), (p.game.game_id, s)
                n += 1
    return n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    print(f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}")
    print()
    print(
        "| game | step (µs) | tensor, kernel (µs) | tensor, adapters (µs) | kernel / step | adapters / step |"
    )  # noqa: E501
    print("|---|---|---|---|---|---|")
    for game_id, options, games in GAMES:
        runs = playouts(game_id, options, games)
        warm = playouts(game_id, options, games, seed=1, game=runs[0][0].game, first=10_000)
        if args.check:
            print(f"checked {check(runs)} tensors of {game_id}")
        step_t, steps = min((time_steps(runs) for _ in range(3)), key=lambda x: x[0])
        kern_t, obs = min(
            (time_tensors(runs, lambda p, s: p.observation_tensor(s)) for _ in range(3)), key=lambda x: x[0]
        )
        write = observation_writer(runs[0][0].game)
        adap_t, _ = min((time_tensors(runs, write, warm) for _ in range(3)), key=lambda x: x[0])
        step_us = step_t / steps * 1e6
        kern_us = kern_t / obs * 1e6
        adap_us = adap_t / obs * 1e6
        label = game_id + (f" {options.get('players')}p" if "players" in options else "")
        print(
            f"| {label} | {step_us:.2f} | {kern_us:.2f} | {adap_us:.2f} | "
            f"{kern_us / step_us:.1f}x | {adap_us / step_us:.1f}x |"
        )


if __name__ == "__main__":
    main()
