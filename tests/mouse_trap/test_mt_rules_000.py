"""Mouse Trap, seed 000 (Milton Bradley rulebook): one test per rule sentence, each citing it.

The variant is "milton-bradley" (the default). Rules where 000 and 003 differ are tested for both
variants here and in test_mt_rules_003.py.
"""

import math

import pytest

from mouse_trap.mt_helpers import ALL_STAGES_WORK, game, kinds, legal, play, pos, roll
from rulebook import cite
from trapworks.core import IllegalActionError, OptionError
from trapworks.core.messages import format_message
from trapworks.games.mouse_trap.data import FIRING_CHAIN, PARTS, SPACES

MB = {"variant": "milton-bradley"}


# --- OBJECT, CONTENTS, SET UP -------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_for_2_to_4_players(players):
    """000: 'FOR 2 TO 4 PLAYERS'"""
    cite("000", "FOR 2 TO 4 PLAYERS")
    assert game(players=players).num_players() == players
    assert game(players=players).new_initial_state().mice == [0] * players


@pytest.mark.parametrize("players", [1, 5, "3", True])
def test_other_player_counts_are_refused(players):
    """000: 'FOR 2 TO 4 PLAYERS' (and 'CONTENTS ... 4 Mice')"""
    cite("000", "FOR 2 TO 4 PLAYERS")
    cite("000", "4 Mice")
    with pytest.raises(OptionError, match="players"):
        game(players=players)


def test_object_build_then_trap():
    """000: 'The object of MOUSE TRAP is to build a wacky contraption following the Building Plan and
    then to use it to trap the mice of the other player(s).' The crank is not offered before the
    trap is built; once built, it traps."""
    cite(
        "000",
        "The object of MOUSE TRAP is to build a wacky contraption following the Building Plan and then to use it to trap the mice of the other player(s).",
    )
    before = pos("mice=45,49 cheese=0,0 parts=23 next=1")
    roll(before, 1)
    assert before.mice == [46, 49] and before.current_player() == 1  # nothing happened, turn passed
    after = pos("mice=45,49 cheese=0,0 parts=24 next=1")
    roll(after, 1)
    assert "crank" in legal(after)


def test_contents_30_cheese_cards_and_one_die():
    """000: 'CONTENTS 1 Gameboard, 4 Mice, 30 Cheese Cards, 1 Die'"""
    cite("000", "CONTENTS 1 Gameboard, 4 Mice, 30 Cheese Cards, 1 Die")
    state = game(**MB).new_initial_state()
    assert state.pile == 30 and game(**MB).supply == 30
    play(state, "roll")
    assert [a for a, _ in state.chance_outcomes()] == [1, 2, 3, 4, 5, 6]
    assert all(math.isclose(p, 1 / 6) for _, p in state.chance_outcomes())


def test_setup_cheese_in_a_pile():
    """000: 'Separate the Cheese Cards and place them in a pile next to the gameboard.'"""
    cite("000", "Separate the Cheese Cards and place them in a pile next to the gameboard.")
    state = game(players=4).new_initial_state()
    assert state.pile == 30 and state.cheese == [0, 0, 0, 0]


def test_setup_every_mouse_on_start():
    """000: 'Each player chooses a mouse and places it on the gameboard in the space marked START.'"""
    cite("000", "Each player chooses a mouse and places it on the gameboard in the space marked START.")
    state = game(players=3).new_initial_state()
    assert state.mice == [0, 0, 0] and SPACES[0]["kind"] == "start"


def test_youngest_goes_first_then_to_the_left():
    """000: 'Youngest player goes first. Play proceeds to the left.' Seat order: the first_player
    option names who opens (seat 0 by default), then seats follow in order, wrapping round."""
    cite("000", "Youngest player goes first. Play proceeds to the left.")
    state = game(players=3, first_player=2).new_initial_state()
    assert state.current_player() == 2
    roll(state, 1)  # 0 -> 1, "Build 2": nothing in a 3-player game
    assert state.current_player() == 0
    roll(state, 1)
    assert state.current_player() == 1


def test_first_player_may_be_drawn():
    """000: 'Youngest player goes first.' Digitally the opener is an option: 'random' is a chance node."""
    cite("000", "Youngest player goes first.")
    state = game(players=4, first_player="random").new_initial_state()
    assert state.is_chance_node()
    assert [p for _, p in state.chance_outcomes()] == [0.25] * 4
    play(state, "first:3")
    assert state.current_player() == 2


# --- GAME PLAY ----------------------------------------------------------------------------


