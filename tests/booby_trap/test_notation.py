"""Position notation, clone, record and replay reproduce outcomes exactly; bad input is refused
with a clear error; hidden readings stay with their seat."""

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trapworks
from trapworks.agents import make_agent
from trapworks.core import GameRecord, IllegalActionError, OptionError, PositionError, undo
from trapworks.games.booby_trap import physics
from trapworks.games.booby_trap.game import EYE_MM, eye


@cache
def _played(seed=2, moves=24):
    """A two-player game some way in (heuristic agents), with passes, touches and removals."""
    game = trapworks.make("booby-trap")
    state = game.new_initial_state(seed)
    agents = [make_agent("heuristic", game, s, seed=s) for s in range(2)]
    while len(state.history()) < moves:
        state.apply_action(agents[state.current_player()].step(state))
    return state


def played(**kw):
    return _played(**kw).clone()


def loaded_piece(state):
    load = physics.stress_of(state.packing).load
    return max(state.touchable(), key=lambda p: (load[p], -p))


def test_position_round_trips():
    for state in (trapworks.make("booby-trap").new_initial_state(4), played()):
        text = state.position()
        again = state.game.state_from_position(text)
        assert again.position() == text
        assert again.packing == state.packing  # floats come back bit for bit


def test_position_in_mid_turn_round_trips():
    state = played()
    state.apply_action(state.touchable()[0])
    again = state.game.state_from_position(state.position())
    assert again.position() == state.position()
    assert again.touched == state.touched
    # The toucher's reading is rebuilt from the notation (noise key and touch number).
    seat = state.current_player()
    assert again.view(seat)["reading"] == state.view(seat)["reading"]


def test_clone_notation_and_record_reproduce_a_removal_exactly():
    state = played()
    piece = loaded_piece(state)
    copies = [
        state.clone(),
        state.game.state_from_position(state.position()),
        GameRecord.from_json(GameRecord.from_state(state).to_json()).replay(),
    ]
    results = []
    for s in [state] + copies:
        s.apply_action(piece)
        s.apply_action(s.game.remove_action)
        event = next(e for e in s.last_events() if e["type"] == "removal")
        results.append(
            (s.position().split(" touches=")[0], event["travel_mm"], event["popped"], event["frames"])
        )
    assert all(r == results[0] for r in results[1:])


def test_record_replays_the_whole_game_with_the_same_readings():
    state = played(moves=40)
    record = GameRecord.from_json(GameRecord.from_state(state, players=["heuristic"] * 2).to_json())
    again = record.replay()
    assert again.position() == state.position()
    for seat in range(2):
        assert again.view(seat)["my_readings"] == state.view(seat)["my_readings"]


def test_undo_takes_back_a_removal():
    state = played()
    before = state.position()
    state.apply_action(loaded_piece(state))
    state.apply_action(state.game.remove_action)
    assert undo(state, 2).position() == before


def test_clone_is_independent():
    state = played()
    copy = state.clone()
    copy.apply_action(copy.touchable()[0])
    copy.apply_action(copy.game.remove_action)
    assert state.position() != copy.position()
    assert state.position() == played().position()


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "starts with 'bt1'"),
        ("chess", "starts with 'bt1'"),
        ("bt1 sizes=S", "missing field"),
        ("bt1 nonsense", "key=value"),
    ],
)
def test_bad_positions_say_what_is_wrong(text, words):
    with pytest.raises(PositionError, match=words):
        trapworks.make("booby-trap").state_from_position(text)


def _edit(text, key, value):
    return " ".join(f"{key}={value}" if part.startswith(key + "=") else part for part in text.split())


@pytest.mark.parametrize(
    "key, value, words",
    [
        ("bar", "abc", "not a number"),
        ("bar", "nan", "not a finite number"),
        ("turn", "9", "out of range"),
        ("debt", "1/0", "3-point penalties"),
        ("won", "0", "entries for 2 player"),
        ("touched", "999", "out of range"),
        ("sizes", "SSS", "letters S, M or L"),
        ("won", "-/-", "nowhere"),
        ("bar", "299.0", "does not rest against any piece"),
    ],
)
def test_bad_position_fields(key, value, words):
    text = played().position()
    with pytest.raises(PositionError, match=words):
        trapworks.make("booby-trap").state_from_position(_edit(text, key, value))


def test_overlapping_pieces_are_refused():
    state = played()
    a, b = state.packing.pieces[:2]
    text = state.position().replace(f"{b.id}:{b.x!r}:{b.y!r}", f"{b.id}:{a.x!r}:{a.y!r}")
    with pytest.raises(PositionError, match=f"pieces {a.id} and {b.id} overlap"):
        state.game.state_from_position(text)


def test_a_piece_outside_the_tray_is_refused():
    state = played()
    p = state.packing.pieces[0]
    text = state.position().replace(f"{p.id}:{p.x!r}:{p.y!r}", f"{p.id}:{p.x!r}:-50.0")
    with pytest.raises(PositionError, match="not inside the tray"):
        state.game.state_from_position(text)


@pytest.mark.parametrize(
    "text, words",
    [
        ("banana", "touch N"),
        ("touch 999", "there is no piece 999"),
        ("remove", "touch a piece first"),
        ("pass", "touch a piece first"),
    ],
)
def test_bad_actions_say_what_is_wrong(text, words):
    state = trapworks.make("booby-trap").new_initial_state(0)
    before = state.position()
    with pytest.raises(IllegalActionError, match=words):
        state.string_to_action(text)
    assert state.position() == before


