"""Games ended off the board (core/forfeit.py): what a resignation, a loss on time or an abort
does to the result is the kernel's decision, the same for every host."""

from __future__ import annotations

import pytest

from trapworks.core import Forfeit, GameRecord, RecordError, abort_refusal, make, outcome, winners_of


def test_two_players_a_resignation_ends_the_game_and_the_other_seat_wins():
    state = make("last-mouse-lost").new_initial_state(seed=1)
    result = outcome(state, [Forfeit(0, "resigned", 0)])
    assert result.ended and result.winners == [1] and result.out == {0}
    assert result.returns == [-1.0, 1.0]


def test_no_forfeit_and_no_end_is_a_game_still_on():
    state = make("last-mouse-lost").new_initial_state(seed=1)
    result = outcome(state, [])
    assert not result.ended and result.returns is None and result.winners == []


def test_a_loss_on_time_is_a_forfeit_like_a_resignation():
    state = make("booby-trap").new_initial_state(seed=2)
    result = outcome(state, [Forfeit(1, "out_of_time", 0)])
    game = state.game
    assert result.ended and result.winners == [0]
    # Booby Trap is general-sum: the winner scores the highest utility, the loser the lowest.
    assert result.returns == [game.max_utility(), game.min_utility()]


def test_four_players_one_resigns_and_the_game_goes_on_then_the_last_one_left_wins():
    state = make("mouse-trap", players=4).new_initial_state(seed=3)
    one = outcome(state, [Forfeit(2, "resigned", 0)])
    assert not one.ended and one.out == {2}  # three players left: the game goes on
    all_but_one = [Forfeit(2, "resigned", 0), Forfeit(0, "resigned", 5), Forfeit(3, "out_of_time", 9)]
    last = outcome(state, all_but_one)
    assert last.ended and last.winners == [1]
    # Mouse Trap is zero-sum: the losers share the winner's gain, as at a normal end.
    assert last.returns == pytest.approx([-1 / 3, 1.0, -1 / 3, -1 / 3])
    assert sum(last.returns) == pytest.approx(0.0)


def test_an_out_seat_never_wins_a_game_its_stand_in_finished():
    game = make("last-mouse-lost", board=[1, 1], first_to=1)
    state = game.new_initial_state(seed=1)
    while not state.is_terminal():
        state.apply_action(
            state.legal_actions()[0] if state.current_player() >= 0 else state.chance_outcomes()[0][0]
        )
    winner = state.winners()[0]
    # A host may let the game go on with a stand-in for an out seat (more than one seat left);
    # the kernel still gives the out seat the lowest result at the end.
    returns = game.forfeit_returns(state, frozenset({winner}))
    assert returns[winner] == game.min_utility()
    assert winner not in winners_of(returns)


def test_an_abort_ends_the_game_with_no_result_and_only_before_the_second_move():
    state = make("last-mouse-lost").new_initial_state(seed=1)
    result = outcome(state, [Forfeit(None, "aborted", 0)])
    assert result.ended and result.aborted and result.returns is None and result.winners == []
    assert abort_refusal(state, 0) is None and abort_refusal(state, 1) is None
    assert "before its second move" in abort_refusal(state, 2)


def test_the_record_states_the_forfeits_and_the_forfeit_result_and_reads_back():
    state = make("last-mouse-lost").new_initial_state(seed=1)
    state.apply_action(state.legal_actions()[0])
    record = GameRecord.from_state(state, players=["A", "B"], forfeits=[Forfeit(1, "resigned", 1)])
    record.clock = {"mode": "move", "seconds": 30.0, "increment": 0.0, "on_timeout": "ai", "ai_level": "easy"}
    record.clock_moves = [0]
    record.handed_to_ai = [{"seat": 1, "agent": "easy", "ply": 1, "by": 0}]
    data = record.to_dict()
    assert data["result"] == [1.0, -1.0]
    assert data["forfeits"] == [{"seat": 1, "reason": "resigned", "ply": 1}]
    back = GameRecord.from_dict(data)
    assert back.forfeit_list() == [Forfeit(1, "resigned", 1)]
    assert back.clock == record.clock and back.clock_moves == [0]
    assert back.handed_to_ai == record.handed_to_ai


def test_a_record_with_a_bad_forfeit_is_refused_naming_the_field():
    data = GameRecord(game="last-mouse-lost").to_dict()
    data["forfeits"] = [{"seat": 0, "reason": "bored", "ply": 0}]
    with pytest.raises(RecordError, match="forfeits"):
        GameRecord.from_dict(data)