def test_toss_the_die_and_move():
    """000: 'On your turn, toss the die and move your mouse the number of spaces indicated.'"""
    cite("000", "On your turn, toss the die and move your mouse the number of spaces indicated.")
    state = game(players=2).new_initial_state()
    assert legal(state) == ["roll"]
    roll(state, 6)
    assert state.mice[0] == 6


def test_carry_out_the_space_landed_upon():
    """000: 'Then carry out any instructions printed in the space landed upon.'"""
    cite("000", "Then carry out any instructions printed in the space landed upon.")
    state = game(players=2).new_initial_state()
    events = roll(state, 2)  # space 2: Take 2 cheese
    assert state.cheese[0] == 2 and "take" in kinds(events)


def test_two_mice_on_one_space():
    """000: 'Two or more mice can be on one space at the same time.'"""
    cite("000", "Two or more mice can be on one space at the same time.")
    state = pos("mice=3,0,7 cheese=0,0,0 parts=0 next=2", players=3)
    roll(state, 3)  # player 2 joins player 1 on space 3
    assert state.mice[0] == state.mice[1] == 3


# --- BUILD SPACES -------------------------------------------------------------------------


def test_build_spaces_carry_only_numbers():
    """000: 'Build Spaces are the ones with only numbers in them (2, 2-3 or 2-3-4).'"""
    cite("000", "Build Spaces are the ones with only numbers in them (2, 2-3 or 2-3-4).")
    numbers = {tuple(s["players"]) for s in SPACES if s["kind"] == "build"}
    assert numbers == {(2,), (2, 3), (2, 3, 4)}


def test_build_when_player_count_matches():
    """000: 'If you land on a Build Space and the number of players in the game matches one of the
    numbers in the space, then you may build one piece of the Mouse Trap.'"""
    cite(
        "000",
        "If you land on a Build Space and the number of players in the game matches one of the numbers in the space, then you may build one piece of the Mouse Trap.",
    )
    state = pos("mice=0,0,0 cheese=0,0,0 parts=0", players=3)
    events = roll(state, 3)  # space 3: Build 2-3-4
    assert state.parts == 1 and "build" in kinds(events)


def test_four_player_game_builds_on_2_3_4_only():
    """000: 'In a 4-player game you can build if you land on Building Space 2-3-4.'"""
    cite("000", "In a 4-player game you can build if you land on Building Space 2-3-4.")
    for start, die, builds in [(0, 3, True), (6, 3, False), (0, 1, False)]:  # 3: 2-3-4, 9: 2-3, 1: 2
        state = pos(f"mice={start},0,0,0 cheese=0,0,0,0 parts=0", players=4)
        roll(state, die)
        assert state.parts == (1 if builds else 0), (start, die)


def test_three_player_game_builds_on_2_3_and_2_3_4():
    """000: 'In a 3-player game you can build if you land on Building Space 2-3 or 2-3-4.'"""
    cite("000", "In a 3-player game you can build if you land on Building Space 2-3 or 2-3-4.")
    for start, die, builds in [(0, 3, True), (6, 3, True), (0, 1, False)]:
        state = pos(f"mice={start},0,0 cheese=0,0,0 parts=0", players=3)
        roll(state, die)
        assert state.parts == (1 if builds else 0), (start, die)


def test_two_player_game_builds_on_2_2_3_and_2_3_4():
    """000: 'in a 2-player game you can build if you land on Building Space 2, 2-3 or 2-3-4.'"""
    cite("000", "in a 2-player game you can build if you land on Building Space 2, 2-3 or 2-3-4.")
    for start, die in [(0, 3), (6, 3), (0, 1)]:
        state = pos(f"mice={start},0 cheese=0,0 parts=0", players=2)
        roll(state, die)
        assert state.parts == 1, (start, die)


def test_parts_in_numerical_order():
    """000: 'Parts must be taken and built in numerical order!' and 'if you're the first player to land
    on a legal Build Space, you would place part #1 (Base A) on the board. The next player to land on
    a legal Build Space would position part #2 (Gear Support) into place and so on'"""
    cite("000", "Parts must be taken and built in numerical order!")
    cite(
        "000",
        "if you're the first player to land on a legal Build Space, you would place part #1 (Base A) on the board. The next player to land on a legal Build Space would position part #2 (Gear Support) into place and so on until the Mouse Trap is completed.",
    )
    state = pos("mice=0,0 cheese=0,0 parts=0", players=2)
    first = roll(state, 3)
    second = roll(state, 1)
    built = [e for e in first + second if e["type"] == "build"]
    assert [e["parts"] for e in built] == [[1], [2]]
    assert PARTS[0] == "Base A" and PARTS[1] == "Gear support"
    assert "part 1 (base A)" in format_message(built[0], type(state.game))
    assert "part 2 (gear support)" in format_message(built[1], type(state.game))


