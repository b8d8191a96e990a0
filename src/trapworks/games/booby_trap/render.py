"""Terminal drawing of the tray: the far wall on the left, the spring bar on the right."""

from __future__ import annotations

from trapworks.core.messages import format_message
from trapworks.core.words import plural

from .game import BoobyTrapState, eye
from .physics import MARK, POINTS, SIZE_NAMES, SIZES, TRAY_WIDTH

COL_MM = 4.0  # one character column is 4 mm along the tray
ROW_MM = 9.0  # one line is 9 mm across it (characters are about twice as tall as wide)


def render_text(state: BoobyTrapState, seat: int | None = None) -> str:
    game = state.game
    grid = _tray_grid(state)
    cols = len(grid[0])
    lines = [
        f"Booby Trap · {game.variant} · {state.pieces_left()} pieces on the tray "
        f"(the game ends at {game.end_at})"
    ]
    lines.append(" +" + "-" * cols + "+")
    for row in grid:
        lines.append(" |" + "".join(row) + "#")
    lines.append(" +" + "-" * cols + "+")
    lines.append(_scale_line(state, cols))
    lines.append(
        "  s/m/l = small (1 pt) / medium (2) / large (3) piece and its number; * = touched; "
        "# = the spring bar"
    )
    lines += _accounts_lines(state, seat)
    lines += _turn_lines(state)
    return "\n".join(lines)


def _tray_grid(state: BoobyTrapState) -> list[list[str]]:
    """The tray in characters: disc outlines first, then each piece's label (size letter + id)
    at its centre."""
    bar = state.packing.bar
    cols = int(bar / COL_MM) + 1
    rows = int(TRAY_WIDTH / ROW_MM) + 1
    grid = [[" "] * cols for _ in range(rows)]
    # Disc outlines first, then each piece's label (size letter + id) at its centre.
    for p in state.packing.pieces:
        for r in range(rows):
            for c in range(cols):
                dx = (c + 0.5) * COL_MM - p.x
                dy = (r + 0.5) * ROW_MM - p.y
                if dx * dx + dy * dy <= p.radius * p.radius and grid[r][c] == " ":
                    grid[r][c] = "."
    for p in state.packing.pieces:
        label = f"{p.size.lower()}{p.id}" if p.id != state.touched else f"{p.size}{p.id}*"
        r = min(rows - 1, int(p.y / ROW_MM))
        c = max(0, min(cols - len(label), int(p.x / COL_MM) - len(label) // 2))
        for i, ch in enumerate(label):
            grid[r][c + i] = ch
    return grid


def _scale_line(state: BoobyTrapState, cols: int) -> str:
    """The scale: a tick every mark (1/4 inch) counted back from where the bar rested at setup."""
    bar = state.packing.bar
    scale = [" "] * (cols + 8)
    k = 0
    while True:
        x = state.bar_rest - k * MARK
        c = int(x / COL_MM) + 2
        if x < 0 or c < 0:
            break
        if c < len(scale):
            scale[c] = "|" if k % 4 == 0 else "'"
        k += 1
    bar_c = int(bar / COL_MM) + 2
    if 0 <= bar_c < len(scale):
        scale[bar_c] = "^"
    # Read on the scale as an eye reads it (game.EYE_MM), as the views give it.
    moved = (eye(state.bar_rest) - eye(state.packing.bar)) / MARK
    return "".join(scale) + f"  bar moved {moved:.2f} marks since the setup"


def _accounts_lines(state: BoobyTrapState, seat: int | None) -> list[str]:
    """Each player's winnings, the discard pile, the last removal and the seat's own readings."""
    game = state.game
    lines: list[str] = []
    for s in range(game.players):
        held = {z: sum(1 for p in state.winnings[s] if state.sizes[p] == z) for z in SIZES}
        held_text = ", ".join(f"{held[z]} {SIZE_NAMES[z]}" for z in SIZES if held[z]) or "no pieces"
        debt = f", owes {state.debt[s]}" if state.debt[s] else ""
        lines.append(
            f"  Player {s + 1}: net {state.scores()[s]} ({held_text}{debt}); "
            f"tripped the bar {state.trips[s]} {plural(state.trips[s], 'time')}"
        )
    disc = {z: sum(1 for p in state.discard if state.sizes[p] == z) for z in SIZES}
    lines.append(
        "  Discard pile: " + (", ".join(f"{disc[z]} {SIZE_NAMES[z]}" for z in SIZES if disc[z]) or "empty")
    )
    if state.last_removal:
        lines.append("  Last: " + format_message(state.last_removal, type(game)))
    if seat is not None and 0 <= seat < game.players:
        mine = [r for r in state.readings[seat] if r["settle"] == state.removals]
        if mine:
            lines.append(
                "  Your readings since the last removal: "
                + ", ".join(f"piece {r['piece']} {r['feel']} ({r['reading']:.2f})" for r in mine[-8:])
            )
    return lines


def _turn_lines(state: BoobyTrapState) -> list[str]:
    """Who is to do what now, or the result."""
    game = state.game
    lines: list[str] = []
    if state.over:
        lines.append("  " + format_message(state.result_message(), type(game)))
    else:
        who = f"Player {state.to_move + 1}"
        if state.touched is None:
            lines.append(
                f"  {who} to touch a piece (touch N)."
                + (
                    f" Allowed now: {SIZE_NAMES[state.sizes[state.touchable()[0]]]} pieces."
                    if game.variant == "sizes-in-order"
                    else ""
                )
            )
        else:
            size = state.sizes[state.touched]
            must = " You must remove it." if state.must_remove() else " Remove it or pass."
            lines.append(
                f"  {who} has touched piece {state.touched} ({SIZE_NAMES[size]}, {POINTS[size]} pt).{must}"
            )
        if state.passes_in_row:
            lines.append(
                f"  Passes in a row: {state.passes_in_row} (after {2 * game.players} the next "
                "player must remove)"
            )
    return lines
