"""The kernel's contract, checked by property tests on every registered game.

Random legal play (chance drawn by its probabilities) never crashes; every view is JSON;
the position text round-trips (where the game declares a notation); a record replays to the
identical state; a clone is independent of its source; undo gives back the state before the last action.
"""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trapworks
from trapworks.core import CHANCE, GameRecord, sample_chance, undo
from trapworks.core.spec import spec_of

# Long or slow games are checked on a prefix of their play; the rest to the end.
MAX_STEPS = 400
EXAMPLES = {"last-mouse-lost": 60, "booby-trap": 3}
DEFAULT_EXAMPLES = 8


def play_random(state, rng, steps):
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            action = sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            assert legal, f"no legal actions in a live state: {state!r}"
            action = rng.choice(legal)
        state.apply_action(action)
    return state


def variants(game_id):
    """A few option sets per game, to reach the variants too."""
    cls = trapworks.core.game_class(game_id)
    options = [{}]
    if game_id == "last-mouse-lost":
        options += [
            {"rules": "advanced"},
            {"first_player": "random", "opener": "loser"},
            {"rules": "advanced", "board": [2, 7, 1], "first_to": 2},
        ]
    return [o for o in options if set(o) <= set(cls.default_options)]


@pytest.mark.parametrize("game_id", trapworks.available_games())
def test_contract(game_id):
    examples = EXAMPLES.get(game_id, DEFAULT_EXAMPLES)
    has_notation = spec_of(trapworks.make(game_id)).notation is not None

    def position(state):
        if has_notation:
            return state.position()
        return json.dumps([state.view(None), state.history()], sort_keys=True)

    @settings(max_examples=examples, deadline=None)
    @given(
        seed=st.integers(0, 2**32 - 1),
        cut=st.integers(0, MAX_STEPS),
        variant=st.sampled_from(variants(game_id)),
    )
    def run(seed, cut, variant):
        rng = random.Random(seed)
        game = trapworks.make(game_id, **variant)
        state = play_random(game.new_initial_state(seed=seed), rng, cut)
        seats = [None] + list(range(game.num_players()))

        # Views are JSON and positions round-trip (a game without a notation: its spectator view
        # and history stand for the position).
        for seat in seats:
            json.dumps(state.view(seat))
        text = position(state)
        if has_notation:
            assert game.state_from_position(text).position() == text

        # Record -> JSON -> replay: the identical state.
        record = GameRecord.from_json(GameRecord.from_state(state).to_json())
        replayed = record.replay()
        assert position(replayed) == text and replayed.history() == state.history()
        for seat in seats:
            assert replayed.view(seat) == state.view(seat)

        # Undo: the state before the last action.
        if state.history():
            before = play_random(game.new_initial_state(seed=seed), random.Random(seed), 0)
            for a in state.history()[:-1]:
                before.apply_action(a)
            assert position(undo(state, 1)) == position(before)

        # A clone is independent of its source.
        if not state.is_terminal():
            snapshot = (position(state), state.history(), state.legal_actions(), state.view(None))
            clone = state.clone()
            play_random(clone, random.Random(seed + 1), 5)
            assert (position(state), state.history(), state.legal_actions(), state.view(None)) == snapshot
            # ...and the source moving leaves the clone alone.
            clone_snapshot = (position(clone), clone.history())
            play_random(state, random.Random(seed + 2), 3)
            assert (position(clone), clone.history()) == clone_snapshot

    run()


@pytest.mark.parametrize("game_id", trapworks.available_games())
def test_random_games_end(game_id):
    """Random legal play reaches the end (a win or a reported truncation) within the game's bound."""
    game = trapworks.make(game_id)
    rng = random.Random(1)
    bound = game.max_game_length() or 100_000
    for _ in range(3 if game_id != "last-mouse-lost" else 50):
        state = play_random(game.new_initial_state(seed=rng.randrange(10**6)), rng, bound)
        assert state.is_terminal()
        assert state.winners() or state.is_truncated()
        assert len(state.returns()) == game.num_players()
