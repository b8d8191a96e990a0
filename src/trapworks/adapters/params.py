"""OpenSpiel game parameters and game facts, derived from a game's spec and option schema.

No table is kept by hand: every declared option (core/options.py) becomes a parameter, written
so that it survives OpenSpiel's game strings (which know only ints, floats, bools and strings,
and split on `,`):

- an int, float or bool option is a parameter of that type; a *nullable* one ("the variant's
  value") is -1 (-1.0) for null, and a nullable bool or choice is a string: `variant` for null,
  `yes`/`no` for a bool;
- a choice among strings is a string; a choice among seats with one word ("random") is an int,
  -1 standing for the word;
- a list is `;`-separated (`board=3;5;6`; one element: `board=5;`); a mapping `key:value;...`;
- a game whose setup comes from a seed (spec.seeded_setup) has a `seed` parameter.

Nothing here imports pyspiel: the docs' tables and the tests use it too.
"""

from __future__ import annotations

import json
from typing import Any

from trapworks.core.options import Option
from trapworks.core.registry import game_spec
from trapworks.core.spec import GameSpec

NULL_WORD = "variant"  # a nullable choice or bool left to the game (the rulebook's value)


def openspiel_name(spec: GameSpec) -> str:
    return f"trapworks_{spec.snake_name}"


def gym_id(spec: GameSpec) -> str:
    return f"trapworks/{spec.camel_name}-v0"


def _word_choice(o: Option) -> tuple[bool, str | None]:
    """(ints with at most one word, that word) for a choice option."""
    words = [c for c in o.choices if isinstance(c, str)]
    ints = [c for c in o.choices if isinstance(c, int) and not isinstance(c, bool)]
    return (bool(ints) and len(words) <= 1 and len(ints) + len(words) == len(o.choices)), (
        words[0] if words else None
    )


def param_default(o: Option) -> Any:
    """The OpenSpiel parameter default of option `o` (its type fixes the parameter's type)."""
    d = o.default
    if o.kind == "choice":
        numeric, word = _word_choice(o)
        if numeric:
            return -1 if d is None or d == word else int(d)
        return NULL_WORD if d is None else str(d)
    if o.kind == "bool":
        if o.nullable:
            return NULL_WORD if d is None else ("yes" if d else "no")
        return bool(d)
    if o.kind == "int":
        return -1 if d is None else int(d)
    if o.kind == "float":
        return -1.0 if d is None else float(d)
    if o.kind == "list":
        return "" if d is None else _list_text(d)
    if o.kind == "mapping":
        return "" if d is None else ";".join(f"{k}:{v}" for k, v in d.items())
    return "" if d is None else json.dumps(d)


def parameter_specification(spec: GameSpec) -> dict[str, Any]:
    """parameter -> default, for every option of the game (plus `seed` for a seeded setup)."""
    params = {o.name: param_default(o) for o in spec.game.options_schema}
    if spec.seeded_setup:
        params["seed"] = 0
    return params


def to_param(o: Option, value: Any) -> Any:
    """An option value written as its OpenSpiel parameter."""
    if value is None:
        return _null_param(o)
    if o.kind == "choice":
        numeric, word = _word_choice(o)
        if numeric:
            return -1 if value == word else int(value)
        return str(value)
    if o.kind == "bool" and o.nullable:
        return "yes" if value else "no"
    if o.kind == "list":
        return _list_text(value)
    if o.kind == "mapping":
        return ";".join(f"{k}:{v}" for k, v in value.items())
    return value


def _list_text(values: Any) -> str:
    # `;` between elements, and after a lone one (OpenSpiel would read "5" as an int).
    return ";".join(map(str, values)) + (";" if len(values) == 1 else "")


def _null_param(o: Option) -> Any:
    """How null ("the game's own value") is written for option `o`."""
    default = param_default(o)
    if isinstance(default, bool):
        raise ValueError(f"{o.name} cannot be null")
    if isinstance(default, int):
        return -1
    if isinstance(default, float):
        return -1.0
    return NULL_WORD if o.kind in ("choice", "bool") else ""


