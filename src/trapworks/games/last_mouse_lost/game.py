"""Last Mouse Lost (FoxMind), seed 002: basic and advanced rules, rounds and the match.

Board: rows of mice; a row is held as a bitmask of raised mice (bit i = mouse i+1).
An action presses a set of raised mice in one row and is numbered
`row_offset[row] + mask - 1`, so every set of mice in every row has its own id.
Basic rules allow any non-empty set of raised mice in one row; advanced rules only a run
of adjacent raised mice (no pressed mouse between them).

A round ends when the last mouse is pressed: whoever pressed it loses the round. The match
is first to `first_to` round wins (3: best of five). Who opens each round is not in the
rulebook; the `opener` option decides it (default: the rounds alternate).
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Sequence
from importlib.util import find_spec
from typing import Any, ClassVar

from trapworks.core import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    Option,
    OptionError,
    State,
)
from trapworks.core.messages import told

STANDARD_BOARD = (3, 5, 6, 6, 5, 3)
MAX_ROWS = 26  # rows are named by letters a..z
MAX_ROW_LENGTH = 16  # every set of mice in a row has an action id: 2**16 - 1 per row
RULES = ("basic", "advanced")
OPENERS = ("alternate", "loser", "winner", "same")
ROW_NAMES = "abcdefghijklmnopqrstuvwxyz"

# The compiled engine (_fastlml.c, built by setup.py where a C compiler is found): the one
# compiled copy of the rules of a press, run by single states (its `Core` base class) and by
# batches (batch.py calls the engine's own C match loop over the same functions). The Python
# rules below are the reference the tests compare it against, and what runs without it, for
# boards of more than 64 mice, or when TRAPWORKS_PURE_PYTHON is set.
_fastlml: Any
try:
    if os.environ.get("TRAPWORKS_PURE_PYTHON"):
        raise ImportError("TRAPWORKS_PURE_PYTHON is set")
    from . import _fastlml
except ImportError:
    _fastlml = None


def parse_board(board: Any) -> tuple[int, ...]:
    """A board as row lengths: a sequence of ints or text like "3,5,6,6,5,3"."""
    if isinstance(board, str):
        parts = [p for p in re.split(r"[,\s;/]+", board.strip()) if p]
        if not parts or not all(p.isdigit() for p in parts):
            raise OptionError(f"board {board!r}: give row lengths as numbers, e.g. 3,5,6,6,5,3")
        lengths = tuple(int(p) for p in parts)
    elif isinstance(board, (list, tuple)) and all(
        isinstance(n, int) and not isinstance(n, bool) for n in board
    ):
        lengths = tuple(board)
    else:
        raise OptionError(f"board {board!r}: give row lengths as a list of integers or text like 3,5,6")
    if not 1 <= len(lengths) <= MAX_ROWS:
        raise OptionError(f"board {board!r}: a board has 1 to {MAX_ROWS} rows, not {len(lengths)}")
    bad = [n for n in lengths if not 1 <= n <= MAX_ROW_LENGTH]
    if bad:
        raise OptionError(f"board {board!r}: a row holds 1 to {MAX_ROW_LENGTH} mice, not {bad[0]}")
    return lengths


def is_run(mask: int) -> bool:
    """True when the set bits of `mask` are adjacent (one run)."""
    low = mask & -mask
    return mask != 0 and ((mask + low) & mask) == 0


def runs_of(mask: int, length: int) -> list[tuple[int, int]]:
    """(start index, run length) of each run of raised mice in a row."""
    out, i = [], 0
    while i < length:
        if mask >> i & 1:
            j = i
            while j < length and mask >> j & 1:
                j += 1
            out.append((i, j - i))
            i = j
        else:
            i += 1
    return out


def rightmost(raised: int, count: int) -> int:
    """The `count` highest set bits of `raised` (0 when it has fewer)."""
    mask = 0
    while count:
        if not raised:
            return 0
        top = 1 << (raised.bit_length() - 1)
        mask |= top
        raised ^= top
        count -= 1
    return mask


def mice_text(mask: int) -> str:
    """Mice of a mask as 1-based numbers with ranges: 0b10111 -> "1-3,5"."""
    parts, i = [], 0
    while mask >> i:
        if mask >> i & 1:
            j = i
            while mask >> (j + 1) & 1:
                j += 1
            parts.append(f"{i + 1}" if i == j else f"{i + 1}-{j + 1}")
            i = j + 1
        else:
            i += 1
    return ",".join(parts)


class LastMouseLostGame(Game):
    game_id = "last-mouse-lost"
    title = "Last Mouse Lost"
    # The options, declared once (trapworks.core.options): kernel, CLI and lobby all read this.
    options_schema = (
        Option.choice(
            "rules",
            "basic",
            RULES,
            labels={"basic": "Basic: any mice of one row", "advanced": "Advanced: mice side by side"},
            names={"basic": "basic rules", "advanced": "advanced rules"},
            label="Rules",
            help="Basic: press any number of mice in one row. Advanced: only mice next to each other.",
            source="the basic rules and the advanced rules",
        ),
        Option.custom(
            "board",
            STANDARD_BOARD,
            "list",
            parse_board,
            label="Rows of mice",
            help="How many mice in each row, e.g. [3, 4, 5].",
        ),
        Option.integer(
            "first_to",
            3,
            1,
            expects="a positive number of round wins (3 = best of five)",
            label="Round wins to take the match",
            help="3 is best of five; 1 plays a single round.",
            source="'The player who wins three of five rounds is the winner.'",
        ),
        Option.choice(
            "opener",
            "alternate",
            OPENERS,
            labels={
                "alternate": "take turns",
                "loser": "the loser of the last round",
                "winner": "the winner of the last round",
                "same": "the same player every round",
            },
            label="Who opens later rounds",
            help="Who presses first in rounds 2 and on.",
            source="silent on who opens the later rounds",
        ),
        Option.choice(
            "first_player",
            0,
            [0, 1, "random"],
            labels={0: "Player 1", 1: "Player 2", "random": "drawn at random"},
            label="Who opens round 1",
            help="The player who presses first in the first round.",
        ),
    )
    has_chance = True  # only when first_player="random"
    # Agents, levels, hints, solver, encoder and analysis hooks: the package's SPEC (__init__.py).
    # The batched engine (batch.py): the compiled engine's own match loop around its rules (the
    # extension and numpy needed; boards of up to 64 mice, see __init__).
    batched_agents: ClassVar[frozenset[str]] = (
        frozenset({"random", "heuristic"}) if find_spec("numpy") and _fastlml is not None else frozenset()
    )

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.rules: str = self.options["rules"]
        self.board: tuple[int, ...] = self.options["board"]
        self.advanced = self.rules == "advanced"
        self.full_rows = tuple((1 << n) - 1 for n in self.board)
        # The board as one integer: row r holds bits offsets[r] .. offsets[r] + n - 1 (bit i of a
        # row = mouse i + 1, 1 = raised). The standard board takes 28 bits.
        self.offsets: tuple[int, ...] = tuple(sum(self.board[:r]) for r in range(len(self.board)))
        self.full_board = sum(m << o for m, o in zip(self.full_rows, self.offsets, strict=True))
        # Action ids. Basic rules: one id per (row, how many mice), pressing the rightmost raised
        # mice of that row (which ones is immaterial under basic rules). Advanced rules: one id
        # per (row, run of adjacent mice), pressing exactly those mice.
        self.row_offset: list[int] = []
        self.action_row: list[int] = []
        self.action_count: list[int] = []
        self.action_mask: list[int] = []  # advanced only: the mice an action presses
        self.run_action: dict[tuple[int, int], int] = {}  # advanced: (row, mask) -> id
        for r, n in enumerate(self.board):
            self.row_offset.append(len(self.action_row))
            if self.advanced:
                for start in range(n):
                    for length in range(1, n - start + 1):
                        mask = ((1 << length) - 1) << start
                        self.run_action[(r, mask)] = len(self.action_row)
                        self.action_row.append(r)
                        self.action_count.append(length)
                        self.action_mask.append(mask)
            else:
                for count in range(1, n + 1):
                    self.action_row.append(r)
                    self.action_count.append(count)
        self.num_press_actions = len(self.action_row)
        # Chance actions (who opens round 1) come after the press actions.
        self.opener_action = (self.num_press_actions, self.num_press_actions + 1)
        # The move tables depend only on the board and the rules, so game objects with the same
        # two share them (a server holds one game object per match). Every table is indexed by the
        # mice of a row or of a chunk of rows, so none holds more than 2**bits entries: their size
        # is bounded by the board, never by how much is played (tables.bound()).
        key = (self.board, self.advanced)
        tables = _SHARED_TABLES.pop(key, None) or _Tables(self)
        _SHARED_TABLES[key] = tables  # most recently used last
        while len(_SHARED_TABLES) > SHARED_TABLES_LIMIT:
            del _SHARED_TABLES[next(iter(_SHARED_TABLES))]
        self.tables: _Tables = tables
        self.empty_rows = (0,) * len(self.board)
        self.state_class: type[LastMouseLostState] = (
            _FastState if tables.spec is not None else LastMouseLostState
        )
        if tables.spec is None:  # no compiled engine for this board: no batches either
            setattr(self, "batched_agents", frozenset())  # noqa: B010 (a ClassVar, per game here)
        self.first_to: int = self.options["first_to"]
        # The initial state, which new_initial_state copies (never handed out itself).
        self._initial: LastMouseLostState = self.state_class(self)

    def press_mask(self, action: int, raised: int) -> int:
        """The mice `action` presses in a row whose raised mice are `raised` (0: not possible)."""
        if self.advanced:
            mask = self.action_mask[action]
            return mask if raised & mask == mask else 0
        count = self.action_count[action]
        return rightmost(raised, count) if count <= raised.bit_count() else 0

    def rows_of(self, board: int) -> tuple[int, ...]:
        """The raised-mice mask of each row of a board integer."""
        return tuple(board >> o & m for o, m in zip(self.offsets, self.full_rows, strict=True))

    def board_of(self, rows: Any) -> int:
        """The board integer of raised-mice masks per row."""
        return sum((m & f) << o for m, f, o in zip(rows, self.full_rows, self.offsets, strict=True))

    def public_options(self) -> dict[str, Any]:
        opts = dict(self.options)
        opts["board"] = list(self.board)
        return opts

    def num_players(self) -> int:
        return 2

    def max_game_length(self) -> int:
        rounds = 2 * self.options["first_to"] - 1
        return rounds * sum(self.board) + 1

    def num_distinct_actions(self) -> int:
        return self.num_press_actions

    def chance_actions(self) -> tuple[int, ...]:
        # Chance only draws who opens round 1, and only with first_player="random".
        return self.opener_action if self.options["first_player"] == "random" else ()

    def new_initial_state(self, seed: int | None = None) -> LastMouseLostState:
        state = self._initial.clone()  # its seed is None
        if seed is not None:
            state.seed = seed
        return state

    def new_initial_state_from(self, rng: random.Random) -> LastMouseLostState:
        """Nothing to draw: the board is fixed, who opens is a chance node (as in the engine)."""
        return self._initial.clone()

    def play_batch(
        self, agents: Sequence[str], seeds: Sequence[int], moves: bool = False
    ) -> list[dict[str, Any]]:
        """Whole matches in the compiled engine, one per seed: rows with "winners", "returns",
        "length", "truncated", "rounds" and "opener_wins" (rounds won by the player who opened
        them); with `moves`, also each game's "actions". See batch.py for the random stream."""
        if not self.batched_agents:
            raise NotImplementedError(
                "batched Last Mouse Lost needs numpy, the compiled engine (a C compiler at "
                "install) and a board of at most 64 mice"
            )
        from .batch import play_batch

        return play_batch(self, agents, seeds, moves=moves)

    def help_text(self) -> str:
        rows = ROW_NAMES[: len(self.board)]
        if not self.advanced:
            return (
                f"Basic rules: press any number of raised mice in one row. Write the row letter "
                f"({rows[0]}-{rows[-1]}, top to bottom) and how many: c2 presses 2 mice of row c, "
                "c* every raised mouse of row c. Whoever presses the last mouse loses the round."
            )
        return (
            f"Advanced rules: press a run of adjacent raised mice in one row (no pressed mouse "
            f"between them). Write the row letter ({rows[0]}-{rows[-1]}, top to bottom) and the mice, "
            "numbered from 1 at the left: c2 presses mouse 2 of row c, c2-4 mice 2 to 4, c* the "
            "whole row when it is one run. Whoever presses the last mouse loses the round."
        )


