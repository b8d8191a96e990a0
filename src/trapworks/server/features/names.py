"""Display names without accounts: what a player may call themselves.

A name is shown to every seat and spectator (seats, the log, chat), so it is checked strictly:
trimmed, inner runs of spaces made one, at most NAME_MAX characters, no control or invisible
formatting characters (a right-to-left override or a zero-width space could make one name look
like another), and none of the words the page itself uses for seats ("You", "Player 2").

Every state message says who sits at each seat (`people`, issue 39): the name shown and, where an
account holds the seat (the accounts add their part: server/accounts/seats.py), the account's name
and, in a rated game, its rating and, once rated, the change. All of it public, as lichess shows
players and spectators alike: never a token or an account id.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, Field

from ..errors import ErrorCode, ServiceError
from ..limits import RateLimiter
from ..messages import ERROR_REPLIES, NameChange, NameChanged, NameMessage
from ..room import Connection, Room
from . import Call, Feature, Host
from .presence import Presence

if TYPE_CHECKING:
    from fastapi import APIRouter

NAME_MAX = 24
# Categories refused: controls, format characters (bidi overrides, zero-width), line and paragraph
# separators, surrogates, private use and unassigned code points.
REFUSED_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"}
# Each change is shown to every connection of the game: a client changing names in a loop would
# flood them all. Per seat (per spectator connection).
NAME_RATE = (0.2, 3.0)  # 3 changes at once, then one every 5 s
# A source of seats' accounts: game -> {seat: {account, rating, provisional, change}}.
AccountSource = Callable[[Room], dict[int, dict[str, Any]]]
RESERVED = re.compile(r"^(you|spectator|chance|server|computer|player\s*\d*)$", re.IGNORECASE)


class BadName(ValueError):
    """A name that cannot be used; the message says why, for the person who typed it."""


def clean_name(raw: object) -> str:
    """The name as shown (trimmed, single spaces), or BadName saying what is wrong."""
    if not isinstance(raw, str):
        raise BadName(f"a name is text, not {type(raw).__name__}")
    if len(raw) > 4 * NAME_MAX:  # a giant name is refused before it is looked at
        raise BadName(f"a name is at most {NAME_MAX} characters (this one has {len(raw)})")
    for ch in raw:
        category = unicodedata.category(ch)
        if category in REFUSED_CATEGORIES:
            raise BadName(f"a name cannot hold control or invisible characters (U+{ord(ch):04X} is one)")
    name = " ".join(raw.split())
    if not name:
        raise BadName("a name needs at least one visible character")
    if len(name) > NAME_MAX:
        raise BadName(f"a name is at most {NAME_MAX} characters (this one has {len(name)})")
    if RESERVED.match(name):
        raise BadName(f"{name!r} is a word the page uses for seats; pick another name")
    return name


def same_name(a: str, b: str) -> bool:
    """Names that read alike: case and compatibility forms aside ('ＡＬＩＣＥ' is 'alice'), and after
    folding Unicode confusables (the `confusables` package, from Unicode's confusables data: a
    Cyrillic 'А' reads as a Latin 'A', 'rn' as 'm', '0' as 'O'), so 'Аlice' is taken beside 'Alice'."""
    if unicodedata.normalize("NFKC", a).casefold() == unicodedata.normalize("NFKC", b).casefold():
        return True
    from confusables import is_confusable

    return bool(is_confusable(a, b))


class Names(Feature):
    """A seat's name (stored with the seats: shown on the seats, in the log and in chat) and a
    spectator connection's (for chat, not stored)."""

    name = "names"
    order = 80
    commands: ClassVar[tuple[type[BaseModel], ...]] = (NameChange, NameMessage)
    state_fields: ClassVar[dict[str, Any]] = {
        "people": (
            list[dict[str, Any]] | None,
            Field(
                None,
                description="who sits at each seat: `seat`, `name` (the account's name when an account "
                "holds the seat, else the name chosen, null: none), `account` (the account's name or "
                "null), and in a rated game `rating` (the rating brought to the game), `provisional` "
                "(few rated games yet) and `change` (the rating's change once the game is rated; null "
                "before)",
            ),
        )
    }

    def __init__(self, host: Host):
        super().__init__(host)
        self._rate = RateLimiter(*NAME_RATE)
        self._spectator_names: dict[Connection, str] = {}
        self._account_sources: list[AccountSource] = []

    def info(self, room: Room) -> dict[str, Any]:
        return {"players": room.players()}  # each seat's kind, agent, name and label

    def add_account_source(self, source: AccountSource) -> None:
        """Where seats' accounts come from (the accounts, when the server has them)."""
        self._account_sources.append(source)

    def accounts(self, room: Room) -> dict[int, dict[str, Any]]:
        """Each account seat of the game: {seat: {account, rating, provisional, change}}."""
        held: dict[int, dict[str, Any]] = {}
        for source in self._account_sources:
            held.update(source(room))
        return held

    def record(self, room: Room) -> dict[str, Any]:
        return {"shown_names": self.shown_names(room)}

    def shown_names(self, room: Room) -> list[str | None]:
        """The name each seat is shown by (as `people`: the account's where an account holds the
        seat, else the name chosen; None: none), for the game's record and its review."""
        held = self.accounts(room)
        return [
            (held.get(seat) or {}).get("account") or s.get("name") or None
            for seat, s in enumerate(room.stored.seats)
        ]

    def update(self, room: Room, viewer: int | None, state: Any) -> dict[str, Any]:
        held = self.accounts(room)
        people = []
        for seat, s in enumerate(room.stored.seats):
            entry = held.get(seat) or {}
            people.append(
                {
                    "seat": seat,
                    "name": entry.get("account") or s.get("name") or None,
                    "account": entry.get("account"),
                    "rating": entry.get("rating"),
                    "provisional": bool(entry.get("provisional")),
                    "change": entry.get("change"),
                    "provisional_after": bool(entry.get("provisional_after")),
                }
            )
        return {"people": people}

    async def socket_closed(self, room: Room, conn: Connection) -> None:
        """A socket closed: its spectator name goes with it."""
        self._spectator_names.pop(conn, None)

    def check_rate(self, live: Room, seat: int | None, conn: Connection | None) -> None:
        # Keyed by the connection's id, not the object: the limiter must not keep closed sockets alive.
        if not self._rate.allow(id(conn) if seat is None else (live.id, seat)):
            raise ServiceError(
                ErrorCode.NAME_RATE_LIMITED,
                "too many name changes: at most {burst} at once, then one every {seconds} s; wait a moment",
                burst=format(NAME_RATE[1], "g"),
                seconds=format(1 / NAME_RATE[0], "g"),
            )

    async def on_message(self, command: NameMessage, call: Call) -> None:
        self.check_name(call.room, call.seat, command.name)  # a refused name costs nothing
        self.check_rate(call.room, call.seat, call.conn)
        await self.set_name(call.room, call.seat, command.name, call.conn)
        await call.ack()

    def routes(self, router: APIRouter) -> None:
        @router.post(
            "/api/games/{gid}/name",
            response_model=NameChanged,
            responses=ERROR_REPLIES,
            summary="Set your seat's display name (shown on the seats, in the log and in chat)",
        )
        async def set_name(gid: str, body: NameChange) -> dict[str, Any]:
            live = self.host.get(gid)
            seat = live.seat_for(body.token)
            if seat is None:
                raise ServiceError(ErrorCode.SPECTATOR, "a spectator's name is set over the socket, for chat")
            self.check_name(live, seat, body.name)
            self.check_rate(live, seat, None)
            name = await self.set_name(live, seat, body.name)
            return {"ok": True, "seat": seat, "name": name}

    def check_name(self, live: Room, seat: int | None, raw: object) -> str:
        """The cleaned name, refused if it reads like another seat's name (nobody may pose as
        another player)."""
        try:
            name = clean_name(raw)
        except BadName as e:
            raise ServiceError(ErrorCode.BAD_NAME, str(e)) from None
        for i, s in enumerate(live.stored.seats):
            if i != seat and s["name"] and same_name(s["name"], name):
                raise ServiceError(
                    ErrorCode.NAME_TAKEN,
                    "{name} is the name of player {player}; pick another",
                    name=repr(name),
                    player=i + 1,
                )
        return name

    async def set_name(
        self, live: Room, seat: int | None, raw: object, conn: Connection | None = None
    ) -> str:
        """Name a seat (stored, then shown to everyone), or a spectator's connection (for chat)."""
        name = self.check_name(live, seat, raw)
        if seat is None:
            if conn is not None:
                self._spectator_names[conn] = name
            return name
        if live.stored.seats[seat]["name"] == name:
            return name
        seats = [dict(x) for x in live.stored.seats]
        seats[seat]["name"] = name
        try:
            self.host.store.update_seats(live.id, seats)
        except Exception as e:
            raise self.host.store_failed(f"name a seat of game {live.id}", e) from None
        live.stored.seats = seats
        live.publish("seats")  # the other nodes of a cluster show the name too
        await self.host.feature(Presence).refresh(live)
        return name

    def speaker(self, live: Room, conn: Connection) -> str:
        """The name a chat line from this connection carries."""
        if conn.seat is None:
            return self._spectator_names.get(conn, "Spectator")
        return live.stored.seats[conn.seat]["name"] or f"Player {conn.seat + 1}"
