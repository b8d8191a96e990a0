"""Declared game options: one schema per game checks options for the kernel, the CLI and the API,
and tells front ends how to offer them (label, one-line help, control, rulebook source).

A game lists its options once, in `Game.options_schema`:

    options_schema = (
        Option.choice("variant", "milton-bradley", ["milton-bradley", "original"], label="Rulebook",
                      help="Which edition's rules to play", labels={"original": "Original (1963)"}),
        Option.boolean("teaching", False, label="Show the forces", help="..."),
        Option.integer("players", 2, 2, 4, label="Players", help="How many play"),
    )

`Game.default_options` is derived from it; `Game.__init__` runs every value through
`Option.check`, so a bad value gets the same message from `make()`, `trapworks -o` and the web
API. What the schema cannot say (one option's range depending on another) stays in the game's
`_validate_options`, which runs after the schema's checks.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import OptionError

# What a value is and the control a front end offers for it:
# choice -> a select, bool -> a toggle, int/float -> a number field, list/mapping -> a text field
# holding JSON (rare, expert options), any -> whatever the game's own check accepts.
Kind = Literal["choice", "bool", "int", "float", "list", "mapping", "any"]


def _label_from_name(name: str) -> str:
    return name.replace("_", " ").capitalize()


def choice_key(value: Any) -> str:
    """How a choice is keyed in `Option.labels` and in JSON: its JSON text ('0', '"random"')."""
    return json.dumps(value)


@dataclass(frozen=True)
class Option:
    """One option of a game. Build with the constructors below (Option.choice, .boolean, ...)."""

    name: str
    kind: Kind
    default: Any
    label: str = ""
    help: str = ""
    choices: tuple[Any, ...] = ()
    # choice -> words for players, keyed by the choice's JSON text (choice_key); unlisted: str(choice)
    labels: Mapping[str, str] = field(default_factory=dict)
    # choice -> its short name inside a line ("basic rules" in "basic rules, 2 players": a game's
    # variant on a profile), keyed like labels; unlisted: its label (choice_name).
    names: Mapping[str, str] = field(default_factory=dict)
    minimum: float | None = None
    maximum: float | None = None
    # None is allowed (e.g. "take the variant's value"); `null_label` says what it means to players.
    nullable: bool = False
    null_label: str = ""
    # Where it is a rulebook difference or a rule the rulebooks leave open: which seed says what.
    source: str = ""
    # Rarely changed (the lobby shows it under "more options").
    advanced: bool = False
    # What the value is, in the error message: "a whole number from 2 to 4" (made when empty).
    expects: str = ""
    # An extra check or normalisation for list/mapping/any kinds: returns the value or raises
    # OptionError(message) naming the problem.
    convert: Callable[[Any], Any] | None = None

    # --- constructors ------------------------------------------------------------------------
    @classmethod
    def choice(
        cls,
        name: str,
        default: Any,
        choices: Sequence[Any],
        *,
        labels: Mapping[Any, str] | None = None,
        names: Mapping[Any, str] | None = None,
        **kw: Any,
    ) -> Option:
        keyed = {choice_key(k): v for k, v in (labels or {}).items()}
        short = {choice_key(k): v for k, v in (names or {}).items()}
        return cls(name, "choice", default, choices=tuple(choices), labels=keyed, names=short, **kw)

    @classmethod
    def boolean(cls, name: str, default: bool | None, **kw: Any) -> Option:
        return cls(name, "bool", default, **kw)

    @classmethod
    def integer(
        cls, name: str, default: int | None, minimum: int, maximum: int | None = None, **kw: Any
    ) -> Option:
        return cls(name, "int", default, minimum=minimum, maximum=maximum, **kw)

    @classmethod
    def number(cls, name: str, default: float | None, minimum: float, maximum: float, **kw: Any) -> Option:
        return cls(name, "float", default, minimum=minimum, maximum=maximum, **kw)

    @classmethod
    def custom(cls, name: str, default: Any, kind: Kind, convert: Callable[[Any], Any], **kw: Any) -> Option:
        return cls(name, kind, default, convert=convert, **kw)

    # --- words ------------------------------------------------------------------------------
    @property
    def title(self) -> str:
        return self.label or _label_from_name(self.name)

    def choice_label(self, value: Any) -> str:
        if value is None:
            return self.null_label or "default"
        if self.kind == "bool" and choice_key(value) not in self.labels:
            return "yes" if value else "no"
        return self.labels.get(choice_key(value), str(value))

    def choice_name(self, value: Any) -> str:
        """A choice's short name inside a line (a message id of the catalog, like its label)."""
        return self.names.get(choice_key(value)) or self.choice_label(value)

    def _span(self) -> str:
        lo, hi = self.minimum, self.maximum
        if hi is None:
            return f"at least {lo:g}"
        return f"from {lo:g} to {hi:g}"

    def expectation(self) -> str:
        """What a good value is, in words ("a whole number from 2 to 4")."""
        if self.expects:
            text = self.expects
        elif self.kind == "choice":
            names = [str(c) for c in self.choices]
            text = (
                f"choose {names[0]} or {names[1]}" if len(names) == 2 else "choose one of " + ", ".join(names)
            )
        elif self.kind == "bool":
            text = "true or false"
        elif self.kind == "int":
            text = f"a whole number {self._span()}"
        elif self.kind == "float":
            text = f"a number {self._span()}"
        else:
            text = "a value this option accepts"
        if self.nullable:
            text += f", or null ({self.null_label or 'the default'})"
        return text

    def error(self, value: Any, why: str | None = None) -> OptionError:
        """The one message every front end shows for a bad value of this option."""
        return OptionError(f"{self.name} {value!r}: {why or self.expectation()}")

    # --- checking ---------------------------------------------------------------------------
    def check(self, value: Any) -> Any:
        """The value, normalised; OptionError if bad. Strict about types: a command line reads its
        texts as JSON first (cli/options.py), so `-o teaching=true` arrives as True."""
        if value is None:
            if self.nullable or (self.default is None and self.kind == "any"):
                return None
            raise self.error(value)
        if self.kind == "choice":
            for c in self.choices:
                if value == c and type(value) is type(c):
                    return c
            raise self.error(value)
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise self.error(value)
        if self.kind in ("int", "float"):
            number = self._number(value)
            if number is None:
                raise self.error(value)
            lo, hi = self.minimum, self.maximum
            if (lo is not None and number < lo) or (hi is not None and number > hi):
                raise self.error(value)
            return number
        if self.convert is not None:
            try:
                return self.convert(value)
            except OptionError:
                raise
            except (TypeError, ValueError) as e:
                raise self.error(value, str(e) or None) from None
        return value

    def _number(self, value: Any) -> int | float | None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        if self.kind == "int":
            if isinstance(value, float) and not value.is_integer():
                return None
            return int(value)
        if not math.isfinite(value):
            return None
        return float(value)

    # --- for front ends -----------------------------------------------------------------------
    def control(self) -> str:
        """The control a front end offers: select, toggle, number or text."""
        if self.kind == "choice" or (self.kind == "bool" and self.nullable) or self._small_range():
            return "select"
        if self.kind == "bool":
            return "toggle"
        if self.kind in ("int", "float") and not self.nullable:
            return "number"
        return "text"

    def _small_range(self) -> bool:
        # A whole number with a handful of values (players: 2 to 4) reads best as a list.
        lo, hi = self.minimum, self.maximum
        return self.kind == "int" and lo is not None and hi is not None and hi - lo <= 8

    def to_json(self) -> dict[str, Any]:
        """The schema entry the web API sends (the lobby builds its controls from it)."""
        out: dict[str, Any] = {
            "name": self.name,
            "type": self.kind,
            "control": self.control(),
            "default": self.default,
            "label": self.title,
            "help": self.help,
            "source": self.source,
            "advanced": self.advanced,
            "nullable": self.nullable,
            "expects": self.expectation(),
        }
        values: list[Any] = []
        if self.kind == "choice":
            values = list(self.choices)
        elif self.kind == "bool" and self.nullable:
            values = [True, False]
        elif self._small_range() and self.minimum is not None and self.maximum is not None:
            values = list(range(int(self.minimum), int(self.maximum) + 1))
        if values or (self.nullable and out["control"] == "select"):
            choices = [{"value": v, "label": self.choice_label(v)} for v in values]
            if self.nullable:
                choices.insert(0, {"value": None, "label": self.choice_label(None)})
            out["choices"] = choices
        if self.kind in ("int", "float"):
            out["min"] = self.minimum
            out["max"] = self.maximum
            out["step"] = 1 if self.kind == "int" else 0.05
        return out


def untyped(name: str, default: Any) -> Option:
    """An option declared the old way (only in `default_options`): no check of its own; the game's
    `_validate_options` checks it. Convert it to a typed Option (see the module docstring)."""
    return Option(name, "any", default, help="", advanced=True)


def check_options(schema: Sequence[Option], options: dict[str, Any]) -> dict[str, Any]:
    """Each value through its option's check, in schema order (the first bad one is named)."""
    out = dict(options)
    for opt in schema:
        if opt.name in out:
            out[opt.name] = opt.check(out[opt.name])
    return out


__all__ = ["Option", "Kind", "check_options", "choice_key", "untyped"]
