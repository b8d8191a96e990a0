"""Batched playouts of Last Mouse Lost: many whole matches in one compiled loop (numba).

The same rules as game.py (both rule sets, any board, the match to `first_to` round wins, every
`opener` rule, a drawn first player) with the two policies a simulation runs most: `random` (a
uniform legal move) and `heuristic` (agents.HeuristicAgent's decisions: the misère-Nim endgame
rule, then a move that hands the opponent a lost endgame, else one that gives no endgame away,
else any). Action ids, their order in the legal list and the presses are the kernel's.

Randomness: each game draws from its own SplitMix64 stream seeded with its seed; a choice among
n items takes item `((draw >> 32) * n) >> 32`. `SharedStream` is the same stream in Python, with
`choice` as random.Random has it, so the kernel's own agents can consume it identically: the
test plays the kernel with it and gets the batched games move for move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
from numba import njit

from trapworks.core import TrapworksError
from trapworks.core.stream import _MASK64


class LastMouseLostGame(Protocol):
    """What the engine reads of a Last Mouse Lost game (game.py's LastMouseLostGame; named here
    as a protocol because the rules module imports this one, never the reverse)."""

    options: dict[str, Any]
    board: tuple[int, ...]
    advanced: bool
    num_press_actions: int
    row_offset: Any
    action_row: Any
    action_count: Any
    action_mask: Any

    def max_game_length(self) -> int: ...


POLICIES = {"random": 0, "heuristic": 1}
OPENER_RULES = {"alternate": 0, "loser": 1, "winner": 2, "same": 3}


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
    how many of 2 or more mice, their nim-sum; how many runs it holds as sub-runs (its legal
    advanced presses); its trailing ones."""
    size = 1 << width
    # Small integer types: the tables stay in the cache.
    pop = np.zeros(size, np.int8)
    runs = np.zeros(size, np.int8)
    big = np.zeros(size, np.int8)
    nim = np.zeros(size, np.int8)
    sub = np.zeros(size, np.int16)
    ones = np.zeros(size, np.int8)
    for v in range(size):
        while v >> ones[v] & 1:
            ones[v] += 1
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
                sub[v] += n * (n + 1) // 2
                i = j
            else:
                i += 1
    return pop, runs, big, nim, sub, ones


@njit(cache=True)
def _rightmost(raised: int, count: int) -> int:
    mask = 0
    for i in range(15, -1, -1):
        if count == 0:
            break
        if raised >> i & 1:
            mask |= 1 << i
            count -= 1
    return mask


@njit(cache=True)
def _run_id(row_offset: int, n: int, start: int, length: int) -> int:
    # Advanced ids run over (start, length) in order: runs with a smaller start come first.
    return row_offset + start * n - start * (start - 1) // 2 + length - 1


