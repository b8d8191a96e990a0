"""The mansion: the grid from `mansion.txt`, its squares, and how pawns move on it.

Squares are numbered row by row (`row * width + col`); a set of squares is an int bitmask.
Movement (seed 004, "Pawn Movement Rules" and "Secret Passage Spaces") is a search over
simple paths: a pawn moves exactly `count` squares, never entering a square twice (its start
included), never entering walls, furniture or other pawns; a hop between two Secret Passage
squares counts 1. Which squares a move may end on is the caller's business (traps, chairs).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cache
from importlib import resources

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
        """
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

        A depth-first search that stops at the first path found; dead ends are remembered with the
        same key as the memo of `destinations`, so a failing search stays cheap.
        """
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
    lines = text.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "# grid:") + 1
    except StopIteration:
        raise BoardError("mansion file has no '# grid:' line") from None
    grid_lines = [line.rstrip("\n") for line in lines[start:] if line.strip("\n")]
    width = max(len(line) for line in grid_lines)
    grid = tuple(line.ljust(width) for line in grid_lines)
    height = len(grid)
    known = set(TRAP_SQUARES) | set(FURNITURE) | set(FLOOR) | set(OUTSIDE)
    walkable = chairs = traps = passage_mask = 0
    trap_kind: dict = {}
    passages = []
    chair_order = []
    door = game_over = track_start = None
    track_cells = set()
    for r, line in enumerate(grid):
        for c, ch in enumerate(line):
            sq = r * width + c
            if ch not in known:
                raise BoardError(f"unknown character {ch!r} at {COLUMN_NAMES[c]}{r + 1}")
            if ch in FLOOR or ch in TRAP_SQUARES or ch == "X":
                walkable |= 1 << sq
            if ch == "R":
                chairs |= 1 << sq
                chair_order.append(sq)
            elif ch in TRAP_SQUARES:
                if TRAP_SQUARES[ch] in trap_kind.values():
                    raise BoardError(f"two {TRAP_SQUARES[ch]} trap squares")
                traps |= 1 << sq
                trap_kind[sq] = TRAP_SQUARES[ch]
            elif ch == "p":
                passages.append(sq)
                passage_mask |= 1 << sq
            elif ch == "D":
                door = sq
            elif ch == "X":
                game_over = sq
            elif ch == "o":
                track_cells.add(sq)
            elif ch == "^":
                track_start = sq
    if door is None or game_over is None or track_start is None:
        raise BoardError("the grid needs a front door D, a Game Over square X and a Detective start ^")
    if len(trap_kind) != 5 or len(passages) != 5 or len(chair_order) != 12:
        raise BoardError(
            f"expected 5 traps, 5 passages, 12 Red Chairs; found {len(trap_kind)}, "
            f"{len(passages)}, {len(chair_order)}"
        )

    def orth(sq: int) -> list[int]:
        r, c = divmod(sq, width)
        out = []
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < height and 0 <= cc < width:
                out.append(rr * width + cc)
        return out

    neighbours: list[tuple[int, ...]] = []
    for sq in range(width * height):
        if not walkable >> sq & 1:
            neighbours.append(())
            continue
        nbs = [n for n in orth(sq) if walkable >> n & 1]
        # Game Over is entered only from the front door (and left never).
        if sq == game_over:
            nbs = []
        nbs = [n for n in nbs if n != game_over or sq == door]
        neighbours.append(tuple(nbs))
    if game_over not in neighbours[door]:
        raise BoardError("the Game Over square must touch the front door")

    # The Detective's track: Start, then each track square touching the last, then Game Over.
    track = [track_start]
    left = set(track_cells)
    while True:
        nxt = [n for n in orth(track[-1]) if n in left]
        if not nxt:
            break
        if len(nxt) > 1:
            raise BoardError(
                f"the Detective's track forks at {COLUMN_NAMES[track[-1] % width]}{track[-1] // width + 1}"
            )
        track.append(nxt[0])
        left.discard(nxt[0])
    if left or game_over not in orth(track[-1]):
        raise BoardError("the Detective's track must run from ^ through every o to X")
    track.append(game_over)

    # Balls for the movement memo: squares within r steps (walking or hopping), r = 0..12.
    n = width * height
    hop = {sq: [p for p in passages if p != sq] for sq in passages}
    balls: list[tuple[int, ...]] = []
    for sq in range(n):
        if not walkable >> sq & 1:
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
    return Mansion(
        width=width,
        height=height,
        grid=grid,
        neighbours=tuple(neighbours),
        walkable=walkable,
        chairs=chairs,
        traps=traps,
        trap_kind=trap_kind,
        trap_square={v: k for k, v in trap_kind.items()},
        passages=tuple(passages),
        passage_mask=passage_mask,
        door=door,
        game_over=game_over,
        track=tuple(track),
        chair_order=tuple(chair_order),
        balls=tuple(balls),
    )


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
