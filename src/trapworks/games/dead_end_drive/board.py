"""The mansion: the grid from `mansion.txt`, its squares, and how pawns move on it.

Squares are numbered row by row (`row * width + col`); a set of squares is an int bitmask.
Movement (seed 004, "Pawn Movement Rules" and "Secret Passage Spaces") is a search over
simple paths: a pawn moves exactly `count` squares, never entering a square twice (its start
included), never entering walls, furniture or other pawns; a hop between two Secret Passage
squares counts 1. Which squares a move may end on is the caller's business (traps, chairs).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

TRAP_SQUARES = {"s": "stairs", "f": "fireplace", "c": "chandelier", "t": "statue", "b": "bookcase"}
FURNITURE = {
    "T": "table",
    "S": "sofa",
    "L": "large sofa",
    "h": "chair",
    "V": "vase",
    "K": "desk",
    "G": "gold statue",
    "E": "easel",
}
FLOOR = {".": "floor", "~": "rug", "p": "secret passage", "D": "front door", "R": "red chair"}
OUTSIDE = {"X": "game over", "o": "detective track", "^": "detective start", "#": "wall", " ": "outside"}
COLUMN_NAMES = "abcdefghijklmnopqrstuvwxyz"


class BoardError(ValueError):
    """The grid file is malformed (a bug in the data, reported with the square)."""


@dataclass(frozen=True)
class Mansion:
    width: int
    height: int
    grid: tuple[str, ...]  # the rows as in the file
    neighbours: tuple[tuple[int, ...], ...]  # orthogonal squares a pawn may ever enter
    walkable: int  # squares a pawn may ever enter (chairs and Game Over too)
    chairs: int  # Red Chair squares
    traps: int  # trap squares
    trap_kind: dict  # square -> trap name
    trap_square: dict  # trap name -> square
    passages: tuple[int, ...]  # Secret Passage squares
    passage_mask: int
    door: int
    game_over: int
    track: tuple[int, ...]  # the Detective's track: Start ... Game Over
    chair_order: tuple[int, ...]  # Red Chairs in reading order (pawns start on them)
    balls: tuple[tuple[int, ...], ...]  # balls[square][r]: squares within r steps (for the search memo)

    # --- naming -------------------------------------------------------------------
    def name(self, square: int) -> str:
        row, col = divmod(square, self.width)
        return f"{COLUMN_NAMES[col]}{row + 1}"

    def square(self, name: str) -> int:
        """Square of a name like 'm18'; ValueError naming the problem otherwise."""
        text = name.strip().lower()
        if len(text) < 2 or text[0] not in COLUMN_NAMES or not text[1:].isdigit():
            raise ValueError(f"{name!r} is not a square name (a column letter and a row number, e.g. m18)")
        col = COLUMN_NAMES.index(text[0])
        row = int(text[1:]) - 1
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise ValueError(
                f"square {name!r} is off the board (columns a-{COLUMN_NAMES[self.width - 1]}, "
                f"rows 1-{self.height})"
            )
        return row * self.width + col

    def char(self, square: int) -> str:
        row, col = divmod(square, self.width)
        return self.grid[row][col]

    def feature(self, square: int) -> str:
        c = self.char(square)
        if c in TRAP_SQUARES:
            return TRAP_SQUARES[c] + " trap"
        return FURNITURE.get(c) or FLOOR.get(c) or OUTSIDE.get(c, "?")

    def room(self, square: int) -> str:
        row, col = divmod(square, self.width)
        if row >= 17:
            return "front lawn" if row > 17 else "front door"
        band = 0 if row <= 5 else 1 if row <= 11 else 2
        side = 0 if col <= 7 else 1 if col <= 16 else 2
        return (
            ("Library", "Stair hall", "Ballroom"),
            ("Living room", "Dining hall", "Gallery"),
            ("Study", "Foyer", "Parlour"),
        )[band][side]

    # --- movement -----------------------------------------------------------------
    def destinations(
        self,
        start: int,
        count: int,
        blocked: int,
        *,
        chairs: bool,
        exit_ok: bool,
        max_hops: int,
        start_hop: bool = False,
    ) -> int:
        """Bitmask of squares where a simple path of exactly `count` steps from `start` can end.

        `blocked`: squares a pawn may not enter (other pawns). `chairs`: Red Chairs may be crossed
        (never ended on). `exit_ok`: the pawn may step from the door onto Game Over, which ends its
        move at once (no exact count needed). A hop between passages counts one step; at most
        `max_hops` per move. `start_hop`: a pawn standing on a passage may hop at the very start
        of its move (004 has the pawn move onto a passage first: off by default).

        Moves that never cross a chair, up to 12 steps, are read from the movement tables
        (`MoveTables`); the others are searched (`search_destinations`).
        """
        if count < 1:
            return 0
        if not chairs and count <= 2 * TABLE_DEPTH:
            return self.tables(max_hops, start_hop).destinations(start, count, blocked, exit_ok)
        return self.search_destinations(
            start, count, blocked, chairs=chairs, exit_ok=exit_ok, max_hops=max_hops, start_hop=start_hop
        )

    def tables(self, max_hops: int, start_hop: bool) -> MoveTables:
        """The movement tables of this mansion for these passage options (made once, shared)."""
        key = (id(self), max_hops, start_hop)
        got = _TABLES.get(key)
        if got is None:
            got = _TABLES[key] = MoveTables(self, max_hops, start_hop)
        return got

    def search_destinations(
        self,
        start: int,
        count: int,
        blocked: int,
        *,
        chairs: bool,
        exit_ok: bool,
        max_hops: int,
        start_hop: bool = False,
    ) -> int:
        """`destinations` by a depth-first search of the paths (the reference the tables are
        tested against; used for moves that may cross chairs and for counts past the tables)."""
        if count < 1:
            return 0
        # Only pawns within `count` steps of the start can matter: the answer is remembered by
        # those (searches and the heuristic ask the same questions again and again).
        ball = self.balls[start][min(count, 12)]
        shared = _MEMO.setdefault(id(self), {})
        skey = ("d", start, count, blocked & ball, chairs, exit_ok, max_hops, start_hop)
        got = shared.get(skey)
        if got is not None:
            return got
        if len(shared) > _MEMO_LIMIT:
            shared.clear()
        forbid = blocked | (0 if chairs else self.chairs) | (0 if exit_ok else 1 << self.game_over)
        nbrs = self.neighbours
        balls = self.balls
        passages = self.passages
        pmask = self.passage_mask
        go_bit = 1 << self.game_over
        chairs_mask = self.chairs
        memo: dict = {}

        def reach(sq: int, r: int, hops: int, visited: int) -> int:
            key = (sq, r, hops, visited & balls[sq][r])
            got = memo.get(key)
            if got is not None:
                return got
            out = 0
            for nb in nbrs[sq]:
                bit = 1 << nb
                if visited & bit or forbid & bit:
                    continue
                if bit == go_bit:
                    out |= bit  # leaving the mansion ends the move
                elif r == 1:
                    if not bit & chairs_mask:
                        out |= bit
                else:
                    out |= reach(nb, r - 1, hops, visited | bit)
            if hops < max_hops and (pmask >> sq) & 1 and (start_hop or sq != start):
                for nb in passages:
                    bit = 1 << nb
                    if visited & bit or forbid & bit:
                        continue
                    if r == 1:
                        out |= bit
                    else:
                        out |= reach(nb, r - 1, hops + 1, visited | bit)
            memo[key] = out
            return out

        result = shared[skey] = reach(start, count, 0, 1 << start)
        return result

    def can_move(
        self,
        start: int,
        count: int,
        blocked: int,
        *,
        chairs: bool,
        exit_ok: bool,
        max_hops: int,
        ends: int = -1,
        start_hop: bool = False,
    ) -> bool:
        """Whether some legal move ends on a square of `ends` (same rules as `destinations`).

        Moves that never cross a chair, up to 12 steps, are read from the movement tables
        (`MoveTables`); the others are searched (`search_can_move`).
        """
        if count < 1:
            return False
        if not chairs and count <= 2 * TABLE_DEPTH:
            return self.tables(max_hops, start_hop).can_move(start, count, blocked, exit_ok, ends)
        return self.search_can_move(
            start,
            count,
            blocked,
            chairs=chairs,
            exit_ok=exit_ok,
            max_hops=max_hops,
            ends=ends,
            start_hop=start_hop,
        )

    def search_can_move(
        self,
        start: int,
        count: int,
        blocked: int,
        *,
        chairs: bool,
        exit_ok: bool,
        max_hops: int,
        ends: int = -1,
        start_hop: bool = False,
    ) -> bool:
        """`can_move` by a depth-first search that stops at the first path found; dead ends are
        remembered with the same key as the memo of `search_destinations`, so a failing search
        stays cheap (the reference the tables are tested against)."""
        if count < 1:
            return False
        ball = self.balls[start][min(count, 12)]
        shared = _MEMO.setdefault(id(self), {})
        skey = ("c", start, count, blocked & ball, chairs, exit_ok, max_hops, ends & ball, start_hop)
        got = shared.get(skey)
        if got is not None:
            return got
        if len(shared) > _MEMO_LIMIT:
            shared.clear()
        forbid = blocked | (0 if chairs else self.chairs) | (0 if exit_ok else 1 << self.game_over)
        ends &= ~self.chairs
        nbrs = self.neighbours
        balls = self.balls
        passages = self.passages
        pmask = self.passage_mask
        go = self.game_over
        dead: set = set()

        def walk(sq: int, r: int, hops: int, visited: int) -> bool:
            key = (sq, r, hops, visited & balls[sq][r])
            if key in dead:
                return False
            for nb in nbrs[sq]:
                bit = 1 << nb
                if visited & bit or forbid & bit:
                    continue
                if nb == go:
                    if ends & bit:
                        return True
                    continue
                if r == 1:
                    if ends & bit:
                        return True
                elif walk(nb, r - 1, hops, visited | bit):
                    return True
            if hops < max_hops and (pmask >> sq) & 1 and (start_hop or sq != start):
                for nb in passages:
                    bit = 1 << nb
                    if visited & bit or forbid & bit:
                        continue
                    if r == 1:
                        if ends & bit:
                            return True
                    elif walk(nb, r - 1, hops + 1, visited | bit):
                        return True
            dead.add(key)
            return False

        result = shared[skey] = walk(start, count, 0, 1 << start)
        return result

    def path(
        self,
        start: int,
        count: int,
        end: int,
        blocked: int,
        *,
        chairs: bool,
        exit_ok: bool,
        max_hops: int,
        start_hop: bool = False,
    ) -> list[int] | None:
        """One legal path (squares after the start) from `start` to `end`, for drawing a move."""
        ball = self.balls[start][min(count, 12)] if count >= 1 else 0
        shared = _MEMO.setdefault(id(self), {})
        skey = ("p", start, count, end, blocked & ball, chairs, exit_ok, max_hops, start_hop)
        if skey in shared:
            got = shared[skey]
            return None if got is None else list(got)
        if len(shared) > _MEMO_LIMIT:
            shared.clear()
        found = self._find_path(
            start, count, end, blocked, chairs=chairs, exit_ok=exit_ok, max_hops=max_hops, start_hop=start_hop
        )
        shared[skey] = None if found is None else tuple(found)
        return found

    def _find_path(
        self,
        start: int,
        count: int,
        end: int,
        blocked: int,
        *,
        chairs: bool,
        exit_ok: bool,
        max_hops: int,
        start_hop: bool = False,
    ) -> list[int] | None:
        forbid = blocked | (0 if chairs else self.chairs) | (0 if exit_ok else 1 << self.game_over)
        passages = set(self.passages)
        dead: set = set()

        def walk(sq: int, r: int, hops: int, visited: int, trail: list[int]) -> list[int] | None:
            key = (sq, r, hops, visited & self.balls[sq][r])
            if key in dead:
                return None
            steps = [(nb, hops) for nb in self.neighbours[sq]]
            if hops < max_hops and sq in passages and (start_hop or sq != start):
                steps += [(nb, hops + 1) for nb in self.passages if nb != sq]
            for nb, h in steps:
                bit = 1 << nb
                if visited & bit or forbid & bit:
                    continue
                if nb == self.game_over:
                    if end == nb:
                        return trail + [nb]
                    continue
                if r == 1:
                    if nb == end and not bit & self.chairs:
                        return trail + [nb]
                    continue
                found = walk(nb, r - 1, h, visited | bit, trail + [nb])
                if found:
                    return found
            dead.add(key)
            return None

        return walk(start, count, 0, 1 << start, [])


# --- movement tables ------------------------------------------------------------------
# How deep the tables go: every simple path of 1..TABLE_DEPTH steps from every square is listed
# once per mansion (about 72,000 paths for mansion.txt, 1-6 steps). A move of 7..12 steps is a
# path of c // 2 steps followed by one of the rest (`MoveTables.destinations`).
TABLE_DEPTH = 6

# One key per (mansion, passage_hops, passage_start_hop): each holds its mansion, so an id is
# never reused while its tables live. Bounded by the options (passage_hops 0..5, two start rules).
_TABLES: dict[tuple[int, int, bool], MoveTables] = {}


class MoveTables:
    """Every move that crosses no Red Chair, listed once per square: which squares a move of `c`
    steps from `s` passes (its path as a bitmask, the start left out) and where it ends.

    A move is legal when its path holds no pawn (`path & blocked == 0`), so "where can this pawn
    end" and "can it move at all" become a scan of a short list of ints instead of a search. Two
    paths with the same squares and the same end are one entry (the order the squares were
    walked in never matters to the rules), with the fewest passage hops any such path takes.

    A square's entries are made the first time a move from it is asked (at most every walkable
    square x 6 step counts: the size is fixed by the board, never by play). They hold only the
    board, never a position, so every state and every game with these options shares them.

    `start(s)[c]`, for c = 1..6, is (flat, flat_nt, groups, exits, ends, by_end):
      flat     the paths of every move ending inside the mansion;
      flat_nt  those not ending on a trap square (the opening: 004 rule 2);
      groups   (end bit, end, paths, their hops) per end square, the paths by fewest hops first;
      exits    (paths, their hops) of moves that step onto Game Over within `c` steps (a move
               ends there), fewest hops first;
      ends     every end square of `groups` (a bitmask);
      by_end   {end: (paths, their hops)}, `groups` by end square.
    `rest(s)` is the same for the second half of a longer move: its first square is not the
    move's start, so a hop from it is allowed whatever `passage_start_hop` says.
    """

    def __init__(self, mansion: Mansion, max_hops: int, start_hop: bool):
        self.mansion = mansion
        self.max_hops = max_hops
        self.start_hop = start_hop
        n = mansion.width * mansion.height
        self._start: list[Any] = [None] * n
        self._rest: list[Any] = [None] * n
        self.go_bit = 1 << mansion.game_over
        self.not_traps = ~mansion.traps
        # Each square's steps that may ever be taken in a table's move (never onto a chair), and
        # the passage squares, with their bits.
        chairs = mansion.chairs
        self._steps = tuple(
            tuple((nb, 1 << nb) for nb in nbs if not (chairs >> nb) & 1) for nbs in mansion.neighbours
        )
        self._hop_steps = tuple((nb, 1 << nb) for nb in mansion.passages)

    # --- building ---------------------------------------------------------------------
    def _build(self, s: int, first_hop: bool) -> list[Any]:
        """Every simple path of 1..TABLE_DEPTH steps from `s` that enters no chair, by the rules
        of `Mansion.search_destinations` taken path by path."""
        m = self.mansion
        traps = m.traps
        go = m.game_over
        pmask = m.passage_mask
        steps = self._steps
        hop_steps = self._hop_steps
        max_hops = self.max_hops
        sbit = 1 << s
        layer: dict[tuple[int, int], int] = {(s, sbit): 0}
        exits: dict[int, int] = {}  # path (start left out) -> fewest hops, over the steps so far
        out: list[Any] = [None]
        for _c in range(1, TABLE_DEPTH + 1):
            nxt: dict[tuple[int, int], int] = {}
            get = nxt.get
            for (sq, mask), h in layer.items():
                for nb, bit in steps[sq]:
                    if mask & bit:
                        continue
                    if nb == go:
                        path = (mask | bit) ^ sbit
                        if exits.get(path, 99) > h:
                            exits[path] = h
                        continue
                    key = (nb, mask | bit)
                    if get(key, 99) > h:
                        nxt[key] = h
                if h < max_hops and (pmask >> sq) & 1 and (first_hop or sq != s):
                    for nb, bit in hop_steps:
                        if mask & bit:
                            continue
                        key = (nb, mask | bit)
                        if get(key, 99) > h + 1:
                            nxt[key] = h + 1
            layer = nxt
            by_end: dict[int, list[tuple[int, int]]] = {}
            for (end, mask), h in nxt.items():
                by_end.setdefault(end, []).append((h, mask ^ sbit))
            groups = []
            for end in sorted(by_end):
                entries = by_end[end]
                entries.sort(key=_fewest_hops)  # fewest hops first (the order of equals never matters)
                groups.append((1 << end, end, tuple(p for _h, p in entries), tuple(h for h, _p in entries)))
            flat = tuple(p for g in groups for p in g[2])
            flat_nt = tuple(p for g in groups if not (traps >> g[1]) & 1 for p in g[2])
            ex = sorted((h, p) for p, h in exits.items())
            ends = 0
            for g in groups:
                ends |= g[0]
            exit_paths = (tuple(p for _h, p in ex), tuple(h for h, _p in ex))
            by_square = {g[1]: (g[2], g[3]) for g in groups}
            out.append((flat, flat_nt, tuple(groups), exit_paths, ends, by_square))
        return out

    def start(self, s: int) -> list[Any]:
        got = self._start[s]
        if got is None:
            if self.start_hop or not (self.mansion.passage_mask >> s) & 1:
                got = self._start[s] = self._rest[s] = self._rest[s] or self._build(s, True)
            else:
                got = self._start[s] = self._build(s, False)
        return got

    def rest(self, s: int) -> list[Any]:
        got = self._rest[s]
        if got is None:
            if self.start_hop or not (self.mansion.passage_mask >> s) & 1:
                got = self.start(s)
            else:
                got = self._rest[s] = self._build(s, True)
        return got

    # --- answers ------------------------------------------------------------------------
    def can_move(self, s: int, count: int, blocked: int, exit_ok: bool, ends: int = -1) -> bool:
        """`Mansion.can_move` with chairs closed, for 1 <= count <= 2 * TABLE_DEPTH."""
        tab = self._start[s] or self.start(s)
        exit_ok = exit_ok and bool(ends & self.go_bit)
        if count <= TABLE_DEPTH:
            flat, flat_nt, groups, exits, _ends, _by_end = tab[count]
            paths = flat if ends == -1 else flat_nt if ends == self.not_traps else None
            if paths is not None:
                for path in paths:
                    if not path & blocked:
                        return True
            else:
                for end_bit, _end, ps, _hs in groups:
                    if end_bit & ends:
                        for path in ps:
                            if not path & blocked:
                                return True
            if exit_ok:
                for path in exits[0]:
                    if not path & blocked:
                        return True
            return False
        # A longer move: its first count // 2 steps, then the rest from where they end.
        if self._long_can(s, count, blocked, ends):
            return True
        return exit_ok and bool(self._long_exit(s, count, blocked))

    def destinations(self, s: int, count: int, blocked: int, exit_ok: bool) -> int:
        """`Mansion.destinations` with chairs closed, for 1 <= count <= 2 * TABLE_DEPTH."""
        tab = self._start[s] or self.start(s)
        out = 0
        if count <= TABLE_DEPTH:
            _flat, _flat_nt, groups, exits, _ends, _by_end = tab[count]
            for end_bit, _end, ps, _hs in groups:
                for path in ps:
                    if not path & blocked:
                        out |= end_bit
                        break
            if exit_ok:
                for path in exits[0]:
                    if not path & blocked:
                        out |= self.go_bit
                        break
            return out
        # A longer move: its first count // 2 steps, then the rest from where they end.
        return self._long_ends(s, count, blocked) | (self._long_exit(s, count, blocked) if exit_ok else 0)

    def _long_can(self, s: int, count: int, blocked: int, want: int) -> bool:
        """Whether a move of 7..12 steps from `s` whose path holds no pawn can end on `want`."""
        return bool(self._long_ends(s, count, blocked, want, True))

    def _long_ends(self, s: int, count: int, blocked: int, want: int = -1, first_only: bool = False) -> int:
        """The ends (in `want`) inside the mansion of the moves of 7..12 steps whose path holds no
        pawn; with `first_only`, the first one found. Such a move is its first count // 2 steps
        (from the tables) and the rest from where they end (the tables again), whose path must
        avoid the first part's squares and the start.

        Per square where the first part can end (and its number of hops), the free first parts
        are gathered: a second part that meets a square all of them pass (`core`) fits none; one
        that meets none of their squares (`union`) fits all; only between the two are they tried
        one by one."""
        tab = self._start[s] or self.start(s)
        first = count // 2
        second = count - first
        sbit = 1 << s
        avoid = blocked | sbit
        max_hops = self.max_hops
        rest = self._rest
        out = 0
        for _mbit, mid, paths, hops in tab[first][2]:
            tails = (rest[mid] or self.rest(mid))[second]
            if not tails[4] & want & ~out:
                continue  # nothing new can end from here
            n = len(paths)
            i = 0
            while i < n:
                h = hops[i]
                free = []
                union = 0
                core = -1
                while i < n and hops[i] == h:
                    path = paths[i]
                    i += 1
                    if not path & blocked:
                        free.append(path)
                        union |= path
                        core &= path
                if not free:
                    continue
                budget = max_hops - h
                for end_bit, _end, ps, hs in tails[2]:
                    if out & end_bit or not end_bit & want:
                        continue
                    for p2, h2 in zip(ps, hs, strict=True):
                        if h2 > budget:
                            break
                        if p2 & avoid or p2 & core:
                            continue
                        if p2 & union:
                            for path in free:
                                if not path & p2:
                                    break
                            else:
                                continue
                        out |= end_bit
                        if first_only:
                            return out
                        break
        return out

    def _long_exit(self, s: int, count: int, blocked: int) -> int:
        """The Game Over bit if a move of 7..12 steps from `s` can step onto it, else 0."""
        tab = self._start[s] or self.start(s)
        first = count // 2
        second = count - first
        heads = tab[first]
        for path in heads[3][0]:
            if not path & blocked:
                return self.go_bit
        sbit = 1 << s
        max_hops = self.max_hops
        rest = self._rest
        for _mbit, mid, paths, hops in heads[2]:
            rexits = (rest[mid] or self.rest(mid))[second][3]
            if not rexits[0]:
                continue
            for path, h in zip(paths, hops, strict=True):
                if path & blocked:
                    continue
                forbid = blocked | path | sbit
                budget = max_hops - h
                for p2, h2 in zip(*rexits, strict=True):
                    if h2 > budget:
                        break
                    if not p2 & forbid:
                        return self.go_bit
        return 0


def _fewest_hops(entry: tuple[int, int]) -> int:
    return entry[0]


# Answers of the movement searches, per mansion (see `Mansion.destinations`); a bound keeps a
# long-running server's memory flat.
_MEMO: dict[int, dict] = {}
_MEMO_LIMIT = 400_000


def squares_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def parse_grid(text: str) -> Mansion:
    grid = _read_grid(text)
    height, width = len(grid), len(grid[0])
    f = _scan(grid)
    neighbours = _neighbours(f, width, height)
    track = _track(f, width, height)
    return Mansion(
        width=width,
        height=height,
        grid=grid,
        neighbours=neighbours,
        walkable=f.walkable,
        chairs=f.chairs,
        traps=f.traps,
        trap_kind=f.trap_kind,
        trap_square={v: k for k, v in f.trap_kind.items()},
        passages=tuple(f.passages),
        passage_mask=f.passage_mask,
        door=f.door,
        game_over=f.game_over,
        track=tuple(track),
        chair_order=tuple(f.chair_order),
        balls=_balls(f, neighbours, width * height),
    )


def _read_grid(text: str) -> tuple[str, ...]:
    """The lines after '# grid:', padded to one width."""
    lines = text.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "# grid:") + 1
    except StopIteration:
        raise BoardError("mansion file has no '# grid:' line") from None
    grid_lines = [line.rstrip("\n") for line in lines[start:] if line.strip("\n")]
    width = max(len(line) for line in grid_lines)
    return tuple(line.ljust(width) for line in grid_lines)


@dataclass
class _Features:
    """What the grid's characters mark, square by square (bit masks and lists)."""

    walkable: int = 0
    chairs: int = 0
    traps: int = 0
    passage_mask: int = 0
    trap_kind: dict[int, str] = field(default_factory=dict)
    passages: list[int] = field(default_factory=list)
    chair_order: list[int] = field(default_factory=list)
    track_cells: set[int] = field(default_factory=set)
    door: int = -1
    game_over: int = -1
    track_start: int = -1


