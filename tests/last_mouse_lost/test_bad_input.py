"""Malformed actions, positions, records and options: each rejected with a message that names
the problem, leaving the game as it was so that play goes on."""

import json

import pytest

import trapworks
from trapworks.core import (
    GameRecord,
    IllegalActionError,
    OptionError,
    PositionError,
    RecordError,
    UnknownGameError,
)


def fresh(**options):
    return trapworks.make("last-mouse-lost", **options).new_initial_state()


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "row letter"),
        ("hello", "row letter"),
        ("z1", "no row z"),
        ("c9", "6 raised mice"),
        ("c0", "at least one"),
        ("c2-4", "how many mice"),
        ("c1,3", "how many mice"),
        ("3c", "row letter"),
    ],
)
def test_malformed_or_illegal_action_text_basic(text, words):
    state = fresh()
    before = state.position()
    with pytest.raises(IllegalActionError) as e:
        state.string_to_action(text)
    assert words in str(e.value) and repr(text) in str(e.value)
    assert state.position() == before
    state.apply_action(state.string_to_action("c2"))  # and the game goes on


@pytest.mark.parametrize(
    "text, words",
    [
        ("c1,3", "not one run"),
        ("c7", "no mouse 7"),
        ("c4-2", "runs backwards"),
        ("c2-x", "write a row letter and mice"),
        ("c1-2-3", "not a mouse number"),
    ],
)
def test_malformed_or_illegal_action_text_advanced(text, words):
    state = fresh(rules="advanced")
    with pytest.raises(IllegalActionError, match=words):
        state.string_to_action(text)
    state.apply_action(state.string_to_action("c3"))
    with pytest.raises(IllegalActionError, match="already pressed"):
        state.string_to_action("c2-4")


@pytest.mark.parametrize(
    "action, words",
    [
        (-1, "no such action"),
        (10**9, "no such action"),
        ("c2", "integer id"),
        (2.0, "integer id"),
        (True, "integer id"),
        (None, "integer id"),
    ],
)
def test_bad_action_ids_leave_the_state_unchanged(action, words):
    state = fresh()
    state.apply_action(state.string_to_action("c6"))
    before = (state.position(), state.history())
    with pytest.raises(IllegalActionError, match=words):
        state.apply_action(action)
    assert (state.position(), state.history()) == before


def test_an_action_that_is_no_longer_legal():
    state = fresh()
    a = state.string_to_action("c6")
    state.apply_action(a)
    state.apply_action(state.string_to_action("a1"))
    with pytest.raises(IllegalActionError, match="row c has 0 raised mice"):
        state.apply_action(a)


def test_no_moves_after_the_match():
    state = trapworks.make("last-mouse-lost", first_to=1).state_from_position(
        "o../...../....../....../...../... 1"
    )
    state.apply_action(state.string_to_action("a1"))
    assert state.is_terminal()
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_action(0)
    with pytest.raises(IllegalActionError, match="over"):
        state.string_to_action("a1")


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "expected 1 to 4 fields"),
        ("ooo/ooooo", "board is 3,5,6,6,5,3"),
        ("ooo/ooxoo/oooooo/oooooo/ooooo/ooo", "o and . only"),
        ("ooo//oooooo/oooooo/ooooo/ooo", "o and . only"),
        ("ooo/ooooo/oooooo/oooooo/ooooo/ooo 3", "must be 1 or 2"),
        ("ooo/ooooo/oooooo/oooooo/ooooo/ooo 1 1:0", "must look like 1-0"),
        ("ooo/ooooo/oooooo/oooooo/ooooo/ooo 1 4-0", "impossible in a match to 3"),
        ("ooo/ooooo/oooooo/oooooo/ooooo/ooo 1 3-3", "impossible"),
        ("ooo/ooooo/oooooo/oooooo/ooooo/ooo 1 3-0", "match is over"),
        (".../...../....../....../...../... 1 1-0", "every mouse is pressed"),
        ("ooo/ooooo/oooooo/oooooo/ooooo/ooo 2 0-0 1", "the one who opened it"),
        ("ooo/ooooo/oooooo/oooooo/ooooo/ooo ? 0-0", "first_player=random"),
        ("ooo/ooooo/oooooo/oooooo/ooooo/ooo 1 0-0 7", "round opener"),
        ("a b c d e", "expected 1 to 4 fields"),
    ],
)
def test_impossible_or_malformed_positions(text, words):
    game = trapworks.make("last-mouse-lost")
    with pytest.raises(PositionError) as e:
        game.state_from_position(text)
    assert words in str(e.value)


@pytest.mark.parametrize(
    "options, words",
    [
        ({"rules": "expert"}, "basic or advanced"),
        ({"board": "3,x"}, "row lengths"),
        ({"board": []}, "1 to 26 rows"),
        ({"board": [3, 40]}, "1 to 16 mice"),
        ({"first_to": 0}, "positive"),
        ({"opener": "youngest"}, "alternate"),
        ({"first_player": 2}, "random"),
        ({"colour": "red"}, "unknown option"),
    ],
)
def test_bad_options(options, words):
    with pytest.raises(OptionError, match=words):
        trapworks.make("last-mouse-lost", **options)


def test_unknown_game():
    with pytest.raises(UnknownGameError, match="available games: .*last-mouse-lost"):
        trapworks.make("mouse-trapp")


def good_record():
    state = fresh()
    for text in ("c6", "a1", "b5"):
        state.apply_action(state.string_to_action(text))
    return GameRecord.from_state(state).to_dict()


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda r: "not json", "not valid JSON"),
        (lambda r: [1, 2], "JSON object"),
        (lambda r: {**r, "format": "chess-pgn"}, "not a trapworks record"),
        (lambda r: {**r, "version": 99}, "version 99"),
        (lambda r: {k: v for k, v in r.items() if k != "game"}, "no 'game'"),
        (lambda r: {**r, "game": "snakes"}, "unknown game 'snakes'"),
        (lambda r: {**r, "options": {"rules": "expert"}}, "basic or advanced"),
        (lambda r: {**r, "options": "x"}, "'options' must be an object"),
        (lambda r: {**r, "seed": "abc"}, "'seed' must be an integer"),
        (lambda r: {**r, "actions": "c6"}, "list of action strings"),
        (lambda r: {**r, "actions": ["c6", 5]}, "list of action strings"),
        (lambda r: {**r, "actions": ["c6", "a1", "c1"]}, "step 3 ('c1')"),
        (lambda r: {**r, "actions": ["c6", "zz"]}, "step 2"),
        (lambda r: {**r, "start": "ooo/oo"}, "start position is invalid"),
    ],
)
def test_bad_records(change, words):
    data = change(good_record())
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(RecordError, match=words.replace("(", r"\(").replace(")", r"\)")):
        GameRecord.from_json(text).replay()


def test_record_file_errors(tmp_path):
    with pytest.raises(RecordError, match="cannot read record"):
        GameRecord.load(tmp_path / "missing.json")
    path = tmp_path / "r.json"
    GameRecord.from_dict(good_record()).save(path)
    assert GameRecord.load(path).replay().position().startswith("oo./.....")