@njit(cache=True)
def _heuristic(
    rows: Any,
    board: Any,
    advanced: bool,
    row_offset: Any,
    legal: Any,
    n_legal: int,
    act_row: Any,
    act_count: Any,
    act_mask: Any,
    left: int,
    pop: Any,
    runs: Any,
    big: Any,
    nim: Any,
    win: Any,
    safe: Any,
    st: Any,
) -> int:
    """agents.HeuristicAgent.choose, decision for decision (the same draws from the stream)."""
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
        if act_count[a] == left:
            continue  # presses the last mouse: the round is lost
        r = act_row[a]
        v = rows[r]
        if advanced:
            w = v ^ act_mask[a]
            a_heaps = heaps - runs[v] + runs[w]
            a_big = bigs - big[v] + big[w]
            a_nim = nim_all ^ nim[v] ^ nim[w]
        else:
            w = v ^ _rightmost(v, act_count[a])
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
    board: Any,
    advanced: bool,
    first_to: int,
    opener_rule: int,
    first_player: int,
    policies: Any,
    seeds: Any,
    row_offset: Any,
    act_row: Any,
    act_count: Any,
    act_mask: Any,
    record: bool,
    max_len: int,
) -> Any:
    n_games = seeds.shape[0]
    n_rows = board.shape[0]
    n_actions = act_row.shape[0]
    pop, runs, big, nim, sub, ones = _row_stats(16)
    full = np.zeros(n_rows, np.int64)
    total = 0
    for r in range(n_rows):
        full[r] = (1 << board[r]) - 1
        total += board[r]
    # How many legal presses the full board has (basic: one per mouse; advanced: every run).
    legal_full = 0
    for r in range(n_rows):
        legal_full += sub[full[r]] if advanced else board[r]
    winner_out = np.zeros(n_games, np.int8)
    length_out = np.zeros(n_games, np.int32)
    rounds_out = np.zeros(n_games, np.int32)
    opener_wins_out = np.zeros(n_games, np.int32)
    moves = np.full((n_games if record else 0, max_len), -1, np.int32)
    legal = np.zeros(n_actions, np.int64)
    win = np.zeros(n_actions, np.int64)
    safe = np.zeros(n_actions, np.int64)
    rows = np.zeros(n_rows, np.int64)
    count = np.zeros(n_rows, np.int64)  # basic rules: raised mice per row
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
        opener = to_move
        score0 = 0
        score1 = 0
        opener_wins = 0
        rows[:] = full
        count[:] = board
        left = total
        n_legal = legal_full  # kept up to date move by move
        while True:
            if policies[to_move] == 0:
                # The k-th legal press in ascending id order, found without listing them.
                k = _below(st, n_legal)
                if not advanced:  # basic: one press per raised mouse, counted per row
                    for r in range(n_rows):
                        if k < count[r]:
                            break
                        k -= count[r]
                    a = row_offset[r] + k
                else:
                    for r in range(n_rows):
                        v = rows[r]
                        here = sub[v]
                        if k < here:
                            break
                        k -= here
                    start = 0
                    while True:
                        if v >> start & 1:
                            run = ones[v >> start]
                            if k < run:
                                break
                            k -= run
                        start += 1
                    a = _run_id(row_offset[r], board[r], start, k + 1)
            else:
                n_legal = 0
                for r in range(n_rows):
                    v = rows[r]
                    if not v:
                        continue
                    if advanced:
                        n = board[r]
                        first = row_offset[r]
                        for a in range(first, first + n * (n + 1) // 2):
                            if v & act_mask[a] == act_mask[a]:
                                legal[n_legal] = a
                                n_legal += 1
                    else:
                        for k in range(pop[v]):
                            legal[n_legal] = row_offset[r] + k
                            n_legal += 1
                a = _heuristic(
                    rows, board, advanced, row_offset, legal, n_legal, act_row, act_count,
                    act_mask, left, pop, runs, big, nim, win, safe, st,
                )  # fmt: skip
            r = act_row[a]
            v = rows[r]
            if advanced:
                w = v ^ act_mask[a]
                n_legal += sub[w] - sub[v]
            else:
                # Rows start full and lose their rightmost mice: always a run from mouse 1.
                count[r] -= act_count[a]
                w = (1 << count[r]) - 1
                n_legal -= act_count[a]
            rows[r] = w
            left -= act_count[a]
            if record:
                moves[g, length] = a
            length += 1
            if left:
                to_move ^= 1
                continue
            # The mover pressed the last mouse: they lose the round.
            winner = 1 - to_move
            if winner == opener:
                opener_wins += 1
            if winner == 0:
                score0 += 1
                won = score0
            else:
                score1 += 1
                won = score1
            if won >= first_to:
                winner_out[g] = winner
                break
            rows[:] = full
            count[:] = board
            left = total
            n_legal = legal_full
            if opener_rule == 0:
                opener = 1 - opener
            elif opener_rule == 1:
                opener = to_move  # the loser
            elif opener_rule == 2:
                opener = winner
            to_move = opener
        length_out[g] = length
        rounds_out[g] = score0 + score1
        opener_wins_out[g] = opener_wins
    return winner_out, length_out, rounds_out, opener_wins_out, moves


@njit(cache=True)
def _play_random_basic(
    board: Any,
    first_to: int,
    opener_rule: int,
    first_player: int,
    seeds: Any,
    row_offset: Any,
    n_actions: int,
    record: bool,
    max_len: int,
) -> Any:
    """_play for two random players under basic rules, the common simulation: a row is just
    its count of raised mice, and the legal presses are one per raised mouse (the same ids in
    the same order, so the same draws give the same games)."""
    n_games = seeds.shape[0]
    n_rows = board.shape[0]
    total = 0
    for r in range(n_rows):
        total += board[r]
    winner_out = np.zeros(n_games, np.int8)
    length_out = np.zeros(n_games, np.int32)
    rounds_out = np.zeros(n_games, np.int32)
    opener_wins_out = np.zeros(n_games, np.int32)
    moves = np.full((n_games if record else 0, max_len), -1, np.int32)
    count = np.zeros(n_rows, np.int64)
    st = np.zeros(1, np.uint64)
    for g in range(n_games):
        st[0] = seeds[g]
        length = 0
        if first_player == 2:
            to_move = _below(st, 2)
            if record:
                moves[g, 0] = n_actions + to_move
            length = 1
        else:
            to_move = first_player
        opener = to_move
        score0 = 0
        score1 = 0
        opener_wins = 0
        for r in range(n_rows):
            count[r] = board[r]
        left = total
        while True:
            k = _below(st, left)  # the k-th legal press: one per raised mouse
            r = 0
            while k >= count[r]:
                k -= count[r]
                r += 1
            count[r] -= k + 1
            left -= k + 1
            if record:
                moves[g, length] = row_offset[r] + k
            length += 1
            if left:
                to_move ^= 1
                continue
            winner = 1 - to_move
            if winner == opener:
                opener_wins += 1
            if winner == 0:
                score0 += 1
                won = score0
            else:
                score1 += 1
                won = score1
            if won >= first_to:
                winner_out[g] = winner
                break
            for r in range(n_rows):
                count[r] = board[r]
            left = total
            if opener_rule == 0:
                opener = 1 - opener
            elif opener_rule == 1:
                opener = to_move
            elif opener_rule == 2:
                opener = winner
            to_move = opener
        length_out[g] = length
        rounds_out[g] = score0 + score1
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
    fp = game.options["first_player"]
    n_actions = game.num_press_actions
    if isinstance(seeds, np.ndarray) and seeds.dtype == np.uint64:
        seed_array = seeds
    else:
        seed_array = np.array([int(s) & _MASK64 for s in seeds], np.uint64)
    if not game.advanced and agents[0] == agents[1] == "random":
        winner, length, rounds, opener_wins, played = _play_random_basic(
            np.array(game.board, np.int64),
            int(game.options["first_to"]),
            OPENER_RULES[game.options["opener"]],
            2 if fp == "random" else int(fp),
            seed_array,
            np.array(game.row_offset, np.int64),
            n_actions,
            moves,
            game.max_game_length(),
        )
        out = {"winner": winner, "length": length, "rounds": rounds, "opener_wins": opener_wins}
        if moves:
            out["moves"] = played
        return out
    winner, length, rounds, opener_wins, played = _play(
        np.array(game.board, np.int64),
        game.advanced,
        int(game.options["first_to"]),
        OPENER_RULES[game.options["opener"]],
        2 if fp == "random" else int(fp),
        np.array([POLICIES[a] for a in agents], np.int64),
        seed_array,
        np.array(game.row_offset, np.int64),
        np.array(game.action_row, np.int64),
        np.array(game.action_count, np.int64),
        np.array(game.action_mask if game.advanced else [0] * n_actions, np.int64),
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
