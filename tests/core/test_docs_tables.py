"""The option tables in docs/<game>.md are generated from each game's option schema; this keeps
them equal to the generated text (run scripts/write-docs-tables.py after changing an option)."""

from __future__ import annotations

from pathlib import Path

import pytest

import trapworks
from trapworks.cli.optiondocs import docs_path, options_table, with_table
from trapworks.core.registry import game_spec

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game_id", trapworks.available_games())
def test_each_games_docs_table_is_the_generated_one(game_id: str) -> None:
    spec = game_spec(game_id)
    path = docs_path(spec, ROOT)
    if path is None:
        pytest.skip(f"{game_id} has no docs page (docs/{game_id}.md or README.md in its folder)")
    text = path.read_text(encoding="utf-8")
    assert with_table(text, spec) == text, (
        f"{path}'s options table is stale: run .venv/bin/python scripts/write-docs-tables.py"
    )
    for o in spec.game.options_schema:
        assert f"| `{o.name}` |" in options_table(spec)
