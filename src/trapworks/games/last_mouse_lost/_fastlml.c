/* Last Mouse Lost's compiled engine: the one compiled copy of the rules of a press.
 *
 * The rules (which presses are legal, which mice a press takes, and what the end of a round
 * decides) are the plain C functions lml_legal (with lml_count and lml_kth, its list's length
 * and k-th entry without listing it), lml_press and lml_round_end below, written once and
 * inlined by the compiler into their two callers: `Core`, the base class of a compiled state
 * (single states: is_terminal, legal_actions, apply_action and clone in C), and `play_batch`,
 * the match loop of batches (whole matches, one per seed, with the random and heuristic
 * policies; batch.py prepares its arrays). `engine_addresses()` exports them for ctypes tests.
 * The Python rules in game.py (the checked path) are the reference: every case but "a legal
 * press by the seat to move" is handed back to them (_slow_legal_actions, _reference_apply),
 * and tests/last_mouse_lost/test_fast.py compares this engine with them over random games and
 * random positions. Boards of up to 64 mice (one 64-bit integer).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_ROWS 64
#define MAX_ACTIONS 1088 /* 64 mice: at most 4 rows of 16, 136 runs each (advanced) */

/* ---------------------------------------------------------------- Spec ---------------- */

typedef struct {
    PyObject_HEAD
    int advanced;
    int nrows;
    int nactions;
    int row_shift[MAX_ROWS];
    int row_len[MAX_ROWS];
    int row_first[MAX_ROWS];   /* first action id of the row */
    int row_nacts[MAX_ROWS];   /* how many action ids the row has */
    int act_row[MAX_ACTIONS];
    int act_shift[MAX_ACTIONS];
    uint64_t act_rowmask[MAX_ACTIONS]; /* the row's full mask, unshifted */
    int act_count[MAX_ACTIONS];        /* basic: how many mice */
    uint64_t act_mask[MAX_ACTIONS];    /* advanced: the run, shifted onto the board */
    PyObject *ids;                     /* tuple of the action ids as Python ints */
} SpecObject;

