"""13 Dead End Drive's vector environment, backed by the batched engine (batch.py's compiled
rules, numba), not by N Python copies of the kernel; declared in the game's spec
(`GameSpec.vector_env`), registered by the Gymnasium adapter.

    import gymnasium as gym
    import trapworks.adapters.gymnasium  # registers the ids
    envs = gym.make_vec("trapworks/DeadEndDrive-v0", num_envs=256, players=4)
    obs, info = envs.reset(seed=0)
    actions = np.array([np.flatnonzero(m)[0] for m in envs.action_masks()])
    obs, rewards, terminated, truncated, info = envs.step(actions)

The same game, seat, opponents, observation (encoding.py's tensor, float for float: the seat's
own cards and of the others only counts), reward and illegal-move rule as the single environment
(trapworks.adapters.gymnasium.TrapworksEnv), `num_envs` games at once in compiled code. The step
functions here drive batch.py's rule functions (`_chance`, `_legal`, `_decide`) one decision of
the learning seat at a time and write the seat's observation from the engine's game vector.
Opponents are the engine's agents (batch.POLICIES: "random", and "heuristic", batch._heuristic:
the kernel's HeuristicAgent as `make_agent` makes it, move for move), one name for every other
seat or a list; any other is refused by name (Gymnasium's `vectorization_mode="sync"` copies
the single environment for those). An id outside the action space raises a ValueError naming
it; an id inside it that is not legal now ends that episode as a loss (-1,
`info["illegal_action"]`), the game left as it was, as the single environment does. A game
stopped by its turn limit is truncated (reward 0). Episodes that end are reset on the next step
(Gymnasium's next-step autoreset: that step's action is ignored, its reward is 0).
`info["action_mask"]` and `action_masks()` give each environment's legal actions.

Where the time goes (issue 31, `NUMBA_NUM_THREADS=1`, 4 players, random opponents, the
benchmark's policy; BENCHMARKS.md): over 90% of a step is batch.py's rules (the opponents' turns,
the dice, and for every move decision the searches for the pawns that can move and for their
destinations, the learning seat's own destinations for its mask included); writing the
observation about 5%; the Python side (checks, copies) too little to measure.

Randomness: environment i draws its deal, the dice, the portraits, its reshuffles and its
opponents' choices from its own SplitMix64 stream (batch.py's), seeded from `reset(seed=...)`
through `stream_seeds(seed, num_envs)`: the single environment's stream for seed + i. The single
environment deals from its stream as batch.py deals (`DeadEndDriveGame.new_initial_state_from`,
`deal_from_stream`) and draws the rest in the same order, so environment i plays the games of
the single environment reset with seed + i (what Gymnasium's SyncVectorEnv gives environment i),
step for step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trapworks.core.batch import batch_threads, in_threads
from trapworks.core.stream_jit import below as _below
from trapworks.core.stream_jit import rules as _rules
from trapworks.core.stream_jit import rules_inlined as _rules_inlined
from trapworks.core.stream_jit import rules_nogil as _rules_nogil
from trapworks.core.vector_env import BatchedVectorEnv, stream_seeds

from . import batch
from .batch import (
    CHARS,
    CYCLE,
    CYCLE_N,
    DETECTIVE_STEP,
    DIE0,
    DIE1,
    DISC,
    DISC_N,
    DRAWN,
    DREW,
    END_LIST,
    END_N,
    F_DEST,
    F_DRAWN,
    F_FIRST,
    F_OVER,
    F_REVEAL,
    F_ROLL,
    F_TRAP,
    G_SIZE,
    HAND_CARD,
    HAND_N,
    HAND_TURN,
    MAX_CARDS,
    MOVED,
    N_DECISIONS,
    NDICE,
    OPENING,
    OUT,
    P_PLAYERS,
    PHASE,
    PILE_N,
    PORTRAIT,
    POS,
    SECRET,
    SEL_COUNT,
    SEL_PAWN,
    T_MOVES,
    T_TRAP,
    TO_MOVE,
    TOTAL_OK,
    TRAP_PAWN,
    TRUNC,
    TURNS,
    UNSEEN,
    WINNER_PAWN,
    _chance,
    _decide,
    _destinations,
    _heuristic,
    _legal,
    _new_game,
    _popcount,
)
from .board import COLUMN_NAMES
from .components import CARD_NAMES, NUM_PAWNS, TOTAL_TRAP_PILE, TRAP_KINDS
from .game import DeadEndDriveGame

N_KINDS = len(CARD_NAMES)
N_TRAPS = len(TRAP_KINDS)
N_PHASES = 9  # encoding.PHASES, in the engine's phase numbers F_FIRST .. F_OVER


# --- compiled steps ---------------------------------------------------------------------------
@_rules_inlined
def _holder_or_secret(G: Any, n: int, pawn: int) -> int:
    """Whose Character card `pawn` is (a seat), else n (a secret card, or nobody's)."""
    for s in range(n):
        if (G[CHARS + s] >> pawn) & 1:
            return s
    return n


@_rules_inlined
def _decide_revealing(
    G: Any, T: Any, P: Any, st: Any, go: int, track_end: int, ids: Any, action: int, scratch: Any, rev: Any
) -> None:
    """batch._decide, noting each pawn knocked off by it and whose card it was (the kernel's
    `revealed`, which the observation shows and the engine does not keep)."""
    # Only a trap sprung knocks a pawn off: the pawn on the trap, in the trap or drawn-card phase.
    ph = G[PHASE]
    pawn = G[TRAP_PAWN] if ph == F_TRAP or ph == F_DRAWN else -1
    owner = _holder_or_secret(G, P[P_PLAYERS], pawn) if pawn >= 0 else -1
    _decide(G, T, P, st, go, track_end, ids, action, scratch)
    if pawn >= 0 and G[POS + pawn] < 0:
        rev[pawn] = owner


@_rules_inlined
def _advance(
    G: Any,
    T: Any,
    P: Any,
    st: Any,
    go: int,
    track_end: int,
    ids: Any,
    seat: int,
    legal: Any,
    scratch: Any,
    rev: Any,
    policy: Any,
    bluff: float,
) -> None:
    """Chance and the opponents play until the learning seat decides or the game ends. `policy`:
    each seat's agent (batch.POLICIES: 0 random, 1 the heuristic, batch._heuristic)."""
    while G[PHASE] != F_OVER:
        ph = G[PHASE]
        if ph == F_FIRST or ph == F_REVEAL or ph == F_ROLL:
            _chance(G, T, P, st, go, ids[8], ids[9], ids[10], scratch)
        elif G[TO_MOVE] == seat:
            return
        else:
            if policy[G[TO_MOVE]] == 1:
                action = _heuristic(G, T, P, st, go, ids, bluff, scratch)
            else:
                k = _legal(G, T, P, go, ids, legal)
                action = legal[_below(st, k)]
            G[N_DECISIONS] += 1
            _decide_revealing(G, T, P, st, go, track_end, ids, action, scratch, rev)


@_rules
def _observe(
    G: Any,
    T: Any,
    P: Any,
    go: int,
    track_end: int,
    ids: Any,
    seat: int,
    coords: Any,
    turn_limit: float,
    rev: Any,
    out: Any,
    mask: Any,
    legal: Any,
) -> None:
    """The seat's observation (encoding.py's DeadEndDriveEncoder.state_tensor, float for float)
    and its legal-action mask (all zero when it is not the seat's decision).

    No allocation: the card counts are summed in the observation itself (whole numbers, exact in
    float32) and divided there; the bits are counted by batch._popcount; a destination mask is
    marked from the search's list of ends, unsorted (_legal sorts it for the agents' choice)."""
    n = P[P_PLAYERS]
    per = n + 11
    out[:] = 0.0
    mask[:] = 0
    ph = G[PHASE]
    mine = G[CHARS + seat]
    moved = G[MOVED]
    portrait = G[PORTRAIT]
    sel = G[SEL_PAWN]
    trap_pawn = G[TRAP_PAWN]
    for p in range(NUM_PAWNS):
        b = p * per
        sq = G[POS + p]
        if sq < 0:
            out[b + 1] = 1.0
        else:
            out[b + (2 if sq == go else 0)] = 1.0
            out[b + 3] = coords[sq, 0]
            out[b + 4] = coords[sq, 1]
        if portrait == p:
            out[b + 5] = 1.0
        if rev[p] >= 0:
            out[b + 6 + rev[p]] = 1.0
        if (mine >> p) & 1:
            out[b + 7 + n] = 1.0
        if (moved >> p) & 1:
            out[b + 8 + n] = 1.0
        if sel == p:
            out[b + 9 + n] = 1.0
        if trap_pawn == p:
            out[b + 10 + n] = 1.0
    i = NUM_PAWNS * per
    out[i] = G[DETECTIVE_STEP] / max(1, track_end)
    unseen = _popcount(G[UNSEEN])
    out[i + 1] = (unseen + G[CYCLE_N]) / NUM_PAWNS
    out[i + 2] = unseen / NUM_PAWNS
    i += 3
    # removed portraits: every card neither unseen, behind the frame nor in it
    kept = G[UNSEEN]
    for j in range(G[CYCLE_N]):
        kept |= 1 << G[CYCLE + j]
    if portrait >= 0:
        kept |= 1 << portrait
    for p in range(NUM_PAWNS):
        if not (kept >> p) & 1:
            out[i + p] = 1.0
    i += NUM_PAWNS
    out_bits = G[OUT]
    for s in range(n):
        out[i] = _popcount(G[CHARS + s]) / 4
        out[i + 1] = G[HAND_N + s] / TOTAL_TRAP_PILE
        out[i + 2] = _popcount(G[SECRET + s]) / 4
        out[i + 3] = 1.0 if (out_bits >> s) & 1 else 0.0
        i += 4
    # the seat's hand by kind, and the cards it drew this turn: counted in place, then divided
    base = seat * MAX_CARDS
    drew = G[DREW]
    turns = G[TURNS]
    for j in range(G[HAND_N + seat]):
        card = G[HAND_CARD + base + j]
        out[i + card] += 1.0
        if drew and G[HAND_TURN + base + j] == turns:
            out[i + N_KINDS + card] += 1.0
    for k in range(2 * N_KINDS):
        out[i + k] = np.float64(out[i + k]) / TOTAL_TRAP_PILE
    i += 2 * N_KINDS
    if G[TO_MOVE] == seat and G[DRAWN] >= 0:
        out[i + G[DRAWN]] = 1.0
    i += 7
    for j in range(G[DISC_N]):
        out[i + G[DISC + j]] += 1.0
    for k in range(N_KINDS):
        out[i + k] = np.float64(out[i + k]) / TOTAL_TRAP_PILE
    i += N_KINDS
    out[i] = G[PILE_N] / TOTAL_TRAP_PILE
    i += 1
    out[i + ph] = 1.0
    i += N_PHASES
    deciding = not (ph == F_FIRST or ph == F_REVEAL or ph == F_ROLL or ph == F_OVER)
    if deciding:
        out[i + G[TO_MOVE]] = 1.0
    if ph != F_FIRST:  # the kernel's to_move is None until the roll-off
        out[i + n + G[TO_MOVE]] = 1.0
    out[i + 2 * n + seat] = 1.0
    i += 3 * n
    nd = G[NDICE]
    for d in range(min(2, nd)):
        v = G[DIE0 + d]
        if 1 <= v <= 6:
            out[i + 6 * d + v - 1] = 1.0
    i += 12
    if G[TOTAL_OK] and nd == 2:
        out[i] = (G[DIE0] + G[DIE1]) / 12
    if sel >= 0:
        out[i + 1] = G[SEL_COUNT] / 12
    i += 2
    if trap_pawn >= 0:
        out[i + T[T_TRAP][G[POS + trap_pawn]]] = 1.0
    i += N_TRAPS
    out[i] = 1.0 if drew else 0.0
    out[i + 1] = 1.0 if G[OPENING] else 0.0
    out[i + 2] = 1.0 if ph == F_OVER else 0.0
    out[i + 3] = 1.0 if G[TRUNC] else 0.0
    out[i + 4] = min(1.0, (turns + 1) / turn_limit)
    if deciding and G[TO_MOVE] == seat:
        if ph == F_DEST:  # the mask needs the ends, not _legal's order of them
            _destinations(G, P, T[T_MOVES], sel, G[SEL_COUNT], go)
            dest = ids[0]
            for j in range(G[END_N]):
                mask[dest + G[END_LIST + j]] = 1
        else:
            k = _legal(G, T, P, go, ids, legal)
            for j in range(k):
                mask[legal[j]] = 1


@_rules
def _winner_seat(G: Any, n: int) -> int:
    """The seat holding the winning pawn's Character card or its secret card; -1 for none."""
    wp = G[WINNER_PAWN]
    if wp < 0 or G[TRUNC]:
        return -1
    for s in range(n):
        if (G[CHARS + s] >> wp) & 1 or (G[SECRET + s] >> wp) & 1:
            return s
    return -1


@_rules
def _start(
    G: Any,
    T: Any,
    P: Any,
    st: Any,
    go: int,
    track_end: int,
    ids: Any,
    seat: int,
    legal: Any,
    scratch: Any,
    rev: Any,
    policy: Any,
    bluff: float,
) -> None:
    """A new game on the environment's stream, played to the learning seat's first decision."""
    _new_game(G, T, P, st)
    rev[:] = -1
    _advance(G, T, P, st, go, track_end, ids, seat, legal, scratch, rev, policy, bluff)


@_rules
def _step_env(
    e: int,
    actions: Any,
    S: Any,
    streams: Any,
    T: Any,
    P: Any,
    ids: Any,
    go: int,
    track_end: int,
    seat: int,
    coords: Any,
    turn_limit: float,
    policy: Any,
    bluff: float,
    lose: float,
    rev: Any,
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
    n = P[P_PLAYERS]
    G = S[e]
    legal = work[e, 0]
    scratch = work[e, 1]
    rewards[e] = 0.0
    terminated[e] = False
    truncated[e] = False
    illegal[e] = False
    if ended[e]:
        _start(G, T, P, streams[e], go, track_end, ids, seat, legal, scratch, rev[e], policy, bluff)
        ended[e] = G[PHASE] == F_OVER
    else:
        a = actions[e]
        if not mask[e, a]:  # the mask of the last observation: the game has not moved since
            illegal[e] = True
            terminated[e] = True
            rewards[e] = -1.0
            ended[e] = True
            return  # the observation and mask stay those of the unchanged game
        G[N_DECISIONS] += 1
        _decide_revealing(G, T, P, streams[e], go, track_end, ids, a, scratch, rev[e])
        _advance(G, T, P, streams[e], go, track_end, ids, seat, legal, scratch, rev[e], policy, bluff)
        if G[PHASE] == F_OVER:
            ended[e] = True
            if G[TRUNC]:
                truncated[e] = True
            else:
                terminated[e] = True
                rewards[e] = 1.0 if _winner_seat(G, n) == seat else lose
    _observe(G, T, P, go, track_end, ids, seat, coords, turn_limit, rev[e], obs[e], mask[e], legal)


@_rules_nogil
def _vector_steps(
    lo: int,
    hi: int,
    actions: Any,
    S: Any,
    streams: Any,
    T: Any,
    P: Any,
    ids: Any,
    go: int,
    track_end: int,
    seat: int,
    coords: Any,
    turn_limit: float,
    policy: Any,
    bluff: float,
    lose: float,
    rev: Any,
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
            streams,
            T,
            P,
            ids,
            go,
            track_end,
            seat,
            coords,
            turn_limit,
            policy,
            bluff,
            lose,
            rev,
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
    """One step of every environment. An environment that ended at the last step starts a new
    game instead (Gymnasium's next-step autoreset), and so a reset is this step with every
    environment `ended` (one compiled function, not two: half the cold compile). The other
    arguments: streams, T, P, ids, go, track_end, seat, coords, turn_limit, policy, bluff, lose,
    rev, ended, obs, mask, rewards, terminated, truncated, illegal and `work` (scratch rows, two
    per environment).

    Each environment reads and writes only its own rows and draws from its own stream; they are
    split into chunks run by Python threads (`_vector_steps` releases the GIL), not numba's
    parallel loop, whose lowering compiled the step code again (issue 42, as Mouse Trap's: the
    compile figures in BENCHMARKS.md). The rule functions are compiled without reference counts
    (`core.stream_jit.rules`), which made the serial loop as fast as the parallel one was."""
    count = S.shape[0]
    in_threads(
        count, batch_threads(count, _ENVS_PER_THREAD), lambda lo, hi: _vector_steps(lo, hi, actions, S, *rest)
    )


# A step is about 15 us an environment (4 players) and a thread pool's start ~100-300 us: threads
# pay from a few dozen environments on.
_ENVS_PER_THREAD = 64


# --- the environment ------------------------------------------------------------------------------
class DeadEndDriveVectorEnv(BatchedVectorEnv):
    """13 Dead End Drive for one learning seat in `num_envs` games at once (batch.py's engine)."""

    game_id = "dead-end-drive"
    title = "13 Dead End Drive"

    def __init__(
        self,
        num_envs: int = 1,
        game_id: str = "dead-end-drive",
        seat: int = 0,
        opponents: str | list[str] = "random",
        render_mode: str | None = None,
        **options: Any,
    ):
        game, others = self._open(num_envs, game_id, seat, opponents, render_mode, options, batch.POLICIES)
        assert isinstance(game, DeadEndDriveGame)
        t = batch.engine_tables(game)
        self._P = t["params"]
        self._T = t["tables"]
        self._ids = t["ids"]
        self._go = int(t["go"])
        self._track_end = int(t["track_end"])
        m = game.mansion
        coords = np.zeros((m.width * m.height, 2), np.float64)
        for sq in range(m.width * m.height):
            name = m.name(sq)
            coords[sq] = ((COLUMN_NAMES.index(name[0]) + 1) / m.width, int(name[1:]) / m.height)
        self._coords = coords
        self._turn_limit = float(game.options["turn_limit"])
        self._policy = np.zeros(game.num_players(), np.int64)  # each other seat's agent
        for s, name in others.items():
            self._policy[s] = batch.POLICIES[name]
        self._bluff = float(batch.H_BLUFF)  # the kernel heuristic's default, as make_agent makes it
        self._S = np.zeros((num_envs, G_SIZE), np.int64)
        self._streams = np.zeros((num_envs, 1), np.uint64)
        self._rev = np.full((num_envs, NUM_PAWNS), -1, np.int64)
        self._ended = np.zeros(num_envs, np.bool_)
        self._work = np.zeros((num_envs, 2, batch.N_SQ + 8), np.int64)  # legal lists, scratch

    def _engine(self) -> tuple[Any, ...]:
        # The engine's game arrays and settings, as vector_step takes them.
        return (
            self._S,
            self._streams,
            self._T,
            self._P,
            self._ids,
            self._go,
            self._track_end,
            self.seat,
            self._coords,
            self._turn_limit,
            self._policy,
            self._bluff,
        )

    def _reset_into(self, seeds: np.ndarray) -> None:
        self._streams[:, 0] = seeds
        self._ended[:] = True  # the step's autoreset starts every game
        self._step_into(np.zeros(self.num_envs, np.int64))

    def _step_into(self, actions: np.ndarray) -> None:
        run: Any = vector_step  # the compiled step, in chunks of environments
        run(
            actions,
            *self._engine(),
            self._lose,
            self._rev,
            self._ended,
            self._obs,
            self._mask,
            self._rewards,
            self._terminated,
            self._truncated,
            self._illegal,
            self._work,
        )


__all__ = ["DeadEndDriveVectorEnv", "stream_seeds"]
