"""Accounts: sign-up, log-in sessions, the seats an account holds, and rating games when they end.

Everything is stored in the server's database (tables in models.py) before it is acknowledged, so
accounts, sessions, ratings and histories survive a `kill -9`. The game service is only read from
(seats, tokens, states, results); the one hook is `game_changed`, called where the game's control
notices any change, which rates a finished game once (a conditional UPDATE: once in a cluster too).
"""

from __future__ import annotations

from .auth import Authentication
from .base import (
    MAX_ATTACH,
    SESSION_DAYS,
    WRONG_LOGIN,
    AccountsShared,
    Current,
    session_hash,
    variant_of,
    variant_parts,
)
from .profiles import Profiles
from .rated import Ratings

__all__ = [
    "MAX_ATTACH",
    "SESSION_DAYS",
    "WRONG_LOGIN",
    "Accounts",
    "AccountsShared",
    "Authentication",
    "Current",
    "Profiles",
    "Ratings",
    "session_hash",
    "variant_of",
    "variant_parts",
]


class Accounts(Profiles):
    """The accounts, made of their parts: authentication (auth.py), ratings (rated.py) and
    profiles (profiles.py), over what they share (base.py)."""