def _scan(grid: tuple[str, ...]) -> _Features:
    width = len(grid[0])
    known = set(TRAP_SQUARES) | set(FURNITURE) | set(FLOOR) | set(OUTSIDE)
    f = _Features()
    for r, line in enumerate(grid):
        for c, ch in enumerate(line):
            sq = r * width + c
            if ch not in known:
                raise BoardError(f"unknown character {ch!r} at {COLUMN_NAMES[c]}{r + 1}")
            if ch in FLOOR or ch in TRAP_SQUARES or ch == "X":
                f.walkable |= 1 << sq
            if ch == "R":
                f.chairs |= 1 << sq
                f.chair_order.append(sq)
            elif ch in TRAP_SQUARES:
                if TRAP_SQUARES[ch] in f.trap_kind.values():
                    raise BoardError(f"two {TRAP_SQUARES[ch]} trap squares")
                f.traps |= 1 << sq
                f.trap_kind[sq] = TRAP_SQUARES[ch]
            elif ch == "p":
                f.passages.append(sq)
                f.passage_mask |= 1 << sq
            elif ch == "D":
                f.door = sq
            elif ch == "X":
                f.game_over = sq
            elif ch == "o":
                f.track_cells.add(sq)
            elif ch == "^":
                f.track_start = sq
    if f.door < 0 or f.game_over < 0 or f.track_start < 0:
        raise BoardError("the grid needs a front door D, a Game Over square X and a Detective start ^")
    if len(f.trap_kind) != 5 or len(f.passages) != 5 or len(f.chair_order) != 12:
        raise BoardError(
            f"expected 5 traps, 5 passages, 12 Red Chairs; found {len(f.trap_kind)}, "
            f"{len(f.passages)}, {len(f.chair_order)}"
        )
    return f


