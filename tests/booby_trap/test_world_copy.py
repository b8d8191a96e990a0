"""Issue 31, item 5: a removal starts from the loaded tray its hold check kept (an exact copy of a
Chipmunk space, `_worldcopy.c`) instead of loading the stored tray again. The copy must step as
the original does, bit for bit, so every removal's outcome is the one a rebuild gives."""

import random

import pymunk
import pytest

from trapworks.games.booby_trap import physics

needs_copy = pytest.mark.skipif(
    physics._worldcopy is None or pymunk.version != physics.WORLD_COPY_PYMUNK,
    reason=f"the world copy is built for pymunk {physics.WORLD_COPY_PYMUNK} with the C extension",
)


@pytest.fixture
def fresh_caches():
    """Every cache emptied before and after: each removal below runs its physics."""

    def clear():
        physics.world_copies.clear()
        physics.resolve_removal.cache_clear()
        physics.stress_of.cache_clear()
        physics._SET_UPS.clear()

    clear()
    yield
    physics.world_copies.size = 32
    clear()


def removal_fields(r: physics.Removal) -> tuple:
    return (r.piece, r.travel, r.tripped, r.popped, r.after, r.steps, r.tape, r.at_rest, r.slipped)


def play_out(seed: int, removals: int) -> list[tuple]:
    """Random removals from one set-up, each from the tray the last one left (as a game goes)."""
    rng = random.Random(seed)
    packing = physics.set_up(seed)
    out = []
    for _ in range(removals):
        removal = physics.resolve_removal(packing, rng.choice(packing.pieces).id, tape=True)
        out.append(removal_fields(removal))
        packing = removal.after
    return out


@needs_copy
@pytest.mark.parametrize("seed", [3, 11])
def test_removals_from_kept_copies_equal_removals_from_rebuilt_trays(fresh_caches, seed):
    """The same removals with the copies (every removal after the first takes the world its
    hold check kept) and without (size 0: every removal loads its tray): the same outcomes,
    travel, pops, stored trays, steps and animation, bit for bit."""
    physics.world_copies.size = 0
    rebuilt = play_out(seed, 14)
    assert physics.world_copies.taken == 0

    physics.resolve_removal.cache_clear()
    physics.stress_of.cache_clear()
    physics._SET_UPS.clear()
    physics.world_copies.size = 32
    copied = play_out(seed, 14)
    assert physics.world_copies.taken == 14  # the set-up's hold check kept the first one
    assert copied == rebuilt


@needs_copy
def test_the_self_check_passes_on_set_up_trays(fresh_caches):
    for seed in (0, 1):
        packing = physics.set_up(seed)
        with physics.LeanWorld(packing) as world:
            world.warm_up()
            assert physics.copy_checks_out(world, steps=120)
    assert physics.world_copies.available()


@needs_copy
def test_a_copy_steps_as_its_original_and_leaves_it_unchanged(fresh_caches):
    packing = physics.set_up(4)
    with physics.LeanWorld(packing) as original, physics.LeanWorld(packing) as reference:
        original.warm_up()
        reference.warm_up()
        with original.copy() as twin:
            runs = []
            for world in (original, twin, reference):
                world.remove_piece(packing.pieces[0].id)
                steps = world.settle()
                runs.append((steps, world.packing(), world.tape()))
    assert runs[0] == runs[1] == runs[2]


@needs_copy
def test_what_cannot_be_copied_is_refused_by_name(fresh_caches):
    packing = physics.set_up(5)
    with physics.LeanWorld(packing) as world:
        world.warm_up()
        world.remove_piece(packing.pieces[0].id)
        with pytest.raises(ValueError, match="pieces removed"):
            world.copy()
    other = packing.without([packing.pieces[1].id])
    with physics.LeanWorld(packing) as world, physics.LeanWorld(other) as unlike:
        world.warm_up()
        with pytest.raises(ValueError, match="not built alike"):
            physics._worldcopy.copy_state(physics._address(world.space), physics._address(unlike.space))
    with physics.LeanWorld(packing) as world, physics.LeanWorld(packing) as stepped:
        world.warm_up()
        stepped.step()
        with pytest.raises(ValueError, match="has been stepped"):
            physics._worldcopy.copy_state(physics._address(world.space), physics._address(stepped.space))


