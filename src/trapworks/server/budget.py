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

`burst` paces the budget as well: without it a flood takes the whole window's budget in its
first second, and creating a game is work on the event loop (the game set up, its row written),
so 120 creations at once stalled every player's moves for over a second (bench/creation_flood.py,
p99 1.7 s). With it, once `pace_from` addresses or more have used the window (a flood; one
player making game after game, or a few, is never paced), the budget comes back at
per_window / window_s a second into a bucket of `burst`; the last two tokens are kept for
addresses with nothing in the window, as above.
"""

from __future__ import annotations

import time
from collections import Counter, deque


class FairBudget:
    def __init__(
        self, per_window: int, window_s: float = 60.0, burst: int | None = None, pace_from: int = 5
    ) -> None:
        self.per_window = per_window
        self.window_s = window_s
        self.burst = burst
        self.pace_from = pace_from
        self.tokens = float(burst or 0)
        self.tokens_at: float | None = None
        self.events: deque[tuple[float, str]] = deque()
        self.counts: Counter[str] = Counter()

    def _trim(self, now: float) -> None:
        while self.events and self.events[0][0] <= now - self.window_s:
            _t, address = self.events.popleft()
            self.counts[address] -= 1
            if self.counts[address] <= 0:
                del self.counts[address]

    def take(self, address: str, now: float | None = None, *, dry: bool = False) -> int | None:
        """Take one from the budget for `address`: None if granted, else the seconds to wait.
        `dry`: only say whether it would be granted, taking nothing (bounds.py's early refusal)."""
        now = time.monotonic() if now is None else now
        self._trim(now)
        used = len(self.events)
        if used >= self.per_window:  # (a budget of 0: nothing leaves the window, its length)
            return int(self.events[0][0] + self.window_s - now) + 1 if self.events else int(self.window_s)
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
        flood = len(self.counts) + (not mine_now) >= self.pace_from
        if (
            self.burst is not None
            and flood
            and (wait := self._pace(now, newcomer=not mine_now, dry=dry)) is not None
        ):
            return wait
        if dry:
            return None
        self.events.append((now, address))
        self.counts[address] += 1
        return None

    def _pace(self, now: float, newcomer: bool, dry: bool = False) -> int | None:
        """Take a token (`dry`: none), or the seconds until there is one for this address."""
        assert self.burst is not None
        rate = self.per_window / self.window_s
        if self.tokens_at is not None:
            self.tokens = min(float(self.burst), self.tokens + (now - self.tokens_at) * rate)
        self.tokens_at = now
        need = 1.0 if newcomer else 1.0 + min(2.0, self.burst - 1.0)
        if self.tokens < need:
            return int((need - self.tokens) / rate) + 1
        if not dry:
            self.tokens -= 1.0
        return None

    def give_back(self, address: str, at: float) -> None:
        """An event that did not happen after all (the request was refused further in)."""
        try:
            self.events.remove((at, address))
        except ValueError:
            return
        if self.burst is not None:
            self.tokens = min(float(self.burst), self.tokens + 1.0)
        self.counts[address] -= 1
        if self.counts[address] <= 0:
            del self.counts[address]
