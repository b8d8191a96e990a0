"""The part bench/mouse_trap_batch.py and bench/dead_end_drive_batch.py share: games per second of
a batched engine (rows and columns) against the kernel path (`trapworks.sim.play_one`), by CPU
time of this process, in alternating blocks, the median reported."""

from __future__ import annotations

import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

import trapworks
from trapworks.sim import play_one

CLOCK = time.process_time


def kernel_rate(
    game_id: str, options: dict, agents: list[str], seconds: float, start: int
) -> tuple[float, int]:
    """Kernel games per CPU second over about `seconds`; the next seed."""
    t0 = CLOCK()
    n = 0
    while CLOCK() - t0 < seconds:
        play_one(game_id, options, agents, start + n)
        n += 1
    return n / (CLOCK() - t0), start + n


def batched_rate(
    play: Callable[..., Any], game: Any, agents: list[str], seconds: float, start: int, batch: int
) -> tuple[float, int]:
    """Batched games per CPU second over about `seconds` (calls of `batch` games); the next seed."""
    t0 = CLOCK()
    n = 0
    while CLOCK() - t0 < seconds:
        play(game, agents, range(start + n, start + n + batch))
        n += batch
    return n / (CLOCK() - t0), start + n


def print_header(blocks: int, seconds: float) -> None:
    print(
        f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
        f"CPU time of one process, median of {blocks} blocks of {seconds} s"
    )
    print(
        "| game | agents | kernel games/s | batched, rows | batched, columns "
        "| rows / kernel | columns / kernel |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")


def compare(
    game_id: str,
    label: str,
    options: dict,
    agents: list[str],
    play_batch: Callable[..., Any],
    play_columns: Callable[..., Any],
    seconds: float,
    blocks: int,
    batch: int,
    kernel_digits: int = 0,
) -> tuple[float, float, float]:
    """One table row: kernel, rows and columns in alternating blocks; the medians."""
    game = trapworks.make(game_id, **options)
    game.play_batch(agents, range(4))  # compile (cached on disk after the first run)
    ks: list[float] = []
    rs: list[float] = []
    cs: list[float] = []
    seed_k = seed_r = seed_c = 0
    for _ in range(blocks):
        rate, seed_k = kernel_rate(game_id, options, agents, seconds, seed_k)
        ks.append(rate)
        rate, seed_r = batched_rate(play_batch, game, agents, seconds, seed_r, batch)
        rs.append(rate)
        rate, seed_c = batched_rate(play_columns, game, agents, seconds, seed_c, batch)
        cs.append(rate)
    k, r, c = statistics.median(ks), statistics.median(rs), statistics.median(cs)
    print(
        f"| {label} | {','.join(agents)} | {k:,.{kernel_digits}f} | {r:,.0f} | {c:,.0f} "
        f"| {r / k:,.1f}x | {c / k:,.1f}x |",
        flush=True,
    )
    return k, r, c
