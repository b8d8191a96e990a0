"""13 Dead End Drive's option deal=chance against the OpenSpiel tree (issue 30, deliver 1: "the same in
the kernel's chance model"): the kernel's own chance nodes for the deal and the trap pile are the
tree's at seed=-1 (the layer of games/dead_end_drive/chance_layer.py), outcome for outcome and
probability for probability; loaded into OpenSpiel with deal=chance they need no layer, and each
hidden outcome is seen only by the seat that may know it."""

from __future__ import annotations

import math
import random

import numpy as np
import pyspiel
import pytest

import trapworks
import trapworks.adapters.openspiel  # noqa: F401 (registers the games)
from trapworks.adapters.openspiel import NOBODY, PUBLIC
from trapworks.games.dead_end_drive.chance_layer import DeadEndDriveChance


def draw(rng: random.Random, outcomes):
    return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]


@pytest.mark.parametrize("players", [2, 4])
def test_the_kernels_chance_nodes_are_the_openspiel_trees(players):
    """The tree (deal=seeded, seed=-1: the layer deals and draws) and the kernel with deal=chance,
    played with the same outcomes and moves: at every chance node the same outcomes (the layer's
    number o is the kernel's HIDDEN_BASE + o) with the same probabilities, at every seat's node
    the same legal actions and the same views."""
    tree = pyspiel.load_game("trapworks_dead_end_drive", {"players": players, "turn_limit": 120})
    kernel = trapworks.make("dead-end-drive", players=players, turn_limit=120, deal="chance")
    base = tree.kernel_outcomes
    deal_nodes = draw_nodes = forced = 0
    for seed in range(8):
        rng = random.Random(seed)
        os_state = tree.new_initial_state()
        tw = kernel.new_initial_state(seed=seed)
        while not os_state.is_terminal():
            assert not tw.is_terminal()
            # A forced card (one possibility) is a kernel node of probability 1; the tree skips it.
            while tw.hidden_pending() and len(tw.chance_outcomes()) == 1:
                assert tw.chance_outcomes()[0][1] == 1.0
                tw.apply_action(tw.chance_outcomes()[0][0])
                forced += 1
            if os_state.is_chance_node():
                assert tw.is_chance_node()
                if os_state.layer.pending():
                    assert tw.hidden_pending()
                    if tw.hidden.hands:
                        deal_nodes += 1
                    else:
                        draw_nodes += 1
                    tree_outcomes = [
                        (kernel.HIDDEN_BASE + o - base, p) for o, p in os_state.chance_outcomes()
                    ]
                    assert os_state.layer.visible_to(os_state.tw) == tw.chance_visible_to()
                else:
                    assert not tw.hidden_pending()
                    tree_outcomes = [
                        (tree.tw_game.chance_outcome_action(o), p) for o, p in os_state.chance_outcomes()
                    ]
                kernel_outcomes = tw.chance_outcomes()
                assert [a for a, _ in kernel_outcomes] == [a for a, _ in tree_outcomes]
                for (_, p), (_, q) in zip(kernel_outcomes, tree_outcomes, strict=True):
                    assert math.isclose(p, q, rel_tol=1e-12)
                action = draw(rng, kernel_outcomes)
                index = [a for a, _ in kernel_outcomes].index(action)
                os_state.apply_action(os_state.chance_outcomes()[index][0])
                tw.apply_action(action)
            else:
                assert os_state.current_player() == tw.current_player()
                assert os_state.legal_actions() == sorted(tw.legal_actions())
                for seat in [*range(players), None]:
                    assert os_state.tw.view(seat) == tw.view(seat)
                action = rng.choice(os_state.legal_actions())
                os_state.apply_action(action)
                tw.apply_action(action)
        assert tw.is_terminal() and os_state.returns() == tw.returns()
    assert deal_nodes >= 8 * 8 and draw_nodes > 20 and forced > 8


def os_replay(game, kernel_actions):
    """An OpenSpiel state from a kernel history (chance actions renumbered for OpenSpiel)."""
    state = game.new_initial_state()
    tw_game = game.tw_game
    for a in kernel_actions:
        state.apply_action(tw_game.chance_outcome_index(a) if state.is_chance_node() else a)
        yield state


