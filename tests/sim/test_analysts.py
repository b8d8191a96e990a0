"""Issue 29, an analyst's ten findings, one test (or more) each: numbers to trust (LML rounds
counted once, `-o` checked in explore), rows that stream, effect sizes beside every test, seats
(fewer agents than seats, who started, seat effects), plots, provenance (fixed schema, metadata,
--resume and the code), game records, and the analyst commands from a plain install."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import trapworks
from trapworks.cli import app
from trapworks.core.record import GameRecord
from trapworks.sim import runner as runner_mod
from trapworks.sim import seats_for
from trapworks.sim.explore import Rows, Thresholds, cell_summary, comparisons, report
from trapworks.sim.provenance import code_fingerprint
from trapworks.sim.rows import describe, provenance
from trapworks.sim.runner import Job, RunError, RunSpec, execute
from trapworks.sim.stats import diff_proportions, n_for_difference, verdict

ROOT = Path(__file__).resolve().parents[2]
TRAPWORKS = str(Path(sys.executable).with_name("trapworks"))
cli = CliRunner()


def env(tmp_path: Path) -> dict[str, str]:
    return {
        "TRAPWORKS_HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
        "NUMBA_CACHE_DIR": os.environ["NUMBA_CACHE_DIR"],
    }


# 1. Last Mouse Lost's rounds and opener_wins on the per-game path ------------------------------
@pytest.mark.parametrize("agents", [("random",), ("easy", "random")])
def test_lml_rounds_are_counted_once_on_the_per_game_path(tmp_path, agents):
    """max_actions (or an agent without a batched engine) takes the per-game path; each seat used
    to get its own copy of round_start/round_over, so a 3-0 match said 6 rounds."""
    out = tmp_path / "lml.parquet"
    spec = RunSpec("last-mouse-lost", agents, 12, seed=3, rotate=len(agents) > 1, max_actions=10_000)
    execute([Job(spec, out)])
    df = pd.read_parquet(out)
    score = df["ending"].str.split("-", expand=True).astype(int)
    assert (score[0] == 3).all()
    assert (df["rounds"] == score[0] + score[1]).all(), df[["ending", "rounds"]]
    assert (df["opener_wins"] <= df["rounds"]).all() and (df["rounds"] <= 5).all()


# 2. explore -o is checked -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args,words",
    [
        (["-o", "variant=nope"], "variant 'nope'"),
        (
            ["--vary", "trap_reliability=1.0,0.5", "-o", "trap_reliability=0.2"],
            "the grid sets trap_reliability",
        ),
        (["--players", "2,3", "-o", "players=4"], "the grid sets players"),
    ],
)
def test_explore_checks_every_option_it_is_given(tmp_path, args, words):
    result = subprocess.run(
        [TRAPWORKS, "explore", "mouse-trap", "-n", "2", "--out", str(tmp_path / "r"), *args],
        capture_output=True,
        text=True,
        env=env(tmp_path),
    )
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], result.stderr
    assert not (tmp_path / "r" / "report.md").exists()


# 3. Rows stream -------------------------------------------------------------------------------------
def test_local_runs_keep_a_few_chunks_in_flight_and_write_the_output_part_by_part(tmp_path, monkeypatch):
    """At most `window` chunks are submitted before the first one is written (the driver never
    holds the run), and the output is joined a part at a time (one row group per part)."""
    submitted: list[int] = []
    written_at: list[int] = []
    real_submit = runner_mod.ProcessPoolExecutor.submit

    def counting_submit(self, *a, **kw):
        submitted.append(1)
        return real_submit(self, *a, **kw)

    real_write = runner_mod.write_table

    def spying_write(table, path, fmt, *a, **kw):
        if path.name.startswith("part-"):
            written_at.append(len(submitted))
        return real_write(table, path, fmt, *a, **kw)

    monkeypatch.setattr(runner_mod.ProcessPoolExecutor, "submit", counting_submit)
    monkeypatch.setattr(runner_mod, "write_table", spying_write)
    spec = RunSpec("last-mouse-lost", ("random",), 60, {"first_to": 1}, seed=1, chunk_size=3)
    (out,) = execute([Job(spec, tmp_path / "r.parquet")], workers=2, window=4)
    assert len(submitted) == 20 and written_at[0] <= 4, written_at
    assert pq.ParquetFile(out).metadata.num_rows == 60
    assert list(pd.read_parquet(out)["index"]) == list(range(60))
    # Joining parts holds one row group of about `group_rows` rows at a time, whatever the count.
    from trapworks.sim.rows import stream_join

    table = pq.read_table(out)
    parts = []
    for k in range(20):
        parts.append(tmp_path / f"p{k:02d}.parquet")
        pq.write_table(table.slice(3 * k, 3), parts[-1])
    stream_join(parts, tmp_path / "joined.parquet", "parquet", group_rows=9)
    meta = pq.ParquetFile(tmp_path / "joined.parquet").metadata
    sizes = [meta.row_group(g).num_rows for g in range(meta.num_row_groups)]
    assert sum(sizes) == 60 and max(sizes) <= 9 and len(sizes) == 7, sizes


def test_reports_read_columns_not_whole_tables(tmp_path, monkeypatch):
    """The summary and the report read a few columns at a time (pyarrow dataset projection)."""
    from trapworks.sim import rows as rows_mod

    out = tmp_path / "mt.parquet"
    execute([Job(RunSpec("mouse-trap", ("heuristic",), 20, {"players": 2}, cell="a"), out)])
    widths: list[int] = []
    real = rows_mod.read_columns

    def spy(path, columns, filter=None):
        widths.append(len(columns))
        return real(path, columns, filter)

    monkeypatch.setattr(rows_mod, "read_columns", spy)
    monkeypatch.setattr("trapworks.sim.explore.read_columns", spy)
    from trapworks.cli.simulate import summary_of

    data = summary_of(out)
    assert data["games"] == 20 and sum(data["seat_wins"]) == 20
    report(out, ["a"], "t", "cmd", 1.0, "report.png")
    total = len(pq.read_schema(out).names)
    assert widths and max(widths) <= 3 < total


# 5. Effect sizes ----------------------------------------------------------------------------------
def test_every_comparison_has_a_difference_with_an_interval_a_verdict_and_a_sample_size(tmp_path):
    out = tmp_path / "mt.parquet"
    jobs = [
        Job(
            RunSpec("mouse-trap", ("heuristic",), 80, {"players": 2, "trap_reliability": r}, cell=c),
            tmp_path / c,
        )
        for c, r in (("sure", 1.0), ("flaky", 0.05))
    ]
    paths = execute(jobs)
    from trapworks.sim.rows import stream_join

    stream_join(paths, out, "parquet")
    tests = comparisons(out, ["sure", "flaky"])
    assert tests
    for t in tests:
        assert t["lo"] is None or t["lo"] <= t["diff"] <= t["hi"], t
        assert 0 <= t["p"] <= t["p_holm"] <= 1
        assert t["verdict"] in {"practical", "small", "negligible", "unclear"}
    length = next(t for t in tests if t["metric"] == "length (decisions)")
    assert length["diff"] > 0 and length["lo"] > length["threshold"] and length["verdict"] == "practical"
    seat = next(t for t in tests if t["metric"] == "seat 1 win rate")
    assert seat["unit"] == "pp" and seat["games_needed"] > 1000 and seat["threshold"] == 0.01
    md = report(
        out, ["sure", "flaky"], "t", "cmd", 1.0, "report.png", thresholds=Thresholds(0.02, 0.1)
    ).markdown
    assert "effect [95%]" in md and "verdict" in md and "games per cell for the threshold" in md
    assert "2 pp for rates, 10% of the baseline" in md


def test_verdicts_and_sample_sizes():
    assert verdict(True, 0.02, 0.04, 0.01) == "practical"
    assert verdict(True, 0.002, 0.008, 0.01) == "negligible"
    assert verdict(True, 0.005, 0.02, 0.01) == "small"
    assert verdict(False, -0.02, 0.03, 0.01) == "unclear"
    d, lo, hi = diff_proportions(550, 1000, 500, 1000)
    assert d == pytest.approx(0.05) and lo < d < hi and lo > 0
    # Finding 1 pp around 25% at 80% power takes tens of thousands of games per cell.
    assert 25_000 < n_for_difference(0.25, 0.01) < 40_000


# 6. Seats -----------------------------------------------------------------------------------------
def test_fewer_agents_than_seats_rotate_fairly():
    agents = ["a", "b", "c"]
    games = [seats_for(agents, 4, i, rotate=True) for i in range(3)]
    assert games == [["a", "b", "c", "a"], ["b", "c", "a", "b"], ["c", "a", "b", "c"]]
    for seat in range(4):
        assert sorted(g[seat] for g in games) == agents  # every agent in every seat once
    doubled = [next(a for a in agents if g.count(a) == 2) for g in games]
    assert sorted(doubled) == agents  # each agent holds two seats equally often
    with pytest.raises(ValueError):
        seats_for(agents, 4, 0, rotate=False)


def test_tournament_with_fewer_agents_than_seats_says_so(tmp_path):
    out = tmp_path / "t.parquet"
    result = subprocess.run(
        [TRAPWORKS, "tournament", "mouse-trap", "-p", "4", "-a", "heuristic,random,easy", "-n", "6",
         "--out", str(out), "--json"],
        capture_output=True, text=True, env=env(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert "holds two seats" in data["note"]
    df = pd.read_parquet(out)
    seats = df[[f"agent_seat{k}" for k in range(1, 5)]]
    per_game = seats.apply(lambda r: r.value_counts().max(), axis=1)
    assert (per_game == 2).all()
    doubled = seats.apply(lambda r: r.value_counts().idxmax(), axis=1)
    assert doubled.value_counts().to_dict() == {"heuristic": 2, "random": 2, "easy": 2}
    for k in range(1, 5):
        assert sorted(df[f"agent_seat{k}"]) == sorted(["heuristic", "random", "easy"] * 2)


def test_dead_end_drive_rows_say_who_started_and_the_report_states_seat_effects(tmp_path):
    out = tmp_path / "dd.parquet"
    execute([Job(RunSpec("dead-end-drive", ("heuristic",), 12, {"players": 3}, seed=2, cell="dd"), out)])
    df = pd.read_parquet(out)
    assert df["first_seat"].between(1, 3).all() and df["first_seat"].nunique() > 1
    s = cell_summary(Rows(out), "dd")
    assert s["starter"]["games"] == 12 and sum(s["starter"]["by_seat"].values()) == 12
    for seat in s["seats"]:
        assert seat["effect_lo"] <= seat["effect"] <= seat["effect_hi"]
        assert seat["effect"] == pytest.approx(seat["rate"] - 1 / 3)
    md = report(out, ["dd"], "t", "cmd", 1.0, "report.png").markdown
    assert "favoured" in md and "the starting player wins" in md and "pp [" in md


# 7. Plots -----------------------------------------------------------------------------------------
def test_report_figures_skip_constants_bound_counts_and_show_jams_per_crank(tmp_path):
    out = tmp_path / "mt.parquet"
    execute([Job(RunSpec("mouse-trap", ("heuristic",), 30, {"players": 2}, cell="a" * 70), out)])
    rows = Rows(out)
    stats = rows.stat_columns()
    df = pd.read_parquet(out)
    assert "mice_caught" not in stats and df["mice_caught"].nunique() == 1  # constant: no panel
    assert all(df[c].nunique() > 1 for c in stats)
    s = cell_summary(rows, "a" * 70, stats)
    assert all(lo >= 0 for lo, _ in s["stats_ci"].values())  # counts: never an interval below 0
    assert s["per_crank"]["jams"]["cranks"] == df["cranks"].sum()
    assert s["per_crank"]["jams"]["rate"] == pytest.approx(df["jams"].sum() / df["cranks"].sum())
    assert sum(s["length_hist"]) == 30
    r = report(out, ["a" * 70], "t", "cmd", 1.0, "report.png")
    assert "Every game ends the same way (last-mouse)" in r.markdown  # no single solid bar
    assert "Jams per crank" in r.markdown
    assert '"$schema"' in r.html and "vega" in r.html  # the interactive figures
    assert r.png.startswith(b"\x89PNG")


# 8. Provenance ------------------------------------------------------------------------------------
def test_schema_is_fixed_and_never_null_typed(tmp_path):
    """A run where nobody wins (every game stopped at 5 actions) has the same schema as a normal
    run: `winner` is an empty int64 column, not Arrow's NULL type."""
    short = tmp_path / "short.parquet"
    full = tmp_path / "full.parquet"
    execute([Job(RunSpec("mouse-trap", ("heuristic",), 4, {"players": 2}, max_actions=5), short)])
    execute([Job(RunSpec("mouse-trap", ("heuristic",), 4, {"players": 2}), full)])
    a, b = pq.read_schema(short), pq.read_schema(full)
    assert not any(pa.types.is_null(f.type) for f in a)
    assert a.remove_metadata().names == b.remove_metadata().names
    assert [f.type for f in a] == [f.type for f in b]
    assert a.field("winner").type == pa.int64() and pd.read_parquet(short)["winner"].isna().all()


