"""13 Dead End Drive (seed 004): one test per rule sentence, each citing it; the situations of
Figures 6 to 11 are set up from position strings."""

from importlib import resources

import pytest
from dd_helpers import dests, game, play, state_at, texts

from rulebook import cite
from trapworks.core import CHANCE, TERMINAL, IllegalActionError
from trapworks.core.messages import format_message
from trapworks.games.dead_end_drive import game as dead_end_drive_game
from trapworks.games.dead_end_drive.board import parse_grid
from trapworks.games.dead_end_drive.components import CHARACTERS, LETTERS, TRAP_KINDS

OPENING = {
    "S": "j9",
    "D": "k9",
    "C": "l9",
    "L": "m9",
    "P": "n9",
    "K": "o9",
    "B": "j11",
    "Z": "k11",
    "M": "l11",
    "H": "m11",
    "R": "n11",
    "O": "o11",
}


def kinds(state):
    return {state.action_to_string(a).split()[0] for a in state.legal_actions()}


# --- components and setup -------------------------------------------------------------


class TestSetup:
    def test_pawns_start_on_red_chairs_and_detective_on_start(self):
        cite(
            "004",
            "Put each pawn (except the Detective) onto a Red Chair Starting space in the center of "
            "the gameboard in any order. Place the Detective pawn on the Start space on the gameboard.",
        )
        s = game().new_initial_state(seed=1)
        m = s.game.mansion
        assert sorted(s.pos) == sorted(m.chair_order) and len(set(s.pos)) == 12
        v = s.view(0)
        assert v["detective"]["step"] == 0 and v["detective"]["square"] == m.name(m.track[0])

    def test_three_piles_29_trap_13_portrait_12_character(self):
        cite(
            "004",
            "Separate the card deck into 3 piles (29 Trap cards, 13 Portrait cards and 12 Character cards).",
        )
        cite(
            "004",
            "There are 3 different kinds of cards in the Trap card pile: Trap cards, Wild cards and Detective cards.",
        )
        g = game()
        assert len(g.deck) == 29 and set(g.deck) == set(range(7))  # 5 trap kinds + wild + detective
        assert len(CHARACTERS) == 12
        s = g.new_initial_state(seed=2)
        # 12 character portraits in the frame, Aunt Agatha showing (portrait None) until the first reveal.
        assert s.portrait is None and len(s.unseen) == 12 and s.view(0)["portrait_name"] == "Aunt Agatha"

    def test_deck_split_is_an_option_that_must_total_29(self):
        g = game(traps_per_kind=4, wild_cards=3, detective_cards=6)
        assert len(g.deck) == 29 and g.deck.count(6) == 6
        with pytest.raises(Exception, match="must be 29"):
            game(traps_per_kind=3, wild_cards=4, detective_cards=11)

    @pytest.mark.parametrize("players,size,secret", [(4, 3, 0), (3, 4, 0), (2, 4, 2)])
    def test_character_cards_dealt_by_the_chart(self, players, size, secret):
        cite(
            "004",
            "Shuffle the 12 Character cards and deal them out face down according to the number of players.",
        )
        s = game(players).new_initial_state(seed=3)
        assert [len(h) for h in s.chars] == [size] * players
        assert [len(h) for h in s.secret] == [secret] * players
        every = sorted(p for h in s.chars + s.secret for p in h)
        assert every == list(range(12))

    def test_you_own_the_pawns_of_your_character_cards(self):
        cite("004", "Players can look at their cards, but must keep them secret from each other!")
        cite("004", "You own the pawns that match your Character cards.")
        s = game().new_initial_state(seed=4)
        for seat in range(4):
            v = s.view(seat)
            assert v["my_characters"] == [LETTERS[p] for p in s.chars[seat]]
            assert "chars" not in v and all("owner" not in p for p in v["pawns"])

    def test_trap_pile_face_down(self):
        cite("004", "Shuffle all of them and place them face down in a pile on the game-board's front lawn.")
        s = game().new_initial_state(seed=5)
        assert s.view(0)["pile"] == 29 and "pile_order" not in s.view(0)
        assert sorted(s.pile) == sorted(s.game.deck)

    def test_portrait_order_is_unknown_and_aunt_agatha_goes_first(self):
        cite("004", "Do not look at the order of the cards!")
        cite(
            "004",
            "First remove Aunt Agatha's Portrait card from the frame and place it facedown on the "
            "gameboard's large sofa. The card that is shown underneath Aunt Agatha is the current "
            "favorite to inherit!",
        )
        s = game(first_player=1).new_initial_state(seed=6)
        assert s.current_player() == CHANCE and s.phase == "reveal"
        outcomes = s.chance_outcomes()
        assert len(outcomes) == 12 and all(abs(p - 1 / 12) < 1e-12 for _, p in outcomes)
        play(s, "portrait L")
        assert s.view(2)["portrait"] == "L" and s.phase == "roll"

    def test_highest_roll_goes_first_then_play_to_the_left(self):
        cite(
            "004",
            "Each player rolls the dice. The player with the highest roll goes first. Play then continues to the left.",
        )
        s = game().new_initial_state(seed=7)
        assert s.phase == "first" and [p for _, p in s.chance_outcomes()] == [0.25] * 4
        play(s, "first 3", "portrait S", "roll 1-2")
        assert s.current_player() == 2
        s = state_at(turn=4, dice="1,2")
        # a full turn of player 4: two moves, then the next seat (wrapping to player 1)
        play(s, "S1", "to i15", "D2", "to l15")
        assert s.phase == "roll" and s.to_move == 0