def params_from_options(spec: GameSpec, options: dict[str, Any]) -> dict[str, Any]:
    """OpenSpiel parameters for trapworks options (the inverse of options_from_params)."""
    out = {}
    for key, value in options.items():
        out[key] = to_param(spec.game.option(key), value)
    return out


def _from_param(name: str, o: Option, value: Any) -> tuple[bool, Any]:
    """(given, option value) for parameter value `value` of option `o`; given False: the
    parameter says "the default" (null)."""
    if o.kind == "choice":
        numeric, word = _word_choice(o)
        if numeric:
            if value == -1:
                return (word is not None or not o.nullable), word
            return True, int(value)
        value = str(value)
        if o.nullable and value == NULL_WORD:
            return False, None
        return True, value
    if o.kind == "bool":
        if o.nullable:
            text = str(value).lower()
            if text == NULL_WORD:
                return False, None
            if text in ("yes", "no", "true", "false"):
                return True, text in ("yes", "true")
            raise ValueError(f"{name}: {o.name}={value!r}: write yes, no or {NULL_WORD}")
        return True, bool(value)
    if o.kind in ("int", "float"):
        low = o.minimum if o.minimum is not None else 0
        # -1 (or a 0 below the option's minimum) stands for null: the game's own value.
        if o.nullable and (value == -1 or (value == 0 and low > 0)):
            return False, None
        return True, value
    if o.kind == "list":
        try:
            return True, [int(n) for n in str(value).replace(",", ";").split(";") if n]
        except ValueError:
            raise ValueError(f"{name}: {o.name} {value!r}: values separated by ';', e.g. 3;5;6") from None
    if o.kind == "mapping":
        if not value:
            return False, None
        pairs = [p.split(":") for p in str(value).split(";") if p]
        if any(len(p) != 2 for p in pairs):
            raise ValueError(f"{name}: {o.name} {value!r}: write key:value;...")
        return True, {k: float(v) for k, v in pairs}
    return True, json.loads(value) if isinstance(value, str) and value else value


def options_from_params(name_or_spec: str | GameSpec, params: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Trapworks options (and the setup seed) from OpenSpiel parameters of a game."""
    spec = name_or_spec if isinstance(name_or_spec, GameSpec) else spec_for_openspiel(name_or_spec)
    name = openspiel_name(spec)
    known = parameter_specification(spec)
    options: dict[str, Any] = {}
    seed = 0
    for key, value in params.items():
        if key not in known:
            raise ValueError(f"{name}: unknown parameter {key!r}; parameters: {', '.join(known)}")
        if key == "seed" and spec.seeded_setup:
            seed = int(value)
            continue
        default = known[key]
        if isinstance(default, str) and not isinstance(value, str):
            value = str(value)
        given, option_value = _from_param(name, spec.game.option(key), value)
        if given:
            options[key] = option_value
    return options, seed


def spec_for_openspiel(name: str) -> GameSpec:
    """The spec of the game registered with OpenSpiel as `name` (trapworks_<game id in snake_case>)."""
    prefix = "trapworks_"
    if not name.startswith(prefix):
        raise ValueError(f"{name!r} is not a trapworks OpenSpiel name (trapworks_...)")
    return game_spec(name[len(prefix) :].replace("_", "-"))


def player_range(spec: GameSpec) -> tuple[int, int]:
    """(fewest, most) seats: the `players` option's range, else the default game's count."""
    try:
        o = spec.game.option("players")
    except KeyError:
        o = None
    if o is not None and o.minimum is not None and o.maximum is not None:
        return int(o.minimum), int(o.maximum)
    n = spec.game().num_players()
    return n, n


__all__ = [
    "NULL_WORD",
    "gym_id",
    "openspiel_name",
    "options_from_params",
    "param_default",
    "parameter_specification",
    "params_from_options",
    "player_range",
    "spec_for_openspiel",
    "to_param",
]
