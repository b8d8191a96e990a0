"""A seeded simulation is reproducible with level agents (issue 42): the levels' searches stop
on their iteration budget alone in `simulate`, `tournament` and `explore`, never on the clock,
so the same seed gives the same rows on any machine under any load. (Before, `-a hard,easy`
kept the levels' time caps: a loaded machine cut the searches short and the rows differed.)"""

from __future__ import annotations

import types

import pyarrow.parquet as pq
from typer.testing import CliRunner

import trapworks.agents.mcts as mcts_module
from trapworks.cli import app
from trapworks.sim import play_one


def test_a_slow_clock_changes_no_move(monkeypatch):
    # The searches as an overloaded machine would run them: 10 s pass between two looks at the
    # clock, so any time cap ends a search after its first iteration.
    seats = ["medium", "easy"]
    games = [play_one("last-mouse-lost", {}, seats, seed, keep_record=True) for seed in (1, 2, 3)]
    ticks = iter(range(0, 10**9, 10))
    monkeypatch.setattr(mcts_module, "time", types.SimpleNamespace(perf_counter=lambda: float(next(ticks))))
    slow = [play_one("last-mouse-lost", {}, seats, seed, keep_record=True) for seed in (1, 2, 3)]
    assert [g.record for g in slow] == [g.record for g in games]
    assert [g.returns for g in slow] == [g.returns for g in games]


def test_two_seeded_runs_write_identical_rows(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path))
    tables = []
    for k in (1, 2):
        out = tmp_path / f"run{k}.parquet"
        args = ["last-mouse-lost", "-n", "12", "-a", "hard,easy", "--seed", "7", "--out", str(out)]
        result = CliRunner().invoke(app, ["simulate", *args])
        assert result.exit_code == 0, result.output
        tables.append(pq.read_table(out))
    first, second = tables
    assert first.num_rows == 12
    assert first.to_pylist() == second.to_pylist()
