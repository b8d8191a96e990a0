"""Last Mouse Lost (seed 002): one test per rule sentence, each citing it."""

import pytest

import trapworks
from rulebook import cite
from trapworks.core import TERMINAL, IllegalActionError
from trapworks.games.last_mouse_lost import STANDARD_BOARD


def lml(position=None, **options):
    game = trapworks.make("last-mouse-lost", **options)
    return game.state_from_position(position) if position else game.new_initial_state()


def texts(state):
    return {state.action_to_string(a) for a in state.legal_actions()}


def test_standard_board_is_3_5_6_6_5_3():
    """RULES-NOTES: 'Board: six rows of 3, 5, 6, 6, 5, 3 mice (28 in all).'"""
    state = lml()
    assert STANDARD_BOARD == (3, 5, 6, 6, 5, 3)
    assert state.position().split()[0] == "ooo/ooooo/oooooo/oooooo/ooooo/ooo"
    assert sum(len(r) for r in state.view(0)["rows"]) == 28


def test_object_is_to_make_the_opponent_press_the_last_mouse():
    cite("002", "To be the player who forces the opponent to press the last mouse into its hole.")
    state = lml("o../...../....../....../...../... 2 0-0 1", first_to=1)
    state.apply_action(state.string_to_action("a1"))  # player 2 is forced to press the last
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


class TestBasicRules:
    def test_a_player_presses_any_number_of_mice_in_one_row_only(self):
        cite(
            "002",
            "Each player, on their turn, selects a row and presses down any number of mice "
            "they wish in that row only.",
        )
        state = lml()
        legal = texts(state)
        # Every count from 1 to the row's raised mice, in every row, and nothing else.
        expected = {
            f"{row}{k}" for row, n in zip("abcdef", STANDARD_BOARD, strict=True) for k in range(1, n + 1)
        }
        assert legal == expected
        state.apply_action(state.string_to_action("c4"))
        assert state.position().split()[0] == "ooo/ooooo/oo..../oooooo/ooooo/ooo"

    def test_a_player_may_press_all_the_mice_of_a_row(self):
        cite("002", "If they wish, they may press all the mice in a row in a single move.")
        state = lml()
        state.apply_action(state.string_to_action("d6"))
        assert state.position().split()[0] == "ooo/ooooo/oooooo/....../ooooo/ooo"
        state = lml()
        state.apply_action(state.string_to_action("b*"))
        assert state.position().split()[0] == "ooo/...../oooooo/oooooo/ooooo/ooo"

    def test_one_row_only_per_move(self):
        cite("002", "presses down any number of mice they wish in that row only")
        state = lml()
        for text in ("c2 d2", "c2,d2", "cd2"):
            with pytest.raises(IllegalActionError):
                state.string_to_action(text)

    def test_the_opponent_may_use_any_row_with_unpressed_mice_including_the_same_row(self):
        cite(
            "002",
            "On their turn, the opponent selects any row with un-pressed mice (including the "
            "same row that the last player used), and presses one or more mice in the row.",
        )
        state = lml()
        state.apply_action(state.string_to_action("c2"))
        assert state.current_player() == 1
        assert "c1" in texts(state) and "c4" in texts(state)  # the same row is allowed
        assert "c5" not in texts(state)  # only 4 mice of row c are still raised
        state.apply_action(state.string_to_action("c4"))
        assert not any(t.startswith("c") for t in texts(state))  # no row without raised mice

    def test_one_or_more_mice_never_zero(self):
        cite("002", "presses one or more mice in the row")
        state = lml()
        with pytest.raises(IllegalActionError, match="at least one"):
            state.string_to_action("c0")

    def test_whoever_presses_the_last_mouse_loses_the_round(self):
        cite("002", "The player who ends up pressing down the last mouse on the board loses the round")
        state = lml("o../...../....../....../...../... 1 0-0 1")
        state.apply_action(state.string_to_action("a1"))
        assert state.score == [0, 1]
        events = state.last_events()
        assert events[0]["type"] == "round_over" and events[0]["loser"] == 0


