"""Observation tensors written by vectorised code (an encoder's `state_tensor`, what the
adapters call) are the view encoder's floats bit for bit, for every seat of many random states of
every configuration of every game that has one (issue 30, deliver 5)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import trapworks
from research.variants import case_id, cases
from trapworks.adapters._common import observation_array
from trapworks.core.game import CHANCE, sample_chance


def _fast_cases():
    return [c for c in cases() if hasattr(trapworks.make(c[0], **c[1]).encoder(), "state_tensor")]


@pytest.mark.parametrize("case", _fast_cases(), ids=case_id)
def test_state_tensor_equals_the_view_encoder(case):
    game_id, options = case[0], case[1]
    game = trapworks.make(game_id, **options)
    enc = game.encoder()
    rng = random.Random(7)
    checked = 0
    for g in range(12):
        state = game.new_initial_state(seed=g)
        steps = 0
        while steps < 400:
            for seat in range(game.num_players()):
                want = np.asarray(enc.observation_tensor(state.view(seat)), dtype=np.float32)
                got = enc.state_tensor(state, seat)
                assert got.dtype == np.float32 and got.shape == want.shape
                assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), (g, steps, seat)
                assert np.array_equal(observation_array(state, seat), want)
                checked += 1
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    assert checked > 100


def test_every_game_but_booby_trap_has_a_vectorised_tensor():
    # Booby Trap's step (the physics) costs far more than its tensor (BENCHMARKS.md).
    have = {c[0] for c in _fast_cases()}
    assert {"last-mouse-lost", "mouse-trap"} <= have
