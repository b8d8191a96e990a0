"""The batched engines' random stream (core/stream.py's SplitMix64) as compiled helpers, one copy
for every engine: `st` is a one-item uint64 array holding the stream's state.

With numba installed these are numba functions (inlined into the engines' loops); without it the
module still imports and the same functions run as plain Python over NumPy scalars (the engines
themselves need numba; this keeps the import of core light)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

try:
    from numba import njit as _njit

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - the `fast` extra is not installed
    HAVE_NUMBA = False


def _jit(fn: Callable[..., Any]) -> Callable[..., Any]:
    if HAVE_NUMBA:
        return _njit(cache=True, inline="always", error_model="numpy")(fn)
    return fn


# How the engines' rule functions are compiled (issue 42): without reference counts (numba's
# `_nrt` flag, which its typed signature of njit does not list). A reference count is an atomic
# operation on every array a call or an assignment passes on; they made serial rule code about
# 3x slower than the same rules in a parallel loop, whose lowering cost most of the compile
# time. Such functions cannot allocate: they get their scratch arrays from the caller.
RULE_OPTIONS: dict[str, Any] = {"cache": True, "error_model": "numpy", "_nrt": False}


def rules(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A rule function, compiled on its own (LLVM inlines it where that pays)."""
    return _njit(**RULE_OPTIONS)(fn) if HAVE_NUMBA else fn


def rules_inlined(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A rule function inlined at numba's IR level into each caller: for the few with one call
    site per loop (each inlined site is typed and compiled again)."""
    return _njit(inline="always", **RULE_OPTIONS)(fn) if HAVE_NUMBA else fn


def rules_nogil(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A rule function that releases the GIL: a batch's games loop, one chunk per thread."""
    return _njit(nogil=True, **RULE_OPTIONS)(fn) if HAVE_NUMBA else fn


@_jit
def next_u64(st: Any) -> Any:
    """The stream's next 64-bit draw (SharedStream.next)."""
    z = st[0] + np.uint64(0x9E3779B97F4A7C15)
    st[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@_jit
def below(st: Any, n: int) -> Any:
    """A uniform int64 in [0, n) (SharedStream.below)."""
    return np.int64(((next_u64(st) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@_jit
def uniform(st: Any) -> Any:
    """A float in [0, 1) (SharedStream.random)."""
    return np.float64(next_u64(st) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@_jit
def sample(st: Any, cum: Any, count: int) -> Any:
    """Index of a chance outcome (sample_chance_from_stream):
    bisect_right(cum[:count], u * cum[count - 1], 0, count - 1)."""
    x = uniform(st) * cum[count - 1]
    i = 0  # how many of cum[:count - 1] are <= x (few: a linear scan)
    while i < count - 1 and cum[i] <= x:
        i += 1
    return i


__all__ = [
    "HAVE_NUMBA",
    "RULE_OPTIONS",
    "below",
    "next_u64",
    "rules",
    "rules_inlined",
    "rules_nogil",
    "sample",
    "uniform",
]