class TestAdvancedRules:
    def test_only_adjacent_mice_may_be_pressed(self):
        cite("002", "players can only press any number of adjacent mice in a row")
        state = lml(rules="advanced")
        legal = texts(state)
        assert "c2-4" in legal and "c1-6" in legal and "c3" in legal
        with pytest.raises(IllegalActionError, match="not one run"):
            state.string_to_action("c1,3")
        # Every legal move is a run: rows of n have n(n+1)/2 runs.
        assert len(state.legal_actions()) == sum(n * (n + 1) // 2 for n in STANDARD_BOARD)

    def test_the_rules_otherwise_remain_the_same(self):
        cite("002", "The rules remain the same with the only difference being")
        state = lml("o../...../....../....../...../... 1 1-1 1", rules="advanced")
        state.apply_action(state.string_to_action("a1"))  # pressing the last mouse still loses
        assert state.score == [1, 2]

    def test_a_space_between_mice_splits_a_row(self):
        cite(
            "002",
            "If there is an empty space between two mice, the player can only press several "
            "mice in a row as long as they are adjacent and are not separated by a space.",
        )
        state = lml("ooo/oo.oo/oooooo/oooooo/ooooo/ooo", rules="advanced")
        assert {t for t in texts(state) if t.startswith("b")} == {"b1", "b2", "b1-2", "b4", "b5", "b4-5"}
        with pytest.raises(IllegalActionError, match="already pressed"):
            state.string_to_action("b2-4")

    def test_a_row_divided_by_the_opponent_offers_either_group(self):
        cite(
            "002",
            "Si une rangée a été divisée par un coup de l'adversaire, le joueur ne peut "
            "qu'appuyer sur l'un ou l'autre des groupes de souris adjacentes, de chaque côté "
            "de la souris enfoncée.",
        )
        state = lml(rules="advanced")
        state.apply_action(state.string_to_action("c3"))  # player 1 divides row c
        row_c = {t for t in texts(state) if t.startswith("c")}
        assert "c1-2" in row_c and "c4-6" in row_c and "c2-4" not in row_c
        assert all(not ("-" in t and int(t[1]) <= 2 < int(t.split("-")[1])) for t in row_c)

    def test_basic_rules_may_press_across_a_gap(self):
        """The contrast that defines the advanced game: under basic rules the gap does not matter."""
        cite("002", "presses down any number of mice they wish in that row only")
        state = lml("ooo/oo.oo/oooooo/oooooo/ooooo/ooo")
        state.apply_action(state.string_to_action("b4"))
        assert state.position().split()[0].split("/")[1] == "....."


class TestRoundsAndMatch:
    def test_the_board_is_reset_for_another_round(self):
        cite("002", "Flip over the playing surface and you're ready to enjoy another game!")
        state = lml("o../...../....../....../...../... 1 0-0 1")
        state.apply_action(state.string_to_action("a1"))
        assert state.position().split()[0] == "ooo/ooooo/oooooo/oooooo/ooooo/ooo"
        assert state.round_number() == 2 and not state.is_terminal()

    def test_three_of_five_rounds_win_the_match(self):
        cite("002", "The player who wins three of five rounds is the winner.")
        state = lml("o../...../....../....../...../... 1 2-2 1")
        state.apply_action(state.string_to_action("a1"))
        assert state.is_terminal() and state.current_player() == TERMINAL
        assert state.score == [2, 3] and state.returns() == [-1.0, 1.0] and state.winners() == [1]
        assert state.legal_actions() == []

    def test_first_to_three_ends_before_five_rounds(self):
        cite("002", "Le premier joueur à remporter trois manches sur cinq est déclaré vainqueur.")
        state = lml("o../...../....../....../...../... 1 0-2 1")
        state.apply_action(state.string_to_action("a1"))
        assert state.is_terminal() and state.score == [0, 3]

    def test_a_match_lasts_three_to_five_rounds(self):
        import random

        rng = random.Random(7)
        for _ in range(50):
            state = lml(first_to=3)
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            assert 3 <= sum(state.score) <= 5 and max(state.score) == 3


class TestWhoOpens:
    """002 does not say who opens each round: the `opener` option decides (default: alternate)."""

    def finish_round(self, state):
        # Leave one mouse for the opener's opponent... simply press everything but one, then it.
        while state.round_number() == 1:
            state.apply_action(state.legal_actions()[-1])
        return state

    @pytest.mark.parametrize(
        "rule, expected", [("alternate", 1), ("loser", None), ("winner", None), ("same", 0)]
    )
    def test_opener_rules(self, rule, expected):
        state = self.finish_round(lml(opener=rule))
        last = state.last_round
        want = {"loser": last["loser"], "winner": last["winner"]}.get(rule, expected)
        assert state.round_opener == want and state.current_player() == want

    def test_first_player_option(self):
        assert lml(first_player=1).current_player() == 1

    def test_random_first_player_is_a_chance_node(self):
        state = lml(first_player="random")
        assert state.is_chance_node()
        assert sorted(p for _, p in state.chance_outcomes()) == [0.5, 0.5]
        state.apply_action(state.string_to_action("opener:2"))
        assert state.current_player() == 1 and state.round_opener == 1


def test_any_board_given_as_row_lengths():
    state = lml(board="1,2,7")
    assert state.position().split()[0] == "o/oo/ooooooo"
    assert lml(board=[4, 4]).view(None)["board"] == [4, 4]
