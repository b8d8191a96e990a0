"""Mouse Trap: position and action notation, options, bad input, records, views and drawing."""

import json

import pytest

import trapworks
from mouse_trap.mt_helpers import ALL_STAGES_WORK, game, play, pos, roll
from trapworks.core import GameRecord, IllegalActionError, OptionError, PositionError, undo

# --- position notation ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,options",
    [
        ("mice=0,0 cheese=0,0 pile=30 parts=0 turn=1 next=1 phase=roll", {}),
        ("mice=12,45,x,49 cheese=3,0,0,5 pile=22 parts=24 turn=57 next=2 phase=roll", {"players": 4}),
        ("mice=45,46,x,49 cheese=3,4,0,5 pile=18 parts=24 turn=9 next=2 phase=crank", {"players": 4}),
        ("mice=45,46,20 cheese=3,4,0 pile=23 parts=24 turn=9 next=2 phase=push:3", {"players": 3}),
        ("mice=0,0,0 cheese=10,10,10 pile=0 parts=0 turn=4 next=1 phase=steal:2:2+3:divide", {"players": 3}),
        (
            "mice=0,0,0 cheese=20,20,12 pile=0 parts=0 turn=4 next=1 phase=steal:2:2+3:choose",
            {"players": 3, "variant": "original"},
        ),
        ("mice=45,46,49 cheese=0,0,0 pile=30 parts=24 turn=9 next=2 phase=fire:7", {"players": 3}),
        ("mice=46,x cheese=30,0 pile=0 parts=24 turn=80 next=1 phase=over", {}),
        ("mice=3,4 cheese=1,0 pile=29 parts=2 turn=5 next=2 phase=truncated", {"turn_limit": 5}),
        (
            "mice=0,0 cheese=0,0 pile=52 parts=0 turn=1 next=1 phase=first",
            {"first_player": "random", "variant": "original"},
        ),
    ],
)
def test_position_round_trip(text, options):
    state = pos(text, **options)
    assert state.position() == text
    assert game(**options).state_from_position(state.position()).position() == text


def test_position_defaults_and_field_order():
    state = pos("parts=3 cheese=1,0 mice=5,2")
    assert state.position() == "mice=5,2 cheese=1,0 pile=29 parts=3 turn=1 next=1 phase=roll"


@pytest.mark.parametrize(
    "text,why",
    [
        ("", "a position is a text"),
        ("mice=0,0 cheese=0,0", "parts= is missing"),
        ("mice=0,0 cheese=0,0 parts=0 colour=red", "unknown field"),
        ("mice=0,0 cheese=0,0 parts=0 parts=1", "appears twice"),
        ("mice=0,0 cheese=0,0 parts", "not key=value"),
        ("mice=0,50 cheese=0,0 parts=0", "neither a space"),
        ("mice=0,0,0 cheese=0,0,0 parts=0", "make the game with players=3"),
        ("mice=0,0 cheese=0 parts=0", "cheese lists 1 players"),
        ("mice=0,0 cheese=-1,0 parts=0", "not a whole number"),
        ("mice=0,0 cheese=20,20 parts=0", "supply is 30"),
        ("mice=0,0 cheese=2,0 pile=30 parts=0", "cheese is conserved"),
        ("mice=0,0 cheese=0,0 parts=25", "24 parts"),
        ("mice=0,x cheese=0,3 parts=0 phase=over", "caught yet holds"),
        ("mice=0,x cheese=0,0 parts=0 phase=roll", "write phase=over"),
        ("mice=0,0 cheese=0,0 parts=0 phase=over", "exactly one mouse"),
        ("mice=0,0 cheese=0,0 parts=0 next=3", "players are 1-2"),
        ("mice=x,0,0 cheese=0,0,0 parts=0 next=1", "has been caught"),
        ("mice=45,0 cheese=0,0 parts=24 phase=crank", "Turn Crank"),
        ("mice=46,0 cheese=0,0 parts=24 phase=crank", "nothing to choose"),
        ("mice=46,44 cheese=3,0 parts=24 phase=push:2", "cannot be moved"),
        ("mice=46,20 cheese=3,0 parts=24 phase=push:9", "name the player"),
        ("mice=46,20 cheese=0,0 parts=24 phase=fire:1", "opposing mouse on the Cheese Wheel"),
        ("mice=46,49 cheese=0,0 parts=24 phase=fire:16", "a stage 1-15"),
        ("mice=0,0,0 cheese=0,3,3 parts=0 phase=steal:x", r"write steal:N:P\+Q"),
        ("mice=0,0,0 cheese=0,3,3 parts=0 phase=steal:2:2", "two or more"),
        ("mice=0,0,0 cheese=0,3,0 parts=0 phase=steal:2:2+3", "no cheese to take"),
        ("mice=0,0,0 cheese=0,3,3 parts=0 phase=steal:2:1+3", "not a rival"),
        ("mice=0,0 cheese=0,0 parts=0 phase=first", "first_player=random"),
        ("mice=0,0 cheese=0,0 parts=0 phase=dance", "one of first, roll"),
        ("mice=0,0 cheese=0,0 parts=0 turn=2000", "past the turn limit"),
    ],
)
def test_bad_positions_are_refused_with_a_reason(text, why):
    players = 3 if text.startswith(("mice=0,0,0", "mice=x,0,0")) else 2
    if "make the game" in why:
        players = 2
    with pytest.raises(PositionError, match=why):
        pos(text, players=players)


