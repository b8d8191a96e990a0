"""Open tables: public games with free seats, listed in the lobby and joined in one click.

A game created with `public: true` is listed while it has a free seat (a seat created as invited
whose invite nobody has used) and is not over. Joining hands out one free seat's token; the seat
is stored as taken before the token leaves the server, and the store's unique (game, seat) pair
refuses a second taker, so a seat is never handed out twice. The list says what a stranger may
know: the game, its options, who sits (names and presence) and how long the table has waited;
never a token, an invite code or the spectator link. Private games are never listed.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, ClassVar

from fastapi import Request
from pydantic import BaseModel

from trapworks.core import make

from ..errors import ErrorCode, ServiceError
from ..messages import ERROR_REPLIES, Joined, JoinTable, TableList
from ..room import Room
from . import Feature, Host
from .names import Names
from .presence import Presence

if TYPE_CHECKING:
    from fastapi import APIRouter

log = logging.getLogger("trapworks.server")

LIST_MAX = 50  # tables listed at most (the oldest: see bounds.py for the tables per address)
LIST_MAX_AGE = timedelta(days=1)  # a table waiting longer leaves the list


class Tables(Feature):
    name = "tables"
    order = 95
    commands: ClassVar[tuple[type[BaseModel], ...]] = (JoinTable,)

    def routes(self, router: APIRouter) -> None:
        @router.get(
            "/api/tables", response_model=TableList, summary="Open tables: public games with free seats"
        )
        async def open_tables() -> dict[str, Any]:
            return {"tables": self.listing()}

        @router.post(
            "/api/tables/{gid}/join",
            response_model=Joined,
            responses=ERROR_REPLIES,
            summary="Take a free seat of an open table: its token, handed out once",
        )
        async def join_table(gid: str, body: JoinTable, request: Request) -> dict[str, Any]:
            live, seat = self.join(gid, body)
            if body.name is not None:
                try:
                    await self.host.feature(Names).set_name(live, seat, body.name)
                except ServiceError:
                    pass  # checked before the seat was taken; a name taken meanwhile leaves it unnamed
            token = live.stored.seats[seat]["token"]
            await self.host.feature(Presence).refresh(live)
            base = str(request.base_url).rstrip("/")
            return {"ok": True, "seat": seat, "token": token, "link": f"{base}/g/{live.id}#t={token}"}

    def __init__(self, host: Host):
        super().__init__(host)
        self._default_options: dict[str, dict[str, Any]] = {}

    def info(self, room: Room) -> dict[str, Any]:
        return {"public": room.stored.public}  # listed in the lobby while a seat is free

    def at_end(self, room: Room) -> None:
        """A game over leaves the list for good (listing also checks, for games ended elsewhere)."""
        if room.stored.public:
            try:
                self.host.store.close_table(room.id)
            except Exception as e:  # the listing closes it on its next look
                log.error("game %s: its open table could not be closed: %s", room.id, e)

    def listing(self) -> list[dict[str, Any]]:
        now = datetime.now(UTC)
        try:
            rows = self.host.store.open_tables(now - LIST_MAX_AGE, LIST_MAX)
        except Exception as e:
            raise self.host.store_failed("list the open tables", e) from None
        tables = []
        for gid, created in rows:
            try:
                live = self.host.get(gid)
            except ServiceError:
                continue  # a game that cannot be loaded is not offered
            if not self._open(live):
                continue
            tables.append(self._describe(live, created, now))
        return tables

    def _open(self, live: Room) -> bool:
        if live.state.is_terminal():
            try:  # over: it leaves the list for good
                self.host.store.close_table(live.id)
            except Exception:
                pass
            return False
        return live.failed is None and bool(self.host.free_seats(live.stored))

    def _describe(self, live: Room, created: datetime, now: datetime) -> dict[str, Any]:
        free = set(self.host.free_seats(live.stored))
        return {
            "id": live.id,
            "game": live.stored.game,
            "title": type(live.game).title or live.stored.game,
            "options": live.stored.options,
            # What differs from the game's defaults: the options worth a glance in the list.
            "changed_options": {
                k: v for k, v in live.stored.options.items() if self._defaults(live.stored.game).get(k) != v
            },
            # The same, typed for the list's words (issue 37: the page parses no option name): each
            # changed option's label and its value's label, message ids of the catalog (None: the
            # value is a number or text shown as it is).
            "changed": option_words(type(live.game), live.stored.options, self._defaults(live.stored.game)),
            "ply": live.ply(),
            "seats": [{**s, "free": s["seat"] in free} for s in self.host.feature(Presence).seats(live)],
            "free": len(free),
            "waiting_s": max(0, int((now - created).total_seconds())),
        }

    def _defaults(self, game_id: str) -> dict[str, Any]:
        if game_id not in self._default_options:
            try:
                self._default_options[game_id] = make(game_id).public_options()
            except Exception:  # a game whose defaults do not load: every option counts as chosen
                self._default_options[game_id] = {}
        return self._default_options[game_id]

    def join(self, gid: str, cmd: JoinTable) -> tuple[Room, int]:
        """Take a free seat of a public game (the given one, else the first): (game, seat). The
        request's model checked its fields (a seat number >= 0, a name's length)."""
        seat, name = cmd.seat, cmd.name
        if not isinstance(gid, str) or len(gid) > 64:
            raise ServiceError(ErrorCode.NO_SUCH_TABLE, "no open table with this id")
        try:
            live = self.host.get(gid)
        except ServiceError as e:
            if e.status == 404:
                raise ServiceError(ErrorCode.NO_SUCH_TABLE, "no open table {gid}", gid=repr(gid)) from None
            raise
        if not live.stored.public:
            # The same answer as an unknown id: a private game's existence is not told.
            raise ServiceError(ErrorCode.NO_SUCH_TABLE, "no open table {gid}", gid=repr(gid))
        if live.state.is_terminal():
            raise ServiceError(ErrorCode.GAME_OVER, "this game is over: its seats are no longer offered")
        free = self.host.free_seats(live.stored)
        if seat is not None:
            if seat >= len(live.stored.seats):
                raise ServiceError(
                    ErrorCode.BAD_SEAT,
                    "seat {seat}: a seat number from 0 to {last_seat}",
                    seat=repr(seat),
                    last_seat=len(live.stored.seats) - 1,
                )
            if seat not in free:
                raise ServiceError(
                    ErrorCode.SEAT_TAKEN, "seat {seat_number} is not free; join another", seat_number=seat + 1
                )
        elif not free:
            raise ServiceError(ErrorCode.TABLE_FULL, "every seat of this table is taken")
        chosen = seat if seat is not None else free[0]
        # The name is checked before the seat is taken: a bad name costs no seat.
        if name is not None:
            self.host.feature(Names).check_name(live, chosen, name)
        self.host.take_seat(live, chosen)
        return live, chosen


def option_words(game: Any, options: dict[str, Any], defaults: dict[str, Any]) -> list[dict[str, Any]]:
    """The options of a game that differ from its defaults, as typed words: [{name, label, value,
    value_label}] in the game's options order; `label` and `value_label` are the option's own
    message ids (core/options.py label and choice labels), `value_label` None for a number."""
    out: list[dict[str, Any]] = []
    for option in getattr(game, "options_schema", ()):
        if option.name not in options or defaults.get(option.name) == options[option.name]:
            continue
        value = options[option.name]
        worded = option.kind in ("choice", "bool") or value is None
        out.append(
            {
                "name": option.name,
                "label": option.title,
                "value": value,
                "value_label": option.choice_label(value) if worded else None,
            }
        )
    return out
