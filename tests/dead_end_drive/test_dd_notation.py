"""Position and action notation: round trips, and clear errors for bad input."""

import random

import pytest
from dd_helpers import game, position, random_game, state_at, texts

import trapworks
from trapworks.core import IllegalActionError, OptionError, PositionError, sample_chance


def test_every_legal_action_text_parses_back():
    g = game(4)
    rng = random.Random(2)
    s = g.new_initial_state(seed=2)
    for _ in range(600):
        if s.is_terminal():
            break
        for a in s.legal_actions():
            assert s.string_to_action(s.action_to_string(a)) == a
        s.apply_action(sample_chance(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions()))


def test_position_round_trip_mid_turn():
    s = state_at(dice="5,1", pawns={"L": "f8"}, traps="w/-/-/-", pile="c")
    for step in ("L5", "to b9", "draw"):
        s.apply_action(s.string_to_action(step))
        again = s.game.state_from_position(s.position())
        assert again.position() == s.position() and texts(again) == texts(s)
    assert "phase=drawn" in s.position() and "drawn=c" in s.position()


def test_initial_position_text():
    s = game(4, first_player=2).new_initial_state(seed=1)
    p = s.position()
    assert p.startswith("players=4 turn=2 phase=reveal resume=roll") and "portrait=-" in p
    assert game(4, first_player=2).state_from_position(p).position() == p


def test_action_text_variants():
    s = state_at(dice="4,6")
    assert s.string_to_action("s4") == s.string_to_action("Smothers 4") == s.string_to_action("move S 4")
    s.apply_action(s.string_to_action("S4"))
    sq = sorted(texts(s))[0]
    assert s.string_to_action(sq) == s.string_to_action(sq[3:].upper())


@pytest.mark.parametrize(
    "text,message",
    [
        ("Q4", "not a pawn"),
        ("S13", "1 to 12"),
        ("S3", "no die shows 3"),
        ("hello there", "pick a pawn and a count"),
        ("", "empty"),
    ],
)
def test_bad_select_text(text, message):
    s = state_at(dice="4,6")
    with pytest.raises(IllegalActionError, match=message):
        s.string_to_action(text)
    assert s.phase == "select"


def test_bad_destination_text():
    s = state_at(dice="4,6")  # the portrait shows S, so D may not leave
    s.apply_action(s.string_to_action("D4"))
    for text, message in (
        ("to z99", "not a square|off the board"),
        ("to a1", "cannot end"),
        ("to m19", "only the pawn whose portrait shows"),
    ):
        with pytest.raises(IllegalActionError, match=message):
            s.string_to_action(text)
    with pytest.raises(IllegalActionError, match="integer"):
        s.apply_action("to i10")
    with pytest.raises(IllegalActionError, match="no such action"):
        s.apply_action(10**6)


def test_wrong_trap_card_named():
    s = state_at(dice="5,1", pawns={"L": "f8"}, traps="b/-/-/-")
    for step in ("L5", "to b9"):
        s.apply_action(s.string_to_action(step))
    with pytest.raises(IllegalActionError, match="fireplace trap"):
        s.string_to_action("play bookcase")
    with pytest.raises(IllegalActionError, match="hold no fireplace"):
        s.string_to_action("play fireplace")


@pytest.mark.parametrize(
    "mutate,message",
    [
        (lambda p: p.replace("players=4", "players=3"), "for 3 players"),
        (lambda p: p.replace("pawns=", "pawnz="), "unknown field"),
        (lambda p: p.replace("S:i14", "S:k14"), "both on k14"),
        (lambda p: p.replace("S:i14", "S:a1"), "wall"),
        (lambda p: p.replace("S:i14", "S:c14"), "desk"),
        (lambda p: p.replace("S:i14,", ""), "missing S"),
        (lambda p: p.replace("chars=SDC/", "chars=SDCL/"), "held twice"),
        (lambda p: p.replace("chars=SDC/", "chars=SD/"), "must hold its Character card"),
        (lambda p: p.replace("traps=-/-/-/-", "traps=wwwww/-/-/-"), "only 4 wild"),
        (lambda p: p.replace("traps=-/-/-/-", "traps=d/-/-/-"), "never kept in a hand"),
        (lambda p: p.replace("traps=-/-/-/-", "traps=q/-/-/-"), "not a card code"),
        (lambda p: p + " dice=7,1", "1-6"),
        (lambda p: p + " phase=dest dice=4,6", "sel="),
        (lambda p: p + " det=13", "(?i)game over"),
        (lambda p: p + " det=14", "0 to 13"),
        (lambda p: p.replace("portrait=S", "portrait=-"), "portrait"),
        (lambda p: p + " secret=AB/CD", "only a 2-player game"),
        (lambda p: p + " garbage", "key=value"),
    ],
)
def test_bad_positions_are_refused_with_a_reason(mutate, message):
    g = game(4)
    good = position(4)
    g.state_from_position(good)
    with pytest.raises(PositionError, match=message):
        g.state_from_position(mutate(good))


def test_bad_options_are_refused():
    for options, message in (
        ({"players": 5}, "players"),
        ({"players": 1}, "players"),
        ({"first_player": 7}, "first_player"),
        ({"blocked_die": "reroll"}, "blocked_die"),
        ({"after_draw": "maybe"}, "after_draw"),
        ({"wild_cards": -1}, "wild_cards"),
        ({"colour": "red"}, "unknown option"),
    ):
        with pytest.raises(OptionError, match=message):
            trapworks.make("dead-end-drive", **options)


def test_records_with_unseeded_games_replay():
    g = game(2)
    s = random_game(g, 1, max_actions=150)
    from trapworks.core import GameRecord

    assert GameRecord.from_state(s).replay().position() == s.position()
