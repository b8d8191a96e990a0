"""Mouse Trap, seed 003 (the "Original Rules" write-up): one test per rule sentence, each citing it.

The variant is "original". Where 003 differs from 000 the test runs both variants.
"""

import pytest

from mouse_trap.mt_helpers import ALL_STAGES_WORK, game, kinds, legal, play, pos, roll
from rulebook import cite
from trapworks.core import IllegalActionError
from trapworks.games.mouse_trap.data import CHEESE_WHEEL, NUM_PARTS, SAFE, SPACES, TURN_CRANK

OR = {"variant": "original"}


def test_goal_build_then_capture_last_standing_wins():
    cite(
        "003",
        "The basic goal of Mouse Trap is to travel around the board, assembling the Mouse Trap as "
        "you go, and then use the Trap to try and capture the other players. The last player "
        "standing is the winner.",
    )
    state = pos("mice=45,49 cheese=0,0 parts=24", **OR)
    roll(state, 1)
    play(state, "crank", *ALL_STAGES_WORK)
    assert state.winners() == [0]


def test_equipment_four_mice_one_die_fifty_two_cheese():
    cite("003", "Four mouse pawns in the colours red, blue, green and yellow.")
    cite("003", "One die.")
    cite("003", "Fifty-two cheese pieces.")
    assert game(**OR).supply == 52 and game(**OR).new_initial_state().pile == 52
    assert game(players=4, **OR).num_players() == 4


def test_twenty_five_parts_are_twenty_four_build_stages():
    """003 counts 25 parts (RULES-NOTES: the building plan has 24 numbered stages; the extra piece
    belongs to a stage, e.g. the marbles and rubber band are listed separately)."""
    cite("003", "The twenty-five parts of the Mouse Trap, which come in different shapes, sizes and colours.")
    assert game(**OR).new_initial_state().parts == 0 and NUM_PARTS == 24


def test_setup_pile_and_start():
    cite("003", "The cheese pieces are placed in another pile.")
    cite("003", "Each player selects a mouse and places it on the Start space.")
    state = game(players=3, **OR).new_initial_state()
    assert state.mice == [0, 0, 0] and state.pile == 52 and state.cheese == [0, 0, 0]


@pytest.mark.parametrize("first", [0, 1, "random"])
def test_next_birthday_first_then_clockwise(first):
    """003 'next birthday' and 000 'youngest' are the first_player option (a seat, or drawn)."""
    cite("003", "The player whose birthday is next takes the first turn, then play proceeds clockwise.")
    state = game(players=3, first_player=first, **OR).new_initial_state()
    if first == "random":
        play(state, "first:2")
        first = 1
    assert state.current_player() == first
    roll(state, 1)  # 1: Build 2, nothing with 3 players
    assert state.current_player() == (first + 1) % 3


def test_a_turn_roll_move_act_then_next_player():
    cite(
        "003",
        "A player's turn consists of the player rolling the die and moving their mouse forward that "
        "many spaces along the board's track. They then take an action corresponding to the type of "
        "space they landed on. After this is resolved, that player's turn is over and play proceeds "
        "to the player left from them.",
    )
    state = game(players=2, **OR).new_initial_state()
    events = roll(state, 2)
    assert state.mice[0] == 2 and state.cheese[0] == 2 and state.current_player() == 1
    assert kinds(events)[:2] == ["move", "take"]


def test_fifty_spaces():
    cite("003", "There are fifty spaces along the board track")
    assert len(SPACES) == 50


def test_start_is_where_players_begin():
    cite("003", "This space is where the players begin the game.")
    assert SPACES[0]["kind"] == "start" and game(**OR).new_initial_state().mice == [0, 0]


def test_build_one_part_and_one_cheese():
    cite(
        "003",
        "If the number of players in the game matches one of the numbers on the Build space, the "
        "player may add one part to the Mouse Trap and collect one piece of cheese from the pile.",
    )
    state = pos("mice=6,0,0 cheese=0,0,0 parts=3", players=3, **OR)
    events = roll(state, 3)  # 9: Build 2-3
    assert state.parts == 4 and state.cheese[0] == 1 and state.pile == 51
    assert [e["parts"] for e in events if e["type"] == "build"] == [[4]]