def test_building_plan_numbers_1_to_24():
    """000: 'The numbers 1-24 on the gameboard refer to the Building Plan ... and the order in which
    the part is assembled.'"""
    cite("000", "The numbers 1-24 on the gameboard refer to the Building Plan on pages 6, 7 and 8.")
    assert len(PARTS) == 24 and PARTS[23] == "Cage" and PARTS[3] == "Crank"


def test_a_built_part_earns_one_cheese_card():
    """000: 'When you finish positioning a part of the Mouse Trap on the gameboard, take one Cheese
    Card from the pile.'"""
    cite(
        "000",
        "When you finish positioning a part of the Mouse Trap on the gameboard, take one Cheese Card from the pile.",
    )
    state = pos("mice=0,0 cheese=0,0 parts=5", players=2)
    roll(state, 3)
    assert state.parts == 6 and state.cheese == [1, 0] and state.pile == 29


@pytest.mark.parametrize("variant", ["milton-bradley", "original"])
def test_loop_build_space_builds_two_and_gives_two(variant):
    """000: 'When you land on the Build Space around the Cheese Wheel section of the board, you'll
    build two parts of the Mouse Trap and take two Cheese Cards.'"""
    cite(
        "000",
        "When you land on the Build Space around the Cheese Wheel section of the board, you'll build two parts of the Mouse Trap and take two Cheese Cards.",
    )
    state = pos("mice=44,0,0,0 cheese=0,0,0,0 parts=10", players=4, variant=variant)
    events = roll(state, 1)  # 45: Loop build
    assert state.parts == 12 and state.cheese[0] == 2
    assert [e["parts"] for e in events if e["type"] == "build"] == [[11, 12]]


def test_loop_build_with_one_part_left_builds_one():
    """000: 'you'll build two parts ... and take two Cheese Cards' with one part left: a card per part
    built ('When you finish positioning a part ... take one Cheese Card')."""
    cite("000", "you'll build two parts of the Mouse Trap and take two Cheese Cards.")
    cite(
        "000",
        "When you finish positioning a part of the Mouse Trap on the gameboard, take one Cheese Card from the pile.",
    )
    state = pos("mice=46,0 cheese=0,0 parts=23", players=2)
    roll(state, 1)  # 47: Loop build
    assert state.parts == 24 and state.cheese[0] == 1


def test_nothing_to_build_once_complete():
    """000: 'Once the Mouse Trap is completed, nothing occurs when you land on a Build Space.'"""
    cite("000", "Once the Mouse Trap is completed, nothing occurs when you land on a Build Space.")
    state = pos("mice=0,0 cheese=0,0 parts=24", players=2)
    roll(state, 3)
    assert state.parts == 24 and state.cheese == [0, 0] and state.current_player() == 1


# --- GO BACK, MOVE AHEAD AND GO TO CHEESE ---------------------------------------------------


def test_go_back_without_following_the_destination():
    """000: 'GO BACK, MOVE AHEAD AND GO TO CHEESE: When you land on one of these spaces, you must go to
    the space indicated, but do not follow any message printed in that space!'"""
    cite(
        "000",
        "GO BACK, MOVE AHEAD AND GO TO CHEESE: When you land on one of these spaces, you must go to the space indicated, but do not follow any message printed in that space!",
    )
    state = pos("mice=38,0,0 cheese=0,0,0 parts=0", players=3, **MB)
    roll(state, 4)  # 42: go back 6 -> 36 "Build 2-3": not carried out
    assert state.mice[0] == 36 and state.parts == 0 and state.cheese[0] == 0


def test_move_ahead_without_following_the_destination():
    """000: 'you must go to the space indicated, but do not follow any message printed in that space!'
    (Move ahead 4 from 10 reaches 14, a Build 2-3-4 space.)"""
    cite("000", "you must go to the space indicated, but do not follow any message printed in that space!")
    state = pos("mice=6,0 cheese=0,0 parts=0", players=2, **MB)
    roll(state, 4)
    assert state.mice[0] == 14 and state.parts == 0


def test_go_to_cheese_without_taking_the_wheels_cheese():
    """000: 'GO BACK, MOVE AHEAD AND GO TO CHEESE ... do not follow any message printed in that space!'
    Space 30 sends the mouse to the Cheese Wheel; in 000 it does not take the Wheel's two cheese."""
    cite("000", "GO BACK, MOVE AHEAD AND GO TO CHEESE")
    state = pos("mice=26,0 cheese=0,0 parts=0", players=2, **MB)
    roll(state, 4)
    assert state.mice[0] == 49 and state.cheese[0] == 0


