"""Log-in throttling, sign-up bounds and a fair password-hashing queue (issue 40).

**Log-ins** (OWASP ASVS 2.2.1: anti-automation that never locks the owner out). Failed log-ins are
rows of `login_failures` (the database: every node of a cluster counts the same ones), under
three keys, each the SHA-256 of what it counts:

- the *address* (the client's, seen through the trusted proxies: proxy.py): after
  `FAILS_PER_ADDRESS` failures in `WINDOW_S` that address gets 429 for any name;
- the *name from that address*: after `FAILS_PER_PAIR` failures that address gets 429 for that name;
- the *name* from everywhere: after `FAILS_PER_NAME` failures the name is under attack and is
  slowed down: from an address it was never used from, one attempt per `SLOW_S` (429 with
  Retry-After between). Addresses the account logged in or signed up from (`login_known`, kept
  `KNOWN_DAYS`) are not slowed: the owner logs in from their usual address at once.

So a guesser is slowed down, never anybody else: a flood of wrong log-ins from one address (or for
one name) does not lock out another user, nor the name's owner at home.

**Sign-ups**: at most `signups_per_address` an hour per address and `signups_total` a minute in all
(per node; 429 `too_many_signups` with Retry-After); refusals cost nothing.

**Hashing** (argon2id, about half a second of CPU each): `HashQueue` runs the hashes in threads,
`slots` at once; a sign-up may hold at most `signup_slots` of them and a free slot goes to a
waiting log-in first, so sign-ups never starve log-ins. Past a bounded queue the answer is 429
`busy` with Retry-After.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse
from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import sessionmaker

from trapworks.core.words import Said

from ..errors import ErrorCode, ServiceError, refusal_body
from .models import LoginFailureRow, LoginKnownRow

WINDOW_S = 15 * 60
FAILS_PER_ADDRESS = 20
FAILS_PER_PAIR = 5
FAILS_PER_NAME = 10
SLOW_S = 30
KNOWN_DAYS = 90


class Throttled(ServiceError):
    """A refusal that says when to come back (its answer carries Retry-After)."""

    def __init__(self, code: ErrorCode, message: str, retry_after: int):
        super().__init__(code, message)
        self.retry_after = max(1, int(retry_after))

    def __reduce__(self) -> tuple[Any, ...]:
        said = Said(self.msg, **self.values)
        return (Throttled, (ErrorCode.of(self.code), said, self.retry_after))


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _key(*parts: str) -> str:
    return hashlib.sha256(":".join(parts).encode()).hexdigest()


class LoginThrottle:
    """The policy above; `check` before verifying a password, then `failed` or `succeeded`."""

    def __init__(self, db: sessionmaker) -> None:
        self.db = db

    def _failures(self, key: str, since: datetime) -> tuple[int, datetime | None, datetime | None]:
        with self.db() as s:
            count, first, last = s.execute(
                select(func.count(), func.min(LoginFailureRow.at), func.max(LoginFailureRow.at)).where(
                    LoginFailureRow.key_hash == key, LoginFailureRow.at > since
                )
            ).one()
        return count, (_aware(first) if first else None), (_aware(last) if last else None)

    def is_known(self, account: str, address: str) -> bool:
        since = _now() - timedelta(days=KNOWN_DAYS)
        with self.db() as s:
            at = s.scalar(
                select(LoginKnownRow.at).where(LoginKnownRow.key_hash == _key("known", account, address))
            )
        return at is not None and _aware(at) > since

    def check(self, account: str, address: str) -> None:
        now = _now()
        since = now - timedelta(seconds=WINDOW_S)
        for key, limit, what in (
            (_key("address", address), FAILS_PER_ADDRESS, Said("from your address")),
            (_key("pair", account, address), FAILS_PER_PAIR, Said("for this account from your address")),
        ):
            count, first, _last = self._failures(key, since)
            if count >= limit:
                wait = int(((first or now) - since).total_seconds()) + 1
                raise Throttled(
                    ErrorCode.TOO_MANY_ATTEMPTS,
                    Said(
                        "too many failed log-ins {what}: try again in {n} minutes",
                        what=what,
                        n=wait // 60 + 1,
                    ),
                    wait,
                )
        count, _first, last = self._failures(_key("account", account), since)
        if count >= FAILS_PER_NAME and last is not None and not self.is_known(account, address):
            wait = int((last + timedelta(seconds=SLOW_S) - now).total_seconds()) + 1
            if wait > 0:
                raise Throttled(
                    ErrorCode.SLOWED_DOWN,
                    Said(
                        "this account has had many failed log-ins: from a new address, one try every "
                        "{every} s (the next in {wait} s); its usual addresses are not slowed",
                        every=SLOW_S,
                        wait=wait,
                    ),
                    wait,
                )

    def failed(self, account: str, address: str) -> None:
        now = _now()
        with self.db.begin() as s:
            # Bounded: what has left the window goes as new failures come.
            s.execute(delete(LoginFailureRow).where(LoginFailureRow.at <= now - timedelta(seconds=WINDOW_S)))
            s.add_all(
                [
                    LoginFailureRow(key_hash=_key("account", account), at=now),
                    LoginFailureRow(key_hash=_key("address", address), at=now),
                    LoginFailureRow(key_hash=_key("pair", account, address), at=now),
                ]
            )

    def succeeded(self, account: str, address: str | None = None) -> None:
        """The owner got in: their failures from this address are forgotten and it is known."""
        with self.db.begin() as s:
            if address is None:
                s.execute(delete(LoginFailureRow).where(LoginFailureRow.key_hash == _key("account", account)))
                return
            s.execute(
                delete(LoginFailureRow).where(LoginFailureRow.key_hash == _key("pair", account, address))
            )
        self.remember(account, address)

    def remember(self, account: str, address: str) -> None:
        key, now = _key("known", account, address), _now()
        with self.db.begin() as s:
            s.execute(delete(LoginKnownRow).where(LoginKnownRow.at <= now - timedelta(days=KNOWN_DAYS)))
            done = s.execute(update(LoginKnownRow).where(LoginKnownRow.key_hash == key).values(at=now))
            if not getattr(done, "rowcount", 0):
                s.add(LoginKnownRow(key_hash=key, at=now))


# --- hashing --------------------------------------------------------------------------------


class HashQueue:
    """Password hashes in threads, `slots` at once, log-ins served first (see the module's text)."""

    def __init__(
        self, slots: int = 2, signup_slots: int = 1, login_waiting: int = 64, signup_waiting: int = 8
    ) -> None:
        self.slots = slots
        self.signup_slots = min(signup_slots, slots)
        self.caps = {"login": login_waiting, "signup": signup_waiting}
        self.running = {"login": 0, "signup": 0}
        self.waiters: dict[str, deque[asyncio.Future[None]]] = {"login": deque(), "signup": deque()}
        self.refused = 0

    def _free(self, kind: str) -> bool:
        if self.running["login"] + self.running["signup"] >= self.slots:
            return False
        return kind == "login" or self.running["signup"] < self.signup_slots

    def _wake(self) -> None:
        for kind in ("login", "signup"):  # log-ins first
            queue = self.waiters[kind]
            while queue and self._free(kind):
                fut = queue.popleft()
                if not fut.done():
                    self.running[kind] += 1
                    fut.set_result(None)

    async def run(self, kind: str, work: Callable[..., Any], *args: Any) -> Any:
        if not self._free(kind) or self.waiters[kind]:
            if len(self.waiters[kind]) >= self.caps[kind]:
                self.refused += 1
                if kind == "login":
                    raise Throttled(ErrorCode.NODE_BUSY, "too many log-ins at once: try again in a moment", 2)
                raise Throttled(ErrorCode.NODE_BUSY, "too many sign-ups at once: try again in a moment", 2)
            fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self.waiters[kind].append(fut)
            try:
                await fut
            except asyncio.CancelledError:
                if fut.done() and not fut.cancelled():
                    self.running[kind] -= 1  # the slot was handed over just as we were cancelled
                    self._wake()
                else:
                    self.waiters[kind].remove(fut)
                raise
        else:
            self.running[kind] += 1
        try:
            return await asyncio.to_thread(work, *args)
        finally:
            self.running[kind] -= 1
            self._wake()

    async def login(self, work: Callable[..., Any], *args: Any) -> Any:
        return await self.run("login", work, *args)

    async def signup(self, work: Callable[..., Any], *args: Any) -> Any:
        return await self.run("signup", work, *args)


# --- sign-up bounds -------------------------------------------------------------------------

SIGNUP_PATH = "/api/account/signup"


class SignupBounds:
    """ASGI middleware: sign-ups per address an hour and in total a minute (per node); a sign-up
    refused for its content (400) is given back."""

    def __init__(self, app: Any, per_address: int = 10, total: int = 60, max_addresses: int = 50_000) -> None:
        self.app = app
        self.per_address = per_address
        self.total = total
        self.max_addresses = max_addresses
        self.by_address: OrderedDict[str, deque[float]] = OrderedDict()
        self.all: deque[float] = deque()

    @staticmethod
    def _trim(times: deque[float], before: float) -> None:
        while times and times[0] <= before:
            times.popleft()

    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        # Not a coroutine of its own for what passes through: an open socket holds no frame here.
        if scope.get("type") != "http" or scope.get("method") != "POST" or scope.get("path") != SIGNUP_PATH:
            return self.app(scope, receive, send)
        return self._signup(scope, receive, send)

    async def _signup(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        client = (scope.get("client") or ("?", 0))[0]
        now = time.monotonic()
        mine = self.by_address.pop(client, deque())
        self.by_address[client] = mine
        if len(self.by_address) > self.max_addresses:
            self.by_address.popitem(last=False)
        self._trim(mine, now - 3600)
        self._trim(self.all, now - 60)
        refusal = None
        if len(mine) >= self.per_address:
            wait = int(mine[0] + 3600 - now) + 1
            refusal = (
                Said(
                    "at most {n} sign-ups an hour from one address; the next in {wait} s",
                    n=self.per_address,
                    wait=wait,
                ),
                wait,
            )
        elif len(self.all) >= self.total:
            wait = int(self.all[0] + 60 - now) + 1
            refusal = (
                Said("too many sign-ups on this server right now; try again in {wait} s", wait=wait),
                wait,
            )
        if refusal is not None:
            said = refusal[0]
            body = refusal_body(ErrorCode.TOO_MANY_SIGNUPS.value, said.msg, **said.values)
            await send(
                {
                    "type": "http.response.start",
                    "status": 429,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                        (b"retry-after", str(refusal[1]).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        mine.append(now)
        self.all.append(now)
        status: list[int] = []

        async def send_noted(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_noted)
        finally:
            if status[:1] in ([400], [403], [422]):  # refused before any hashing: costs nothing
                for times in (mine, self.all):
                    try:
                        times.remove(now)
                    except ValueError:
                        pass


async def throttled_answer(_request: Request, exc: Exception) -> JSONResponse:
    """The app's answer to a Throttled refusal: its status, code and Retry-After."""
    assert isinstance(exc, Throttled)
    return JSONResponse(
        {"ok": False, "error": exc.message, "code": exc.code, **exc.typed},
        status_code=exc.status,
        headers={"Retry-After": str(exc.retry_after)},
    )
