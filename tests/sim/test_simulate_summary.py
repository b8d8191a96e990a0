"""`simulate` prints its summary for every agent a seat takes: the levels and each game's own
agents, winless agents included (issue 42, item 1: `-a hard,easy` in Last Mouse Lost ended in
`KeyError: 'easy'` after the games, as the summary only knew agents that had won)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import trapworks
from trapworks.cli import app

cli = CliRunner()
GAMES = ("last-mouse-lost", "mouse-trap", "booby-trap", "dead-end-drive")


def simulate(tmp_path, monkeypatch, *args: str):
    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path))
    return cli.invoke(app, ["simulate", *args, "--out", str(tmp_path / "rows.parquet")])


def test_an_agent_that_never_wins_is_in_the_summary(tmp_path, monkeypatch):
    result = simulate(tmp_path, monkeypatch, "last-mouse-lost", "-n", "30", "-a", "hard,easy")
    assert result.exit_code == 0, result.output
    assert "agent easy" in result.output and "agent hard" in result.output
    assert "Game length" in result.output


@pytest.mark.parametrize("game_id", GAMES)
def test_every_level_and_every_own_agent_gets_a_summary(tmp_path, monkeypatch, game_id):
    game = trapworks.make(game_id)
    names = ["easy", "medium", "hard", *game.agents]
    if len(names) % 2:
        names.append("random")
    players = [] if game_id == "last-mouse-lost" else ["--players", "2"]
    # Two at a time, a few actions a game so that the hard searches stay cheap and every game is
    # truncated: no agent wins, and every agent must still be listed.
    for pair in zip(names[::2], names[1::2], strict=True):
        args = [game_id, "-n", "2", "-a", ",".join(pair), *players, "--rotate", "--max-actions", "2"]
        result = simulate(tmp_path, monkeypatch, *args, "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        assert set(data["agent_games"]) == set(data["agent_wins"]) == set(pair)
        assert data["truncated"] == 2
        table = simulate(tmp_path, monkeypatch, *args)  # the printed table, not only the JSON
        assert table.exit_code == 0, table.output
        assert all(f"agent {name}" in table.output for name in pair)
