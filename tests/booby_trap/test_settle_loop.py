"""Issue 42 item 5: the settle and warm-up loops in C (`_worldcopy.c`: settle, warm_up, run) make
the very Chipmunk calls the Python loops make, with the same arithmetic, so the physics decides
exactly what it decided before: seeded games as `simulate` plays them give the rows, removals and
trays stored with the code before (tests/booby_trap/data/sim-games.json, make_sim_games.py), and
the two loops give the same steps, animation, squeezed pieces and trays, bit for bit."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path

import pytest
from make_sim_games import play

from trapworks.games.booby_trap import physics

STORED = Path(__file__).resolve().parent / "data" / "sim-games.json"

needs_loop = pytest.mark.skipif(physics._steps is None, reason="the compiled settle loop is not built")


def clear() -> None:
    physics.world_copies.clear()
    physics.resolve_removal.cache_clear()
    physics.stress_of.cache_clear()
    physics._SET_UPS.clear()


@pytest.fixture
def fresh_caches():
    """Every cache emptied before and after: every removal below runs its physics."""
    clear()
    yield
    clear()


@pytest.mark.parametrize("k", range(3), ids=["default-random", "3p-heuristic", "no-passes-heuristic"])
def test_seeded_games_are_the_games_stored_with_the_code_before(fresh_caches, k):
    stored = json.loads(STORED.read_text())[k]
    got = play(stored["options"], stored["seats"], stored["seed"])
    assert got["removals"] == stored["removals"]
    assert got["row"] == stored["row"]


def removal_fields(r: physics.Removal) -> tuple:
    return (r.piece, r.travel, r.tripped, r.popped, r.after, r.steps, r.tape, r.at_rest, r.slipped)


def removals(packing: physics.Packing, pieces: list[int]) -> list[tuple]:
    """Each piece taken out of the same tray (no cache between them: every one is run)."""
    out = []
    for pid in pieces:
        physics.resolve_removal.cache_clear()
        out.append(removal_fields(physics.resolve_removal(packing, pid, tape=True)))
    return out


@needs_loop
def test_the_compiled_loop_resolves_removals_as_the_python_loop(fresh_caches, monkeypatch):
    """Every piece of a small tray taken out in turn, and a game's removals on a full tray, with
    each loop: the same travel, trips, thrown-out pieces, trays, steps and animation. The sample
    holds trips that throw pieces out (the squeeze test's callback) and kept removals."""
    small = physics.set_up(4, 6)
    rng = random.Random(4)
    full = physics.set_up(21)
    full_pieces = [p.id for p in rng.sample(full.pieces, 8)]
    compiled = removals(small, [p.id for p in small.pieces]) + removals(full, full_pieces)
    clear()
    monkeypatch.setattr(physics, "_steps", None)
    python = removals(small, [p.id for p in small.pieces]) + removals(full, full_pieces)
    assert compiled == python
    assert any(r[2] and r[3] for r in compiled), "no trip threw a piece out: the squeeze test went untried"
    assert any(not r[2] for r in compiled)


@needs_loop
def test_the_compiled_warm_up_and_steps_are_the_python_ones(monkeypatch):
    packing = physics.set_up(9, 5)

    def run() -> tuple:
        with physics.LeanWorld(packing) as world:
            world.warm_up()
            loaded = world.packing(), world.contact_forces()
            world.remove_piece(packing.pieces[0].id)
            world.run(300)
            return loaded, world.packing(), world.tape()

    compiled = run()
    monkeypatch.setattr(physics, "_steps", None)
    assert run() == compiled


@needs_loop
def test_the_compiled_settle_refuses_a_check_interval_of_zero(monkeypatch):
    packing = physics.set_up(9, 4)
    monkeypatch.setattr(physics, "SETTLE_CHECK_EVERY", 0)
    with physics.LeanWorld(packing) as world, pytest.raises(ValueError, match="at least 1 step"):
        world.settle()


@needs_loop
def test_other_threads_run_while_the_compiled_loop_steps(monkeypatch):
    """The server applies moves in a thread pool: while one thread's tray settles, the others run
    (as they did while each cffi call stepped), so the loop lets the GIL go while it steps. Here
    the main thread watches the animation grow while a thread settles a tray that never comes to
    rest: it sees it part-way, not only before and after."""
    packing = physics.set_up(9, 4)
    monkeypatch.setattr(physics, "REST_SPEED", 0.0)  # never at rest: the settle runs its cap
    tape: list = []
    started = threading.Event()

    def settle() -> None:
        with physics.LeanWorld(packing) as world:
            world.warm_up()
            started.set()
            world.settle(max_steps=40_000, tape=tape)

    worker = threading.Thread(target=settle)
    worker.start()
    started.wait()
    seen = set()
    while worker.is_alive():
        seen.add(len(tape))
        time.sleep(0.001)
    worker.join()
    assert len(tape) == 40_000 // physics.FRAME_EVERY
    part_way = {n for n in seen if 0 < n < len(tape)}
    assert len(part_way) >= 2, seen
