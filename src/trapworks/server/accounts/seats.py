"""The accounts' part of a game, a feature like the others (features/__init__.py): after every
change (a move stored, a resignation, a loss on time, an abort) the accounts look whether the game
has ended and rate it once it has; and every state message says who sits at each seat: the name
shown (the account's when an account holds the seat), and in a rated game the account's rating and,
once rated, its change. All of it public (lichess shows the same to spectators): no token, no id."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field

from ..features import Feature

if TYPE_CHECKING:
    from ..features import Host
    from ..room import Room
    from .core import Accounts


class AccountGames(Feature):
    name = "account_games"
    state_fields: ClassVar[dict[str, Any]] = {
        "people": (
            list[dict[str, Any]] | None,
            Field(
                None,
                description="who sits at each seat: `seat`, `name` (the account's name when an account "
                "holds the seat, else the name chosen, null: none), `account` (the account's name or "
                "null), and in a rated game `rating` (the rating brought to the game), `provisional` "
                "(few rated games yet) and `change` (null until the game is rated)",
            ),
        )
    }

    def __init__(self, host: Host, accounts: Accounts):
        super().__init__(host)
        self.accounts = accounts
        # game id -> (the accounts' cached seats it was read from, the seats' accounts): read again
        # when the accounts read the game again (a seat attached, the game rated), not per message.
        self._seen: dict[str, tuple[Any, dict[int, dict[str, Any]]]] = {}

    def after_step(self, room: Room) -> None:
        self.accounts.game_changed(room)

    def stop(self, room: Room) -> None:
        self._seen.pop(room.id, None)

    def update(self, room: Room, viewer: int | None, state: Any) -> dict[str, Any]:
        held = self._held(room)
        people = []
        for seat, s in enumerate(room.stored.seats):
            entry = held.get(seat)
            people.append(
                {
                    "seat": seat,
                    "name": (entry and entry["account"]) or s.get("name") or None,
                    "account": entry["account"] if entry else None,
                    "rating": entry["rating"] if entry else None,
                    "provisional": bool(entry and entry["provisional"]),
                    "change": entry["change"] if entry else None,
                }
            )
        return {"people": people}

    def _held(self, room: Room) -> dict[int, dict[str, Any]]:
        source = self.accounts._game(room.id)
        seen = self._seen.get(room.id)
        if seen is not None and seen[0] is source:
            return seen[1]
        held = self.accounts.seat_accounts(room) if source is not None else {}
        self._seen[room.id] = (source, held)
        return held