def test_files_carry_their_provenance_and_column_descriptions(tmp_path):
    out = tmp_path / "lml.parquet"
    result = cli.invoke(app, ["simulate", "last-mouse-lost", "-n", "4", "--seed", "7", "--out", str(out)])
    assert result.exit_code == 0, result.output
    meta = provenance(out)
    assert meta["version"] == trapworks.__version__ and meta["code"] == code_fingerprint()
    assert "simulate last-mouse-lost" in meta["command"] and meta["settings"]["seed"] == 7
    assert "git_commit" in meta
    cols = describe(out)
    assert cols["seed"].startswith("the game's seed") and "Last Mouse Lost" in cols["rounds"]
    assert all(cols.values())


def test_resume_refuses_other_code(tmp_path):
    out = tmp_path / "r.parquet"
    spec = RunSpec("last-mouse-lost", ("random",), 6, chunk_size=2)
    job = Job(spec, out)
    runner_mod.prepare(job, resume=False)
    manifest = job.parts / "run.json"
    data = json.loads(manifest.read_text())
    assert data["code"] == code_fingerprint() and data["version"] == trapworks.__version__
    data["code"] = "0" * 16
    manifest.write_text(json.dumps(data))
    with pytest.raises(RunError, match="other code"):
        execute([Job(spec, out)], resume=True)


