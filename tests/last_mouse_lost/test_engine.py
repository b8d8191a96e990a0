"""The bitboard engine (issue 19): bounded tables, and moves that agree with the rows' rules."""

from __future__ import annotations

import random

import pytest

import trapworks
from trapworks.games.last_mouse_lost import game as lml_game
from trapworks.games.last_mouse_lost.game import SHARED_TABLES_LIMIT, is_run


def random_games(game, n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                state.position()
                state.view(0)


@pytest.mark.parametrize("rules", ["basic", "advanced"])
def test_move_tables_are_bounded_by_the_board_not_by_play(rules):
    game = trapworks.make("last-mouse-lost", rules=rules, board=[3, 5, 6, 6, 5, 3], first_to=3)
    tables = game.tables
    bound = tables.bound()
    # The bound is fixed by the board: 4 per-row tables of 2**n entries, two chunks of 14 bits
    # (rows a-c and d-f); presses are the rules' own (no table).
    assert bound["rows"] == 4 * (2 * 8 + 2 * 32 + 2 * 64)
    assert bound["chunks"] == 2 * 2**14
    random_games(game, 300, seed=19)
    after_300 = tables.sizes()
    random_games(game, 300, seed=20)
    after_600 = tables.sizes()
    for kind, size in after_600.items():
        assert size <= bound[kind], kind
    # Play fills tables up to the bound and no further: memory does not grow with play.
    assert sum(after_600.values()) <= sum(bound.values())
    assert after_300["rows"] <= after_600["rows"] <= bound["rows"]


def test_shared_tables_keep_a_bounded_number_of_boards():
    for n in range(1, 3 * SHARED_TABLES_LIMIT):
        trapworks.make("last-mouse-lost", board=[n % 16 + 1, 2, n // 16 + 1])
    assert len(lml_game._SHARED_TABLES) <= SHARED_TABLES_LIMIT


def legal_by_rows(state):
    """The legal presses from the rule sentences, mouse by mouse (no tables)."""
    game = state.game
    out = []
    for a in range(game.num_press_actions):
        r = game.action_row[a]
        raised = state.rows[r]
        if game.advanced:
            mask = game.action_mask[a]
            if raised & mask == mask and is_run(mask):
                out.append(a)
        elif game.action_count[a] <= bin(raised).count("1"):
            out.append(a)
    return out


@pytest.mark.parametrize("rules", ["basic", "advanced"])
@pytest.mark.parametrize("board", [[3, 5, 6, 6, 5, 3], [16, 1, 15], [7] * 9, [1]])
def test_bitboard_moves_agree_with_the_rows(rules, board):
    game = trapworks.make("last-mouse-lost", rules=rules, board=board, first_to=2)
    rng = random.Random(str(board) + rules)
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal == legal_by_rows(state)
            before, rounds = state.rows, sum(state.score)
            a = rng.choice(legal)
            r = game.action_row[a]
            state.apply_action(a)
            if sum(state.score) == rounds:  # the round goes on
                pressed = [x ^ y for x, y in zip(before, state.rows, strict=True)]
                # Only row r changed, by exactly the mice the action names.
                assert [i for i, p in enumerate(pressed) if p] == [r]
                assert pressed[r] == game.press_mask(a, before[r])
            else:  # that press took the last mouse; the board is set up again unless it is over
                assert sum(before) == 0 or bin(before[r]).count("1") == game.action_count[a]
                assert state.rows == (game.empty_rows if state.is_terminal() else game.full_rows)


def test_clone_copies_every_attribute_and_shares_no_mutable_part():
    game = trapworks.make("last-mouse-lost", rules="advanced", first_player="random")
    state = game.new_initial_state(5)
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[3])
    copy = state.clone()
    assert copy.__dict__.keys() == state.__dict__.keys()
    assert all(copy.__dict__[k] == v for k, v in state.__dict__.items())
    for name in ("score", "_history", "_events"):
        assert getattr(copy, name) is not getattr(state, name)
    copy.apply_action(copy.legal_actions()[0])
    assert copy.position() != state.position() and len(state.history()) == 2
