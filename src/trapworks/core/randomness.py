"""Secret randomness: every shuffle, deal, chance outcome and noise key of a game comes from one
per-game secret key of 256 bits, through HMAC-SHA256.

Why: a seed of 31 bits can be swept from a few public outcomes (dice, a public piece order), and
then every secret follows. With a 256-bit key nothing public is a function of a small value.
Each purpose gets its own derived value (`derive(key, "setup")`, `derive(key, "chance", ply)`),
so a public outcome never shares a stream with a secret one.

Chance outcomes are fixed per ply: `chance_outcome(state, key)` depends only on the key, the
ply and the outcome list, so undo followed by the same play draws the same dice again.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import State

KEY_BYTES = 32


def new_key() -> bytes:
    """A fresh secret key (256 bits from the operating system's CSPRNG)."""
    return secrets.token_bytes(KEY_BYTES)


def new_seed() -> int:
    """A fresh 256-bit integer seed, for states made without a key (terminal, tests)."""
    return secrets.randbits(8 * KEY_BYTES)


def derive(key: bytes, *parts: object) -> int:
    """A 256-bit integer that only a holder of `key` can compute, one per tuple of `parts`."""
    if not isinstance(key, bytes | bytearray) or len(key) < 16:
        raise ValueError("a randomness key is at least 16 bytes")
    message = "\x1f".join(str(p) for p in parts).encode()
    return int.from_bytes(hmac.new(key, message, hashlib.sha256).digest(), "big")


def derived_random(key: bytes, *parts: object) -> random.Random:
    """A `random.Random` seeded with the full 256 bits of `derive(key, *parts)`."""
    return random.Random(derive(key, *parts))


def seed_key(seed: int) -> bytes:
    """The key that stands for an integer seed (a state's seed, a simulation's per-game seed).

    The seed's own size bounds the secrecy: only a seed of 128 bits or more is secret enough
    for a game where a human could sweep it; simulations and tests may use small seeds.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"a seed is a non-negative integer, not {seed!r}")
    return hashlib.sha256(b"trapworks-seed:" + str(seed).encode()).digest()


def stream_seed(seed: int, purpose: str) -> int:
    """A separate 256-bit seed per purpose ("deal", "pile", "noise"...) from one state seed."""
    return derive(seed_key(seed), purpose)


def chance_outcome(state: State, key: bytes) -> int:
    """The chance outcome at `state`'s ply, fixed by the key and the ply (undo cannot re-roll)."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ValueError("not a chance node")
    u = derive(key, "chance", state.move_number()) / float(1 << 256)
    total = sum(p for _, p in outcomes)
    acc = 0.0
    for action, p in outcomes:
        acc += p / total
        if u < acc:
            return action
    return outcomes[-1][0]


__all__ = [
    "KEY_BYTES",
    "new_key",
    "new_seed",
    "derive",
    "derived_random",
    "seed_key",
    "stream_seed",
    "chance_outcome",
]
