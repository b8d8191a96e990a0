"""Booby Trap agents.

- "heuristic" plays from its own view only: the public tray and its own touch readings. It
  touches the piece that looks least likely to be held (fewest visible contacts, best value),
  removes it when the reading feels loose and passes otherwise while passing is allowed.
- "heuristic-stress" sees the whole stress network (the force on every contact, as teaching mode
  shows it) instead of noisy readings: the stronger setting asked for in issue 5.
"""

from __future__ import annotations

from typing import Any

from trapworks.core import ReasonedAgent, State

from . import physics

CONTACT_GAP = 0.6  # mm: closer than this counts as touching when counting contacts by eye
# Chance that a piece with k visible contacts carries load (a rough prior; a piece with fewer
# than two contacts cannot carry any: forces on it would not balance).
PRIOR_LOADED = {0: 0.0, 1: 0.0, 2: 0.35, 3: 0.5}


def visible_contacts(view: dict[str, Any]) -> dict[int, int]:
    """Contacts of each piece (other pieces, walls, the bar) seen from the public positions."""
    pieces = view["pieces"]
    width = view["tray"]["width"]
    bar = view["bar"]
    count = {p["id"]: 0 for p in pieces}
    for i, a in enumerate(pieces):
        for b in pieces[i + 1 :]:
            gap = ((a["x"] - b["x"]) ** 2 + (a["y"] - b["y"]) ** 2) ** 0.5 - a["r"] - b["r"]
            if gap < CONTACT_GAP:
                count[a["id"]] += 1
                count[b["id"]] += 1
        r = a["r"]
        count[a["id"]] += sum(
            1 for g in (a["x"] - r, a["y"] - r, width - a["y"] - r, bar - a["x"] - r) if g < CONTACT_GAP
        )
    return count


class TouchHeuristicAgent(ReasonedAgent):
    """Uses its touch readings (and what anyone can see on the tray)."""

    name = "heuristic"
    speaks_plainly = True  # its reasons name only its own readings and the visible tray

    def __init__(self, game, seat: int, seed: int | None = None, loose_below: float = 0.15, **options: Any):
        super().__init__(game, seat, seed=seed, **options)
        self.loose_below = loose_below

    def choose(self, state: State) -> tuple[int, str]:
        view = state.view(self.seat)
        legal = [a["id"] for a in view["legal_actions"]]
        game = state.game
        if view["touched"] is not None:
            reading = view["reading"]["reading"]
            if reading < self.loose_below:
                return (
                    game.remove_action,
                    f"piece {view['touched']} feels {view['reading']['feel']} ({reading:.2f}): remove it",
                )
            if game.pass_action in legal:
                return (
                    game.pass_action,
                    f"piece {view['touched']} feels {view['reading']['feel']} ({reading:.2f}): pass",
                )
            return game.remove_action, "passing is not allowed: remove it"
        settle = view["settles"]
        known = {r["piece"]: r["reading"] for r in view["my_readings"] if r["settle"] == settle}
        points = {p["id"]: p["points"] for p in view["pieces"]}
        loose = [p for p in legal if p in known and known[p] < self.loose_below]
        if loose:
            best = max(loose, key=lambda p: (points[p], -known[p], -p))
            return best, f"piece {best} felt loose before: touch it again"
        contacts = visible_contacts(view)
        unknown = [p for p in legal if p not in known]
        if unknown:

            def risk(p: int) -> float:
                return PRIOR_LOADED.get(contacts[p], 0.6)

            best = min(unknown, key=lambda p: (risk(p) * 3 - points[p] * (1 - risk(p)), self.rng.random()))
            return best, f"piece {best} has {contacts[best]} visible contact(s): try it"
        best = min(legal, key=lambda p: (known[p], -points[p]))
        return best, f"every piece felt tight; piece {best} the least"


class StressHeuristicAgent(ReasonedAgent):
    """Sees the true force on every contact (the stress network), without noise."""

    name = "heuristic-stress"

    def __init__(self, game, seat: int, seed: int | None = None, loose_below: float = 0.02, **options: Any):
        super().__init__(game, seat, seed=seed, **options)
        self.loose_below = loose_below

    def choose(self, state: State) -> tuple[int, str]:
        game = state.game
        legal = state.legal_actions()
        load = physics.stress_of(state.packing).load
        touched = state.touched
        if touched is not None:
            if load[touched] < self.loose_below:
                return game.remove_action, f"piece {touched} carries no load: remove it"
            if game.pass_action in legal:
                return (
                    game.pass_action,
                    f"piece {touched} carries {load[touched]:.2f} of the bar's force: pass",
                )
            return game.remove_action, "passing is not allowed: remove it"
        points = {p.id: physics.POINTS[p.size] for p in state.packing.pieces}
        best = min(legal, key=lambda p: (load[p] >= self.loose_below, -points[p], load[p], p))
        return best, f"piece {best} carries {load[best]:.2f} of the bar's force"