static void Spec_dealloc(SpecObject *self) {
    Py_XDECREF(self->ids);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int read_ints(PyObject *seq, int *out, int max, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: too many entries", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* Spec(advanced, row_lengths, row_first_action, action_row, action_count, action_mask) */
static PyObject *Spec_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    int advanced;
    PyObject *lengths, *firsts, *arow, *acount, *amask;
    if (!PyArg_ParseTuple(args, "pOOOOO", &advanced, &lengths, &firsts, &arow, &acount, &amask))
        return NULL;
    SpecObject *self = (SpecObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    self->advanced = advanced;
    int rows[MAX_ACTIONS], masks[MAX_ACTIONS];
    int n = read_ints(lengths, self->row_len, MAX_ROWS, "row lengths");
    if (n < 0 || read_ints(firsts, self->row_first, MAX_ROWS, "row first actions") != n) goto fail;
    self->nrows = n;
    int shift = 0;
    for (int r = 0; r < n; r++) {
        if (self->row_len[r] < 1 || self->row_len[r] > 16) {
            PyErr_SetString(PyExc_ValueError, "a row holds 1 to 16 mice");
            goto fail;
        }
        self->row_shift[r] = shift;
        shift += self->row_len[r];
    }
    if (shift > 64) {
        PyErr_SetString(PyExc_ValueError, "the board has more than 64 mice");
        goto fail;
    }
    int na = read_ints(arow, rows, MAX_ACTIONS, "action rows");
    if (na < 0 || read_ints(acount, self->act_count, MAX_ACTIONS, "action counts") != na ||
        read_ints(amask, masks, MAX_ACTIONS, "action masks") != na)
        goto fail;
    self->nactions = na;
    for (int r = 0; r < n; r++) self->row_nacts[r] = 0;
    for (int a = 0; a < na; a++) {
        int r = rows[a];
        if (r < 0 || r >= n) {
            PyErr_SetString(PyExc_ValueError, "an action's row is not on the board");
            goto fail;
        }
        self->row_nacts[r]++;
        self->act_row[a] = r;
        self->act_shift[a] = self->row_shift[r];
        self->act_rowmask[a] = (((uint64_t)1) << self->row_len[r]) - 1;
        self->act_mask[a] = ((uint64_t)(unsigned)masks[a]) << self->row_shift[r];
    }
    self->ids = PyTuple_New(na);
    if (!self->ids) goto fail;
    for (int a = 0; a < na; a++) {
        PyObject *v = PyLong_FromLong(a);
        if (!v) goto fail;
        PyTuple_SET_ITEM(self->ids, a, v);
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static PyObject *Spec_address(PyObject *self, PyObject *unused) {
    return PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)self);
}

static PyMethodDef Spec_methods[] = {
    {"address", (PyCFunction)Spec_address, METH_NOARGS,
     "Where this spec lives (for batch.py's calls; keep the Spec alive while they run)."},
    {NULL},
};

static PyTypeObject SpecType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "trapworks.games.last_mouse_lost._fastlml.Spec",
    .tp_basicsize = sizeof(SpecObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The action numbering of one (board, rules) pair, for Core.",
    .tp_new = Spec_new,
    .tp_dealloc = (destructor)Spec_dealloc,
    .tp_methods = Spec_methods,
};

/* ------------------------------------------------ The rules: one compiled copy ---------- */

/* The rule functions (RULE) are written once and inlined into each of their callers: the
 * batch's match loop (run_batch), a state's legal_actions and apply_action, and the ext_*
 * functions exported by address. Set bits of x: GCC's __builtin_popcountll is a library call
 * unless the build targets a CPU with POPCNT, which a portable build cannot assume, so on x86-64
 * those callers are built twice (ENGINE_CLONES), with POPCNT and without, and the loader picks
 * the one this CPU runs; elsewhere the builtin is whatever the compiler makes of it. */
#define popcount64(x) __builtin_popcountll(x)
#if defined(__GNUC__) && defined(__x86_64__) && defined(__linux__)
#define ENGINE_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define ENGINE_CLONES
#endif
#if defined(__GNUC__)
#define RULE static inline __attribute__((always_inline))
#else
#define RULE static inline
#endif

/* The legal press ids of `board`, ascending (row after row), written to `out`; returns how many. */
RULE int64_t lml_legal(const SpecObject *sp, uint64_t board, int64_t *out) {
    int64_t n = 0;
    for (int r = 0; r < sp->nrows; r++) {
        uint64_t raised = (board >> sp->row_shift[r]) & ((((uint64_t)1) << sp->row_len[r]) - 1);
        if (!raised) continue;
        int first = sp->row_first[r];
        if (sp->advanced) { /* a run of adjacent mice, all raised */
            int last = first + sp->row_nacts[r];
            for (int a = first; a < last; a++) {
                uint64_t m = sp->act_mask[a];
                if ((board & m) == m) out[n++] = a;
            }
        } else { /* basic: how many mice of the row, 1 to all raised ones */
            int k = popcount64(raised);
            for (int i = 0; i < k; i++) out[n++] = first + i;
        }
    }
    return n;
}

/* Per row value v < 2**16 (a row holds at most 16 mice): its mice; its runs (heaps under
 * advanced rules): how many, how many of 2 or more mice, their nim-sum (what the batch's
 * heuristic reads of a position); and how many advanced presses it has (n(n+1)/2 per run of
 * n). Filled when the module is imported. */
static int8_t stat_pop[1 << 16], stat_runs[1 << 16], stat_big[1 << 16], stat_nim[1 << 16];
static int16_t stat_presses[1 << 16];

static void fill_row_stats(void) {
    for (int v = 0; v < (1 << 16); v++) {
        int pop = 0, runs = 0, big = 0, nim = 0, presses = 0, i = 0;
        while (i < 16) {
            if (v >> i & 1) {
                int j = i;
                while (j < 16 && (v >> j & 1)) j++;
                int n = j - i;
                pop += n;
                runs++;
                if (n >= 2) big++;
                nim ^= n;
                presses += n * (n + 1) / 2;
                i = j;
            } else {
                i++;
            }
        }
        stat_pop[v] = (int8_t)pop;
        stat_runs[v] = (int8_t)runs;
        stat_big[v] = (int8_t)big;
        stat_nim[v] = (int8_t)nim;
        stat_presses[v] = (int16_t)presses;
    }
}

/* How many presses of a row are legal with its raised mice `raised` (basic: one per raised
 * mouse; advanced: every run of adjacent raised mice, n(n+1)/2 in a run of n, from the table). */
RULE int64_t row_count(const SpecObject *sp, uint64_t raised) {
    return sp->advanced ? stat_presses[raised] : popcount64(raised);
}

/* How many legal presses `board` has: the length of lml_legal's list. */
RULE int64_t lml_count(const SpecObject *sp, uint64_t board) {
    if (!sp->advanced) return popcount64(board);
    int64_t n = 0;
    for (int r = 0; r < sp->nrows; r++)
        n += row_count(sp, (board >> sp->row_shift[r]) & ((((uint64_t)1) << sp->row_len[r]) - 1));
    return n;
}

/* The k-th (from 0) entry of lml_legal's list, found without listing it; -1 past its end. */
RULE int64_t lml_kth(const SpecObject *sp, uint64_t board, int64_t k) {
    if (!sp->advanced) { /* every row, no early exit: a random k costs no mispredicted branch */
        int64_t found = -1;
        for (int r = 0; r < sp->nrows; r++) {
            int64_t here = popcount64((board >> sp->row_shift[r]) & ((((uint64_t)1) << sp->row_len[r]) - 1));
            found = (uint64_t)k < (uint64_t)here ? sp->row_first[r] + k : found; /* 0 <= k < here */
            k -= here;
        }
        return found;
    }
    for (int r = 0; r < sp->nrows && k >= 0; r++) {
        uint64_t raised = (board >> sp->row_shift[r]) & ((((uint64_t)1) << sp->row_len[r]) - 1);
        int64_t here = row_count(sp, raised);
        if (k >= here) {
            k -= here;
            continue;
        }
        if (!sp->advanced) return sp->row_first[r] + k;
        /* advanced ids run over (start, length), start first: scan the raised starts */
        int n = sp->row_len[r];
        for (int start = 0; start < n; start++) {
            if (!(raised >> start & 1)) continue;
            uint64_t rest = raised >> start;
            int len = (~rest == 0) ? 64 - start : __builtin_ctzll(~rest); /* runs from `start` */
            if (k < len) return sp->row_first[r] + start * n - start * (start - 1) / 2 + k;
            k -= len;
        }
    }
    return -1;
}

/* The mice (bits of the board) that press `a` takes from `board`; 0 when it is not legal there. */
RULE uint64_t lml_press(const SpecObject *sp, uint64_t board, int64_t a) {
    if (a < 0 || a >= sp->nactions) return 0;
    if (sp->advanced) {
        uint64_t m = sp->act_mask[a];
        return (board & m) == m ? m : 0;
    }
    uint64_t raised = (board >> sp->act_shift[a]) & sp->act_rowmask[a];
    int count = sp->act_count[a];
    int p = popcount64(raised);
    if (count > p) return 0;
    /* basic rules: the `count` rightmost raised mice (game.py's rightmost(): highest bits). In
     * play from a full row the raised mice are the row's first p: those are the top `count`. */
    if (!(raised & (raised + 1))) return (raised ^ ((((uint64_t)1) << (p - count)) - 1)) << sp->act_shift[a];
    uint64_t press = 0;
    for (int i = 0; i < count; i++) {
        uint64_t top = ((uint64_t)1) << (63 - __builtin_clzll(raised));
        press |= top;
        raised ^= top;
    }
    return press << sp->act_shift[a];
}

enum { OPENER_ALTERNATE, OPENER_LOSER, OPENER_WINNER, OPENER_SAME };

/* The end of a round: the mover pressed the last mouse and loses it. m = [score of seat 0, of
 * seat 1, mover, this round's opener, first_to, opener rule]: the winner's score goes up; returns
 * 1 when that wins the match, else 0 with m[3] set to who opens the next round. */
RULE int64_t lml_round_end(int64_t *m) {
    int64_t mover = m[2], winner = 1 - mover;
    m[winner] += 1;
    if (m[winner] >= m[4]) return 1;
    switch (m[5]) {
    case OPENER_ALTERNATE: m[3] = 1 - m[3]; break;
    case OPENER_LOSER: m[3] = mover; break;
    case OPENER_WINNER: m[3] = winner; break;
    default: break; /* the same opener */
    }
    return 0;
}

/* The same functions by address (ctypes, in the tests): 64-bit integers in and out (the board
 * as a signed one), the spec and arrays by address. */
ENGINE_CLONES static int64_t ext_legal(int64_t spec, int64_t board, int64_t out) {
    return lml_legal((const SpecObject *)(intptr_t)spec, (uint64_t)board, (int64_t *)(intptr_t)out);
}
ENGINE_CLONES static int64_t ext_press(int64_t spec, int64_t board, int64_t a) {
    return (int64_t)lml_press((const SpecObject *)(intptr_t)spec, (uint64_t)board, a);
}
static int64_t ext_round_end(int64_t m) { return lml_round_end((int64_t *)(intptr_t)m); }
ENGINE_CLONES static int64_t ext_count(int64_t spec, int64_t board) {
    return lml_count((const SpecObject *)(intptr_t)spec, (uint64_t)board);
}
ENGINE_CLONES static int64_t ext_kth(int64_t spec, int64_t board, int64_t k) {
    return lml_kth((const SpecObject *)(intptr_t)spec, (uint64_t)board, k);
}
/* The k-th legal press played: its id written to *action, the board after it returned. */
ENGINE_CLONES static int64_t ext_play_kth(int64_t spec, int64_t board, int64_t k, int64_t action) {
    const SpecObject *sp = (const SpecObject *)(intptr_t)spec;
    int64_t a = lml_kth(sp, (uint64_t)board, k);
    *(int64_t *)(intptr_t)action = a;
    return (int64_t)((uint64_t)board ^ lml_press(sp, (uint64_t)board, a));
}

static PyObject *engine_addresses(PyObject *module, PyObject *unused) {
    return Py_BuildValue("{s:K,s:K,s:K,s:K,s:K,s:K}", "legal", (unsigned long long)(uintptr_t)&ext_legal,
                         "press", (unsigned long long)(uintptr_t)&ext_press, "round_end",
                         (unsigned long long)(uintptr_t)&ext_round_end, "count",
                         (unsigned long long)(uintptr_t)&ext_count, "kth",
                         (unsigned long long)(uintptr_t)&ext_kth, "play_kth",
                         (unsigned long long)(uintptr_t)&ext_play_kth);
}

/* ------------------------------------------- Batches: whole matches in one C loop ---------- */

/* The batch's random stream: SplitMix64, one per game seeded with its seed (core/stream.py's
 * SharedStream); a choice among n items takes item ((draw >> 32) * n) >> 32. */
static inline uint64_t stream_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static inline int64_t stream_below(uint64_t *s, int64_t n) {
    return (int64_t)(((stream_next(s) >> 32) * (uint64_t)n) >> 32);
}

/* Advanced ids run over (start, length) in order: runs with a smaller start come first. */
static inline int64_t run_id(const SpecObject *sp, int r, int start, int length) {
    int n = sp->row_len[r];
    return sp->row_first[r] + start * n - start * (start - 1) / 2 + length - 1;
}

static inline uint64_t row_bits(const SpecObject *sp, uint64_t board, int r) {
    return (board >> sp->row_shift[r]) & ((((uint64_t)1) << sp->row_len[r]) - 1);
}

/* agents.HeuristicAgent.choose, decision for decision (the same draws from the stream): the
 * misère-Nim endgame rule (solver.solve's move), else a press that hands the opponent a lost
 * endgame, else one that gives no endgame away, else any. `legal`: the engine's legal list of
 * `board` (n_legal > 0 of them); `afters[k]`: the board after the k-th. */
static inline int64_t heuristic_press(const SpecObject *sp, uint64_t board, const int64_t *legal,
                               int64_t n_legal, const uint64_t *afters, int64_t *win,
                               int64_t *safe, uint64_t *st) {
    int advanced = sp->advanced, n_rows = sp->nrows;
    int heaps = 0, bigs = 0, nim_all = 0;
    for (int r = 0; r < n_rows; r++) {
        uint64_t v = row_bits(sp, board, r);
        if (advanced) {
            heaps += stat_runs[v];
            bigs += stat_big[v];
            nim_all ^= stat_nim[v];
        } else if (v) {
            heaps += 1;
            bigs += stat_pop[v] >= 2;
            nim_all ^= stat_pop[v];
        }
    }
    /* The endgame (at most one heap of 2 or more): solver.solve's move, when it has one. */
    if (bigs == 0 && heaps % 2 == 0) {
        for (int r = 0; r < n_rows; r++) { /* the first heap: a single mouse; press it */
            uint64_t v = row_bits(sp, board, r);
            if (!v) continue;
            if (!advanced) return sp->row_first[r];
            return run_id(sp, r, __builtin_ctzll(v), 1);
        }
    }
    if (bigs == 1) {
        int leave = (heaps - 1) % 2 == 0 ? 1 : 0;
        for (int r = 0; r < n_rows; r++) {
            uint64_t v = row_bits(sp, board, r);
            if (!v) continue;
            if (!advanced) {
                int size = stat_pop[v];
                if (size >= 2) return sp->row_first[r] + size - leave - 1;
                continue;
            }
            int n = sp->row_len[r], i = 0;
            while (i < n) {
                if (v >> i & 1) {
                    int j = i;
                    while (j < n && (v >> j & 1)) j++;
                    if (j - i >= 2) /* press the run's rightmost mice, leave `leave` at its left */
                        return run_id(sp, r, i + leave, j - i - leave);
                    i = j;
                } else {
                    i++;
                }
            }
        }
    }
    /* One move ahead: a press that leaves the opponent a lost endgame, else a safe one. */
    int64_t n_win = 0, n_safe = 0;
    for (int64_t k = 0; k < n_legal; k++) {
        int64_t a = legal[k];
        uint64_t after = afters[k];
        if (!after) continue; /* presses the last mouse: the round is lost */
        int r = sp->act_row[a];
        uint64_t v = row_bits(sp, board, r), w = row_bits(sp, after, r);
        int a_heaps, a_big, a_nim;
        if (advanced) {
            a_heaps = heaps - stat_runs[v] + stat_runs[w];
            a_big = bigs - stat_big[v] + stat_big[w];
            a_nim = nim_all ^ stat_nim[v] ^ stat_nim[w];
        } else {
            a_heaps = heaps - (v != 0) + (w != 0);
            a_big = bigs - (stat_pop[v] >= 2) + (stat_pop[w] >= 2);
            a_nim = nim_all ^ stat_pop[v] ^ stat_pop[w];
        }
        if (a_big > 1) {
            safe[n_safe++] = a;
        } else {
            int opp_wins = a_big ? a_nim != 0 : a_heaps % 2 == 0; /* solver.mover_wins */
            if (!opp_wins) win[n_win++] = a;
        }
    }
    if (n_win) return win[stream_below(st, n_win)];
    if (n_safe) return safe[stream_below(st, n_safe)];
    return legal[stream_below(st, n_legal)];
}

enum { POLICY_RANDOM, POLICY_HEURISTIC };

/* Whole matches, one per seed, each from the full board (the rules: lml_count, lml_kth,
 * lml_legal, lml_press, lml_round_end, the functions single states run). first_player 2: the
 * chance node (who opens round 1, 1/2 each; outcome i recorded as action nactions + i). Writes
 * each game's winner, length (moves, the chance outcome included), rounds and rounds won by
 * their opener; with `moves` (max_len per game, -1 filled by the caller) its actions. Returns
 * -1 when a game runs past max_len, else 0. */
ENGINE_CLONES static int run_batch(const SpecObject *sp, uint64_t full, int first_to,
                                   int opener_rule, int first_player, const int *policy,
                                   const uint64_t *seeds, Py_ssize_t n_games, int8_t *winner_out,
                                   int32_t *length_out, int32_t *rounds_out,
                                   int32_t *opener_wins_out, int32_t *moves, Py_ssize_t max_len) {
    int64_t legal[MAX_ACTIONS], win[MAX_ACTIONS], safe[MAX_ACTIONS];
    uint64_t afters[MAX_ACTIONS];
    for (Py_ssize_t g = 0; g < n_games; g++) {
        uint64_t st = seeds[g];
        int32_t *played = moves ? moves + g * max_len : NULL;
        Py_ssize_t length = 0;
        int64_t to_move;
        if (first_player == 2) {
            to_move = stream_below(&st, 2);
            if (played) {
                if (max_len < 1) return -1;
                played[0] = (int32_t)(sp->nactions + to_move);
            }
            length = 1;
        } else {
            to_move = first_player;
        }
        int64_t m[6] = {0, 0, 0, to_move, first_to, opener_rule};
        int32_t opener_wins = 0;
        uint64_t bits = full;
        for (;;) {
            int64_t a;
            if (policy[to_move] == POLICY_RANDOM) { /* the k-th legal press, found without listing them */
                a = lml_kth(sp, bits, stream_below(&st, lml_count(sp, bits)));
            } else {
                int64_t n_legal = lml_legal(sp, bits, legal);
                for (int64_t k = 0; k < n_legal; k++) afters[k] = bits ^ lml_press(sp, bits, legal[k]);
                a = heuristic_press(sp, bits, legal, n_legal, afters, win, safe, &st);
            }
            bits ^= lml_press(sp, bits, a);
            if (played) {
                if (length >= max_len) return -1;
                played[length] = (int32_t)a;
            }
            length++;
            if (bits) {
                to_move ^= 1;
                continue;
            }
            /* The mover pressed the last mouse: the engine ends the round. */
            int64_t opener = m[3];
            m[2] = to_move;
            int64_t over = lml_round_end(m);
            if (1 - to_move == opener) opener_wins++;
            if (over) {
                winner_out[g] = (int8_t)(1 - to_move);
                break;
            }
            bits = full;
            to_move = m[3];
        }
        length_out[g] = (int32_t)length;
        rounds_out[g] = (int32_t)(m[0] + m[1]);
        opener_wins_out[g] = opener_wins;
    }
    return 0;
}

/* play_batch(spec, full_board, first_to, opener_rule, first_player, policies, seeds, winner,
 * length, rounds, opener_wins, moves, max_len): batch.py's call. policies: two ints (0 random,
 * 1 heuristic); seeds: uint64 buffer; the outputs: writable C-contiguous buffers, int8 winner
 * and int32 the rest, one entry per seed (moves: max_len per seed, or empty). */
static PyObject *play_batch(PyObject *module, PyObject *args) {
    SpecObject *sp;
    unsigned long long full;
    int first_to, opener_rule, first_player, policy[2];
    Py_ssize_t max_len;
    Py_buffer b[6] = {{0}}; /* seeds, winner, length, rounds, opener_wins, moves */
    if (!PyArg_ParseTuple(args, "O!Kiii(ii)y*w*w*w*w*w*n", &SpecType, &sp, &full, &first_to,
                          &opener_rule, &first_player, &policy[0], &policy[1], &b[0], &b[1], &b[2],
                          &b[3], &b[4], &b[5], &max_len))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = b[0].len / 8;
    const char *bad = NULL;
    if (b[0].len % 8) bad = "seeds: a buffer of 64-bit integers";
    else if (b[1].len != n) bad = "winner: one int8 per seed";
    else if (b[2].len != 4 * n || b[3].len != 4 * n || b[4].len != 4 * n)
        bad = "length, rounds, opener_wins: one int32 per seed";
    else if (max_len < 0 || (b[5].len != 0 && b[5].len != 4 * n * max_len))
        bad = "moves: max_len int32 per seed, or empty";
    else if (first_to < 1 || opener_rule < OPENER_ALTERNATE || opener_rule > OPENER_SAME ||
             first_player < 0 || first_player > 2)
        bad = "first_to is at least 1, opener rule 0 to 3, first player 0, 1 or 2 (random)";
    else if (policy[0] < 0 || policy[0] > 1 || policy[1] < 0 || policy[1] > 1)
        bad = "a policy is 0 (random) or 1 (heuristic)";
    else if (!full)
        bad = "the full board has no mice";
    if (bad) {
        PyErr_SetString(PyExc_ValueError, bad);
        goto done;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = run_batch(sp, (uint64_t)full, first_to, opener_rule, first_player, policy,
                   (const uint64_t *)b[0].buf, n, (int8_t *)b[1].buf, (int32_t *)b[2].buf,
                   (int32_t *)b[3].buf, (int32_t *)b[4].buf,
                   b[5].len ? (int32_t *)b[5].buf : NULL, max_len);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        PyErr_SetString(PyExc_ValueError, "a game ran past max_len moves");
        goto done;
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    for (int i = 0; i < 6; i++)
        if (b[i].obj) PyBuffer_Release(&b[i]);
    return result;
}

/* ---------------------------------------------------------------- Core ---------------- */

/* Names of the Python methods the hot path hands over to, and of the attributes the end of a
 * round sets (interned at import). */
static PyObject *str_slow_legal, *str_checked_apply;
static PyObject *str_score, *str_last_round, *str_events_at, *str_events, *str_round_opener;
static PyObject *str_ev_round_over, *str_ev_match_over, *str_ev_round_start;

typedef struct {
    PyObject_HEAD
    uint64_t board;
    uint64_t full_board; /* the board a new round starts from */
    int to_move;
    int first_to;        /* round wins that take the match */
    int opener_rule;     /* who opens the next round: OPENER_* */
    char live;
    char over;
    PyObject *history;   /* list */
    PyObject *spec;      /* SpecObject or None */
} CoreObject;

static PyObject *Core_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    CoreObject *self = (CoreObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    self->history = PyList_New(0);
    if (!self->history) {
        Py_DECREF(self);
        return NULL;
    }
    Py_INCREF(Py_None);
    self->spec = Py_None;
    return (PyObject *)self;
}

static int Core_traverse(CoreObject *self, visitproc visit, void *arg) {
    Py_VISIT(self->history);
    Py_VISIT(self->spec);
    return 0;
}

static int Core_clear(CoreObject *self) {
    Py_CLEAR(self->history);
    Py_CLEAR(self->spec);
    return 0;
}

static void Core_dealloc(CoreObject *self) {
    PyObject_GC_UnTrack(self);
    Core_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static inline SpecObject *spec_of(CoreObject *self) {
    return Py_IS_TYPE(self->spec, &SpecType) ? (SpecObject *)self->spec : NULL;
}

/* The legal press ids of the board as a list (lml_legal's). */
ENGINE_CLONES static PyObject *legal_list(SpecObject *sp, uint64_t board) {
    int64_t buf[MAX_ACTIONS];
    int64_t n = lml_legal(sp, board, buf);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int64_t i = 0; i < n; i++) {
        PyObject *v = PyTuple_GET_ITEM(sp->ids, buf[i]);
        Py_INCREF(v);
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static PyObject *Core_is_terminal(CoreObject *self, PyObject *unused) {
    return PyBool_FromLong(self->over);
}

static PyObject *Core_legal_actions(CoreObject *self, PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kwnames) {
    PyObject *player = Py_None;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs + nkw > 1) {
        PyErr_SetString(PyExc_TypeError, "legal_actions() takes at most one argument (player)");
        return NULL;
    }
    if (nargs == 1) {
        player = args[0];
    } else if (nkw == 1) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, 0);
        if (!PyUnicode_Check(name) || PyUnicode_CompareWithASCIIString(name, "player") != 0) {
            PyErr_Format(PyExc_TypeError, "legal_actions() got an unexpected keyword argument %R", name);
            return NULL;
        }
        player = args[0];
    }
    SpecObject *sp = spec_of(self);
    if (self->live && sp) {
        if (player == Py_None) return legal_list(sp, self->board);
        if (Py_IS_TYPE(player, &PyLong_Type)) {
            int overflow;
            long p = PyLong_AsLongAndOverflow(player, &overflow);
            if (!overflow && p == self->to_move) return legal_list(sp, self->board);
        }
    }
    return PyObject_CallMethodOneArg((PyObject *)self, str_slow_legal, player);
}

/* A tuple of ints. */
static PyObject *int_tuple(int n, const long *v) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* (kind, *values): an event as game.py keeps it until read. */
static PyObject *event_tuple(PyObject *kind, int n, const long *v) {
    PyObject *t = PyTuple_New(n + 1);
    if (!t) return NULL;
    Py_INCREF(kind);
    PyTuple_SET_ITEM(t, 0, kind);
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i + 1, x);
    }
    return t;
}