# --- options ------------------------------------------------------------------------------------


def test_variants_set_every_row_of_the_differences_table():
    mb = game(variant="milton-bradley").options
    orig = game(variant="original").options
    for name, a, b in [
        ("cheese_supply", 30, 52),
        ("follow_destination", False, True),
        ("pay_while_mouse_on_wheel", True, False),
        ("pay_miss_ends_turn", False, True),
        ("steal_tie", "choose-or-divide", "choose"),
        ("safe_protects_cheese", True, False),
        ("empty_pile_source", "most", "any"),
    ]:
        assert (mb[name], orig[name]) == (a, b), name


def test_rows_can_be_mixed():
    g = game(variant="original", cheese_supply=30, follow_destination=False)
    assert g.supply == 30 and not g.follow_destination and not g.pay_while_on_wheel
    state = pos("mice=26,0 cheese=0,0 parts=0", variant="original", follow_destination=False)
    roll(state, 4)
    assert state.mice[0] == 49 and state.cheese[0] == 0


@pytest.mark.parametrize(
    "options,why",
    [
        ({"variant": "parker"}, "variant"),
        ({"cheese_supply": -1}, "cheese_supply"),
        ({"follow_destination": "yes"}, "follow_destination"),
        ({"steal_tie": "split"}, "steal_tie"),
        ({"empty_pile_source": "bank"}, "empty_pile_source"),
        ({"first_player": 2}, "first_player"),
        ({"trap_reliability": 1.5}, "trap_reliability"),
        ({"trap_stage_odds": {"rocket": 0.5}}, "no stage 'rocket'"),
        ({"trap_stage_odds": {"stairs": 2}}, "stairs"),
        ({"trap_stage_odds": [0.5]}, "trap_stage_odds"),
        ({"turn_limit": 0}, "turn_limit"),
        ({"colour": "red"}, "unknown option"),
    ],
)
def test_bad_options_are_refused(options, why):
    with pytest.raises(OptionError, match=why):
        game(**options)


def test_trap_reliability_spreads_over_the_stages():
    g = game(trap_reliability=0.5)
    assert g.capture_chance == pytest.approx(0.5)
    assert len(set(g.stage_odds)) == 1
    assert game(trap_reliability=1.0).capture_chance == 1.0
    assert game(trap_reliability=0.0).capture_chance == 0.0


def test_trap_stage_odds_override_single_stages():
    g = game(trap_stage_odds={"stairs": 0.5, "cage": 1.0})
    assert g.stage_odds[5] == 0.5 and g.stage_odds[-1] == 1.0 and g.stage_odds[0] == 0.99
    state = pos("mice=46,49 cheese=0,0 parts=24 next=1 phase=fire:6", trap_stage_odds={"stairs": 0.5})
    assert state.chance_outcomes() == [(30, 0.5), (31, 0.5)]


def test_a_trap_that_never_works():
    state = pos("mice=45,49 cheese=0,0 parts=24", trap_reliability=0.0)
    roll(state, 1)
    play(state, "crank")
    assert state.chance_outcomes() == [(31, 1.0)]
    play(state, "jams")
    assert state.mice == [46, 44]


def test_turn_limit_truncates_never_a_win():
    state = game(turn_limit=3).new_initial_state()
    for _ in range(3):
        roll(state, 1 if state.mice[state.current_player()] == 0 else 6)
    assert state.is_terminal() and state.is_truncated()
    assert state.winners() == [] and state.returns() == [0.0, 0.0]
    assert state.last_events()[-1]["type"] == "truncated"
    assert state.position().endswith("phase=truncated")
    assert game(turn_limit=None).max_game_length() is None


def test_options_through_make_and_the_cli_parser():
    from trapworks.cli.options import parse_options

    opts = parse_options(
        ["variant=original", "trap_reliability=1.0", 'trap_stage_odds={"cage": 0.9}', "turn_limit=null"]
    )
    g = trapworks.make("mouse-trap", players=3, **opts)
    assert g.options["trap_reliability"] == 1.0 and g.turn_limit is None
    assert json.loads(json.dumps(g.public_options()))["variant"] == "original"