def test_go_back_to_start_and_dog_bone():
    """000: 'you must go to the space indicated' (Fat cat: back to Start; Mad dog: back to the Dog Bone)"""
    cite("000", "you must go to the space indicated")
    state = pos("mice=10,25 cheese=0,0 parts=0", players=2)
    roll(state, 3)  # 13 -> 0
    roll(state, 2)  # 27 -> 21
    assert state.mice == [0, 21]


# --- TAKE CHEESE AND LOSE CHEESE -------------------------------------------------------------


def test_take_cheese_from_the_pile():
    """000: 'TAKE CHEESE AND LOSE CHEESE: When you land on one of these spaces, take or return the
    indicated number of Cheese Cards from or to the Cheese Card Pile.'"""
    cite(
        "000",
        "TAKE CHEESE AND LOSE CHEESE: When you land on one of these spaces, take or return the indicated number of Cheese Cards from or to the Cheese Card Pile.",
    )
    state = pos("mice=3,0 cheese=0,0 parts=0", players=2)
    roll(state, 4)  # 7: take 1
    assert state.cheese[0] == 1 and state.pile == 29


def test_lose_cheese_to_the_pile():
    """000: 'take or return the indicated number of Cheese Cards from or to the Cheese Card Pile.'"""
    cite("000", "take or return the indicated number of Cheese Cards from or to the Cheese Card Pile.")
    state = pos("mice=20,0 cheese=5,0 parts=0", players=2)
    roll(state, 4)  # 24: lose 2
    assert state.cheese[0] == 3 and state.pile == 27


def test_lose_more_than_you_hold():
    """000: 'If such a space requires you to return more Cheese' Cards than you currently have, return
    as many as you hold.'"""
    cite(
        "000",
        "If such a space requires you to return more Cheese' Cards than you currently have, return as many as you hold.",
    )
    state = pos("mice=36,0 cheese=2,4 parts=0", players=2)
    roll(state, 3)  # 39: caught napping, lose 3
    assert state.cheese == [0, 4] and state.pile == 26


def test_cheese_wheel_gives_two():
    """000: 'Every time you land on the Cheese Wheel Space, you automatically take two Cheese Cards.'"""
    cite("000", "Every time you land on the Cheese Wheel Space, you automatically take two Cheese Cards.")
    state = pos("mice=46,0 cheese=0,0 parts=0", players=2)
    roll(state, 3)
    assert state.mice[0] == 49 and state.cheese[0] == 2


def test_empty_pile_take_from_the_opponent_with_most():
    """000: 'If you're entitled to Cheese Cards and the Cheese Card Pile is empty, you may take them from
    the opponent who has the most Cheese Cards.'"""
    cite(
        "000",
        "If you're entitled to Cheese Cards and the Cheese Card Pile is empty, you may take them from the opponent who has the most Cheese Cards.",
    )
    state = pos("mice=0,0,0 cheese=10,12,8 pile=0 parts=0", players=3)
    roll(state, 2)  # take 2
    assert state.cheese == [12, 10, 8] and state.pile == 0


def test_pile_short_the_rest_from_the_opponent_with_most():
    """000: 'If you're entitled to Cheese Cards and the Cheese Card Pile is empty, you may take them from
    the opponent who has the most' - the pile gives what it has, the rest comes from the richest."""
    cite(
        "000",
        "If you're entitled to Cheese Cards and the Cheese Card Pile is empty, you may take them from the opponent who has the most Cheese Cards.",
    )
    state = pos("mice=0,0,0 cheese=10,12,7 pile=1 parts=0", players=3)
    roll(state, 2)
    assert state.cheese == [12, 11, 7] and state.pile == 0


def test_empty_pile_tie_take_all_from_either():
    """000: 'In case of a tie, you may take them all from either opponent or divide the amount between
    them.' (taking both from player 3)"""
    cite(
        "000",
        "In case of a tie, you may take them all from either opponent or divide the amount between them.",
    )
    state = pos("mice=0,0,0 cheese=10,10,10 pile=0 parts=0", players=3)
    roll(state, 2)
    assert state.position().endswith("phase=steal:2:2+3:divide")
    assert legal(state) == ["steal:2", "steal:3"]
    play(state, "steal:3", "steal:3")
    assert state.cheese == [12, 10, 8] and state.current_player() == 1


