"""Hidden information as chance nodes, for the OpenSpiel tree.

The kernel draws what only some seats may know from a state's seeded generators (13 Dead End
Drive's deal of Character cards, the 2-player secret cards and the trap pile's order; Booby Trap's
touch noise), so that records replay from a seed. An algorithm that walks the game tree (CFR,
exploitability, best response) must instead see every hidden draw as a chance node, or every
information set holds one state. A `ChanceLayer` adds those nodes around a kernel state:

- 13 Dead End Drive (`DeadEndDriveChance`): the deal is a run of chance nodes, one per card, each
  hand dealt in increasing pawn order with the probabilities that make every hand (a set) exactly
  as likely as a shuffle-and-deal makes it; the Character hands come first, then the 2-player
  secret cards. Started from a position, the cards its public facts leave unknown are dealt the
  same way (Character cards only among pawns in play, a knocked-off pawn whose card nobody laid
  down only among the secret cards), uniformly over every deal those facts allow. The trap pile is
  drawn card by card: when a player draws, a chance node picks the top card among the cards in
  the pile (each with its share of the pile), then the next after a Detective card, and after a
  reshuffle among the cards of the new pile; the kernel's pile is then arranged so that it deals
  exactly those cards. Drawing a card of a shuffled pile one at a time is the same distribution
  as shuffling it, and nobody sees the pile's order, so nothing changes but what is explicit.
  The portraits were chance nodes already.
- Booby Trap (`BoobyTrapChance`): the tray's set-up is two chance nodes before the first move.
  The first, public, picks the tray: one of `TRAYS` equally likely set-ups (the kernel's trays of
  seeds 0..TRAYS-1, each settled by the physics once per game object and cached). Every seat
  sees the tray, but only to the eye's resolution (`eye`, EYE_MM): the second node, seen by
  nobody, draws where exactly each piece and the bar lie within that resolution, one of `JITTERS`
  equally likely placements, each uniform within the eye's cell around what the seats see (the
  draw the kernel's own `State.resample` makes for a seat, seeded per outcome so that the tree is
  fixed). The exact positions decide every tension, so the states of an information set differ
  in what is hidden from the first move on. Then each touch's noise is a chance node with
  `NOISE_LEVELS` equally likely outcomes, the midpoints (in probability) of the normal
  distribution of the `tension_noise` option: the toucher reads the true tension plus that noise
  (never below 0), the other seats do not.

Outcomes of a layer are numbered from 0 in the layer's own space; the OpenSpiel adapter puts
them after the kernel's chance outcomes.
"""

from __future__ import annotations

import math
import random
import weakref
from collections import Counter
from statistics import NormalDist
from typing import Any

from trapworks.core.game import State

NOISE_LEVELS = 5
# Booby Trap's set-up: how many trays the first chance node picks among (public), and how many
# placements below the eye's resolution the second draws among (nobody sees it).
TRAYS = 4
JITTERS = 3


class ChanceLayer:
    """No hidden chance: the kernel's own chance nodes only."""

    num_outcomes = 0

    def pending(self) -> bool:
        """True while the layer's chance node comes before the kernel's next node."""
        return False

    def outcomes(self, tw: State) -> list[tuple[int, float]]:
        return []

    def apply(self, tw: State, outcome: int) -> None:
        raise ValueError(f"chance outcome {outcome} is not one of this layer's")

    def intercept(self, tw: State, action: int) -> bool:
        """Called before a player action: True when the layer takes it over (it applies it to the
        kernel itself once its chance nodes are resolved)."""
        return False

    def after(self, tw: State, action: int, player: int) -> None:
        """Called after the kernel applied `action` of `player`."""

    def outcome_string(self, outcome: int) -> str:
        return f"hidden chance {outcome}"

    def visible_to(self, tw: State) -> int:
        """Who sees the outcome of the pending node: -1 everybody, -2 nobody, or one seat."""
        return -1

    def copy(self) -> ChanceLayer:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ChanceLayer:
        return self.copy()


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


