"""A Ray run that loses every worker node stops, instead of waiting for ever for a node to join,
and keeps its finished games for `--resume` (the session's cluster, tests/sim/conftest.py: a head
with no CPU and the worker nodes left by the tests before, or one started; all of them killed)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("ray")

from sim.ray_cluster import RAY_ENV  # noqa: E402
from trapworks.sim import runner  # noqa: E402

TRAPWORKS = str(Path(sys.executable).with_name("trapworks"))


def test_a_run_that_loses_every_worker_node_stops_and_keeps_its_games(tmp_path, ray_cluster):
    n = 1500
    out = tmp_path / "run.parquet"
    parts = tmp_path / "run.parquet.parts"
    cluster = ray_cluster
    if not cluster.workers():
        cluster.ensure_workers("worker")
    args = ["simulate", "mouse-trap", "-a", "heuristic", "--players", "3", "--seed", "5"]
    # --max-actions: one game at a time in the kernel, so the run is still going when the
    # workers die; Ray's default retries put its chunks back in the queue, for a node that
    # never comes.
    args += ["--max-actions", "1000000", "-n", str(n), "--chunk", "10", "--backend", "ray"]
    args += ["--address", cluster.address, "--out", str(out)]
    env = {
        "TRAPWORKS_HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
        "NUMBA_CACHE_DIR": os.environ["NUMBA_CACHE_DIR"],
        **RAY_ENV,
        **cluster.auth,  # the session's cluster's token (conftest.py)
    }
    env[runner.STALL_ENV] = "5"
    proc = subprocess.Popen(
        [TRAPWORKS, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        deadline = time.monotonic() + 120
        while not (parts.exists() and any(cluster.running(w, "play_chunk") for w in cluster.workers())):
            assert time.monotonic() < deadline and proc.poll() is None, "no worker ever got a chunk"
            time.sleep(0.02)
        for worker in cluster.workers():  # every worker node: no CPU is left in the cluster
            cluster.kill(worker)
        _, stderr = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 1, stderr
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("error: no CPU in the Ray cluster for 5 s"), last
    assert "rerun with --resume when workers are back" in last
    assert "Traceback" not in stderr
    kept = list(parts.glob("part-*.parquet"))
    rows = pd.concat(pd.read_parquet(p) for p in kept) if kept else pd.DataFrame({"index": []})
    assert len(rows) < n and rows["index"].is_unique


@pytest.mark.parametrize("text", ["0", "-3", "soon", "inf"])
def test_a_bad_stall_timeout_is_refused_by_name(monkeypatch, text):
    monkeypatch.setenv(runner.STALL_ENV, text)
    with pytest.raises(runner.RunError, match=runner.STALL_ENV):
        runner.stall_timeout()


def test_the_stall_timeout_defaults_and_reads_the_environment(monkeypatch):
    monkeypatch.delenv(runner.STALL_ENV, raising=False)
    assert runner.stall_timeout() == runner.RAY_STALL_TIMEOUT
    monkeypatch.setenv(runner.STALL_ENV, "2.5")
    assert runner.stall_timeout() == 2.5
