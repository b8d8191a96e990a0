"""A node-wide budget shared fairly between client addresses (issue 40).

Per-address bounds (bounds.py) stop one address; a flood from many addresses gets past them.
`FairBudget` caps what all addresses together may do in a sliding window (games created, sockets
opened: `Bounds.games_per_minute_total`, `Bounds.socket_opens_per_minute_total`) and shares it:
while less than half of it is used anyone may go on; past half, an address that has already taken
its fair share (the budget divided by the addresses active in the window, plus one for a
newcomer) waits, and the last tenth is kept for addresses with nothing in the window: a normal
player still gets in while the flooders are held back. When it is all used everyone waits (429
with Retry-After). The figure for the creation flood is in BENCHMARKS.md
(bench/creation_flood.py).
"""

from __future__ import annotations

import time
from collections import Counter, deque


class FairBudget:
    def __init__(self, per_window: int, window_s: float = 60.0) -> None:
        self.per_window = per_window
        self.window_s = window_s
        self.events: deque[tuple[float, str]] = deque()
        self.counts: Counter[str] = Counter()

    def _trim(self, now: float) -> None:
        while self.events and self.events[0][0] <= now - self.window_s:
            _t, address = self.events.popleft()
            self.counts[address] -= 1
            if self.counts[address] <= 0:
                del self.counts[address]

    def take(self, address: str, now: float | None = None) -> int | None:
        """Take one from the budget for `address`: None if granted, else the seconds to wait."""
        now = time.monotonic() if now is None else now
        self._trim(now)
        used = len(self.events)
        if used >= self.per_window:
            return int(self.events[0][0] + self.window_s - now) + 1
        mine_now = self.counts[address]
        # The last tenth is kept for addresses that have had nothing in the window (a player
        # who comes during a flood); past half, nobody takes more than a fair share.
        if mine_now and (
            used * 10 >= self.per_window * 9
            or (used * 2 >= self.per_window and mine_now >= self.per_window / (len(self.counts) + 1))
        ):
            # Past its share: its own oldest event leaving the window gives room back.
            mine = next(t for t, a in self.events if a == address)
            return int(mine + self.window_s - now) + 1
        self.events.append((now, address))
        self.counts[address] += 1
        return None

    def give_back(self, address: str, at: float) -> None:
        """An event that did not happen after all (the request was refused further in)."""
        try:
            self.events.remove((at, address))
        except ValueError:
            return
        self.counts[address] -= 1
        if self.counts[address] <= 0:
            del self.counts[address]
