"""The server's garbage-collection policy: freeze survivors while games are played, a full
collection (everything unfrozen) once the server is idle."""

import asyncio
import gc
import time
import weakref

from trapworks.server import memory


def test_survivors_are_frozen_during_play_and_collected_in_full_when_idle(monkeypatch):
    monkeypatch.setattr(memory, "FREEZE_EVERY_S", 0.01)
    monkeypatch.setattr(memory, "IDLE_S", 0.2)
    activity = {"at": time.monotonic()}

    class Cycle:  # cyclic garbage: only the collector frees it
        def __init__(self):
            self.me = self

    async def scenario():
        policy = memory.GarbagePolicy(lambda: activity["at"])
        policy.start()
        try:
            garbage = []
            for _ in range(10):  # "playing": moves keep coming
                activity["at"] = time.monotonic()
                garbage.append(Cycle())
                await asyncio.sleep(0.02)
            assert policy.freezes > 0 and gc.get_freeze_count() > 0
            full_during_play = policy.full_collections
            alive = [weakref.ref(c) for c in garbage]
            activity["at"] = time.monotonic()  # still playing (however slow this machine is)
            del garbage[:]  # these cycles were frozen: only a full collection can free them
            gc.collect(1)  # what play triggers: young collections never reach frozen objects
            assert any(ref() is not None for ref in alive)  # still held by their cycles
            # Idle: the policy unfreezes and collects everything (waited for, not timed: a
            # loaded machine may take longer than IDLE_S to get there).
            deadline = time.monotonic() + 10
            while policy.full_collections == full_during_play and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert policy.full_collections > full_during_play
            assert all(ref() is None for ref in alive)
        finally:
            await policy.stop()

    try:
        asyncio.run(scenario())
    finally:
        gc.unfreeze()
    assert gc.get_freeze_count() == 0


def test_an_idle_node_collects_the_cycles_its_young_collections_moved_to_the_oldest_generation():
    """Issue 40 (memory after sockets close): sockets opened and closed while no move is made
    leave their cycles in the oldest generation, which only the policy collects; before, an idle
    node that had frozen nothing never collected it (and the trim could give none of it back)."""

    class Cycle:
        pass

    policy = memory.GarbagePolicy(lambda: 0.0)  # the last move long ago: idle
    gc.collect()
    was = gc.get_threshold()
    gc.set_threshold(was[0], was[1], 1_000_000_000)  # as the policy runs it: no automatic full one
    try:
        held = Cycle()
        held.me = held  # a cycle, as a closed socket's coroutines and protocol objects are
        gone = weakref.ref(held)
        gc.collect(1)  # the young collections move it to the oldest generation while it is used
        del held  # the socket closes
        gc.collect(1)
        assert gone() is not None  # the young collections never free it
        policy.tick(1000.0)
        assert gone() is None
    finally:
        gc.set_threshold(*was)


def test_an_idle_node_collects_and_trims_once_a_wave_of_sockets_closed(monkeypatch):
    """Issue 40 (memory given back after sockets close): the closed sockets' cycles were left in
    the young generations, which too few allocations followed to collect, so the idle trim had
    nothing to give back (bench/socket_memory.py: 0 of 45 MiB). Once CLOSE_WAVE sockets closed,
    an idle node collects in full and trims. Failed before: the cycle outlived the tick."""

    class Cycle:
        pass

    trims: list[int] = []
    monkeypatch.setattr(memory, "give_back", lambda: trims.append(1))
    open_now = {"n": 100}
    policy = memory.GarbagePolicy(lambda: 0.0, lambda: open_now["n"])  # idle: no move for long
    policy.tick(1000.0)  # sees 100 sockets open
    gc.collect()
    held = Cycle()
    held.me = held  # a closed socket's protocol and coroutines hold each other
    gone = weakref.ref(held)
    del held
    trims.clear()
    open_now["n"] = 100 - memory.CLOSE_WAVE + 1  # fewer than a wave closed: nothing yet
    policy.tick(1000.5)
    assert gone() is not None and not trims
    open_now["n"] = 100 - memory.CLOSE_WAVE
    policy.tick(1001.0)
    assert gone() is None and trims == [1]
    gc.unfreeze()
