"""Booby Trap's hidden draws as chance nodes for tree search (the spec's `chance_layer`).

The kernel sets the tray up and draws the touch noise from the state's seeded generators, so that
records replay from a seed (or, with the game option setup=chance, sets the tray up by its own
chance nodes, the same two as below: game.py's `_chance_outcomes`).
For an algorithm that walks the game tree (the OpenSpiel adapter with
`seed=-1`) they are chance nodes instead. `BoobyTrapChance` (the protocol:
trapworks.adapters._chance.ChanceLayer):

- the tray's set-up is two chance nodes before the first move. The first, public, picks the tray:
  one of `TRAYS` equally likely set-ups (the kernel's trays of seeds 0..TRAYS-1, each settled by
  the physics once per game object and cached). Every seat sees the tray, but only to the eye's
  resolution (`eye`, EYE_MM): the second node, seen by nobody, draws where exactly each piece
  and the bar lie within that resolution, one of `JITTERS` equally likely placements, each
  uniform within the eye's cell around what the seats see (the draw the kernel's own
  `State.resample` makes for a seat, seeded per outcome so that the tree is fixed). The exact
  positions decide every tension, so the states of an information set differ in what is hidden
  from the first move on.
- each touch's noise is a chance node with `NOISE_LEVELS` equally likely outcomes, the midpoints
  (in probability) of the normal distribution of the `tension_noise` option: the toucher reads
  the true tension plus that noise (never below 0), the other seats do not.
"""

from __future__ import annotations

from typing import Any

from .game import (
    _QUANTILES,
    JITTERS,
    NOISE_LEVELS,
    TRAYS,
    _tray,
    feel_args,
    feel_word,
    jittered,
    noise_outcomes,
    noise_value,
    noisy_reading,
)

# The set-up's trays and placements (TRAYS, JITTERS, _tray, jittered) and the touch's noise
# levels (NOISE_LEVELS, noise_outcomes, noisy_reading) live with the state they make, in game.py:
# this layer and the kernel's own chance nodes (setup=chance, noise=chance) read the same ones.
__all__ = ["JITTERS", "NOISE_LEVELS", "TRAYS", "BoobyTrapChance", "jittered"]


class BoobyTrapChance:
    """Booby Trap's tray set-up (the tray, public; its exact placement, nobody's) and touch noise
    as chance nodes (see the module's notes). Outcomes 0..NOISE_LEVELS-1: the noise levels; then
    TRAYS trays; then JITTERS placements."""

    TRAY_BASE = NOISE_LEVELS
    JITTER_BASE = NOISE_LEVELS + TRAYS
    num_outcomes = NOISE_LEVELS + TRAYS + JITTERS
    takes_position = False

    @classmethod
    def for_state(cls, tw: Any) -> BoobyTrapChance:
        """The layer of a kernel state of a new game (its tray to be set up by chance, unless the
        kernel's own chance nodes set it up: the game's option setup=chance)."""
        options = tw.game.options
        # noise=chance: the kernel's own node follows each touch; the layer adds none.
        sigma = 0.0 if options["noise"] == "chance" else float(options["tension_noise"])
        return cls(sigma, setup=options["setup"] != "chance")

    def __init__(self, sigma: float, setup: bool = True) -> None:
        self.sigma = sigma
        self.quantiles = list(_QUANTILES)
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

    def intercept(self, tw: Any, action: int) -> bool:
        return False

    def __deepcopy__(self, memo: dict[int, Any]) -> BoobyTrapChance:
        return self.copy()

    def _reading(self, tw: Any, level: int) -> float:
        piece = tw.readings[tw.to_move][-1]["piece"]
        return noisy_reading(tw.true_tension(piece), self.sigma, level)

    def outcomes(self, tw: Any) -> list[tuple[int, float]]:
        # Levels that give the same reading (below 0, read as 0) are one outcome: the toucher
        # sees the reading, not the noise.
        if self.stage == "tray":
            return [(self.TRAY_BASE + t, 1 / TRAYS) for t in range(TRAYS)]
        if self.stage == "jitter":
            return [(self.JITTER_BASE + j, 1 / JITTERS) for j in range(JITTERS)]
        if not self.waiting:
            return []
        return noise_outcomes(tw.true_tension(tw.readings[tw.to_move][-1]["piece"]), self.sigma)

    def apply(self, tw: Any, outcome: int) -> None:
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
                e["args"] = feel_args(entry["piece"], reading)

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
        return f"touch noise {noise_value(self.sigma, outcome):+.3f}"


__all__ = ["JITTERS", "NOISE_LEVELS", "TRAYS", "BoobyTrapChance", "jittered"]
