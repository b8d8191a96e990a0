"""Drawing the mansion: the terminal picture from one seat's point of view (only what the seat may
know), and the data the browser needs to draw it (`mansion_drawing`, added to every view)."""

from __future__ import annotations

from typing import Any

from .board import COLUMN_NAMES, FLOOR, FURNITURE, OUTSIDE, TRAP_SQUARES, Mansion
from .components import CARD_NAMES, LETTERS, NAMES, NUM_PAWNS, TRAP_KINDS
from .game import DeadEndDriveState

OFF = -1
TRAP_DIGIT = {kind: str(i + 1) for i, kind in enumerate(TRAP_KINDS)}
GLYPH = {
    "#": "#",
    ".": ".",
    "~": "~",
    "R": "r",
    "T": "t",
    "S": "s",
    "L": "l",
    "h": "h",
    "V": "v",
    "K": "k",
    "G": "g",
    "E": "e",
    "p": "*",
    "D": "+",
    "X": "X",
    "o": "-",
    "^": "-",
    " ": " ",
}
LEGEND = (
    "A-Z pawns   # wall   . floor   ~ rug   r red chair   * secret passage   + front door   "
    "X Game Over   & Detective on his track (-)\n"
    "furniture: t table  s sofa  l large sofa  h chair  v vase  k desk  g gold statue  e easel\n"
    "traps: " + "  ".join(f"{TRAP_DIGIT[k]} {k}" for k in TRAP_KINDS)
)


def render_text(s: DeadEndDriveState, seat: int | None = None) -> str:
    g = s.game
    m = g.mansion
    at = {sq: LETTERS[p] for p, sq in enumerate(s.pos) if sq != OFF}
    det_sq = m.track[s.detective]
    lines = []
    who = "spectator" if seat is None else f"Player {seat + 1}"
    status = _status(s)
    lines.append(f"13 Dead End Drive · turn {s.turns + 1} · {status} · seen by {who}")
    portrait = "Aunt Agatha" if s.portrait is None else f"{NAMES[s.portrait]} ({LETTERS[s.portrait]})"
    lines.append(
        f"Portrait on the wall: {portrait} · {len(s.unseen) + len(s.cycle)} more in the frame · "
        f"Detective: step {s.detective} of {len(m.track) - 1}"
    )
    lines.append("    " + " ".join(COLUMN_NAMES[c] for c in range(m.width)))
    for r in range(m.height):
        row = []
        for c in range(m.width):
            sq = r * m.width + c
            ch = m.grid[r][c]
            if sq in at:
                row.append(at[sq])
            elif sq == det_sq:
                row.append("&")
            elif ch in TRAP_SQUARES:
                row.append(TRAP_DIGIT[TRAP_SQUARES[ch]])
            else:
                row.append(GLYPH.get(ch, "?"))
        lines.append(f"{r + 1:>3} " + " ".join(row))
    lines.append(LEGEND)
    pawn_bits = []
    for p in range(NUM_PAWNS):
        sq = s.pos[p]
        if sq == OFF:
            owner = s.revealed.get(p)
            tag = "knocked off, " + ("secret card" if owner is None else f"was Player {owner + 1}'s")
        elif sq == m.game_over:
            tag = "escaped"
        else:
            tag = m.name(sq)
        pawn_bits.append(f"{LETTERS[p]} {NAMES[p]}: {tag}")
    for i in range(0, NUM_PAWNS, 4):
        lines.append("  " + " · ".join(pawn_bits[i : i + 4]))
    seats = []
    for o in range(g.players):
        bit = f"Player {o + 1}: {len(s.chars[o])} character card(s), {len(s.hands[o])} trap card(s)"
        if s.out[o]:
            bit += " (out)"
        seats.append(bit)
    lines.append("  " + " | ".join(seats))
    lines.append(
        f"  Trap pile: {len(s.pile)} card(s) · discard: "
        + (", ".join(CARD_NAMES[c] for c in s.discard[-6:]) or "empty")
        + (f" (+{len(s.discard) - 6} more)" if len(s.discard) > 6 else "")
    )
    if seat is not None:
        mine = ", ".join(f"{NAMES[p]} ({LETTERS[p]})" for p in s.chars[seat]) or "none left"
        traps = ", ".join(sorted(CARD_NAMES[c] for c, _, _ in s.hands[seat])) or "none"
        lines.append(f"  Your pawns (secret): {mine}")
        lines.append(f"  Your trap cards: {traps}")
        if g.players == 2:
            lines.append(f"  Secret cards: {len(s.secret[seat])} face down (nobody may look)")
        if s.drawn is not None and seat == s.to_move:
            lines.append(f"  You drew: {CARD_NAMES[s.drawn]}")
    return "\n".join(lines)


