"""Batched playouts of 13 Dead End Drive: many whole games in one compiled loop (numba), issue 31.

The rules of game.py, every option included (2-4 players, a drawn or a fixed first player, the
trap-pile split, both `blocked_die` and both `after_draw` rules, `passage_hops`,
`passage_start_hop`, `turn_limit`), with two agents: `random` (a uniform legal action) and
`heuristic` (agents.HeuristicAgent as `simulate` makes it, bluff 0.2, noise 0: the same scores in
the same float operations, its jitter and bluffs drawn from the game's stream in the kernel
agent's order; `_heuristic`). Other agents are refused by name. Action ids and their order in
each legal list are the kernel's (moves: pawns in letter order, counts as `counts_available`;
destinations by square).

Moves: like the kernel, the engine reads the moves of up to TABLE_DEPTH (6) steps that cross no
Red Chair from the kernel's own movement tables (`board.MoveTables`, flattened into one array per
passage option set by `move_table_array`: per start square and count, each end square in order
with its paths; a move is legal when one of its paths holds no pawn) and searches the rest (the
chair moves of Figure 8, and the 7-12 steps of a doubles total) depth-first over simple paths (the
kernel's `search_destinations` / `search_can_move`, which the tables are tested against), with the
same Figure 8 rule for the Red Chairs and the same "no trap during the opening" filter. The search
for every destination of a move keeps the squares it may still find (where some walk of the
steps left can end, `_REACH`) and skips the steps that can lead to none of them, stopping when
none is left: the same ends, found sooner. The board's other tables are module constants (the
engine plays mansion.txt only; `engine_tables` refuses another).

Randomness: each game draws from its own SplitMix64 stream seeded with its seed (Last Mouse
Lost's `SharedStream`). A uniform choice among n takes item `((draw >> 32) * n) >> 32`; a chance
node (the dice, who starts, the next portrait) takes `bisect(cum, u * cum[-1])` of the kernel's
own `chance_table()`, u = (draw >> 11) / 2**53 (`sample_chance_from_stream` is that draw for the
kernel).

The hidden deal: the kernel draws the Character deal and the trap pile's order from two Mersenne
Twister generators derived from the game seed (`stream_seed(seed, "deal")`, `"pile"`), and
reshuffles the discard pile with the second. The engine does not reproduce Mersenne Twister:
it deals and shuffles from the game's own stream, with the algorithm of `random.shuffle`
(for i from the end down to 1, swap item i with item `below(i + 1)`): first the 12 Character
cards (dealt in slices as `_deal` does), then the trap pile, each reshuffle when it happens.
`deal_from_stream` and `StreamShuffler` do the same for a kernel state, so the tests play the
kernel's game with the engine's deal and reshuffles and compare move for move. A batched game is
therefore a game of the same distribution as the kernel's for the same seed, not the same game.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate
from typing import Any

import numpy as np

from trapworks.core import TrapworksError
from trapworks.core.batch import (
    batch_threads,
    check_agents,
    check_moves_kept,
    in_threads,
    rows_from_columns,
    seed_array,
)
from trapworks.core.stream import SharedStream, sample_chance_from_stream, stream_random
from trapworks.core.stream_jit import below as _below
from trapworks.core.stream_jit import rules as _rules
from trapworks.core.stream_jit import rules_inlined as _rules_inlined
from trapworks.core.stream_jit import rules_nogil as _rules_nogil
from trapworks.core.stream_jit import sample as _sample
from trapworks.core.stream_jit import uniform as _uniform

from .board import TABLE_DEPTH, MoveTables, load_mansion, squares_of
from .components import DETECTIVE, HAND_SIZE, NUM_PAWNS, ROLLS, SECRET_CARDS_2P, TRAP_KINDS, WILD
from .evaluation import HEURISTIC_BLUFF, heuristic_tables

POLICIES = {"random": 0, "heuristic": 1}

_M = load_mansion()
N_SQ = _M.width * _M.height
MAX_CARDS = 32

# Phases (the engine's own numbers).
F_FIRST, F_REVEAL, F_ROLL, F_PORTRAIT, F_SELECT, F_DEST, F_TRAP, F_DRAWN, F_OVER = range(9)
R_ROLL, R_SELECT, R_CONTINUE = range(3)
E_NONE, E_ESCAPE, E_LAST_ALIVE, E_DETECTIVE = range(4)
ENDINGS = ("truncated", "escape", "last-alive", "detective")

# Slots of the per-game vector G: scalars first, then the arrays at fixed offsets.
(
    TO_MOVE,
    PHASE,
    RESUME,
    DETECTIVE_STEP,
    PORTRAIT,
    UNSEEN,
    DIE0,
    DIE1,
    NDICE,
    TOTAL_OK,
    MOVED,
    SEL_PAWN,
    SEL_COUNT,
    TRAP_PAWN,
    DRAWN,
    DREW,
    OPENING,
    TURNS,
    WINNER_PAWN,
    WIN_REASON,
    TRUNC,
    PILE_N,
    DISC_N,
    CYCLE_N,
    OUT,
    CARDS_PLAYED,
    DRAWS,
    DET_CARDS,
    BLUFFS,
    N_DECISIONS,
    N_ACTIONS,
    MATCHES,
) = range(32)
KNOCK = 32  # 5 slots, one per trap
POS = KNOCK + 5  # 13 pawns' squares (-1 off)
CHARS = POS + 16  # per seat, a bit mask of pawns
SECRET = CHARS + 4
HAND_N = SECRET + 4
HAND_CARD = HAND_N + 4  # seat * MAX_CARDS + i
HAND_TURN = HAND_CARD + 4 * MAX_CARDS
PILE = HAND_TURN + 4 * MAX_CARDS
DISC = PILE + MAX_CARDS
CYCLE = DISC + MAX_CARDS
OCC = CYCLE + 16  # per square: a pawn stands there
VISITED = OCC + N_SQ
ENDS = VISITED + N_SQ
STACK = ENDS + N_SQ  # 4 x 16: square, steps left, hops used, next choice
SEL_N = STACK + 64  # the move choices worked out on entering the select phase (legal reads them)
SEL = SEL_N + 1  # up to 13 pawns x 3 counts
END_N = SEL + 40  # the squares marked in ENDS, as a list (to clear and sort only those)
END_LIST = END_N + 1
FIRST_SEAT = END_LIST + N_SQ  # the seat that took the first turn
TODO = FIRST_SEAT + 1  # the search's squares still to find (a bit set of W words)
W = (N_SQ + 63) // 64
PLAN = TODO + W  # the heuristic's chosen destination (its plan from select to dest)
G_SIZE = PLAN + 1

# The destination search prunes only where more than this many steps are left (below, checking
# costs about what it saves).
PRUNE_FROM = 2

# Slots of the parameter vector.
(P_PLAYERS, P_FIRST, P_LOSE_TURN, P_AFTER_NONE, P_HOPS, P_START_HOP, P_TURN_LIMIT, P_DECK_N) = range(8)

# Tables (one tuple, engine_tables builds it, in this order).
(
    T_NBR,
    T_CHAIR,
    T_TRAP,
    T_PASSAGES,
    T_IS_PASS,
    T_ROLL_CUM,
    T_FIRST_CUM,
    T_REVEAL_CUM,
    T_DECK,
    T_CHAIR_ORDER,
    T_MOVES,
) = range(11)


# --- the stream, for the kernel -------------------------------------------------------


def stream_shuffle(items: list[Any], stream: SharedStream) -> None:
    """random.shuffle's algorithm with the stream's `below` (the engine's shuffle)."""
    for i in range(len(items) - 1, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]


class StreamShuffler:
    """Stands for a kernel state's `rng` (its reshuffles of the discard pile) on the stream."""

    def __init__(self, stream: SharedStream):
        self.stream = stream

    def shuffle(self, items: list[Any]) -> None:
        stream_shuffle(items, self.stream)


def deal_from_stream(state: Any, stream: SharedStream) -> None:
    """Deal a kernel state made with `deal=False` as the engine deals (see the module's words),
    and make its reshuffles draw from the stream."""
    n = state.game.players
    chars = list(range(NUM_PAWNS))
    stream_shuffle(chars, stream)
    size = HAND_SIZE[n]
    for seat in range(n):
        state.chars[seat] = sorted(chars[seat * size : (seat + 1) * size])
    if n == 2:
        rest = chars[2 * size :]
        for seat in range(2):
            state.secret[seat] = sorted(rest[seat * SECRET_CARDS_2P : (seat + 1) * SECRET_CARDS_2P])
    state.pile = list(state.game.deck)
    stream_shuffle(state.pile, stream)
    state.rng = StreamShuffler(stream)


# --- the board, as the compiled code reads it ----------------------------------------
# The engine plays mansion.txt only (engine_tables refuses another); its tables are module
# constants, which numba freezes into the compiled code.
def _board_arrays(m: Any) -> tuple[Any, ...]:
    nbr = np.full((N_SQ, 4), -1, np.int64)  # each square's neighbours first, then -1
    for sq, nbs in enumerate(m.neighbours):
        nbr[sq, : len(nbs)] = nbs
    chair = np.array([(m.chairs >> sq) & 1 for sq in range(N_SQ)], np.int64)
    trap = np.full(N_SQ, -1, np.int64)
    for sq, kind in m.trap_kind.items():
        trap[sq] = TRAP_KINDS.index(kind)
    is_pass = np.zeros(N_SQ, np.int64)
    is_pass[list(m.passages)] = 1
    return nbr, chair, trap, np.array(m.passages, np.int64), is_pass


def _pack(mask: Any) -> Any:
    """bool [..., N_SQ] -> int64 [..., W]: square s is bit s % 64 of word s // 64."""
    pad = np.zeros((*mask.shape[:-1], W * 64), np.uint64)
    pad[..., :N_SQ] = mask
    words = (pad.reshape(*mask.shape[:-1], W, 64) << np.arange(64, dtype=np.uint64)).sum(
        axis=-1, dtype=np.uint64
    )
    return words.view(np.int64)


def _reach_arrays(m: Any) -> tuple[Any, ...]:
    """REACH[sq, r, hops]: the squares where a walk of r steps from sq can end (squares may
    repeat, chairs may be crossed, a step onto Game Over ends it at once; hops 1: passage hops
    allowed, as many as wanted; 0: none). Every simple path of a move is such a walk, so a move's
    ends are among them. LO/HI: the words where REACH has bits. NOEND: the squares no move ends
    on (chairs), those none ends on in the opening (traps), Game Over (bit sets)."""
    go = m.game_over
    adj = np.zeros((N_SQ, N_SQ), np.float64)
    for sq, nbs in enumerate(m.neighbours):
        adj[sq, list(nbs)] = 1
    hop = adj.copy()
    for a in m.passages:
        for b in m.passages:
            if a != b:
                hop[a, b] = 1
    reach = np.zeros((N_SQ, 13, 2, W), np.int64)
    for hl, step in enumerate((adj, hop)):
        cont = step.copy()
        cont[:, go] = 0  # a walk stops on Game Over
        onto_go = step[:, go] > 0
        ends = step > 0
        layers = [np.zeros_like(ends), ends]
        for _r in range(2, 13):
            ends = (cont @ ends) > 0
            ends[:, go] |= onto_go
            layers.append(ends)
        reach[:, :, hl, :] = _pack(np.stack(layers, axis=1))
    nonzero = reach != 0
    lo = np.where(nonzero.any(axis=-1), nonzero.argmax(axis=-1), 0).astype(np.int64)
    hi = np.where(nonzero.any(axis=-1), W - nonzero[..., ::-1].argmax(axis=-1), 0).astype(np.int64)
    noend = np.zeros((3, N_SQ), bool)
    for sq in range(N_SQ):
        noend[0, sq] = bool((m.chairs >> sq) & 1)
        noend[1, sq] = sq in m.trap_kind
    noend[2, go] = True
    return reach, lo, hi, _pack(noend)


_NBR, _CHAIR, _TRAP, _PASSAGES, _IS_PASS = _board_arrays(_M)
_REACH, _REACH_LO, _REACH_HI, _NOEND = _reach_arrays(_M)


def _heuristic_arrays() -> tuple[Any, Any]:
    """agents.py's tables: steps to the door (30 where none), and per square how many trap
    squares of each kind lie 1-6 steps away."""
    to_door, near = heuristic_tables()
    door = np.array([float(to_door.get(sq, 30)) for sq in range(N_SQ)], np.float64)
    near_kinds = np.zeros((N_SQ, len(TRAP_KINDS)), np.float64)
    for sq, kinds in near.items():
        for kind in kinds:
            near_kinds[sq, TRAP_KINDS.index(kind)] += 1.0
    return door, near_kinds


_H_DOOR, _H_NEAR = _heuristic_arrays()
_H_NEAR_ALL = _H_NEAR.sum(axis=1)  # traps of any kind 1-6 steps away


# --- the movement tables, as the compiled code reads them ----------------------------------
# The kernel's `MoveTables` (board.py: every simple path of 1..TABLE_DEPTH steps that crosses no
# chair, per start square, grouped by end square, the end squares in order) flattened into one
# int32 array per (passage_hops, passage_start_hop): a move of up to TABLE_DEPTH steps without
# chairs is then a scan of its start's paths for one free of pawns, per end, instead of a search.
# Layout: MT[(sq * 7 + c) * 4 + 0..3] = first group, end of the groups, first exit path, end of
# the exit paths (of the moves of c steps from sq); a group at MT_G0 + 3 * g is (end, first path,
# end of the paths); a path at MT[0] + TABLE_DEPTH * p is its squares (the start left out, the
# end included; an exit path's squares end with Game Over), -1 after the last.
MT_G0 = N_SQ * 7 * 4
_MOVE_TABLES: dict[tuple[int, bool], Any] = {}


def move_table_array(max_hops: int, start_hop: bool) -> Any:
    """The flattened movement tables for these passage options (made once, kept)."""
    key = (int(max_hops), bool(start_hop))
    got = _MOVE_TABLES.get(key)
    if got is not None:
        return got
    tables = MoveTables(_M, key[0], key[1])
    header = np.zeros(MT_G0, np.int64)
    groups: list[int] = []
    paths: list[list[int]] = []
    for sq in range(N_SQ):
        if not _M.neighbours[sq]:
            continue
        tab = tables.start(sq)
        for c in range(1, TABLE_DEPTH + 1):
            _flat, _flat_nt, grps, exits, _ends, _by_end = tab[c]
            h = (sq * 7 + c) * 4
            header[h] = len(groups) // 3
            for _bit, end, ps, _hs in grps:
                groups.extend((end, len(paths), len(paths) + len(ps)))
                paths.extend(squares_of(path) for path in ps)
            header[h + 1] = len(groups) // 3
            header[h + 2] = len(paths)
            paths.extend(squares_of(path) for path in exits[0])
            header[h + 3] = len(paths)
    n_groups = len(groups) // 3
    out = np.full(MT_G0 + 3 * n_groups + TABLE_DEPTH * len(paths), -1, np.int32)
    out[:MT_G0] = header
    out[MT_G0 : MT_G0 + 3 * n_groups] = groups
    p0 = MT_G0 + 3 * n_groups
    for i, squares in enumerate(paths):
        out[p0 + TABLE_DEPTH * i : p0 + TABLE_DEPTH * i + len(squares)] = squares
    # where the paths begin: MT[0], the first header slot of square 0 and count 0 (no move's)
    out[0] = p0
    _MOVE_TABLES[key] = out
    return out


# The heuristic's share of bluffs (agents.HeuristicAgent's default, what `simulate` makes).
H_BLUFF = HEURISTIC_BLUFF


# --- compiled helpers ------------------------------------------------------------------
@_rules_inlined
def _shuffle(G: Any, base: int, n: int, st: Any) -> None:
    for i in range(n - 1, 0, -1):
        j = _below(st, i + 1)
        t = G[base + i]
        G[base + i] = G[base + j]
        G[base + j] = t


@_rules_inlined
def _popcount(x: int) -> Any:
    """Bits set in a 64-bit word (SWAR)."""
    u = np.uint64(x)
    u = u - ((u >> np.uint64(1)) & np.uint64(0x5555555555555555))
    u = (u & np.uint64(0x3333333333333333)) + ((u >> np.uint64(2)) & np.uint64(0x3333333333333333))
    u = (u + (u >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((u * np.uint64(0x0101010101010101)) >> np.uint64(56))


@_rules
def _search(
    G: Any,
    P: Any,
    start: int,
    count: int,
    blocked: int,
    chairs_ok: int,
    exit_ok: int,
    first_only: int,
    go: int,
) -> Any:
    """Depth-first over simple paths of exactly `count` steps from `start` (board.search_*):
    with `first_only`, 1 when some path ends on a square allowed now, else 0; otherwise the
    allowed ends are marked in G[ENDS:] and their count returned.

    The board is read from the module's tables (_NBR ...), not from an argument: a tuple of
    arrays passed to a function called this often costs more than the search. Without
    `first_only` the search keeps the squares still to find (G[TODO:], a bit set: the squares
    where some walk can end, _REACH, less those no move may end on) and skips a step whose walks
    can end on none of them; it stops when none is left. Both only skip paths that could add no
    end, so the ends are the same."""
    nbr = _NBR
    chair = _CHAIR
    trap = _TRAP
    passages = _PASSAGES
    is_pass = _IS_PASS
    reach = _REACH
    lo = _REACH_LO
    hi = _REACH_HI
    n_pass = passages.shape[0]
    max_hops = P[P_HOPS]
    start_hop = P[P_START_HOP]
    opening = G[OPENING]
    found = 0
    todo_n = 1 << 40  # (no early stop: the short searches go without the bit set)
    if not first_only and count > PRUNE_FROM:
        noend = _NOEND
        hl0 = 1 if max_hops > 0 else 0
        for w in range(W):
            x = reach[start, count, hl0, w] & ~noend[0, w]
            if opening:
                x &= ~noend[1, w]
            if not exit_ok:
                x &= ~noend[2, w]
            G[TODO + w] = x
        if blocked:
            for p in range(NUM_PAWNS):
                q = G[POS + p]
                if q >= 0:
                    G[TODO + (q >> 6)] &= ~(1 << (q & 63))
        todo_n = 0
        for w in range(W):
            todo_n += _popcount(G[TODO + w])
        if todo_n == 0:
            return 0
    d = 0
    G[STACK] = start
    G[STACK + 16] = count
    G[STACK + 32] = 0
    G[STACK + 48] = 0
    G[VISITED + start] = 1
    while d >= 0:
        sq = G[STACK + d]
        r = G[STACK + 16 + d]
        h = G[STACK + 32 + d]
        k = G[STACK + 48 + d]
        G[STACK + 48 + d] = k + 1
        nb = -1
        hop = 0
        if k < 4:
            nb = nbr[sq, k]
            if nb < 0:  # the neighbours come first: no more of them
                G[STACK + 48 + d] = 4
                continue
        elif k < 4 + n_pass:
            if not (h < max_hops and is_pass[sq] and (start_hop or sq != start)):
                G[STACK + 48 + d] = 4 + n_pass
                continue
            nb = passages[k - 4]
            hop = 1
        else:
            G[VISITED + sq] = 0
            d -= 1
            continue
        if (
            G[VISITED + nb]
            or (blocked and G[OCC + nb])
            or (not chairs_ok and chair[nb])
            or (not exit_ok and nb == go)
        ):
            continue
        end = -1
        if nb == go and not hop:
            end = nb
        elif r == 1:
            if not chair[nb]:
                end = nb
        else:
            if not first_only and r > PRUNE_FROM:
                hl = 1 if h + hop < max_hops else 0
                live = False
                for w in range(lo[nb, r - 1, hl], hi[nb, r - 1, hl]):
                    if reach[nb, r - 1, hl, w] & G[TODO + w]:
                        live = True
                        break
                if not live:
                    continue  # no walk from here ends on a square still to find
            d += 1
            G[STACK + d] = nb
            G[STACK + 16 + d] = r - 1
            G[STACK + 32 + d] = h + hop
            G[STACK + 48 + d] = 0
            G[VISITED + nb] = 1
            continue
        if end >= 0 and not (opening and trap[end] >= 0):
            if first_only:
                for i in range(d + 1):
                    G[VISITED + G[STACK + i]] = 0
                return 1
            if not G[ENDS + end]:
                G[ENDS + end] = 1
                G[END_LIST + G[END_N]] = end
                G[END_N] += 1
                found += 1
                G[TODO + (end >> 6)] &= ~(1 << (end & 63))
                todo_n -= 1
                if todo_n == 0:  # every square left to find is found
                    for i in range(d + 1):
                        G[VISITED + G[STACK + i]] = 0
                    return found
    return found


@_rules_inlined
def _clear_ends(G: Any) -> None:
    for i in range(G[END_N]):
        G[ENDS + G[END_LIST + i]] = 0
    G[END_N] = 0


@_rules
def _table(
    G: Any, mt: Any, start: int, count: int, blocked: int, exit_ok: int, first_only: int, go: int
) -> Any:
    """`_search` without chairs for 1 <= count <= TABLE_DEPTH, read from the movement tables (mt,
    `move_table_array`): per end square in order, its first path free of pawns (with `blocked`),
    then a path onto Game Over (with `exit_ok`). The same answers, marked the same way."""
    h = (start * 7 + count) * 4
    p0 = mt[0]
    opening = G[OPENING]
    found = 0
    for g in range(mt[h], mt[h + 1]):
        b = MT_G0 + 3 * g
        end = mt[b]
        if opening and _TRAP[end] >= 0:
            continue
        free = not blocked
        if blocked:
            for p in range(mt[b + 1], mt[b + 2]):
                q = p0 + TABLE_DEPTH * p
                free = True
                for i in range(count):
                    if G[OCC + mt[q + i]]:
                        free = False
                        break
                if free:
                    break
        if free:
            if first_only:
                return 1
            G[ENDS + end] = 1
            G[END_LIST + G[END_N]] = end
            G[END_N] += 1
            found += 1
    if exit_ok:
        for p in range(mt[h + 2], mt[h + 3]):
            q = p0 + TABLE_DEPTH * p
            free = True
            if blocked:
                for i in range(TABLE_DEPTH):
                    sq = mt[q + i]
                    if sq < 0:
                        break
                    if G[OCC + sq]:
                        free = False
                        break
            if free:
                if first_only:
                    return 1
                G[ENDS + go] = 1
                G[END_LIST + G[END_N]] = go
                G[END_N] += 1
                found += 1
                break
    return found


@_rules
def _can_move(G: Any, P: Any, mt: Any, pawn: int, count: int, go: int) -> Any:
    """DeadEndDriveState.can_move: a move without chairs, or (Figure 8) with chairs when only
    pawns block every chair-free move."""
    start = G[POS + pawn]
    exit_ok = 1 if pawn == G[PORTRAIT] else 0
    if count <= TABLE_DEPTH:
        if _table(G, mt, start, count, 1, exit_ok, 1, go):
            return True
        if not _table(G, mt, start, count, 0, exit_ok, 1, go):
            return False
        return bool(_search(G, P, start, count, 1, 1, exit_ok, 1, go))
    if _search(G, P, start, count, 1, 0, exit_ok, 1, go):
        return True
    return bool(_search(G, P, start, count, 0, 0, exit_ok, 1, go)) and bool(
        _search(G, P, start, count, 1, 1, exit_ok, 1, go)
    )


@_rules
def _destinations(G: Any, P: Any, mt: Any, pawn: int, count: int, go: int) -> Any:
    """DeadEndDriveState.destinations into G[ENDS:] (cleared first); how many."""
    _clear_ends(G)
    start = G[POS + pawn]
    exit_ok = 1 if pawn == G[PORTRAIT] else 0
    if count <= TABLE_DEPTH:
        k = _table(G, mt, start, count, 1, exit_ok, 0, go)
        if k == 0 and _table(G, mt, start, count, 0, exit_ok, 1, go):
            k = _search(G, P, start, count, 1, 1, exit_ok, 0, go)
        return k
    k = _search(G, P, start, count, 1, 0, exit_ok, 0, go)
    if k == 0 and _search(G, P, start, count, 0, 0, exit_ok, 1, go):
        k = _search(G, P, start, count, 1, 1, exit_ok, 0, go)
    return k


@_rules_inlined
def _movable(G: Any, p: int) -> Any:
    sq = G[POS + p]
    if sq < 0 or (G[MOVED] >> p) & 1:
        return False
    return not (G[OPENING] and not _CHAIR[sq])


@_rules
def _select_choices(G: Any, P: Any, mt: Any, go: int, out: Any) -> Any:
    """The pawn-and-count actions in the kernel's order into `out`; their count. (No arrays of
    its own: the rule functions are compiled without reference counts and so cannot allocate;
    the up to three counts are c0..c2, the dice used and freed are bit masks.)"""
    c0 = c1 = c2 = 0
    nc = 0
    if G[NDICE] == 2 and G[DIE0] != G[DIE1]:
        c0 = min(G[DIE0], G[DIE1])
        c1 = max(G[DIE0], G[DIE1])
        nc = 2
    elif G[NDICE] >= 1:
        c0 = G[DIE0]
        nc = 1
    if G[TOTAL_OK] and G[NDICE] == 2:
        if nc == 1:
            c1 = G[DIE0] + G[DIE1]
        else:
            c2 = G[DIE0] + G[DIE1]
        nc += 1
    k = 0
    used = 0
    for p in range(NUM_PAWNS):
        if not _movable(G, p):
            continue
        for i in range(nc):
            count = c0 if i == 0 else (c1 if i == 1 else c2)
            if _can_move(G, P, mt, p, count, go):
                out[k] = p * 12 + count - 1
                k += 1
                used |= 1 << i
    if not G[OPENING]:
        return k
    # Rule 2 lifted for a die no pawn on a chair can use (DeadEndDriveState.freed_pawns); a
    # doubles total only when the die itself is freed.
    freed = 0
    for i in range(nc):
        if not (used >> i) & 1 and (i < nc - 1 or not G[TOTAL_OK] or G[NDICE] != 2 or not used & 1):
            freed |= 1 << i
    if freed == 0:
        return k
    k0 = k
    for p in range(NUM_PAWNS):
        sq = G[POS + p]
        if sq < 0 or (G[MOVED] >> p) & 1 or _CHAIR[sq]:
            continue
        for i in range(nc):
            count = c0 if i == 0 else (c1 if i == 1 else c2)
            if (freed >> i) & 1 and _can_move(G, P, mt, p, count, go):
                out[k] = p * 12 + count - 1
                k += 1
    if k > k0:  # sorted in place (an insertion sort: the list is short)
        for i in range(1, k):
            x = out[i]
            j = i - 1
            while j >= 0 and out[j] > x:
                out[j + 1] = out[j]
                j -= 1
            out[j + 1] = x
    return k


@_rules
def _end_turn(G: Any, P: Any) -> None:
    G[NDICE] = 0
    G[TOTAL_OK] = 0
    G[MOVED] = 0
    G[SEL_PAWN] = -1
    G[TRAP_PAWN] = -1
    G[DRAWN] = -1
    G[DREW] = 0
    G[TURNS] += 1
    if G[TURNS] >= P[P_TURN_LIMIT]:
        G[PHASE] = F_OVER
        G[TRUNC] = 1
        return
    n = P[P_PLAYERS]
    seat = G[TO_MOVE]
    for _ in range(n):
        seat = (seat + 1) % n
        if not (G[OUT] >> seat) & 1:
            break
    G[TO_MOVE] = seat
    G[PHASE] = F_ROLL


@_rules
def _enter_select(G: Any, T: Any, P: Any, go: int, scratch: Any) -> None:
    G[PHASE] = F_SELECT
    G[SEL_PAWN] = -1
    if G[NDICE] == 0:
        _end_turn(G, P)
        return
    if P[P_LOSE_TURN] and G[MOVED] == 0:
        for i in range(G[NDICE]):
            d = G[DIE0 + i]
            if i == 1 and G[DIE1] == G[DIE0]:
                continue
            ok = False
            for p in range(NUM_PAWNS):
                if _movable(G, p) and _can_move(G, P, T[T_MOVES], p, d, go):
                    ok = True
                    break
            if not ok and G[OPENING]:
                # Rule 2 lifted: a die no pawn on a chair can use may move one that has left.
                for p in range(NUM_PAWNS):
                    sq = G[POS + p]
                    if sq >= 0 and not _CHAIR[sq] and _can_move(G, P, T[T_MOVES], p, d, go):
                        ok = True
                        break
            if not ok:
                _end_turn(G, P)
                return
    k = _select_choices(G, P, T[T_MOVES], go, G[SEL : SEL + 40])
    G[SEL_N] = k
    if k == 0:
        _end_turn(G, P)


@_rules_inlined
def _continue_turn(G: Any, T: Any, P: Any, go: int, scratch: Any) -> None:
    if (G[OUT] >> G[TO_MOVE]) & 1:
        _end_turn(G, P)
    else:
        _enter_select(G, T, P, go, scratch)


@_rules_inlined
def _alive(G: Any, p: int) -> Any:
    return G[POS + p] >= 0


@_rules
def _next_portrait(G: Any, T: Any, P: Any, resume: int, go: int, scratch: Any) -> None:
    unseen = G[UNSEEN]
    for p in range(NUM_PAWNS):
        if (unseen >> p) & 1 and _alive(G, p):
            G[PHASE] = F_REVEAL
            G[RESUME] = resume
            return
    G[UNSEEN] = 0  # only knocked-off pawns' cards were left unshown: removed
    while G[CYCLE_N] > 0:
        p = G[CYCLE]
        for i in range(G[CYCLE_N] - 1):
            G[CYCLE + i] = G[CYCLE + i + 1]
        G[CYCLE_N] -= 1
        if _alive(G, p):
            G[PORTRAIT] = p
            break
    G[RESUME] = resume
    if resume == R_SELECT:
        _enter_select(G, T, P, go, scratch)
    elif resume == R_CONTINUE:
        _continue_turn(G, T, P, go, scratch)
    else:
        G[PHASE] = F_ROLL


@_rules_inlined
def _holder(G: Any, P: Any, pawn: int) -> Any:
    for s in range(P[P_PLAYERS]):
        if (G[CHARS + s] >> pawn) & 1:
            return s
    return -1


@_rules_inlined
def _win(G: Any, pawn: int, reason: int) -> None:
    G[WINNER_PAWN] = pawn
    G[WIN_REASON] = reason
    G[PHASE] = F_OVER
    G[NDICE] = 0


@_rules
def _spring(G: Any, T: Any, P: Any, pawn: int, go: int, scratch: Any) -> None:
    sq = G[POS + pawn]
    G[KNOCK + T[T_TRAP][sq]] += 1
    G[POS + pawn] = -1
    G[OCC + sq] = 0
    G[TRAP_PAWN] = -1
    owner = _holder(G, P, pawn)
    if owner >= 0:
        G[CHARS + owner] &= ~(1 << pawn)
    live = 0
    last = -1
    for p in range(NUM_PAWNS):
        if _alive(G, p):
            live += 1
            last = p
    if owner >= 0 and G[CHARS + owner] == 0 and P[P_PLAYERS] > 2:
        G[OUT] |= 1 << owner
        for i in range(G[HAND_N + owner]):
            G[DISC + G[DISC_N]] = G[HAND_CARD + owner * MAX_CARDS + i]
            G[DISC_N] += 1
        G[HAND_N + owner] = 0
    if live == 1:
        _win(G, last, E_LAST_ALIVE)
        return
    if G[PORTRAIT] == pawn:
        G[PORTRAIT] = -1
        _next_portrait(G, T, P, R_CONTINUE, go, scratch)
        return
    _continue_turn(G, T, P, go, scratch)


@_rules_inlined
def _playable(G: Any, P: Any, seat: int, card: int) -> Any:
    if G[DREW] and P[P_AFTER_NONE]:
        return False
    for i in range(G[HAND_N + seat]):
        if G[HAND_CARD + seat * MAX_CARDS + i] == card and (
            not G[DREW] or G[HAND_TURN + seat * MAX_CARDS + i] == G[TURNS]
        ):
            return True
    return False


@_rules
def _trap_choices(G: Any, T: Any, P: Any, out: Any) -> Any:
    seat = G[TO_MOVE]
    kind = T[T_TRAP][G[POS + G[TRAP_PAWN]]]
    k = 0
    if _playable(G, P, seat, kind):
        out[k] = 0  # play the trap's card
        k += 1
    if _playable(G, P, seat, WILD):
        out[k] = 1
        k += 1
    if G[PILE_N] > 0 or G[DISC_N] > 0:
        out[k] = 2
        k += 1
    return k


@_rules
def _move(G: Any, T: Any, P: Any, sq: int, go: int, scratch: Any) -> None:
    pawn = G[SEL_PAWN]
    count = G[SEL_COUNT]
    G[OCC + G[POS + pawn]] = 0
    G[POS + pawn] = sq
    G[OCC + sq] = 1
    if G[TOTAL_OK] and G[NDICE] == 2 and count == G[DIE0] + G[DIE1] and count != G[DIE0] and count != G[DIE1]:
        G[NDICE] = 0
    else:
        if G[DIE0] == count:
            G[DIE0] = G[DIE1]
        G[NDICE] -= 1
    G[TOTAL_OK] = 0
    G[MOVED] |= 1 << pawn
    G[SEL_PAWN] = -1
    if G[OPENING]:
        on_chair = False
        for p in range(NUM_PAWNS):
            if _alive(G, p) and T[T_CHAIR][G[POS + p]]:
                on_chair = True
        if not on_chair:
            G[OPENING] = 0
    if sq == go:
        _win(G, pawn, E_ESCAPE)
        return
    if T[T_TRAP][sq] >= 0:
        G[TRAP_PAWN] = pawn
        G[PHASE] = F_TRAP
        if _trap_choices(G, T, P, scratch) == 0:
            G[TRAP_PAWN] = -1
            _continue_turn(G, T, P, go, scratch)
        return
    _continue_turn(G, T, P, go, scratch)


@_rules
def _draw(G: Any, T: Any, P: Any, st: Any, go: int, track_end: int, scratch: Any) -> None:
    while True:
        if G[PILE_N] == 0:
            if G[DISC_N] == 0:
                G[TRAP_PAWN] = -1
                _continue_turn(G, T, P, go, scratch)
                return
            for i in range(G[DISC_N]):
                G[PILE + i] = G[DISC + i]
            G[PILE_N] = G[DISC_N]
            G[DISC_N] = 0
            _shuffle(G, PILE, G[PILE_N], st)
        G[PILE_N] -= 1
        card = G[PILE + G[PILE_N]]
        if card == DETECTIVE:
            G[DISC + G[DISC_N]] = card
            G[DISC_N] += 1
            G[DETECTIVE_STEP] += 1
            G[DET_CARDS] += 1
            if G[DETECTIVE_STEP] >= track_end:
                _win(G, G[PORTRAIT], E_DETECTIVE)
                return
            continue
        G[DRAWN] = card
        G[DREW] = 1
        G[DRAWS] += 1
        G[MATCHES] = 1 if (card == WILD or card == T[T_TRAP][G[POS + G[TRAP_PAWN]]]) else 0
        G[PHASE] = F_DRAWN
        return


@_rules
def _new_game(G: Any, T: Any, P: Any, st: Any) -> None:
    G[:] = 0
    n = P[P_PLAYERS]
    G[PORTRAIT] = -1
    G[SEL_PAWN] = -1
    G[TRAP_PAWN] = -1
    G[DRAWN] = -1
    G[WINNER_PAWN] = -1
    G[OPENING] = 1
    G[UNSEEN] = (1 << NUM_PAWNS) - 1
    order = T[T_CHAIR_ORDER]
    for p in range(NUM_PAWNS):
        G[POS + p] = order[p]
        G[OCC + order[p]] = 1
    # the deal: the Character cards, then the trap pile (deal_from_stream's order)
    chars = G[SEL : SEL + NUM_PAWNS]  # the select phase's rows, free until the first move: no
    for i in range(NUM_PAWNS):  # array of its own (the rule functions cannot allocate)
        chars[i] = i
    for i in range(NUM_PAWNS - 1, 0, -1):
        j = _below(st, i + 1)
        t = chars[i]
        chars[i] = chars[j]
        chars[j] = t
    size = 3 if n == 4 else 4
    for s in range(n):
        for i in range(s * size, (s + 1) * size):
            G[CHARS + s] |= 1 << chars[i]
    if n == 2:
        for s in range(2):
            for i in range(2 * size + s * 2, 2 * size + (s + 1) * 2):
                G[SECRET + s] |= 1 << chars[i]
    chars[:] = 0
    deck = T[T_DECK]
    for i in range(P[P_DECK_N]):
        G[PILE + i] = deck[i]
    G[PILE_N] = P[P_DECK_N]
    _shuffle(G, PILE, G[PILE_N], st)
    G[RESUME] = R_ROLL
    if P[P_FIRST] < 0:
        G[PHASE] = F_FIRST
    else:
        G[TO_MOVE] = P[P_FIRST]
        G[FIRST_SEAT] = P[P_FIRST]
        G[PHASE] = F_REVEAL


@_rules
def _chance(
    G: Any, T: Any, P: Any, st: Any, go: int, roll_base: int, first_base: int, reveal_base: int, scratch: Any
) -> Any:
    ph = G[PHASE]
    if ph == F_FIRST:
        i = _sample(st, T[T_FIRST_CUM], P[P_PLAYERS])
        G[TO_MOVE] = i
        G[FIRST_SEAT] = i
        G[PHASE] = F_REVEAL
        G[RESUME] = R_ROLL
        return first_base + i
    if ph == F_REVEAL:
        unseen = G[UNSEEN]
        k = 0
        for p in range(NUM_PAWNS):
            if (unseen >> p) & 1:
                scratch[k] = p
                k += 1
        pawn = scratch[_sample(st, T[T_REVEAL_CUM][k], k)]
        G[UNSEEN] = unseen & ~(1 << pawn)
        if not _alive(G, pawn):
            _next_portrait(G, T, P, G[RESUME], go, scratch)
            return reveal_base + pawn
        G[PORTRAIT] = pawn
        resume = G[RESUME]
        if resume == R_ROLL:
            G[PHASE] = F_ROLL
        elif resume == R_SELECT:
            _enter_select(G, T, P, go, scratch)
        else:
            _continue_turn(G, T, P, go, scratch)
        return reveal_base + pawn
    # the dice
    i = _sample(st, T[T_ROLL_CUM], 21)
    a = 1
    b = 1
    j = 0
    for x in range(1, 7):
        for y in range(x, 7):
            if j == i:
                a = x
                b = y
            j += 1
    G[DIE0] = a
    G[DIE1] = b
    G[NDICE] = 2
    G[TOTAL_OK] = 1 if a == b else 0
    G[MOVED] = 0
    live_frame = False
    if a == b:
        for p in range(NUM_PAWNS):
            if (G[UNSEEN] >> p) & 1 and _alive(G, p):
                live_frame = True
        for i2 in range(G[CYCLE_N]):
            if _alive(G, G[CYCLE + i2]):
                live_frame = True
    if live_frame:
        G[PHASE] = F_PORTRAIT
    else:
        _enter_select(G, T, P, go, scratch)
    return roll_base + i


@_rules
def _legal(G: Any, T: Any, P: Any, go: int, ids: Any, legal: Any) -> Any:
    """The deciding seat's legal action ids into `legal`, in the kernel's order; their count.
    ids: DEST_BASE, CHANGE, KEEP_PORTRAIT, PLAY_TRAP, PLAY_WILD, DRAW, SPRING, KEEP_CARD."""
    ph = G[PHASE]
    if ph == F_PORTRAIT:
        legal[0] = ids[1]
        legal[1] = ids[2]
        return 2
    if ph == F_SELECT:  # the choices _enter_select found (nothing moved since)
        k = G[SEL_N]
        for i in range(k):
            legal[i] = G[SEL + i]
        return k
    if ph == F_DEST:
        _destinations(G, P, T[T_MOVES], G[SEL_PAWN], G[SEL_COUNT], go)
        k = G[END_N]
        for i in range(k):  # by square (an insertion sort: the list is short)
            sq = G[END_LIST + i]
            j = i
            while j > 0 and legal[j - 1] > ids[0] + sq:
                legal[j] = legal[j - 1]
                j -= 1
            legal[j] = ids[0] + sq
        return k
    if ph == F_TRAP:
        k = _trap_choices(G, T, P, legal)
        for i in range(k):
            legal[i] = ids[3] + legal[i]
        return k
    # drawn
    if G[MATCHES]:
        legal[0] = ids[6]
        legal[1] = ids[7]
        return 2
    legal[0] = ids[7]
    return 1


@_rules
def _remove_from_hand(G: Any, seat: int, card: int) -> None:
    base = HAND_CARD + seat * MAX_CARDS
    tbase = HAND_TURN + seat * MAX_CARDS
    n = G[HAND_N + seat]
    for i in range(n):
        if G[base + i] == card and (not G[DREW] or G[tbase + i] == G[TURNS]):
            for j in range(i, n - 1):
                G[base + j] = G[base + j + 1]
                G[tbase + j] = G[tbase + j + 1]
            G[HAND_N + seat] = n - 1
            return


@_rules
def _decide(
    G: Any, T: Any, P: Any, st: Any, go: int, track_end: int, ids: Any, action: int, scratch: Any
) -> None:
    ph = G[PHASE]
    seat = G[TO_MOVE]
    if ph == F_PORTRAIT:
        if action == ids[1]:
            if G[PORTRAIT] >= 0:
                G[CYCLE + G[CYCLE_N]] = G[PORTRAIT]
                G[CYCLE_N] += 1
            G[PORTRAIT] = -1
            _next_portrait(G, T, P, R_SELECT, go, scratch)
        else:
            _enter_select(G, T, P, go, scratch)
    elif ph == F_SELECT:
        G[SEL_PAWN] = action // 12
        G[SEL_COUNT] = action % 12 + 1
        G[PHASE] = F_DEST
    elif ph == F_DEST:
        _move(G, T, P, action - ids[0], go, scratch)
    elif ph == F_TRAP:
        if action == ids[5]:
            _draw(G, T, P, st, go, track_end, scratch)
            return
        pawn = G[TRAP_PAWN]
        kind = WILD if action == ids[4] else T[T_TRAP][G[POS + pawn]]
        _remove_from_hand(G, seat, kind)
        G[DISC + G[DISC_N]] = kind
        G[DISC_N] += 1
        G[CARDS_PLAYED] += 1
        _spring(G, T, P, pawn, go, scratch)
    else:  # a drawn card
        card = G[DRAWN]
        G[DRAWN] = -1
        if action == ids[6]:
            G[DISC + G[DISC_N]] = card
            G[DISC_N] += 1
            G[CARDS_PLAYED] += 1
            _spring(G, T, P, G[TRAP_PAWN], go, scratch)
            return
        n = G[HAND_N + seat]
        G[HAND_CARD + seat * MAX_CARDS + n] = card
        G[HAND_TURN + seat * MAX_CARDS + n] = G[TURNS]
        G[HAND_N + seat] = n + 1
        G[BLUFFS] += G[MATCHES]
        G[TRAP_PAWN] = -1
        _continue_turn(G, T, P, go, scratch)


@_rules
def _h_select(G: Any, P: Any, mt: Any, st: Any, go: int, bluff: float, scratch: Any) -> Any:
    """agents.HeuristicAgent._best_move for the seat to move: every destination of every choice
    (choices in the kernel's order, destinations by square) scored as `_score` scores it, plus a
    jitter of `rnd() * 0.5`, the first best kept; its draws (the bluff when its own pawn would end
    on a trap, then the jitter) taken from the game's stream in the kernel agent's order. The
    chosen destination is kept in G[PLAN]; the choice's action id returned.

    A score before its jitter is a sum of small integers and halves (exact in a float, whatever
    the order of the sum), so the terms that depend only on the pawn are worked out once per
    choice, and the danger of a square is its count of traps 1-6 steps away plus those of the
    kinds the seat may play (a Wild: all): the same value as `_score`'s."""
    seat = G[TO_MOVE]
    mine = G[CHARS + seat]
    portrait = G[PORTRAIT]
    n_kinds = len(TRAP_KINDS)
    pbits = 0
    for k in range(n_kinds):
        if _playable(G, P, seat, k):
            pbits |= 1 << k
    if _playable(G, P, seat, WILD):
        pbits = (1 << n_kinds) - 1  # "kind in playable or wild" for every kind
    best = 0.0
    best_action = -1
    best_sq = -1
    for i in range(G[SEL_N]):
        action = G[SEL + i]
        pawn = action // 12
        count = action % 12 + 1
        n = _destinations(G, P, mt, pawn, count, go)
        for j in range(n):  # by square (an insertion sort: the list is short, often sorted)
            sq = G[END_LIST + j]
            m = j
            while m > 0 and scratch[m - 1] > sq:
                scratch[m] = scratch[m - 1]
                m -= 1
            scratch[m] = sq
        own = (mine >> pawn) & 1
        is_p = pawn == portrait
        d0 = _H_DOOR[G[POS + pawn]]
        for j in range(n):
            sq = scratch[j]
            if sq == go:
                score = 10_000.0 if own else -10_000.0
            else:
                score = 0.0
                kind = _TRAP[sq]
                if kind >= 0:
                    if own:
                        score = 25.0 if _uniform(st) < bluff else -60.0
                    elif (pbits >> kind) & 1:
                        score = 700.0 if is_p else 500.0
                    else:
                        score = 100.0 if is_p else 40.0
                d1 = _H_DOOR[sq]
                if is_p:
                    score += (8.0 * (d0 - d1)) if own else (6.0 * (d1 - d0))
                elif own:
                    score += 0.5 * (d0 - d1)
                near = _H_NEAR_ALL[sq]
                if pbits:
                    for k in range(n_kinds):
                        if (pbits >> k) & 1:
                            near += _H_NEAR[sq, k]
                score += (-6.0 * near) if own else (3.0 * near)
            score = score + _uniform(st) * 0.5
            if best_action < 0 or score > best:
                best = score
                best_action = action
                best_sq = sq
    G[PLAN] = best_sq
    return best_action


@_rules
def _heuristic(G: Any, T: Any, P: Any, st: Any, go: int, ids: Any, bluff: float, scratch: Any) -> Any:
    """agents.HeuristicAgent.step (noise 0, as `simulate` makes it) for the seat to move, drawing
    from the game's stream where it draws from its rng."""
    ph = G[PHASE]
    seat = G[TO_MOVE]
    mine = G[CHARS + seat]
    if ph == F_PORTRAIT:
        portrait = G[PORTRAIT]
        if portrait >= 0 and (mine >> portrait) & 1:
            return ids[2]
        return ids[1]
    if ph == F_SELECT:  # _best_move
        return _h_select(G, P, T[T_MOVES], st, go, bluff, scratch)
    if ph == F_DEST:  # the plan made on selecting (the same pawn and count, nothing moved since)
        return ids[0] + G[PLAN]
    if ph == F_TRAP:
        k = _trap_choices(G, T, P, scratch)
        has_play = False
        has_wild = False
        has_draw = False
        for i in range(k):
            if scratch[i] == 0:
                has_play = True
            elif scratch[i] == 1:
                has_wild = True
            else:
                has_draw = True
        if (mine >> G[TRAP_PAWN]) & 1:
            if has_draw:
                return ids[5]
        else:
            if has_play:
                return ids[3]
            if has_wild:
                return ids[4]
            if has_draw:
                return ids[5]
        return ids[3] + scratch[0]
    # a drawn card
    if G[MATCHES] and not (mine >> G[TRAP_PAWN]) & 1:
        return ids[6]
    return ids[7]


@_rules
def _play_one(
    g: int,
    seed: Any,
    P: Any,
    T: Any,
    ids: Any,
    go: int,
    track_end: int,
    record: int,
    moves: Any,
    G: Any,
    policy: Any,
    bluff: float,
    st: Any,
    legal: Any,
    scratch: Any,
) -> None:
    """One whole game (game `g` of the batch, seeded `seed`) to its end, its last state in G."""
    st[0] = seed
    _new_game(G, T, P, st)
    count = 0
    while G[PHASE] != F_OVER:
        ph = G[PHASE]
        if ph == F_FIRST or ph == F_REVEAL or ph == F_ROLL:
            action = _chance(G, T, P, st, go, ids[8], ids[9], ids[10], scratch)
        else:
            if policy[G[TO_MOVE]] == 1:
                action = _heuristic(G, T, P, st, go, ids, bluff, scratch)
            else:
                k = _legal(G, T, P, go, ids, legal)
                action = legal[_below(st, k)]
            G[N_DECISIONS] += 1
            _decide(G, T, P, st, go, track_end, ids, action, scratch)
        if record and count < moves.shape[1]:
            moves[g, count] = action
        count += 1
    G[N_ACTIONS] = count


@_rules_nogil
def _play(
    seeds: Any,
    P: Any,
    T: Any,
    ids: Any,
    go: int,
    track_end: int,
    record: int,
    moves: Any,
    G_out: Any,
    policy: Any,
    bluff: float,
    lo: int,
    hi: int,
    st: Any,
    work: Any,
) -> None:
    """Games lo..hi-1 of the batch, one after the other (each one's last state in G_out). `st`:
    a one-item uint64 array, `work`: two int64 rows (legal, scratch). Without the GIL: one
    chunk of games per thread (play_columns), as Mouse Trap's engine (issue 42: numba's parallel
    loop over every rule compiled in 63 s of CPU)."""
    for g in range(lo, hi):
        _play_one(
            g,
            seeds[g],
            P,
            T,
            ids,
            go,
            track_end,
            record,
            moves,
            G_out[g],
            policy,
            bluff,
            st,
            work[0],
            work[1],
        )


# --- the Python side ----------------------------------------------------------------
def _play_threads(count: int) -> int:
    return batch_threads(count, 8)  # a game is ~4 ms: a thread pays from a few games on


def engine_tables(game: Any) -> dict[str, Any]:
    """The engine's inputs for one game object: options as a vector, board and chance tables
    (the chance tables are the kernel's own floats, so the same draws)."""
    if game.hidden_chance:  # the one refusal, for play_batch, play_columns and the vector env
        raise TrapworksError(
            "the batched 13 Dead End Drive engine deals and draws from its own stream: "
            "option deal=chance (chance nodes, for tree search) is played by the kernel only"
        )
    m = game.mansion
    if m is not _M and (
        m.width * m.height != N_SQ
        or list(m.neighbours) != list(_M.neighbours)
        or (m.chairs, m.traps, m.trap_kind, m.passages, m.game_over)
        != (_M.chairs, _M.traps, _M.trap_kind, _M.passages, _M.game_over)
    ):
        raise TrapworksError("the batched 13 Dead End Drive engine was built for another mansion")
    nbr = np.full((N_SQ, 4), -1, np.int64)
    for sq, nbs in enumerate(m.neighbours):
        nbr[sq, : len(nbs)] = nbs
    chair = np.array([(m.chairs >> sq) & 1 for sq in range(N_SQ)], np.int64)
    trap = np.full(N_SQ, -1, np.int64)
    for sq, kind in m.trap_kind.items():
        trap[sq] = TRAP_KINDS.index(kind)
    is_pass = np.zeros(N_SQ, np.int64)
    is_pass[list(m.passages)] = 1
    n = game.players
    first_cum = np.ones(4, np.float64)
    first_cum[:n] = list(accumulate(1 / n for _ in range(n)))
    reveal_cum = np.ones((NUM_PAWNS + 1, NUM_PAWNS), np.float64)
    for k in range(1, NUM_PAWNS + 1):
        reveal_cum[k, :k] = list(accumulate(1 / k for _ in range(k)))
    o = game.options
    params = np.zeros(8, np.int64)
    params[P_PLAYERS] = n
    params[P_FIRST] = -1 if o["first_player"] == "random" else int(o["first_player"]) - 1
    params[P_LOSE_TURN] = o["blocked_die"] == "lose-turn"
    params[P_AFTER_NONE] = o["after_draw"] == "none"
    params[P_HOPS] = o["passage_hops"]
    params[P_START_HOP] = bool(o["passage_start_hop"])
    params[P_TURN_LIMIT] = min(int(o["turn_limit"]), 1 << 62)
    params[P_DECK_N] = len(game.deck)
    deck = np.zeros(MAX_CARDS, np.int64)
    deck[: len(game.deck)] = game.deck
    ids = np.array(
        [
            game.DEST_BASE,
            game.CHANGE,
            game.KEEP_PORTRAIT,
            game.PLAY_TRAP,
            game.PLAY_WILD,
            game.DRAW,
            game.SPRING,
            game.KEEP_CARD,
            game.ROLL_BASE,
            game.FIRST_BASE,
            game.REVEAL_BASE,
        ],
        np.int64,
    )
    assert game.PLAY_WILD == game.PLAY_TRAP + 1 and game.DRAW == game.PLAY_TRAP + 2  # _trap_choices' offsets
    assert len(ROLLS) == 21
    tables = (
        nbr,
        chair,
        trap,
        np.array(m.passages, np.int64),
        is_pass,
        np.array(game.roll_table[1], np.float64),
        first_cum,
        reveal_cum,
        deck,
        np.array(m.chair_order, np.int64),
        move_table_array(o["passage_hops"], o["passage_start_hop"]),
    )
    return {"params": params, "tables": tables, "ids": ids, "go": m.game_over, "track_end": len(m.track) - 1}


def play_columns(
    game: Any,
    agents: Sequence[str],
    seeds: Sequence[int],
    moves: bool = False,
    max_moves: int = 50000,
) -> dict[str, Any]:
    """Whole games in the compiled engine, one per seed, as columns (NumPy arrays, one entry per
    game): "winner" (seat, -1 when none), "truncated", "ending" (an index into ENDINGS),
    "length" (seats' decisions), "actions" (every action, chance included) and the statistics
    columns of stats.game_stats; with `moves`, "moves" (action ids, -1 after each game's end)."""
    n = game.players
    check_agents("13 Dead End Drive", agents, n, POLICIES)
    t = engine_tables(game)
    seed_arr = seed_array(seeds)
    count = len(seed_arr)
    move_arr = np.full((count, max_moves if moves else 1), -1, np.int64)
    G = np.zeros((count, G_SIZE), np.int64)
    policy = np.array([POLICIES[a] for a in agents], np.int64)
    args = (
        seed_arr,
        t["params"],
        t["tables"],
        t["ids"],
        t["go"],
        t["track_end"],
        int(moves),
        move_arr,
        G,
        policy,
    )
    in_threads(
        count,
        _play_threads(count),
        lambda lo, hi: _play(
            *args, H_BLUFF, lo, hi, np.zeros(1, np.uint64), np.zeros((2, N_SQ + 8), np.int64)
        ),
    )
    # the winner's seat: whoever holds the winning pawn's Character card, or its secret card
    winner = np.full(count, -1, np.int64)
    wp = G[:, WINNER_PAWN]
    for s in range(n):
        for base in (CHARS, SECRET):
            held = (wp >= 0) & ((G[:, base + s] >> np.maximum(wp, 0)) & 1).astype(bool)
            winner[held & (winner < 0)] = s
    trunc = G[:, TRUNC].astype(bool)
    winner[trunc] = -1
    cols: dict[str, Any] = {
        "winner": winner,
        "first_seat": G[:, FIRST_SEAT],
        "truncated": trunc,
        "ending": G[:, WIN_REASON],
        "length": G[:, N_DECISIONS],
        "actions": G[:, N_ACTIONS],
        "knockoffs": G[:, KNOCK : KNOCK + 5].sum(axis=1),
        "cards_played": G[:, CARDS_PLAYED],
        "draws": G[:, DRAWS],
        "detective_cards": G[:, DET_CARDS],
        "bluffs": G[:, BLUFFS],
    }
    for i, trap in enumerate(TRAP_KINDS):
        cols[f"knockoffs_{trap}"] = G[:, KNOCK + i]
    if moves:
        check_moves_kept(G[:, N_ACTIONS], max_moves)
        cols["moves"] = move_arr
    return cols


STAT_COLUMNS = (
    "knockoffs",
    "cards_played",
    "draws",
    "detective_cards",
    "bluffs",
    *(f"knockoffs_{t}" for t in TRAP_KINDS),
)


def play_batch(
    game: Any,
    agents: Sequence[str],
    seeds: Sequence[int],
    moves: bool = False,
    max_moves: int = 50000,
) -> list[dict[str, Any]]:
    """play_columns as rows (the form Game.play_batch gives): "winners", "returns", "length",
    "actions", "truncated", "ending" and the statistics; with `moves`, each game's "moves"."""
    cols = play_columns(game, agents, seeds, moves, max_moves)
    endings = [ENDINGS[e] for e in cols["ending"].tolist()]
    return rows_from_columns(cols, game.players, endings, STAT_COLUMNS)


__all__ = [
    "POLICIES",
    "SharedStream",
    "deal_from_stream",
    "play_batch",
    "play_columns",
    "sample_chance_from_stream",
    "stream_random",
]
