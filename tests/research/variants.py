"""Option sets the research adapters are tested on, generated from each game's spec and option
schema (no list kept by hand): the game's `quick_options` (a short game: short turn limits, small
boards, few Booby Trap pieces), then sets that together try every other value of every choice,
boolean and player count and both ends of every number's range, each value kept only where the
game accepts it with the others. A new
game or a new option is tested here with no edit."""

from __future__ import annotations

from typing import Any

import trapworks
from trapworks.adapters.params import openspiel_name, params_from_options
from trapworks.core import TrapworksError
from trapworks.core.options import Option
from trapworks.core.registry import game_spec
from trapworks.core.spec import GameSpec


def _alternatives(o: Option) -> list[Any]:
    """The values of `o` other than its default that the generated sets try."""
    if o.kind == "choice":
        values = list(o.choices)
    elif o.kind == "bool":
        values = [True, False]
    elif o.name == "players" and o.kind == "int" and o.minimum is not None and o.maximum is not None:
        values = list(range(int(o.minimum), int(o.maximum) + 1))
    elif o.kind in ("int", "float"):  # the ends of its range
        values = [v for v in (o.minimum, o.maximum) if v is not None]
        values = [int(v) if o.kind == "int" else float(v) for v in values]
    else:
        return []
    return [v for v in values if v != o.default]


def option_sets(spec: GameSpec) -> list[dict[str, Any]]:
    base = dict(spec.quick_options)
    sets = [base]
    alternatives = {o.name: _alternatives(o) for o in spec.game.options_schema if o.name not in base}
    rounds = max((len(v) for v in alternatives.values()), default=0)
    for k in range(rounds):
        options = dict(base)
        for name, values in alternatives.items():
            if not values:
                continue
            tried = {**options, name: values[k % len(values)]}
            try:
                spec.game(**tried)
            except TrapworksError:
                continue
            options = tried
        if options not in sets:
            sets.append(options)
    return sets


# game id -> list of option sets (trapworks options), for every game that declares an encoder:
# the research adapters' observations need one (a game without declares its absence, and the
# adapters refuse it with an error that says so).
VARIANTS: dict[str, list[dict[str, Any]]] = {
    gid: option_sets(game_spec(gid))
    for gid in trapworks.available_games()
    if game_spec(gid).encoder is not None
}
OPENSPIEL_NAMES = {gid: openspiel_name(game_spec(gid)) for gid in VARIANTS}


def openspiel_params(game_id: str, options: dict[str, Any]) -> dict[str, Any]:
    """The OpenSpiel game parameters for trapworks options (the adapter's documented mapping)."""
    return params_from_options(game_spec(game_id), options)


def cases() -> list[tuple[str, dict[str, Any]]]:
    return [(g, o) for g, sets in VARIANTS.items() for o in sets]


def case_id(case: tuple[str, dict[str, Any]]) -> str:
    game_id, options = case
    return game_id + ":" + ",".join(f"{k}={v}" for k, v in options.items())
