"""The accounts' part of a game, a feature like the others (features/__init__.py): after every
change (a move stored, a resignation, a loss on time, an abort) the accounts look whether the game
has ended and rate it once it has; and they tell the names' feature (features/names.py) which
account holds each seat, with its rating in a rated game and, once rated, the change."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..features import Feature

if TYPE_CHECKING:
    from ..features import Host
    from ..room import Room
    from .core import Accounts


class AccountGames(Feature):
    name = "account_games"

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

    def held(self, room: Room) -> dict[int, dict[str, Any]]:
        """Each account seat of the game: {seat: {account, rating, provisional, change}}."""
        source = self.accounts._game(room.id)
        seen = self._seen.get(room.id)
        if seen is not None and seen[0] is source:
            return seen[1]
        held = self.accounts.seat_accounts(room) if source is not None else {}
        self._seen[room.id] = (source, held)
        return held
