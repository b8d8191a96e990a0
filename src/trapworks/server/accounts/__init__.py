"""Accounts, ratings, profiles, "my games" across devices and quick games (issue 28).

`install(app, service)` adds the tables, the routes and the one hook this needs in the game
service: when a game changes, `Accounts.game_changed` looks whether it has just ended and, if it
was rated between accounts, rates it (openskill). Anonymous play is untouched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..features.names import Names
from .core import Accounts
from .matchmaking import Matchmaker
from .routes import build_router
from .seats import AccountGames

if TYPE_CHECKING:
    from fastapi import FastAPI

    from ..service import GameService

__all__ = ["Accounts", "Matchmaker", "install"]


def install(app: FastAPI, service: GameService) -> Accounts:
    accounts = Accounts(service)
    matchmaker = Matchmaker(accounts)
    _hook_game_end(service, accounts)
    app.state.accounts = accounts
    app.state.matchmaker = matchmaker
    cluster = getattr(app.state, "cluster", None)
    if cluster is not None:  # seeks paired on another node wake the polls waiting here
        cluster.on("seek", matchmaker.heard)
    app.include_router(build_router(accounts, matchmaker))
    return accounts


def _hook_game_end(service: GameService, accounts: Accounts) -> None:
    games = AccountGames(service, accounts)
    service.add_feature(games)
    service.feature(Names).add_account_source(games.held)  # the seats' accounts and ratings (issue 39)