@needs_copy
def test_kept_worlds_are_bounded_and_freed(fresh_caches):
    physics.world_copies.size = 3
    packing = physics.set_up(6)
    trays = [packing.without([p.id]) for p in packing.pieces[:5]]
    for tray in trays:
        with physics.LeanWorld(tray) as world:
            world.warm_up()
            physics.world_copies.keep(world)
    assert len(physics.world_copies._worlds) == 3
    assert physics.world_copies.take(trays[0]) is None  # the oldest were let go
    kept = physics.world_copies.take(trays[4])
    assert kept is not None and kept.loaded and kept.built_from == trays[4]
    kept.close()
    assert physics.world_copies.take(trays[4]) is None  # taken once


def test_without_the_extension_nothing_is_kept_and_removals_still_run(fresh_caches, monkeypatch):
    monkeypatch.setattr(physics, "_worldcopy", None)
    monkeypatch.setattr(physics, "world_copies", physics._WorldCopies())
    packing = physics.set_up(7)
    removal = physics.resolve_removal(packing, packing.pieces[0].id)
    assert not physics.world_copies.available()
    assert physics.world_copies.kept == physics.world_copies.taken == 0
    assert removal.after.pieces and removal.at_rest


def scattered(seed: int, count: int = 40) -> physics.Packing:
    """Pieces dropped apart over the long strip with the bar pulled back (as the set-up drops
    them): released, the bar sweeps them together and every piece moves a long way."""
    rng = random.Random(seed)
    placed: list[physics.Piece] = []
    while len(placed) < count:
        size = physics.SIZES[len(placed) % 3]
        r = physics.RADIUS[size]
        x, y = rng.uniform(r, physics.MIX_LENGTH - r), rng.uniform(r, physics.TRAY_WIDTH - r)
        if all((x - q.x) ** 2 + (y - q.y) ** 2 >= (r + q.radius + 0.5) ** 2 for q in placed):
            placed.append(physics.Piece(len(placed), size, x, y))
    return physics.Packing(tuple(placed), physics.MIX_LENGTH)


@needs_copy
def test_a_copy_of_a_world_in_motion_steps_as_its_original(fresh_caches):
    """Copied in the middle of a sweep (the tree of boxes has been rebuilt many times, pairs
    made and dropped, contacts cached and let go), the copy goes on exactly as the original."""
    with physics.LeanWorld(scattered(8)) as world:
        for _ in range(150):
            world.step()
        assert world.max_speed() > 10 * physics.REST_SPEED  # still moving
        with world.copy() as twin:
            runs = []
            for w in (world, twin):
                tape = []
                for _ in range(200):
                    w.step()
                    tape.append(w.tape())
                runs.append((tape, w.packing(), w.contact_forces()))
    assert runs[0] == runs[1]


def test_the_copy_is_built_and_used_wherever_a_compiler_was(fresh_caches):
    """CI proves the copy is in use: where Last Mouse Lost's extension was built (a compiler and
    Python's headers were there), this one was too, and with the pymunk it is written for it
    passes its self-check."""
    from trapworks.games.last_mouse_lost import game as lml_game

    if lml_game._fastlml is None:
        pytest.skip("no compiled extension here (no compiler, or TRAPWORKS_PURE_PYTHON is set)")
    assert physics._worldcopy is not None
    if pymunk.version != physics.WORLD_COPY_PYMUNK:
        pytest.skip(f"pymunk {pymunk.version}: the copy is written for {physics.WORLD_COPY_PYMUNK}")
    packing = physics.set_up(9)
    physics.resolve_removal(packing, packing.pieces[0].id)
    assert physics.world_copies.available()
    assert physics.world_copies.taken == 1
