"""`trapworks explore`: grids from --vary/--players or the game's own cells, the report's files and
statistics, and bad arguments in one line (exit 2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import trapworks
from trapworks.core import OptionError, explore_cells, game_class
from trapworks.sim.explore import GridError, build_grid, comparisons, parse_vary

TRAPWORKS = str(Path(sys.executable).with_name("trapworks"))


def test_vary_and_players_make_the_product_of_cells():
    grid = build_grid("mouse-trap", ["variant=milton-bradley,original", "trap_reliability=1.0,0.5"], [2, 4])
    assert len(grid) == 8
    assert grid[0].options == {"variant": "milton-bradley", "trap_reliability": 1.0, "players": 2}
    assert grid[0].label == "variant=milton-bradley, trap_reliability=1.0, 2p"
    assert parse_vary(["first_to=1,3"]) == [("first_to", [1, 3])]


@pytest.mark.parametrize("game_id", ["mouse-trap", "booby-trap", "last-mouse-lost", "dead-end-drive"])
def test_every_game_has_a_default_grid_of_valid_distinct_cells(game_id):
    cells = explore_cells(game_class(game_id))
    assert len(cells) >= 2
    grid = build_grid(game_id)
    assert len({c.label for c in grid}) == len(grid) == len(cells)
    for c in grid:
        trapworks.make(game_id, **c.options)


def test_mouse_trap_default_grid_is_000_against_003_and_each_differing_rule_alone():
    grid = build_grid("mouse-trap")
    labels = [c.label for c in grid]
    assert labels[:2] == ["000 milton-bradley", "003 original"]
    single = [c for c in grid[2:]]
    # The seven rows of RULES-NOTES.md's table where 000 and 003 differ, and Turn Crank's "turn the
    # crank" (000) against "are allowed to attempt" (003), found in review (crank_required).
    assert len(single) == 8
    assert any("crank_required" in c.options for c in single)
    for c in single:
        assert c.options["variant"] == "milton-bradley" and len(c.options) == 2


def test_bad_grids_name_the_problem():
    with pytest.raises(GridError, match="OPTION=V1,V2"):
        build_grid("mouse-trap", ["variant"])
    with pytest.raises(OptionError, match="unknown option"):
        build_grid("mouse-trap", ["wheels=1,2"])
    with pytest.raises(OptionError, match="players 7"):
        build_grid("mouse-trap", [], [7])


def test_explore_writes_a_report_that_finds_a_real_difference(tmp_path):
    """Trap reliability 1.0 against 0.05: games get much longer when the trap rarely works, and
    the report says so; the seats are compared with intervals, the game's statistics too."""
    out = tmp_path / "mt"
    result = subprocess.run(
        [
            TRAPWORKS,
            "explore",
            "mouse-trap",
            "--vary",
            "trap_reliability=1.0,0.05",
            "-n",
            "60",
            "--json",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        env={
            "TRAPWORKS_HOME": str(tmp_path),
            "PATH": "/usr/bin:/bin",
            "NUMBA_CACHE_DIR": os.environ["NUMBA_CACHE_DIR"],
        },
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert set(data["cells"]) == {"trap_reliability=1.0", "trap_reliability=0.05"}
    for name in ("report.md", "report.html", "report.png", "rows.parquet"):
        assert (out / name).stat().st_size > 0
    assert not (out / "cells").exists()
    df = pd.read_parquet(out / "rows.parquet")
    assert len(df) == 120 and set(df["cell"]) == set(data["cells"])
    md = (out / "report.md").read_text()
    assert "trapworks explore mouse-trap --vary trap_reliability=1.0,0.05" in md
    assert "length (decisions)" in md and "jams" in md and "95% Wilson" in md
    tests = comparisons(out / "rows.parquet", ["trap_reliability=1.0", "trap_reliability=0.05"])
    length = next(t for t in tests if t["metric"] == "length (decisions)")
    assert length["significant"] and length["value"] > length["base_value"]
    seat = next(t for t in tests if t["metric"] == "seat 1 win rate")
    assert 0 <= seat["p_holm"] <= 1
    page = (out / "report.html").read_text()
    assert "data:image/png;base64," in page and "<table>" in page


@pytest.mark.parametrize(
    "args,words",
    [
        (["--vary", "variant"], "write OPTION=V1,V2"),
        (["--vary", "variant="], "write OPTION=V1,V2"),
        (["--vary", "wheels=1,2"], "unknown option wheels"),
        (["--vary", "variant=plastic,original"], "variant 'plastic'"),
        (["--players", "two"], "--players 'two'"),
        (["--vary", "players=2,3", "--players", "2"], "not both"),
        (["--out", "/no/such/folder/report"], "folder /no/such/folder does not exist"),
        (["--backend", "spark"], "choose local or ray"),
        (["-n", "0"], "-n must be at least 1"),
    ],
)
def test_explore_bad_arguments_one_line_exit_2(tmp_path, args, words):
    result = subprocess.run(
        [TRAPWORKS, "explore", "mouse-trap", "-n", "2", *args],
        capture_output=True,
        text=True,
        env={
            "TRAPWORKS_HOME": str(tmp_path),
            "PATH": "/usr/bin:/bin",
            "NUMBA_CACHE_DIR": os.environ["NUMBA_CACHE_DIR"],
        },
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], result.stderr


def test_the_interactive_page_never_falls_back_to_a_cdn(monkeypatch):
    """Issue 42, item 2: without vl-convert the page used to load Vega from a CDN (no chart
    offline). vl-convert-python is a dependency now; a broken install is a clear error."""
    import sys

    import altair as alt

    from trapworks.sim.explore import _chart_html

    chart = alt.Chart(alt.Data(values=[{"x": 1}])).mark_point().encode(x="x:Q")
    page = _chart_html(chart)
    assert "cdn.jsdelivr" not in page and "vegaEmbed" in page
    monkeypatch.setitem(sys.modules, "vl_convert", None)  # as if it were not installed
    with pytest.raises(RuntimeError, match="vl-convert-python"):
        _chart_html(chart)
