"""The solver's explanations read as English for every count (issue 13: "leave 1 single mice",
"All 1 remaining rows", "take one each" with one mouse left were found in 10,000 random solves)."""

from __future__ import annotations

import os
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


def test_the_solvers_plan_is_a_typed_message_in_english_and_french():
    # Issue 37: the hint's reason is a message of the game's catalog (no pattern of the web
    # catalog matches its English any more); its English is the same message formatted.
    from trapworks.core.messages import format_message

    game = trapworks.make("last-mouse-lost", rules="basic")
    state = game.new_initial_state()
    sol = solve(state)
    typed = sol.extra["explanation_msg"]
    assert typed["msg"] == "last_mouse_lost.solver.lost"
    assert sol.explanation == format_message(typed, type(game))
    assert format_message(typed, type(game), "fr") == (
        "Les rangées ont 3, 5, 6, 6, 5, 3 souris levées ; leur somme de nim (XOR binaire) vaut 0 et plus "
        "d'une en a 2 ou plus. Chaque coup casse la somme de nim, et votre adversaire peut toujours la "
        "rétablir : avec un jeu parfait, vous perdez cette manche."
    )
    state.apply_action(state.legal_actions()[0])  # a1: now a won position, with its winning move
    sol = solve(state)
    assert sol.extra["explanation_msg"]["msg"] == "last_mouse_lost.solver.winning_move"
    french = format_message(sol.extra["explanation_msg"], type(game), "fr")
    assert french.startswith("Les rangées ont 2, 5, 6, 6, 5, 3 souris levées") and "Coup gagnant : " in french
    assert " rows " not in french and "Winning" not in french
    # The agent gives the page the typed plan (explain_typed), the CLI its English (explain).
    from trapworks.games.last_mouse_lost.solver import PerfectAgent

    agent = PerfectAgent(game, 1)
    assert (
        agent.explain_typed(state) == sol.extra["explanation_msg"] and agent.explain(state) == sol.explanation
    )
    # No pattern translates a sentence any more (issue 37): the file is gone.
    assert not os.path.exists(trapworks.__path__[0] + "/web/i18n/patterns.txt")
