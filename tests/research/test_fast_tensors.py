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


def _random_states(game, count, seed=3):
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    out = []
    while len(out) < count:
        out.append(state.clone())
        if state.is_terminal():
            state = game.new_initial_state(seed=rng.randrange(1 << 30))
        elif state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("options", [{}, {"rules": "advanced", "first_player": "random"}])
def test_last_mouse_lost_tensor_is_written_in_c(options):
    from trapworks.games.last_mouse_lost import game as lml

    if lml._fastlml is None:
        pytest.skip("the compiled engine is not built here")
    game = trapworks.make("last-mouse-lost", **options)
    enc = game.encoder()
    assert type(enc.state_tensor).__name__ == "builtin_function_or_method"
    seen = []
    for state in _random_states(game, 300):
        assert isinstance(state, lml._fastlml.Core)
        for seat in (0, 1):
            want = np.asarray(enc.observation_tensor(state.view(seat)), dtype=np.float32)
            got = enc.state_tensor(state, seat)
            assert got.dtype == np.float32 and got.flags.writeable and got.flags.c_contiguous
            assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
            assert np.array_equal(enc._state_tensor(state, seat).view(np.uint32), want.view(np.uint32))
            seen.append(got)
    # every call gives a new array: writing to one changes no other
    seen[0][:] = 7.0
    assert not any(np.shares_memory(seen[0], a) for a in seen[1:]) and seen[1].max() <= 1.0


def test_last_mouse_lost_c_tensor_hands_other_states_to_python():
    from trapworks.games.last_mouse_lost import game as lml

    if lml._fastlml is None:
        pytest.skip("the compiled engine is not built here")
    game = trapworks.make("last-mouse-lost")
    enc = game.encoder()
    # a state of the pure-Python class (what runs without the extension)
    plain = lml.LastMouseLostState(game, seed=1)
    want = np.asarray(enc.observation_tensor(plain.view(1)), dtype=np.float32)
    assert np.array_equal(enc.state_tensor(plain, 1), want)
    with pytest.raises(TypeError, match="an int"):
        enc.state_tensor(game.new_initial_state(seed=1), "0")
    # a tensor of another size (another board's encoder) is refused, never overrun
    bad = lml._fastlml.tensor_writer(np.zeros(3, np.float32), enc._state_tensor)
    with pytest.raises(ValueError, match="this state's tensor has"):
        bad(game.new_initial_state(seed=1), 0)
    for template in (np.zeros((2, 37), np.float32), np.zeros(74, np.float64)):
        with pytest.raises(ValueError, match="float32 array"):
            lml._fastlml.tensor_writer(template, enc._state_tensor)


def test_mouse_trap_pieces_kept_or_not_give_the_same_tensor():
    game = trapworks.make("mouse-trap", players=3, turn_limit=60)
    enc = game.encoder()
    states = _random_states(game, 400)
    first = [enc.state_tensor(s, s.current_player() % 3) for s in states]
    enc.clear_caches()
    for s, a in zip(reversed(states), reversed(first), strict=True):
        b = enc.state_tensor(s, s.current_player() % 3)
        assert np.array_equal(a, b) and b.flags.writeable and not np.shares_memory(a, b)
        want = np.asarray(enc.observation_tensor(s.view(s.current_player() % 3)), dtype=np.float32)
        assert np.array_equal(b.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("game_id", ["last-mouse-lost", "mouse-trap"])
def test_environments_keep_the_writer_and_still_pickle_and_copy(game_id):
    import copy
    import pickle

    from trapworks.adapters.gymnasium import TrapworksEnv
    from trapworks.adapters.pettingzoo import TrapworksAECEnv

    env = TrapworksEnv(game_id)
    obs, _ = env.reset(seed=2)
    assert env._observe == env.game.encoder().state_tensor
    for other in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        assert np.array_equal(other._observe(other.state, other.seat), obs)
    aec = TrapworksAECEnv(game_id)
    aec.reset(seed=2)
    again = pickle.loads(pickle.dumps(aec))
    agent = aec.agents[0]
    assert np.array_equal(again.observe(agent)["observation"], aec.observe(agent)["observation"])
