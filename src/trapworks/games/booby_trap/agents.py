"""Booby Trap agents.

- "heuristic" plays from its own view only: the public tray and its own touch readings. It
  touches the piece that looks least likely to be held (fewest visible contacts, best value),
  removes it when the reading feels loose and passes otherwise while passing is allowed.
- "physics-view" (the hard level) also plays from what its seat may know only: it asks the state
  for resamples (`state.resample(seat)`: the tray as its eye sees it, each piece put at a random
  spot within the eye's resolution), runs the tray model on each to estimate every piece's load,
  and weighs those estimates with its own touch readings.
- "oracle" (analysis only: never a level, never in the lobby) reads the true stress network of
  the state, which no seat can see. It measures how much the hidden forces are worth.
"""

from __future__ import annotations

import math
import random
from typing import Any, cast

from trapworks.core import Game, ReasonedAgent, State
from trapworks.core.agent import Reason

from . import physics
from .game import TOUCH_FLOOR, BoobyTrapGame, BoobyTrapState, decimal


def _hint(kind: str, **args: Any) -> dict[str, Any]:
    """A reason as a typed message of the game's catalog (booby_trap.hint.*, i18n/*.po)."""
    return {"msg": f"booby_trap.hint.{kind}", "args": args}


def _felt(view: dict[str, Any]) -> dict[str, Any]:
    """The touched piece, how it feels and its reading (two decimals), for a reason."""
    reading = view["reading"]
    feel = {"msg": f"booby_trap.feel.{reading['feel']}", "args": {}}
    return {"piece": view["touched"], "feel": feel, "reading": decimal(reading["reading"])}


CONTACT_GAP = 1.0  # mm: closer than this counts as touching when counting contacts by eye (EYE_MM)
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

    def choose(self, state: State) -> tuple[int, Reason]:
        view = state.view(self.seat)
        legal = [a["id"] for a in view["legal_actions"]]
        game = cast(BoobyTrapGame, state.game)
        if view["touched"] is not None:
            reading = view["reading"]["reading"]
            if reading < self.loose_below:
                return game.remove_action, _hint("feels_remove", **_felt(view))
            if game.pass_action in legal:
                return game.pass_action, _hint("feels_pass", **_felt(view))
            return game.remove_action, _hint("no_pass")
        settle = view["settles"]
        known = {r["piece"]: r["reading"] for r in view["my_readings"] if r["settle"] == settle}
        points = {p["id"]: p["points"] for p in view["pieces"]}
        loose = [p for p in legal if p in known and known[p] < self.loose_below]
        if loose:
            best = max(loose, key=lambda p: (points[p], -known[p], -p))
            return best, _hint("felt_loose", piece=best)
        contacts = visible_contacts(view)
        unknown = [p for p in legal if p not in known]
        if unknown:

            def risk(p: int) -> float:
                return PRIOR_LOADED.get(contacts[p], 0.6)

            best = min(unknown, key=lambda p: (risk(p) * 3 - points[p] * (1 - risk(p)), self.rng.random()))
            return best, _hint("contacts", piece=best, n=contacts[best])
        best = min(legal, key=lambda p: (known[p], -points[p]))
        return best, _hint("all_tight", piece=best)