class DeadEndDriveChance(ChanceLayer):
    """13 Dead End Drive's deal and trap-pile draws as chance nodes (see the module's notes).

    Outcomes 0..11: the pawn whose Character card is dealt next; 12..18: the kind of card on top
    of the trap pile (0-4 the traps, 5 wild, 6 detective).
    """

    CARD_BASE = 12
    num_outcomes = 12 + 7

    def __init__(self) -> None:
        self.hands: list[tuple[str, int, int]] = []  # (chars|secret, seat, cards) still to deal
        self.taken: list[int] = []  # cards of the hand being dealt, increasing
        self.live: list[int] = []  # undealt pawns in play
        self.dead: list[int] = []  # undealt knocked-off pawns (secret cards)
        # A draw in progress: the action, the simulated pile and discard, the Detective's step,
        # and the cards chance chose, one list per pile (a reshuffle starts a new one).
        self.draw: dict[str, Any] | None = None

    def copy(self) -> DeadEndDriveChance:
        new = DeadEndDriveChance.__new__(DeadEndDriveChance)
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
        if tw.phase != "trap" or action != tw.game.DRAW:
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
            tw.apply_action(d["action"])
        finally:
            tw.rng = real

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

    def outcomes(self, tw: State) -> list[tuple[int, float]]:
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
        from trapworks.games.dead_end_drive.components import CARD_NAMES, NAMES

        if outcome < self.CARD_BASE:
            return f"deal {NAMES[outcome]}"
        return f"top card {CARD_NAMES[outcome - self.CARD_BASE]}"


# Game -> tray number -> the kernel's initial state of that tray (its physics settled once).
_TRAYS: weakref.WeakKeyDictionary[Any, dict[int, Any]] = weakref.WeakKeyDictionary()


def _tray(game: Any, tray: int) -> Any:
    trays = _TRAYS.setdefault(game, {})
    if tray not in trays:
        trays[tray] = game.new_initial_state(seed=tray)
    return trays[tray].clone()


def jittered(tw: Any, jitter: int) -> Any:
    """tw's packing with every piece and the bar placed anew within the eye's resolution of
    where the seats see them (uniformly, from a generator seeded by the tray and `jitter`)."""
    from trapworks.games.booby_trap.game import EYE_MM, eye
    from trapworks.games.booby_trap.physics import Packing, Piece

    rng = random.Random(f"booby-trap tray {tw.seed} jitter {jitter}")
    half = EYE_MM / 2
    pieces = tuple(
        Piece(p.id, p.size, eye(p.x) + rng.uniform(-half, half), eye(p.y) + rng.uniform(-half, half))
        for p in tw.packing.pieces
    )
    return Packing(pieces, eye(tw.packing.bar) + rng.uniform(-half, half))


