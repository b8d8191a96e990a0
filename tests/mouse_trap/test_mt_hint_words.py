"""Mouse Trap's hint when rolling is the only move (issue 39, judge 6: "Roll the die." said
nothing a player did not see): the reason says what the six numbers bring from where the mouse
stands, the game's own movement deciding where each lands (the Loop goes round), in English and
French."""

from __future__ import annotations

import random

import trapworks
from trapworks.core import sample_chance
from trapworks.core.messages import Formatter, game_catalog
from trapworks.core.registry import game_class
from trapworks.games.mouse_trap.agents import HeuristicAgent
from trapworks.games.mouse_trap.game import ROLL


def _say(item, lang):
    return Formatter([game_catalog(game_class("mouse-trap"))], lang, 0).format(item["msg"], item.get("args"))


def _at_a_roll(players=2):
    game = trapworks.make("mouse-trap", players=players)
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    assert state.legal_actions() == [ROLL]
    return game, state


def test_a_roll_from_start_says_what_each_number_brings():
    game, state = _at_a_roll()
    me = state.current_player()
    action, reason = HeuristicAgent(game, me).choose(state)
    assert action == ROLL
    # From Start: 1 Build 2, 2 Take 2, 3 Build 2-3-4, 4 Build 2, 5 Back 2, 6 Build 2-3-4 (track.json)
    assert _say(reason, "en") == (
        "Of the six numbers, from space 0: 4 build a part, 1 takes cheese and 1 costs you cheese or ground."
    )
    assert _say(reason, "fr") == (
        "Sur les six faces du dé, depuis la case 0 : 4 font construire une pièce, 1 fait prendre du fromage "
        "et 1 vous coûte du fromage ou du terrain."
    )


def test_on_the_loop_the_numbers_go_round():
    game, state = _at_a_roll()
    me = state.current_player()
    state.mice[me] = 47  # Build 2 parts; then Take 2, the Cheese Wheel, Safe, Build 2 parts, Turn Crank
    _, reason = HeuristicAgent(game, me).choose(state)
    assert _say(reason, "en") == (
        "Of the six numbers, from space 47: 2 build a part, 1 takes cheese, 1 puts you on the Cheese Wheel "
        "(under the trap), 1 lands on Turn Crank and 1 does nothing."
    )
