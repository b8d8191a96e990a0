"""The kernel keeps each piece of bookkeeping once: a game's fast path is one hook
(`State._fast_apply`) and the kernel records the history and the last revealed outcome; which
action texts a seat may read is the game's declaration, read by the kernel."""

from __future__ import annotations

import dataclasses
import random

import pytest

import trapworks
from trapworks.core import IllegalActionError
from trapworks.core.registry import game_spec
from trapworks.core.spec import spec_of


@pytest.mark.parametrize("game_id", ["mouse-trap", "dead-end-drive"])
def test_a_fast_path_and_the_checked_path_keep_the_same_books(game_id):
    """Replaying a game through the fast path (apply_action) and through the checked path alone
    (_check_action + _apply_action, what the kernel does when the fast path declines) gives the
    same positions, histories and revealed outcomes."""
    game = trapworks.make(game_id, **game_spec(game_id).quick_options)
    fast = game.new_initial_state(seed=4)
    slow = game.new_initial_state(seed=4)
    rng = random.Random(4)
    taken = 0
    while not fast.is_terminal():
        action = rng.choice(fast.legal_actions())
        reveals = slow.is_chance_node() or slow.reveals_outcome(action)
        slow._check_action(action)
        slow._events = []
        slow._apply_action(action)
        slow._history.append(action)
        if reveals:
            slow._revealed_upto = len(slow._history)
        fast.apply_action(action)
        taken += 1
        assert fast.history() == slow.history()
        assert fast.revealed_upto() == slow.revealed_upto()
        assert fast.view(0) == slow.view(0)
    assert taken > 10


def test_an_illegal_action_changes_nothing_whichever_path_declines_it():
    state = trapworks.make("mouse-trap").new_initial_state(seed=1)
    before = (state.position(), state.history())
    for bad in (999, -5, "roll", True):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
        assert (state.position(), state.history()) == before


def test_which_action_texts_a_seat_reads_is_the_games_declaration():
    spec = game_spec("dead-end-drive")
    state = trapworks.make("dead-end-drive").new_initial_state(seed=2)
    # Hidden information: a seat reads its own actions' texts only, until the end.
    assert spec.secret_action_texts is True and state.game.has_hidden_information  # declared
    assert state.action_text_visible(1, 1) and not state.action_text_visible(1, 0)
    assert not state.action_text_visible(1, None)
    public = type("PublicTexts", (spec.game,), {})
    dataclasses.replace(spec, game=public, secret_action_texts=False)
    state = public().new_initial_state(seed=2)
    assert spec_of(state).secret_action_texts is False
    assert state.action_text_visible(1, 0) and state.action_text_visible(1, None)
    lml = trapworks.make("last-mouse-lost").new_initial_state()
    assert lml.action_text_visible(0, 1)  # perfect information: every text is public
