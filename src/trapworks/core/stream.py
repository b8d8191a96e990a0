"""The random stream of the batched engines (games/*/batch.py), in Python: SplitMix64, one stream
per game seeded with its seed. The engines draw from the same stream in compiled code
(core/stream_jit.py), so that the kernel's agents, given this stream, play the engines' games
move for move (the engines' tests).

The draws, here and in the engines alike: a uniform choice among n takes item
`((draw >> 32) * n) >> 32` (`below`); a float in [0, 1) is `(draw >> 11) / 2**53` (`random`); a
chance node takes the outcome `bisect(cum, u * cum[-1])` of the kernel's own `chance_table()`
(`sample_chance_from_stream`)."""

from __future__ import annotations

import random
from bisect import bisect
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import State

_MASK64 = (1 << 64) - 1


class SharedStream(random.Random):
    """The batched engine's per-game random stream (SplitMix64), as a `random.Random`: the kernel's
    agents, chance draws and shuffles take it as their generator (`choice`, `randrange` and
    `shuffle` take `below`, `random()` the engine's float), so the kernel plays a game of the
    engine's draw for draw; the environments' generator (`env_stream`)."""

    def __init__(self, seed: int = 0):
        super().__init__(seed)

    def seed(self, a: Any = 0, version: int = 2) -> None:  # random.Random.__init__ calls it
        self.state = int(a) & _MASK64
        self.gauss_next = None

    def getstate(self) -> Any:
        return self.state, self.gauss_next

    def setstate(self, state: Any) -> None:
        self.state, self.gauss_next = state

    def next(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return ((self.next() >> 32) * n) >> 32

    def _randbelow(self, n: int) -> int:  # what choice, randrange and shuffle draw with
        if n > 1 << 32:
            return self._randbelow_with_getrandbits(n)  # type: ignore[attr-defined, no-any-return]
        return self.below(n)

    def random(self) -> float:
        """A float in [0, 1), as the engines draw one."""
        return (self.next() >> 11) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int) -> int:
        """k random bits: whole 64-bit draws, the last one's top bits."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        bits = 0
        for shift in range(0, k, 64):
            bits |= (self.next() >> max(0, 64 - (k - shift))) << shift
        return bits


def env_stream(seed: int | None) -> SharedStream:
    """The stream of an environment reset with `seed` (None: fresh entropy): environment i of a
    vector environment reset with seed s draws from `env_stream(s + i)`, as the single
    environment reset with s + i does (what Gymnasium's SyncVectorEnv gives environment i)."""
    return SharedStream(env_stream_seed(seed))


def env_stream_seed(seed: int | None) -> int:
    """`env_stream`'s SplitMix64 seed: `seed` through NumPy's SeedSequence (any non-negative
    integer, spread over 64 bits; None: fresh entropy)."""
    import numpy as np

    return int(np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0])


def stream_random(stream: SharedStream) -> float:
    """A float in [0, 1) from the stream, as the engine draws it."""
    return stream.random()


def sample_chance_from_stream(state: State, stream: SharedStream) -> int:
    """The chance outcome the engine would draw at this state from this stream."""
    actions, cum = state.chance_table()
    return actions[bisect(cum, stream_random(stream) * cum[-1], 0, len(cum) - 1)]


__all__ = ["SharedStream", "env_stream", "env_stream_seed", "sample_chance_from_stream", "stream_random"]