static int set_steal(PyObject *obj, PyObject *name, PyObject *value) {
    if (!value) return -1;
    int rc = PyObject_SetAttr(obj, name, value);
    Py_DECREF(value);
    return rc;
}

/* The round ends: the mover pressed the last mouse (lml_round_end decides what follows); the
 * Python fields it changes are those of game.py's _round_over, with the events dated to the move
 * about to enter the history. Returns -1 on error. */
static int round_over(CoreObject *self) {
    PyObject *obj = (PyObject *)self;
    PyObject *score = PyObject_GetAttr(obj, str_score);
    if (!score) return -1;
    PyObject *ro = PyObject_GetAttr(obj, str_round_opener);
    if (!ro) {
        Py_DECREF(score);
        return -1;
    }
    int64_t m[6] = {0, 0, self->to_move, PyLong_AsLong(ro), self->first_to, self->opener_rule};
    Py_DECREF(ro);
    int ok = !PyErr_Occurred() && PyList_CheckExact(score) && PyList_GET_SIZE(score) == 2;
    for (int i = 0; ok && i < 2; i++) {
        m[i] = PyLong_AsLong(PyList_GET_ITEM(score, i));
        ok = !PyErr_Occurred();
    }
    if (!ok) {
        Py_DECREF(score);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "score is a list of two ints");
        return -1;
    }
    long mover = self->to_move, winner = 1 - mover;
    int match_over = (int)lml_round_end(m);
    PyObject *won = PyLong_FromLongLong(m[winner]);
    if (!won) {
        Py_DECREF(score);
        return -1;
    }
    PyList_SetItem(score, winner, won); /* steals `won` */
    Py_DECREF(score);
    long s0 = (long)m[0], s1 = (long)m[1], rnd = s0 + s1;
    long last[3] = {rnd, winner, mover};
    if (set_steal(obj, str_last_round, int_tuple(3, last)) < 0) return -1;
    if (set_steal(obj, str_events_at, PyLong_FromSsize_t(PyList_GET_SIZE(self->history) + 1)) < 0) return -1;
    long ended[5] = {rnd, winner, mover, s0, s1};
    PyObject *first = event_tuple(str_ev_round_over, 5, ended);
    PyObject *second;
    if (match_over) {
        self->over = 1;
        self->live = 0;
        long v[3] = {winner, s0, s1};
        second = event_tuple(str_ev_match_over, 3, v);
    } else {
        self->board = self->full_board; /* "Flip over the playing surface" */
        long opener = (long)m[3];
        if (set_steal(obj, str_round_opener, PyLong_FromLong(opener)) < 0) {
            Py_XDECREF(first);
            return -1;
        }
        self->to_move = (int)opener;
        long v[2] = {rnd + 1, opener};
        second = event_tuple(str_ev_round_start, 2, v);
    }
    if (!first || !second) {
        Py_XDECREF(first);
        Py_XDECREF(second);
        return -1;
    }
    PyObject *events = PyList_New(2);
    if (!events) {
        Py_DECREF(first);
        Py_DECREF(second);
        return -1;
    }
    PyList_SET_ITEM(events, 0, first);
    PyList_SET_ITEM(events, 1, second);
    return set_steal(obj, str_events, events);
}

