"""--players with a game whose player count is fixed, and with a default grid whose cells are
made for a count of their own (issue 42): `trapworks explore last-mouse-lost -p 2` was refused
("unknown option players") and so was `simulate last-mouse-lost -p 2`; `explore booby-trap -p 2`
was refused because the default grid's solitaire cell is for one player."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from trapworks.cli import app
from trapworks.core import OptionError
from trapworks.sim.explore import GridError, build_grid

cli = CliRunner()


def test_a_fixed_count_asked_for_is_the_game_as_it_is():
    grid = build_grid("last-mouse-lost", [], [2])
    assert grid == build_grid("last-mouse-lost")
    assert all("players" not in c.options for c in grid)


def test_another_count_for_a_fixed_count_game_says_what_to_do():
    with pytest.raises(GridError, match="always played by 2 players.*leave the player count out"):
        build_grid("last-mouse-lost", [], [2, 3])


def test_a_cell_made_for_its_own_count_is_left_out_not_the_grid():
    two = build_grid("booby-trap", [], [2])
    assert two and all(c.options["players"] == 2 for c in two)
    assert "solitaire" not in {c.label for c in two}
    assert [c.label for c in build_grid("booby-trap", [], [1])] == ["solitaire"]
    with pytest.raises(OptionError, match="unknown option wheels"):  # a varied grid is never trimmed
        build_grid("booby-trap", ["wheels=1,2"], [2])


def test_explore_and_simulate_take_the_fixed_count(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path))
    common = ["-n", "2", "-a", "easy", "--max-actions", "6"]
    explore = cli.invoke(
        app, ["explore", "last-mouse-lost", "-p", "2", *common, "--out", str(tmp_path / "ex")]
    )
    assert explore.exit_code == 0, explore.output
    assert (tmp_path / "ex" / "report.html").stat().st_size > 0
    rows = str(tmp_path / "rows.parquet")
    simulate = cli.invoke(app, ["simulate", "last-mouse-lost", "-p", "2", *common, "--out", rows])
    assert simulate.exit_code == 0, simulate.output
    refused = cli.invoke(app, ["simulate", "last-mouse-lost", "-p", "3", *common, "--out", rows])
    assert refused.exit_code == 2
    assert "always played by 2 players" in refused.output