def test_loaded_with_deal_chance_the_tree_has_no_layer_and_marks_who_sees_each_outcome():
    game = pyspiel.load_game("trapworks_dead_end_drive", {"players": 2, "deal": "chance", "turn_limit": 20})
    tw_game = game.tw_game
    assert not game.hidden_chance and game.any_hidden
    assert game.max_chance_outcomes() == tw_game.max_chance_outcomes()  # no layer outcomes added
    state = game.new_initial_state()
    rng = random.Random(2)
    marks = []
    while not state.is_terminal():
        if state.is_chance_node():
            who = state.tw.chance_visible_to()
            hidden = state.tw.hidden_pending()
            state.apply_action(draw(rng, state.chance_outcomes()))
            marks.append((hidden, who, state.seen[-1]))
            assert state.seen[-1] == who and (hidden or who == PUBLIC)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    kinds = {(hidden, who) for hidden, who, _ in marks}
    assert {(True, 0), (True, 1), (True, NOBODY), (False, PUBLIC)} <= kinds  # hands, secrets, public


def test_openspiel_information_states_cannot_tell_deals_apart_that_seat_0_may_not_know():
    """Two deals that differ only in seat 1's cards and the secret cards, the same moves after: seat
    0's information state and observation (strings and tensors, perfect recall too) are the same at
    every step until the end; seat 1's differ."""
    game = pyspiel.load_game("trapworks_dead_end_drive", {"players": 2, "deal": "chance", "turn_limit": 15})
    tw_game = game.tw_game
    recall = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(4)
    a = tw_game.new_initial_state(seed=4)
    while not a.is_terminal():
        a.apply_action(
            draw(rng, a.chance_outcomes()) if a.is_chance_node() else rng.choice(a.legal_actions())
        )
    history = a.history()
    mine = a.chars[0]
    others = sorted(set(range(12)) - set(mine))
    hands = {("chars", 0): mine}
    while True:
        rng.shuffle(others)
        hands.update(
            {
                ("chars", 1): sorted(others[:4]),
                ("secret", 0): sorted(others[4:6]),
                ("secret", 1): sorted(others[6:]),
            }
        )
        if hands[("chars", 1)] != a.chars[1]:
            break
    b = tw_game.new_initial_state(seed=4)
    while b.hidden_pending():
        kind, seat, _ = b.hidden.hands[0]
        b.apply_action(tw_game.HIDDEN_BASE + min(p for p in hands[(kind, seat)] if p not in b.hidden.taken))
    deal = b.history()
    assert len(deal) == sum(1 for x in history if tw_game.HIDDEN_BASE <= x < tw_game.HIDDEN_BASE + 12)
    assert deal != history[: len(deal)]
    steps = 0
    for sa, sb in zip(os_replay(game, history), os_replay(game, deal + history[len(deal) :]), strict=True):
        if sa.is_terminal():
            break
        assert sa.information_state_string(0) == sb.information_state_string(0)
        assert sa.observation_string(0) == sb.observation_string(0)
        assert np.array_equal(sa.information_state_tensor(0), sb.information_state_tensor(0))
        assert np.array_equal(sa.observation_tensor(0), sb.observation_tensor(0))
        recall.set_from(sa, 0)
        ta = recall.tensor.copy()
        recall.set_from(sb, 0)
        assert np.array_equal(ta, recall.tensor) and recall.string_from(sa, 0) == recall.string_from(sb, 0)
        steps += 1
    assert steps > len(deal)
    assert sa.information_state_string(1) != sb.information_state_string(1)


def test_resample_from_infostate_draws_the_hidden_deal_anew_under_deal_chance():
    game = pyspiel.load_game("trapworks_dead_end_drive", {"players": 4, "deal": "chance", "turn_limit": 10})
    rng = random.Random(1)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.history()) < 30:
        state.apply_action(
            draw(rng, state.chance_outcomes())
            if state.is_chance_node()
            else rng.choice(state.legal_actions())
        )
    sampler = random.Random(7).random
    deals = set()
    for _ in range(10):
        new = state.resample_from_infostate(0, sampler)
        assert new.information_state_string(0) == state.information_state_string(0)
        assert new.tw.chars[0] == state.tw.chars[0]
        deals.add(tuple(map(tuple, new.tw.chars)))
    assert len(deals) > 1


