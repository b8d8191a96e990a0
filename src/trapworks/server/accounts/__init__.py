"""Accounts, ratings, profiles, "my games" across devices and quick games (issue 28).

`install(app, service)` adds the tables, the routes and the one hook this needs in the game
service: when a game changes, `Accounts.game_changed` looks whether it has just ended and, if it
was rated between accounts, rates it (openskill). Anonymous play is untouched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .core import Accounts
from .matchmaking import Matchmaker
from .routes import build_router

if TYPE_CHECKING:
    from fastapi import FastAPI

    from ..service import GameService, LiveGame

__all__ = ["Accounts", "Matchmaker", "install"]


def install(app: FastAPI, service: GameService) -> Accounts:
    accounts = Accounts(service)
    matchmaker = Matchmaker(accounts)
    _hook_game_end(service, accounts)
    app.state.accounts = accounts
    app.state.matchmaker = matchmaker
    app.include_router(build_router(accounts, matchmaker))
    return accounts


def _hook_game_end(service: GameService, accounts: Accounts) -> None:
    """The game's control is told of every change (a move stored, a resignation, a loss on time,
    an abort): after it, the accounts look whether the game has ended. (At a merge with rooms and
    features this is the accounts feature's "game finished" event.)"""
    control = service.control
    changed = control.changed

    def changed_then_rated(live: LiveGame) -> None:
        changed(live)
        accounts.game_changed(live)

    control.changed = changed_then_rated  # type: ignore[method-assign]
