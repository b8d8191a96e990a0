"""A new Mouse Trap option, added in this fixture alone (a subclass with one more declared option
and its rule), reaches the CLI, the lobby's catalog, the record, the OpenSpiel parameters and the
docs' option table with no edit anywhere else: each of those is derived from the option schema."""

from __future__ import annotations

import dataclasses
import json

import pytest
from typer.testing import CliRunner

import trapworks
from trapworks.adapters.params import options_from_params, parameter_specification
from trapworks.cli.optiondocs import options_table
from trapworks.core import GameRecord, Option
from trapworks.core.registry import game_spec, register_spec
from trapworks.games.mouse_trap import SPEC, MouseTrapGame, MouseTrapState

NEW = Option.integer(
    "starting_cheese",
    0,
    0,
    5,
    label="Cheese to start with",
    help="Each mouse starts with this much cheese from the pile (a house rule).",
)


class HouseRulesGame(MouseTrapGame):
    options_schema = (*MouseTrapGame.options_schema, NEW)

    def new_initial_state(self, seed: int | None = None) -> MouseTrapState:
        state = super().new_initial_state(seed)
        n = self.options["starting_cheese"]
        for seat in range(len(state.cheese)):
            state.cheese[seat] += n
        state.pile -= n * len(state.cheese)
        return state


@pytest.fixture
def house_rules():
    spec = dataclasses.replace(SPEC, game=HouseRulesGame)
    register_spec(spec)  # "mouse-trap" now makes the game with the new option
    yield spec
    register_spec(SPEC)
    assert game_spec("mouse-trap") is SPEC


def test_the_new_option_reaches_the_cli_and_the_record(house_rules, tmp_path, monkeypatch):
    from trapworks.cli import app

    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path))
    runner = CliRunner()
    out = tmp_path / "game.json"
    args = ["play", "mouse-trap", "--seats", "random,random", "-o", "turn_limit=3", "--seed", "1"]
    result = runner.invoke(app, [*args, "-o", "starting_cheese=2", "--save", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["options"]["starting_cheese"] == 2
    record = GameRecord.load(out)
    assert record.replay().game.options["starting_cheese"] == 2
    first = trapworks.make("mouse-trap", starting_cheese=2).new_initial_state(seed=1)
    assert first.cheese == [2, 2]  # the rule, played
    bad = runner.invoke(app, [*args, "-o", "starting_cheese=9"])
    assert bad.exit_code != 0 and "starting_cheese" in bad.output


def test_the_new_option_reaches_the_lobby_catalog(house_rules, tmp_path):
    from fastapi.testclient import TestClient

    from trapworks.server import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.sqlite'}")) as client:
        games = {g["id"]: g for g in client.get("/api/catalog").json()["games"]}
        schema = {o["name"]: o for o in games["mouse-trap"]["options_schema"]}
        assert schema["starting_cheese"]["label"] == "Cheese to start with"
        assert (schema["starting_cheese"]["min"], schema["starting_cheese"]["max"]) == (0, 5)
        ok = client.post("/api/catalog/mouse-trap/check", json={"options": {"starting_cheese": 3}})
        assert ok.status_code == 200 and ok.json()["options"]["starting_cheese"] == 3
        bad = client.post("/api/catalog/mouse-trap/check", json={"options": {"starting_cheese": 6}})
        assert bad.status_code == 400 and "starting_cheese" in bad.json()["error"]


def test_the_new_option_reaches_the_openspiel_parameters_and_the_docs_table(house_rules):
    params = parameter_specification(house_rules)
    assert params["starting_cheese"] == 0
    options, _ = options_from_params(house_rules, {"starting_cheese": 4, "players": 3})
    assert options == {"starting_cheese": 4, "players": 3}
    row = next(line for line in options_table(house_rules).splitlines() if "`starting_cheese`" in line)
    assert "Cheese to start with" in row and "from 0 to 5" in row and "`starting_cheese=0`" in row
    assert "starting_cheese" not in options_table(SPEC)