def test_empty_pile_tie_divide():
    """000: 'In case of a tie, you may take them all from either opponent or divide the amount between
    them.' (one from each)"""
    cite(
        "000",
        "In case of a tie, you may take them all from either opponent or divide the amount between them.",
    )
    state = pos("mice=0,0,0 cheese=10,10,10 pile=0 parts=0 next=1 phase=roll", players=3)
    roll(state, 2)
    play(state, "steal:2", "steal:3")
    assert state.cheese == [12, 9, 9]


def test_take_three_from_rival_with_most_even_with_cheese_in_pile():
    """000: 'If you land on the space marked TAKE THREE PIECES OF CHEESE FROM RIVAL WITH MOST, you do so
    even if there are Cheese Cards left in the pile.'"""
    cite(
        "000",
        "If you land on the space marked TAKE THREE PIECES OF CHEESE FROM RIVAL WITH MOST, you do so even if there are Cheese Cards left in the pile.",
    )
    state = pos("mice=35,0,0 cheese=0,5,2 parts=0", players=3)
    roll(state, 2)  # 37
    assert state.cheese == [3, 2, 2] and state.pile == 23


# --- THE LOOP ---------------------------------------------------------------------------------


def test_the_loop_is_six_spaces_from_safe_to_cheese_wheel():
    """000: 'THE LOOP: These are the 6 spaces at the end of the path beginning with Safe and ending with
    the Cheese Wheel.'"""
    cite(
        "000",
        "THE LOOP: These are the 6 spaces at the end of the path beginning with Safe and ending with the Cheese Wheel.",
    )
    loop = SPACES[44:]
    assert len(loop) == 6 and loop[0]["kind"] == "safe" and loop[-1]["kind"] == "cheese_wheel"


def test_mice_circle_the_loop():
    """000: 'You and your opponents will circle around the Loop as many times as necessary until the
    Mouse Trap is complete and only one mouse remains on the board and the game is over.'"""
    cite(
        "000",
        "You and your opponents will circle around the Loop as many times as necessary until the Mouse Trap is complete and only one mouse remains on the board and the game is over.",
    )
    state = pos("mice=48,0 cheese=0,0 parts=0", players=2)
    roll(state, 3)  # 49, 44, 45
    assert state.mice[0] == 45
    state = pos("mice=49,0 cheese=0,0 parts=0", players=2)
    roll(state, 1)
    assert state.mice[0] == 44
    state = pos("mice=41,0 cheese=0,0 parts=0", players=2)
    roll(state, 6)  # from the track straight into the Loop: 47
    assert state.mice[0] == 47


# --- TRAPPING MICE -----------------------------------------------------------------------------


def test_complete_trap_captures_opposing_mouse():
    """000: 'TRAPPING MICE: Once the Mouse Trap is completed, use it to try to capture opposing mice.'
    and 'If the trap operates correctly, the opposing mouse will be captured and the player owning it
    will be out of the game.'"""
    cite("000", "TRAPPING MICE: Once the Mouse Trap is completed, use it to try to capture opposing mice.")
    cite(
        "000",
        "If the trap operates correctly, the opposing mouse will be captured and the player owning it will be out of the game.",
    )
    state = pos("mice=45,49,10 cheese=0,0,0 parts=24", players=3)
    roll(state, 1)
    events = play(state, "crank", *ALL_STAGES_WORK)
    assert state.mice == [46, None, 10] and "caught" in kinds(events)
    roll(state, 1)  # player 3 moves next: player 2 is out
    assert state.mice[2] == 11


def test_turn_the_crank_when_an_opponent_is_on_the_wheel():
    """000: 'When you end your turn by landing on the TURN CRANK space and there is an opposing mouse on
    the Cheese Wheel, turn the crank to set the Mouse Trap in motion.'"""
    cite(
        "000",
        "When you end your turn by landing on the TURN CRANK space and there is an opposing mouse on the Cheese Wheel, turn the crank to set the Mouse Trap in motion.",
    )
    state = pos("mice=45,49 cheese=0,0 parts=24", players=2)
    roll(state, 1)
    # 000 instructs the crank (option crank_required, true in milton-bradley): no 'end' instead.
    assert state.game.options["crank_required"] is True
    assert legal(state) == ["crank"]
    play(state, "crank")
    assert state.is_chance_node() and state.position().endswith("phase=fire:1")
    loose = pos("mice=45,49 cheese=0,0 parts=24", players=2, crank_required=False)
    roll(loose, 1)
    assert legal(loose) == ["crank", "end"]