@pytest.mark.parametrize("players,start,die,parts", [(4, 6, 3, 0), (3, 0, 1, 0), (2, 0, 3, 24)])
def test_no_match_or_complete_nothing_happens(players, start, die, parts):
    cite(
        "003",
        "If the number on the space does not match the number of players, or the Mouse Trap is "
        "already complete, nothing happens.",
    )
    mice = ",".join([str(start)] + ["0"] * (players - 1))
    state = pos(f"mice={mice} cheese={','.join(['0'] * players)} parts={parts}", players=players, **OR)
    roll(state, die)
    assert state.parts == parts and state.cheese[0] == 0 and state.current_player() == 1


def test_seven_cheese_slice_spaces_in_order():
    cite("003", "There are seven of these spaces. Beginning from Start and proceeding to the end, they are:")
    slices = [
        s
        for s in SPACES
        if s["kind"] in ("take", "lose", "steal_most")
        or (s["kind"] == "go_to" and s["target"] == CHEESE_WHEEL)
    ]
    assert [(s["kind"], s.get("amount")) for s in slices] == [
        ("take", 2),
        ("take", 1),
        ("lose", 2),
        ("go_to", None),
        ("steal_most", 3),
        ("lose", 3),
        ("take", 2),
    ]


def test_take_cheese_from_the_pile():
    cite(
        "003",
        "If the space asks the player to take cheese, they must collect the specified number of "
        "cheese pieces from the pile.",
    )
    state = pos("mice=3,0 cheese=0,0 parts=0", **OR)
    roll(state, 4)
    assert state.cheese[0] == 1 and state.pile == 51


def test_empty_pile_steal_from_another_player():
    """003 lets the taker choose any player (empty_pile_source='any'); 000 takes from the richest."""
    cite("003", "If the pile is empty they may steal the cheese pieces from another player.")
    orig = pos("mice=0,0,0 cheese=30,12,10 pile=0 parts=0", players=3, **OR)
    roll(orig, 2)
    assert legal(orig) == ["steal:2", "steal:3"]
    play(orig, "steal:3")
    assert orig.cheese == [32, 12, 8]
    mb = pos("mice=0,0,0 cheese=10,12,8 pile=0 parts=0", players=3, variant="milton-bradley")
    roll(mb, 2)
    assert mb.cheese == [12, 10, 8]  # no choice: the opponent with the most pays


def test_lose_cheese_and_all_you_have():
    cite(
        "003",
        "If the space asks the player to lose cheese, they must return the specified number of "
        "pieces to the pile. If the space asks for more pieces than the player has, they must "
        "return all that they do have.",
    )
    state = pos("mice=20,36 cheese=5,2 parts=0", **OR)
    roll(state, 4)  # 24: lose 2
    roll(state, 3)  # 39: lose 3 with only 2
    assert state.cheese == [3, 0] and state.pile == 49


@pytest.mark.parametrize("variant", ["original", "milton-bradley"])
def test_take_three_from_rival_with_most(variant):
    cite(
        "003",
        'If the player lands on the space that says "Take 3 pieces of cheese from the rival with '
        'the most", they must do exactly that even if there is cheese in the pile.',
    )
    state = pos("mice=35,0,0 cheese=0,5,2 parts=0", players=3, variant=variant)
    pile = state.pile
    roll(state, 2)
    assert state.cheese == [3, 2, 2] and state.pile == pile


@pytest.mark.parametrize("variant", ["original", "milton-bradley"])
def test_rival_with_fewer_than_three_gives_all(variant):
    cite(
        "003",
        "If the rival with the most cheese has fewer than three pieces the player may steal all "
        "that they have.",
    )
    state = pos("mice=35,0,0 cheese=0,2,1 parts=0", players=3, variant=variant)
    roll(state, 2)
    assert state.cheese == [2, 0, 1]


