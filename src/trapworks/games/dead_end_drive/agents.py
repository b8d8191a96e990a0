"""A heuristic player for 13 Dead End Drive.

It reads only its own view (its Character cards and trap hand) and the public board, and plays:
- escape: the pawn whose portrait shows leaves the mansion when this seat owns it;
- doubles: change the portrait when the one showing is not its own pawn;
- traps: move pawns it does not own onto traps it can spring (a matching Trap card or a Wild),
  play the card; otherwise draw, and spring a matching draw on a pawn it does not own;
- the portrait pawn: toward the door when it is its own, away from the door when not;
- safety: keep its own pawns out of easy reach of the traps, push the others toward them;
- bluffing, sometimes: move its own pawn onto a trap, draw, and keep the card.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from typing import Any

from trapworks.core import Agent

from .board import Mansion, load_mansion, squares_of
from .components import LETTERS, NAMES

OFF = -1


@lru_cache(maxsize=None)
def _distances(mansion_name: str = "mansion.txt") -> tuple[dict[int, int], dict[int, dict[int, int]]]:
    """Static step distances (pawns ignored, chairs and passages as in a move): to the door, and
    from every trap square."""
    m: Mansion = load_mansion(mansion_name)

    def bfs(src: int) -> dict[int, int]:
        dist = {src: 0}
        q = deque([src])
        while q:
            sq = q.popleft()
            nbs = list(m.neighbours[sq])
            if sq in m.passages:
                nbs += [p for p in m.passages if p != sq]
            for nb in nbs:
                if nb not in dist and not (m.chairs >> nb & 1) and nb != m.game_over:
                    dist[nb] = dist[sq] + 1
                    q.append(nb)
        return dist

    return bfs(m.door), {sq: bfs(sq) for sq in m.trap_kind}


class HeuristicAgent(Agent):
    name = "heuristic"

    def __init__(self, game, seat: int, seed: int | None = None, bluff: float = 0.2, noise: float = 0.0,
                 **options: Any):
        super().__init__(game, seat, seed=seed, **options)
        if not 0.0 <= bluff <= 1.0 or not 0.0 <= noise <= 1.0:
            raise ValueError(f"bluff {bluff!r} and noise {noise!r} are shares between 0 and 1")
        self.bluff = bluff
        self.noise = noise  # share of decisions taken at random (the easier levels)
        self.plan: tuple[int, int, int] | None = None
        self.last_reason = ""

    def restart(self) -> None:
        self.plan = None

    # --- reading the view ----------------------------------------------------------
    def _mine(self, view: dict) -> set[int]:
        return {LETTERS.index(x) for x in view["my_characters"]}

    def _playable(self, view: dict) -> set[str]:
        cards = view["my_cards_drawn_this_turn"] if view["drew_this_turn"] else view["my_trap_cards"]
        if view["drew_this_turn"] and self.game.options["after_draw"] == "none":
            return set()
        return set(cards)

    # --- choosing -------------------------------------------------------------------
    def step(self, state) -> int:
        view = state.view(self.seat)
        legal = {entry["text"]: entry["id"] for entry in view["legal_actions"]}
        ids = [entry["id"] for entry in view["legal_actions"]]
        phase = view["phase"]
        mine = self._mine(view)
        g = self.game
        if self.noise and self.rng.random() < self.noise:
            self.last_reason = "a move on a whim"
            return self.rng.choice(ids)
        if phase == "portrait":
            portrait = view["portrait"]
            if portrait is not None and LETTERS.index(portrait) in mine:
                self.last_reason = "the portrait shows my own pawn: keep it"
                return g.KEEP_PORTRAIT
            self.last_reason = "the portrait does not show my pawn: change it"
            return g.CHANGE
        if phase == "select":
            best = self._best_move(state, view, mine)
            self.plan = best
            pawn, count, _ = best
            return pawn * 12 + count - 1
        if phase == "dest":
            sel = view["selected"]
            pawn, count = LETTERS.index(sel["pawn"]), sel["count"]
            if self.plan and self.plan[:2] == (pawn, count) and g.DEST_BASE + self.plan[2] in ids:
                return g.DEST_BASE + self.plan[2]
            dests = [a - g.DEST_BASE for a in ids]
            scored = [(self._score(state, view, mine, pawn, count, sq), sq) for sq in dests]
            return g.DEST_BASE + max(scored)[1]
        if phase == "trap":
            pawn = LETTERS.index(view["trap_pawn"])
            if pawn in mine:
                self.last_reason = "my own pawn is on the trap: draw and keep the card (a bluff)"
                if g.DRAW in ids:
                    return g.DRAW
            else:
                for a in (g.PLAY_TRAP, g.PLAY_WILD):
                    if a in ids:
                        self.last_reason = f"{NAMES[pawn]} is not mine: spring the trap"
                        return a
                if g.DRAW in ids:
                    self.last_reason = f"{NAMES[pawn]} is not mine and I hold no match: draw"
                    return g.DRAW
            return ids[0]
        if phase == "drawn":
            pawn = LETTERS.index(view["trap_pawn"])
            if g.SPRING in ids and pawn not in mine:
                self.last_reason = f"the drawn card matches and {NAMES[pawn]} is not mine: spring"
                return g.SPRING
            self.last_reason = "keep the card"
            return g.KEEP_CARD
        return ids[0] if ids else legal.popitem()[1]

    def explain(self, state) -> str | None:
        return self.last_reason or None

    def _best_move(self, state, view: dict, mine: set[int]) -> tuple[int, int, int]:
        best = None
        for entry in view["legal_actions"]:
            pawn, count = LETTERS.index(entry["pawn"]), entry["count"]
            for sq in squares_of(state.destinations(pawn, count)):
                score = self._score(state, view, mine, pawn, count, sq) + self.rng.random() * 0.5
                if best is None or score > best[0]:
                    best = (score, pawn, count, sq)
        _, pawn, count, sq = best
        return pawn, count, sq

    def _score(self, state, view: dict, mine: set[int], pawn: int, count: int, sq: int) -> float:
        m = self.game.mansion
        to_door, from_trap = _distances()
        start = state.pos[pawn]
        portrait = None if view["portrait"] is None else LETTERS.index(view["portrait"])
        own = pawn in mine
        if sq == m.game_over:
            self.last_reason = f"{NAMES[pawn]}'s portrait shows and it is mine: escape"
            return 10_000.0 if own else -10_000.0
        score = 0.0
        playable = self._playable(view)
        if m.traps >> sq & 1:
            kind = m.trap_kind[sq]
            if own:
                score += 25.0 if self.rng.random() < self.bluff else -60.0
            elif kind in playable or "wild" in playable:
                score += 500.0 + (200.0 if pawn == portrait else 0.0)
            else:
                score += 40.0 + (60.0 if pawn == portrait else 0.0)
        d0 = to_door.get(start, 30)
        d1 = to_door.get(sq, 30)
        if pawn == portrait:
            score += (8.0 * (d0 - d1)) if own else (6.0 * (d1 - d0))
        elif own:
            score += 0.5 * (d0 - d1)
        # Danger: how many traps another player could reach from here with one die (2-6 steps).
        near = 0.0
        for tsq, dist in from_trap.items():
            k = dist.get(sq)
            if k is not None and 1 <= k <= 6:
                weight = 2.0 if (m.trap_kind[tsq] in playable or "wild" in playable) else 1.0
                near += weight
        score += (-6.0 * near) if own else (3.0 * near)
        return score
