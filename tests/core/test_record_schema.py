"""The game record's pydantic model: bad fields named in the error, and its published JSON
Schema (docs/schema/record.schema.json) current and agreeing with what the code accepts."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import trapworks
from trapworks.core import GameRecord, RecordError, record_json_schema

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED = ROOT / "docs" / "schema" / "record.schema.json"


def _writer() -> Any:
    spec = importlib.util.spec_from_file_location("write_schemas", ROOT / "scripts" / "write-schemas.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def a_record() -> dict[str, Any]:
    state = trapworks.make("last-mouse-lost").new_initial_state(seed=5)
    for text in ("c6", "a1", "b5"):
        state.apply_action(state.string_to_action(text))
    return GameRecord.from_state(state, players=["ann", "bob"]).to_dict()


def test_published_schema_is_current() -> None:
    writer = _writer()
    for name, schema in writer.schemas().items():
        published = (ROOT / "docs" / "schema" / name).read_text(encoding="utf-8")
        assert published == writer.schema_text(schema), (
            f"docs/schema/{name} is stale: run .venv/bin/python scripts/write-schemas.py"
        )
    assert json.loads(PUBLISHED.read_text())["properties"] == record_json_schema()["properties"]


def test_schema_accepts_what_the_code_writes_and_rejects_what_it_refuses() -> None:
    schema = json.loads(PUBLISHED.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    good = a_record()
    jsonschema.validate(good, schema)
    for bad in ({**good, "seed": "abc"}, {**good, "actions": ["c6", 5]}, {**good, "format": "pgn"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)
        with pytest.raises(RecordError):
            GameRecord.from_dict(bad)
    missing = {k: v for k, v in good.items() if k != "game"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(missing, schema)


@pytest.mark.parametrize(
    "change, words",
    [
        ({"seed": True}, "record 'seed' must be an integer (or its decimal digits as text) or null (seed:"),
        ({"seed": 1.5}, "'seed' must be an integer"),
        ({"actions": ["c6", 5]}, "'actions' must be a list of action strings (actions.1:"),
        ({"players": "ann"}, "'players' must be a list"),
        ({"result": ["win"]}, "'result' must be a list of numbers or null (result.0:"),
        ({"start": 3}, "'start' must be a position string or null"),
        ({"game": 7}, "'game' must be a game id string"),
        ({"version": 2}, "record version 2 is not supported"),
        ({"options": []}, "'options' must be an object"),
    ],
)
def test_a_bad_field_is_named(change: dict[str, Any], words: str) -> None:
    with pytest.raises(RecordError) as caught:
        GameRecord.from_dict({**a_record(), **change})
    assert words in str(caught.value)


def test_round_trip_and_lenient_where_the_old_reader_was() -> None:
    data = a_record()
    record = GameRecord.from_dict(data)
    assert record.to_dict() == data and GameRecord.from_json(record.to_json()).to_dict() == data
    # Missing format/version mean the current ones; unknown extra fields are ignored;
    # numeric seat labels are kept as text.
    old = {k: v for k, v in data.items() if k not in ("format", "version")}
    relaxed = GameRecord.from_dict({**old, "comment": "from an older tool", "players": [1, 2]})
    assert relaxed.players == ["1", "2"] and relaxed.replay().position() == record.replay().position()