def test_tied_rivals_taker_selects_one_in_003_or_divides_in_000():
    """003: the taker selects one rival (steal_tie='choose'); 000's tie rule ('take them all from
    either opponent or divide the amount between them') also lets them split (steal_tie='choose-or-divide')."""
    cite(
        "003",
        "If two rival players are tied for having the most cheese pieces, the player may select "
        "which one to take them from.",
    )
    orig = pos("mice=35,0,0 cheese=0,4,4 parts=0", players=3, **OR)
    roll(orig, 2)
    assert orig.position().endswith("phase=steal:3:2+3:choose")
    play(orig, "steal:2")
    assert orig.cheese == [3, 1, 4] and orig.current_player() == 1
    mb = pos("mice=35,0,0 cheese=0,4,4 parts=0", players=3, variant="milton-bradley")
    roll(mb, 2)
    play(mb, "steal:2", "steal:3", "steal:2")
    assert mb.cheese == [3, 2, 3] and mb.current_player() == 1


def test_go_back_and_follow_the_destination():
    cite(
        "003",
        "The player must move the number of spaces, or to the space specified by the move space, and "
        "follow the instructions for the space they land on.",
    )
    orig = pos("mice=38,0,0 cheese=0,0,0 parts=0", players=3, **OR)
    roll(orig, 4)  # 42: go back 6 -> 36 "Build 2-3": carried out in 003
    assert orig.mice[0] == 36 and orig.parts == 1 and orig.cheese[0] == 1
    mb = pos("mice=38,0,0 cheese=0,0,0 parts=0", players=3, variant="milton-bradley")
    roll(mb, 4)
    assert mb.mice[0] == 36 and mb.parts == 0


@pytest.mark.parametrize("variant,cheese", [("original", 2), ("milton-bradley", 0)])
def test_move_ahead_to_the_cheese_wheel(variant, cheese):
    cite("003", "Move ahead to the Cheese Wheel.")
    cite("003", "follow the instructions for the space they land on.")
    state = pos("mice=26,0 cheese=0,0 parts=0", variant=variant)
    roll(state, 4)
    assert state.mice[0] == CHEESE_WHEEL and state.cheese[0] == cheese


@pytest.mark.parametrize("variant,parts", [("original", 1), ("milton-bradley", 0)])
def test_move_ahead_4_lands_on_a_build_space(variant, parts):
    cite("003", "The player must move the number of spaces, or to the space specified by the move space")
    state = pos("mice=6,0 cheese=0,0 parts=0", variant=variant)
    roll(state, 4)  # 10: move ahead 4 -> 14, Build 2-3-4
    assert state.mice[0] == 14 and state.parts == parts


def test_dog_bone_nothing_happens():
    cite("003", "Nothing happens. The player will move from here on their next turn.")
    state = pos("mice=17,0 cheese=0,0 parts=0", **OR)
    roll(state, 4)
    assert state.mice[0] == 21 and state.cheese == [0, 0] and state.parts == 0
    roll(state, 1)
    roll(state, 1)
    assert state.mice[0] == 22


def test_circle_the_loop_until_captured_or_game_ends():
    cite(
        "003",
        "Once a player reaches the Loop, they will circle the Loop indefinitely until either their "
        "mouse is captured or the game ends.",
    )
    state = pos("mice=47,0 cheese=0,0 parts=0", **OR)
    for die, where in [(4, 45), (6, 45), (5, 44)]:
        roll(state, die)
        assert state.mice[0] == where
        roll(state, 1)  # player 2's turn


def test_loop_build_two_pieces_two_cheese():
    cite(
        "003",
        "If a player lands on one of the two build spaces in the Loop, they may build two pieces of "
        "the Mouse Trap and collect two pieces of cheese.",
    )
    state = pos("mice=46,0,0,0 cheese=0,0,0,0 parts=7", players=4, **OR)
    roll(state, 1)
    assert state.parts == 9 and state.cheese[0] == 2