def _orth(sq: int, width: int, height: int) -> list[int]:
    r, c = divmod(sq, width)
    out = []
    for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < height and 0 <= cc < width:
            out.append(rr * width + cc)
    return out


def _neighbours(f: _Features, width: int, height: int) -> tuple[tuple[int, ...], ...]:
    neighbours: list[tuple[int, ...]] = []
    for sq in range(width * height):
        if not f.walkable >> sq & 1:
            neighbours.append(())
            continue
        nbs = [n for n in _orth(sq, width, height) if f.walkable >> n & 1]
        # Game Over is entered only from the front door (and left never).
        if sq == f.game_over:
            nbs = []
        nbs = [n for n in nbs if n != f.game_over or sq == f.door]
        neighbours.append(tuple(nbs))
    if f.game_over not in neighbours[f.door]:
        raise BoardError("the Game Over square must touch the front door")
    return tuple(neighbours)


def _track(f: _Features, width: int, height: int) -> list[int]:
    """The Detective's track: Start, then each track square touching the last, then Game Over."""
    track = [f.track_start]
    left = set(f.track_cells)
    while True:
        nxt = [n for n in _orth(track[-1], width, height) if n in left]
        if not nxt:
            break
        if len(nxt) > 1:
            raise BoardError(
                f"the Detective's track forks at {COLUMN_NAMES[track[-1] % width]}{track[-1] // width + 1}"
            )
        track.append(nxt[0])
        left.discard(nxt[0])
    if left or f.game_over not in _orth(track[-1], width, height):
        raise BoardError("the Detective's track must run from ^ through every o to X")
    track.append(f.game_over)
    return track


