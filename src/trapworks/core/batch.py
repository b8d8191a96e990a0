"""The one batched driver: what every game's compiled engine shares around its own loop.

A game's batched engine (Mouse Trap's and 13 Dead End Drive's numba loops, Last Mouse Lost's C
loop) plays many whole games at once and gives its results as columns, one entry per game. Around
that loop every engine does the same things, and does them here, so that every game's rows mean
the same thing (what `simulate` writes):

- checks the request: one agent per seat, each one the engine plays (`check_agents`);
- turns seeds into the engine's 64-bit seeds (`seed_array`);
- splits a batch into one chunk of games per thread (`in_threads`: the loops release the GIL);
- refuses a game whose actions overflowed the kept move buffer (`check_moves_kept`);
- turns the columns into rows (`rows_from_columns`): "winners", "returns" (+1 for the winner,
  -1/(n-1) for each other seat, 0 for all when nobody won), "truncated", "length" (the seats'
  decisions), "actions" (every action, chance included), "ending", "first_seat" where the engine
  tracks it, the game's statistics, and with moves, each game's action ids ("moves").

The kernel's rows (`trapworks.sim.play_one`) use the same names with the same meanings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from .errors import TrapworksError
from .stream import _MASK64
from .words import plural


def check_agents(title: str, agents: Sequence[str], players: int, policies: Iterable[str]) -> None:
    """One agent per seat, each one the engine plays; else a TrapworksError naming the problem."""
    if len(agents) != players:
        count = len(agents)
        raise TrapworksError(f"{count} {plural(count, 'agent')} for a {players}-player game of {title}")
    known = list(policies)
    unknown = [a for a in agents if a not in known]
    if unknown:
        raise TrapworksError(f"no batched {title} agent {unknown[0]!r}; the engine plays {', '.join(known)}")


def seed_array(seeds: Any) -> Any:
    """The seeds as the engines' uint64 array (each seed taken modulo 2**64)."""
    if isinstance(seeds, np.ndarray) and seeds.dtype == np.uint64:
        return np.ascontiguousarray(seeds)
    seeds = list(seeds)
    if not seeds:
        return np.zeros(0, np.uint64)
    return np.array([int(s) & _MASK64 for s in seeds], np.uint64)


def batch_threads(count: int, min_games: int) -> int:
    """How many threads play a batch of `count` games: numba's thread count (NUMBA_NUM_THREADS,
    by default the machine's cores), at most one per `min_games` games (a thread's start costs
    more than a few short games)."""
    import numba

    return max(1, min(numba.get_num_threads(), count // max(1, min_games)))


def in_threads(count: int, threads: int, play: Callable[[int, int], None]) -> None:
    """`play(lo, hi)` for `threads` consecutive chunks of range(count), one per thread (the
    engines' loops release the GIL; each chunk gets its own stream state and scratch rows, so
    the results do not depend on the split)."""
    bounds = [count * i // threads for i in range(threads + 1)]
    if threads <= 1:
        play(0, count)
        return
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(lambda i: play(bounds[i], bounds[i + 1]), range(threads)))


def check_moves_kept(actions: Any, max_moves: int) -> None:
    """Refuse results whose move buffer overflowed: a game with more actions than were kept."""
    too_long = np.flatnonzero(np.asarray(actions) > max_moves)
    if too_long.size:
        g = int(too_long[0])
        raise TrapworksError(f"game {g} has {int(actions[g])} actions, more than the {max_moves} kept")


def rows_from_columns(
    cols: Mapping[str, Any],
    players: int,
    endings: Sequence[str],
    stat_columns: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """One row per game from an engine's columns: "winner" (seat, -1 when none), "truncated",
    "length", "actions", optional "first_seat" and "moves" (2-D, -1 after each game's end), and
    the `stat_columns`. `endings` names each game's ending (the game's own words)."""
    lose = -1.0 / (players - 1) if players > 1 else 0.0
    returns_by_winner = {w: [1.0 if k == w else lose for k in range(players)] for w in range(players)}
    stats = [np.asarray(cols[c]).tolist() for c in stat_columns]
    first_seats = np.asarray(cols["first_seat"]).tolist() if "first_seat" in cols else None
    moves = cols.get("moves")
    rows: list[dict[str, Any]] = []
    for g, (winner, truncated, length, actions) in enumerate(
        zip(
            np.asarray(cols["winner"]).tolist(),
            np.asarray(cols["truncated"]).tolist(),
            np.asarray(cols["length"]).tolist(),
            np.asarray(cols["actions"]).tolist(),
            strict=True,
        )
    ):
        row = dict(zip(stat_columns, (c[g] for c in stats), strict=True))
        won = winner >= 0 and not truncated
        row["winners"] = [winner] if won else []
        row["returns"] = list(returns_by_winner[winner]) if won else [0.0] * players
        row["truncated"] = bool(truncated)
        row["length"] = length
        row["actions"] = actions
        row["ending"] = endings[g]
        if first_seats is not None:
            row["first_seat"] = first_seats[g]  # the seat that took the first turn (0-based)
        if moves is not None:
            row["moves"] = moves[g, :actions].tolist()
        rows.append(row)
    return rows


__all__ = ["check_agents", "check_moves_kept", "rows_from_columns", "seed_array"]