def test_captured_players_cheese_goes_to_the_cranker():
    """000: 'Any Cheese Cards held by the captured player must be turned over to you.'"""
    cite("000", "Any Cheese Cards held by the captured player must be turned over to you.")
    state = pos("mice=45,49,3 cheese=2,7,1 parts=24", players=3)
    roll(state, 1)
    play(state, "crank", *ALL_STAGES_WORK)
    assert state.cheese == [9, 0, 1] and state.pile == 20


def test_failed_trap_sends_the_mouse_to_safe():
    """000: 'If the trap fails, the opposing player immediately moves his mouse to the SAFE space.'"""
    cite("000", "If the trap fails, the opposing player immediately moves his mouse to the SAFE space.")
    state = pos("mice=45,49,3 cheese=0,2,0 parts=24", players=3)
    roll(state, 1)
    events = play(state, "crank", "works", "works", "jams")
    assert state.mice == [46, 44, 3] and state.cheese == [0, 2, 0]
    failed = [e for e in events if e["type"] == "trap_failed"][0]
    assert failed["id"] == "lever" and "jammed at stage C" in format_message(failed, type(state.game))
    assert state.current_player() == 1


def test_crank_only_when_complete():
    """000: 'You may only turn the crank when the Mouse Trap is completed!'"""
    cite("000", "You may only turn the crank when the Mouse Trap is completed!")
    state = pos("mice=45,49 cheese=3,0 parts=23", players=2)
    roll(state, 1)
    assert state.current_player() == 1 and legal(state) == ["roll"]  # the turn simply ended
    with pytest.raises(IllegalActionError):
        state.string_to_action("crank")


def test_mice_on_the_wheel_caught_together():
    """000: 'If more than one mouse is on the Cheese Wheel, they may all be captured or missed all
    together.'"""
    cite(
        "000",
        "If more than one mouse is on the Cheese Wheel, they may all be captured or missed all together.",
    )
    caught = pos("mice=45,49,49,2 cheese=1,2,3,4 pile=20 parts=24", players=4)
    roll(caught, 1)
    play(caught, "crank", *ALL_STAGES_WORK)
    assert caught.mice == [46, None, None, 2] and caught.cheese == [6, 0, 0, 4]
    missed = pos("mice=45,49,49,2 cheese=1,2,3,4 parts=24", players=4)
    roll(missed, 1)
    play(missed, "crank", "jams")
    assert missed.mice == [46, 44, 44, 2]


def test_firing_chain_as_the_rulebook_describes():
    """000: 'Player turns crank (A) which rotates gears (B) causing lever (C) to move and push stop sign
    against shoe (D). Shoe tips bucket holding metal ball (E) Ball rolls down rickety stairs (F) ...
    causing cage (O) to fall from top of post (P) and trap unsuspecting mouse.'"""
    cite(
        "000",
        "Player turns crank (A) which rotates gears (B) causing lever (C) to move and push stop sign against shoe (D).",
    )
    cite("000", "causing cage (O) to fall from top of post (P) and trap unsuspecting mouse.")
    assert [s["letter"] for s in FIRING_CHAIN] == list("ABCDEFGHIJKLMN") + ["O-P"]
    ids = [s["id"] for s in FIRING_CHAIN]
    assert ids[0] == "crank" and ids[5] == "stairs" and ids[-1] == "cage"
    g = game()
    assert math.isclose(g.capture_chance, math.prod(s["default_success"] for s in FIRING_CHAIN))
    assert 0 < g.capture_chance < 1


def test_reset_after_a_failure():
    """000, special rule 1: 'The player who has just operated the Mouse Trap must reset the Mouse Trap
    should it fail to capture the opposing mice.' The trap stays complete and can fire again."""
    cite(
        "000",
        "The player who has just operated the Mouse Trap must reset the Mouse Trap should it fail to capture the opposing mice.",
    )
    state = pos("mice=45,49 cheese=0,0 parts=24", players=2)
    roll(state, 1)
    play(state, "crank", "jams")
    assert state.parts == 24 and state.mice == [46, 44]
    roll(state, 5)  # player 2: 44 -> 49
    roll(state, 6)  # player 1: 46 -> 46 (once round the Loop)
    assert state.mice == [46, 49] and "crank" in legal(state)