# Rows are grouped into chunks of at most this many bits (a longer row is a chunk of its own);
# a chunk's table of legal moves is indexed by the chunk's bits, so it holds <= 2**bits entries.
CHUNK_BITS = 14
# Distinct (board, rules) pairs whose tables are kept for new game objects (least recently used
# goes first); a game object keeps its own tables alive as long as it lives.
SHARED_TABLES_LIMIT = 8


class _LazyTable(dict[int, Any]):
    """index -> value made by `make(index)` on first use; bounded by the index range."""

    __slots__ = ("make",)

    def __init__(self, make: Any):
        super().__init__()
        self.make = make

    def __missing__(self, index: int) -> Any:
        value = self[index] = self.make(index)
        return value


class _Tables:
    """The move tables of one (board, rules) pair, all indexed by bits of the board integer."""

    def __init__(self, game: LastMouseLostGame):
        board, offsets, advanced = game.board, game.offsets, game.advanced
        # Per row: raised mask -> the ids of the legal presses there (a list, ascending).
        self.row_moves: list[_LazyTable] = [
            _LazyTable(lambda raised, r=r: _row_moves(game, r, raised)) for r in range(len(board))
        ]
        # Chunks of adjacent rows: (shift, mask, table: chunk bits -> legal ids, ascending).
        groups: list[list[int]] = []
        for r, n in enumerate(board):
            if groups and sum(board[x] for x in groups[-1]) + n <= CHUNK_BITS:
                groups[-1].append(r)
            else:
                groups.append([r])
        self.chunks: list[tuple[int, int, _LazyTable]] = []
        for rows in groups:
            shift = offsets[rows[0]]
            bits = sum(board[r] for r in rows)

            def make(value: int, rows: list[int] = rows, shift: int = shift) -> list[int]:
                out: list[int] = []
                for r in rows:
                    out += self.row_moves[r][value >> (offsets[r] - shift) & game.full_rows[r]]
                return out

            self.chunks.append((shift, (1 << bits) - 1, _LazyTable(make)))
        # Per row: raised mask -> the row's text in positions ("oo..") and the view's cells.
        self.row_text: list[_LazyTable] = [
            _LazyTable(lambda raised, n=n: "".join("o" if raised >> i & 1 else "." for i in range(n)))
            for n in board
        ]
        self.row_cells: list[_LazyTable] = [
            _LazyTable(lambda raised, n=n: tuple(bool(raised >> i & 1) for i in range(n))) for n in board
        ]
        # Per row: raised mask -> the view's description of each legal press there.
        self.row_views: list[_LazyTable] = [
            _LazyTable(lambda raised, r=r: _describe_row(game, r, raised)) for r in range(len(board))
        ]
        # legal(board) -> a fresh list of the legal press ids, ascending.
        if len(self.chunks) == 1:
            table0 = self.chunks[0][2]
            self.legal: Any = lambda b: table0[b][:]
        elif len(self.chunks) == 2:
            (_, m0, t0), (s1, _, t1) = self.chunks
            self.legal = lambda b: t0[b & m0] + t1[b >> s1]
        else:
            chunks = self.chunks

            def legal(b: int) -> list[int]:
                out: list[int] = []
                for shift, mask, table in chunks:
                    out += table[b >> shift & mask]
                return out

            self.legal = legal
        self.board = board
        # The compiled engine's copy of the action numbering (None: the Python reference path).
        self.spec: Any = None
        if _fastlml is not None and sum(board) <= 64:
            self.spec = _fastlml.Spec(
                advanced,
                board,
                game.row_offset,
                game.action_row,
                game.action_count,
                game.action_mask if advanced else [0] * game.num_press_actions,
            )

    def sizes(self) -> dict[str, int]:
        """How many entries each kind of table holds now."""
        per_row = (self.row_moves, self.row_text, self.row_cells, self.row_views)
        return {
            "rows": sum(len(t) for kind in per_row for t in kind),
            "chunks": sum(len(t) for _, _, t in self.chunks),
        }

    def bound(self) -> dict[str, int]:
        """The most entries each kind of table can ever hold (fixed by the board)."""
        rows = 4 * sum(1 << n for n in self.board)
        chunks = sum(mask + 1 for _, mask, _ in self.chunks)
        return {"rows": rows, "chunks": chunks}


