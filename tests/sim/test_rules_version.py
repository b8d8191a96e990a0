"""The version in the rows changes when the rules do: a fingerprint of what a few seeded games
per game play (their rows, without the version) is recorded with the version that played them
(tests/sim/rules_fingerprint.json). Games that play differently under the same version fail
here: bump the version (pyproject.toml and trapworks/__init__.py), then record the new
fingerprint with

    TRAPWORKS_RECORD_FINGERPRINT=1 .venv/bin/python -m pytest tests/sim/test_rules_version.py

(Booby Trap is left out: its rows come from floating-point physics, which may differ between
machines; its rules changes are to be versioned by hand.)"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pyarrow.parquet as pq

import trapworks
from trapworks.sim.runner import Job, RunSpec, execute

HERE = Path(__file__).resolve().parent
RECORD = HERE / "rules_fingerprint.json"
RUNS = {
    "mouse-trap": RunSpec("mouse-trap", ("random",), 6, {"players": 3}, seed=11),
    "last-mouse-lost": RunSpec(
        "last-mouse-lost", ("random",), 20, {"rules": "advanced"}, seed=11, max_actions=10**6
    ),
    "dead-end-drive": RunSpec("dead-end-drive", ("random",), 4, {"players": 4}, seed=11),
}


def fingerprint(tmp_path: Path) -> dict[str, str]:
    out = {}
    for game, spec in RUNS.items():
        path = tmp_path / f"{game}.parquet"
        execute([Job(spec, path)])
        table = pq.read_table(path).drop_columns(["version"])
        out[game] = hashlib.sha256(json.dumps(table.to_pylist(), sort_keys=True).encode()).hexdigest()[:16]
    return out


def test_games_that_play_differently_have_another_version(tmp_path):
    now = fingerprint(tmp_path)
    if os.environ.get("TRAPWORKS_RECORD_FINGERPRINT"):
        RECORD.write_text(json.dumps({"version": trapworks.__version__, "rows": now}, indent=1) + "\n")
    recorded = json.loads(RECORD.read_text())
    changed = sorted(g for g in now if recorded["rows"].get(g) != now[g])
    if recorded["version"] == trapworks.__version__:
        assert not changed, (
            f"{', '.join(changed)} play differently than when version {recorded['version']} was recorded: "
            "bump the version (pyproject.toml, trapworks/__init__.py), then record the fingerprint "
            "(TRAPWORKS_RECORD_FINGERPRINT=1, see this file's docstring)"
        )
    else:
        raise AssertionError(
            f"the version is {trapworks.__version__} but the fingerprint was recorded for {recorded['version']}: "
            "record it again (TRAPWORKS_RECORD_FINGERPRINT=1, see this file's docstring)"
        )
