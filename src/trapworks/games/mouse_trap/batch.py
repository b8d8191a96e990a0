"""Batched playouts of Mouse Trap: many whole games in one compiled loop (numba).

The same rules as game.py, every option included (both rulebooks and every row of their table of
differences, the stage odds, the turn limit, a drawn first player), with the agents a simulation
runs most: `random` (a uniform legal action), `heuristic` and `double-catch` (agents.py's
decisions). Action ids and their order in each legal list are the kernel's, so a game here is the
kernel's game move for move when both draw from the same stream.

Randomness: each game draws from its own SplitMix64 stream seeded with its seed (the stream of
Last Mouse Lost's engine, `SharedStream`). A seat's uniform choice among n actions takes item
`((draw >> 32) * n) >> 32`; a chance node takes the outcome `bisect(cum, u * cum[-1])` of the
kernel's own `chance_table()`, with u = (draw >> 11) / 2**53. `sample_chance_from_stream` is that
draw for the kernel, so the tests play the kernel with the same stream and compare.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

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

from .data import CHEESE_WHEEL, LOOP_LENGTH, LOOP_START, NUM_PARTS, NUM_SPACES, SAFE, SPACES, STAGE_IDS, START

# The kernel's action ids (game.py; not imported from there: game.py calls this module, and
# tests/mouse_trap/test_batch.py checks that the two agree).
ROLL, CRANK, END, BUILD = 0, 7, 8, 9
MOVE_BASE, STEAL_BASE = 10, 20
WORKS, JAMS = 30, 31
FIRST_BASE = 40

POLICIES = {"random": 0, "heuristic": 1, "double-catch": 2}

# Space kinds as the engine sorts them.
K_NONE, K_BUILD, K_TAKE, K_LOSE, K_STEAL, K_BACK, K_AHEAD, K_GOTO, K_CRANK = range(9)
_KIND_CODES = {
    "start": K_NONE,
    "dog_bone": K_NONE,
    "safe": K_NONE,
    "build": K_BUILD,
    "loop_build": K_BUILD,
    "take": K_TAKE,
    "cheese_wheel": K_TAKE,
    "lose": K_LOSE,
    "steal_most": K_STEAL,
    "go_back": K_BACK,
    "move_ahead": K_AHEAD,
    "go_to": K_GOTO,
    "turn_crank": K_CRANK,
}

# Phases (the kernel's numbers are not needed: the engine keeps its own).
F_FIRST, F_ROLL, F_DIE, F_CRANK, F_PUSH, F_STEAL, F_FIRE, F_OVER, F_BUILD = range(9)
N_PHASES = 9

# Slots of the per-game state vector.
(
    TO_MOVE,
    PHASE,
    PILE,
    PARTS,
    TURN,
    STAGE,
    WINNER,
    TRUNC,
    PUSH_TARGET,
    OWED,
    DIVIDE,
    STEAL_FROM,
    N_CRANKS,
    N_CAPTURES,
    N_CAUGHT,
    N_PAID,
    N_STEALS,
    N_DECISIONS,
    N_ACTIONS,
    LAST_DIE,
    FIRST_SEAT,
) = range(21)
STATE_SIZE = 21

# Slots of the parameter vector.
(
    P_PLAYERS,
    P_FOLLOW,
    P_PAY_ON_WHEEL,
    P_MISS_ENDS,
    P_DIVIDE_TIES,
    P_SAFE_PROTECTS,
    P_CRANK_REQUIRED,
    P_BUILD_OPTIONAL,
    P_FROM_MOST,
    P_TURN_CAP,
    P_STAGES,
    P_FIRST,
    P_CAPTURE_POSSIBLE,
    P_PAID_FOLLOWS,
) = range(14)


@_rules_inlined
def _end_turn(S: Any, P: Any, mice: Any) -> None:
    n = P[P_PLAYERS]
    me = S[TO_MOVE]
    s = me
    for _ in range(n):  # the next seats in turn, this one last (no division: it is slow)
        s += 1
        if s == n:
            s = 0
        if mice[s] >= 0:
            break
    S[TO_MOVE] = s
    if S[TURN] >= P[P_TURN_CAP]:
        S[TRUNC] = 1
        S[PHASE] = F_OVER
        return
    S[TURN] += 1
    S[PHASE] = F_ROLL


@_rules
def _transfer(S: Any, cheese: Any, giver: int, taker: int, amount: int) -> None:
    if amount <= 0:
        return
    cheese[giver] -= amount
    cheese[taker] += amount
    S[N_STEALS] += 1


@_rules
def _richest(P: Any, mice: Any, cheese: Any, me: int) -> Any:
    """Bit mask of the eligible rivals holding the most cheese (0 when none holds any)."""
    most = 0
    group = 0
    for s in range(P[P_PLAYERS]):
        m = mice[s]
        if s == me or m < 0 or (P[P_SAFE_PROTECTS] and m == SAFE):
            continue
        c = cheese[s]
        if c > most:
            most = c
            group = 1 << s
        elif c == most and c:
            group |= 1 << s
    return group


@_rules
def _single(mask: int) -> Any:
    """The seat of a one-bit mask, -1 if the mask has more or fewer bits."""
    if mask == 0 or (mask & (mask - 1)) != 0:
        return -1
    s = 0
    while not (mask >> s) & 1:
        s += 1
    return s


@_rules
def _start_steal(S: Any, cheese: Any, me: int, owed: int, group: int, divide: int) -> bool:
    one = _single(group)
    if one >= 0:
        _transfer(S, cheese, one, me, min(owed, cheese[one]))
        return False
    S[OWED] = owed
    S[STEAL_FROM] = group
    S[DIVIDE] = divide
    S[PHASE] = F_STEAL
    return True


@_rules
def _take(S: Any, P: Any, mice: Any, cheese: Any, me: int, amount: int) -> bool:
    """Take cheese from the pile, then from a rival; True when a choice of rival is pending."""
    pile = S[PILE]
    if pile >= amount:
        S[PILE] = pile - amount
        cheese[me] += amount
        return False
    S[PILE] = 0
    cheese[me] += pile
    owed = amount - pile
    if P[P_FROM_MOST]:
        rivals = _richest(P, mice, cheese, me)
        one = _single(rivals)
        if one >= 0:
            _transfer(S, cheese, one, me, min(owed, cheese[one]))
            return False
    else:
        rivals = 0
        for s in range(P[P_PLAYERS]):
            m = mice[s]
            if s != me and m >= 0 and not (P[P_SAFE_PROTECTS] and m == SAFE) and cheese[s] > 0:
                rivals |= 1 << s
    if rivals == 0:
        return False
    return _start_steal(S, cheese, me, owed, rivals, P[P_DIVIDE_TIES] if P[P_FROM_MOST] else 0)


@_rules
def _build(S: Any, P: Any, mice: Any, cheese: Any, parts_at: Any, me: int, pos: int) -> bool:
    built = min(parts_at[pos], NUM_PARTS - S[PARTS])
    S[PARTS] += built
    return _take(S, P, mice, cheese, me, built)


@_rules
def _crank_choices(S: Any, P: Any, mice: Any, cheese: Any, out: Any) -> int:
    """The crank decision's legal actions into `out`, in the kernel's order; their count."""
    me = S[TO_MOVE]
    wheel = False
    k = 0
    for s in range(P[P_PLAYERS]):
        m = mice[s]
        if s != me and m == CHEESE_WHEEL:
            wheel = True
    if wheel and S[PARTS] >= NUM_PARTS:
        out[k] = CRANK
        k += 1
    has_crank = k == 1
    if cheese[me] > 0 and (not wheel or P[P_PAY_ON_WHEEL]):
        for s in range(P[P_PLAYERS]):
            m = mice[s]
            if s != me and m >= 0 and m != CHEESE_WHEEL and m != SAFE:
                out[k] = MOVE_BASE + s
                k += 1
    if not (P[P_CRANK_REQUIRED] and has_crank):
        out[k] = END
        k += 1
    return k


@_rules_inlined
def _land(
    S: Any,
    P: Any,
    mice: Any,
    cheese: Any,
    kinds: Any,
    builds: Any,
    amounts: Any,
    targets: Any,
    parts_at: Any,
    advance: Any,
    scratch: Any,
    me: int,
    pos: int,
) -> None:
    """Carry out the space `pos` for the player to move (following jumps where the rules say)."""
    seen = 0
    while True:
        kind = kinds[pos]
        if kind == K_BUILD:
            if not builds[pos] or S[PARTS] >= NUM_PARTS:
                break
            if P[P_BUILD_OPTIONAL]:
                S[PHASE] = F_BUILD
                return
            if _build(S, P, mice, cheese, parts_at, me, pos):
                return
            break
        if kind == K_TAKE:
            if _take(S, P, mice, cheese, me, amounts[pos]):
                return
            break
        if kind == K_LOSE:
            lost = min(amounts[pos], cheese[me])
            cheese[me] -= lost
            S[PILE] += lost
            break
        if kind == K_STEAL:
            group = _richest(P, mice, cheese, me)
            if group != 0 and _start_steal(S, cheese, me, amounts[pos], group, P[P_DIVIDE_TIES]):
                return
            break
        if kind == K_BACK or kind == K_AHEAD or kind == K_GOTO:
            if kind == K_BACK:
                dest = max(START, pos - amounts[pos])
            elif kind == K_AHEAD:
                dest = pos + amounts[pos]
                if dest >= LOOP_START:  # the Loop is circular (MouseTrapState.advance)
                    dest = LOOP_START + (dest - LOOP_START) % LOOP_LENGTH
            else:
                dest = targets[pos]
            mice[me] = dest
            seen |= 1 << pos
            if P[P_FOLLOW] and not (seen >> dest) & 1:
                pos = dest
                continue
            break
        if kind == K_CRANK:
            if S[PARTS] >= NUM_PARTS:
                k = _crank_choices(S, P, mice, cheese, scratch)
                if not (k == 1 and scratch[0] == END):
                    S[PHASE] = F_CRANK
                    return
            break
        break  # nothing happens here
    _end_turn(S, P, mice)


@_rules
def _pushed_lands(
    S: Any, P: Any, mice: Any, cheese: Any, kinds: Any, amounts: Any, targets: Any, owner: int, pos: int
) -> Any:
    """MouseTrapState._pushed_lands: a mouse moved by a paid roll follows a movement space (and on
    where follow_destination says); on the Cheese Wheel its owner takes the wheel's cheese from
    the pile, what it holds. Where the mouse ends."""
    seen = 0
    while True:
        kind = kinds[pos]
        if pos == CHEESE_WHEEL:
            got = min(amounts[pos], S[PILE])
            S[PILE] -= got
            cheese[owner] += got
            return pos
        if not (kind == K_BACK or kind == K_AHEAD or kind == K_GOTO):
            return pos
        if kind == K_BACK:
            dest = max(START, pos - amounts[pos])
        elif kind == K_AHEAD:
            dest = pos + amounts[pos]
            if dest >= LOOP_START:
                dest = LOOP_START + (dest - LOOP_START) % LOOP_LENGTH
        else:
            dest = targets[pos]
        seen |= 1 << pos
        mice[owner] = dest
        if not P[P_FOLLOW] or (seen >> dest) & 1:
            return dest
        pos = dest


@_rules
def _distance_to_wheel(position: int) -> Any:
    if position >= LOOP_START:
        return (CHEESE_WHEEL - position) % (CHEESE_WHEEL - LOOP_START + 1)
    return CHEESE_WHEEL - position


@_rules
def _richest_in_reach(mice: Any, cheese: Any, legal: Any, k: int) -> Any:
    """agents.richest_target_in_reach: the move:P action for the richest reachable rival, -1 if none."""
    best = -1
    for i in range(k):
        a = legal[i]
        if MOVE_BASE <= a < MOVE_BASE + 4:
            d = _distance_to_wheel(mice[a - MOVE_BASE])
            if 1 <= d <= 6:
                # max by (cheese, -a): the first of the richest in id order wins a tie
                if best < 0 or cheese[a - MOVE_BASE] > cheese[best - MOVE_BASE]:
                    best = a
    return best


# The board and chance tables travel as one tuple (engine_tables builds it, in this order).
(
    T_DIE,
    T_FIRE_CUM,
    T_FIRE_IDS,
    T_FIRE_COUNT,
    T_FIRST,
    T_KINDS,
    T_BUILDS,
    T_AMOUNTS,
    T_TARGETS,
    T_PARTS,
    T_ADV,
) = range(11)


@_rules_inlined
def _new_game(S: Any, P: Any, mice: Any, cheese: Any, jams: Any, supply: int) -> None:
    S[:] = 0
    S[PILE] = supply
    S[TURN] = 1
    S[WINNER] = -1
    S[PUSH_TARGET] = -1
    S[LAST_DIE] = 0
    for s in range(4):
        mice[s] = START if s < P[P_PLAYERS] else -1
        cheese[s] = 0
    jams[:] = 0
    if P[P_FIRST] < 0:
        S[PHASE] = F_FIRST
    else:
        S[TO_MOVE] = P[P_FIRST]
        S[FIRST_SEAT] = P[P_FIRST]
        S[PHASE] = F_ROLL


@_rules_inlined
def _chance(S: Any, P: Any, mice: Any, cheese: Any, jams: Any, st: Any, T: Any, scratch: Any) -> Any:
    """Draw and carry out the pending chance outcome; its action id."""
    n = P[P_PLAYERS]
    ph = S[PHASE]
    me = S[TO_MOVE]
    if ph == F_FIRST:
        i = _sample(st, T[T_FIRST], n)
        S[TO_MOVE] = i
        S[FIRST_SEAT] = i
        S[PHASE] = F_ROLL
        return FIRST_BASE + i
    if ph == F_DIE or ph == F_PUSH:
        action = 1 + _sample(st, T[T_DIE], 6)
        S[LAST_DIE] = action
        advance = T[T_ADV]
        if ph == F_DIE:
            dest = advance[mice[me], action]
            mice[me] = dest
            _land(
                S,
                P,
                mice,
                cheese,
                T[T_KINDS],
                T[T_BUILDS],
                T[T_AMOUNTS],
                T[T_TARGETS],
                T[T_PARTS],
                advance,
                scratch,
                me,
                dest,
            )
            return action
        target = S[PUSH_TARGET]
        dest = advance[mice[target], action]
        mice[target] = dest
        S[PUSH_TARGET] = -1
        if P[P_PAID_FOLLOWS]:
            dest = _pushed_lands(S, P, mice, cheese, T[T_KINDS], T[T_AMOUNTS], T[T_TARGETS], target, dest)
        if dest != CHEESE_WHEEL and P[P_MISS_ENDS]:
            _end_turn(S, P, mice)
        else:
            k = _crank_choices(S, P, mice, cheese, scratch)
            if k == 1 and scratch[0] == END:
                _end_turn(S, P, mice)
            else:
                S[PHASE] = F_CRANK
        return action
    # F_FIRE: one stage of the firing chain works or jams
    stage = S[STAGE]
    action = T[T_FIRE_IDS][stage, _sample(st, T[T_FIRE_CUM][stage], T[T_FIRE_COUNT][stage])]
    if action == JAMS:
        for s in range(n):
            if s != me and mice[s] == CHEESE_WHEEL:
                mice[s] = SAFE
        jams[stage] += 1
        S[STAGE] = 0
        _end_turn(S, P, mice)
        return action
    S[STAGE] = stage + 1
    if stage + 1 >= P[P_STAGES]:
        caught = 0
        for s in range(n):
            if s != me and mice[s] == CHEESE_WHEEL:
                cheese[me] += cheese[s]
                cheese[s] = 0
                mice[s] = -1
                caught += 1
        S[N_CAPTURES] += 1
        S[N_CAUGHT] += caught
        S[STAGE] = 0
        alive = 0
        last = -1
        for s in range(n):
            if mice[s] >= 0:
                alive += 1
                last = s
        if alive == 1:
            S[WINNER] = last
            S[PHASE] = F_OVER
        else:
            _end_turn(S, P, mice)
    return action


@_rules_inlined
def _legal(S: Any, P: Any, mice: Any, cheese: Any, legal: Any) -> Any:
    """The deciding seat's legal actions into `legal`, in the kernel's order; their count."""
    ph = S[PHASE]
    if ph == F_ROLL:
        legal[0] = ROLL
        return 1
    if ph == F_BUILD:
        legal[0] = BUILD
        legal[1] = END
        return 2
    if ph == F_CRANK:
        return _crank_choices(S, P, mice, cheese, legal)
    k = 0  # F_STEAL
    for s in range(P[P_PLAYERS]):
        if (S[STEAL_FROM] >> s) & 1 and cheese[s] > 0:
            legal[k] = STEAL_BASE + s
            k += 1
    return k


@_rules_inlined
def _policy(S: Any, P: Any, mice: Any, cheese: Any, legal: Any, k: int, policy: int, st: Any) -> Any:
    """What agent `policy` (0 random, 1 heuristic, 2 double-catch) chooses among legal[:k]."""
    if policy == 0:
        return legal[_below(st, k)]
    ph = S[PHASE]
    if k == 1 and legal[0] == ROLL:
        return ROLL
    if ph == F_BUILD:
        return BUILD
    if ph == F_STEAL:
        action = legal[0]
        for i in range(1, k):
            if cheese[legal[i] - STEAL_BASE] > cheese[action - STEAL_BASE]:
                action = legal[i]
        return action
    if ph == F_CRANK:
        has_crank = legal[0] == CRANK
        best = _richest_in_reach(mice, cheese, legal, k) if P[P_CAPTURE_POSSIBLE] else -1
        if policy == 2 and has_crank and best >= 0:
            return best
        if has_crank:
            return CRANK
        if best >= 0:
            return best
        return END
    return legal[0]


@_rules_inlined
def _decide(S: Any, P: Any, mice: Any, cheese: Any, T: Any, action: int) -> None:
    """Carry out a legal decision of the seat to move."""
    n = P[P_PLAYERS]
    ph = S[PHASE]
    me = S[TO_MOVE]
    S[N_DECISIONS] += 1
    if ph == F_ROLL:
        S[PHASE] = F_DIE
    elif ph == F_BUILD:
        if action == END or not _build(S, P, mice, cheese, T[T_PARTS], me, mice[me]):
            _end_turn(S, P, mice)
    elif ph == F_CRANK:
        if action == END:
            _end_turn(S, P, mice)
        elif action == CRANK:
            S[N_CRANKS] += 1
            S[PHASE] = F_FIRE
            S[STAGE] = 0
        else:
            cheese[me] -= 1
            S[PILE] += 1
            S[N_PAID] += 1
            S[PUSH_TARGET] = action - MOVE_BASE
            S[PHASE] = F_PUSH
    else:  # a steal
        victim = action - STEAL_BASE
        if not S[DIVIDE]:
            _transfer(S, cheese, victim, me, min(S[OWED], cheese[victim]))
            S[OWED] = 0
        else:
            _transfer(S, cheese, victim, me, 1)
            S[OWED] -= 1
            left = 0
            for s in range(n):
                if (S[STEAL_FROM] >> s) & 1 and cheese[s] > 0:
                    left |= 1 << s
            S[STEAL_FROM] = left
            one = _single(left)
            if S[OWED] > 0 and one >= 0:
                _transfer(S, cheese, one, me, min(S[OWED], cheese[one]))
                S[OWED] = 0
            elif left == 0:
                S[OWED] = 0
        if S[OWED] == 0:
            S[STEAL_FROM] = 0
            S[DIVIDE] = 0
            _end_turn(S, P, mice)


# Compile time (issue 42): every rule function is compiled with `_nrt=False` (no reference
# counts: they never allocate, and a reference count is an atomic operation on each array a
# call or an assignment passes on, which made serial code about 3x slower than the same rules
# inside a parallel loop), and only the helpers with one call site per loop (and the small
# `_end_turn`, `_new_game`) are inlined at numba's IR level; the others are plain calls that
# LLVM inlines where it pays. Whole games run in `_play`, a serial loop (threads: play_columns);
# the vector environments' chunks call one serial function per environment. Cold
# compile 83 s of CPU before (everything inlined into one parallel loop), a fifth of that
# after, at the same warm speed (BENCHMARKS.md, bench/mouse_trap_compile.py).
@_rules
def _play_one(
    g: int,
    seed: Any,
    policies: Any,
    P: Any,
    T: Any,
    supply: int,
    record: int,
    moves: Any,
    S: Any,
    mice: Any,
    jams: Any,
    st: Any,
    legal: Any,
    scratch: Any,
    cheese: Any,
) -> None:
    """One whole game (game `g` of the batch, seeded `seed`) to its end, statistics in S, jams."""
    st[0] = seed
    _new_game(S, P, mice, cheese, jams, supply)
    count = 0
    while S[PHASE] != F_OVER:
        ph = S[PHASE]
        if ph == F_FIRST or ph == F_DIE or ph == F_PUSH or ph == F_FIRE:
            action = _chance(S, P, mice, cheese, jams, st, T, scratch)
        else:
            k = _legal(S, P, mice, cheese, legal)
            action = _policy(S, P, mice, cheese, legal, k, policies[S[TO_MOVE]], st)
            _decide(S, P, mice, cheese, T, action)
        if record and count < moves.shape[1]:
            moves[g, count] = action
        count += 1
    S[N_ACTIONS] = count


@_rules_nogil
def _play(
    seeds: Any,
    policies: Any,
    P: Any,
    T: Any,
    supply: int,
    record: int,
    moves: Any,
    S_out: Any,
    mice_out: Any,
    jams_out: Any,
    lo: int,
    hi: int,
    st: Any,
    work: Any,
) -> None:
    """Games lo..hi-1 of the batch, one after the other (statistics in S_out, jams_out). `st`: a
    one-item uint64 array, `work`: int64 rows (legal, scratch, cheese). Without the GIL, so that
    play_columns runs one chunk of games per thread (Python threads, not a parallel loop: numba's
    parallel lowering copied the whole rule code again, a third of the old compile time)."""
    for g in range(lo, hi):
        _play_one(
            g,
            seeds[g],
            policies,
            P,
            T,
            supply,
            record,
            moves,
            S_out[g],
            mice_out[g],
            jams_out[g],
            st,
            work[0],
            work[1],
            work[2],
        )


def _play_threads(count: int) -> int:
    return batch_threads(count, 1000)  # a game is ~5 us: a thread pays from 1,000 on


# --- step by step, for vector environments (one learning seat, the engine's agents elsewhere) ---
@_rules_inlined
def _advance(
    S: Any,
    P: Any,
    mice: Any,
    cheese: Any,
    jams: Any,
    st: Any,
    T: Any,
    policies: Any,
    seat: int,
    action: int,
    legal: Any,
    scratch: Any,
) -> Any:
    """`seat`'s `action` (none when -1), then chance and the other seats move until `seat` is to
    decide or the game is over; answers the number of `seat`'s legal actions, listed in `legal`
    (0 once over). One call site of each rule helper: numba inlines at its own IR level, where
    every site is typed and compiled again."""
    pending = action
    while True:
        ph = S[PHASE]
        if ph == F_OVER:
            return 0
        if ph == F_FIRST or ph == F_DIE or ph == F_PUSH or ph == F_FIRE:
            _chance(S, P, mice, cheese, jams, st, T, scratch)
            S[N_ACTIONS] += 1
            continue
        k = _legal(S, P, mice, cheese, legal)
        if S[TO_MOVE] == seat:
            if pending < 0:
                return k
            chosen = pending
            pending = -1
        else:
            chosen = _policy(S, P, mice, cheese, legal, k, policies[S[TO_MOVE]], st)
        _decide(S, P, mice, cheese, T, chosen)
        S[N_ACTIONS] += 1


@_rules
def _encode(
    S: Any, P: Any, mice: Any, cheese: Any, seat: int, supply: int, turn_limit: int, out: Any
) -> None:
    """encoding.MouseTrapEncoder's tensor of `seat`'s view, written in place."""
    n = P[P_PLAYERS]
    out[:] = 0.0
    per = float(max(1, supply))
    i = 0
    for s in range(n):
        out[i + (NUM_SPACES if mice[s] < 0 else mice[s])] = 1.0
        i += NUM_SPACES + 1
        out[i] = cheese[s] / per
        i += 1
    out[i] = S[PILE] / per
    out[i + 1] = S[PARTS] / float(NUM_PARTS)
    i += 2
    ph = S[PHASE]
    out[i + ph] = 1.0
    i += N_PHASES
    out[i + S[TO_MOVE]] = 1.0
    i += n
    if ph == F_ROLL or ph == F_CRANK or ph == F_BUILD or ph == F_STEAL:
        out[i + S[TO_MOVE]] = 1.0
    i += n
    out[i + seat] = 1.0
    i += n
    if ph == F_FIRE:
        out[i + S[STAGE]] = 1.0
    i += P[P_STAGES]
    if S[LAST_DIE] > 0:
        out[i + S[LAST_DIE] - 1] = 1.0
    i += 6
    if S[PUSH_TARGET] >= 0:
        out[i + S[PUSH_TARGET]] = 1.0
    i += n
    if ph == F_STEAL:
        out[i] = S[OWED] / per
        for s in range(n):
            if (S[STEAL_FROM] >> s) & 1:
                out[i + 1 + s] = 1.0
    i += 1 + n
    if turn_limit > 0:
        out[i] = min(1.0, S[TURN] / float(turn_limit))


@_rules
def _step_env(
    e: int,
    actions: Any,
    S: Any,
    P: Any,
    mice: Any,
    cheese: Any,
    jams: Any,
    st: Any,
    T: Any,
    policies: Any,
    seat: int,
    supply: int,
    turn_limit: int,
    lose: float,
    illegal_reward: float,
    ended: Any,
    obs: Any,
    mask: Any,
    rewards: Any,
    terminated: Any,
    truncated: Any,
    illegal: Any,
    work: Any,
) -> None:
    """vector_step for environment `e`."""
    legal = work[e, 0]
    scratch = work[e, 1]
    Se = S[e]
    rewards[e] = 0.0
    terminated[e] = False
    truncated[e] = False
    illegal[e] = False
    if ended[e]:
        ended[e] = False
        _new_game(Se, P, mice[e], cheese[e], jams[e], supply)
        a = -1
    else:
        a = actions[e]
        if mask[e, a] == 0:  # not legal: the episode ends as a loss, the state as it was
            illegal[e] = True  # (and so are its observation and mask)
            terminated[e] = True
            rewards[e] = illegal_reward
            ended[e] = True
            return
    k = _advance(Se, P, mice[e], cheese[e], jams[e], st[e], T, policies, seat, a, legal, scratch)
    if Se[PHASE] == F_OVER:
        ended[e] = True
        if Se[TRUNC]:
            truncated[e] = True
        else:
            terminated[e] = True
            rewards[e] = 1.0 if Se[WINNER] == seat else lose
    _encode(Se, P, mice[e], cheese[e], seat, supply, turn_limit, obs[e])
    mask[e, :] = 0
    for j in range(k):
        mask[e, legal[j]] = 1


@_rules_nogil
def _vector_steps(
    lo: int,
    hi: int,
    actions: Any,
    S: Any,
    P: Any,
    mice: Any,
    cheese: Any,
    jams: Any,
    st: Any,
    T: Any,
    policies: Any,
    seat: int,
    supply: int,
    turn_limit: int,
    lose: float,
    illegal_reward: float,
    ended: Any,
    obs: Any,
    mask: Any,
    rewards: Any,
    terminated: Any,
    truncated: Any,
    illegal: Any,
    work: Any,
) -> None:
    """`_step_env` for environments lo..hi-1, without the GIL (one chunk per thread)."""
    for e in range(lo, hi):
        _step_env(
            e,
            actions,
            S,
            P,
            mice,
            cheese,
            jams,
            st,
            T,
            policies,
            seat,
            supply,
            turn_limit,
            lose,
            illegal_reward,
            ended,
            obs,
            mask,
            rewards,
            terminated,
            truncated,
            illegal,
            work,
        )


def vector_step(actions: Any, S: Any, *rest: Any) -> None:
    """One decision of the learning seat in every environment; an environment whose episode
    ended at the last step starts a new game instead (Gymnasium's next-step autoreset), and so
    a reset is this step with every environment `ended` (one compiled function, not two). An
    action is legal when `mask` (this function's own, of the last step) allows it. The other
    arguments: P, mice, cheese, jams, st, T, policies, seat, supply, turn_limit, lose,
    illegal_reward, ended, obs, mask, rewards, terminated, truncated, illegal and `work`
    (scratch rows, two per environment: int64, shape (num_envs, 2, 8)).

    Each environment reads and writes only its own rows and draws from its own stream, so the
    results do not depend on how the environments are split. They are split into chunks run by
    Python threads (`_vector_steps` releases the GIL), not numba's parallel loop: its lowering
    copied the whole step code again and was most of a cold compile (issue 42: 71 s of CPU for
    the first reset, see BENCHMARKS.md). The step of one environment is `_step_env`, serial and
    without reference counts (see `_play_one`: the serial code with reference counts was about
    9x slower, 506 against 57 us a step of 256 environments)."""
    count = S.shape[0]
    threads = batch_threads(count, _ENVS_PER_THREAD)
    in_threads(count, threads, lambda lo, hi: _vector_steps(lo, hi, actions, S, *rest))


# A step is ~1 us an environment and a thread pool's start ~100 us: threads pay from a few
# thousand environments on.
_ENVS_PER_THREAD = 2048


def engine_tables(game: Any) -> dict[str, Any]:
    """The engine's inputs for one game object: options as a vector, board and chance tables.
    The chance tables are the kernel's own (the same floats, so the same draws)."""
    n_stages = len(game.stage_odds)
    fire_cum = np.ones((n_stages, 2), np.float64)
    fire_ids = np.zeros((n_stages, 2), np.int64)
    fire_count = np.zeros(n_stages, np.int64)
    for i, (ids, cum) in enumerate(game.fire_tables):
        fire_count[i] = len(ids)
        fire_ids[i, : len(ids)] = ids
        fire_cum[i, : len(cum)] = cum
    first = game.options["first_player"]
    first_cum = np.ones(4, np.float64)
    if first == "random":
        probe = game.new_initial_state()  # the draw of who goes first
        _ids, first_table = probe.chance_table()
        first_cum[: len(first_table)] = first_table
    params = np.zeros(14, np.int64)
    params[P_PLAYERS] = game.players
    params[P_FOLLOW] = game.follow_destination
    params[P_PAY_ON_WHEEL] = game.pay_while_on_wheel
    params[P_MISS_ENDS] = game.pay_miss_ends_turn
    params[P_DIVIDE_TIES] = game.divide_ties
    params[P_SAFE_PROTECTS] = game.safe_protects_cheese
    params[P_CRANK_REQUIRED] = game.crank_required
    params[P_BUILD_OPTIONAL] = game.build_optional
    params[P_FROM_MOST] = game.pile_from_most
    params[P_TURN_CAP] = min(game.turn_cap, (1 << 62))
    params[P_STAGES] = n_stages
    params[P_FIRST] = -1 if first == "random" else int(first)
    params[P_CAPTURE_POSSIBLE] = game.capture_chance > 0
    params[P_PAID_FOLLOWS] = game.paid_move_follows
    return {
        "params": params,
        "die_cum": np.array(game.die_table[1], np.float64),
        "fire_cum": fire_cum,
        "fire_ids": fire_ids,
        "fire_count": fire_count,
        "first_cum": first_cum,
        "kinds": np.array([_KIND_CODES[s["kind"]] for s in SPACES], np.int64),
        "builds": np.array(game.builds_here, np.int64),
        "amounts": np.array([int(s.get("amount", 0)) for s in SPACES], np.int64),
        "targets": np.array([int(s.get("target", 0)) for s in SPACES], np.int64),
        "parts_at": np.array([int(s.get("parts", 1)) for s in SPACES], np.int64),
        "advance": np.array(game.advance_table, np.int64),
    }


def engine_tuple(t: dict[str, Any]) -> tuple[Any, ...]:
    """The tables in the order of the T_ slots."""
    keys = ("die_cum", "fire_cum", "fire_ids", "fire_count", "first_cum", "kinds", "builds", "amounts")
    return tuple(t[k] for k in keys) + (t["targets"], t["parts_at"], t["advance"])


def play_columns(
    game: Any,
    agents: Sequence[str],
    seeds: Sequence[int],
    moves: bool = False,
    max_moves: int = 20000,
) -> dict[str, Any]:
    """Whole games in the compiled engine, one per seed, as columns (NumPy arrays, one entry per
    game): "winner" (seat, -1 when none), "truncated", "length" (seats' decisions), "actions"
    (every action, chance included) and the statistics columns of stats.game_stats; with `moves`,
    "moves" (a 2-D array of action ids, -1 after each game's end)."""
    n = game.players
    check_agents("Mouse Trap", agents, n, POLICIES)
    t = engine_tables(game)
    seed_arr = seed_array(seeds)
    count = len(seed_arr)
    policies = np.zeros(4, np.int64)
    policies[:n] = [POLICIES[a] for a in agents]
    move_arr = np.full((count, max_moves if moves else 1), -1, np.int64)
    S = np.zeros((count, STATE_SIZE), np.int64)
    mice = np.zeros((count, 4), np.int64)
    jams = np.zeros((count, max(1, len(game.stage_odds))), np.int64)
    args = (
        seed_arr,
        policies,
        t["params"],
        engine_tuple(t),
        game.supply,
        int(moves),
        move_arr,
        S,
        mice,
        jams,
    )
    in_threads(
        count,
        _play_threads(count),
        lambda lo, hi: _play(*args, lo, hi, np.zeros(1, np.uint64), np.zeros((3, 8), np.int64)),
    )
    cols: dict[str, Any] = {
        "winner": S[:, WINNER],
        "first_seat": S[:, FIRST_SEAT],
        "truncated": S[:, TRUNC].astype(bool),
        "length": S[:, N_DECISIONS],
        "actions": S[:, N_ACTIONS],
        "cranks": S[:, N_CRANKS],
        "captures": S[:, N_CAPTURES],
        "mice_caught": S[:, N_CAUGHT],
        "jams": jams.sum(axis=1),
        "cheese_paid": S[:, N_PAID],
        "steals": S[:, N_STEALS],
    }
    for i, stage in enumerate(STAGE_IDS):
        cols[f"jams_{stage}"] = jams[:, i]
    if moves:
        check_moves_kept(S[:, N_ACTIONS], max_moves)
        cols["moves"] = move_arr
    return cols


STAT_COLUMNS = (
    "cranks",
    "captures",
    "mice_caught",
    "jams",
    "cheese_paid",
    "steals",
    *(f"jams_{s}" for s in STAGE_IDS),
)


def play_batch(
    game: Any,
    agents: Sequence[str],
    seeds: Sequence[int],
    moves: bool = False,
    max_moves: int = 20000,
) -> list[dict[str, Any]]:
    """play_columns as rows (the form Game.play_batch gives): "winners", "returns", "length",
    "actions", "truncated", "ending" and the statistics; with `moves`, each game's "moves"."""
    cols = play_columns(game, agents, seeds, moves, max_moves)
    endings = ["truncated" if t else "last-mouse" for t in cols["truncated"].tolist()]
    return rows_from_columns(cols, game.players, endings, STAT_COLUMNS)


__all__ = [
    "POLICIES",
    "SharedStream",
    "play_batch",
    "play_columns",
    "sample_chance_from_stream",
    "stream_random",
]
