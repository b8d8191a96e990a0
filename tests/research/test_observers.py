"""OpenSpiel observers by `IIGObservationType` on every game (issue 30), in the manner of OpenSpiel's
own observer tests (observation_test.py): public, one player's private information, every
player's; perfect recall for the information state (distinct information states never share a
tensor)."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.observation import make_observation

import trapworks.adapters.openspiel  # noqa: F401 (registers the games)

T = pyspiel.IIGObservationType
NONE, SINGLE, ALL = (
    pyspiel.PrivateInfoType.NONE,
    pyspiel.PrivateInfoType.SINGLE_PLAYER,
    pyspiel.PrivateInfoType.ALL_PLAYERS,
)

GAMES = [
    ("trapworks_last_mouse_lost", {"board": "1;2;3;", "first_to": 2, "first_player": -1}),
    ("trapworks_mouse_trap", {"players": 3, "turn_limit": 8}),
    ("trapworks_booby_trap", {"pieces_per_size": 2}),
    ("trapworks_dead_end_drive", {"players": 2, "turn_limit": 12}),
    ("trapworks_dead_end_drive", {"players": 4, "turn_limit": 6}),
]
IDS = [f"{n}:{p.get('players', '')}" for n, p in GAMES]


def random_states(game, seed, count=40):
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    while not state.is_terminal() and len(out) < count:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            out.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("name,params", GAMES, ids=IDS)
def test_observer_types(name, params):
    game = pyspiel.load_game(name, params)
    n = game.num_players()
    public = make_observation(game, T(perfect_recall=False, public_info=True, private_info=NONE))
    single = make_observation(game, T(perfect_recall=False, public_info=True, private_info=SINGLE))
    every = make_observation(game, T(perfect_recall=False, public_info=True, private_info=ALL))
    recall = make_observation(game, T(perfect_recall=True, public_info=True, private_info=SINGLE))
    assert every.tensor.size == n * single.tensor.size
    assert public.tensor.size == single.tensor.size
    assert recall.tensor.size > single.tensor.size
    # The default observation is one player's, without recall (OpenSpiel's observation_tensor).
    assert game.observation_tensor_size() == single.tensor.size
    assert game.information_state_tensor_size() == recall.tensor.size
    private_differs = False
    for state in random_states(game, seed=len(name)):
        strings = [public.string_from(state, p) for p in range(n)]
        # The public observation is the same whoever asks.
        assert len(set(strings)) == 1
        tensors = []
        for p in range(n):
            public.set_from(state, p)
            tensors.append(public.tensor.copy())
        assert all(np.array_equal(tensors[0], t) for t in tensors)
        # Every player's observation is the players' own observations side by side.
        every.set_from(state, 0)
        for p in range(n):
            single.set_from(state, p)
            size = single.tensor.size
            assert np.array_equal(every.tensor[p * size : (p + 1) * size], single.tensor)
            assert single.string_from(state, p) in every.string_from(state, 0)
        assert state.observation_string(0) == single.string_from(state, 0)
        assert state.information_state_string(0) == recall.string_from(state, 0)
        if single.string_from(state, 0) != single.string_from(state, 1 % n):
            private_differs = True
    assert private_differs or n == 1


def test_public_observation_keeps_every_secret():
    """13 Dead End Drive: the public observation of a state does not change when the hidden cards
    are dealt otherwise (another state of a seat's information set); a seat's own does, for the
    seats whose cards changed."""
    game = pyspiel.load_game("trapworks_dead_end_drive", {"players": 3, "turn_limit": 12})
    public = make_observation(game, T(perfect_recall=True, public_info=True, private_info=NONE))
    every = make_observation(game, T(perfect_recall=False, public_info=True, private_info=ALL))
    state = random_states(game, seed=5, count=25)[-1]
    seen_change = False
    for k in range(6):
        other = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(k, 0.0, 1.0))
        assert public.string_from(other, 1) == public.string_from(state, 1)
        public.set_from(state, 1)
        before = public.tensor.copy()
        public.set_from(other, 1)
        assert np.array_equal(before, public.tensor)
        if other.tw.chars != state.tw.chars:
            seen_change = True
            assert every.string_from(other, 0) != every.string_from(state, 0)
    assert seen_change


@pytest.mark.parametrize("name,params", GAMES, ids=IDS)
def test_information_state_tensor_has_perfect_recall(name, params):
    """Distinct information states never share a tensor (issue 30: Booby Trap mapped 272 strings
    to 263 tensors)."""
    game = pyspiel.load_game(name, params)
    by_string: dict[str, bytes] = {}
    for seed in range(6):
        for state in random_states(game, seed=seed, count=30):
            for p in range(game.num_players()):
                tensor = np.asarray(state.information_state_tensor(p), np.float32).tobytes()
                by_string.setdefault(state.information_state_string(p), tensor)
                assert by_string[state.information_state_string(p)] == tensor
    assert len(set(by_string.values())) == len(by_string)


def test_private_only_observation_is_refused_with_a_reason():
    game = pyspiel.load_game("trapworks_last_mouse_lost")
    with pytest.raises(ValueError, match="public"):
        make_observation(game, T(perfect_recall=False, public_info=False, private_info=SINGLE))
