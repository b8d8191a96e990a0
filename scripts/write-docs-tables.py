"""Rewrite the generated options table in every game's docs page (docs/<game id>.md, or README.md
in the game's own folder) from the
game's option schema. Run after changing an option:

    .venv/bin/python scripts/write-docs-tables.py

(tests/core/test_docs_tables.py fails while a table is stale)."""

from __future__ import annotations

from pathlib import Path

from trapworks.cli.optiondocs import docs_path, with_table
from trapworks.core.registry import game_specs

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    for spec in game_specs():
        path = docs_path(spec, ROOT)
        if path is None:
            continue
        text = path.read_text(encoding="utf-8")
        new = with_table(text, spec)
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
