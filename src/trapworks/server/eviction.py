"""Games in memory are bounded: a game nobody uses is evicted to the store and reloaded on demand.

Every game is in the store (its actions, control, seats: everything acknowledged was committed),
and `GameService.get` already rebuilds a game that is not in memory from the store, as after a
restart. So evicting a game is dropping it from `service.live`, when nothing in memory still
needs it: no open socket, no move or timer in progress (its lock free, no clock timer running,
no agent or chance to move; a hand-over watch only tells open pages, and there are none) and
no change (a new action, a socket) and no request for it (`service.get`) for `idle_s`.
Beyond `max_games` in memory, idle games are evicted oldest first even before `idle_s`.

`Evictor.start()` runs the sweep every `sweep_s` in the event loop (create_app starts it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from typing import Any

log = logging.getLogger("trapworks.server")

IDLE_S = float(os.environ.get("TRAPWORKS_BOUND_GAME_IDLE_S", 45.0))
SWEEP_S = float(os.environ.get("TRAPWORKS_BOUND_GAME_SWEEP_S", 5.0))
MAX_GAMES = int(os.environ.get("TRAPWORKS_BOUND_GAMES_IN_MEMORY", 5000))


class Evictor:
    def __init__(
        self, service: Any, *, idle_s: float = IDLE_S, sweep_s: float = SWEEP_S, max_games: int = MAX_GAMES
    ) -> None:
        self.service = service
        self.idle_s = idle_s
        self.sweep_s = sweep_s
        self.max_games = max_games
        self._last: dict[str, tuple[int, float]] = {}  # game id -> (ply, since when unchanged)
        self._task: asyncio.Task | None = None
        self.evicted = 0

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        # A task of an earlier run of the app (another event loop, e.g. a test client opened
        # again) is replaced: it can neither run nor be awaited here.
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            self._task = loop.create_task(self._run())

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        if task.get_loop() is asyncio.get_running_loop():
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_s)
            try:
                self.sweep()
            except Exception:  # never stop sweeping for one odd game
                log.exception("evicting idle games failed")

    def busy(self, live: Any) -> bool:
        """Whether something in memory still needs this game."""
        if live.connections or live.lock.locked():
            return True
        if any(feature.busy(live) for feature in self.service.features):
            return True  # a feature's timer (the clock's) still runs
        try:
            return bool(live.needs_server())
        except Exception:
            return True

    def sweep(self, now: float | None = None) -> int:
        """Evict what may be evicted now; the number evicted."""
        now = time.monotonic() if now is None else now
        live_games = self.service.live
        idle: list[tuple[float, str]] = []
        for gid, live in list(live_games.items()):
            ply = live.ply()
            seen = self._last.get(gid)
            if seen is None or seen[0] != ply or live.connections:
                self._last[gid] = seen = (ply, now)
            # Unused since: the last change seen, or the last time anything asked for the game
            # (service.get; a socket's handler between its get and its connection is covered).
            since = max(seen[1], getattr(live, "used", 0.0))
            if not live.connections and not self.busy(live):
                idle.append((since, gid))
        for gid in list(self._last):
            if gid not in live_games:
                del self._last[gid]
        idle.sort()
        over = max(0, len(live_games) - self.max_games)
        out = 0
        for since, gid in idle:
            if now - since >= self.idle_s or out < over:
                live = live_games.get(gid)
                if live is not None:  # its features' timers stop (none is needed: not busy)
                    self.service.drop(live)
                self._last.pop(gid, None)
                out += 1
        self.evicted += out
        return out