class PhysicsViewAgent(ReasonedAgent):
    """Estimates every piece's load from its view: the tray model on `samples` resampled trays
    (positions drawn within the eye's resolution of what it sees), averaged. A piece it has
    touched since the last removal is judged by the estimate and its reading together (a
    precision-weighted mean: the reading's spread is the game's `tension_noise` times the reading
    and the touch's floor `TOUCH_FLOOR`, the estimate's spread is `estimate_sd`)."""

    name = "physics-view"

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int | None = None,
        samples: int = 4,
        loose_below: float = 0.1,
        estimate_sd: float = 0.12,
        **options: Any,
    ):
        super().__init__(game, seat, seed=seed, **options)
        self.samples = samples
        self.loose_below = loose_below
        self.estimate_sd = estimate_sd
        self._cache: tuple[str, dict[int, float]] | None = None

    def estimated_loads(self, state: State) -> dict[int, float]:
        """Mean load per piece over resampled trays (cached per tray: the same view gives the same
        estimate, whoever's turn it is in it)."""
        view = state.view(self.seat)
        tray_key = view["position"].split(" turn=")[0]
        if self._cache is not None and self._cache[0] == tray_key:
            return self._cache[1]
        # Seeded from the tray as seen: the estimate is a function of the view alone.
        rng = random.Random(f"physics-view:{tray_key}")
        total: dict[int, float] = {}
        for _ in range(self.samples):
            sample = state.resample(self.seat, rng)
            for pid, load in physics.stress_of(sample.packing).load.items():  # type: ignore[attr-defined]
                total[pid] = total.get(pid, 0.0) + load / self.samples
        self._cache = (tray_key, total)
        return total

    def _combined(self, estimate: float, reading: float, noise: float) -> float:
        if noise <= 0:
            return reading
        # The reading's spread: a fraction `noise` of the tension felt, and the touch's floor.
        sd = math.hypot(noise * reading, TOUCH_FLOOR)
        we, wr = 1 / self.estimate_sd**2, 1 / sd**2
        return (we * estimate + wr * reading) / (we + wr)

    def choose(self, state: State) -> tuple[int, Reason]:
        view = state.view(self.seat)
        game = cast(BoobyTrapGame, state.game)
        legal = [a["id"] for a in view["legal_actions"]]
        est = self.estimated_loads(state)
        noise = game.options["tension_noise"]
        if view["touched"] is not None:
            piece = view["touched"]
            reading = view["reading"]["reading"]
            load = self._combined(est[piece], reading, noise)
            looks = {
                "msg": "booby_trap.looks." + ("loose" if est[piece] < self.loose_below else "held"),
                "args": {},
            }
            if load < self.loose_below:
                return game.remove_action, _hint("feels_looks_remove", **_felt(view), looks=looks)
            if game.pass_action in legal:
                return game.pass_action, _hint("feels_looks_pass", **_felt(view), looks=looks)
            return game.remove_action, _hint("no_pass")
        settle = view["settles"]
        known = {r["piece"]: r["reading"] for r in view["my_readings"] if r["settle"] == settle}
        points = {p["id"]: p["points"] for p in view["pieces"]}

        def judged(p: int) -> float:
            return self._combined(est[p], known[p], noise) if p in known else est[p]

        best = min(legal, key=lambda p: (judged(p) >= self.loose_below, -points[p], judged(p), p))
        return best, _hint(
            "looks_loose" if judged(best) < self.loose_below else "looks_least_held", piece=best
        )


class StressOracleAgent(ReasonedAgent):
    """Analysis only: reads the true force on every contact (the stress network), without noise.
    No seat can see that, so this is never a level and never offered to play against."""

    name = "oracle"

    def __init__(self, game, seat: int, seed: int | None = None, loose_below: float = 0.02, **options: Any):
        super().__init__(game, seat, seed=seed, **options)
        self.loose_below = loose_below

    def choose(self, state: State) -> tuple[int, Reason]:
        state = cast(BoobyTrapState, state)  # made for this game (it reads the true tray)
        game = state.game
        legal = state.legal_actions()
        load = physics.stress_of(state.packing).load
        touched = state.touched
        if touched is not None:
            if load[touched] < self.loose_below:
                return game.remove_action, _hint("no_load", piece=touched)
            if game.pass_action in legal:
                return game.pass_action, _hint("load_pass", piece=touched, load=decimal(load[touched]))
            return game.remove_action, _hint("no_pass")
        points = {p.id: physics.POINTS[p.size] for p in state.packing.pieces}
        best = min(legal, key=lambda p: (load[p] >= self.loose_below, -points[p], load[p], p))
        return best, _hint("load", piece=best, load=decimal(load[best]))
