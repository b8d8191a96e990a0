"""Batched playouts of Last Mouse Lost: many whole matches in one compiled loop (numba).

The rules are the compiled engine's (_fastlml.c: which presses are legal, which mice a press
takes, what the end of a round decides), the very C functions a single compiled state runs; this
loop calls them through their addresses and adds only the match loop and the two policies a
simulation runs most: `random` (a uniform legal move) and `heuristic` (agents.HeuristicAgent's
decisions: the misère-Nim endgame rule, then a move that hands the opponent a lost endgame, else
one that gives no endgame away, else any). Action ids and their order in the legal list are the
engine's, so the kernel's. Boards of up to 64 mice (the engine's).

Randomness: each game draws from its own SplitMix64 stream seeded with its seed; a choice among
n items takes item `((draw >> 32) * n) >> 32`. `SharedStream` is the same stream in Python, with
`choice` as random.Random has it, so the kernel's own agents can consume it identically: the
test plays the kernel with it and gets the batched games move for move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numba.experimental.function_type  # noqa: F401  (numba types _Engine objects once imported)
import numpy as np
from numba import njit, types

from trapworks.core import TrapworksError
from trapworks.core.stream import _MASK64

from . import _fastlml  # the compiled engine (play_batch is offered only where it is built)


class LastMouseLostGame(Protocol):
    """What the engine reads of a Last Mouse Lost game (game.py's LastMouseLostGame; named here
    as a protocol because the rules module imports this one, never the reverse)."""

    options: dict[str, Any]
    board: tuple[int, ...]
    offsets: tuple[int, ...]
    full_board: int
    advanced: bool
    num_press_actions: int
    row_offset: Any
    action_row: Any
    action_count: Any
    action_mask: Any
    tables: Any

    def max_game_length(self) -> int: ...


POLICIES = {"random": 0, "heuristic": 1}
OPENER_RULES = {"alternate": 0, "loser": 1, "winner": 2, "same": 3}


class _Engine(types.WrapperAddressProtocol):
    """One of the compiled engine's rule functions, as numba calls it (by its address)."""

    def __init__(self, address: int, signature: Any):
        self._address = address
        self._signature = signature

    def __wrapper_address__(self) -> int:
        return self._address

    def signature(self) -> Any:
        return self._signature


_I64 = types.int64
_ADDRESSES = _fastlml.engine_addresses()
# legal(spec, board, out) -> how many; press(spec, board, action) -> the mice it takes (0:
# illegal); round_end(match) -> 1 when the match is won (match = score 0, score 1, mover,
# opener, first_to, opener rule; the score and the next opener updated).
LEGAL = _Engine(_ADDRESSES["legal"], _I64(_I64, _I64, _I64))
PRESS = _Engine(_ADDRESSES["press"], _I64(_I64, _I64, _I64))
ROUND_END = _Engine(_ADDRESSES["round_end"], _I64(_I64))
# count(spec, board) -> how many legal presses; play_kth(spec, board, k, action) -> the board
# after the k-th of them, its id written at `action`.
COUNT = _Engine(_ADDRESSES["count"], _I64(_I64, _I64))
PLAY_KTH = _Engine(_ADDRESSES["play_kth"], _I64(_I64, _I64, _I64, _I64))