def _balls(f: _Features, neighbours: tuple[tuple[int, ...], ...], n: int) -> tuple[tuple[int, ...], ...]:
    """For the movement memo: the squares within r steps (walking or hopping), r = 0..12."""
    hop = {sq: [p for p in f.passages if p != sq] for sq in f.passages}
    balls: list[tuple[int, ...]] = []
    for sq in range(n):
        if not f.walkable >> sq & 1:
            balls.append(())
            continue
        dist = {sq: 0}
        frontier = [sq]
        layers = [1 << sq]
        for _ in range(12):
            nxt = []
            for s in frontier:
                for nb in list(neighbours[s]) + hop.get(s, []):
                    if nb not in dist:
                        dist[nb] = dist[s] + 1
                        nxt.append(nb)
            frontier = nxt
            layers.append(layers[-1] | sum(1 << s for s in nxt))
        balls.append(tuple(layers))
    return tuple(balls)


@cache
def load_mansion(name: str = "mansion.txt") -> Mansion:
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return parse_grid(text)


def step_distances(m: Mansion, src: int) -> dict[int, int]:
    """Steps from `src` to every square it can reach, pawns ignored (chairs block, the secret
    passages connect, as in a move): the static distances the agents and the evaluation use."""
    dist = {src: 0}
    queue = deque([src])
    while queue:
        sq = queue.popleft()
        nbs = list(m.neighbours[sq])
        if sq in m.passages:
            nbs += [p for p in m.passages if p != sq]
        for nb in nbs:
            if nb not in dist and not (m.chairs >> nb & 1) and nb != m.game_over:
                dist[nb] = dist[sq] + 1
                queue.append(nb)
    return dist
