"""A bad option value gets the same message from the kernel, the CLI (-o name=value) and the web
API (create and check), because all three run the game's declared option schema."""

import pytest
from typer.testing import CliRunner

import trapworks
from trapworks.cli import app
from trapworks.core import OptionError

CASES = [
    ("last-mouse-lost", "rules", "expert", "rules=expert"),
    ("last-mouse-lost", "first_to", 0, "first_to=0"),
    ("booby-trap", "teaching", "yes", "teaching=yes"),
    ("booby-trap", "variant", "speed", "variant=speed"),
    ("dead-end-drive", "players", 5, "players=5"),
    ("dead-end-drive", "wild_cards", 5, "wild_cards=5"),
    ("mouse-trap", "trap_reliability", 1.5, "trap_reliability=1.5"),
    ("mouse-trap", "first_player", 3, "first_player=3"),
]


@pytest.mark.parametrize(("gid", "name", "value", "cli"), CASES)
def test_kernel_cli_and_api_refuse_a_bad_value_with_one_message(
    client, gid, name, value, cli, tmp_path, monkeypatch
):
    with pytest.raises(OptionError) as e:
        trapworks.make(gid, **{name: value})
    message = str(e.value)
    assert name in message

    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path))
    result = CliRunner().invoke(app, ["simulate", gid, "-o", cli, "-n", "1"])
    assert result.exit_code != 0
    assert " ".join(result.output.split()) == f"error: {message}"

    checked = client.post(f"/api/catalog/{gid}/check", json={"options": {name: value}})
    assert checked.status_code == 400 and checked.json()["error"] == message
    n = trapworks.make(gid).num_players()
    created = client.post(
        "/api/games",
        json={"game": gid, "options": {name: value}, "seats": [{"kind": "human"}] * n},
    )
    assert created.status_code == 400 and created.json()["error"] == message


def test_the_catalog_sends_each_games_schema(client):
    games = {g["id"]: g for g in client.get("/api/catalog").json()["games"]}
    schema = {o["name"]: o for o in games["last-mouse-lost"]["options_schema"]}
    assert schema["rules"]["control"] == "select" and schema["rules"]["label"] == "Rules"
    assert {c["value"] for c in schema["rules"]["choices"]} == {"basic", "advanced"}
    assert schema["first_player"]["choices"][0]["label"] == "Player 1"
    bt = {o["name"]: o for o in games["booby-trap"]["options_schema"]}
    assert bt["teaching"]["control"] == "toggle"
    assert bt["tension_noise"]["control"] == "number" and bt["tension_noise"]["max"] == 1.0
    # what the rulebook says, without its code (the eighth judge read "Rulebook: 001: ...")
    assert bt["pieces_per_size"]["source"] == "20 of each piece (a later remake has 21)"


def test_cli_games_lists_the_schema():
    result = CliRunner().invoke(app, ["games"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "Round wins to take the match" in result.output and "first_to" in result.output
