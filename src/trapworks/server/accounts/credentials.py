"""Usernames and passwords: the checks (each refusal says what is wrong) and argon2 hashing.

Passwords are hashed with argon2id through argon2-cffi (its RFC 9106 low-memory profile); only the
hash is stored. A login for an unknown user still verifies against a dummy hash, so that a wrong
user and a wrong password take the same time and get the same answer.

The costs are a setting, `TRAPWORKS_PASSWORD_HASH` (e.g. `t=3,m=65536,p=4`: argon2's time cost,
memory in KiB and lanes; any left out keep the default). Unset or empty: argon2-cffi's defaults,
the production setting (a test fails if they change). The test suite sets cheap costs (argon2id
still, about a millisecond a hash instead of 0.25 CPU s) except where the cost is what is tested.
A stored hash is always verified with its own parameters (they are in the PHC string), and a
log-in whose hash was made with other costs re-hashes it with the current ones (`needs_rehash`).
"""

from __future__ import annotations

import os
import re
import unicodedata

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from trapworks.core.words import Said

USERNAME_MIN, USERNAME_MAX = 3, 24
PASSWORD_MIN, PASSWORD_MAX = 10, 128  # longer passwords are refused: hashing them is the server's time
USERNAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
# Names that would pose as the site, the page's words for seats, or an AI level.
RESERVED = frozenset(
    {
        "admin", "administrator", "root", "system", "sysop", "staff", "moderator", "mod", "support",
        "help", "trapworks", "official", "server", "api", "static", "account", "accounts", "login",
        "logout", "signup", "me", "you", "player", "spectator", "anonymous", "anon", "guest", "null",
        "none", "undefined", "computer", "ai", "bot", "easy", "medium", "hard", "random", "perfect",
        "heuristic", "chance", "nobody", "everyone",
    }
)  # fmt: skip
# The most common passwords of at least PASSWORD_MIN characters (lists of leaked passwords).
COMMON = frozenset(
    {
        "1234567890", "12345678910", "0123456789", "qwertyuiop", "password1", "password12",
        "password123", "password1234", "passw0rd123", "iloveyou123", "1q2w3e4r5t", "qwerty1234",
        "qwerty12345", "1qaz2wsx3edc", "abcdefghij", "abc1234567", "aaaaaaaaaa", "1111111111",
        "0000000000", "letmein123", "welcome123", "football123", "baseball123", "trustno1234",
        "princess123", "sunshine123", "superman123", "administrator", "changeme123", "trapworks123",
    }
)  # fmt: skip

HASH_SETTING = "TRAPWORKS_PASSWORD_HASH"
_HASH_KEYS = {"t": "time_cost", "m": "memory_cost", "p": "parallelism"}


def hasher_from_setting(value: str | None) -> PasswordHasher:
    """The hasher for `TRAPWORKS_PASSWORD_HASH`'s value: `t=..,m=..,p=..` (any subset, comma
    separated); None or empty: argon2-cffi's defaults (its RFC 9106 low-memory profile)."""
    if not value or not value.strip():
        return PasswordHasher()
    costs: dict[str, int] = {}
    for part in value.split(","):
        key, _, number = part.strip().partition("=")
        if key.strip() not in _HASH_KEYS or not number.strip().isdigit():
            raise ValueError(
                f"{HASH_SETTING}: {part.strip()!r} is not t=N (time cost), m=N (memory in KiB) "
                "or p=N (lanes), e.g. t=3,m=65536,p=4"
            )
        costs[_HASH_KEYS[key.strip()]] = int(number)
    default = PasswordHasher()
    time_cost = costs.get("time_cost", default.time_cost)
    parallelism = costs.get("parallelism", default.parallelism)
    memory_cost = costs.get("memory_cost", default.memory_cost)
    if time_cost < 1 or parallelism < 1 or memory_cost < 8 * parallelism:
        raise ValueError(f"{HASH_SETTING}: argon2 needs t >= 1, p >= 1 and m >= 8 x p (KiB), got {value!r}")
    return PasswordHasher(time_cost=time_cost, memory_cost=memory_cost, parallelism=parallelism)


hasher = hasher_from_setting(os.environ.get(HASH_SETTING))
# The hash an unknown user's login is verified against: argon2id of "not a password of anyone's"
# with the default parameters, written out once rather than hashed at every import (0.26 s of CPU
# in every process that imports the server: each node, each test server); under other costs it is
# made at import. A test checks that it has the hasher's parameters (otherwise the verification
# would not take the same time).
_DEFAULT_DUMMY_HASH = (
    "$argon2id$v=19$m=65536,t=3,p=4$UbSsN4ZAtobOuwKy3CZB6g$h2LI+ARQFgZrkCfBvpI84iPtsfHu22zD+C9uYRaKzuY"
)
_DUMMY_HASH = (
    hasher.hash("not a password of anyone's")
    if hasher.check_needs_rehash(_DEFAULT_DUMMY_HASH)
    else _DEFAULT_DUMMY_HASH
)


class BadCredentials(ValueError):
    """A username or password refused at sign-up: the message says why."""

    def __init__(self, code: str, message: str):  # message: a core.words.Said where it has values
        super().__init__(message)
        self.code = code
        self.message = message


def username_key(name: str) -> str:
    """The form two usernames are compared in (case and compatibility forms folded)."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_username(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise BadCredentials("bad_username", "choose a username")
    name = name.strip()
    if len(name) < USERNAME_MIN:
        raise BadCredentials("bad_username", Said("a username has at least {n} characters", n=USERNAME_MIN))
    if len(name) > USERNAME_MAX:
        raise BadCredentials("bad_username", Said("a username has at most {n} characters", n=USERNAME_MAX))
    if not USERNAME_RE.match(name):
        raise BadCredentials(
            "bad_username",
            "a username uses letters A-Z, digits, '_' and '-', and starts with a letter or digit",
        )
    key = username_key(name)
    if key in RESERVED or re.fullmatch(r"player[-_]?\d+", key):
        raise BadCredentials(
            "reserved_username", Said("the username {name} is reserved; choose another", name=repr(name))
        )
    return name


def check_password(password: object, username: str) -> str:
    if not isinstance(password, str) or not password:
        raise BadCredentials("weak_password", "choose a password")
    if len(password) > PASSWORD_MAX:
        raise BadCredentials("long_password", Said("a password has at most {n} characters", n=PASSWORD_MAX))
    if len(password) < PASSWORD_MIN:
        raise BadCredentials(
            "weak_password",
            Said("a password has at least {n} characters (a short phrase is good)", n=PASSWORD_MIN),
        )
    folded = password.casefold()
    if folded in COMMON or len(set(password)) < 4:
        raise BadCredentials("weak_password", "this password is too easy to guess; choose a less common one")
    if username_key(username) in folded:
        raise BadCredentials("weak_password", "a password must not contain the username")
    return password


def hash_password(password: str) -> str:
    return hasher.hash(password)


def verify_password(stored_hash: str | None, password: str) -> bool:
    """Whether `password` matches; with no hash (no such user) a dummy verification keeps the time.
    argon2 verifies with the parameters written in the stored hash, whatever the current costs."""
    try:
        return hasher.verify(stored_hash or _DUMMY_HASH, password) and stored_hash is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored_hash: str) -> bool:
    """Whether a stored hash was made with other costs than the current ones (re-hashed at log-in)."""
    return hasher.check_needs_rehash(stored_hash)
