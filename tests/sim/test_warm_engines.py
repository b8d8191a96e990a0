"""Compiled engines start warm (issue 42, item 3): numba's cache lives in the data folder
($TRAPWORKS_HOME or the platform's), and the analyst commands compile each engine once, in the
driver, before any worker starts, saying so at once. Before, the cache sat beside the installed
code, each worker compiled on its own, and the progress bar stood at 0 for minutes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from trapworks.cli import simulate as simulate_cli
from trapworks.paths import numba_cache_dir
from trapworks.sim import runner
from trapworks.sim.runner import Job, RunSpec, engines_to_warm


def test_the_numba_cache_is_in_the_data_folder(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["TRAPWORKS_HOME"] = str(tmp_path)
    out = subprocess.run(
        [sys.executable, "-c", "import trapworks, numba; print(numba.config.CACHE_DIR)"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert Path(out.stdout.strip()) == tmp_path / "numba-cache"


def test_a_cache_folder_the_user_names_is_kept(tmp_path):
    env = dict(os.environ, TRAPWORKS_HOME=str(tmp_path), NUMBA_CACHE_DIR=str(tmp_path / "mine"))
    code = "import numba, trapworks; print(numba.config.CACHE_DIR)"  # numba first: set after import
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert Path(out.stdout.strip()) == tmp_path / "mine"


def jobs(tmp_path, *specs: RunSpec) -> list[Job]:
    return [Job(spec, tmp_path / f"{k}.parquet") for k, spec in enumerate(specs)]


def test_one_warm_up_per_game_engine_and_none_for_the_kernel(tmp_path):
    mt = RunSpec("mouse-trap", ("heuristic",), 10, {"players": 2})
    same = RunSpec("mouse-trap", ("heuristic",), 30, {"players": 2}, seed=5, cell="b")
    other = RunSpec("mouse-trap", ("random", "heuristic"), 10, {"players": 2})
    kernel = RunSpec("mouse-trap", ("heuristic",), 10, {"players": 2}, max_actions=5)
    booby = RunSpec("booby-trap", ("random",), 10, {})
    dd = RunSpec("dead-end-drive", ("random",), 10, {"players": 2})
    lml = RunSpec("last-mouse-lost", ("random",), 10, {})  # a C engine, built at install
    warm = engines_to_warm(jobs(tmp_path, kernel, mt, same, other, booby, lml, dd))
    assert warm == [mt, dd]  # one per game: the cells' options and agents are data to the engine


def test_the_command_says_it_compiles_then_compiles_once_before_the_workers(tmp_path, monkeypatch):
    calls: list[str] = []

    def compile_engines(specs, done):
        calls.extend(f"warm {spec.game_id}" for spec in specs)
        done()

    monkeypatch.setattr(runner, "compile_engines", compile_engines)
    monkeypatch.setattr(runner, "execute", lambda jobs, **kw: calls.append("workers") or [])
    printed: list[str] = []
    from trapworks.cli import err

    monkeypatch.setattr(err, "print", lambda *a, **kw: printed.append(" ".join(map(str, a))))
    spec = RunSpec("mouse-trap", ("heuristic",), 10, {"players": 2})
    simulate_cli.run_jobs(jobs(tmp_path, spec), "local", 2, None, False, 3, False)
    assert calls == ["warm mouse-trap", "workers"]
    assert printed and printed[0].startswith("Compiling the batched engine")
    assert str(numba_cache_dir()) in printed[0]  # where the compiled code will be kept


def test_a_long_compile_says_it_goes_on_where_no_spinner_is_drawn(tmp_path, monkeypatch):
    """In a log or a pipe (no terminal, so no spinner) a minutes-long first compile printed one
    line and then nothing until it ended."""
    import time

    def compile_engines(specs, done):
        time.sleep(0.35)
        done()

    monkeypatch.setattr(runner, "compile_engines", compile_engines)
    monkeypatch.setattr(simulate_cli, "HEARTBEAT_S", 0.1)
    printed: list[str] = []
    from trapworks.cli import err

    monkeypatch.setattr(err, "print", lambda *a, **kw: printed.append(" ".join(map(str, a))))
    spec = RunSpec("mouse-trap", ("heuristic",), 10, {"players": 2})
    simulate_cli.warm_engines(jobs(tmp_path, spec), quiet=False)
    beats = [p for p in printed if p.startswith("Still compiling")]
    assert len(beats) >= 2, printed
    assert printed[0].startswith("Compiling") and printed[-1].startswith("Engine ready")