# --- actions --------------------------------------------------------------------------------------


def test_action_strings_round_trip():
    state = pos("mice=45,47,20 cheese=2,0,0 parts=24", players=3)
    for a in state.legal_actions():
        assert state.string_to_action(state.action_to_string(a)) == a
    roll(state, 1)
    for a in state.legal_actions():
        assert state.string_to_action(state.action_to_string(a)) == a
    assert state.string_to_action(" MOVE: 2 ") == state.string_to_action("move:2")


@pytest.mark.parametrize(
    "text,why",
    [
        ("jump", "write roll, crank"),
        ("move:x", "not a number"),
        ("move:7", "no player 7"),
        ("move:1", "not an opponent"),
        ("crank", "no opposing mouse"),
        ("die:3", "not a legal action here: move:2, move:3, end"),
        ("die:9", "1 to 6"),
        (42, "must be a string"),
    ],
)
def test_bad_actions_name_the_problem(text, why):
    state = pos("mice=45,47,20 cheese=2,0,0 parts=24", players=3)
    roll(state, 1)
    before = state.position()
    with pytest.raises(IllegalActionError, match=why):
        state.string_to_action(text)
    assert state.position() == before


def test_illegal_action_ids_leave_the_state_untouched():
    state = pos("mice=45,47,20 cheese=0,0,0 parts=24", players=3)
    before = state.position()
    for bad in (7, 8, 12, 99, -3):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
    with pytest.raises(IllegalActionError, match="integer"):
        state.apply_action("roll")
    assert state.position() == before
    play(state, "roll")
    with pytest.raises(IllegalActionError, match="outcomes"):
        state.apply_action(0)
    finished = pos("mice=46,x cheese=30,0 parts=24 phase=over")
    with pytest.raises(IllegalActionError, match="over"):
        finished.string_to_action("roll")


# --- records, undo, clone ------------------------------------------------------------------------


def test_record_replays_exactly_and_undo():
    import random

    from trapworks.core import sample_chance

    g = game(players=3, variant="original", turn_limit=60)
    state = g.new_initial_state(seed=5)
    rng = random.Random(5)
    while not state.is_terminal():
        a = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        state.apply_action(a)
    record = GameRecord.from_state(state, players=["random"] * 3)
    again = GameRecord.from_json(record.to_json()).replay()
    assert again.position() == state.position() and again.history() == state.history()
    back = undo(state, 5)
    assert back.history() == state.history()[:-5]


def test_record_from_a_position():
    state = pos("mice=45,49 cheese=0,0 parts=24")
    roll(state, 1)
    play(state, "crank", *ALL_STAGES_WORK)
    record = GameRecord.from_state(state)
    assert record.start.startswith("mice=45,49") and record.actions[:3] == ["roll", "die:1", "crank"]
    assert record.replay().position() == state.position()


def test_clone_is_independent():
    state = pos("mice=45,47,20 cheese=2,0,0 parts=24", players=3)
    copy = state.clone()
    roll(copy, 1)
    play(copy, "move:2")
    assert state.position() != copy.position() and state.cheese == [2, 0, 0]


# --- view and drawing -----------------------------------------------------------------------------


def test_view_is_json_and_lists_the_choices():
    state = pos("mice=45,49,47 cheese=2,3,0 parts=24", players=3)
    roll(state, 1)
    view = state.view(0)
    json.dumps(view)
    assert view["phase"] == "crank" and view["to_move"] == 0 and view["trap_complete"]
    assert [a["text"] for a in view["legal_actions"]] == ["crank", "move:3"]
    assert len(view["track"]) == 50 and len(view["parts"]) == 24 and len(view["firing_chain"]) == 15
    assert state.view(None)["legal_actions"] == view["legal_actions"]  # nothing hidden in Mouse Trap
    play(state, "crank", "works", "jams")
    view = state.view(1)
    assert view["last_firing"] == {"stages": 1, "jammed": "gears", "targets": [1]}


def test_render_text_shows_board_cheese_and_trap_progress():
    state = pos("mice=45,46,x,49 cheese=3,4,0,5 parts=24 turn=9 next=2 phase=crank", players=4)
    text = state.render_text(1)
    assert "46 Turn Crank" in text and "B=Player 2 (you): 4 cheese" in text and "C=Player 3: caught" in text
    assert "24/24" in text and "capture chance" in text
    assert all(len(line) <= 80 for line in text.splitlines())
    play(state, "crank", "works", "works")
    assert "FIRING: A✓ B✓ C…" in state.render_text()
    play(state, "jams")
    assert "C✗ jammed" in state.render_text()
    incomplete = pos("mice=3,4 cheese=0,0 parts=5")
    assert "next: #6 Stop sign" in incomplete.render_text()
