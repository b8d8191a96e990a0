"""`trapworks simulate --backend ray` on a real Ray cluster: a head node and two worker nodes, each
its own process on loopback (the session's cluster, tests/sim/conftest.py: starting a node costs
seconds). The test that kills a worker node runs last: the tests before it find both workers."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("ray")

from sim.ray_cluster import RAY_ENV  # noqa: E402

# (where trapworks points numba: read, not os.environ, which holds it only once something in the
# process imported trapworks: run alone, this file never did and its tests failed with a KeyError)
from trapworks.paths import numba_cache_dir  # noqa: E402

TRAPWORKS = str(Path(sys.executable).with_name("trapworks"))
RUN = ["simulate", "mouse-trap", "-a", "heuristic", "--players", "3", "--seed", "5"]


@pytest.fixture
def cluster(ray_cluster):
    # Two worker nodes: the test that kills "worker" knows it held work, and the other worker
    # finishes the chunks already handed out.
    ray_cluster.ensure_workers("worker", "spare")
    return ray_cluster


def trapworks(*args: str, env_home: Path, auth: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {
        "TRAPWORKS_HOME": str(env_home),
        "PATH": "/usr/bin:/bin",
        "NUMBA_CACHE_DIR": str(numba_cache_dir()),
        **RAY_ENV,
        **auth,  # the session's cluster's token (conftest.py)
    }
    return subprocess.run([TRAPWORKS, *args], capture_output=True, text=True, env=env, timeout=300)


def test_ray_cluster_gives_exactly_the_local_rows(cluster, tmp_path):
    local = trapworks(
        *RUN,
        "-n",
        "120",
        "--out",
        str(tmp_path / "local.parquet"),
        "--json",
        env_home=tmp_path,
        auth=cluster.auth,
    )
    assert local.returncode == 0, local.stderr
    ray = trapworks(
        *RUN,
        "-n",
        "120",
        "--chunk",
        "7",  # other chunks than the local run's: the rows may not depend on them
        "--backend",
        "ray",
        "--address",
        cluster.address,
        "--out",
        str(tmp_path / "ray.parquet"),
        "--json",
        env_home=tmp_path,
        auth=cluster.auth,
    )
    assert ray.returncode == 0, ray.stderr
    a = pd.read_parquet(tmp_path / "local.parquet")
    b = pd.read_parquet(tmp_path / "ray.parquet")
    assert len(a) == 120 and list(a["index"]) == list(range(120))
    pd.testing.assert_frame_equal(a, b)


def test_explore_on_the_cluster_gives_the_local_rows(cluster, tmp_path):
    grid = ["explore", "last-mouse-lost", "--vary", "rules=basic,advanced", "-n", "15", "--json"]
    local = trapworks(*grid, "--out", str(tmp_path / "local"), env_home=tmp_path, auth=cluster.auth)
    assert local.returncode == 0, local.stderr
    ray = trapworks(
        *grid,
        "--backend",
        "ray",
        "--address",
        cluster.address,
        "--out",
        str(tmp_path / "ray"),
        env_home=tmp_path,
        auth=cluster.auth,
    )
    assert ray.returncode == 0, ray.stderr
    pd.testing.assert_frame_equal(
        pd.read_parquet(tmp_path / "local" / "rows.parquet"),
        pd.read_parquet(tmp_path / "ray" / "rows.parquet"),
    )
    assert "--backend ray" in (tmp_path / "ray" / "report.md").read_text()


def test_lost_worker_keeps_finished_games_and_resume_completes(cluster, tmp_path):
    n = 1500
    out = tmp_path / "run.parquet"
    parts = tmp_path / "run.parquet.parts"
    # --max-actions: the kernel's path, one game at a time, so the run lasts long enough to lose
    # the worker node in the middle of it.
    args = [*RUN, "--max-actions", "1000000", "-n", str(n), "--chunk", "10", "--backend", "ray"]
    args += ["--address", cluster.address]
    env = {
        "TRAPWORKS_HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
        "NUMBA_CACHE_DIR": str(numba_cache_dir()),
        **RAY_ENV,
        **cluster.auth,
    }
    proc = subprocess.Popen(
        [TRAPWORKS, *args, "--retries", "0", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 120
        while not (parts.exists() and cluster.running("worker", "play_chunk")):
            assert time.monotonic() < deadline and proc.poll() is None, "the worker node never got a chunk"
            time.sleep(0.02)
        cluster.kill("worker")  # the worker node dies with a chunk in hand
        _, stderr = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
    # The worker stays dead: a later test that needs it starts it again (`ensure_workers`).
    assert proc.returncode == 1, stderr
    last = stderr.strip().splitlines()[-1]  # (above it, the progress bar's last state)
    assert last.startswith("error: ") and "NodeDiedError" in last and "rerun with --resume" in last
    assert "Traceback" not in stderr
    kept = pd.concat(pd.read_parquet(p) for p in parts.glob("part-*.parquet"))
    assert 0 < len(kept) < n and kept["index"].is_unique
    resumed = trapworks(*args, "--resume", "--out", str(out), "--json", env_home=tmp_path, auth=cluster.auth)
    assert resumed.returncode == 0, resumed.stderr
    assert not parts.exists()
    rows = pd.read_parquet(out)
    assert list(rows["index"]) == list(range(n))  # no game lost or played twice
    full = trapworks(
        *RUN,
        "--max-actions",
        "1000000",
        "-n",
        str(n),
        "--out",
        str(tmp_path / "full.parquet"),
        env_home=tmp_path,
        auth=cluster.auth,
    )
    assert full.returncode == 0, full.stderr
    pd.testing.assert_frame_equal(rows, pd.read_parquet(tmp_path / "full.parquet"))
    # The games finished before the worker was lost are the same rows in the final file.
    pd.testing.assert_frame_equal(
        kept.sort_values("index").reset_index(drop=True),
        rows[rows["index"].isin(kept["index"])].reset_index(drop=True),
    )
