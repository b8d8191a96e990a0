"""The docs' option tables, generated from each game's option schema and spec (no table is kept
by hand): docs/<game id>.md holds its table between the markers below, and
tests/core/test_docs_tables.py keeps it equal to this text (`python scripts/write-docs-tables.py`
rewrites them)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from trapworks.adapters.params import openspiel_name, param_default
from trapworks.core.options import Option, choice_key
from trapworks.core.spec import GameSpec

BEGIN = "<!-- options table: generated from the option schema (scripts/write-docs-tables.py); do not edit -->"
END = "<!-- end of the generated options table -->"


def _code(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return f"`{text}`"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _values(o: Option) -> str:
    if o.kind == "choice":
        parts = []
        for c in o.choices:
            label = o.labels.get(choice_key(c))
            parts.append(f"{_code(c)} ({label})" if label and label != str(c) else _code(c))
        text = ", ".join(parts)
    elif o.kind == "bool":
        text = "`true`, `false`"
    elif o.kind in ("int", "float"):
        low = "" if o.minimum is None else f"{o.minimum:g}"
        high = "" if o.maximum is None else f"{o.maximum:g}"
        noun = "whole number" if o.kind == "int" else "number"
        if low and high:
            text = f"a {noun} from {low} to {high}"
        elif low:
            text = f"a {noun} from {low}"
        else:
            text = f"a {noun}"
    elif o.kind == "list":
        text = "a list (JSON)"
    elif o.kind == "mapping":
        text = "a mapping (JSON)"
    else:
        text = "see the game"
    if o.nullable:
        text += f"; `null`: {o.null_label or 'the game decides'}"
    return text


def options_table(spec: GameSpec) -> str:
    """The markdown table of a game's options: name, default, values, OpenSpiel parameter, meaning."""
    lines = [
        f"| option | default | values | OpenSpiel ({openspiel_name(spec)}) | what it does |",
        "|---|---|---|---|---|",
    ]
    for o in spec.game.options_schema:
        meaning = f"**{o.label}**: {o.help}" if o.help else f"**{o.label}**"
        if o.source:
            meaning += f" *Rulebooks: {o.source}.*"
        if o.advanced:
            meaning += " (advanced)"
        default = (
            "`null`" + (f" ({o.null_label})" if o.null_label else "")
            if o.default is None
            else _code(o.default)
        )
        lines.append(
            "| "
            + " | ".join(
                _cell(c)
                for c in (f"`{o.name}`", default, _values(o), f"`{o.name}={param_default(o)}`", meaning)
            )
            + " |"
        )
    if spec.seeded_setup:
        lines.append(
            "| (OpenSpiel only) | | -1 or a whole number | `seed=-1` | -1: what is hidden (the deal, "
            "the draws, a touch's noise) is chance nodes of the tree; n >= 0: the kernel's seeded "
            "setup n, one deal (docs/research.md) |"
        )
    return "\n".join(lines) + "\n"


def docs_path(spec: GameSpec, root: Path) -> Path | None:
    """The game's docs page: README.md in the game's own package folder (a game from another
    package brings its page along), else docs/<game id>.md under `root`; None: it has none."""
    module = sys.modules.get(spec.game.__module__)
    own = Path(module.__file__).parent / "README.md" if module is not None and module.__file__ else None
    for path in (own, root / "docs" / f"{spec.game_id}.md"):
        if path is not None and path.is_file():
            return path
    return None


def with_table(text: str, spec: GameSpec) -> str:
    """`text` (a game's docs page) with its generated table brought up to date."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError(
            f"docs for {spec.game_id}: no generated options table (add the markers {BEGIN!r} ... {END!r})"
        )
    return text[: start + len(BEGIN)] + "\n\n" + options_table(spec) + "\n" + text[end:]


__all__ = ["BEGIN", "END", "docs_path", "options_table", "with_table"]
