"""A bounded information state for learning (issue 42, item 8): the observer parameter
`history_window=k` keeps the last k actions the observer saw, one-hot, beside its view: a tensor
whose size does not grow with the turn limit (perfect recall is 97,149 floats for 2-player Mouse
Trap at the default limit). Before, every observer parameter was refused."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.observation import make_observation

import trapworks.adapters.openspiel  # noqa: F401 (registers the games)

T = pyspiel.IIGObservationType
GAMES = [
    ("trapworks_last_mouse_lost", {}),
    ("trapworks_mouse_trap", {"players": 2}),
    ("trapworks_booby_trap", {"pieces_per_size": 2}),
    ("trapworks_dead_end_drive", {"players": 4}),
]
K = 8


def walk(game, seed, steps=30):
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize("name,params", GAMES, ids=[g[0] for g in GAMES])
def test_the_last_k_seen_actions_one_hot_beside_the_view(name, params):
    game = pyspiel.load_game(name, params)
    bounded = make_observation(game, T(perfect_recall=True), {"history_window": K})
    view = make_observation(game, T(perfect_recall=False))
    ids = game.num_distinct_actions() + game.max_chance_outcomes()
    assert bounded.tensor.size == view.tensor.size + K * ids
    for state in walk(game, 3):
        player = 0
        bounded.set_from(state, player)
        view.set_from(state, player)
        assert np.array_equal(bounded.dict["observation"], view.tensor)
        slots = bounded.dict["history"].reshape(K, ids)
        seen = [a for a, w in zip(state.history(), state.seen, strict=True) if bounded._sees(player, w)]
        last = seen[-K:]
        assert slots.sum() == len(last)
        assert [int(np.flatnonzero(row)[0]) for row in slots[: len(last)]] == last
        assert bounded.string_from(state, player).endswith("last " + " ".join(map(str, last)))


def test_a_hidden_card_stays_hidden_in_the_window():
    game = pyspiel.load_game("trapworks_dead_end_drive", {"players": 2})
    mine = make_observation(game, T(perfect_recall=True), {"history_window": 64})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    mine.set_from(state, 0)
    other = make_observation(game, T(perfect_recall=True), {"history_window": 64})
    other.set_from(state, 1)
    # The deal: each seat's window holds its own cards' outcomes only, so the two differ.
    assert not np.array_equal(mine.dict["history"], other.dict["history"])


@pytest.mark.parametrize("params", [{"history_window": 0}, {"history_window": "8"}, {"window": 8}])
def test_bad_observer_parameters_are_named(params):
    game = pyspiel.load_game("trapworks_mouse_trap", {"players": 2})
    with pytest.raises(ValueError, match="history_window"):
        make_observation(game, T(perfect_recall=True), params)