def test_physical_checks_become_stage_odds():
    """000, special rules 2-5 ('make sure helping hand rod is loaded', 'check to see that it will work
    properly', 'turn slowly', 're-load cage'): the physical care is modelled as each stage's chance of
    working; trap_reliability=1.0 is a trap that always works."""
    cite(
        "000", "When placing bowling ball (17) on thing-a-ma-jig (16), make sure helping hand rod is loaded."
    )
    cite("000", "Before operating the Mouse Trap, check to see that it will work properly")
    cite("000", "When turning the crank, always turn slowly in a clockwise direction.")
    cite(
        "000",
        "To re-load cage, remove cage post (23) from cage base (21); lift up cage, reinsert cage post and place cage in position on top.",
    )
    state = pos("mice=45,49 cheese=0,0 parts=24", players=2, trap_reliability=1.0)
    roll(state, 1)
    play(state, "crank")
    for _ in range(15):
        assert state.chance_outcomes() == [(30, 1.0)]
        play(state, "works")
    assert state.is_terminal() and state.winners() == [0]


# --- MOVING OPPONENTS' MICE ------------------------------------------------------------------


def test_pay_to_move_when_nobody_is_on_the_wheel():
    """000: 'MOVING OPPONENTS' MICE: When you end your turn by landing on the TURN CRANK space and there
    is no opposing mouse on the Cheese Wheel, you can try to move an opponent's mouse onto the Cheese
    Wheel to try to trap it.'"""
    cite(
        "000",
        "When you end your turn by landing on the TURN CRANK space and there is no opposing mouse on the Cheese Wheel, you can try to move an opponent's mouse onto the Cheese Wheel to try to trap it.",
    )
    state = pos("mice=45,47,20 cheese=2,0,0 pile=28 parts=24", players=3)
    roll(state, 1)
    assert legal(state) == ["move:2", "move:3", "end"]


def test_pay_select_throw_move():
    """000: 'To do so, you must return a Cheese Card to the pile, select the opponent you wish to move,
    throw the die and then move that opponent's mouse the indicated number of spaces.'"""
    cite(
        "000",
        "To do so, you must return a Cheese Card to the pile, select the opponent you wish to move, throw the die and then move that opponent's mouse the indicated number of spaces.",
    )
    state = pos("mice=45,47,20 cheese=2,0,0 parts=24", players=3)
    roll(state, 1)
    play(state, "move:3")
    assert state.cheese[0] == 1 and state.pile == 29 and state.position().endswith("phase=push:3")
    play(state, "die:4")
    assert state.mice[2] == 24 and state.cheese == [1, 0, 0]  # moved; the space is not carried out


def test_pay_again_and_again_while_cheese_lasts():
    """000: 'You may continue doing this as many times and to as many opponents as you like as long as
    you have Cheese Cards to "pay"'"""
    cite(
        "000",
        'You may continue doing this as many times and to as many opponents as you like as long as you have Cheese Cards to "pay"',
    )
    state = pos("mice=45,47,20 cheese=2,0,0 parts=24", players=3, **MB)
    roll(state, 1)
    play(state, "move:2", "die:1", "move:3", "die:1")
    assert state.mice == [46, 48, 21] and state.cheese[0] == 0
    assert state.current_player() == 1  # out of cheese: the turn ends


def test_crank_only_after_a_mouse_reaches_the_wheel():
    """000: 'if you manage to move an opponent's mouse (or opponents' mice) onto the Cheese Wheel, only
    then may you turn the crank.'"""
    cite(
        "000",
        "if you manage to move an opponent's mouse (or opponents' mice) onto the Cheese Wheel, only then may you turn the crank.",
    )
    state = pos("mice=45,47 cheese=3,0 parts=24", players=2, **MB)
    roll(state, 1)
    assert "crank" not in legal(state)
    play(state, "move:2", "die:2")
    assert state.mice[1] == 49 and legal(state)[0] == "crank"


def test_cheese_pays_only_on_turn_crank():
    """000: 'Cheese Cards may be used this way only when you are on the TURN CRANK space.'"""
    cite("000", "Cheese Cards may be used this way only when you are on the TURN CRANK space.")
    state = pos("mice=40,47 cheese=5,0 parts=24", players=2)
    assert legal(state) == ["roll"]
    roll(state, 4)  # 44: Safe, not Turn Crank
    assert state.current_player() == 1
    with pytest.raises(IllegalActionError):
        state.string_to_action("move:1")