def test_the_layers_outcome_numbers_are_the_kernels():
    kernel = trapworks.make("dead-end-drive", deal="chance")
    layer = DeadEndDriveChance()
    state = kernel.new_initial_state(seed=1)
    for o in range(DeadEndDriveChance.num_outcomes):
        assert state.action_to_string(kernel.HIDDEN_BASE + o) == layer.outcome_string(o)


def test_booby_trap_with_its_hidden_chance_in_the_kernel_has_no_layer_and_hides_what_it_must():
    """Booby Trap with setup=chance and noise=chance: no layer; the tray is seen by every seat, the
    placement by nobody, a touch's noise by the toucher only; another seat's information state (and
    perfect-recall observation) is the same whichever noise a touch drew."""
    params = {"players": 2, "pieces_per_size": 2, "setup": "chance", "noise": "chance", "tension_noise": 0.5}
    game = pyspiel.load_game("trapworks_booby_trap", params)
    tw_game = game.tw_game
    assert not game.hidden_chance and game.any_hidden
    assert game.max_chance_outcomes() == tw_game.max_chance_outcomes()
    recall = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(3)
    state = game.new_initial_state()
    marks = []
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            who = state.tw.chance_visible_to()
            outcomes = state.chance_outcomes()
            if state.tw.noise_pending and len(outcomes) > 1:
                other = 1 - state.tw.to_move
                one, two = state.child(outcomes[0][0]), state.child(outcomes[1][0])
                assert one.information_state_string(other) == two.information_state_string(other)
                assert np.array_equal(
                    one.information_state_tensor(other), two.information_state_tensor(other)
                )
                recall.set_from(one, other)
                first = recall.tensor.copy()
                recall.set_from(two, other)
                assert np.array_equal(first, recall.tensor)
                assert one.information_state_string(1 - other) != two.information_state_string(1 - other)
                checked += 1
            state.apply_action(draw(rng, outcomes))
            marks.append((who, state.seen[-1]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert marks[0] == (PUBLIC, PUBLIC) and marks[1] == (NOBODY, NOBODY)
    assert all(who == seen for who, seen in marks) and {0, 1} <= {who for who, _ in marks[2:]}
    assert checked > 0


def test_pettingzoo_infos_give_a_hidden_draw_only_to_the_seat_that_sees_it():
    from trapworks.adapters.pettingzoo import raw_env

    env = raw_env("dead-end-drive", players=2, deal="chance", turn_limit=400)
    env.reset(seed=3)
    chance = {a: list(env.infos[a]["chance"]) for a in env.agents}
    mine = [t for t in chance["player_0"] if t.startswith("deal ")]
    theirs = [t for t in chance["player_1"] if t.startswith("deal ")]
    # each seat reads the 4 cards of its own hand, never the other's or the secret cards
    assert len(mine) == len(theirs) == 4 and not set(mine) & set(theirs)
    assert [t for t in chance["player_0"] if not t.startswith("deal ")] == [
        t for t in chance["player_1"] if not t.startswith("deal ")
    ]  # the public ones (who starts, the portrait, the dice) alike
    draw = env.game.DRAW
    draws = 0
    rng = random.Random(3)
    for agent in env.agent_iter(max_iter=20000):
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = [i for i, m in enumerate(env.observe(agent)["action_mask"]) if m]
        action = draw if draw in legal else rng.choice(legal)
        env.step(action)
        drawn = {a: [t for t in env.infos[a]["chance"] if t.startswith("top card")] for a in env.infos}
        if action == draw:
            draws += bool(drawn[agent])
            assert all(not texts for a, texts in drawn.items() if a != agent)
        else:
            assert not any(drawn.values())
    assert draws > 3
