"""13 Dead End Drive's hidden draws as chance nodes for tree search (the spec's `chance_layer`).

The kernel deals the Character cards and the 2-player secret cards and orders the trap pile from
the state's seeded generators, so that records replay from a seed. For an algorithm that walks
the game tree (CFR, exploitability, best response: the OpenSpiel adapter with `seed=-1`) every
such draw is a chance node instead, so that an information set holds every deal its seat cannot
tell apart. `DeadEndDriveChance` (the protocol: trapworks.adapters._chance.ChanceLayer):

- the deal is a run of chance nodes, one per card, each hand dealt in increasing pawn order with
  the probabilities that make every hand (a set) exactly as likely as a shuffle-and-deal makes
  it; the Character hands come first, then the 2-player secret cards. Started from a position,
  the cards its public facts leave unknown are dealt the same way (Character cards only among
  pawns in play, a knocked-off pawn whose card nobody laid down only among the secret cards),
  uniformly over every deal those facts allow.
- the trap pile is drawn card by card: when a player draws, a chance node picks the top card
  among the cards in the pile (each with its share of the pile), then the next after a Detective
  card, and after a reshuffle among the cards of the new pile; the kernel's pile is then arranged
  so that it deals exactly those cards. Drawing a card of a shuffled pile one at a time is the
  same distribution as shuffling it, and nobody sees the pile's order, so nothing changes but
  what is explicit. The portraits were chance nodes already.

With the game option deal=chance the kernel itself holds a `KernelChance` (the same logic; only
the application of a finished draw differs): its chance nodes are these, numbered after the
kernel's other chance outcomes (game.py's `HIDDEN_BASE`), and the OpenSpiel layer of such a game
adds nothing (`for_state` gives an idle layer).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Self


def _comb(n: int, k: int) -> int:
    return math.comb(n, k) if 0 <= k <= n else 0


class _Arranged:
    """Stands in for the kernel pile's generator during one draw: each `shuffle` (a reshuffle of
    the discard pile) puts the cards chance chose on top, in the order chance chose them."""

    def __init__(self, segments: list[list[int]]):
        self.segments = list(segments)

    def shuffle(self, cards: list[int]) -> None:
        top = self.segments.pop(0) if self.segments else []
        arrange(cards, top)


def arrange(pile: list[int], top: list[int]) -> None:
    """Reorder `pile` (top = end of the list) so that popping deals `top` first, in order."""
    rest = Counter(pile)
    rest.subtract(top)
    if any(v < 0 for v in rest.values()):
        raise AssertionError(f"cards {top} are not all in the pile {pile}")
    pile[:] = sorted(rest.elements()) + list(reversed(top))


class DeadEndDriveChance:
    """13 Dead End Drive's deal and trap-pile draws as chance nodes (see the module's notes).

    Outcomes 0..11: the pawn whose Character card is dealt next; 12..18: the kind of card on top
    of the trap pile (0-4 the traps, 5 wild, 6 detective).
    """

    CARD_BASE = 12
    num_outcomes = 12 + 7
    takes_position = True  # it deals the unknown cards of a start position (OpenSpiel `position`)

    @classmethod
    def for_state(cls, tw: Any) -> DeadEndDriveChance:
        """The layer of a kernel state: its cards taken out of the hands, to be dealt by chance
        (nothing when the kernel's own chance nodes deal and draw: the game option deal=chance)."""
        layer = cls()
        if tw.game.options.get("deal") == "chance":
            layer.idle = True
            return layer
        layer.start(tw)
        return layer

    def __init__(self) -> None:
        self.hands: list[tuple[str, int, int]] = []  # (chars|secret, seat, cards) still to deal
        self.taken: list[int] = []  # cards of the hand being dealt, increasing
        self.live: list[int] = []  # undealt pawns in play
        self.dead: list[int] = []  # undealt knocked-off pawns (secret cards)
        # A draw in progress: the action, the simulated pile and discard, the Detective's step,
        # and the cards chance chose, one list per pile (a reshuffle starts a new one).
        self.draw: dict[str, Any] | None = None
        self.idle = False  # the kernel deals and draws by its own chance nodes (deal=chance)

    def copy(self) -> Self:
        new = type(self).__new__(type(self))
        new.idle = self.idle
        new.hands = list(self.hands)
        new.taken = list(self.taken)
        new.live = list(self.live)
        new.dead = list(self.dead)
        if self.draw is None:
            new.draw = None
        else:
            d = self.draw
            new.draw = {
                "pile": Counter(d["pile"]),
                "discard": Counter(d["discard"]),
                "det": d["det"],
                "segments": [list(s) for s in d["segments"]],
                "action": d["action"],
            }
        return new

    # --- the deal -------------------------------------------------------------------------
    def start(self, tw: Any) -> None:
        """Take every card tw's seats cannot all see out of its hands, to be dealt by chance."""
        if tw.phase == "over":
            return
        n = tw.game.players
        off = -1
        held = [p for s in range(n) for p in tw.chars[s] + tw.secret[s]]
        self.live = sorted(p for p in held if tw.pos[p] != off)
        self.dead = sorted(p for p in held if tw.pos[p] == off)
        self.hands = [("chars", s, len(tw.chars[s])) for s in range(n) if tw.chars[s]]
        self.hands += [("secret", s, len(tw.secret[s])) for s in range(n) if tw.secret[s]]
        for s in range(n):
            tw.chars[s] = []
            tw.secret[s] = []
        tw._dest_cache.clear()
        self._settle(tw)

    def _candidates(self) -> tuple[list[int], int]:
        """The pawns the next card of the hand being dealt may be, and how many cards are left."""
        kind, _, size = self.hands[0]
        pool = self.live if kind == "chars" else sorted(self.live + self.dead)
        last = self.taken[-1] if self.taken else -1
        return [p for p in pool if p > last], size - len(self.taken)

    def _deal_outcomes(self) -> list[tuple[int, float]]:
        # A uniformly drawn k-set, written in increasing order: its smallest card is c with
        # probability C(#candidates above c, k-1) / C(#candidates, k).
        cands, k = self._candidates()
        total = _comb(len(cands), k)
        out = []
        for i, c in enumerate(cands):
            ways = _comb(len(cands) - i - 1, k - 1)
            if ways:
                out.append((c, ways / total))
        return out

    def _deal(self, tw: Any, pawn: int) -> None:
        self.taken.append(pawn)
        (self.live if pawn in self.live else self.dead).remove(pawn)
        kind, seat, size = self.hands[0]
        if len(self.taken) == size:
            (tw.chars if kind == "chars" else tw.secret)[seat] = list(self.taken)
            self.taken = []
            self.hands.pop(0)

    # --- the pile -------------------------------------------------------------------------
    def intercept(self, tw: Any, action: int) -> bool:
        if self.idle or tw.phase != "trap" or action != tw.game.DRAW:
            return False
        self.draw = {
            "pile": Counter(tw.pile),
            "discard": Counter(tw.discard),
            "det": tw.detective,
            "segments": [[]],
            "action": action,
        }
        self._settle(tw)
        return True

    def _draw_step(self) -> bool:
        """Reshuffle if the simulated pile is empty; False when the draw needs no more cards."""
        d = self.draw
        assert d is not None
        if sum(d["pile"].values()) == 0:
            if sum(d["discard"].values()) == 0:
                return False
            d["pile"], d["discard"] = d["discard"], Counter()
            d["segments"].append([])
        return True

    def _draw_outcomes(self) -> list[tuple[int, float]]:
        d = self.draw
        assert d is not None
        total = sum(d["pile"].values())
        return [(self.CARD_BASE + k, c / total) for k, c in sorted(d["pile"].items()) if c > 0]

    def _take(self, tw: Any, card: int, track_end: int) -> bool:
        """Chance put `card` on top; True when the draw goes on (a Detective card, no win)."""
        d = self.draw
        assert d is not None
        d["pile"][card] -= 1
        d["segments"][-1].append(card)
        if card != 6:  # components.DETECTIVE
            return False
        d["discard"][card] += 1
        d["det"] += 1
        return d["det"] < track_end

    def _finish_draw(self, tw: Any) -> None:
        d = self.draw
        assert d is not None
        self.draw = None
        segments = d["segments"]
        arrange(tw.pile, segments[0])
        real = tw.rng
        tw.rng = _Arranged(segments[1:])
        try:
            self._apply_draw(tw, d["action"])
        finally:
            tw.rng = real

    def _apply_draw(self, tw: Any, action: int) -> None:
        """The draw, its cards chosen: the adapter's layer applies the player's action now."""
        tw.apply_action(action)

    # --- the node -------------------------------------------------------------------------
    def _settle(self, tw: Any) -> None:
        """Apply every forced outcome (one possibility) so that a chance node always offers a
        choice; finish a draw whose cards are all chosen."""
        while True:
            if self.hands:
                if self.hands[0][2] == 0:
                    self.hands.pop(0)
                    continue
                outs = self._deal_outcomes()
                if len(outs) == 1:
                    self._deal(tw, outs[0][0])
                    continue
                return
            if self.draw is not None:
                if not self._draw_step():
                    self._finish_draw(tw)
                    continue
                outs = self._draw_outcomes()
                if len(outs) == 1:
                    if self._take(tw, outs[0][0] - self.CARD_BASE, len(tw.game.mansion.track) - 1):
                        continue
                    self._finish_draw(tw)
                    continue
                return
            return

    def pending(self) -> bool:
        return bool(self.hands) or self.draw is not None

    def after(self, tw: Any, action: int, player: int) -> None:
        pass

    def __deepcopy__(self, memo: dict[int, Any]) -> DeadEndDriveChance:
        return self.copy()

    def outcomes(self, tw: Any) -> list[tuple[int, float]]:
        if self.hands:
            return self._deal_outcomes()
        if self.draw is not None:
            return self._draw_outcomes()
        return []

    def apply(self, tw: Any, outcome: int) -> None:
        legal = dict(self.outcomes(tw))
        if outcome not in legal:
            raise ValueError(f"chance outcome {outcome} is not possible here; possible: {sorted(legal)}")
        if self.hands:
            self._deal(tw, outcome)
        elif self._take(tw, outcome - self.CARD_BASE, len(tw.game.mansion.track) - 1):
            pass
        else:
            self._finish_draw(tw)
        self._settle(tw)

    def visible_to(self, tw: Any) -> int:
        if self.hands:
            kind, seat, _ = self.hands[0]
            return seat if kind == "chars" else -2
        # A drawn card is the drawer's; a Detective card is public, but which card comes up
        # is told by the Detective's step in every view: marking every draw the drawer's keeps
        # the other seats from telling a Detective from another card only in the order.
        return int(tw.to_move)

    def outcome_string(self, outcome: int) -> str:
        from .components import CARD_NAMES, NAMES

        if outcome < self.CARD_BASE:
            return f"deal {NAMES[outcome]}"
        return f"top card {CARD_NAMES[outcome - self.CARD_BASE]}"


class KernelChance(DeadEndDriveChance):
    """The same chance nodes inside the kernel (the game option deal=chance): the state holds one
    from its first deal on. The kernel has already recorded the player's `draw` when its chance
    nodes start, so a finished draw runs the kernel's own draw rule, not the action again; and a
    forced outcome is a node of its own (the tree skips it): every card dealt or drawn is one
    chance action, so how many there are tells nothing hidden."""

    def _apply_draw(self, tw: Any, action: int) -> None:
        tw._draw()

    def _settle(self, tw: Any) -> None:
        """As the layer's, but a forced outcome stays a node (one outcome, probability 1): the
        number of chance actions in a history (a game's ply count, the log's length) must not
        depend on what is hidden (how many of a hand's cards were forced tells what they are)."""
        while True:
            if self.hands:
                if self.hands[0][2] == 0:
                    self.hands.pop(0)
                    continue
                return
            if self.draw is not None and not self._draw_step():
                self._finish_draw(tw)
                continue
            return


__all__ = ["DeadEndDriveChance", "KernelChance", "arrange"]