@njit(cache=True)
def _next(st: Any) -> Any:
    z = st[0] + np.uint64(0x9E3779B97F4A7C15)
    st[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _below(st: Any, n: int) -> Any:  # an int64 (numba)
    return np.int64(((_next(st) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def _row_stats(width: int) -> Any:
    """Per row value v < 2**width: popcount; its runs (heaps under advanced rules): how many,
    how many of 2 or more mice, their nim-sum (what the heuristic reads of a position)."""
    size = 1 << width
    # Small integer types: the tables stay in the cache.
    pop = np.zeros(size, np.int8)
    runs = np.zeros(size, np.int8)
    big = np.zeros(size, np.int8)
    nim = np.zeros(size, np.int8)
    for v in range(size):
        i = 0
        while i < width:
            if v >> i & 1:
                j = i
                while j < width and v >> j & 1:
                    j += 1
                n = j - i
                pop[v] += n
                runs[v] += 1
                if n >= 2:
                    big[v] += 1
                nim[v] ^= n
                i = j
            else:
                i += 1
    return pop, runs, big, nim


@njit(cache=True)
def _run_id(row_offset: int, n: int, start: int, length: int) -> int:
    # Advanced ids run over (start, length) in order: runs with a smaller start come first.
    return row_offset + start * n - start * (start - 1) // 2 + length - 1


@njit(cache=True)
def _heuristic(
    afters: Any,
    rows: Any,
    shifts: Any,
    full: Any,
    board: Any,
    advanced: bool,
    row_offset: Any,
    legal: Any,
    n_legal: int,
    act_row: Any,
    pop: Any,
    runs: Any,
    big: Any,
    nim: Any,
    win: Any,
    safe: Any,
    st: Any,
) -> int:
    """agents.HeuristicAgent.choose, decision for decision (the same draws from the stream).
    `afters[k]`: the board after the k-th legal press (the engine's)."""
    n_rows = rows.shape[0]
    heaps = 0
    bigs = 0
    nim_all = 0
    for r in range(n_rows):
        v = rows[r]
        if advanced:
            heaps += runs[v]
            bigs += big[v]
            nim_all ^= nim[v]
        elif v:
            heaps += 1
            bigs += 1 if pop[v] >= 2 else 0
            nim_all ^= pop[v]
    # The endgame (at most one heap of 2 or more): solver.solve's move, when it has one.
    if bigs == 0 and heaps % 2 == 0:
        for r in range(n_rows):  # the first heap: a single mouse; press it
            v = rows[r]
            if v:
                if not advanced:
                    return row_offset[r]
                start = 0
                while not v >> start & 1:
                    start += 1
                return _run_id(row_offset[r], board[r], start, 1)
    if bigs == 1:
        leave = 1 if (heaps - 1) % 2 == 0 else 0
        for r in range(n_rows):
            v = rows[r]
            if not v:
                continue
            if not advanced:
                size = pop[v]
                if size >= 2:
                    return row_offset[r] + size - leave - 1
                continue
            i = 0
            while i < board[r]:
                if v >> i & 1:
                    j = i
                    while j < board[r] and v >> j & 1:
                        j += 1
                    if j - i >= 2:  # press the run's rightmost mice, leave `leave` at its left
                        return _run_id(row_offset[r], board[r], i + leave, j - i - leave)
                    i = j
                else:
                    i += 1
    # One move ahead: a move that leaves the opponent a lost endgame, else a safe one.
    n_win = 0
    n_safe = 0
    for k in range(n_legal):
        a = legal[k]
        after = afters[k]
        if after == 0:
            continue  # presses the last mouse: the round is lost
        r = act_row[a]
        v = rows[r]
        w = (after >> shifts[r]) & full[r]
        if advanced:
            a_heaps = heaps - runs[v] + runs[w]
            a_big = bigs - big[v] + big[w]
            a_nim = nim_all ^ nim[v] ^ nim[w]
        else:
            a_heaps = heaps - (1 if v else 0) + (1 if w else 0)
            a_big = bigs - (1 if pop[v] >= 2 else 0) + (1 if pop[w] >= 2 else 0)
            a_nim = nim_all ^ pop[v] ^ pop[w]
        if a_big > 1:
            safe[n_safe] = a
            n_safe += 1
        else:
            # solver.mover_wins for the opponent
            opp_wins = a_nim != 0 if a_big else (a_heaps % 2 == 0)
            if not opp_wins:
                win[n_win] = a
                n_win += 1
    if n_win:
        return win[_below(st, n_win)]
    if n_safe:
        return safe[_below(st, n_safe)]
    return legal[_below(st, n_legal)]


@njit(cache=True)
def _play(
    legal_of: Any,
    count: Any,
    play_kth: Any,
    press: Any,
    round_end: Any,
    spec: int,
    full_bits: int,
    board: Any,
    shifts: Any,
    advanced: bool,
    first_to: int,
    opener_rule: int,
    first_player: int,
    policies: Any,
    seeds: Any,
    row_offset: Any,
    act_row: Any,
    legal: Any,
    legal_at: int,
    match: Any,
    match_at: int,
    record: bool,
    max_len: int,
) -> Any:
    """Whole matches, one per seed; `legal` and `match` are scratch arrays at the addresses
    `legal_at` and `match_at`, where the engine writes."""
    n_games = seeds.shape[0]
    n_rows = board.shape[0]
    n_actions = act_row.shape[0]
    heuristic = False
    for p in range(2):
        heuristic = heuristic or policies[p] == 1
    pop, runs, big, nim = _row_stats(16 if heuristic else 0)
    full = np.zeros(n_rows, np.int64)
    for r in range(n_rows):
        full[r] = (1 << board[r]) - 1
    winner_out = np.zeros(n_games, np.int8)
    length_out = np.zeros(n_games, np.int32)
    rounds_out = np.zeros(n_games, np.int32)
    opener_wins_out = np.zeros(n_games, np.int32)
    moves = np.full((n_games if record else 0, max_len), -1, np.int32)
    afters = np.zeros(n_actions, np.int64)
    win = np.zeros(n_actions, np.int64)
    safe = np.zeros(n_actions, np.int64)
    rows = np.zeros(n_rows, np.int64)
    st = np.zeros(1, np.uint64)
    for g in range(n_games):
        st[0] = seeds[g]
        length = 0
        if first_player == 2:  # the chance node: outcomes opener:1, opener:2 at 1/2 each
            to_move = _below(st, 2)
            if record:
                moves[g, 0] = n_actions + to_move
            length = 1
        else:
            to_move = first_player
        match[0] = 0  # the score
        match[1] = 0
        match[3] = to_move  # this round's opener
        match[4] = first_to
        match[5] = opener_rule
        opener_wins = 0
        bits = full_bits
        while True:
            if policies[to_move] == 0:  # the k-th legal press, found without listing them
                bits = play_kth(spec, bits, _below(st, count(spec, bits)), legal_at)
                a = legal[0]
            else:
                n_legal = legal_of(spec, bits, legal_at)
                for r in range(n_rows):
                    rows[r] = (bits >> shifts[r]) & full[r]
                for k in range(n_legal):
                    afters[k] = bits ^ press(spec, bits, legal[k])
                a = _heuristic(
                    afters, rows, shifts, full, board, advanced, row_offset, legal,
                    n_legal, act_row, pop, runs, big, nim, win, safe, st,
                )  # fmt: skip
                bits ^= press(spec, bits, a)
            if record:
                moves[g, length] = a
            length += 1
            if bits:
                to_move ^= 1
                continue
            # The mover pressed the last mouse: the engine ends the round.
            opener = match[3]
            match[2] = to_move
            over = round_end(match_at)
            if 1 - to_move == opener:
                opener_wins += 1
            if over:
                winner_out[g] = 1 - to_move
                break
            bits = full_bits
            to_move = match[3]
        length_out[g] = length
        rounds_out[g] = match[0] + match[1]
        opener_wins_out[g] = opener_wins
    return winner_out, length_out, rounds_out, opener_wins_out, moves


def play_arrays(
    game: LastMouseLostGame, agents: Sequence[str], seeds: Any, moves: bool = False
) -> dict[str, Any]:
    """The batched engine's columns, one entry per seed (numpy arrays): "winner", "length",
    "rounds", "opener_wins", and with `moves` the actions ("moves", -1 after a game's end)."""
    if len(agents) != 2:
        raise TrapworksError(f"Last Mouse Lost has 2 seats; got {len(agents)} agents")
    unknown = [a for a in agents if a not in POLICIES]
    if unknown:
        raise TrapworksError(
            f"no batched policy {unknown[0]!r} for Last Mouse Lost; batched: {', '.join(POLICIES)}"
        )
    spec = game.tables.spec
    if spec is None:
        raise TrapworksError("the compiled engine holds boards of up to 64 mice")
    fp = game.options["first_player"]
    if isinstance(seeds, np.ndarray) and seeds.dtype == np.uint64:
        seed_array = seeds
    else:
        seed_array = np.array([int(s) & _MASK64 for s in seeds], np.uint64)
    legal = np.zeros(max(game.num_press_actions, 1), np.int64)
    match = np.zeros(6, np.int64)
    full = game.full_board
    winner, length, rounds, opener_wins, played = _play(
        LEGAL,
        COUNT,
        PLAY_KTH,
        PRESS,
        ROUND_END,
        spec.address(),  # `spec` stays referenced by the game while this runs
        full - (1 << 64) if full >> 63 else full,  # as a signed 64-bit integer
        np.array(game.board, np.int64),
        np.array(game.offsets, np.int64),
        game.advanced,
        int(game.options["first_to"]),
        OPENER_RULES[game.options["opener"]],
        2 if fp == "random" else int(fp),
        np.array([POLICIES[a] for a in agents], np.int64),
        seed_array,
        np.array(game.row_offset, np.int64),
        np.array(game.action_row, np.int64),
        legal,
        legal.ctypes.data,
        match,
        match.ctypes.data,
        moves,
        game.max_game_length(),
    )
    out = {"winner": winner, "length": length, "rounds": rounds, "opener_wins": opener_wins}
    if moves:
        out["moves"] = played
    return out


def play_batch(
    game: LastMouseLostGame, agents: Sequence[str], seeds: Sequence[int], moves: bool = False
) -> list[dict[str, Any]]:
    """One row per seed: the match played by `agents` (one policy name per seat)."""
    cols = play_arrays(game, agents, seeds, moves)
    first_to = game.options["first_to"]
    rows = []
    for g, (w, n, r, o) in enumerate(
        zip(
            cols["winner"].tolist(),
            cols["length"].tolist(),
            cols["rounds"].tolist(),
            cols["opener_wins"].tolist(),
            strict=True,
        )
    ):
        row: dict[str, Any] = {
            "winners": [w],
            "returns": [1.0, -1.0] if w == 0 else [-1.0, 1.0],
            "length": n,
            "truncated": False,
            "ending": f"{first_to}-{r - first_to}",  # the match score, as stats.game_stats says it
            "rounds": r,
            "opener_wins": o,
        }
        if moves:
            row["actions"] = cols["moves"][g, :n].tolist()
        rows.append(row)
    return rows
