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

from typing import Any

from trapworks.core import Agent

from .board import squares_of
from .components import CARD_NAMES, NAMES
from .evaluation import HEURISTIC_BLUFF, heuristic_tables, seat_values
from .game import DeadEndDriveGame

OFF = -1


def _hint(kind: str, **args: Any) -> dict[str, Any]:
    """A reason as a typed message of the game's catalog (dead_end_drive.hint.*, i18n/*.po)."""
    return {"msg": f"dead_end_drive.hint.{kind}", "args": args}


class HeuristicAgent(Agent):
    name = "heuristic"
    game: DeadEndDriveGame  # the game it was made for (the kernel's Agent knows only Game)

    # Its reasons are sentences in the first person about its own cards and the board (a hint
    # turns them into advice); given a resampled state it knows only what its seat knows.
    speaks_plainly = True

    def __init__(
        self,
        game,
        seat: int,
        seed: int | None = None,
        bluff: float = HEURISTIC_BLUFF,
        noise: float = 0.0,
        **options: Any,
    ):
        super().__init__(game, seat, seed=seed, **options)
        if not 0.0 <= bluff <= 1.0 or not 0.0 <= noise <= 1.0:
            raise ValueError(f"bluff {bluff!r} and noise {noise!r} are shares between 0 and 1")
        self.bluff = bluff
        self.noise = noise  # share of decisions taken at random (the easier levels)
        self.plan: tuple[int, int, int] | None = None
        self.last_reason: dict[str, Any] | None = None

    def restart(self) -> None:
        self.plan = None

    # --- reading what the seat may know -----------------------------------------------
    # The heuristic is called thousands of times per search move, so it reads the few fields it
    # needs straight from the state instead of building `view(seat)`: every one of them is in
    # that view (the public board, the seat's own Character and trap cards, its legal actions).
    def _mine(self, state) -> set[int]:
        return set(state.chars[self.seat])

    def _playable(self, state) -> set[str]:
        if state.drew:
            if self.game.options["after_draw"] == "none":
                return set()
            return {CARD_NAMES[c] for c, _, t in state.hands[self.seat] if t == state.turns}
        return {CARD_NAMES[c] for c, _, _ in state.hands[self.seat]}

    # --- choosing -------------------------------------------------------------------
    def step(self, state) -> int:
        ids = state.legal_actions(self.seat)
        phase = state.phase
        mine = self._mine(state)
        g = self.game
        if self.noise and self.rng.random() < self.noise:
            self.last_reason = _hint("whim")
            return self.rng.choice(ids)
        if phase == "portrait":
            portrait = state.portrait
            if portrait is not None and portrait in mine:
                self.last_reason = _hint("keep_portrait")
                return g.KEEP_PORTRAIT
            self.last_reason = _hint("change_portrait")
            return g.CHANGE
        if phase == "select":
            best = self._best_move(state, ids, mine)
            self.plan = best
            pawn, count, _ = best
            return pawn * 12 + count - 1
        if phase == "dest":
            pawn, count = state.selected
            if self.plan and self.plan[:2] == (pawn, count) and g.DEST_BASE + self.plan[2] in ids:
                return g.DEST_BASE + self.plan[2]
            playable = self._playable(state)
            scored = [
                (self._score(state, playable, mine, pawn, count, a - g.DEST_BASE), a - g.DEST_BASE)
                for a in ids
            ]
            return g.DEST_BASE + max(scored)[1]
        if phase == "trap":
            pawn = state.trap_pawn
            if pawn in mine:
                self.last_reason = _hint("bluff")
                if g.DRAW in ids:
                    return g.DRAW
            else:
                for a in (g.PLAY_TRAP, g.PLAY_WILD):
                    if a in ids:
                        self.last_reason = _hint("spring", pawn=NAMES[pawn])
                        return a
                if g.DRAW in ids:
                    self.last_reason = _hint("draw", pawn=NAMES[pawn])
                    return g.DRAW
            return ids[0]
        if phase == "drawn":
            pawn = state.trap_pawn
            if g.SPRING in ids and pawn not in mine:
                self.last_reason = _hint("spring_drawn", pawn=NAMES[pawn])
                return g.SPRING
            self.last_reason = _hint("keep_card")
            return g.KEEP_CARD
        return ids[0]

    def explain(self, state) -> str | None:
        # (in English, "you" for this seat: the CLI's hint; the page gets explain_typed)
        if self.last_reason is None:
            return None
        from trapworks.core.messages import format_message

        return format_message(self.last_reason, type(self.game), viewer=self.seat)

    def explain_typed(self, state) -> dict[str, Any] | None:
        return self.last_reason

    def evaluate(self, state) -> list[float]:
        """Expected returns of every seat in `state` (evaluation.py: a fitted model of which pawn
        wins). It reads the whole state it is given, other seats' cards included: a search hands
        it a determinization (its own guess at those cards), never the true state of a game."""
        return seat_values(state)

    def _best_move(self, state, ids: list[int], mine: set[int]) -> tuple[int, int, int]:
        best = None
        playable = self._playable(state)
        rnd = self.rng.random
        for a in ids:
            pawn, c = divmod(a, 12)
            count = c + 1
            for sq in squares_of(state.destinations(pawn, count)):
                score = self._score(state, playable, mine, pawn, count, sq) + rnd() * 0.5
                if best is None or score > best[0]:
                    best = (score, pawn, count, sq)
        assert best is not None, "a move decision has at least one legal destination"
        _, pawn, count, sq = best
        return pawn, count, sq

    def _score(self, state, playable: set[str], mine: set[int], pawn: int, count: int, sq: int) -> float:
        m = self.game.mansion
        to_door, near_traps = heuristic_tables()
        start = state.pos[pawn]
        portrait = state.portrait
        own = pawn in mine
        if sq == m.game_over:
            self.last_reason = _hint("escape", pawn=NAMES[pawn])
            return 10_000.0 if own else -10_000.0
        score = 0.0
        wild = "wild" in playable
        if m.traps >> sq & 1:
            kind = m.trap_kind[sq]
            if own:
                score += 25.0 if self.rng.random() < self.bluff else -60.0
            elif kind in playable or wild:
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
        for kind in near_traps.get(sq, ()):
            near += 2.0 if (wild or kind in playable) else 1.0
        score += (-6.0 * near) if own else (3.0 * near)
        return score
