"""What a picture of the mansion needs (rooms, furniture pieces, trap anchors, doorways and a
legend), worked out from the grid: public data for the browser, the same for every state of a
game (the static part of 13 Dead End Drive's views). It reads the board alone, so the rules
(game.py) use it directly."""

from __future__ import annotations

from typing import Any

from .board import FLOOR, FURNITURE, OUTSIDE, TRAP_SQUARES, Mansion

_SIDES = (("up", -1, 0), ("left", 0, -1), ("right", 0, 1), ("down", 1, 0))
_NOT_ROOMS = ("front door", "front lawn")
_DRAWINGS: dict[tuple[str, ...], dict[str, Any]] = {}


def _msg(kind: str, words: str) -> dict[str, Any]:
    """A board word as a typed message of the game's catalog (dead_end_drive.<kind>.<words>)."""
    return {"msg": f"dead_end_drive.{kind}.{words.lower().replace(' ', '_')}", "args": {}}


def mansion_drawing(m: Mansion) -> dict[str, Any]:
    """Rooms, furniture pieces, trap anchors, doorways and the legend of mansion `m`, as JSON-ready
    data. Made once per grid and shared by every view (a copy per view cost twice the rest of the
    view): read it, never change it."""
    drawing = _DRAWINGS.get(m.grid)
    if drawing is None:
        drawing = _DRAWINGS[m.grid] = _drawing(m)
    return drawing


def _cell(m: Mansion, r: int, c: int) -> str:
    """The grid's character at row r, column c (a space outside the grid)."""
    return m.grid[r][c] if 0 <= r < m.height and 0 <= c < len(m.grid[r]) else " "


def _square(m: Mansion, r: int, c: int) -> str:
    return m.name(r * m.width + c)


def _kinds() -> dict[str, str]:
    return {**OUTSIDE, **FLOOR, **FURNITURE, **{ch: f"{k} trap" for ch, k in TRAP_SQUARES.items()}}


def _drawing(m: Mansion) -> dict[str, Any]:
    kinds = _kinds()
    doorways = _doorways(m)
    return {
        "key": {k: kinds[k] for k in sorted({k for row in m.grid for k in row}) if k in kinds},
        "rooms": _rooms(m, {d["square"] for d in doorways}),
        "pieces": _furniture(m, kinds),
        "traps": _traps(m),
        "doorways": doorways,
        "legend": _legend(m, kinds),
    }


def _doorways(m: Mansion) -> list[dict[str, str]]:
    """Floor squares set in a wall (walls on both sides), the front door excepted."""

    def ch(r: int, c: int) -> str:
        return _cell(m, r, c)

    def sq(r: int, c: int) -> str:
        return _square(m, r, c)

    doorways = []
    for r in range(m.height):
        for c in range(m.width):
            if ch(r, c) not in ".~p":
                continue
            if ch(r, c - 1) == "#" and ch(r, c + 1) == "#":
                doorways.append({"square": sq(r, c), "along": "row"})
            elif ch(r - 1, c) == "#" and ch(r + 1, c) == "#":
                doorways.append({"square": sq(r, c), "along": "column"})

    return doorways


def _rooms(m: Mansion, in_walls: set[str]) -> list[dict[str, Any]]:
    """Each room's bounding box (its squares that are not wall) and where its name plaque goes:
    the longest stretch of wall above the room, where no pawn ever stands."""

    def ch(r: int, c: int) -> str:
        return _cell(m, r, c)

    def sq(r: int, c: int) -> str:
        return _square(m, r, c)

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
                # the page's words for it (the game's catalog, i18n/*.po)
                "name_msg": _msg("room", name),
                "row": r0,
                "col": c0,
                "rows": r1 - r0 + 1,
                "cols": c1 - c0 + 1,
                "label": {"row": wall_row, "col": best[1], "cols": best[0]},
            }
        )

    return rooms


def _furniture(m: Mansion, kinds: dict[str, str]) -> list[dict[str, Any]]:
    """Squares of one kind that touch make one piece (the dining table is six squares)."""

    def ch(r: int, c: int) -> str:
        return _cell(m, r, c)

    def sq(r: int, c: int) -> str:
        return _square(m, r, c)

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

    return pieces


def _traps(m: Mansion) -> list[dict[str, Any]]:
    """Each trap and the side where its furniture stands (a wall, or the statue's plinth), if any."""

    def ch(r: int, c: int) -> str:
        return _cell(m, r, c)

    traps = []
    for square, kind in sorted(m.trap_kind.items()):
        r, c = divmod(square, m.width)
        against = next((side for side, dr, dc in _SIDES if ch(r + dr, c + dc) in FURNITURE), None)
        against = against or next((side for side, dr, dc in _SIDES if ch(r + dr, c + dc) == "#"), None)
        traps.append({"square": m.name(square), "kind": kind, "against": against})

    return traps


def _legend(m: Mansion, kinds: dict[str, str]) -> list[dict[str, Any]]:
    """Every kind of thing on this grid, furniture first, in reading order, with typed words
    (label_msg: the game's catalog words it in the page's language)."""
    present: list[str] = []
    for row in m.grid:
        for k in row:
            if k in FURNITURE and kinds[k] not in present:
                present.append(kinds[k])
    # Each label with its typed words (label_msg: the game's catalog words it in the page's language).
    legend = [{"kind": k, "label": k.capitalize(), "label_msg": _msg("feature", k)} for k in present]
    legend += [{"kind": "red chair", "label": "Red Chair (start)", "label_msg": _msg("legend", "red chair")}]
    legend += [
        {"kind": f"{k} trap", "label": f"{k.capitalize()} trap", "label_msg": _msg("trap", k)}
        for k in TRAP_SQUARES.values()
    ]
    legend += [
        {"kind": kind, "label": label, "label_msg": _msg("legend", kind)}
        for kind, label in (
            ("rug", "Rug (floor)"),
            ("secret passage", "Secret passage"),
            ("doorway", "Doorway"),
            ("front door", "Front door"),
            ("game over", "Game Over (exit)"),
            ("detective track", "Detective's track"),
        )
    ]
    return legend