/* The kernel's apply_action (core/game.py) for a legal press by the seat to move, compiled: the
 * press, then the history (a press reveals no outcome; its events, when it ends a round, are
 * dated by _events_at). Anything else goes to the kernel's own path (_reference_apply). */
ENGINE_CLONES static PyObject *Core_apply_action(CoreObject *self, PyObject *action) {
    SpecObject *sp = spec_of(self);
    if (self->live && sp && Py_IS_TYPE(action, &PyLong_Type)) {
        int overflow;
        long a = PyLong_AsLongAndOverflow(action, &overflow);
        uint64_t press = overflow ? 0 : lml_press(sp, self->board, a);
        if (press) {
            uint64_t board = self->board ^ press;
            self->board = board;
            if (board) {
                self->to_move ^= 1;
            } else if (round_over(self) < 0) {
                return NULL;
            }
            if (PyList_Append(self->history, action) < 0) return NULL;
            Py_RETURN_NONE;
        }
    } else if (PyErr_Occurred()) {
        return NULL;
    }
    return PyObject_CallMethodOneArg((PyObject *)self, str_checked_apply, action);
}

/* A copy: the C fields, the history list copied, and the instance dictionary copied with every
 * list in it copied (score, events) and every other value shared (the game, tables, tuples),
 * as the pure-Python clone does. */
