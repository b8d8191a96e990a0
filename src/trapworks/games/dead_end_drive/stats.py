"""13 Dead End Drive's own statistics for simulation rows, and the cells `trapworks explore`
compares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trapworks.core import State

from .components import TRAP_KINDS


def game_stats(state: State, events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    knockoffs = dict.fromkeys(TRAP_KINDS, 0)
    cards_played = draws = detective_cards = bluffs = 0
    drawn_matches = False
    for e in events:
        kind = e["type"]
        if kind == "spring":
            knockoffs[e["trap"]] += 1
        elif kind == "play":
            cards_played += 1
        elif kind == "draw":
            draws += 1
        elif kind == "detective":
            detective_cards += 1
        elif kind == "drawn_card":
            drawn_matches = bool(e.get("matches"))
        elif kind == "keep":
            # The same public words for a card that does not match and a bluff (seed 004); the
            # drawer's private event says which it was.
            bluffs += drawn_matches
            drawn_matches = False
    if state.is_truncated() or not state.is_terminal():
        ending = "truncated"
    else:
        ending = str(getattr(state, "win_reason", "") or "unknown")
    row: dict[str, Any] = {
        "ending": ending,
        "knockoffs": sum(knockoffs.values()),
        "cards_played": cards_played,
        "draws": draws,
        "detective_cards": detective_cards,
        "bluffs": bluffs,
    }
    row.update({f"knockoffs_{trap}": n for trap, n in knockoffs.items()})
    return row


def explore_grid(game_cls: type) -> list[dict[str, Any]]:
    """Player counts 2-4 and the trap-pile split (004 gives 3 of each trap, 4 wild and 10 detective
    cards; the split is an option, the three totalling 29): the printed split, and one with more
    wild cards and fewer detective cards, so the detective ends fewer games."""
    cells: list[dict[str, Any]] = []
    for players in (2, 3, 4):
        for traps, wild, detective, name in ((3, 4, 10, "3/4/10"), (3, 8, 6, "3/8/6")):
            cells.append(
                {
                    "label": f"{players}p, split {name}",
                    "options": {
                        "players": players,
                        "traps_per_kind": traps,
                        "wild_cards": wild,
                        "detective_cards": detective,
                    },
                }
            )
    return cells