def test_pay_while_one_mouse_is_on_the_wheel_in_000_not_in_003():
    """000: 'If one opponent's mouse is on the Cheese Wheel when you land on the TURN CRANK space, you
    can still use your Cheese Cards to try and get other opponents' mice onto the Cheese Wheel before
    setting the Mouse Trap in motion.' 003 (tested in both): pay only when 'there is no other mouse on
    the Cheese Wheel'."""
    cite(
        "000",
        "If one opponent's mouse is on the Cheese Wheel when you land on the TURN CRANK space, you can still use your Cheese Cards to try and get other opponents' mice onto the Cheese Wheel before setting the Mouse Trap in motion.",
    )
    cite(
        "003",
        "If, when a player lands on Turn Crank the Mouse Trap is complete but there is no other mouse on the Cheese Wheel, they may spend cheese to attempt to move another player's mouse there.",
    )
    mb = pos("mice=45,49,47 cheese=2,0,0 parts=24", players=3, variant="milton-bradley")
    roll(mb, 1)
    assert legal(mb) == ["crank", "move:3"]  # pay first, then the crank 000 instructs
    play(mb, "move:3", "die:2")
    assert mb.mice == [46, 49, 49]
    events = play(mb, "crank", *ALL_STAGES_WORK)
    assert [e for e in events if e["type"] == "caught"][0]["caught"] == [1, 2]
    orig = pos("mice=45,49,47 cheese=2,0,0 parts=24", players=3, variant="original")
    roll(orig, 1)
    assert legal(orig) == ["crank", "end"]


def test_end_without_cranking_is_a_choice_in_003_not_in_000():
    """003: players 'are allowed to attempt' a capture: cranking is their decision and 'end' passes
    it up (option crank_required false, the original variant's default); 000: 'turn the crank to
    set the Mouse Trap in motion' (crank_required true: no 'end' while the crank can be turned)."""
    cite(
        "003",
        "If a player lands here while there is another mouse on the Cheese Wheel, and the Mouse Trap "
        "is complete, they are allowed to attempt to capture that player.",
    )
    cite("000", "turn the crank to set the Mouse Trap in motion.")
    state = pos("mice=45,49 cheese=0,0 parts=24", players=2, variant="original")
    assert state.game.options["crank_required"] is False
    roll(state, 1)
    play(state, "end")
    assert state.mice == [46, 49] and state.current_player() == 1
    mb = pos("mice=45,49 cheese=0,0 parts=24", players=2, variant="milton-bradley")
    roll(mb, 1)
    assert "end" not in legal(mb)
    with pytest.raises(IllegalActionError):
        play(mb, "end")


# --- SAFE ----------------------------------------------------------------------------------------


def test_safe_mouse_cannot_be_moved():
    """000: 'SAFE: When your mouse is on the SAFE space your opponents cannot move you to the Cheese
    Wheel or take any of your Cheese Cards.' (moving)"""
    cite(
        "000",
        "SAFE: When your mouse is on the SAFE space your opponents cannot move you to the Cheese Wheel or take any of your Cheese Cards.",
    )
    state = pos("mice=45,44,44 cheese=3,0,0 parts=24", players=3)
    roll(state, 1)
    assert state.current_player() == 1  # nobody movable: no decision, the turn ends
    state = pos("mice=45,44,47 cheese=3,0,0 parts=24", players=3)
    roll(state, 1)
    with pytest.raises(IllegalActionError, match="Safe"):
        state.string_to_action("move:2")


@pytest.mark.parametrize("variant,victim", [("milton-bradley", 2), ("original", 1)])
def test_safe_mouse_keeps_its_cheese_in_000(variant, victim):
    """000: 'your opponents cannot ... take any of your Cheese Cards.' In 003 Safe only stops a mouse
    being moved ('they cannot be moved by an opponent on Turn Crank'), so the richest rival pays."""
    cite("000", "your opponents cannot move you to the Cheese Wheel or take any of your Cheese Cards.")
    cite("003", "If a mouse is on this space, they cannot be moved by an opponent on Turn Crank.")
    state = pos("mice=35,44,3 cheese=0,6,4 parts=0", players=3, variant=variant)
    roll(state, 2)  # 37: take 3 from the rival with the most
    assert state.cheese[victim] == (6 if victim == 1 else 4) - 3
    assert state.cheese[0] == 3


# --- WINNING -------------------------------------------------------------------------------------


def test_last_mouse_on_the_board_wins():
    """000: 'If your mouse is the last one on the board, you win!'"""
    cite("000", "If your mouse is the last one on the board, you win!")
    state = pos("mice=45,49,x,x cheese=0,3,0,0 pile=27 parts=24", players=4)
    roll(state, 1)
    events = play(state, "crank", *ALL_STAGES_WORK)
    assert state.is_terminal() and not state.is_truncated()
    assert state.winners() == [0] and state.returns() == [1.0, -1 / 3, -1 / 3, -1 / 3]
    assert kinds(events)[-1] == "win"