class BoobyTrapChance(ChanceLayer):
    """Booby Trap's tray set-up (the tray, public; its exact placement, nobody's) and touch noise
    as chance nodes (see the module's notes). Outcomes 0..NOISE_LEVELS-1: the noise levels; then
    TRAYS trays; then JITTERS placements."""

    TRAY_BASE = NOISE_LEVELS
    JITTER_BASE = NOISE_LEVELS + TRAYS
    num_outcomes = NOISE_LEVELS + TRAYS + JITTERS

    def __init__(self, sigma: float, setup: bool = True) -> None:
        self.sigma = sigma
        self.quantiles = [NormalDist().inv_cdf((i + 0.5) / NOISE_LEVELS) for i in range(NOISE_LEVELS)]
        self.waiting = False
        # "tray", then "jitter", then None (set up); a position given as such is set up already.
        self.stage: str | None = "tray" if setup else None

    def copy(self) -> BoobyTrapChance:
        new = BoobyTrapChance.__new__(BoobyTrapChance)
        new.__dict__.update(self.__dict__)
        return new

    def after(self, tw: Any, action: int, player: int) -> None:
        # A touch (an action while no piece is touched) is followed by its noise.
        if self.sigma > 0 and tw.touched is not None and not tw.is_terminal() and action == tw.touched:
            if tw.readings[player] and tw.readings[player][-1]["touch"] == tw.touches:
                self.waiting = True

    def pending(self) -> bool:
        return self.waiting or self.stage is not None

    def _reading(self, tw: Any, level: int) -> float:
        piece = tw.readings[tw.to_move][-1]["piece"]
        return round(max(0.0, tw.true_tension(piece) + self.sigma * self.quantiles[level]), 3)

    def outcomes(self, tw: State) -> list[tuple[int, float]]:
        # Levels that give the same reading (below 0, read as 0) are one outcome: the toucher
        # sees the reading, not the noise.
        if self.stage == "tray":
            return [(self.TRAY_BASE + t, 1 / TRAYS) for t in range(TRAYS)]
        if self.stage == "jitter":
            return [(self.JITTER_BASE + j, 1 / JITTERS) for j in range(JITTERS)]
        if not self.waiting:
            return []
        first: dict[float, int] = {}
        probs: dict[int, float] = {}
        for level in range(NOISE_LEVELS):
            i = first.setdefault(self._reading(tw, level), level)
            probs[i] = probs.get(i, 0.0) + 1 / NOISE_LEVELS
        return sorted(probs.items())

    def apply(self, tw: Any, outcome: int) -> None:
        from trapworks.games.booby_trap.game import feel_word

        if outcome not in dict(self.outcomes(tw)):
            raise ValueError(f"chance outcome {outcome} is not possible here")
        if self.stage == "tray":
            # The kernel state becomes the initial state of that tray (in place: the adapter's
            # state holds this object).
            fresh = _tray(tw.game, outcome - self.TRAY_BASE)
            tw.__dict__.clear()
            tw.__dict__.update(fresh.__dict__)
            self.stage = "jitter"
            return
        if self.stage == "jitter":
            tw.packing = jittered(tw, outcome - self.JITTER_BASE)
            self.stage = None
            return
        reading = self._reading(tw, outcome)
        self.waiting = False
        seat = tw.to_move
        entry = tw.readings[seat][-1]
        entry["reading"] = reading
        entry["feel"] = feel_word(reading)
        for e in tw._events:
            if e.get("type") == "feel" and e.get("seat") == seat:
                e["reading"] = reading
                e["feel"] = entry["feel"]
                e["text"] = f"You feel piece {entry['piece']}: {entry['feel']} (tension {reading:.2f})."

    def visible_to(self, tw: Any) -> int:
        if self.stage == "tray":
            return -1  # every seat sees the tray
        if self.stage == "jitter":
            return -2  # below the eye's resolution: nobody
        return int(tw.to_move)

    def outcome_string(self, outcome: int) -> str:
        if outcome >= self.JITTER_BASE:
            return f"placement {outcome - self.JITTER_BASE} below the eye's resolution"
        if outcome >= self.TRAY_BASE:
            return f"tray {outcome - self.TRAY_BASE}"
        return f"touch noise {self.quantiles[outcome] * self.sigma:+.3f}"


def layer_for(tw: State) -> ChanceLayer:
    """The hidden-chance layer of a kernel state's game (ChanceLayer(): none)."""
    game_id = tw.game.game_id
    if game_id == "dead-end-drive":
        layer = DeadEndDriveChance()
        layer.start(tw)
        return layer
    if game_id == "booby-trap":
        return BoobyTrapChance(float(tw.game.options["tension_noise"]))
    return ChanceLayer()


def takes_position(game_id: str) -> bool:
    """Whether the game's layer deals the unknown cards of a start position (OpenSpiel `position`)."""
    return game_id == "dead-end-drive"


def layer_outcomes(game_id: str) -> int:
    """How many outcomes the layer of `game_id` has (OpenSpiel's max_chance_outcomes adds them)."""
    layers: dict[str, type[ChanceLayer]] = {
        "dead-end-drive": DeadEndDriveChance,
        "booby-trap": BoobyTrapChance,
    }
    layer = layers.get(game_id)
    return layer.num_outcomes if layer is not None else 0


__all__ = [
    "JITTERS",
    "NOISE_LEVELS",
    "TRAYS",
    "BoobyTrapChance",
    "ChanceLayer",
    "DeadEndDriveChance",
    "arrange",
    "layer_for",
    "layer_outcomes",
]