def test_cheese_wheel_two_pieces():
    cite("003", "If a player lands here they automatically collect two pieces of cheese.")
    state = pos("mice=45,0 cheese=0,0 parts=0", **OR)
    roll(state, 4)
    assert state.mice[0] == 49 and state.cheese[0] == 2


def test_turn_crank_attempt_capture():
    cite(
        "003",
        "If a player lands here while there is another mouse on the Cheese Wheel, and the Mouse Trap "
        "is complete, they are allowed to attempt to capture that player.",
    )
    cite(
        "003",
        "They must slowly turn the crank on the Mouse Trap clockwise, which will set the trap in motion.",
    )
    state = pos("mice=43,49 cheese=0,0 parts=24", **OR)
    roll(state, 3)
    assert state.mice[0] == TURN_CRANK and legal(state) == ["crank", "end"]
    play(state, "crank")
    assert state.is_chance_node()


def test_captured_out_of_game_cheese_to_capturer():
    cite(
        "003",
        "If the Trap succeeds in capturing the other mouse, the captured player is out of the game. "
        "Their mouse is removed from the board, and they must turn over all of their cheese pieces "
        "to the player who captured them.",
    )
    state = pos("mice=45,49,20 cheese=1,9,3 parts=24", players=3, **OR)
    roll(state, 1)
    play(state, "crank", *ALL_STAGES_WORK)
    assert state.mice == [46, None, 20] and state.cheese == [10, 0, 3]
    assert state.view()["mice"][1] is None


def test_failed_trap_to_safe():
    cite(
        "003",
        "If the Trap fails to capture the other mouse for any reason, said player immediately moves "
        "to the Safe space.",
    )
    state = pos("mice=45,49 cheese=0,0 parts=24", **OR)
    roll(state, 1)
    events = play(state, "crank", *["works"] * 14, "jams")
    assert state.mice == [46, SAFE]
    assert [e["id"] for e in events if e["type"] == "trap_failed"] == ["cage"]


def test_all_on_the_wheel_eliminated_together():
    cite(
        "003",
        "If more than one mouse is on the Cheese Wheel and the Trap succeeds, all of the opposing "
        "players on the Wheel are eliminated simultaneously.",
    )
    state = pos("mice=45,49,49,49 cheese=0,1,1,1 parts=24", players=4, **OR)
    roll(state, 1)
    play(state, "crank", *ALL_STAGES_WORK)
    assert state.is_terminal() and state.winners() == [0] and state.cheese[0] == 3


def test_reset_regardless_of_outcome():
    cite(
        "003",
        "Regardless of the outcome of an attempted capture, the player who operated the Mouse Trap "
        "must reset it.",
    )
    state = pos("mice=45,49,49 cheese=0,0,0 parts=24", players=3, **OR)
    roll(state, 1)
    play(state, "crank", "jams")
    assert state.parts == 24 and state.stage == 0
    roll(state, 2)  # player 2: Safe -> 46, Turn Crank; nobody on the wheel, no cheese: turn ends
    roll(state, 1)  # player 3: Safe -> 45, builds nothing (complete)
    assert state.current_player() == 0 and state.parts == 24


def test_incomplete_trap_nothing_happens():
    cite("003", "If the Mouse Trap is not yet complete, nothing happens.")
    state = pos("mice=45,49 cheese=4,0 parts=20", **OR)
    roll(state, 1)
    assert state.current_player() == 1 and state.mice == [46, 49] and state.cheese == [4, 0]


def test_spend_cheese_when_nobody_is_on_the_wheel():
    cite(
        "003",
        "If, when a player lands on Turn Crank the Mouse Trap is complete but there is no other mouse "
        "on the Cheese Wheel, they may spend cheese to attempt to move another player's mouse there.",
    )
    state = pos("mice=45,47 cheese=1,0 parts=24", **OR)
    roll(state, 1)
    assert legal(state) == ["move:2", "end"]


