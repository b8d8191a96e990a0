"""What the PettingZoo and Gymnasium adapters share: spaces, masks and chance by a seeded rng."""

from __future__ import annotations

import random

import numpy as np

from trapworks.core.game import CHANCE, Game, State, sample_chance


def observation_array(state: State, seat: int) -> np.ndarray:
    return np.asarray(state.observation_tensor(seat), dtype=np.float32)


def action_mask(game: Game, state: State, seat: int) -> np.ndarray:
    """1 for each legal action of `seat` (all zero when it is not that seat's move)."""
    mask = np.zeros(game.num_distinct_actions(), dtype=np.int8)
    if not state.is_terminal() and state.current_player() == seat:
        mask[state.legal_actions()] = 1
    return mask


def resolve_chance(state: State, rng: random.Random) -> None:
    """Draw chance outcomes (by their probabilities) until a seat is to move or the game ends."""
    while state.current_player() == CHANCE:
        state.apply_action(sample_chance(state, rng))


def setup_seed(rng: random.Random) -> int:
    """The kernel's seed for a new game (the deal, the tray), drawn from the environment's rng."""
    return rng.getrandbits(63)
