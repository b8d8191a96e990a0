"""Drawing the mansion: the terminal picture from one seat's point of view (only what the seat may
know). The data the browser needs to draw it is drawing.py's `mansion_drawing` (re-exported here)."""

from __future__ import annotations

from .board import COLUMN_NAMES, TRAP_SQUARES
from .components import CARD_NAMES, LETTERS, NAMES, NUM_PAWNS, TRAP_KINDS
from .drawing import mansion_drawing  # noqa: F401 - re-exported for older imports
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