def test_pay_one_select_not_safe_roll_move():
    cite("003", "The player must return one of their cheese pieces to the pile.")
    cite("003", "They select an opposing mouse that is not on the Safe space.")
    cite("003", "They then roll the die and move the opposing mouse that many spaces along the track.")
    state = pos("mice=45,44,40 cheese=2,0,0 parts=24", players=3, **OR)
    roll(state, 1)
    assert legal(state) == ["move:3", "end"]
    with pytest.raises(IllegalActionError, match="Safe"):
        state.string_to_action("move:2")
    play(state, "move:3")
    assert state.cheese[0] == 1 and state.pile == 51
    play(state, "die:6")
    assert state.mice[2] == 46


@pytest.mark.parametrize("variant,ends", [("original", True), ("milton-bradley", False)])
def test_miss_ends_the_turn_in_003(variant, ends):
    cite(
        "003",
        "If the opponent mouse lands on the Cheese Wheel, they may turn the crank. If not, their turn ends.",
    )
    state = pos("mice=45,47,20 cheese=3,0,0 parts=24", players=3, variant=variant)
    roll(state, 1)
    play(state, "move:2", "die:1")  # 48: a miss
    assert (state.current_player() == 1) is ends
    if not ends:
        assert legal(state) == ["move:2", "move:3", "end"]


def test_hit_then_crank_in_003():
    cite("003", "If the opponent mouse lands on the Cheese Wheel, they may turn the crank.")
    state = pos("mice=45,47,20 cheese=3,0,0 parts=24", players=3, **OR)
    roll(state, 1)
    play(state, "move:2", "die:2")
    assert legal(state) == ["crank", "end"]  # no more paying once a mouse is on the Wheel
    assert state.cheese[1] == 2  # the Wheel's cheese (paid_move_follows, default true: issue 36)
    play(state, "crank", *ALL_STAGES_WORK)
    assert state.mice[1] is None and state.cheese[0] == 2 + 2  # 2 left after paying, 2 caught


def test_repeat_as_cheese_allows():
    """003's 'repeat ... as many times as their cheese pieces allow', read with 'If not, their turn
    ends': each landing on Turn Crank gives one paid roll per miss; cheese is spent across landings and
    a player without cheese cannot pay."""
    cite("003", "The player may repeat this process as many times as their cheese pieces allow.")
    state = pos("mice=45,47 cheese=1,0 parts=24", **OR)
    roll(state, 1)
    play(state, "move:2", "die:1")
    roll(state, 1)  # player 2: 48 -> 49, takes 2 cheese
    roll(state, 6)  # player 1: round the Loop back to Turn Crank; player 2 on the Wheel
    assert legal(state) == ["crank", "end"]
    broke = pos("mice=45,47 cheese=0,0 parts=24", **OR)
    roll(broke, 1)
    assert broke.current_player() == 1  # no cheese: nothing to decide


def test_all_opponents_on_safe_nothing_happens():
    cite("003", "If all of the opponents are on the Safe space, nothing happens.")
    state = pos("mice=45,44,44 cheese=5,0,0 parts=24", players=3, **OR)
    roll(state, 1)
    assert state.current_player() == 1 and state.cheese[0] == 5


def test_safe_cannot_be_moved():
    cite("003", "If a mouse is on this space, they cannot be moved by an opponent on Turn Crank.")
    state = pos("mice=45,44,47 cheese=5,0,0 parts=24", players=3, **OR)
    roll(state, 1)
    assert "move:2" not in legal(state) and "move:3" in legal(state)


def test_winner_is_last_standing():
    cite(
        "003",
        "The winner of the game is the last player standing once all of the opposing players have "
        "been captured.",
    )
    state = pos("mice=45,49,x cheese=0,0,0 parts=24", players=3, **OR)
    roll(state, 1)
    assert not state.is_terminal()
    events = play(state, "crank", *ALL_STAGES_WORK)
    assert state.is_terminal() and state.winners() == [0] and "win" in kinds(events)
    assert state.legal_actions() == []
