"""examples/explore_rows.ipynb, executed (nbclient) on a small explore run: it loads the rows with
DuckDB and reproduces the report's seat table exactly (the notebook asserts it; the test checks
its output against the run's own summary too)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

ROOT = Path(__file__).resolve().parents[2]
TRAPWORKS = str(Path(sys.executable).with_name("trapworks"))


def test_the_notebook_reproduces_the_reports_seat_table(tmp_path, monkeypatch):
    run = tmp_path / "mt-run"
    made = subprocess.run(
        [TRAPWORKS, "explore", "mouse-trap", "--vary", "variant=milton-bradley,original", "--players", "3",
         "-n", "40", "--out", str(run), "--json"],
        capture_output=True, text=True,
        env={"TRAPWORKS_HOME": str(tmp_path), "PATH": "/usr/bin:/bin",
             "NUMBA_CACHE_DIR": os.environ["NUMBA_CACHE_DIR"]},
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    cells = json.loads(made.stdout)["cells"]
    nb = nbformat.read(ROOT / "examples" / "explore_rows.ipynb", as_version=4)
    monkeypatch.setenv("TRAPWORKS_RUN", str(run))
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    text = "".join(
        out.get("text", "")
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
    )
    assert "reproduced from the Parquet rows" in text
    rows = json.loads(text.strip().splitlines()[-1])
    assert len(rows) == 6
    for r in rows:
        seat = cells[r["cell"]]["seats"][int(r["seat"]) - 1]
        assert r["wins"] == seat["wins"]