static PyObject *Core_clone(CoreObject *self, PyObject *unused) {
    PyTypeObject *type = Py_TYPE(self);
    CoreObject *new = (CoreObject *)type->tp_alloc(type, 0);
    if (!new) return NULL;
    new->board = self->board;
    new->full_board = self->full_board;
    new->to_move = self->to_move;
    new->first_to = self->first_to;
    new->opener_rule = self->opener_rule;
    new->live = self->live;
    new->over = self->over;
    new->history = PyList_GetSlice(self->history, 0, PyList_GET_SIZE(self->history));
    Py_INCREF(self->spec);
    new->spec = self->spec;
    if (!new->history) goto fail;
    PyObject *src = PyObject_GenericGetDict((PyObject *)self, NULL);
    if (!src) goto fail;
    PyObject *dict = PyDict_Copy(src);
    Py_DECREF(src);
    if (!dict) goto fail;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(dict, &pos, &key, &value)) {
        if (Py_IS_TYPE(value, &PyList_Type)) {
            PyObject *copy = PyList_GetSlice(value, 0, PyList_GET_SIZE(value));
            if (!copy || PyDict_SetItem(dict, key, copy) < 0) { /* an existing key: no resize */
                Py_XDECREF(copy);
                Py_DECREF(dict);
                goto fail;
            }
            Py_DECREF(copy);
        }
    }
    int rc = PyObject_GenericSetDict((PyObject *)new, dict, NULL);
    Py_DECREF(dict);
    if (rc < 0) goto fail;
    return (PyObject *)new;
fail:
    Py_DECREF(new);
    return NULL;
}

static PyObject *Core_get_board(CoreObject *self, void *c) {
    return PyLong_FromUnsignedLongLong(self->board);
}

static int Core_set_board(CoreObject *self, PyObject *value, void *c) {
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "the board cannot be deleted");
        return -1;
    }
    if (!PyLong_Check(value) || PyBool_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "the board is an int");
        return -1;
    }
    unsigned long long b = PyLong_AsUnsignedLongLong(value);
    if (b == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    self->board = b;
    return 0;
}

static PyObject *Core_get_to_move(CoreObject *self, void *c) { return PyLong_FromLong(self->to_move); }

static int Core_set_to_move(CoreObject *self, PyObject *value, void *c) {
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "to_move cannot be deleted");
        return -1;
    }
    long v = PyLong_AsLong(value);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v != 0 && v != 1) {
        PyErr_SetString(PyExc_ValueError, "to_move is 0 or 1");
        return -1;
    }
    self->to_move = (int)v;
    return 0;
}

static PyObject *Core_get_over(CoreObject *self, void *c) { return PyBool_FromLong(self->over); }
static PyObject *Core_get_live(CoreObject *self, void *c) { return PyBool_FromLong(self->live); }

static int set_flag(char *flag, PyObject *value) {
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete this attribute");
        return -1;
    }
    int v = PyObject_IsTrue(value);
    if (v < 0) return -1;
    *flag = (char)v;
    return 0;
}

static int Core_set_over(CoreObject *self, PyObject *value, void *c) { return set_flag(&self->over, value); }
static int Core_set_live(CoreObject *self, PyObject *value, void *c) { return set_flag(&self->live, value); }

static PyObject *Core_get_history(CoreObject *self, void *c) {
    Py_INCREF(self->history);
    return self->history;
}

static int Core_set_history(CoreObject *self, PyObject *value, void *c) {
    if (!value || !PyList_CheckExact(value)) {
        PyErr_SetString(PyExc_TypeError, "the history is a list");
        return -1;
    }
    Py_INCREF(value);
    Py_SETREF(self->history, value);
    return 0;
}

static PyObject *Core_get_spec(CoreObject *self, void *c) {
    Py_INCREF(self->spec);
    return self->spec;
}

static int Core_set_spec(CoreObject *self, PyObject *value, void *c) {
    if (!value || (value != Py_None && !Py_IS_TYPE(value, &SpecType))) {
        PyErr_SetString(PyExc_TypeError, "_spec is a Spec or None");
        return -1;
    }
    Py_INCREF(value);
    Py_SETREF(self->spec, value);
    return 0;
}

/* _round_rules = (full board, first_to, opener rule number) */
static PyObject *Core_get_round_rules(CoreObject *self, void *c) {
    return Py_BuildValue("(Kii)", (unsigned long long)self->full_board, self->first_to, self->opener_rule);
}

static int Core_set_round_rules(CoreObject *self, PyObject *value, void *c) {
    unsigned long long full;
    int first_to, rule;
    if (!value || !PyArg_ParseTuple(value, "Kii", &full, &first_to, &rule)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "_round_rules is a 3-tuple");
        return -1;
    }
    if (rule < OPENER_ALTERNATE || rule > OPENER_SAME || first_to < 1) {
        PyErr_SetString(PyExc_ValueError, "no such opener rule, or first_to below 1");
        return -1;
    }
    self->full_board = full;
    self->first_to = first_to;
    self->opener_rule = rule;
    return 0;
}

static PyGetSetDef Core_getset[] = {
    {"_round_rules", (getter)Core_get_round_rules, (setter)Core_set_round_rules,
     "(full board, first_to, opener rule)", NULL},
    {"board", (getter)Core_get_board, (setter)Core_set_board, "raised mice, all rows in one integer", NULL},
    {"to_move", (getter)Core_get_to_move, (setter)Core_set_to_move, "the seat to move", NULL},
    {"match_over", (getter)Core_get_over, (setter)Core_set_over, "the match is over", NULL},
    {"_live", (getter)Core_get_live, (setter)Core_set_live, "a seat is to move", NULL},
    {"_history", (getter)Core_get_history, (setter)Core_set_history, "the actions so far", NULL},
    {"_spec", (getter)Core_get_spec, (setter)Core_set_spec, "the game's action numbering", NULL},
    {NULL},
};

static PyMethodDef Core_methods[] = {
    {"is_terminal", (PyCFunction)Core_is_terminal, METH_NOARGS, "True when the match is over."},
    {"legal_actions", (PyCFunction)(void (*)(void))Core_legal_actions, METH_FASTCALL | METH_KEYWORDS,
     "Legal actions of the player to move (a fresh list)."},
    {"apply_action", (PyCFunction)Core_apply_action, METH_O, "Apply a legal action."},
    {"clone", (PyCFunction)Core_clone, METH_NOARGS, "A copy of the state."},
    {NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "trapworks.games.last_mouse_lost._fastlml.Core",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The compiled hot path of a Last Mouse Lost state (a base class).",
    .tp_new = Core_new,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_traverse = (traverseproc)Core_traverse,
    .tp_clear = (inquiry)Core_clear,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

/* bind_methods(cls): give the final state class (a Python subclass of Core) its own copies of
 * Core's method descriptors. CPython 3.11 specialises a call to a C method only when the
 * instance's type is exactly the descriptor's type; inherited from Core, every call of the
 * playout loop would take the generic path (about twice the cost of the call itself). */
static PyObject *bind_methods(PyObject *module, PyObject *cls) {
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &CoreType)) {
        PyErr_SetString(PyExc_TypeError, "bind_methods() needs a subclass of Core");
        return NULL;
    }
    for (PyMethodDef *def = Core_methods; def->ml_name; def++) {
        PyObject *descr = PyDescr_NewMethod((PyTypeObject *)cls, def);
        if (!descr) return NULL;
        int rc = PyObject_SetAttrString(cls, def->ml_name, descr);
        Py_DECREF(descr);
        if (rc < 0) return NULL;
    }
    Py_RETURN_NONE;
}

/* ============================================================================================
 * BEGIN h31vec: the step-wise batched API (issue 31: Last Mouse Lost's vector environment)
 * --------------------------------------------------------------------------------------------
 * `vector_reset` and `vector_step` run N matches side by side, one step of the learning seat at
 * a time, for games/last_mouse_lost/vector_env.py (a gymnasium VectorEnv). Each match is the
 * single environment's (adapters/gymnasium.py's TrapworksEnv): chance and the opponent seat
 * (random or heuristic, the batch's own policies above, drawing from the match's stream) play
 * until the learning seat is to move or the match is over; then the seat's observation (the
 * encoder's tensor, encoding.py) and its legal-action mask are written. The rule functions are
 * the same ones (lml_count, lml_kth, lml_legal, lml_press, lml_round_end, heuristic_press).
 *
 * Per match, eight uint64 slots (the `state` buffer, N x 8): */
