"""Write the published JSON Schemas (docs/schema/*.json) from the pydantic models.

Run after changing a model: .venv/bin/python scripts/write-schemas.py
(tests/core/test_record_schema.py fails while a published schema is stale)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from trapworks.core.record import record_json_schema
from trapworks.server.protocol import write_schemas

DOCS = Path(__file__).resolve().parents[1] / "docs" / "schema"


def schemas() -> dict[str, dict[str, Any]]:
    """File name -> schema, for everything published under docs/schema/."""
    return {
        "record.schema.json": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            **record_json_schema(),
        }
    }


def schema_text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    DOCS.mkdir(parents=True, exist_ok=True)
    for name, schema in schemas().items():
        (DOCS / name).write_text(schema_text(schema), encoding="utf-8")
        print(f"wrote {DOCS / name}")
    for path in write_schemas(DOCS):  # the API's messages (also served at /api/schema/<name>)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
