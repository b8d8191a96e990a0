"""The solver's explanations read as English for every count (issue 13: "leave 1 single mice",
"All 1 remaining rows", "take one each" with one mouse left were found in 10,000 random solves)."""

from __future__ import annotations

import random
import re

import pytest

import trapworks
from rulebook import cite
from trapworks.games.last_mouse_lost import solve

BAD = re.compile(r"\b1 single mice|\bAll 1 remaining|\b1 remaining (rows|runs)")


def random_positions(rules: str, count: int, seed: int):
    game = trapworks.make("last-mouse-lost", rules=rules)
    rng = random.Random(seed)
    made = 0
    while made < count:
        state = game.new_initial_state()
        round_ = state.view(0).get("round")
        while not state.is_terminal() and state.view(0).get("round") == round_:
            yield state
            made += 1
            if made >= count:
                return
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("rules", ["basic", "advanced"])
def test_explanations_have_no_broken_counts(rules):
    cite("002", "To be the player who forces the opponent to press the last mouse into its hole.")
    singles = 0
    for state in random_positions(rules, 5000, seed=13):
        text = solve(state).explanation
        assert not BAD.search(text), text
        if "a single mouse: your opponent must press it" in text:
            singles += 1
            assert "take one each" not in text
    assert singles > 0  # the one-mouse wording was met, not only avoided


def test_one_row_with_one_mouse_left():
    game = trapworks.make("last-mouse-lost")
    text = solve(game.state_from_position("o../...../....../....../...../... 1 0-0 1")).explanation
    assert text.startswith("One row is left and it holds a single mouse: you must press it")