enum { VS_BOARD, VS_STREAM, VS_SCORE0, VS_SCORE1, VS_TO_MOVE, VS_OPENER, VS_ENDED, VS_SLOTS = 8 };
/* VS_ENDED: the match ended at the last step (or at reset); the next step starts a new one
 * (Gymnasium's next-step autoreset: that step's action is ignored, its reward is 0).
 *
 * config = (full board, first_to, opener rule, first player (2: drawn), policy of seat 0,
 * policy of seat 1, learning seat); the learning seat's own policy is not read. */
typedef struct {
    uint64_t full;
    int first_to, opener_rule, first_player, policy[2], seat;
    int width;          /* the widest row: the observation's grid is nrows x width */
    Py_ssize_t obs_size; /* nrows * width + 10 */
} VecConfig;

/* The learning seat's observation (encoding.py's tensor, float for float) and mask. */
static inline void vec_observe(const SpecObject *sp, const VecConfig *c, const uint64_t *S,
                               float *obs, int8_t *mask, int64_t *legal) {
    uint64_t board = S[VS_BOARD];
    int over = S[VS_ENDED] != 0;
    float *o = obs;
    for (int r = 0; r < sp->nrows; r++) {
        uint64_t v = row_bits(sp, board, r);
        for (int i = 0; i < c->width; i++) *o++ = (i < sp->row_len[r] && (v >> i & 1)) ? 1.0f : 0.0f;
    }
    int64_t to_move = (int64_t)S[VS_TO_MOVE];
    o[0] = !over && to_move == 0 ? 1.0f : 0.0f;
    o[1] = !over && to_move == 1 ? 1.0f : 0.0f;
    o[2] = c->seat == 0 ? 1.0f : 0.0f;
    o[3] = c->seat == 1 ? 1.0f : 0.0f;
    o[4] = (float)((double)(int64_t)S[VS_SCORE0] / (double)c->first_to);
    o[5] = (float)((double)(int64_t)S[VS_SCORE1] / (double)c->first_to);
    o[6] = S[VS_OPENER] == 0 ? 1.0f : 0.0f;
    o[7] = S[VS_OPENER] == 1 ? 1.0f : 0.0f;
    o[8] = 0.0f; /* the opening draw is never pending when the learning seat looks */
    o[9] = over ? 1.0f : 0.0f;
    memset(mask, 0, (size_t)sp->nactions);
    if (!over && to_move == c->seat) {
        int64_t n = lml_legal(sp, board, legal);
        for (int64_t k = 0; k < n; k++) mask[legal[k]] = 1;
    }
}

/* The press `a` by the seat to move; returns 1 when it ends the match (VS_ENDED set), else 0. */
static inline int vec_press(const SpecObject *sp, const VecConfig *c, uint64_t *S, int64_t a) {
    uint64_t board = S[VS_BOARD] ^ lml_press(sp, S[VS_BOARD], a);
    S[VS_BOARD] = board;
    if (board) {
        S[VS_TO_MOVE] ^= 1;
        return 0;
    }
    int64_t m[6] = {(int64_t)S[VS_SCORE0], (int64_t)S[VS_SCORE1], (int64_t)S[VS_TO_MOVE],
                    (int64_t)S[VS_OPENER], c->first_to, c->opener_rule};
    int64_t over = lml_round_end(m);
    S[VS_SCORE0] = (uint64_t)m[0];
    S[VS_SCORE1] = (uint64_t)m[1];
    if (over) {
        S[VS_ENDED] = 1;
        return 1;
    }
    S[VS_BOARD] = c->full; /* "Flip over the playing surface" */
    S[VS_OPENER] = (uint64_t)m[3];
    S[VS_TO_MOVE] = (uint64_t)m[3];
    return 0;
}

/* The opponent moves until the learning seat is to move or the match is over (1: over). */
static inline int vec_play_others(const SpecObject *sp, const VecConfig *c, uint64_t *S,
                                  int64_t *legal, int64_t *win, int64_t *safe, uint64_t *afters) {
    while ((int64_t)S[VS_TO_MOVE] != c->seat) {
        uint64_t bits = S[VS_BOARD];
        int64_t a;
        if (c->policy[S[VS_TO_MOVE]] == POLICY_RANDOM) {
            a = lml_kth(sp, bits, stream_below(&S[VS_STREAM], lml_count(sp, bits)));
        } else {
            int64_t n_legal = lml_legal(sp, bits, legal);
            for (int64_t k = 0; k < n_legal; k++) afters[k] = bits ^ lml_press(sp, bits, legal[k]);
            a = heuristic_press(sp, bits, legal, n_legal, afters, win, safe, &S[VS_STREAM]);
        }
        if (vec_press(sp, c, S, a)) return 1;
    }
    return 0;
}

/* A new match on the match's stream (S[VS_STREAM] already set): the opening draw, then the
 * opponent until the learning seat is to move. */
static inline void vec_new_match(const SpecObject *sp, const VecConfig *c, uint64_t *S,
                                 int64_t *legal, int64_t *win, int64_t *safe, uint64_t *afters) {
    int64_t opener = c->first_player == 2 ? stream_below(&S[VS_STREAM], 2) : c->first_player;
    S[VS_BOARD] = c->full;
    S[VS_SCORE0] = S[VS_SCORE1] = 0;
    S[VS_TO_MOVE] = S[VS_OPENER] = (uint64_t)opener;
    S[VS_ENDED] = 0;
    vec_play_others(sp, c, S, legal, win, safe, afters);
}

ENGINE_CLONES static void vec_reset_all(const SpecObject *sp, const VecConfig *c, uint64_t *state,
                                        const uint64_t *seeds, Py_ssize_t n, float *obs,
                                        int8_t *mask) {
    int64_t legal[MAX_ACTIONS], win[MAX_ACTIONS], safe[MAX_ACTIONS];
    uint64_t afters[MAX_ACTIONS];
    for (Py_ssize_t e = 0; e < n; e++) {
        uint64_t *S = state + e * VS_SLOTS;
        S[VS_STREAM] = seeds[e];
        vec_new_match(sp, c, S, legal, win, safe, afters);
        vec_observe(sp, c, S, obs + e * c->obs_size, mask + e * sp->nactions, legal);
    }
}

ENGINE_CLONES static void vec_step_all(const SpecObject *sp, const VecConfig *c, uint64_t *state,
                                       const int64_t *actions, Py_ssize_t n, float *obs,
                                       int8_t *mask, double *rewards, char *terminated,
                                       char *truncated, char *illegal) {
    int64_t legal[MAX_ACTIONS], win[MAX_ACTIONS], safe[MAX_ACTIONS];
    uint64_t afters[MAX_ACTIONS];
    for (Py_ssize_t e = 0; e < n; e++) {
        uint64_t *S = state + e * VS_SLOTS;
        rewards[e] = 0.0;
        terminated[e] = truncated[e] = illegal[e] = 0;
        if (S[VS_ENDED]) { /* next-step autoreset: the action is ignored */
            vec_new_match(sp, c, S, legal, win, safe, afters);
        } else {
            int64_t a = actions[e];
            if (a < 0 || a >= sp->nactions || !lml_press(sp, S[VS_BOARD], a)) {
                /* an illegal press: the match stays as it was and the episode ends as a loss */
                illegal[e] = terminated[e] = 1;
                rewards[e] = -1.0;
                vec_observe(sp, c, S, obs + e * c->obs_size, mask + e * sp->nactions, legal);
                S[VS_ENDED] = 1;
                continue;
            }
            int over = vec_press(sp, c, S, a) || vec_play_others(sp, c, S, legal, win, safe, afters);
            if (over) {
                /* the winner: the one who did not press the last mouse (the seat to move) */
                int winner = 1 - (int)S[VS_TO_MOVE];
                rewards[e] = winner == c->seat ? 1.0 : -1.0;
                terminated[e] = 1;
            }
        }
        vec_observe(sp, c, S, obs + e * c->obs_size, mask + e * sp->nactions, legal);
    }
}

