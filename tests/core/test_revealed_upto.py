"""Every game's fast paths keep the kernel's record of the last revealed outcome (what undo
against AI may not cross): after each action, revealed_upto() is the length of the history up
to the last chance outcome or outcome-revealing action."""

from __future__ import annotations

import random

import pytest

import trapworks
from trapworks.core import sample_chance


@pytest.mark.parametrize("game_id", trapworks.available_games())
def test_revealed_upto_follows_every_chance_outcome(game_id):
    options = {"pieces_per_size": 4} if game_id == "booby-trap" else {}
    game = trapworks.make(game_id, **options)
    rng = random.Random(5)
    for seed in range(3):
        state = game.new_initial_state(seed=seed)
        expected = 0
        for _ in range(150):
            if state.is_terminal():
                break
            chance = state.is_chance_node()
            action = sample_chance(state, rng) if chance else rng.choice(state.legal_actions())
            reveals = chance or state.reveals_outcome(action)
            state.apply_action(action)
            if reveals:
                expected = len(state.history())
            assert state.revealed_upto() == expected, (seed, state.history())
