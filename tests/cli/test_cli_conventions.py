"""What people expect of a command: --version, shell completion, --save honoured, record names
that never collide, and errors as one line (the traceback only with --debug)."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime
from importlib.metadata import version
from pathlib import Path

import pytest
from typer.testing import CliRunner

import trapworks
import trapworks.cli as cli
from trapworks.cli import app
from trapworks.cli.terminal import TerminalSession
from trapworks.core import GameRecord, OptionError

runner = CliRunner()
SCRIPT = Path(sys.executable).with_name("trapworks")


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path / "data"))
    return tmp_path


class FrozenClock(datetime):
    """datetime whose now() never moves: every save happens in the same second."""

    @classmethod
    def now(cls, tz=None):  # type: ignore[no-untyped-def, override]
        return datetime(2026, 11, 22, 20, 0, 0, tzinfo=tz)


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert (
        result.output.strip() == f"trapworks {version('trapworks')}" == f"trapworks {trapworks.__version__}"
    )


def test_install_completion_writes_the_script_into_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    # typer's own switch to name the shell instead of detecting it from the parent processes
    env = {**os.environ, "HOME": str(home), "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    done = subprocess.run(
        [str(SCRIPT), "--install-completion", "bash"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "bash completion installed" in done.stdout
    script = home / ".bash_completions" / "trapworks.sh"
    assert "_TRAPWORKS_COMPLETE=complete_bash" in script.read_text()
    assert str(script) in (home / ".bashrc").read_text()


def test_completion_answers_with_the_commands(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "_TRAPWORKS_COMPLETE": "complete_bash",
        "COMP_WORDS": "trapworks pl",
        "COMP_CWORD": "1",
    }
    done = subprocess.run([str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["play"]


def test_play_save_file_is_honoured(home: Path) -> None:
    target = home / "mine" / "game.json"
    args = ["play", "last-mouse-lost", "--seats", "perfect,random", "--seed", "3", "-o", "first_to=1"]
    result = runner.invoke(app, [*args, "--save", str(target)])
    assert result.exit_code == 0, result.output
    record = GameRecord.load(target)
    assert record.game == "last-mouse-lost" and record.players == ["perfect", "random"]
    assert record.replay().is_terminal()
    assert not (home / "data" / "records").exists()  # only where it was asked to go


def test_two_records_saved_in_the_same_second_both_kept(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("trapworks.cli.terminal.datetime", FrozenClock)
    args = ["play", "last-mouse-lost", "--seats", "perfect,random", "-o", "first_to=1"]
    for seed in ("1", "2"):
        result = runner.invoke(app, [*args, "--seed", seed])
        assert result.exit_code == 0, result.output
    saved = sorted((home / "data" / "records").iterdir())
    assert [p.name for p in saved] == [
        "last-mouse-lost-20261122-200000-2.json",
        "last-mouse-lost-20261122-200000.json",
    ]
    seeds = {GameRecord.load(p).seed for p in saved}
    assert len(seeds) == 2  # two different games, neither overwritten


def test_session_saves_never_overwrite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("trapworks.cli.terminal.datetime", FrozenClock)
    session = TerminalSession(trapworks.make("last-mouse-lost"), ["human", "random"], save_dir=tmp_path)
    paths = {session.save() for _ in range(3)}
    assert len(paths) == 3 and all(p.exists() for p in paths)


def test_an_unexpected_error_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(game_id: str) -> None:
        raise RuntimeError("the kernel fell over")

    monkeypatch.setattr(cli, "game_class", broken)
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines == [
        "error: unexpected RuntimeError: the kernel fell over (run again with --debug for the traceback)"
    ]
    assert "Traceback" not in result.output


def test_debug_shows_the_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(game_id: str) -> None:
        raise RuntimeError("the kernel fell over")

    monkeypatch.setattr(cli, "game_class", broken)
    result = runner.invoke(app, ["--debug", "games"])
    assert isinstance(result.exception, RuntimeError)  # propagates: Python prints the traceback
    done = subprocess.run(
        [str(SCRIPT), "--debug", "replay", "/nonexistent/dir/game.json", "--at", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    # An expected failure too: with --debug its traceback, without it one line.
    assert (
        done.returncode != 0
        and "Traceback" in done.stderr
        and "RecordError: cannot read record" in done.stderr
    )
    plain = subprocess.run(
        [str(SCRIPT), "replay", "/nonexistent/dir/game.json"], capture_output=True, text=True, timeout=60
    )
    assert plain.returncode == 2 and plain.stderr.startswith(
        "error: cannot read record /nonexistent/dir/game.json"
    )
    assert len(plain.stderr.strip().splitlines()) == 1


def test_expected_failures_are_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cases = [
        (["replay", str(tmp_path / "missing.json")], "error: cannot read record"),
        (
            ["simulate", "last-mouse-lost", "-n", "2", "--out", str(tmp_path / "no" / "x.jsonl")],
            "error: --out",
        ),
        (["simulate", "last-mouse-lost", "-n", "2", "--bogus"], "error: No such option: --bogus"),
        (["--bogus"], "error: No such option: --bogus"),
        (["play", "no-such-game"], "error: unknown game 'no-such-game'"),
    ]
    for args, start in cases:
        result = runner.invoke(app, args)
        assert result.exit_code in (1, 2), (args, result.output)
        assert result.output.startswith(start) and len(result.output.strip().splitlines()) == 1, (
            args,
            result.output,
        )

    # A TrapworksError from deep inside a command (not caught by the command itself).
    def bad_options(pairs: list[str] | None, players: int | None, game_id: str) -> dict[str, int]:
        raise OptionError("players: 9 is more than the game allows")

    monkeypatch.setattr(cli, "game_options", bad_options)
    result = runner.invoke(app, ["play", "last-mouse-lost"])
    assert result.exit_code == 2 and result.output == "error: players: 9 is more than the game allows\n"


def test_data_folder_is_trapworks_home_else_the_platform_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import platformdirs

    from trapworks.cli.options import data_dir

    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path / "here"))
    assert data_dir() == tmp_path / "here"
    monkeypatch.delenv("TRAPWORKS_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == platformdirs.user_data_path("trapworks", appauthor=False)
    if sys.platform.startswith("linux"):
        assert data_dir() == tmp_path / "xdg" / "trapworks"