/* The config tuple, checked, with the grid's width and the observation's size worked out. */
static int vec_config(const SpecObject *sp, PyObject *t, VecConfig *c) {
    unsigned long long full;
    if (!PyArg_ParseTuple(t, "Kiiiiii;config: (full board, first_to, opener rule, first player, "
                             "policy 0, policy 1, seat)",
                          &full, &c->first_to, &c->opener_rule, &c->first_player, &c->policy[0],
                          &c->policy[1], &c->seat))
        return -1;
    const char *bad = NULL;
    if (!full) bad = "the full board has no mice";
    else if (c->first_to < 1 || c->opener_rule < OPENER_ALTERNATE || c->opener_rule > OPENER_SAME ||
             c->first_player < 0 || c->first_player > 2)
        bad = "first_to is at least 1, opener rule 0 to 3, first player 0, 1 or 2 (random)";
    else if (c->policy[0] < 0 || c->policy[0] > 1 || c->policy[1] < 0 || c->policy[1] > 1)
        bad = "a policy is 0 (random) or 1 (heuristic)";
    else if (c->seat < 0 || c->seat > 1)
        bad = "the learning seat is 0 or 1";
    if (bad) {
        PyErr_SetString(PyExc_ValueError, bad);
        return -1;
    }
    c->full = full;
    c->width = 0;
    for (int r = 0; r < sp->nrows; r++)
        if (sp->row_len[r] > c->width) c->width = sp->row_len[r];
    c->obs_size = (Py_ssize_t)sp->nrows * c->width + 10;
    return 0;
}

/* Checks the buffers shared by both calls: state (N x 8 uint64), obs (N x size float32), mask
 * (N x actions int8); N is taken from state. */
static const char *vec_check(const SpecObject *sp, const VecConfig *c, Py_buffer *state,
                             Py_buffer *obs, Py_buffer *mask, Py_ssize_t *n) {
    if (state->len % (8 * VS_SLOTS)) return "state: 8 uint64 per environment";
    *n = state->len / (8 * VS_SLOTS);
    if (obs->len != *n * c->obs_size * 4) return "obs: one float32 row of the observation's size per environment";
    if (mask->len != *n * sp->nactions) return "mask: one int8 per action id per environment";
    return NULL;
}

/* vector_reset(spec, config, state, seeds, obs, mask): every environment starts a match from
 * its seed (the stream), plays to the learning seat's turn and writes its observation and mask. */
static PyObject *vector_reset(PyObject *module, PyObject *args) {
    SpecObject *sp;
    PyObject *config;
    Py_buffer b[4] = {{0}}; /* state, seeds, obs, mask */
    if (!PyArg_ParseTuple(args, "O!Ow*y*w*w*", &SpecType, &sp, &config, &b[0], &b[1], &b[2], &b[3]))
        return NULL;
    PyObject *result = NULL;
    VecConfig c;
    Py_ssize_t n = 0;
    if (vec_config(sp, config, &c) < 0) goto done;
    const char *bad = vec_check(sp, &c, &b[0], &b[2], &b[3], &n);
    if (!bad && b[1].len != 8 * n) bad = "seeds: one uint64 per environment";
    if (bad) {
        PyErr_SetString(PyExc_ValueError, bad);
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    vec_reset_all(sp, &c, (uint64_t *)b[0].buf, (const uint64_t *)b[1].buf, n, (float *)b[2].buf,
                  (int8_t *)b[3].buf);
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    result = Py_None;
done:
    for (int i = 0; i < 4; i++)
        if (b[i].obj) PyBuffer_Release(&b[i]);
    return result;
}

/* vector_step(spec, config, state, actions, obs, mask, rewards, terminated, truncated, illegal):
 * one step of every environment (actions: int64, one per environment; rewards float64; the
 * flags one byte each). An action that is not a legal press ends its episode as a loss (-1,
 * illegal set), the match left as it was, as the single environment does. */
static PyObject *vector_step(PyObject *module, PyObject *args) {
    SpecObject *sp;
    PyObject *config;
    Py_buffer b[8] = {{0}}; /* state, actions, obs, mask, rewards, terminated, truncated, illegal */
    if (!PyArg_ParseTuple(args, "O!Ow*y*w*w*w*w*w*w*", &SpecType, &sp, &config, &b[0], &b[1], &b[2],
                          &b[3], &b[4], &b[5], &b[6], &b[7]))
        return NULL;
    PyObject *result = NULL;
    VecConfig c;
    Py_ssize_t n = 0;
    if (vec_config(sp, config, &c) < 0) goto done;
    const char *bad = vec_check(sp, &c, &b[0], &b[2], &b[3], &n);
    if (!bad && b[1].len != 8 * n) bad = "actions: one int64 per environment";
    else if (!bad && b[4].len != 8 * n) bad = "rewards: one float64 per environment";
    else if (!bad && (b[5].len != n || b[6].len != n || b[7].len != n))
        bad = "terminated, truncated, illegal: one byte (bool) per environment";
    if (bad) {
        PyErr_SetString(PyExc_ValueError, bad);
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    vec_step_all(sp, &c, (uint64_t *)b[0].buf, (const int64_t *)b[1].buf, n, (float *)b[2].buf,
                 (int8_t *)b[3].buf, (double *)b[4].buf, (char *)b[5].buf, (char *)b[6].buf,
                 (char *)b[7].buf);
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    result = Py_None;
done:
    for (int i = 0; i < 8; i++)
        if (b[i].obj) PyBuffer_Release(&b[i]);
    return result;
}
/* END h31vec ================================================================================ */
/* ==================== observation tensor (issue 30, deliver 5; branch h30) ==================
 *
 tensor_writer(template, fallback) returns `state_tensor(state, seat)`, a builtin function that
 * writes the observation tensor of `seat` as a new float32 numpy array from a compiled state's
 * fields: bit for bit what encoding.py's view encoder writes from `state.view(seat)`
 * (tests/research/test_fast_tensors.py compares them on random states of every board).
 * `template` is a float32 array of the tensor's size (each result is its copy, so this file needs
 * no numpy headers); `fallback(state, seat)` answers for a state that is not a compiled one (the
 * pure-Python path, a board of more than 64 mice). The two are the builtin's `self` (a tuple),
 * so that a call goes from Python straight to C (no functools.partial in between). Layout: the rows x widest-row grid (1.0 for a
 * raised mouse), who is to move (2; none at the opening draw and at the end), the seat (2), the
 * score over first_to (2), the round's opener (2; none at the opening draw), the draw pending
 * (1), the match over (1). Last Mouse Lost has no secret, so every seat's tensor differs only in
 * the seat's one-hot. */
static PyObject *str_tensor_copy, *str_tensor_awaiting;
static PyObject *tensor_copy;           /* the template type's `copy` (a method descriptor) */
static PyTypeObject *tensor_copy_type;  /* ... of this type */

/* A small non-negative int attribute value as a C long (-1 with an error set if it is not). */
static int tensor_long(PyObject *v, long *out) {
    if (!PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "state_tensor: expected an int, got %R", v);
        return -1;
    }
    *out = PyLong_AsLong(v);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* The float32 values of `arr`, a fresh copy of `template` (a writable, C-contiguous array of
 * `size` float32 values). Asking numpy for a buffer costs about as much as the rest of the tensor
 * (it describes the array anew for every new array), so once per process the buffer protocol's
 * answer is compared with the data pointer that numpy's array struct holds right after the object
 * header (PyArrayObject_fields.data, the start of numpy's stable ABI); when they agree, copies of
 * the same type are read through that pointer from then on, else always through the protocol. */
static int tensor_abi = -1; /* -1 not yet known, 1 the struct's pointer is the data, 0 it is not */
static PyTypeObject *tensor_type;

static float *tensor_data(PyObject *arr, PyObject *template, Py_ssize_t size) {
    if (tensor_abi == 1 && Py_TYPE(arr) == tensor_type) return *(float **)((char *)arr + sizeof(PyObject));
    Py_buffer view;
    if (PyObject_GetBuffer(arr, &view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    int ok = view.itemsize == 4 && view.format && strcmp(view.format, "f") == 0 && view.len == size * 4;
    float *data = (float *)view.buf;
    PyBuffer_Release(&view);
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "state_tensor: the template is not %zd float32 values", size);
        return NULL;
    }
    if (tensor_abi == -1) {
        tensor_abi = Py_TYPE(arr) == Py_TYPE(template) && *(float **)((char *)arr + sizeof(PyObject)) == data;
        tensor_type = Py_TYPE(arr);
    }
    return data;
}

static PyObject *write_tensor(PyObject *template, Py_ssize_t tsize, PyObject *fallback, PyObject *state,
                              PyObject *seatobj) {
    SpecObject *sp = PyObject_TypeCheck(state, &CoreType) ? spec_of((CoreObject *)state) : NULL;
    CoreObject *core = (CoreObject *)state;
    if (!sp || core->first_to < 1) return PyObject_CallFunctionObjArgs(fallback, state, seatobj, NULL);
    long seat;
    if (tensor_long(seatobj, &seat) < 0) return NULL;
    if (!str_tensor_copy) {
        str_tensor_copy = PyUnicode_InternFromString("copy");
        str_tensor_awaiting = PyUnicode_InternFromString("awaiting_opener");
        if (!str_tensor_copy || !str_tensor_awaiting) return NULL;
    }
    /* The facts kept in the Python state's __dict__. */
    PyObject *v = PyObject_GetAttr(state, str_tensor_awaiting);
    if (!v) return NULL;
    int awaiting = PyObject_IsTrue(v);
    Py_DECREF(v);
    if (awaiting < 0) return NULL;
    long opener, s0, s1;
    v = PyObject_GetAttr(state, str_round_opener);
    if (!v) return NULL;
    int rc = tensor_long(v, &opener);
    Py_DECREF(v);
    if (rc < 0) return NULL;
    v = PyObject_GetAttr(state, str_score);
    if (!v) return NULL;
    PyObject *seq = PySequence_Fast(v, "state_tensor: the score is not a sequence");
    Py_DECREF(v);
    if (!seq) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != 2) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "state_tensor: the score has not two entries");
        return NULL;
    }
    rc = tensor_long(PySequence_Fast_GET_ITEM(seq, 0), &s0);
    if (rc == 0) rc = tensor_long(PySequence_Fast_GET_ITEM(seq, 1), &s1);
    Py_DECREF(seq);
    if (rc < 0) return NULL;

    int width = 0;
    for (int r = 0; r < sp->nrows; r++)
        if (sp->row_len[r] > width) width = sp->row_len[r];
    Py_ssize_t cells = (Py_ssize_t)sp->nrows * width, size = cells + 10;
    if (size != tsize) {
        PyErr_Format(PyExc_ValueError, "state_tensor: this state's tensor has %zd values, the encoder's %zd",
                     size, tsize);
        return NULL;
    }

    /* template.copy(), through the type's own method (looked up once per type). */
    if (Py_TYPE(template) != tensor_copy_type) {
        PyObject *m = _PyType_Lookup(Py_TYPE(template), str_tensor_copy);
        if (!m) {
            PyErr_SetString(PyExc_TypeError, "state_tensor: the template has no copy()");
            return NULL;
        }
        Py_INCREF(m);
        Py_XSETREF(tensor_copy, m);
        tensor_copy_type = Py_TYPE(template);
    }
    PyObject *arr = PyObject_Vectorcall(tensor_copy, &template, 1, NULL);
    if (!arr) return NULL;
    float *out = tensor_data(arr, template, size);
    if (!out) {
        Py_DECREF(arr);
        return NULL;
    }
    uint64_t board = core->board;
    for (int r = 0; r < sp->nrows; r++) {
        uint64_t row = board >> sp->row_shift[r];
        int n = sp->row_len[r];
        float *cell = out + (Py_ssize_t)r * width;
        for (int i = 0; i < width; i++) cell[i] = (i < n && (row >> i & 1)) ? 1.0f : 0.0f;
    }
    float *tail = out + cells;
    for (int i = 0; i < 10; i++) tail[i] = 0.0f;
    long to_move = (core->over || awaiting) ? -1 : core->to_move;
    if (to_move == 0 || to_move == 1) tail[to_move] = 1.0f;
    if (seat == 0 || seat == 1) tail[2 + seat] = 1.0f;
    /* As Python's s / first_to (a correctly rounded double), then rounded to float32. */
    tail[4] = (float)((double)s0 / (double)core->first_to);
    tail[5] = (float)((double)s1 / (double)core->first_to);
    if (!awaiting && (opener == 0 || opener == 1)) tail[6 + opener] = 1.0f;
    tail[8] = awaiting ? 1.0f : 0.0f;
    tail[9] = core->over ? 1.0f : 0.0f;
    return arr;
}

