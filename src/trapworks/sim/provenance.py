"""Where rows come from: the trapworks version, the git commit, and a fingerprint of the code
that decides a game's rows (core, games, agents, sim), written into every output file's metadata
and into a run's manifest, so that `--resume` refuses to mix games played by different code."""

from __future__ import annotations

import functools
import hashlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import trapworks

_PACKAGE = Path(trapworks.__file__).resolve().parent
# What decides the rows: the rules, the agents, the way a game is played and recorded.
_CODE = ("core", "games", "agents", "sim")


@functools.cache
def code_fingerprint() -> str:
    """A short hash of every source and data file under core/, games/, agents/ and sim/."""
    h = hashlib.sha256()
    for part in _CODE:
        for path in sorted((_PACKAGE / part).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".json", ".txt", ".toml", ".c", ".h"):
                h.update(str(path.relative_to(_PACKAGE)).encode())
                h.update(path.read_bytes())
    return h.hexdigest()[:16]


@functools.cache
def git_commit() -> str | None:
    """The checkout's commit (with "-dirty" when files differ from it), None outside a checkout."""
    try:
        out = subprocess.run(
            ["git", "-C", str(_PACKAGE), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10
        )
        if out.returncode != 0:
            return None
        commit = out.stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(_PACKAGE), "status", "--porcelain", "--", "."],
            capture_output=True,
            text=True,
            timeout=10,
        )
        return commit + ("-dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


_command: list[str] | None = None


def set_command(argv: list[str]) -> None:
    """The command line as the CLI received it (the CLI calls this before running a command)."""
    global _command
    _command = list(argv)


def command_line() -> str:
    """The command as typed (what the CLI received, else argv), for the record."""
    import shlex

    if _command:
        return shlex.join(_command)
    argv = list(sys.argv)
    if argv:
        argv[0] = Path(argv[0]).name
    return shlex.join(argv)


def provenance(settings: dict[str, Any] | None = None, command: str | None = None) -> dict[str, Any]:
    """What a file's metadata says about its rows."""
    from datetime import UTC, datetime

    return {
        "command": command if command is not None else command_line(),
        "settings": settings or {},
        "version": trapworks.__version__,
        "code": code_fingerprint(),
        "git_commit": git_commit(),
        "python": sys.version.split()[0],
        "written": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
