"""What the PettingZoo and Gymnasium adapters share: spaces, masks and chance by a seeded rng."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from trapworks.core.game import CHANCE, Game, State, sample_chance


def observation_array(state: State, seat: int) -> np.ndarray:
    """The seat's observation tensor as float32. A game's encoder may offer `state_tensor(state,
    seat)`: the same floats written by vectorised or compiled code without building the view (bit
    for bit the view's tensor: tests/research/test_fast_tensors.py); otherwise the view is
    encoded. The first call on a game object looks the encoder up; later calls go straight to it
    (the adapters call this once per step, so its own cost counts: BENCHMARKS.md)."""
    try:
        fast = state.game._fast_tensor  # type: ignore[attr-defined]  # set below, on the game object
    except AttributeError:
        fast = _bind_fast_tensor(state.game)
    if fast is not None:
        return fast(state, seat)
    return np.asarray(state.observation_tensor(seat), dtype=np.float32)


def observation_writer(game: Game) -> Any:
    """The function `(state, seat) -> float32 array` that writes a seat's observation tensor for
    states of `game`, what `observation_array` calls: the encoder's `state_tensor` where it has
    one (for Last Mouse Lost a C builtin), else the view encoder. The environments keep it and
    call it straight, one Python call less per step than `observation_array` (BENCHMARKS.md)."""
    fast = _bind_fast_tensor(game)
    return fast if fast is not None else _view_tensor


def _view_tensor(state: State, seat: int) -> np.ndarray:
    return np.asarray(state.observation_tensor(seat), dtype=np.float32)


class KeepsObservationWriter:
    """Mixin of the environments: `self._observe` is `observation_writer(self.game)`, left out of
    pickles and copies (a compiled writer cannot be pickled) and made again from the game."""

    game: Game

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_observe", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if "game" in state:
            self._observe = observation_writer(self.game)


def _bind_fast_tensor(game: Game) -> Any:
    """The encoder's `state_tensor` (None: it has none), kept on the game object."""
    fast = getattr(game.encoder(), "state_tensor", None)
    game.__dict__["_fast_tensor"] = fast
    return fast


def action_mask(game: Game, state: State, seat: int) -> np.ndarray:
    """1 for each legal action of `seat` (all zero when it is not that seat's move)."""
    mask = np.zeros(game.num_distinct_actions(), dtype=np.int8)
    if not state.is_terminal() and state.current_player() == seat:
        mask[state.legal_actions()] = 1
    return mask


def resolve_chance(state: State, rng: random.Random) -> list[int]:
    """Draw chance outcomes (by their probabilities) until a seat is to move or the game ends;
    the outcomes drawn, in order."""
    drawn = []
    while state.current_player() == CHANCE:
        outcome = sample_chance(state, rng)
        state.apply_action(outcome)
        drawn.append(outcome)
    return drawn


def reward_scale(game: Game) -> float:
    """What the adapters divide returns by so that every game's rewards lie in -1..1: the largest
    absolute utility (1 for every game but Booby Trap, whose net scores reach the points on the
    tray)."""
    return max(abs(game.min_utility()), abs(game.max_utility()), 1e-9)


def eliminated(state: State) -> set[int]:
    """Seats out of the game before its end: a Mouse Trap mouse caught, a 13 Dead End Drive
    player who lost the last Character card."""
    out = getattr(state, "out", None)
    if isinstance(out, list):
        return {s for s, o in enumerate(out) if o}
    mice = getattr(state, "mice", None)
    if isinstance(mice, list):
        return {s for s, m in enumerate(mice) if m is None}
    return set()


def visible_events(state: State, seat: int) -> list[dict[str, Any]]:
    """The last action's events that `seat` may see (its own private ones, every public one)."""
    return [{k: v for k, v in e.items() if k != "frames"} for e in state.last_events(seat)]


def setup_seed(rng: random.Random) -> int:
    """The kernel's seed for a new game (the deal, the tray), drawn from the environment's rng."""
    return rng.getrandbits(63)
