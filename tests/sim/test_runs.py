"""Resumable runs on local processes: typed rows per game, the same rows for any number of workers
or chunk size, Ctrl-C keeps finished games and --resume completes, each game's own statistics,
the batched-engine hook, and bad arguments answered in one line (exit 2)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import trapworks
from trapworks.cli import app
from trapworks.sim.runner import Job, RunError, RunIncomplete, RunSpec, execute

TRAPWORKS = str(Path(sys.executable).with_name("trapworks"))
runner = CliRunner()


def run_rows(tmp_path: Path, name: str, spec: RunSpec, **kw) -> pd.DataFrame:
    out = tmp_path / f"{name}.parquet"
    execute([Job(spec, out)], **kw)
    return pd.read_parquet(out)


def test_rows_are_typed_one_per_game_with_options_version_and_seats(tmp_path):
    spec = RunSpec(
        "mouse-trap", ("heuristic", "random", "heuristic"), 12, {"players": 3}, seed=2, rotate=True
    )
    df = run_rows(tmp_path, "mt", spec)
    assert list(df["index"]) == list(range(12)) and df["seed"].is_unique
    assert (df["game"] == "mouse-trap").all() and (df["version"] == trapworks.__version__).all()
    assert (df["opt_players"] == 3).all() and (df["opt_variant"] == "milton-bradley").all()
    assert list(df.loc[:2, "agent_seat1"]) == ["heuristic", "random", "heuristic"]  # rotated
    for col, kind in {
        "index": "i",
        "seed": "i",
        "length": "i",
        "return_seat1": "f",
        "won_seat2": "b",
        "truncated": "b",
        "captures": "i",
        "jams_cage": "i",
        "cheese_paid": "i",
    }.items():
        assert df[col].dtype.kind == kind, (col, df[col].dtype)
    assert df["ending"].isin(["last-mouse", "truncated"]).all()
    won = df[[f"won_seat{k}" for k in (1, 2, 3)]].sum(axis=1)
    assert ((won == 1) == df["winner"].notna()).all()
    assert (df["jams"] == df[[c for c in df.columns if c.startswith("jams_")]].sum(axis=1)).all()
    finished = df[~df["truncated"]]
    assert (finished["mice_caught"] == 2).all()  # every other mouse caught
    assert (df["captures"] <= df["cranks"]).all() and (df["cranks"] == df["captures"] + df["jams"]).all()


def test_rows_do_not_depend_on_workers_or_chunks(tmp_path):
    spec = RunSpec("last-mouse-lost", ("heuristic", "random"), 40, {"first_to": 1}, seed=9, rotate=True)
    one = run_rows(tmp_path, "a", spec)
    two = run_rows(
        tmp_path, "b", RunSpec(**{**spec.to_json(), "agents": spec.agents, "chunk_size": 3}), workers=2
    )
    pd.testing.assert_frame_equal(one, two)


@pytest.mark.parametrize(
    "game,options,agents,columns",
    [
        ("last-mouse-lost", {"rules": "advanced"}, ("heuristic",), ["rounds", "opener_wins"]),
        ("dead-end-drive", {"players": 3}, ("heuristic",), ["knockoffs_statue", "cards_played", "bluffs"]),
        ("booby-trap", {}, ("heuristic",), ["trips", "thrown_out", "debt_total"]),
    ],
)
def test_each_game_has_its_own_statistics(tmp_path, game, options, agents, columns):
    n = 2 if game == "booby-trap" else 10
    df = run_rows(tmp_path, game, RunSpec(game, agents, n, options, seed=4))
    for col in columns:
        assert df[col].dtype.kind == "i", col
    if game == "last-mouse-lost":
        score = df["ending"].str.split("-", expand=True).astype(int)
        assert (score[0] == 3).all() and (score[0] + score[1] == df["rounds"]).all()
        assert (df["opener_wins"] <= df["rounds"]).all()
    elif game == "dead-end-drive":
        assert df["ending"].isin(["escape", "detective", "last-alive", "truncated"]).all()
        by_trap = df[[c for c in df.columns if c.startswith("knockoffs_")]].sum(axis=1)
        assert (by_trap == df["knockoffs"]).all()
        assert (df["bluffs"] <= df["draws"]).all()
    else:
        assert (df["ending"] == "pieces-left").all() and (df["trips"] <= df["removals"]).all()


def test_a_batched_engine_plays_whole_chunks(tmp_path, monkeypatch):
    """A game with `batched_agents` and `play_batch` (issue 19's hook) gets whole chunks."""
    cls = trapworks.core.game_class("last-mouse-lost")
    calls = []

    def play_batch(self, agents, seeds):
        calls.append((list(agents), list(seeds)))
        return [
            {
                "winners": [0],
                "returns": [1.0, -1.0],
                "length": 7,
                "truncated": False,
                "rounds": 1,
                "opener_wins": 1,
            }
            for _ in seeds
        ]

    monkeypatch.setattr(cls, "batched_agents", frozenset({"perfect"}), raising=False)
    monkeypatch.setattr(cls, "play_batch", play_batch, raising=False)
    df = run_rows(tmp_path, "b", RunSpec("last-mouse-lost", ("perfect",), 9, chunk_size=4))
    assert [len(s) for _, s in calls] == [4, 4, 1] and calls[0][0] == ["perfect", "perfect"]
    assert list(df["index"]) == list(range(9)) and (df["length"] == 7).all() and (df["winner"] == 1).all()
    assert (df["rounds"] == 1).all() and list(df["seed"]) == [s for _, seeds in calls for s in seeds]
    # Not every agent batched: the per-game loop.
    calls.clear()
    run_rows(tmp_path, "c", RunSpec("last-mouse-lost", ("perfect", "random"), 3, {"first_to": 1}))
    assert calls == []


def test_ctrl_c_keeps_finished_games_and_resume_completes(tmp_path):
    out = tmp_path / "run.parquet"
    parts = tmp_path / "run.parquet.parts"
    # The kernel (--max-actions asks for it), one game at a time: the batched engine plays all
    # the games in about a second, so the run would end before Ctrl-C reached it.
    args = ["simulate", "mouse-trap", "-a", "heuristic", "-n", "600", "--chunk", "3"]
    args += ["--max-actions", "100000", "--seed", "3"]
    env = {
        "TRAPWORKS_HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
        "NUMBA_CACHE_DIR": os.environ["NUMBA_CACHE_DIR"],
    }
    proc = subprocess.Popen(
        [TRAPWORKS, *args, "--workers", "2", "--out", str(out)], stderr=subprocess.PIPE, text=True, env=env
    )
    deadline = time.monotonic() + 120
    # Ctrl-C at the first finished chunk: on a quiet machine the kernel plays the 600 games in
    # about 3 s, and waiting for 5 chunks once let the run finish before the signal came.
    while not list(parts.glob("part-*.parquet")):
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("error: interrupted") and "--resume" in last and "Traceback" not in stderr
    kept = pd.concat(pd.read_parquet(p) for p in parts.glob("part-*.parquet"))
    assert 0 < len(kept) < 600 and not out.exists()
    # Settings that would give other games are refused; the same ones complete the run.
    other = runner.invoke(app, [*args[:-1], "4", "--resume", "--out", str(out)])
    assert other.exit_code == 2 and "other settings" in other.output
    done = runner.invoke(app, [*args, "--resume", "--out", str(out), "--json"])
    assert done.exit_code == 0, done.output
    rows = pd.read_parquet(out)
    assert list(rows["index"]) == list(range(600))
    full = tmp_path / "full.parquet"
    assert runner.invoke(app, [*args, "--out", str(full)]).exit_code == 0
    pd.testing.assert_frame_equal(rows, pd.read_parquet(full))


def test_runner_refuses_to_mix_runs(tmp_path):
    spec = RunSpec("last-mouse-lost", ("random",), 3)
    (tmp_path / "x.parquet.parts").mkdir()
    with pytest.raises(RunError, match="unfinished run"):
        execute([Job(spec, tmp_path / "x.parquet")])
    with pytest.raises(RunError, match="nothing to resume"):
        execute([Job(spec, tmp_path / "y.parquet")], resume=True)
    assert issubclass(RunIncomplete, Exception)


def test_csv_on_request(tmp_path):
    out = tmp_path / "g.csv"
    result = runner.invoke(app, ["simulate", "last-mouse-lost", "-n", "5", "--out", str(out)])
    assert result.exit_code == 0, result.output
    df = pd.read_csv(out)
    assert len(df) == 5 and "opt_rules" in df and "agent_seat2" in df


@pytest.mark.parametrize(
    "args,words",
    [
        (["--out", "/no/such/folder/x.parquet"], "folder /no/such/folder does not exist"),
        (["--out", "x.json"], "name a .parquet or .csv file"),
        (["-o", "bogus=1"], "unknown option bogus"),
        (["-o", "bogus"], "must look like key=value"),
        (["--backend", "spark"], "--backend 'spark': choose local or ray"),
        (["--address", "1.2.3.4:1"], "--address needs --backend ray"),
        (["--agents", "wizard"], "unknown agent 'wizard'"),
        (["--format", "xlsx"], "--format 'xlsx'"),
        (["-n", "0"], "-n must be at least 1"),
    ],
)
def test_simulate_bad_arguments_one_line_exit_2(tmp_path, monkeypatch, args, words):
    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    result = subprocess.run(
        [TRAPWORKS, "simulate", "last-mouse-lost", "-n", "3", *args], capture_output=True, text=True
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], result.stderr