def _status(s: DeadEndDriveState) -> str:
    m = s.game.mansion
    if s.phase == "over":
        if s.truncated:
            return "stopped (turn limit), no winner"
        return f"game over: Player {s.winner_seat() + 1} wins with {NAMES[s.winner_pawn]} ({s.win_reason})"
    who = f"Player {s.to_move + 1}"
    dice = f" · dice left {' '.join(map(str, s.dice))}" if s.dice else ""
    if s.phase in ("first", "reveal", "roll"):
        return f"{who}'s turn · {s.phase}"
    if s.phase == "portrait":
        return f"{who} rolled doubles: change the portrait?{dice}"
    if s.phase == "select":
        return f"{who} to move a pawn{dice}" + (
            " (opening: pawns on the Red Chairs first)" if s.opening else ""
        )
    if s.phase == "dest":
        p, c = s.selected
        return f"{who} moves {NAMES[p]} {c}: where to?{dice}"
    if s.phase == "trap":
        return f"{who}: {NAMES[s.trap_pawn]} is on the {m.trap_kind[s.pos[s.trap_pawn]]} trap: play or draw"
    if s.phase == "drawn":
        return f"{who} drew a card for the {m.trap_kind[s.pos[s.trap_pawn]]} trap: spring or keep"
    return s.phase


# --- what the browser needs to draw the mansion ------------------------------------------------
# The rules' view carries the grid; a picture also needs the rooms, the furniture grouped into
# pieces, which wall each trap's furniture stands against, the doorways and a legend. None of it
# is a rule or a secret: it is worked out from the grid alone, once per mansion.

_SIDES = (("up", -1, 0), ("left", 0, -1), ("right", 0, 1), ("down", 1, 0))
_NOT_ROOMS = ("front door", "front lawn")
_DRAWINGS: dict[tuple[str, ...], dict[str, Any]] = {}


def mansion_drawing(m: Mansion) -> dict[str, Any]:
    """Rooms, furniture pieces, trap anchors, doorways and the legend of mansion `m`, as JSON-ready
    data. Made once per grid and shared by every view (a copy per view cost twice the rest of the
    view): read it, never change it."""
    drawing = _DRAWINGS.get(m.grid)
    if drawing is None:
        drawing = _DRAWINGS[m.grid] = _drawing(m)
    return drawing