def test_action_text_forms():
    state = trapworks.make("booby-trap").new_initial_state(0)
    p = state.packing.pieces[0]
    assert state.string_to_action(f"touch {p.id}") == p.id
    assert state.string_to_action(f"{p.id}") == p.id
    assert state.string_to_action(f"t{p.id}") == p.id
    assert state.string_to_action(f"touch {p.size.lower()}{p.id}") == p.id
    wrong = {"S": "l", "M": "s", "L": "m"}[p.size]
    with pytest.raises(IllegalActionError, match="is "):
        state.string_to_action(f"touch {wrong}{p.id}")
    state.apply_action(p.id)
    assert state.string_to_action("I pass") == state.game.pass_action
    assert state.string_to_action("remove") == state.game.remove_action
    with pytest.raises(IllegalActionError, match="only one piece"):
        state.string_to_action("touch 3")
    with pytest.raises(IllegalActionError):
        state.apply_action("remove")  # text is not an action id


@pytest.mark.parametrize(
    "options, words",
    [
        ({"players": 1}, "variant=solitaire"),
        ({"players": 7}, "2 to 6"),
        ({"variant": "solitaire", "players": 2}, "for 1 player"),
        ({"variant": "speed"}, "choose one of"),
        ({"tension_noise": -1}, "tension_noise"),
        ({"pieces_per_size": 30}, "pieces_per_size"),
        ({"first_player": 2}, "first_player"),
        ({"colour": "red"}, "unknown option"),
    ],
)
def test_bad_options(options, words):
    with pytest.raises(OptionError, match=words):
        trapworks.make("booby-trap", **options)


def test_resample_forgets_other_seats_readings():
    state = played()
    assert state.readings[0] and state.readings[1]  # both seats have touched pieces
    sample = state.resample(0, random.Random(1))
    assert sample.readings[0] == state.readings[0] and sample.readings[1] == []
    assert sample.noise_key != state.noise_key
    assert sample.scores() == state.scores()
    # The tray as seat 0 sees it (to EYE_MM), each piece redrawn within that: not the true tray.
    assert sample.packing != state.packing
    half = EYE_MM / 2 + 1e-9
    for p, q in zip(sample.packing.pieces, state.packing.pieces, strict=True):
        assert p.id == q.id and abs(p.x - eye(q.x)) <= half and abs(p.y - eye(q.y)) <= half
    assert sample.view(0)["pieces"] == state.view(0)["pieces"]
    # Right after seat 1 touches, seat 0's sample has no trace of the reading.
    touched = state.clone()
    while touched.current_player() != 1 or touched.touched is not None:
        touched.apply_action(
            touched.touchable()[0] if touched.touched is None else touched.game.remove_action
        )
    touched.apply_action(touched.touchable()[0])
    hidden = touched.resample(0, random.Random(2))
    assert not any(e["type"] == "feel" for e in hidden._events)
    # Seat 1 holds a reading of its piece in the sample, redrawn with the sample's own noise.
    assert [r["piece"] for r in hidden.readings[1]] == [touched.touched]
    assert hidden.readings[1][0]["reading"] == hidden.reading_for(touched.touched, touched.touches)
    assert hidden.view(1)["reading"]["piece"] == touched.touched
    # The resampled state plays on (search from seat 0's point of view).
    sample.apply_action(sample.touchable()[0])


def test_tension_noise_is_seeded_and_varies():
    noisy = trapworks.make("booby-trap", tension_noise=0.2).new_initial_state(0)
    p = noisy.touchable()[0]
    readings = {noisy.reading_for(p, k) for k in range(1, 20)}
    assert len(readings) > 3  # each touch draws its own noise
    assert noisy.reading_for(p, 5) == noisy.reading_for(p, 5)  # and the same touch the same noise


SMALL = trapworks.make("booby-trap", pieces_per_size=4, players=3)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), choices=st.lists(st.integers(0, 1000), min_size=200, max_size=200))
def test_random_play_conserves_pieces_and_points(seed, choices):
    state = SMALL.new_initial_state(seed)
    n = SMALL.num_pieces
    for c in choices:
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[c % len(legal)])
        everywhere = (
            [p.id for p in state.packing.pieces] + [p for w in state.winnings for p in w] + state.discard
        )
        assert sorted(everywhere) == list(range(n))
        assert all(d % 3 == 0 and d >= 0 for d in state.debt)
        assert state.passes_in_row <= 2 * SMALL.players
        for s in range(3):
            assert state.scores()[s] == state.points(s) - state.debt[s]
    if state.is_terminal():
        assert state.pieces_left() <= SMALL.players


def test_a_game_without_a_seed_gets_a_fresh_tray_and_still_replays():
    game = trapworks.make("booby-trap", pieces_per_size=6)
    a, b = game.new_initial_state(), game.new_initial_state()
    assert a.seed is not None and a.packing != b.packing
    a.apply_action(a.touchable()[0])
    a.apply_action(game.remove_action)
    assert GameRecord.from_json(GameRecord.from_state(a).to_json()).replay().position() == a.position()


def test_views_do_not_give_the_noise_key():
    state = played()
    for seat in (0, 1, None):
        text = state.view(seat)["position"]
        assert " key=" not in text
        # Still a position: it sets up the tray as the eye sees it (with key 0 for future readings).
        again = state.game.state_from_position(text)
        assert again.noise_key == 0 and again.view(seat)["pieces"] == state.view(seat)["pieces"]
        assert all(p.x == eye(p.x) and p.y == eye(p.y) for p in again.packing.pieces)
