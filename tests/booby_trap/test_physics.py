"""The tray model on constructed positions and on seeded set-ups (issue 5, "Must show")."""

import pytest
from bt_helpers import MID, arch_layout, bar_travel_without_removal, constructed, piece_at, support_layout

import trapworks
from trapworks.games.booby_trap import physics
from trapworks.games.booby_trap.physics import MARK, TRAY_WIDTH


def test_no_removal_bar_stays_at_rest_on_an_arch():
    tray, bar, _ = arch_layout()
    state = constructed(tray, bar, per_size=8)
    assert abs(bar_travel_without_removal(state.packing)) < 0.01 * MARK


@pytest.mark.parametrize("seed", [0, 1])
def test_no_removal_bar_stays_at_rest_on_a_seeded_setup(seed):
    state = trapworks.make("booby-trap").new_initial_state(seed)
    assert abs(bar_travel_without_removal(state.packing)) < 0.05 * MARK


def test_removing_a_free_piece_does_not_trip():
    tray, bar, _ = arch_layout()
    state = constructed(tray, bar, per_size=8)
    free = piece_at(state, 30.0, MID)
    assert physics.stress_of(state.packing).load[free] == 0.0
    result = physics.resolve_removal(state.packing, free)
    assert not result.tripped
    assert abs(result.travel) < 0.01 * MARK
    assert result.popped == ()


def test_removing_the_keystone_of_a_load_bearing_arch_trips():
    tray, bar, key = arch_layout()
    state = constructed(tray, bar, per_size=8)
    keystone = piece_at(state, *key)
    stress = physics.stress_of(state.packing)
    # The keystone carries the bar: its load is at least the spring's whole force.
    assert stress.load[keystone] >= 0.99
    assert any(a == -1 and b == keystone and f > 0.99 for a, b, f in stress.contacts)
    result = physics.resolve_removal(state.packing, keystone)
    assert result.tripped
    assert result.travel >= MARK


def test_a_bar_that_moves_less_than_a_mark_does_not_trip():
    # The middle column carries the bar; a column 3 mm shorter beside it catches the bar.
    tray, bar = support_layout("LMSS")
    state = constructed(tray, bar)
    result = physics.resolve_removal(state.packing, piece_at(state, 57.0, MID))
    assert 0.1 * MARK < result.travel < MARK
    assert not result.tripped


def test_a_bar_that_moves_a_mark_or_more_trips():
    tray, bar = support_layout("LLM")  # the catching column is 9 mm short of the bar
    state = constructed(tray, bar)
    result = physics.resolve_removal(state.packing, piece_at(state, 57.0, MID))
    assert result.travel >= MARK and result.tripped


def test_removal_is_deterministic_and_depends_on_the_packing_only():
    state = trapworks.make("booby-trap").new_initial_state(3)
    stress = physics.stress_of(state.packing)
    loaded = max(stress.load, key=lambda p: (stress.load[p], -p))
    a = physics.resolve_removal(state.packing, loaded, frames=True)
    physics.resolve_removal.cache_clear()  # computed again, not served from the removal cache
    b = physics.resolve_removal(state.packing, loaded, frames=True)
    assert a.after == b.after and a.travel == b.travel and a.popped == b.popped and a.frames == b.frames


def test_setup_is_seeded_and_packs_the_pieces_under_the_bar():
    game = trapworks.make("booby-trap")
    a = game.new_initial_state(5).packing
    assert a == game.new_initial_state(5).packing
    assert a != game.new_initial_state(6).packing
    for p in a.pieces:
        assert p.radius - 0.5 <= p.x <= a.bar - p.radius + 0.5
        assert p.radius - 0.5 <= p.y <= TRAY_WIDTH - p.radius + 0.5
    # Packed: the bar is much nearer the far wall than where the pieces were dropped.
    assert a.bar < physics.BAR_BACK


def test_frames_ride_on_the_removal_and_end_at_the_new_packing():
    tray, bar, key = arch_layout()
    state = constructed(tray, bar, per_size=8)
    keystone = piece_at(state, *key)
    state.apply_action(keystone)
    state.apply_action(state.game.remove_action)
    event = next(e for e in state.last_events() if e["type"] == "removal")
    frames = event["frames"]
    assert 2 <= len(frames) <= 60
    assert frames[0]["bar"] == pytest.approx(bar, abs=0.5)
    # Frames go to every seat: at the eye's resolution (game.EYE_MM).
    assert frames[-1]["bar"] == pytest.approx(state.packing.bar, abs=0.25)
    assert {p[0] for p in frames[-1]["pieces"]} == {p.id for p in state.packing.pieces}
    assert keystone not in {p[0] for p in frames[0]["pieces"]}
