"""The lean world (physics.LeanWorld: Chipmunk's calls on raw pointers) steps exactly as the
pymunk world (physics.World) it replaces for removals and stress readings: same outcome, same
packing afterwards, same frames, same contact forces, bit for bit (issue 19)."""

import random

import pytest

import trapworks
from trapworks.games.booby_trap import physics
from trapworks.games.booby_trap.game import eye


def _removal_with_pymunk_objects(packing, piece):
    """`resolve_removal` as it was before issue 19: pymunk's World, `settle` with frames."""
    world = physics.loaded_world(packing)
    start = world.bar_face()
    world.remove_piece(piece)
    frames = [physics.snapshot(world)]
    squeezed: set[int] = set()
    steps = physics.settle(world, frames=frames, squeezed=squeezed)
    at_rest = steps < physics.MAX_SETTLE_STEPS
    travel = start - world.bar_face()
    tripped = travel >= physics.MARK
    popped: tuple[int, ...] = ()
    if tripped:
        popped = tuple(sorted(pid for pid in squeezed if pid in world.bodies))
        if popped:
            for pid in popped:
                world.remove_piece(pid)
            again = physics.settle(world, frames=frames)
            at_rest = at_rest and again < physics.MAX_SETTLE_STEPS
            steps += again
            travel = start - world.bar_face()
    frames.append(physics.snapshot(world))
    return travel, tripped, popped, world.packing(), steps, frames, at_rest


@pytest.mark.parametrize("seed", [3, 11])
def test_removals_match_the_pymunk_world_bit_for_bit(seed):
    game = trapworks.make("booby-trap")
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    trips = 0
    for _ in range(12):
        pieces = [p.id for p in state.packing.pieces]
        stress = physics.stress_of(state.packing)
        # Loaded pieces too, so that some removals trip and throw pieces out.
        piece = rng.choice(pieces) if rng.random() < 0.5 else max(pieces, key=lambda p: stress.load[p])
        lean = physics.resolve_removal(state.packing, piece, frames=True, tape=True)
        want = _removal_with_pymunk_objects(state.packing, piece)
        got = (lean.travel, lean.tripped, lean.popped, lean.after, lean.steps, lean.frames, lean.at_rest)
        assert got == want
        assert [physics.frame_of(t) for t in lean.tape] == lean.frames
        trips += lean.tripped
        state.packing = lean.after
    assert trips >= 1


def test_stress_matches_the_pymunk_world():
    packing = trapworks.make("booby-trap").new_initial_state(5).packing
    world = physics.loaded_world(packing)
    spring = physics.spring_force(world.bar_face())
    raw = world.contact_forces()
    want = tuple(sorted((a, b, f / spring) for (a, b), f in raw.items() if f > 0.0))
    physics.stress_of.cache_clear()
    assert physics.stress_of(packing).contacts == want


def test_a_removal_event_makes_its_frames_only_when_read():
    state = trapworks.make("booby-trap").new_initial_state(3)
    piece = state.packing.pieces[0].id
    expected = physics.resolve_removal(state.packing, piece, frames=True)
    state.apply_action(piece)
    state.apply_action(state.game.remove_action)
    lazy = next(e for e in state._events if e["type"] == "removal")
    assert not isinstance(lazy["frames"], list)  # nothing made yet
    event = next(e for e in state.last_events() if e["type"] == "removal")
    assert isinstance(event["frames"], list) and 2 <= len(event["frames"]) <= 60
    first = expected.frames[0]
    by_eye = [[i, eye(x), eye(y)] for i, x, y in first["pieces"]]
    assert event["frames"][0] == {"bar": eye(first["bar"]), "pieces": by_eye}
