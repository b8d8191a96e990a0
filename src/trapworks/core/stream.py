"""The random stream of the batched engines (games/*/batch.py), in Python: SplitMix64, one stream
per game seeded with its seed. The engines draw from the same stream in compiled code
(core/stream_jit.py), so that the kernel's agents, given this stream, play the engines' games
move for move (the engines' tests).

The draws, here and in the engines alike: a uniform choice among n takes item
`((draw >> 32) * n) >> 32` (`below`); a float in [0, 1) is `(draw >> 11) / 2**53` (`random`); a
chance node takes the outcome `bisect(cum, u * cum[-1])` of the kernel's own `chance_table()`
(`sample_chance_from_stream`)."""

from __future__ import annotations

from bisect import bisect
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import State

_MASK64 = (1 << 64) - 1


class SharedStream:
    """The batched engine's per-game random stream (SplitMix64), for the kernel's agents (an
    agent's `rng` may be one: it has `choice` and `random`)."""

    def __init__(self, seed: int):
        self.state = seed & _MASK64

    def next(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return ((self.next() >> 32) * n) >> 32

    def choice(self, seq: Sequence[Any]) -> Any:
        return seq[self.below(len(seq))]

    def random(self) -> float:
        """A float in [0, 1), as the engines draw one."""
        return stream_random(self)


def stream_random(stream: SharedStream) -> float:
    """A float in [0, 1) from the stream, as the engine draws it."""
    return (stream.next() >> 11) * (1.0 / 9007199254740992.0)


def sample_chance_from_stream(state: State, stream: SharedStream) -> int:
    """The chance outcome the engine would draw at this state from this stream."""
    actions, cum = state.chance_table()
    return actions[bisect(cum, stream_random(stream) * cum[-1], 0, len(cum) - 1)]


__all__ = ["SharedStream", "sample_chance_from_stream", "stream_random"]