# --- a turn ---------------------------------------------------------------------------


class TestTurn:
    def test_two_different_pawns_one_per_die(self):
        cite("004", "Roll both dice and move two different pawns, one for each die.")
        s = state_at(dice="4,6")
        assert {"S4", "S6", "D4", "D6"} <= texts(s)
        play(s, "S4", "to " + sorted(dests(s, "S", 4))[0])
        assert not any(t.startswith("S") for t in texts(s)), "S already moved this turn"
        with pytest.raises(IllegalActionError, match="already moved"):
            s.string_to_action("S6")

    def test_full_count_of_the_die(self):
        cite("004", "Each pawn must always move the full count of a die roll.")
        cite("004", 'Each space or gameboard square is "1" count of a die roll.')
        s = state_at(dice="2,5")
        m = s.game.mansion
        for sq in dests(s, "S", 2):
            # an exact count of 2 on a grid ends 2 or 0 squares away (never 1, never 3)
            a, b = m.square("i14"), m.square(sq)
            d = abs(a % m.width - b % m.width) + abs(a // m.width - b // m.width)
            assert d in (0, 2)
        with pytest.raises(IllegalActionError):
            s.string_to_action("S3")

    def test_any_pawn_may_be_moved(self):
        cite("004", "You may move any pawns on the gameboard — not just your own!")
        s = state_at(dice="1,2", turn=1)  # player 1 owns S, D, C
        movers = {t[0] for t in texts(s)}
        assert {"L", "B", "H"} <= movers

    def test_turn_is_over_after_moving_the_pawns(self):
        cite("004", "Your turn is over after you move a pawn (or pawns).")
        s = state_at(dice="1,2", turn=2)
        play(s, "S1", "to i15")
        assert s.current_player() == 1
        play(s, "D2", "to l15")
        assert s.current_player() == CHANCE and s.to_move == 2


class TestMovement:
    def test_figure_6_orthogonal_moves_only(self):
        cite("004", "Pawns can move vertically or horizontally, but not diagonally. See Figure 6.")
        cite("004", "Figure 6. A Legal Move of 4")
        s = state_at(dice="1,4", pawns={"S": "k6"})  # S alone in the stair hall (no passage near)
        assert dests(s, "S", 1) == {"j6", "l6", "k5"}  # never j5 or l5 (diagonals)
        four = dests(s, "S", 4)
        assert "o6" in four and "k6" not in four
        m = s.game.mansion
        a = m.square("k6")
        for sq in four:  # 4 orthogonal steps end an even number of squares away, at most 4
            b = m.square(sq)
            d = abs(a % m.width - b % m.width) + abs(a // m.width - b // m.width)
            assert d in (2, 4)

    def test_figure_7_no_square_twice_not_even_the_start(self):
        cite(
            "004",
            "A pawn cannot land on or pass through the same space twice during the same move "
            "(including the space from which it began its move). See Figure 7.",
        )
        cite("004", "Figure 7. An Illegal Move of 4: Returning to the Space From Which You Began Your Move")
        s = state_at(dice="4,2")
        # around the 2x2 block i14-j14-j15-i15 and back would be 4 steps: illegal
        assert "i14" not in dests(s, "S", 4)
        assert "i14" not in dests(s, "S", 2)
        with pytest.raises(IllegalActionError, match="cannot end"):
            s2 = play(s.clone(), "S4")
            s2.string_to_action("to i14")

    def test_no_passing_through_pawns_or_furniture(self):
        cite(
            "004",
            "Pawns cannot land on or pass through a space occupied by another pawn or any furniture "
            "pictured on the gameboard (such as tables, sofas, chairs, vases, a desk, a gold statue or an easel).",
        )
        # S in a dead-end corridor of the foyer wall: j14's neighbours are i14, k14 (pawn D), j13 (wall), j15 (vase)
        s = state_at(dice="1,3", pawns={"S": "j14", "P": "i14"})
        assert "S1" not in texts(s)  # every neighbour is a pawn, wall or vase
        s = state_at(dice="1,3", pawns={"S": "j14"})
        assert dests(s, "S", 1) == {"i14"}
        # the desk at c14 is furniture: b14 (M) cannot step east onto it
        assert "c14" not in dests(s, "M", 1)

    def test_figure_8_red_chairs_crossed_only_when_pawns_block(self):
        cite(
            "004",
            "Exception: Pawns may move on Red Chair Starting spaces only if blocked by another pawn. See Figure 8.",
        )
        cite(
            "004",
            "To complete a move of 3, you must move on top of two Red Chair Starting spaces to reach an empty space.",
        )
        layout = dict(OPENING, C="m8", D="l8")  # two pawns already off the chairs block L's way out
        s = state_at(pawns=layout, dice="3,5", opening=1)
        assert dests(s, "L", 3) == {"k8"}  # m9 -> l9 -> k9 (two chairs) -> k8
        # Not blocked by pawns: a pawn on an end chair walks off without touching another chair.
        free = state_at(pawns=dict(OPENING), dice="3,1", opening=1)
        m = free.game.mansion
        for sq in dests(free, "S", 3):
            assert not m.chairs >> m.square(sq) & 1
        assert dests(free, "S", 1) == {"i9", "j8"}  # never along the chairs when the way is free

    def test_moves_never_end_on_a_red_chair(self):
        layout = dict(OPENING, C="m8", D="l8")
        s = state_at(pawns=layout, dice="2,5", opening=1)
        assert "L2" not in texts(s)  # m9 -> l9 -> k9 would end on a chair

    def test_rugs_are_walkable(self):
        cite("004", "Pawns may move on top of rugs.")
        s = state_at(dice="1,2")
        m = s.game.mansion
        assert "m15" in dests(s, "C", 1) and m.feature(m.square("m15")) == "rug"

    def test_figure_9_walls_are_walked_around(self):
        cite("004", "Pawns cannot pass through any walls on the gameboard. See Figure 9.")
        cite("004", "Figure 9. A Legal Move of 4 Around a Wall")
        s = state_at(dice="2,4", pawns={"S": "g3"})
        assert "i3" not in dests(s, "S", 2)  # straight through the wall at h3
        assert "i3" in dests(s, "S", 4)  # g3 g4 h4 i4 i3: around it through the doorway

    def test_opening_all_pawns_leave_the_chairs_first(self):
        cite(
            "004",
            "All pawns must be moved off the Red Chair Starting spaces before any pawn can be moved "
            "either a second time or onto a Trap space.",
        )
        s = state_at(pawns=dict(OPENING, S="i9"), dice="6,6", opening=1)
        assert not any(t.startswith("S") for t in texts(s)), "S has moved once: not again yet"
        # no pawn may end on a trap in the opening (the stairs trap m3 is 6+6 from m9's neighbours)
        full = s.clone()
        full.opening = False
        full._dest_cache.clear()
        assert "m3" in dests(full, "L", 12) or "m3" in dests(full, "K", 12) or "m3" in dests(full, "C", 12)
        for p in "LKC":
            assert "m3" not in dests(s, p, 12)
        # the opening ends once no pawn is on a chair
        s = state_at(pawns=dict(PAWNS_OFF_BUT_ONE), dice="1,2", opening=1)
        play(s, "O1", "to o12")
        kinds = [e["type"] for e in s.last_events()]
        assert not s.opening and "opening_over" in kinds
        # ...and the log says so after the move that emptied the last chair, not before it
        # (issue 37: it was told first, before the pawn had left).
        assert kinds.index("opening_over") > kinds.index("move"), kinds


PAWNS_OFF_BUT_ONE = {"O": "o11"}


class TestDoubles:
    def test_doubles_may_change_the_portrait(self):
        cite("004", "You may change the portrait!")
        cite(
            "004",
            "Move the Portrait card currently showing to the back of the deck in the frame and reveal "
            "the new card underneath!",
        )
        s = state_at(phase="roll", portrait="S")
        play(s, "roll 3-3")
        assert texts(s) == {"change portrait", "keep portrait"}
        play(s, "change portrait")
        assert s.current_player() == CHANCE and all(
            p != 0 for p in [a - s.game.REVEAL_BASE for a in s.legal_actions()]
        )
        play(s, "portrait D")
        assert s.portrait == 1 and s.cycle == [0] and s.phase == "select"

    def test_doubles_need_not_change_the_portrait(self):
        cite("004", "(If you don't want to change the portrait, you don't have to.)")
        s = state_at(phase="roll", portrait="S")
        play(s, "roll 2-2", "keep portrait")
        assert s.portrait == 0 and s.phase == "select"

    def test_doubles_one_pawn_the_total_or_two_pawns(self):
        cite(
            "004",
            "Either move one pawn the total amount of both dice or move two pawns (one pawn for each die).",
        )
        s = state_at(dice="2,2")
        assert {"S2", "S4"} <= texts(s)
        one = play(s.clone(), "S4", sorted("to " + d for d in dests(s, "S", 4))[0])
        assert one.phase == "roll" and one.to_move == 1  # the total used both dice
        two = play(
            s.clone(), "S2", "to i12" if "i12" in dests(s, "S", 2) else "to " + sorted(dests(s, "S", 2))[0]
        )
        assert two.phase == "select" and "D2" in texts(two) and "D4" not in texts(two)

    def test_the_seen_portrait_order_cycles_without_chance(self):
        s = state_at(phase="roll", portrait="S", cycle="DCLPKBZMHRO")  # every portrait already seen
        play(s, "roll 1-1", "change portrait")
        assert s.portrait == 1 and s.phase == "select"  # D was next at the back of the frame


class TestSpecialSpaces:
    def test_figure_10_secret_passage_hop_counts_one(self):
        cite(
            "004",
            "You may move any pawn onto a Secret Passage space and then move it to one other Secret "
            'Passage space, counting "1" on your die roll to do so.',
        )
        cite("004", "Then continue moving the full count of the die roll, if you have any moves left.")
        cite(
            "004",
            "In Figure 10, you rolled a 4. Move a pawn two spaces onto the Secret Passage space, hop to another "
            'Secret Passage space and land on it for the count of "1," and then move off that Secret '
            "Passage space one space to complete the full die roll of 4.",
        )
        s = state_at(dice="4,3", pawns={"S": "d6"})
        d = dests(s, "S", 4)
        assert {"w17", "x16"} <= d  # d6 c6 b6, hop to x17, then one step off
        assert "x17" in dests(s, "S", 3)  # landing on the far passage for the count of 1

    def test_five_passages_and_five_traps(self):
        cite("004", "There are 5 Secret Passage spaces, each with a wooden door.")
        cite("004", "There are 5 Trap spaces, each with a colored skull.")
        m = game().mansion
        assert len(m.passages) == 5 and sorted(m.trap_kind.values()) == sorted(TRAP_KINDS)

    def test_figure_11_trap_space_by_exact_count(self):
        cite(
            "004",
            "You may move any pawn onto a Trap space by landing on the space by exact count. See Figure 11.",
        )
        cite("004", "With a roll of 5, move the pawn onto the Fireplace Trap space by exact count!")
        s = state_at(dice="5,4", pawns={"S": "f8"})
        assert "b9" in dests(s, "S", 5) and "b9" not in dests(s, "S", 4)
        play(s, "S5", "to b9")
        assert s.phase == "trap" and s.trap_pawn == 0

    def test_own_pawn_may_be_moved_onto_a_trap(self):
        cite(
            "004",
            "You could move an opponent's pawn onto a Trap space or even your own pawn onto a Trap space",
        )
        s = state_at(dice="5,4", pawns={"S": "f8"}, turn=1)  # S belongs to player 1
        play(s, "S5", "to b9")
        assert s.phase == "trap" and "draw" in texts(s)

    def test_only_the_portrait_pawn_may_leave(self):
        cite(
            "004",
            "Your pawn must get out of the mansion when its portrait is shown hanging on the wall to win.",
        )
        cite("004", "(You do not need to land on this space by exact count.)")
        s = state_at(dice="6,1", pawns={"S": "m17", "D": "l17"}, portrait="S")
        assert "m19" in dests(s, "S", 6) and "m19" not in dests(s, "S", 1)
        assert "m19" not in dests(s, "D", 6)
        with pytest.raises(IllegalActionError):
            play(s.clone(), "D6", "to m19")
        play(s, "S6", "exit")
        assert s.is_terminal() and s.win_reason == "escape" and s.winner_seat() == 0
        assert s.returns()[0] == 1.0


# --- traps and cards ----------------------------------------------------------------------


def on_fireplace(**kw):
    """Player 1 to move; L (player 2's) five squares from the Fireplace trap b9."""
    kw.setdefault("dice", "5,1")
    pawns = dict(kw.pop("pawns", {}))
    pawns.setdefault("L", "f8")
    return state_at(pawns=pawns, **kw)


class TestTraps:
    def test_spring_only_a_pawn_moved_there_this_turn(self):
        cite(
            "004",
            "You can spring a trap to “knock off” a pawn only if you have moved that pawn onto a Trap "
            "space on your current turn.",
        )
        cite(
            "004",
            "Although Donna has a matching Bookcase Trap card, she cannot play it to spring the trap "
            "because she didn't move the pawn there on the same turn.",
        )
        cite(
            "004",
            "She could move the pawn off the Bookcase Trap space to allow another player to move it back on "
            "the Trap space and spring the trap.",
        )
        s = state_at(pawns={"L": "c2"}, traps="b/-/-/-", dice="1,2")
        play(s, "S1", "to i15")
        assert s.phase == "select" and not kinds(s) & {"play", "spring"}
        assert "L2" in texts(s)  # she may move it off the trap
        play(s, "L2", "to " + sorted(dests(s, "L", 2))[0])
        assert s.phase != "trap"

    def test_finish_one_pawn_before_the_next(self):
        cite(
            "004",
            "Be sure to finish the moving, card-playing and trap-springing actions for one pawn before you move another pawn!",
        )
        cite(
            "004",
            "If you move onto a Trap space, your turn is over after you try to play a Trap card and spring the trap.",
        )
        s = on_fireplace(traps="f/-/-/-")
        play(s, "L5", "to b9")
        assert kinds(s) <= {"play", "draw"} and not any(t[0] in LETTERS and t[1:].isdigit() for t in texts(s))
        play(s, "play fireplace")
        assert s.phase == "select" and "S1" in texts(s)

    def test_play_a_matching_trap_card(self):
        cite(
            "004",
            "If you have the matching Trap card or a Wild card in your hand, you may play the card by placing "
            "it faceup on a discard pile on the gameboard’s front lawn.",
        )
        cite("004", "After a trap has been sprung, that pawn is automatically out of play.")
        s = on_fireplace(traps="f/-/-/-")
        play(s, "L5", "to b9")
        assert texts(s) == {"play fireplace", "draw"}
        play(s, "play fireplace")
        assert s.pos[3] == -1 and s.discard[-1] == 1 and s.hands[0] == []
        assert not any(t.startswith("L") for t in texts(s))

    def test_wild_card_matches_any_trap(self):
        cite("004", "A Wild card matches any trap!")
        cite("004", "To spring the Bookcase trap, play either one of the Bookcase Trap cards or a Wild card!")
        s = on_fireplace(traps="w/-/-/-")
        play(s, "L5", "to b9")
        assert texts(s) == {"play wild", "draw"}
        play(s, "play wild")
        assert s.pos[3] == -1
        s = state_at(dice="2,1", pawns={"L": "c4"}, traps="b/-/-/-")
        play(s, "L2", "to c2")
        assert texts(s) == {"play bookcase", "draw"}

    def test_no_match_in_hand_draw_and_spring_if_it_matches(self):
        cite(
            "004",
            "If you do not have the matching Trap card or a Wild card in your hand, draw one card from the "
            "Trap card pile. If it matches, you may spring the trap.",
        )
        s = on_fireplace(traps="s/-/-/-", pile="f")
        play(s, "L5", "to b9")
        assert texts(s) == {"draw"}
        play(s, "draw")
        assert s.drawn == 1 and texts(s) == {"spring", "keep"}
        play(s, "spring")
        assert s.pos[3] == -1

    def test_wrong_card_is_kept(self):
        cite(
            "004",
            "If it does not match, you cannot spring the trap — just announce that it’s the wrong card and "
            "keep the card in your hand to play on a later turn!",
        )
        s = on_fireplace(pile="c")
        play(s, "L5", "to b9", "draw")
        assert texts(s) == {"keep"}
        with pytest.raises(IllegalActionError, match="does not match"):
            s.string_to_action("spring")
        play(s, "keep")
        assert [c for c, _, _ in s.hands[0]] == [2] and s.pos[3] != -1
        assert any(e.get("msg") == "dead_end_drive.keeps_card" for e in s.last_events())

    def test_no_playing_an_old_card_after_a_draw(self):
        cite(
            "004",
            "You cannot draw a card and then play another card that you already had in your hand on the same turn.",
        )
        # Player 1 drew this turn (drew=1); a wild held from before may not be played now.
        s = on_fireplace(traps="w/-/-/-", drew="1", dice="5")
        play(s, "L5", "to b9")
        assert texts(s) == {"draw"}
        with pytest.raises(IllegalActionError, match="already had"):
            s.string_to_action("play wild")
        # By default a card drawn this same turn may still be played (it was not "already had").
        s = on_fireplace(traps="w+/-/-/-", drew="1", dice="5")
        play(s, "L5", "to b9")
        assert "play wild" in texts(s)
        # Option after_draw=none: nothing at all may be played after a draw.
        s = on_fireplace(traps="w+/-/-/-", drew="1", dice="5", options={"after_draw": "none"})
        play(s, "L5", "to b9")
        assert texts(s) == {"draw"}

    def test_detective_card_moves_him_and_you_draw_again(self):
        cite(
            "004",
            "If you draw a Detective card instead of a Trap card or a Wild card, place the Detective card in "
            "the discard pile and move the Detective pawn one space towards the front door of the mansion. "
            "Then draw another card from the Trap card pile.",
        )
        s = on_fireplace(pile="ddf", det="3")
        play(s, "L5", "to b9", "draw")
        assert s.detective == 5 and s.discard[-2:] == [6, 6] and s.drawn == 1
        assert sum(e["type"] == "detective" for e in s.last_events()) == 2

    def test_detective_at_game_over_ends_the_game_at_once(self):
        cite(
            "004",
            "If the Detective pawn reaches the Game Over space, the game ends immediately — no other card play is allowed!",
        )
        cite(
            "004",
            "If the Detective pawn reaches the Game Over space, then the player whose pawn's portrait is shown "
            "hanging on the wall wins.",
        )
        s = on_fireplace(pile="df", det="12", portrait="B")  # B belongs to player 3
        play(s, "L5", "to b9", "draw")
        assert s.current_player() == TERMINAL and s.win_reason == "detective"
        assert s.winner_seat() == 2 and s.returns()[2] == 1.0 and s.dice == []
        assert s.pile == [1] or s.pile[-1] == 1  # the fireplace card was never drawn

    def test_reshuffle_when_the_pile_runs_out(self):
        cite("004", "If you run out of cards in the Trap card pile, shuffle the discard pile.")
        deck = "sssfffccctttbbbwwww" + "d" * 10
        # Every card is in the discard pile except one fireplace in player 2's hand.
        s = on_fireplace(traps="-/f/-/-", discard=deck.replace("f", "", 1), pile="-")
        assert s.pile == []
        play(s, "L5", "to b9", "draw")
        assert any(e["type"] == "reshuffle" for e in s.last_events()) and s.epoch == 1
        total = len(s.pile) + len(s.discard) + sum(len(h) for h in s.hands) + (s.drawn is not None)
        assert total == 29


class TestKnockedOff:
    def test_owner_lays_down_the_character_card(self):
        cite(
            "004",
            "The player who owns the “knocked-off” pawn must then discard his or her matching Character "
            "card by laying it down faceup with its pawn on top.",
        )
        s = on_fireplace(traps="f/-/-/-")
        play(s, "L5", "to b9", "play fireplace")
        assert s.chars[1] == [4, 5]  # player 2 kept P and K
        for seat in range(4):
            owner = next(p for p in s.view(seat)["pawns"] if p["letter"] == "L")["owner"]
            assert owner == 1

    def test_knocked_off_portrait_is_removed_when_it_comes_up(self):
        cite(
            "004",
            "During gameplay, when the “knocked-off” pawn’s matching Portrait card appears in the frame, "
            "remove the card and place it facedown on the gameboard’s large sofa.",
        )
        # L was knocked off earlier; its portrait is next at the back of the frame.
        s = state_at(pawns={"L": None}, portrait="S", cycle="LDCPKBZMHRO", phase="roll")
        play(s, "roll 4-4", "change portrait")
        assert s.portrait == 1 and 3 in s.removed_portraits
        assert any(e["type"] == "portrait_removed" for e in s.last_events())
        # Knocked off while showing: the portrait goes at once and the next one is revealed.
        s = on_fireplace(traps="f/-/-/-", portrait="L")
        play(s, "L5", "to b9", "play fireplace")
        assert s.portrait is None and s.phase == "reveal" and 3 in s.removed_portraits
        play(s, "portrait S")
        assert s.phase == "select"

    def test_player_out_after_the_last_character_card(self):
        cite(
            "004",
            "If a player loses his or her last Character card, that player is out of the game and must "
            "discard all Trap cards in his or her hand",
        )
        s = on_fireplace(pawns={"P": None, "K": None}, traps="f/bw/-/-")
        play(s, "L5", "to b9", "play fireplace")
        assert (
            s.out[1]
            and s.hands[1] == []
            and s.discard[-3:] == [1, 4, 5]
            or sorted(s.discard[-3:]) == [1, 4, 5]
        )
        assert s.view(0)["seats"][1]["out"]
        play(s, "S1", "to i15")
        assert s.to_move == 2  # player 2 is skipped

    def test_last_pawn_alive_wins(self):
        cite("004", "If your pawn is the last one alive, you win!")
        layout = {p: None for p in LETTERS if p not in "LS"}
        s = on_fireplace(pawns=layout, traps="f/-/-/-", portrait="S")  # player 1 springs L (player 2's)
        play(s, "L5", "to b9", "play fireplace")
        assert s.is_terminal() and s.win_reason == "last-alive" and s.winner_pawn == 0
        assert s.winner_seat() == 0 and s.returns()[0] == 1.0


class TestBluffing:
    def test_draw_even_when_holding_a_match(self):
        cite("004", "You can also bluff by moving your own pawns onto Trap spaces!")
        cite(
            "004",
            "Then, even if you have a matching Trap card or Wild card in your hand, draw a new card from the Trap card pile.",
        )
        s = state_at(dice="5,1", pawns={"S": "f8"}, traps="f/-/-/-", pile="w")
        play(s, "S5", "to b9")
        assert texts(s) == {"play fireplace", "draw"}
        play(s, "draw")
        assert texts(s) == {"spring", "keep"}

    def test_keep_a_matching_draw_and_look_like_a_wrong_card(self):
        cite("004", "If it matches, do not use it! Just pretend it's the wrong card and keep the card!")
        cite("004", 'This way your "trapped" pawn remains safe and you gain an extra Trap card!')
        bluff = state_at(dice="5,1", pawns={"S": "f8"}, pile="f")
        play(bluff, "S5", "to b9", "draw", "keep")
        honest = state_at(dice="5,1", pawns={"S": "f8"}, pile="c")
        play(honest, "S5", "to b9", "draw", "keep")
        assert bluff.pos[0] != -1 and [c for c, _, _ in bluff.hands[0]] == [1]
        for seat in (1, 2, 3):  # the others cannot tell the two apart
            assert bluff.last_events(seat) == honest.last_events(seat)
            vb, vh = bluff.view(seat), honest.view(seat)
            assert vb == vh


class TestTwoPlayers:
    def test_two_player_deal_with_secret_cards(self):
        cite(
            "004",
            "In a 2-player game, deal a hand of four Character cards to each player. Then, separately deal "
            "two secret Character cards facedown to each player.",
        )
        cite("004", "(Even if you lose your hand of Character cards, you cannot look at the facedown cards.)")
        s = game(2).new_initial_state(seed=11)
        for seat in (0, 1):
            v = s.view(seat)
            assert len(v["my_characters"]) == 4 and v["seats"][seat]["secret_cards"] == 2
            for p in s.secret[seat]:
                assert LETTERS[p] not in v["my_characters"]

    def test_two_players_continue_without_character_cards(self):
        cite(
            "004",
            "If a player loses his or her last Character card, both players continue playing until one of "
            'the following "win" situations happens',
        )
        s = state_at(
            players=2,
            pawns={"D": None, "C": None, "L": None, "S": "f8"},
            traps="-/f",
            turn=2,
            dice="5,1",
            portrait="P",
        )
        play(s, "S5", "to b9", "play fireplace")
        assert s.chars[0] == [] and not s.out[0] and not s.is_terminal()
        play(s, "P1", "to i15")
        assert s.phase == "roll" and s.to_move == 0

    def test_holder_wins_else_the_secret_card_owner(self):
        cite(
            "004",
            "If a player is holding a Character card that matches the winning pawn, that player wins! If "
            "neither player is holding the matching Character card, players then turn over their secret "
            "Character cards. The player who owns the secret card that matches the winning pawn is the winner!",
        )
        cite("004", "a pawn exits the mansion's front door while its portrait is shown hanging on the wall")
        s = state_at(players=2, pawns={"M": "m17"}, portrait="M", secret="RO/MH", dice="3,1")
        play(s, "M3", "exit")
        assert s.is_terminal() and s.winner_seat() == 1  # M is a secret card of player 2
        s = state_at(players=2, pawns={"S": "m17"}, portrait="S", dice="3,1")
        play(s, "S3", "exit")
        assert s.winner_seat() == 0

    def test_two_player_last_pawn_and_detective_wins(self):
        cite("004", "(1) only one pawn remains on the gameboard")
        cite(
            "004",
            "(3) the Detective pawn reaches the Game Over space so the pawn whose portrait is shown "
            "hanging on the wall then wins.",
        )
        layout = {p: None for p in LETTERS if p not in "LR"}
        layout["L"] = "f8"
        s = state_at(
            players=2, pawns=layout, portrait="R", traps="f/-", dice="5,1"
        )  # R: player 2's secret card
        play(s, "L5", "to b9", "play fireplace")
        assert s.win_reason == "last-alive" and s.winner_seat() == 1
        s = state_at(players=2, pawns={"L": "f8"}, portrait="M", det="12", pile="d", dice="5,1")
        play(s, "L5", "to b9", "draw")  # M: player 1's secret card
        assert s.win_reason == "detective" and s.winner_seat() == 0


def _pocket_mansion():
    """mansion.txt with two pockets walled off in the Study by vases: b14-b15 (two squares) and
    g17 (one). Since the opening's rule is lifted for a die no chair pawn can use (issue 36), a die
    that no pawn at all can use needs pawns shut in like this: the real mansion has no such place."""
    text = resources.files("trapworks.games.dead_end_drive").joinpath("mansion.txt").read_text()
    rows = text.split("# grid:\n", 1)[1].split("\n")
    rows[15] = rows[15][:1] + "V" + rows[15][2:6] + "V" + rows[15][7:]  # b16, g16
    rows[16] = rows[16][:5] + "V" + rows[16][6:]  # f17
    return parse_grid(text.split("# grid:\n", 1)[0] + "# grid:\n" + "\n".join(rows))


POCKETS = _pocket_mansion()


class TestBlockedDie:
    """Not in 004: a die that no pawn can use. Default: that die is forfeited (option blocked_die).

    S is shut in a two-square pocket (it can move 1, nothing more), D in a one-square pocket; every
    other pawn is knocked off; two players, who play on without cards."""

    SHUT_IN = {p: None for p in LETTERS if p not in "SD"} | {"S": "b14", "D": "g17"}

    @pytest.fixture(autouse=True)
    def _pockets(self, monkeypatch):
        monkeypatch.setattr(dead_end_drive_game, "load_mansion", lambda: POCKETS)

    def test_forfeit_the_die_that_no_pawn_can_use(self):
        s = state_at(2, pawns=self.SHUT_IN, dice="1,3")
        assert texts(s) == {"S1"}  # nobody can move 3
        play(s, "S1", "to b15")
        assert s.phase == "roll" and s.to_move == 1
        blocked = [e for e in s.last_events() if e["type"] == "blocked_die"]
        assert [(e["dice"], format_message(e, type(s.game))) for e in blocked] == [
            ([3], "No pawn can move 3: the die is forfeited.")
        ]

    def test_all_blocked_ends_the_turn(self):
        s = state_at(2, pawns=self.SHUT_IN, phase="roll")
        play(s, "roll 2-2", "keep portrait")  # neither 2 nor the total 4 can be moved
        assert s.phase == "roll" and s.to_move == 1
        assert s.last_events()[-1]["type"] == "blocked_die"
        assert (
            format_message(s.last_events()[-1], type(s.game))
            == "No pawn can move 2 or 4: both dice are forfeited."
        )
        play(s, "roll 2-3")  # two dice, neither usable (issue 36: the sentence said "the die")
        assert (
            format_message(s.last_events()[-1], type(s.game))
            == "No pawn can move 2 or 3: both dice are forfeited."
        )
        assert format_message(s.last_events()[-1], type(s.game), "fr") == (
            "Aucun pion ne peut avancer de 2 ni de 3 : les deux dés sont perdus."
        )

    def test_lose_turn_variant(self):
        s = state_at(2, pawns=self.SHUT_IN, phase="roll", options={"blocked_die": "lose-turn"})
        play(s, "roll 1-3")  # 1 could be used, 3 cannot: the whole turn is lost
        assert s.phase == "roll" and s.to_move == 1
        assert s.last_events()[-1]["msg"] == "dead_end_drive.blocked_loses_turn"


class TestMoreSentences:
    @pytest.mark.parametrize(
        "trap,square,start,count,sentence",
        [
            (
                "stairs",
                "m3",
                "m7",
                4,
                "Move the pawn up the stairs to the blue label and press the finger lever to fling the pawn down the stairs.",
            ),
            (
                "fireplace",
                "b9",
                "f8",
                5,
                "Move the pawn onto the red label on the trap and push the finger lever back to flip the pawn into the fireplace.",
            ),
            ("chandelier", "u4", "u8", 4, "Press the finger lever to release the chandelier."),
            ("statue", "w9", "w12", 3, "Press the finger lever to topple the statue."),
            (
                "bookcase",
                "c2",
                "c6",
                4,
                "Move the pawn up the ladder to the purple label and press the finger lever at the back of the bookcase to topple the ladder.",
            ),
        ],
    )
    def test_each_of_the_five_traps_springs_with_its_card(self, trap, square, start, count, sentence):
        cite("004", "To spring a trap, do the following:")
        cite("004", sentence)
        cite("004", "Once on a Trap space, you'll then need a Trap card to spring the trap.")
        code = "sfctb"[TRAP_KINDS.index(trap)]
        s = state_at(dice=f"{count},1" if count != 1 else "1,2", pawns={"L": start}, traps=f"{code}/-/-/-")
        assert square in dests(s, "L", count)
        play(s, f"L{count}", f"to {square}")
        assert texts(s) == {f"play {trap}", "draw"}
        play(s, f"play {trap}")
        assert s.pos[3] == -1 and any(e["type"] == "spring" and e["trap"] == trap for e in s.last_events())

    def test_the_trap_is_reset_for_the_next_victim(self):
        cite("004", "Then reset the trap for the next victim.")
        s = state_at(dice="5,5", pawns={"L": "f8", "P": "f10"}, traps="ff/-/-/-", phase="select")
        play(s, "L5", "to b9", "play fireplace")
        assert s.pos[3] == -1
        play(s, "P5", "to b9")  # the same trap, set again, takes the next pawn
        assert texts(s) == {"play fireplace", "draw"}
        play(s, "play fireplace")
        assert s.pos[4] == -1

    def test_bluff_by_moving_other_pawns_toward_the_door(self):
        cite(
            "004",
            "Since you do not want the other players to know which pawns are yours, you may BLUFF by moving "
            "pawns other than your own towards the mansion's front door.",
        )
        cite("004", "Keep the pawns you own secret so you can escape more")
        s = state_at(dice="3,1", pawns={"B": "m15"}, turn=1)  # B belongs to player 3
        assert "m18" in dests(s, "B", 3)
        play(s, "B3", "to m18")
        for seat in (1, 2, 3):
            assert "owner" not in next(p for p in s.view(seat)["pawns"] if p["letter"] == "B")

    def test_aunt_agatha_shows_first_and_the_portrait_must_match_to_escape(self):
        cite(
            "004",
            "Slide the Aunt Agatha card face down underneath the pile and pick up the pile so only Aunt Agatha is shown.",
        )
        cite(
            "004",
            "You must time your escape from the mansion exactly to the appearance of your pawn's portrait in the frame.",
        )
        s = game(first_player=1).new_initial_state(seed=9)
        assert s.view(0)["portrait"] is None and s.view(0)["portrait_name"] == "Aunt Agatha"
        s = state_at(dice="3,1", pawns={"S": "m17"}, portrait="D")
        assert "m19" not in dests(s, "S", 3)

    def test_detective_at_the_door_gives_the_win_to_the_portrait(self):
        cite(
            "004",
            "If your pawn's portrait is shown hanging on the wall when the Detective arrives at the front door, you win the game.",
        )
        s = on_fireplace(pile="d", det="12", portrait="S")  # S is player 1's: the player drawing wins
        play(s, "L5", "to b9", "draw")
        assert s.winner_seat() == 0

    def test_two_players_use_all_twelve_pawns_and_nobody_peeks(self):
        cite("004", "Players play as above with all 12 pawns.")
        cite("004", "These secret cards must be kept facedown during the entire game — NO PEEKING BY ANYONE!")
        s = game(2).new_initial_state(seed=2)
        assert len(s.live_pawns()) == 12
        for seat in (None, 0, 1):
            v = s.view(seat)
            hidden = {LETTERS[p] for h in s.secret for p in h}
            assert not hidden & set(v["my_characters"])
            assert "secret" not in {
                k for k, val in v.items() if isinstance(val, list) and set(map(str, val)) & hidden
            }


class TestOptionsAndEdges:
    def test_passage_hops_option(self):
        s = state_at(dice="4,3", pawns={"S": "d6"}, options={"passage_hops": 0})
        assert "w17" not in dests(s, "S", 4)  # without hops the far passage is out of reach

    def test_fixed_first_player_skips_the_roll_off(self):
        s = game(3, first_player=2).new_initial_state(seed=1)
        assert s.phase == "reveal" and s.to_move == 1

    def test_springing_your_own_last_pawn_puts_you_out_at_once(self):
        # Player 2 holds only L; it springs its own pawn with a die still to play: out, turn over.
        s = state_at(pawns={"P": None, "K": None, "L": "f8"}, traps="-/f/-/-", turn=2, dice="5,1")
        play(s, "L5", "to b9", "play fireplace")
        assert s.out[1] and s.phase == "roll" and s.to_move == 2

    def test_trap_squares_may_be_passed_over(self):
        # Not in 004 in so many words: a trap square is reached "by exact count", so passing over it is allowed.
        s = state_at(dice="2,1", pawns={"S": "d2"})
        assert "b2" in dests(s, "S", 2)  # d2 -> c2 (the bookcase trap) -> b2