def test_the_version_changed_with_the_rules():
    """The rules changed since 0.1.0 (issues 19-29): the rows' version says so."""
    assert trapworks.__version__ != "0.1.0"
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert data["project"]["version"] == trapworks.__version__


# 9. Game records beside the rows ----------------------------------------------------------------
def test_keep_records_and_replay_a_row_by_its_seed(tmp_path):
    out = tmp_path / "dd.parquet"
    result = cli.invoke(
        app, ["simulate", "dead-end-drive", "-n", "4", "-a", "heuristic", "--keep-records", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    rows = pd.read_parquet(out)
    records = pd.read_parquet(tmp_path / "dd.records.parquet")
    assert list(records["seed"]) == list(rows["seed"])
    row = rows.iloc[2]
    from trapworks.sim.replay import record_for_seed

    record = record_for_seed(out, int(row["seed"]))
    assert isinstance(record, GameRecord)
    end = record.replay()
    assert end.is_terminal() and end.winners() == [int(row["winner"]) - 1]
    assert len(record.actions) == row["actions"]
    shown = subprocess.run(
        [TRAPWORKS, "replay", str(out), "--seed", str(int(row["seed"])), "--at", "3"],
        capture_output=True, text=True, env=env(tmp_path),
    )  # fmt: skip
    flat = "".join(shown.stdout.split())  # (the console wraps long lines)
    assert shown.returncode == 0 and "".join(record.replay(3).position().split()) in flat, shown.stderr
    missing = subprocess.run(
        [TRAPWORKS, "replay", str(out), "--seed", "1"], capture_output=True, text=True, env=env(tmp_path)
    )
    assert missing.returncode == 2 and "no game with seed 1" in missing.stderr


# 10. A plain install runs the analyst commands --------------------------------------------------
def test_the_analyst_libraries_are_dependencies():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {d.split(">")[0].split("[")[0].split("=")[0].strip().lower() for d in deps}
    assert {"pyarrow", "pandas", "scipy", "statsmodels", "duckdb", "altair"} <= names
    assert "vl-convert-python" in names  # report.html inlines its Vega scripts (works offline)


def test_the_start_command_installs_what_the_readme_commands_need():
    """The README's tournament (Elo by OpenSpiel) runs after `bash scripts/start.sh`."""
    start = (ROOT / "scripts" / "start.sh").read_text()
    install = next(line for line in start.splitlines() if "pip install" in line and "-e" in line)
    assert "research" in install
    assert "trapworks tournament" in (ROOT / "README.md").read_text()


def test_a_missing_optional_package_is_one_line_naming_the_extra(tmp_path):
    code = (
        "import sys; sys.modules['open_spiel'] = None; sys.modules['open_spiel.python'] = None;"
        "from trapworks.cli import main; sys.argv = ['trapworks', 'tournament', 'last-mouse-lost', '-a',"
        f"'random,heuristic', '-n', '2', '--out', {str(tmp_path / 't.parquet')!r}]; main()"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env(tmp_path))
    lines = result.stderr.strip().splitlines()
    assert result.returncode != 0 and len(lines) == 1, result.stderr
    assert "'open_spiel'" in lines[0] and "trapworks[research]" in lines[0]


def test_seats_column_types(tmp_path):
    """(Shared by 6 and 8) per-seat columns have the same types for every game."""
    out = tmp_path / "bt.parquet"
    execute([Job(RunSpec("last-mouse-lost", ("random",), 3), out)])
    schema = pq.read_schema(out)
    assert schema.field("agent_seat1").type == pa.string() and schema.field("won_seat2").type == pa.bool_()
    # A batched engine (LML's random) does not say who opened: the column is there, typed, empty.
    assert schema.field("first_seat").type == pa.int64()