/* The bound writer: self is the tuple (template, fallback, the template's length). */
static PyObject *bound_state_tensor(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "state_tensor(state, seat) takes 2 arguments");
        return NULL;
    }
    return write_tensor(PyTuple_GET_ITEM(self, 0), PyLong_AsSsize_t(PyTuple_GET_ITEM(self, 2)),
                        PyTuple_GET_ITEM(self, 1), args[0], args[1]);
}

static PyMethodDef bound_state_tensor_def = {
    "state_tensor", (PyCFunction)(void (*)(void))bound_state_tensor, METH_FASTCALL,
    "state_tensor(state, seat): the seat's observation tensor as float32 (encoding.py's layout)."};

static PyObject *tensor_writer(PyObject *module, PyObject *args) {
    PyObject *template, *fallback;
    if (!PyArg_ParseTuple(args, "OO:tensor_writer", &template, &fallback)) return NULL;
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "tensor_writer: the fallback is not callable");
        return NULL;
    }
    /* The template: a writable, C-contiguous, one-dimensional float32 array (its copies are too). */
    Py_buffer view;
    if (PyObject_GetBuffer(template, &view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_ND | PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    int ok = view.ndim == 1 && view.itemsize == 4 && view.format && strcmp(view.format, "f") == 0;
    Py_ssize_t n = view.len / 4;
    PyBuffer_Release(&view);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "tensor_writer: the template is not a one-dimensional float32 array");
        return NULL;
    }
    PyObject *len = PyLong_FromSsize_t(n);
    if (!len) return NULL;
    PyObject *self = PyTuple_Pack(3, template, fallback, len);
    Py_DECREF(len);
    if (!self) return NULL;
    PyObject *f = PyCFunction_NewEx(&bound_state_tensor_def, self, NULL);
    Py_DECREF(self);
    return f;
}
/* ==================== end of the observation tensor block (h30) ============================= */

static PyMethodDef module_methods[] = {
    {"bind_methods", (PyCFunction)bind_methods, METH_O, "Copy Core's methods onto a final subclass."},
    {"engine_addresses", (PyCFunction)engine_addresses, METH_NOARGS,
     "Addresses of the rule functions (legal, press, round_end, count, kth, play_kth), for ctypes."},
    {"play_batch", (PyCFunction)play_batch, METH_VARARGS,
     "Whole matches, one per seed, into the given buffers (batch.py's play_arrays)."},
    /* h31vec: the step-wise batched API (vector_env.py) */
    {"vector_reset", (PyCFunction)vector_reset, METH_VARARGS,
     "Start every environment's match and write its observation and mask (vector_env.py)."},
    {"vector_step", (PyCFunction)vector_step, METH_VARARGS,
     "One step of every environment into the given buffers (vector_env.py)."},
    /* h30: the observation tensor block above (issue 30, deliver 5). */
    {"tensor_writer", (PyCFunction)tensor_writer, METH_VARARGS,
     "tensor_writer(template, fallback): state_tensor(state, seat), the observation tensor in C."},
    {NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "_fastlml",
    "Last Mouse Lost's compiled engine (optional; game.py's Python rules are the reference).",
    -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__fastlml(void) {
    fill_row_stats();
    if (PyType_Ready(&SpecType) < 0 || PyType_Ready(&CoreType) < 0) return NULL;
    str_slow_legal = PyUnicode_InternFromString("_slow_legal_actions");
    str_checked_apply = PyUnicode_InternFromString("_reference_apply");
    if (!str_slow_legal || !str_checked_apply) return NULL;
    str_score = PyUnicode_InternFromString("score");
    str_last_round = PyUnicode_InternFromString("_last_round");
    str_events_at = PyUnicode_InternFromString("_events_at");
    str_events = PyUnicode_InternFromString("_events");
    str_round_opener = PyUnicode_InternFromString("round_opener");
    str_ev_round_over = PyUnicode_InternFromString("round_over");
    str_ev_match_over = PyUnicode_InternFromString("match_over");
    str_ev_round_start = PyUnicode_InternFromString("round_start");
    if (!str_score || !str_last_round || !str_events_at || !str_events || !str_round_opener ||
        !str_ev_round_over || !str_ev_match_over || !str_ev_round_start)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SpecType);
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Spec", (PyObject *)&SpecType) < 0 ||
        PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