def _row_moves(game: LastMouseLostGame, row: int, raised: int) -> list[int]:
    first = game.row_offset[row]
    if game.advanced:
        n = game.board[row]
        return [
            a
            for a in range(first, first + n * (n + 1) // 2)
            if raised & game.action_mask[a] == game.action_mask[a]
        ]
    return list(range(first, first + raised.bit_count()))


def _describe_row(game: LastMouseLostGame, row: int, raised: int) -> list[dict[str, Any]]:
    name = ROW_NAMES[row]
    out = []
    for a in game.tables.row_moves[row][raised]:
        mask = game.press_mask(a, raised)
        count = game.action_count[a]
        out.append(
            {
                "id": a,
                "text": f"{name}{mice_text(game.action_mask[a])}" if game.advanced else f"{name}{count}",
                "row": row,
                "count": count,
                "mice": tuple(i for i in range(game.board[row]) if mask >> i & 1),
            }
        )
    return out


# (board, advanced rules) -> move tables shared by game objects (at most SHARED_TABLES_LIMIT).
_SHARED_TABLES: dict[tuple[tuple[int, ...], bool], _Tables] = {}


def _event_dict(event: tuple[Any, ...]) -> dict[str, Any]:
    """An event as the kernel hands it out; states keep a compact tuple and build this only when
    someone asks (playouts and search never do). Its words are the catalog's (i18n/*.po)."""
    kind = event[0]
    if kind == "round_over":
        _, rnd, winner, loser, s0, s1 = event
        return {
            "type": "round_over",
            "round": rnd,
            "winner": winner,
            "loser": loser,
            "score": [s0, s1],
            "msg": "last_mouse_lost.round_lost",
            "args": {"who": loser, "round": rnd, "a": s0, "b": s1},
        }
    if kind == "match_over":
        _, winner, s0, s1 = event
        return {
            "type": "match_over",
            "winner": winner,
            "score": [s0, s1],
            "msg": "last_mouse_lost.match_won",
            "args": {"who": winner, "a": max(s0, s1), "b": min(s0, s1)},
        }
    if kind == "drawn":
        return {
            "type": "round_start",
            "round": 1,
            "opener": event[1],
            "msg": "last_mouse_lost.drawn_opener",
            "args": {"who": event[1]},
        }
    _, rnd, opener = event  # "round_start"
    return {
        "type": "round_start",
        "round": rnd,
        "opener": opener,
        "msg": "last_mouse_lost.round_opens",
        "args": {"who": opener, "round": rnd},
    }


# What a compiled state holds in its C base class rather than in its __dict__.
_CORE_FIELDS = ("board", "to_move", "match_over", "_live", "_history")


def _restore_state(game: LastMouseLostGame, state: dict[str, Any]) -> LastMouseLostState:
    """Unpickle a state as an instance of `game.state_class`."""
    cls = game.state_class
    new = cls.__new__(cls)
    new.__setstate__(state)
    return new


class LastMouseLostState(State):
    game: LastMouseLostGame  # this game's own type (the kernel only knows Game)

    def __init__(self, game: LastMouseLostGame, seed: int | None = None, start: str | None = None):
        super().__init__(game, seed=seed, start=start)
        self.board: int = game.full_board  # raised mice, all rows in one integer
        self.score = [0, 0]
        fp = game.options["first_player"]
        self.awaiting_opener = fp == "random"
        self.to_move = 0 if self.awaiting_opener else fp
        self.round_opener = self.to_move
        self._last_round: tuple[int, int, int] | None = None  # the round that just ended
        self.match_over = False
        self._events_at = 0  # the move count after the move that caused `_events`
        self._legal = game.tables.legal
        self._set_live(not self.awaiting_opener)

    # A view into the game's move tables: copies share it, pickles leave it out and
    # __setstate__ takes it again from the (rebuilt) game.
    shared_attrs = ("_legal",)

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        for name in _CORE_FIELDS:  # attributes of the compiled base class, where it is used
            state[name] = getattr(self, name)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        core = {name: state.pop(name) for name in _CORE_FIELDS if name in state}
        super().__setstate__(state)
        for name, value in core.items():
            setattr(self, name, value)
        self._legal = self.game.tables.legal
        self._set_live(self._live)

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt as the unpickling process's own state class of the game (compiled or not).
        return (_restore_state, (self.game, self.__getstate__()))

    def _set_live(self, live: bool) -> None:
        # Live: a seat is to move (neither terminal nor a chance node), the compiled engine's case.
        self._live = live

    @property
    def rows(self) -> tuple[int, ...]:
        """Raised-mice mask per row."""
        return self.game.rows_of(self.board)

    @rows.setter
    def rows(self, rows: Any) -> None:
        self.board = self.game.board_of(rows)

    def row(self, row: int) -> int:
        """The raised-mice mask of one row."""
        game = self.game
        return self.board >> game.offsets[row] & game.full_rows[row]

    @property
    def last_round(self) -> dict[str, int] | None:
        """The round that just ended: its number, winner and loser (None before any)."""
        last = self._last_round
        return None if last is None else {"round": last[0], "winner": last[1], "loser": last[2]}

    # --- who moves ---------------------------------------------------------------
    def current_player(self) -> int:
        if self.match_over:
            return TERMINAL
        if self.awaiting_opener:
            return CHANCE
        return self.to_move

    def is_terminal(self) -> bool:
        return self.match_over

    # --- actions ------------------------------------------------------------------
    # The rules here are the reference: the kernel's apply_action (validation, then
    # _apply_action) plays every action of this class. The compiled engine (_FastState) does
    # a press by the seat to move itself and hands everything else to _reference_apply.
    def legal_actions(self, player: int | None = None) -> list[int]:
        if self._live and (player is None or player == self.to_move):
            return self._legal(self.board)  # a fresh list: callers may change theirs
        return super().legal_actions(player)

    def _legal_actions(self) -> list[int]:
        return self._legal(self.board)

    def _reference_apply(self, action: Any) -> None:
        """The kernel's path: validate (raising with the reason, state unchanged), then apply."""
        State.apply_action(self, action)

    def all_events(self) -> list[dict[str, Any]]:
        # Events are kept with the move count they belong to, so a move that causes none need
        # not clear them (the compiled engine's presses never do). None is private (the
        # kernel's last_events filters nothing out).
        if self._events_at != len(self._history):
            return []
        return [_event_dict(e) for e in self._events]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        a, b = self.game.opener_action
        return [(a, 0.5), (b, 0.5)]

    def _said(self, msg: str, **args: Any) -> str:
        # Why an action is illegal, a message of the game's catalog (issue 37): English here and
        # at the terminal, the page words it in the viewer's language.
        return told(type(self.game), f"last_mouse_lost.illegal.{msg}", **args)

    def _why_illegal(self, action: int) -> str | None:
        game = self.game
        if self.awaiting_opener:
            if action in game.opener_action:
                return None
            return self._said("opener_pending")
        if not 0 <= action < game.num_press_actions:
            return self._said("no_action", last=game.num_press_actions - 1)
        row = game.action_row[action]
        if game.advanced:
            return self._why_illegal_run(row, game.action_mask[action])
        raised = self.row(row).bit_count()
        if game.action_count[action] > raised:
            return self._said("too_many", row=ROW_NAMES[row], n=raised, count=game.action_count[action])
        return None

    def _why_illegal_run(self, row: int, mask: int) -> str | None:
        name = ROW_NAMES[row]
        already = mask & ~self.row(row)
        if already:
            return self._said("already_pressed", mice=mice_text(already), row=name, n=already.bit_count())
        if not is_run(mask):
            return self._said("not_a_run", mice=mice_text(mask), row=name)
        return None

    def describe_action(self, action: int) -> str:
        game = self.game
        if action in game.opener_action:
            return f"Player {game.opener_action.index(action) + 1} opens round 1"
        row, count = ROW_NAMES[game.action_row[action]], game.action_count[action]
        if game.advanced:
            mice = mice_text(game.action_mask[action])
            return f"Press mouse {mice} in row {row}" if count == 1 else f"Press mice {mice} in row {row}"
        return f"Press {count} {'mouse' if count == 1 else 'mice'} in row {row}"

    def describe_message(self, action: int) -> dict[str, Any] | None:
        game = self.game
        if action in game.opener_action:
            return {"msg": "last_mouse_lost.do.open", "args": {"who": game.opener_action.index(action)}}
        row, count = ROW_NAMES[game.action_row[action]], game.action_count[action]
        if game.advanced:
            mice = mice_text(game.action_mask[action])
            return {"msg": "last_mouse_lost.do.press_mice", "args": {"n": count, "mice": mice, "row": row}}
        return {"msg": "last_mouse_lost.do.press", "args": {"n": count, "row": row}}

    def story(self, action: int) -> list[dict[str, Any]]:
        # A press causes no event unless it ends a round: the log says what was pressed, by the
        # seat that pressed (the one that moved before this action).
        lines = super().story(action)
        game = self.game
        if action in game.opener_action:
            return lines
        # The seat that pressed: the round's loser when the press ended a round, else the seat
        # the turn passed from.
        ended = [e["loser"] for e in self.all_events() if e["type"] == "round_over"]
        who = ended[0] if ended else 1 - self.to_move
        row, count = ROW_NAMES[game.action_row[action]], game.action_count[action]
        if game.advanced:
            mice = mice_text(game.action_mask[action])
            what = {
                "msg": "last_mouse_lost.pressed_mice",
                "args": {"who": who, "n": count, "mice": mice, "row": row},
            }
        else:
            what = {"msg": "last_mouse_lost.pressed", "args": {"who": who, "n": count, "row": row}}
        return [what, *lines]

    def _apply_action(self, action: int) -> None:
        game = self.game
        if self.awaiting_opener:
            self.awaiting_opener = False
            self._set_live(True)
            self.to_move = self.round_opener = game.opener_action.index(action)
            self._events = [("drawn", self.to_move)]
            self._events_at = len(self._history) + 1  # the kernel adds the action after this
            return
        row = game.action_row[action]
        mask = game.press_mask(action, self.row(row))
        self.board ^= mask << game.offsets[row]
        if self.board:
            self.to_move ^= 1
        else:
            self._round_over()

    def _round_over(self) -> None:
        mover = self.to_move
        # The mover pressed the last mouse: they lose the round.
        winner = 1 - mover
        score = self.score
        score[winner] += 1
        s0, s1 = score
        rnd = s0 + s1
        self._last_round = (rnd, winner, mover)
        self._events_at = len(self._history) + 1  # the kernel adds the action after this
        game = self.game
        if score[winner] >= game.first_to:
            self.match_over = True
            self._set_live(False)
            self._events = [("round_over", rnd, winner, mover, s0, s1), ("match_over", winner, s0, s1)]
            return
        self.board = game.full_board  # "Flip over the playing surface"
        self.round_opener = opener = self._next_opener(winner, mover)
        self.to_move = opener
        self._events = [("round_over", rnd, winner, mover, s0, s1), ("round_start", rnd + 1, opener)]

    def _next_opener(self, winner: int, loser: int) -> int:
        rule = self.game.options["opener"]
        if rule == "alternate":
            return 1 - self.round_opener
        if rule == "loser":
            return loser
        if rule == "winner":
            return winner
        return self.round_opener  # "same"

    # --- notation -----------------------------------------------------------------
    def action_to_string(self, action: int, player: int | None = None) -> str:
        game = self.game
        if action in game.opener_action:
            return f"opener:{game.opener_action.index(action) + 1}"
        if not isinstance(action, int) or not 0 <= action < game.num_press_actions:
            raise IllegalActionError(action, "no such action id")
        row = ROW_NAMES[game.action_row[action]]
        if game.advanced:
            return f"{row}{mice_text(game.action_mask[action])}"
        return f"{row}{game.action_count[action]}"

    _ACTION_RE = re.compile(r"^\s*([a-zA-Z])\s*:?\s*(\*|[0-9,\-\s]+)\s*$")

    def string_to_action(self, text: str) -> int:
        if not isinstance(text, str):
            raise IllegalActionError(text, self._said("not_text"))
        game = self.game
        if self.match_over:
            raise IllegalActionError(text, self._said("match_over"))
        t = text.strip().lower()
        if self.awaiting_opener:
            if t in ("opener:1", "opener:2"):
                return game.opener_action[int(t[-1]) - 1]
            raise IllegalActionError(text, self._said("opener_write"))
        m = self._ACTION_RE.match(t)
        rules = "advanced" if game.advanced else "basic"
        if not m:
            raise IllegalActionError(text, self._said(f"syntax.{rules}"))
        row_name, mice = m.group(1), m.group(2).replace(" ", "")
        row = ROW_NAMES.find(row_name)
        if not 0 <= row < len(game.board):
            raise IllegalActionError(
                text, self._said("no_row", row=row_name, last=ROW_NAMES[len(game.board) - 1])
            )
        length = game.board[row]
        raised = self.rows[row]
        if not game.advanced:
            if mice == "*":
                count = bin(raised).count("1")
            elif mice.isdigit():
                count = int(mice)
            else:
                raise IllegalActionError(text, self._said("count_basic"))
            if count < 1:
                raise IllegalActionError(text, self._said("at_least_one"))
            have = bin(raised).count("1")
            if count > have:
                raise IllegalActionError(text, self._said("too_many", row=row_name, n=have, count=count))
            return game.row_offset[row] + count - 1
        if mice == "*":
            mask = raised
            if not mask:
                raise IllegalActionError(text, self._said("row_empty", row=row_name))
        else:
            mask = 0
            for part in mice.split(","):
                bounds = part.split("-")
                if len(bounds) > 2 or not all(b.isdigit() for b in bounds):
                    raise IllegalActionError(text, self._said("not_mice", part=repr(part)))
                lo, hi = int(bounds[0]), int(bounds[-1])
                if lo > hi:
                    raise IllegalActionError(text, self._said("backwards", part=part, hi=hi, lo=lo))
                for n in (lo, hi):
                    if not 1 <= n <= length:
                        raise IllegalActionError(
                            text, self._said("no_mouse", row=row_name, last=length, mouse=n)
                        )
                for n in range(lo, hi + 1):
                    mask |= 1 << (n - 1)
        reason = self._why_illegal_run(row, mask)
        if reason:
            raise IllegalActionError(text, reason)
        return game.run_action[(row, mask)]

    # --- information --------------------------------------------------------------
    def round_number(self) -> int:
        return sum(self.score) + (0 if self.match_over else 1)

    def _view(self, seat: int | None = None) -> dict[str, Any]:
        game = self.game
        legal = []
        if self._live:
            views = game.tables.row_views
            # Callers own their copy; JSON types only (a view equals itself after a JSON round trip).
            legal = [
                {**entry, "mice": list(entry["mice"])}
                for r, raised in enumerate(self.rows)
                for entry in views[r][raised]
            ]
        player = self.current_player()
        return {
            "game": game.game_id,
            "seat": seat,
            "rules": game.rules,
            "board": list(game.board),
            "rows": self._view_rows(),
            "position": self.position(),
            "to_move": player if player >= 0 else None,
            "awaiting_chance": self.awaiting_opener,
            "score": list(self.score),
            "first_to": game.options["first_to"],
            "round": self.round_number(),
            "round_opener": self.round_opener,
            "last_round": self.last_round,
            "terminal": self.match_over,
            "winner": self.winners()[0] if self.match_over else None,
            "legal_actions": legal,
            "moves_made": len(self._history),
        }

    def _view_rows(self) -> list[list[bool]]:
        cells = self.game.tables.row_cells
        return [list(cells[r][raised]) for r, raised in enumerate(self.rows)]

    def returns(self) -> list[float]:
        if not self.match_over:
            return [0.0, 0.0]
        w = 0 if self.score[0] > self.score[1] else 1
        return [1.0, -1.0] if w == 0 else [-1.0, 1.0]

    # --- copying ------------------------------------------------------------------
    def clone(self) -> LastMouseLostState:
        # Attribute by attribute, in __init__'s order: the copy keeps CPython's compact
        # per-instance attribute layout, whose specialised lookups make every later move
        # faster (about a quarter of a playout's time, compared with copying __dict__).
        # test_engine.py checks that no attribute is missed.
        new = self.__class__.__new__(self.__class__)
        new.game = self.game
        new.seed = self.seed
        new.start = self.start
        new._history = self._history[:]
        new._events = self._events[:]  # tuples: immutable
        new._revealed_upto = self._revealed_upto
        new.board = self.board
        new.score = self.score[:]
        new.awaiting_opener = self.awaiting_opener
        new.to_move = self.to_move
        new.round_opener = self.round_opener
        new._last_round = self._last_round
        new.match_over = self.match_over
        new._events_at = self._events_at
        new._legal = self._legal
        new._live = self._live
        return new

    # --- presentation -------------------------------------------------------------
    def render_text(self, seat: int | None = None) -> str:
        game = self.game
        width = max(game.board)
        lines = []
        ft = game.options["first_to"]
        match = f"first to {ft}" if ft > 1 else "single round"
        lines.append(
            f"Last Mouse Lost · {game.rules} rules · round {self.round_number()} · "
            f"score Player 1 {self.score[0]} – {self.score[1]} Player 2 ({match})"
        )
        lines.append("      " + " ".join(f"{i + 1:>2}" for i in range(width)))
        for r, (raised, n) in enumerate(zip(self.rows, game.board, strict=True)):
            cells = " ".join(" o" if raised >> i & 1 else " ." for i in range(n))
            count = bin(raised).count("1")
            lines.append(f"  {ROW_NAMES[r]}   {cells}{'   ' * (width - n)}   ({count} raised)")
        lines.append("  o = raised mouse, . = pressed")
        if self.match_over:
            lines.append(
                f"Match over: Player {self.winners()[0] + 1} wins {max(self.score)}-{min(self.score)}."
            )
        elif self.awaiting_opener:
            lines.append("Drawing who opens...")
        else:
            lines.append(f"Player {self.to_move + 1} to move.")
        return "\n".join(lines)


if _fastlml is not None:

    class _FastState(_fastlml.Core, LastMouseLostState):
        """A state on the compiled engine (_fastlml.c): is_terminal, legal_actions,
        apply_action and clone in C for both rule sets. A press by the seat to move is done by
        the engine's rules (the end of a round included); anything else (a refusal, the
        opener's draw) by the reference path above."""

        def __init__(self, game: LastMouseLostGame, seed: int | None = None, start: str | None = None):
            super().__init__(game, seed=seed, start=start)
            self._bind_game()

        def __setstate__(self, state: dict[str, Any]) -> None:
            super().__setstate__(state)
            self._bind_game()

        def _bind_game(self) -> None:
            game = self.game
            self._spec = game.tables.spec
            # What the end of a round needs (the engine's lml_round_end decides it).
            opener_rule = OPENERS.index(game.options["opener"])
            self._round_rules = (game.full_board, game.first_to, opener_rule)

        def _slow_legal_actions(self, player: int | None) -> list[int]:
            return State.legal_actions(self, player)

    _fastlml.bind_methods(_FastState)

else:
    _FastState = None  # type: ignore[assignment,misc]  # never chosen: tables.spec is None then
