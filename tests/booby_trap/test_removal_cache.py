"""Issue 31, item 5: a removal's outcome is kept per (packing, piece, model settings) and a
set-up per (seed, size, settings); what they serve is what the physics gives when run again."""

import random

import pytest

import trapworks
from trapworks.agents import make_agent
from trapworks.core import undo
from trapworks.games.booby_trap import physics


def _fields(r: physics.Removal) -> tuple:
    return (r.piece, r.travel, r.tripped, r.popped, r.after, r.steps, r.frames, r.at_rest, r.tape, r.slipped)


def test_a_cached_removal_is_the_one_the_physics_gives_again():
    state = trapworks.make("booby-trap", pieces_per_size=8).new_initial_state(4)
    rng = random.Random(4)
    packing = state.packing
    for _ in range(6):
        piece = rng.choice(packing.pieces).id
        physics.resolve_removal.cache_clear()
        first = physics.resolve_removal(packing, piece, frames=True, tape=True)
        hits = physics.resolve_removal.hits
        served = physics.resolve_removal(packing, piece, frames=True, tape=True)
        assert physics.resolve_removal.hits == hits + 1
        physics.resolve_removal.cache_clear()
        again = physics.resolve_removal(packing, piece, frames=True, tape=True)
        assert _fields(served) == _fields(first) == _fields(again)
        packing = first.after


def test_each_caller_gets_its_own_copy_and_asks_only_for_what_it_wants():
    state = trapworks.make("booby-trap", pieces_per_size=6).new_initial_state(2)
    piece = state.packing.pieces[3].id
    physics.resolve_removal.cache_clear()
    plain = physics.resolve_removal(state.packing, piece)
    assert plain.frames == [] and plain.tape == []
    drawn = physics.resolve_removal(state.packing, piece, frames=True)
    assert drawn.frames and drawn.tape == []
    drawn.frames.clear()
    assert physics.resolve_removal(state.packing, piece, frames=True).frames
    assert (drawn.travel, drawn.after) == (plain.travel, plain.after)


def test_the_cache_is_keyed_by_the_model_settings(monkeypatch):
    state = trapworks.make("booby-trap", pieces_per_size=6).new_initial_state(3)
    piece = state.packing.pieces[0].id
    calm = physics.resolve_removal(state.packing, piece)
    monkeypatch.setattr(physics, "HOLD", 0.0)  # nothing holds: a cached outcome would be wrong
    restless = physics.resolve_removal(state.packing, piece)
    assert calm.at_rest and not restless.at_rest and restless.slipped >= 1


def test_an_undo_replays_from_the_caches_to_the_same_state():
    """The web server's undo replays the game from its seed: the set-up and every removal come
    from the caches, and the state is the one the physics gives with the caches emptied."""
    game = trapworks.make("booby-trap", players=2, pieces_per_size=8)
    state = game.new_initial_state(9)
    rng = random.Random(9)
    while state.removals < 6 and not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    misses = physics.resolve_removal.misses
    hits = physics.resolve_removal.hits
    cached = undo(state, 1)
    assert physics.resolve_removal.misses == misses and physics.resolve_removal.hits >= hits + 5
    physics.resolve_removal.cache_clear()
    physics._SET_UPS.clear()
    assert undo(state, 1).position() == cached.position()


def test_the_set_ups_hold_check_leaves_the_first_touchs_reading():
    """The set-up's hold check builds and loads the very space a reading of the set-up's tray
    builds (the first touch of every game): it leaves that reading in stress_of's cache, and the
    numbers are those of a space built afresh, bit for bit; so is the touch a game reports."""
    game = trapworks.make("booby-trap", pieces_per_size=6, tension_noise=0.0)
    for seed in (21, 22, 23):
        physics.stress_of.cache_clear()
        physics._SET_UPS.clear()
        cached = game.new_initial_state(seed)
        packing = cached.packing
        [(_, at_rest, checks)] = physics._SET_UPS.values()
        assert at_rest and checks == 0  # held at the first check: the reading is the check's
        assert packing in physics.stress_of._cache
        left = physics.stress_of(packing)
        physics.stress_of.cache_clear()
        assert physics.stress_of(packing) == left
        piece = packing.pieces[seed % len(packing.pieces)].id
        seat = cached.current_player()
        cached.apply_action(piece)  # touch it: read from the set-up's reading
        physics.stress_of.cache_clear()
        physics._SET_UPS.clear()
        fresh = game.new_initial_state(seed)
        physics.stress_of.cache_clear()
        fresh.apply_action(piece)  # read from a space built for the touch
        assert cached.view(seat) == fresh.view(seat)
        assert cached.view(seat)["reading"]["reading"] == round(left.load[piece], 3)


def _caches_emptied() -> None:
    physics.resolve_removal.cache_clear()
    physics.stress_of.cache_clear()
    physics._SET_UPS.clear()


@pytest.mark.slow
def test_whole_games_with_the_caches_are_the_games_without_them_action_by_action():
    """The fast path (the set-up, removal and stress caches, the readings left by the hold checks)
    against the reference (every cache emptied before every action, so each set-up, touch and
    removal runs its physics on a fresh space): whole games, compared after every action: the
    position (every piece's stored place, the bar, scores), both seats' views and every event
    with its animation, exactly."""
    game = trapworks.make("booby-trap", players=2, pieces_per_size=8, tension_noise=0.1)
    for seed in (31, 32, 33):
        _caches_emptied()
        fast = game.new_initial_state(seed)
        agents = [make_agent(name, game, s, seed=seed + s) for s, name in enumerate(("heuristic", "random"))]
        _caches_emptied()
        reference = game.new_initial_state(seed)
        removals = 0
        while not fast.is_terminal():
            action = agents[fast.current_player()].step(fast)
            fast.apply_action(action)
            _caches_emptied()
            reference.apply_action(action)
            assert fast.position() == reference.position()
            assert [fast.view(s) for s in (0, 1)] == [reference.view(s) for s in (0, 1)]
            removals = fast.removals
        assert reference.is_terminal() and removals >= 8
        assert fast.all_events() == reference.all_events()