def _drawing(m: Mansion) -> dict[str, Any]:
    kinds = {**OUTSIDE, **FLOOR, **FURNITURE, **{ch: f"{k} trap" for ch, k in TRAP_SQUARES.items()}}

    def ch(r: int, c: int) -> str:
        return m.grid[r][c] if 0 <= r < m.height and 0 <= c < len(m.grid[r]) else " "

    def sq(r: int, c: int) -> str:
        return m.name(r * m.width + c)

    # Doorways: floor squares set in a wall (walls on both sides), the front door excepted.
    doorways = []
    for r in range(m.height):
        for c in range(m.width):
            if ch(r, c) not in ".~p":
                continue
            if ch(r, c - 1) == "#" and ch(r, c + 1) == "#":
                doorways.append({"square": sq(r, c), "along": "row"})
            elif ch(r - 1, c) == "#" and ch(r + 1, c) == "#":
                doorways.append({"square": sq(r, c), "along": "column"})

    in_walls = {d["square"] for d in doorways}

    # Rooms: the bounding box of each room's squares that are not wall; the name goes on the
    # longest stretch of wall above the room (a plaque where no pawn ever stands).
    boxes: dict[str, list[int]] = {}
    for r in range(m.height):
        for c in range(m.width):
            if ch(r, c) in "# " or sq(r, c) in in_walls:
                continue
            name = m.room(r * m.width + c)
            if name in _NOT_ROOMS:
                continue
            b = boxes.setdefault(name, [r, c, r, c])
            b[0], b[1], b[2], b[3] = min(b[0], r), min(b[1], c), max(b[2], r), max(b[3], c)
    # Wall squares a trap's furniture is drawn on (the bookcase, the fireplace), with their
    # neighbours along the wall: no room name goes there.
    busy: set[tuple[int, int]] = set()
    for square in m.trap_kind:
        r, c = divmod(square, m.width)
        for _, dr, dc in _SIDES:
            if ch(r + dr, c + dc) == "#":
                busy |= {(r + dr + dc * k, c + dc + dr * k) for k in (-1, 0, 1)}
                break
    rooms = []
    for name, (r0, c0, r1, c1) in boxes.items():
        wall_row = r0 - 1
        best = (0, c0)
        run = 0
        for c in range(c0, c1 + 1):
            run = run + 1 if ch(wall_row, c) == "#" and (wall_row, c) not in busy else 0
            if run > best[0]:
                best = (run, c - run + 1)
        rooms.append(
            {
                "name": name,
                "row": r0,
                "col": c0,
                "rows": r1 - r0 + 1,
                "cols": c1 - c0 + 1,
                "label": {"row": wall_row, "col": best[1], "cols": best[0]},
            }
        )

    # Furniture: squares of one kind that touch make one piece (the dining table is six squares).
    pieces = []
    seen: set[tuple[int, int]] = set()
    for r in range(m.height):
        for c in range(m.width):
            kind_ch = ch(r, c)
            if (r, c) in seen or (kind_ch not in FURNITURE and kind_ch != "R"):
                continue
            group = [(r, c)]
            seen.add((r, c))
            if kind_ch != "R":  # each Red Chair is its own piece
                i = 0
                while i < len(group):
                    gr, gc = group[i]
                    i += 1
                    for _, dr, dc in _SIDES:
                        n = (gr + dr, gc + dc)
                        if n not in seen and ch(*n) == kind_ch:
                            seen.add(n)
                            group.append(n)
            rows = [g[0] for g in group]
            cols = [g[1] for g in group]
            piece: dict[str, Any] = {
                "kind": kinds[kind_ch],
                "squares": [sq(gr, gc) for gr, gc in sorted(group)],
                "row": min(rows),
                "col": min(cols),
                "rows": max(rows) - min(rows) + 1,
                "cols": max(cols) - min(cols) + 1,
            }
            if kind_ch in "hR":  # a chair faces the table or desk beside it
                piece["facing"] = next(
                    (side for side, dr, dc in _SIDES if ch(r + dr, c + dc) in FURNITURE), None
                )
            pieces.append(piece)

    # Traps: the side where the trap's furniture stands (a wall, or the statue's plinth), if any.
    traps = []
    for square, kind in sorted(m.trap_kind.items()):
        r, c = divmod(square, m.width)
        against = next((side for side, dr, dc in _SIDES if ch(r + dr, c + dc) in FURNITURE), None)
        against = against or next((side for side, dr, dc in _SIDES if ch(r + dr, c + dc) == "#"), None)
        traps.append({"square": m.name(square), "kind": kind, "against": against})

    # The legend: every kind of thing on this grid, furniture first, in reading order.
    present: list[str] = []
    for row in m.grid:
        for k in row:
            if k in FURNITURE and kinds[k] not in present:
                present.append(kinds[k])
    legend = [{"kind": k, "label": k.capitalize()} for k in present]
    legend += [{"kind": "red chair", "label": "Red Chair (start)"}]
    legend += [{"kind": f"{k} trap", "label": f"{k.capitalize()} trap"} for k in TRAP_SQUARES.values()]
    legend += [
        {"kind": "rug", "label": "Rug (floor)"},
        {"kind": "secret passage", "label": "Secret passage"},
        {"kind": "doorway", "label": "Doorway"},
        {"kind": "front door", "label": "Front door"},
        {"kind": "game over", "label": "Game Over (exit)"},
        {"kind": "detective track", "label": "Detective's track"},
    ]
    return {
        "key": {k: kinds[k] for k in sorted({k for row in m.grid for k in row}) if k in kinds},
        "rooms": rooms,
        "pieces": pieces,
        "traps": traps,
        "doorways": doorways,
        "legend": legend,
    }
