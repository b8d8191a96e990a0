"""The kernel's research facts (issue 17): action spaces, chance outcomes numbered from 0,
encodings built from a seat's view only, cheap deepcopy and pickle without shared tables."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

import trapworks
from research.variants import case_id, cases
from trapworks.core.game import State

CASES = cases()


def random_states(game, seed: int, limit: int = 300):
    """States along one random game (seat moves and chance drawn uniformly)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    yield state
    for _ in range(limit):
        if state.is_terminal():
            return
        state = state.clone()
        state.apply_action(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_actions_chance_and_encodings_fit_the_stated_spaces(case):
    game_id, options = case
    game = trapworks.make(game_id, **options)
    chance = game.chance_actions()
    assert len(set(chance)) == len(chance) == game.max_chance_outcomes()
    for i, a in enumerate(chance):
        assert game.chance_outcome_index(a) == i and game.chance_outcome_action(i) == a
    size = game.encoder().observation_size()
    limit = 40 if game_id == "booby-trap" else 300
    for state in random_states(game, seed=1, limit=limit):
        if state.is_chance_node():
            assert {a for a, _ in state.chance_outcomes()} <= set(chance)
        elif not state.is_terminal():
            assert all(0 <= a < game.num_distinct_actions() for a in state.legal_actions())
        for seat in range(game.num_players()):
            tensor = state.observation_tensor(seat)
            assert len(tensor) == size == len(state.information_state_tensor(seat))
            enc = game.encoder()
            assert all(enc.low <= x <= enc.high for x in tensor)
            assert isinstance(state.observation_string(seat), str)
        if state.is_terminal():
            r = state.returns()
            assert all(game.min_utility() <= x <= game.max_utility() for x in r)
            if game.utility_sum() is not None:
                assert sum(r) == pytest.approx(game.utility_sum())


def test_chance_numbers_are_their_own_space():
    lml = trapworks.make("last-mouse-lost", first_player="random")
    assert lml.chance_actions() == (28, 29)  # the kernel's ids stay as records have them
    assert [lml.chance_outcome_index(a) for a in (28, 29)] == [0, 1]
    assert trapworks.make("last-mouse-lost").max_chance_outcomes() == 0
    mt = trapworks.make("mouse-trap", players=3, first_player="random")
    assert [mt.chance_outcome_index(d) for d in range(1, 7)] == [0, 1, 2, 3, 4, 5]
    assert mt.max_chance_outcomes() == 6 + 2 + 3
    with pytest.raises(ValueError, match="not a chance outcome"):
        mt.chance_outcome_index(0)
    with pytest.raises(ValueError, match="chance outcome 99"):
        mt.chance_outcome_action(99)


def test_information_state_string_tells_histories_apart():
    game = trapworks.make("last-mouse-lost", board=[2, 2], first_to=1)
    a = game.new_initial_state()
    b = game.new_initial_state()
    # Same board, reached by different move orders.
    for x in ("a1", "b1"):
        a.apply_action(a.string_to_action(x))
    for x in ("b1", "a1"):
        b.apply_action(b.string_to_action(x))
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state_string(0) != b.information_state_string(0)


@pytest.mark.parametrize("game_id", ["last-mouse-lost", "mouse-trap", "booby-trap", "dead-end-drive"])
def test_deepcopy_and_pickle_are_complete_and_leave_shared_tables_out(game_id):
    options = {"pieces_per_size": 2} if game_id == "booby-trap" else {}
    game = trapworks.make(game_id, **options)
    states = list(random_states(game, seed=4, limit=30))
    state = states[-1]
    for other in (copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert type(other) is type(state)
        assert other.position() == state.position()
        assert other.history() == state.history()
        assert other.legal_actions() == state.legal_actions()
        for seat in range(game.num_players()):
            assert other.view(seat) == state.view(seat)
        # Independent: playing on the copy leaves the original alone.
        if not other.is_terminal():
            before = state.position()
            other.apply_action(other.legal_actions()[0])
            assert state.position() == before
    # A pickled game is its class and options.
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game) and again.options == game.options


def test_last_mouse_lost_state_pickle_leaves_the_move_tables_out():
    """The bitboard engine (issue 19) keeps views into the game's move tables on each state:
    copies share them, a pickle leaves them out and takes them again from the rebuilt game."""
    game = trapworks.make("last-mouse-lost")
    state = game.new_initial_state()
    rng = random.Random(0)
    for _ in range(200):  # fill the lazily made move tables
        s = state.clone()
        while not s.is_terminal() and s.score == [0, 0]:
            s.apply_action(rng.choice(s.legal_actions()))
    state.apply_action(state.legal_actions()[3])
    data = pickle.dumps(state)
    assert len(data) < 4096 and b"_Tables" not in data
    again = pickle.loads(data)
    assert again.legal_actions() == state.legal_actions() and again.position() == state.position()
    action = state.legal_actions()[0]
    again.apply_action(action)
    state.clone().apply_action(action)
    copied = copy.deepcopy(state)
    assert copied._legal is state._legal  # shared, not copied
    assert State.shared_attrs == ()


def test_a_game_is_shared_by_copies_and_rebuilt_by_pickle():
    game = trapworks.make("mouse-trap", players=3, variant="original")
    assert copy.deepcopy(game) is game and copy.copy(game) is game
    again = pickle.loads(pickle.dumps(game))
    assert again.options == game.options and again.num_players() == 3
