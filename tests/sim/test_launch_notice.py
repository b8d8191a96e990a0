"""The `trapworks` script says a run's compiled engine is being prepared before its heavy
imports (issue 42, must-show: "says it is compiling within 2 s"). Before, the line came after
numpy, pydantic, numba and the game's module had loaded: 5.4 s on the loaded 2-core machine.
Order of events, not wall time: `python -X importtime` writes a line per import to stderr, so
the notice must come before any of those lines for numba or numpy."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from trapworks.launch import engine_game


def test_the_notice_comes_before_numpy_and_numba_are_imported(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["TRAPWORKS_HOME"] = str(tmp_path)
    env["TRAPWORKS_COMPILE_NOTICE"] = "always"  # said on a terminal; here stderr is a pipe
    # an unknown option ends the run once the game is made: no engine is compiled here
    argv = ["simulate", "mouse-trap", "-n", "3", "-o", "no_such_option=1", "--out", str(tmp_path / "r.csv")]
    code = "import sys; from trapworks.launch import main; sys.argv = ['trapworks', *sys.argv[1:]]; main()"
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code, *argv], capture_output=True, text=True, env=env
    )
    lines = out.stderr.splitlines()
    notice = next(i for i, ln in enumerate(lines) if ln.startswith("Compiling mouse-trap's batched engine"))
    heavy = [i for i, ln in enumerate(lines) if ln.split("|")[-1].strip() in ("numba", "numpy", "pydantic")]
    assert heavy and notice < min(heavy), "\n".join(lines[: notice + 1][-5:])
    assert out.returncode == 2 and "no_such_option" in out.stderr  # the run's own error follows


@pytest.mark.parametrize(
    ("argv", "game"),
    [
        ("simulate mouse-trap -n 10000 --workers 2", "mouse-trap"),
        ("--debug simulate -n 5 dead-end-drive", "dead-end-drive"),
        ("explore mouse-trap", "mouse-trap"),
        ("tournament dead-end-drive -a random,heuristic", "dead-end-drive"),
        ("simulate booby-trap -n 5", None),  # no batched engine
        ("simulate last-mouse-lost", None),
        ("play mouse-trap", None),  # not a run command
        ("simulate mouse-trap --backend ray", None),  # the engine compiles on Ray's workers
        ("simulate mouse-trap --backend=ray", None),
        ("simulate mouse-trap --keep-records", None),  # the kernel plays
        ("simulate mouse-trap --max-actions 9", None),
        ("simulate mouse-trap --json", None),  # stdout and stderr kept for the JSON and errors
        ("simulate mouse-trap --help", None),
    ],
)
def test_which_command_lines_announce_a_compile(argv, game):
    assert engine_game(argv.split()) == game


def test_a_run_the_kernel_plays_takes_the_notice_back(tmp_path, monkeypatch, capsys):
    from trapworks.cli import simulate as simulate_cli
    from trapworks.launch import ANNOUNCED_ENV
    from trapworks.sim.runner import Job, RunSpec

    monkeypatch.setenv(ANNOUNCED_ENV, "mouse-trap")
    kernel = RunSpec("mouse-trap", ("heuristic",), 10, {"players": 2}, max_actions=5)
    simulate_cli.warm_engines([Job(kernel, tmp_path / "k.parquet")], quiet=False)
    assert "Nothing to compile: the kernel plays these agents" in capsys.readouterr().err


def test_the_notice_names_exactly_the_games_whose_engine_numba_compiles():
    # launch.py cannot import a game (that is what it runs before); it reads the engine's module.
    # The game classes say it too (batched_engine_jit, read by the warm-up): both must agree.
    from trapworks.core import available_games, game_class

    for game_id in available_games():
        announced = engine_game(["simulate", game_id]) == game_id
        assert announced == game_class(game_id).batched_engine_jit, game_id


def test_a_pipe_gets_no_early_notice_so_an_error_stays_one_line(tmp_path):
    # explore's and simulate's bad arguments are one line on stderr (tests/sim/test_explore.py);
    # the early notice is for a person at a terminal (launch.NOTICE_ENV "auto")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "TRAPWORKS_COMPILE_NOTICE")}
    env["TRAPWORKS_HOME"] = str(tmp_path)
    argv = ["simulate", "mouse-trap", "-n", "3", "-o", "no_such_option=1", "--out", str(tmp_path / "r.csv")]
    code = "import sys; from trapworks.launch import main; sys.argv = ['trapworks', *sys.argv[1:]]; main()"
    out = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, env=env)
    assert out.returncode == 2 and out.stderr.strip().count("\n") == 0, out.stderr
    assert "no_such_option" in out.stderr
