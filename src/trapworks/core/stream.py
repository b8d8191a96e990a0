"""The random stream of the batched engines (games/*/batch.py), in Python: SplitMix64, one stream
per game seeded with its seed. The engines draw from the same stream in compiled code, so that the
kernel's agents, given this stream, play the engines' games move for move (the engines' tests)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

_MASK64 = (1 << 64) - 1


class SharedStream:
    """The batched engine's per-game random stream (SplitMix64), for the kernel's agents."""

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


__all__ = ["SharedStream"]
