"""Booby Trap's touch noise as chance in the kernel's own chance model (issue 30, deliver 1: "the same
in the kernel's chance model"). With the option noise=chance each touch (001: "On each turn a
player is allowed to touch only one piece") is followed by a chance node over the OpenSpiel tree's
noise levels (chance_layer.BoobyTrapChance: 5 equally likely levels of the `tension_noise`
normal distribution, levels that read the same merged); only the toucher sees its outcome. The
default (noise=seeded) is unchanged (test_golden.py)."""

from __future__ import annotations

import json
import math
import random

import pytest

import trapworks
from trapworks.core import GameRecord, IllegalActionError
from trapworks.core.game import CHANCE, story_entry, story_for
from trapworks.games.booby_trap.chance_layer import NOISE_LEVELS, BoobyTrapChance

OPTIONS = {"pieces_per_size": 2, "players": 3, "setup": "chance"}


def pick(rng, state):
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    return rng.choice(state.legal_actions())


def test_a_touch_is_followed_by_its_noise_and_every_node_sums_to_one():
    game = trapworks.make("booby-trap", noise="chance", **OPTIONS)
    assert game.chance_actions()[-NOISE_LEVELS:] == tuple(
        range(game.noise_base, game.noise_base + NOISE_LEVELS)
    )
    noise_nodes = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert math.isclose(sum(p for _, p in outcomes), 1.0)
                # each level is 1/5, merged levels a multiple of it
                if state.noise_pending:
                    assert all(math.isclose(p * NOISE_LEVELS, round(p * NOISE_LEVELS)) for _, p in outcomes)
                for a, _ in outcomes:
                    assert game.chance_outcome_action(game.chance_outcome_index(a)) == a
            action = pick(rng, state)
            assert state.string_to_action(state.action_to_string(action)) == action
            touching = not state.is_chance_node() and state.touched is None
            state.apply_action(action)
            if touching:
                # the touch: its reading is not known yet, the noise's node is next
                seat = state.to_move
                assert state.current_player() == CHANCE and state.chance_visible_to() == seat
                assert state.view(seat)["reading"] is None
                with pytest.raises(IllegalActionError, match="noise"):
                    state.apply_action(game.pass_action)
                noise_nodes += 1
                before = len(state.readings[seat])
                state.apply_action(pick(rng, state))
                assert len(state.readings[seat]) == before + 1
                assert state.view(seat)["reading"]["touch"] == state.touches
                assert state.current_player() == seat
        assert len(state.history()) <= game.max_game_length()
    assert noise_nodes > 6


def test_the_kernels_noise_nodes_are_the_openspiel_layers():
    """The kernel with noise=chance and the kernel with the default noise under the tree's layer
    (BoobyTrapChance), played with the same outcomes and moves: the same noise outcomes and
    probabilities after every touch, and the same views for every seat."""
    sigma = 0.3
    kernel = trapworks.make("booby-trap", noise="chance", tension_noise=sigma, **OPTIONS)
    seeded = trapworks.make("booby-trap", tension_noise=sigma, **OPTIONS)
    for seed in range(2):
        rng = random.Random(seed)
        a = kernel.new_initial_state(seed=seed)
        b = seeded.new_initial_state(seed=seed)
        layer = BoobyTrapChance.for_state(b)
        assert BoobyTrapChance.for_state(a).sigma == 0.0  # the kernel's own node: the layer adds none
        compared = 0
        while not a.is_terminal():
            if a.is_chance_node() and a.noise_pending:
                assert layer.pending()
                mine = [(x - kernel.noise_base, p) for x, p in a.chance_outcomes()]
                assert mine == layer.outcomes(b)
                level = pick(rng, a) - kernel.noise_base
                a.apply_action(kernel.noise_base + level)
                layer.apply(b, level)
                compared += 1
            elif a.is_chance_node():
                x = pick(rng, a)
                a.apply_action(x)
                b.apply_action(x)
            else:
                x = pick(rng, a)
                player = b.current_player()
                a.apply_action(x)
                b.apply_action(x)
                layer.after(b, x, player)
                if a.noise_pending:
                    continue
            for seat in [*range(3), None]:
                view_a, view_b = a.view(seat), b.view(seat)
                view_a.pop("position"), view_b.pop("position")  # the seeded one writes its key's state
                view_a.pop("moves_made"), view_b.pop("moves_made")  # the noise is a node in one only
                assert view_a == view_b
        assert b.is_terminal() and a.returns() == b.returns()
        assert compared > 4


def reading_of(state, seat):
    out = {
        "view": state.view(seat),
        "public_history": state.public_history(),
        "events": state.last_events(seat),
        "plies": len(state.history()),
    }
    if seat is not None:
        out["info"] = state.information_state_string(seat)
    return json.dumps(out, sort_keys=True, default=str)


def test_no_other_seat_can_tell_two_noises_apart():
    game = trapworks.make("booby-trap", noise="chance", tension_noise=0.5, **OPTIONS)
    rng = random.Random(5)
    state = game.new_initial_state(seed=5)
    checked = 0
    while not state.is_terminal() and checked < 6:
        if state.is_chance_node() and state.noise_pending and len(state.chance_outcomes()) > 1:
            toucher = state.to_move
            (x, _), (y, _) = state.chance_outcomes()[:2]
            owner = state.story_owner(x)
            one, two = state.clone(), state.clone()
            one.apply_action(x)
            two.apply_action(y)
            assert one.readings[toucher][-1]["reading"] != two.readings[toucher][-1]["reading"]
            for seat in [s for s in range(3) if s != toucher] + [None]:
                assert reading_of(one, seat) == reading_of(two, seat)
                assert story_for(story_entry(owner, one, x), seat) == story_for(
                    story_entry(owner, two, y), seat
                )
            assert reading_of(one, toucher) != reading_of(two, toucher)
            for viewer in [*range(3), None]:
                assert not one.action_text_visible(CHANCE, viewer)
            checked += 1
        state.apply_action(pick(rng, state))
    assert checked == 6


def test_the_placement_below_the_eyes_resolution_is_in_no_seats_information_state():
    """setup=chance: the three placements of a tray read the same to every seat (views and
    information states: the placement's outcome is not in the public history)."""
    game = trapworks.make("booby-trap", **OPTIONS)
    states = []
    for placement in range(3):
        s = game.new_initial_state(seed=1)
        s.apply_action(game.tray_base + 2)
        assert s.chance_visible_to() == -2
        s.apply_action(game.placement_base + placement)
        states.append(s)
    assert len({s.packing for s in states}) == 3
    for seat in [*range(3), None]:
        assert len({reading_of(s, seat) for s in states}) == 1


def test_a_record_replays_a_game_with_chance_noise():
    game = trapworks.make("booby-trap", noise="chance", **OPTIONS)
    rng = random.Random(2)
    state = game.new_initial_state(seed=2)
    while not state.is_terminal():
        state.apply_action(pick(rng, state))
    data = json.loads(json.dumps(GameRecord.from_state(state).to_dict()))
    again = GameRecord.from_dict(data).replay()
    assert again.history() == state.history() and again.readings == state.readings
    assert again.scores() == state.scores()


def test_no_noise_no_node():
    game = trapworks.make("booby-trap", noise="chance", tension_noise=0.0, **OPTIONS)
    assert not game.noise_chance and game.hidden_chance_in_kernel
    state = game.new_initial_state(seed=1)
    state.apply_action(game.tray_base)
    state.apply_action(game.placement_base)
    state.apply_action(state.legal_actions()[0])
    assert not state.is_chance_node() and state.view(state.to_move)["reading"] is not None
