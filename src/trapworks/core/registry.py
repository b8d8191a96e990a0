"""Registry of games: the one lookup from a game id to its spec (core/spec.py) and classes.

Games are found through the `trapworks.games` entry-point group (pyproject.toml), each entry
naming a package's `SPEC`:

    [project.entry-points."trapworks.games"]
    mouse-trap = "trapworks.games.mouse_trap:SPEC"

so a game can live in another installed package. Listing games imports nothing (Booby Trap
pulls in pymunk; listing games should not): an entry is loaded, and its spec checked, when the
game is first asked for. Specs may also be registered in code (`register_spec`, for tests and
for games that are not installed), and the older `register_game(id, Game subclass or
"module:attr")` still works.
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any

from .errors import OptionError, UnknownGameError
from .game import Game
from .spec import GameSpec, SpecError

GROUP = "trapworks.games"

# game id -> a loaded spec, a Game subclass (older registrations) or "module:attr" to load.
_REGISTRY: dict[str, GameSpec | str | type[Game]] = {}
_SCANNED = False


def _scan() -> None:
    """Add the entry points of the `trapworks.games` group (once; registrations in code win)."""
    global _SCANNED
    if _SCANNED:
        return
    _SCANNED = True
    for ep in entry_points(group=GROUP):
        _REGISTRY.setdefault(ep.name, ep.value)


def register_spec(spec: GameSpec) -> None:
    """Register a game by its spec (checked already: a GameSpec validates when it is made)."""
    if not isinstance(spec, GameSpec):
        raise TypeError(f"register_spec takes a GameSpec, got {spec!r}")
    _REGISTRY[spec.game_id] = spec


def unregister(game_id: str) -> None:
    """Forget a game registered in code (tests registering an example game clean up with this)."""
    _REGISTRY.pop(game_id, None)


def register_game(game_id: str, factory: str | type[Game] | GameSpec) -> None:
    """Register a game id: a GameSpec, a "module:attr" naming one (or a Game subclass), or a
    Game subclass (older style: a game without a spec)."""
    _REGISTRY[game_id] = factory


def available_games() -> list[str]:
    _scan()
    return sorted(_REGISTRY)


def is_loaded(game_id: str) -> bool:
    """Whether `game_id`'s module is imported already (an unknown id counts as loaded: nothing to
    import). A server imports a game's module off its event loop the first time (seconds)."""
    _scan()
    return not isinstance(_REGISTRY.get(game_id), str)


def _load(game_id: str) -> GameSpec | type[Game]:
    _scan()
    if not isinstance(game_id, str) or game_id not in _REGISTRY:
        raise UnknownGameError(str(game_id), available_games())
    entry = _REGISTRY[game_id]
    if isinstance(entry, str):
        module_name, _, attr = entry.partition(":")
        try:
            loaded = getattr(importlib.import_module(module_name), attr)
        except ImportError as e:
            raise UnknownGameError(game_id, available_games()) from e
        except AttributeError:
            raise SpecError(game_id, attr, f"{module_name} has no {attr}") from None
        if isinstance(loaded, GameSpec) and loaded.game_id != game_id:
            raise SpecError(game_id, "game", f"the entry {entry!r} declares {loaded.game_id!r}")
        if not isinstance(loaded, GameSpec) and not (isinstance(loaded, type) and issubclass(loaded, Game)):
            raise SpecError(game_id, attr, f"{entry} is {loaded!r}, not a GameSpec")
        entry = _REGISTRY[game_id] = loaded
    return entry


def game_spec(game_id: str) -> GameSpec:
    """The spec of a registered game (SpecError for an older registration without one)."""
    entry = _load(game_id)
    if isinstance(entry, GameSpec):
        return entry
    spec = entry.spec
    if isinstance(spec, GameSpec):
        return spec
    raise SpecError(game_id, "spec", f"{entry.__name__} was registered without a GameSpec")


def game_specs() -> list[GameSpec]:
    """Every registered game's spec that loads (a game that cannot load is left out)."""
    out = []
    for gid in available_games():
        try:
            out.append(game_spec(gid))
        except Exception:  # noqa: BLE001 - a broken game must not hide the others
            continue
    return out


def game_class(game_id: str) -> type[Game]:
    entry = _load(game_id)
    return entry.game if isinstance(entry, GameSpec) else entry


def make(game_id: str, **options: Any) -> Game:
    """Make a game by id with options, e.g. make("last-mouse-lost", rules="advanced")."""
    return game_class(game_id)(**options)


def player_count_options(game_id: str, players: int) -> dict[str, Any]:
    """The options that seat `players` players: {"players": n} in a game with that option; none in
    a game whose count is fixed (Last Mouse Lost: 2), where asking for that count is no mistake and
    asking for another is a clear error rather than "unknown option players"."""
    cls = game_class(game_id)
    if any(o.name == "players" for o in cls.options_schema):
        return {"players": players}
    fixed = cls().num_players()
    if players != fixed:
        raise OptionError(
            f"{game_id} is always played by {fixed} players (it has no players option): "
            f"ask for {fixed} players or leave the player count out"
        )
    return {}


__all__ = [
    "GROUP",
    "available_games",
    "game_class",
    "game_spec",
    "game_specs",
    "is_loaded",
    "make",
    "player_count_options",
    "register_game",
    "register_spec",
    "unregister",
]
