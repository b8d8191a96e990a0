"""Helpers for the Booby Trap tests: rulebook citations and constructed tray positions."""

from __future__ import annotations

import math

import rulebook
import trapworks
from trapworks.games.booby_trap import physics
from trapworks.games.booby_trap.game import BoobyTrapState
from trapworks.games.booby_trap.physics import RADIUS, TRAY_WIDTH, Packing, Piece


def cite(sentence: str) -> str:
    """Cite rulebook 001 (checked whenever the rulebooks are found, see tests/rulebook.py)."""
    return rulebook.cite("001", sentence)


def constructed(
    tray: list[tuple[str, float, float]],
    bar: float,
    *,
    players: int = 2,
    variant: str = "regular",
    per_size: int = 5,
    won: list[list[str]] | None = None,
    debt: list[int] | None = None,
    trips: list[int] | None = None,
    to_move: int = 0,
    **options,
) -> BoobyTrapState:
    """A state with the given pieces on the tray (size, x, y), the rest of the pieces split into
    the players' winnings (`won`: sizes per seat) and the discard pile."""
    game = trapworks.make("booby-trap", players=players, variant=variant, pieces_per_size=per_size, **options)
    pool = {s: list(range(i * per_size, (i + 1) * per_size)) for i, s in enumerate("SML")}
    sizes = "".join(s * per_size for s in "SML")
    pieces = []
    for size, x, y in tray:
        pieces.append(Piece(pool[size].pop(0), size, float(x), float(y)))
    pieces.sort(key=lambda p: p.id)
    winnings = [[pool[s].pop(0) for s in seat] for seat in (won or [[] for _ in range(players)])]
    discard = sorted(p for ids in pool.values() for p in ids)

    def ids(items):
        return ".".join(map(str, items)) or "-"

    text = " ".join(
        [
            "bt1",
            f"sizes={sizes}",
            "tray=" + (",".join(f"{p.id}:{p.x!r}:{p.y!r}" for p in pieces) or "-"),
            f"bar={float(bar)!r}",
            f"rest={float(bar)!r}",
            f"turn={to_move + 1}",
            "touched=-",
            "passes=0",
            "touches=0",
            "key=7",
            "settles=0",
            "won=" + "/".join(ids(w) for w in winnings),
            "debt=" + "/".join(map(str, debt or [0] * players)),
            "trips=" + "/".join(map(str, trips or [0] * players)),
            f"discard={ids(discard)}",
        ]
    )
    return game.state_from_position(text)


def piece_at(state: BoobyTrapState, x: float, y: float) -> int:
    """Id of the tray piece whose centre is nearest (x, y)."""
    return min(state.packing.pieces, key=lambda p: (p.x - x) ** 2 + (p.y - y) ** 2).id


# --- constructed layouts ----------------------------------------------------------
L, M, S = RADIUS["L"], RADIUS["M"], RADIUS["S"]
MID = TRAY_WIDTH / 2


def column(sizes: str, y: float) -> list[tuple[str, float, float]]:
    """Pieces in a straight touching column from the far wall along x, at height y."""
    out, x = [], 0.0
    for s in sizes:
        r = RADIUS[s]
        out.append((s, x + r, y))
        x += 2 * r
    return out


def column_length(sizes: str) -> float:
    return sum(2 * RADIUS[s] for s in sizes)


def support_layout(support: str) -> tuple[list[tuple[str, float, float]], float]:
    """A load-bearing column of three large pieces in the middle (bar resting on it), a shorter
    column `support` near one side wall, and a small piece lying free in the other corner."""
    tray = column("LLL", MID) + column(support, 40.0) + [("S", 40.0, TRAY_WIDTH - 20.0)]
    return tray, column_length("LLL")


def arch_layout() -> tuple[list[tuple[str, float, float]], float, tuple[float, float]]:
    """A pointed arch of large pieces: two straight legs from the far wall's corners meet under
    a keystone that the bar presses on; a small piece lies free under the arch.
    Returns (tray, bar, keystone centre)."""
    k = 3
    ly = MID - L
    lx = math.sqrt((k * 2 * L) ** 2 - ly * ly)
    tray = []
    for side in (-1, 1):
        for j in range(k):
            t = j / k
            tray.append(("L", L + lx * t, MID + side * ly * (1 - t)))
    key = (L + lx, MID)
    tray.append(("L", *key))
    tray.append(("S", 30.0, MID))
    return tray, key[0] + L, key


def bar_travel_without_removal(packing: Packing, steps: int = 300) -> float:
    world = physics.loaded_world(packing)
    start = world.bar_face()
    for _ in range(steps):
        world.step()
    return start - world.bar_face()
