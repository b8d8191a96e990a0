"""Python's cyclic garbage collector, tuned for a long-running game server.

Left alone, the collector stalled every game at once under load: a server's heap is mostly
long-lived (modules, the app, the games in play, their move tables), and the older generations'
collections walked all of it again and again (measured: 50-250 ms pauses, several a minute, each
one a spike in every player's latency). The policy here:

- at start-up, and then every `FREEZE_EVERY_S` seconds while the server is busy, collect the
  young generations and *freeze* what survives (`gc.freeze()`): frozen objects are never walked
  again, so collections only ever look at what is new;
- the collector's own full collections are switched off (they came in bursts when play began:
  the move tables of new positions are many new long-lived objects); the young generations are
  still collected automatically;
- reference counting still frees almost everything as soon as it is dropped; what freezing can
  hold back is *cyclic* garbage among frozen objects (e.g. a long-closed connection's objects).
  So once the server has been idle for `IDLE_S` seconds, and in any case every `FULL_EVERY_S`
  seconds, it unfreezes everything and runs one full collection (a pause of the old kind, rare,
  and when nobody is waiting if it can).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import time
from typing import Any

FREEZE_EVERY_S = 1.0
IDLE_S = 2.0
FULL_EVERY_S = 600.0
NEVER = 1_000_000_000  # young collections between two automatic full ones: never, in practice
TRIM_EVERY_S = 5.0  # i40: at most this often, while idle, freed heap is handed back to the system
CLOSE_WAVE = 20  # i40: sockets closed since the last look that make an idle node collect in full


def _malloc_trim() -> Any:
    """glibc's malloc_trim (None elsewhere): the C heap keeps what Python frees (a closed socket's
    buffers, its tasks) for reuse; trimming gives the free pages back to the system, so the
    memory of sockets that closed shows as free again (BENCHMARKS.md, bench/socket_memory.py)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc.malloc_trim
    except (OSError, AttributeError):
        return None


_TRIM = _malloc_trim()


def give_back() -> None:
    if _TRIM is not None:
        _TRIM(0)


class GarbagePolicy:
    def __init__(self, last_activity, sockets=None):
        self._last_activity = last_activity  # () -> monotonic time of the last game created or move
        self._sockets = sockets  # () -> game sockets open now (None: not followed)
        self._sockets_seen = 0  # the most open since the last full collection
        self._task: asyncio.Task | None = None
        self.full_collections = 0
        self.freezes = 0
        self._last_full = self._last_trim = 0.0
        self._frozen_since_full = False

    def start(self) -> None:
        gc.collect()
        gc.freeze()
        self._thresholds = gc.get_threshold()
        # The oldest generation is collected only by this policy (see the module's docstring).
        gc.set_threshold(self._thresholds[0], self._thresholds[1], NEVER)
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            gc.set_threshold(*self._thresholds)
        gc.unfreeze()

    def _closed_a_wave(self) -> bool:
        """CLOSE_WAVE sockets or more closed since the most seen (the count then starts afresh)."""
        if self._sockets is None:
            return False
        open_now = self._sockets()
        if open_now > self._sockets_seen:
            self._sockets_seen = open_now
            return False
        if self._sockets_seen - open_now >= CLOSE_WAVE:
            self._sockets_seen = open_now
            return True
        return False

    async def _run(self) -> None:
        self._last_full = time.monotonic()
        self._last_trim = 0.0
        self._frozen_since_full = False
        while True:
            await asyncio.sleep(FREEZE_EVERY_S)
            self.tick(time.monotonic())

    def tick(self, now: float) -> None:
        idle = now - self._last_activity() >= IDLE_S
        # i40: a wave of sockets closed: their cycles sit in the young generations (too few
        # allocations since to collect them) or frozen, so the trim found nothing to give back
        # (bench/socket_memory.py: 0 of 45 MiB). Collect everything, then trim at once.
        wave = idle and self._closed_a_wave()
        if wave or (self._frozen_since_full and (idle or now - self._last_full >= FULL_EVERY_S)):
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            self._last_full, self._frozen_since_full = now, False
            self.full_collections += 1
        elif idle and gc.get_count()[2] > 0:
            # i40: nothing frozen, but the young collections moved objects into the oldest
            # generation, which only this policy collects: sockets opened and closed while no move
            # was made (spectators, lobby pages) left their cycles there for good, and the trim
            # below could give none of it back. Only the unfrozen objects are walked: cheap.
            gc.collect()
            self._last_full = now
            self.full_collections += 1
        if wave or (idle and now - self._last_trim >= TRIM_EVERY_S):  # i40
            self._last_trim = now
            give_back()
        elif not idle:
            gc.collect(1)  # the young generations only: everything older is frozen
            gc.freeze()
            self._frozen_since_full = True
            self.freezes += 1
