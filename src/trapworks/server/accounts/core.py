"""Accounts: sign-up, log-in sessions, the seats an account holds, and rating games when they end.

Everything is stored in the server's database (tables in models.py) before it is acknowledged, so
accounts, sessions, ratings and histories survive a `kill -9`. The game service is only read from
(seats, tokens, states, results); the one hook is `game_changed`, called where the game's control
notices any change, which rates a finished game once (a conditional UPDATE: once in a cluster too).
"""

from __future__ import annotations

from .auth import Authentication
from .base import (
    LOGIN_FAILS_PER_ACCOUNT,
    LOGIN_FAILS_PER_ADDRESS,
    LOGIN_WINDOW_S,
    MAX_ATTACH,
    SESSION_DAYS,
    WRONG_LOGIN,
    AccountsShared,
    Current,
    LoginLimiter,
    session_hash,
    variant_of,
)
from .profiles import Profiles
from .rated import Ratings

__all__ = [
    "LOGIN_FAILS_PER_ACCOUNT",
    "LOGIN_FAILS_PER_ADDRESS",
    "LOGIN_WINDOW_S",
    "MAX_ATTACH",
    "SESSION_DAYS",
    "WRONG_LOGIN",
    "Accounts",
    "AccountsShared",
    "Authentication",
    "Current",
    "LoginLimiter",
    "Profiles",
    "Ratings",
    "session_hash",
    "variant_of",
]


class Accounts(Profiles):
    """The accounts, made of their parts: authentication (auth.py), ratings (rated.py) and
    profiles (profiles.py), over what they share (base.py)."""
