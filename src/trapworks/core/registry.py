"""Registry of games: the kernel stores entries, the games package fills them in.

Entries are "module:Class" strings so that `available_games()` imports nothing heavy
(Booby Trap pulls in pymunk; listing games should not).
"""

from __future__ import annotations

import importlib
from typing import Any

from .errors import UnknownGameError
from .game import Game

_REGISTRY: dict[str, str | type[Game]] = {}


def register_game(game_id: str, factory: str | type[Game]) -> None:
    """Register a game id; `factory` is a Game subclass or "module:attribute" naming one."""
    _REGISTRY[game_id] = factory


def available_games() -> list[str]:
    return sorted(_REGISTRY)


def game_class(game_id: str) -> type[Game]:
    if not isinstance(game_id, str) or game_id not in _REGISTRY:
        raise UnknownGameError(str(game_id), available_games())
    factory = _REGISTRY[game_id]
    if isinstance(factory, str):
        module_name, _, attr = factory.partition(":")
        try:
            factory = getattr(importlib.import_module(module_name), attr)
        except ImportError as e:
            raise UnknownGameError(game_id, available_games()) from e
        _REGISTRY[game_id] = factory
    return factory


def make(game_id: str, **options: Any) -> Game:
    """Make a game by id with options, e.g. make("last-mouse-lost", rules="advanced")."""
    return game_class(game_id)(**options)
