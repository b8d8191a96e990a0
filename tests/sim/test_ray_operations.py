"""Issue 29's Ray findings: an address that cannot be reached fails fast in one line and leaves
no parts folder; a cluster with token authentication names the cause when the driver lacks the
token and works when it has it; Ray's log lines never reach `--json`'s stdout; results are
released as they are written (a bounded number of chunks in flight)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("ray")

from sim.ray_cluster import RAY_ENV, free_port  # noqa: E402
from trapworks.sim import runner as runner_mod  # noqa: E402

TRAPWORKS = str(Path(sys.executable).with_name("trapworks"))


def run(*args: str, home: Path, extra: dict[str, str] | None = None, timeout: float = 240):
    env = {
        "TRAPWORKS_HOME": str(home),
        "PATH": "/usr/bin:/bin",
        "NUMBA_CACHE_DIR": os.environ["NUMBA_CACHE_DIR"],
        **RAY_ENV,
        **(extra or {}),
    }
    return subprocess.run([TRAPWORKS, *args], capture_output=True, text=True, env=env, timeout=timeout)


def test_an_unreachable_address_is_one_line_and_leaves_no_parts(tmp_path):
    address = f"127.0.0.1:{free_port()}"  # nobody listens there
    out = tmp_path / "r.parquet"
    args = [
        "simulate",
        "last-mouse-lost",
        "-n",
        "4",
        "--backend",
        "ray",
        "--address",
        address,
        "--out",
        str(out),
    ]
    started = time.monotonic()
    first = run(*args, home=tmp_path, timeout=120)
    assert first.returncode == 2, first.stderr
    lines = first.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: cannot reach the Ray cluster at {address}")
    assert "refused" in lines[0].lower()
    assert not Path(f"{out}.parts").exists()
    # The next run is not blocked by a folder the failed one left ("add --resume").
    second = run(*args, home=tmp_path, timeout=120)
    assert "unfinished run" not in second.stderr and "cannot reach" in second.stderr
    assert time.monotonic() - started < 110  # (a bound against hanging, not a timing claim)


def test_a_silent_cluster_times_out_with_the_cause(monkeypatch):
    import ray

    monkeypatch.setattr(runner_mod, "_reachable", lambda address, timeout: None)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kw: time.sleep(30))
    with pytest.raises(runner_mod.RayConnectError, match="did not let this driver join within 0.5 s"):
        runner_mod.ray_connect("127.0.0.1:1", 1, timeout=0.5)

    def refused(**kw):
        os.write(2, b"gcs_client.cc:210: Unauthenticated: RPC error: InvalidAuthToken: token missing\n")
        raise ConnectionError("Failed to connect to Ray cluster")

    monkeypatch.setattr(ray, "init", refused)
    with pytest.raises(runner_mod.RayConnectError, match="RAY_AUTH_MODE=token"):
        runner_mod.ray_connect("127.0.0.1:1", 1, timeout=5)


@pytest.mark.slow
def test_token_authentication_works_with_the_token_and_says_so_without(tmp_path, ray_cluster):
    """docs/scale.md's setup: RAY_AUTH_MODE=token and the same RAY_AUTH_TOKEN on every node and
    on the driver (the session's cluster runs so: tests/sim/conftest.py; its head has no CPU, so
    a worker node is started if none is left)."""
    c = ray_cluster
    auth = c.auth
    assert auth["RAY_AUTH_MODE"] == "token" and len(auth["RAY_AUTH_TOKEN"]) == 32
    if not c.workers():
        c.ensure_workers("worker")
    args = [
        "simulate",
        "last-mouse-lost",
        "-n",
        "6",
        "--backend",
        "ray",
        "--address",
        c.address,
        "--json",
    ]
    good = run(*args, "--out", str(tmp_path / "good.parquet"), home=tmp_path, extra=auth)
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout)["games"] == 6
    for name, wrong in (
        ("none", {"RAY_AUTH_MODE": "token"}),
        ("wrong", {**auth, "RAY_AUTH_TOKEN": "0" * 32}),
    ):
        bad = run(*args, "--out", str(tmp_path / f"{name}.parquet"), home=tmp_path, extra=wrong)
        assert bad.returncode == 2 and bad.stdout == ""
        lines = bad.stderr.strip().splitlines()
        assert len(lines) == 1, bad.stderr
        assert "authentication" in lines[0] and "RAY_AUTH_MODE=token" in lines[0], bad.stderr
        assert not (tmp_path / f"{name}.parquet.parts").exists()


@pytest.mark.slow
def test_json_stdout_is_only_json_on_a_private_ray_instance(tmp_path):
    result = run(
        "simulate", "mouse-trap", "-n", "8", "-a", "heuristic", "--backend", "ray", "--workers", "1",
        "--out", str(tmp_path / "r.parquet"), "--json", home=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1, result.stdout[:2000]
    assert json.loads(lines[0])["games"] == 8


def test_ray_keeps_a_few_chunks_in_flight(tmp_path, monkeypatch):
    """Results are fetched and released as they finish, new chunks submitted as old ones are
    written: never the whole run in the object store (a fake `ray` records the calls)."""
    import types

    calls: list[str] = []
    live: set[int] = set()
    peak = [0]

    class Ref:
        def __init__(self, n: int, value):
            self.n, self.value = n, value
            live.add(n)
            peak[0] = max(peak[0], len(live))

        def __del__(self):
            live.discard(self.n)

    counter = iter(range(10**6))

    def remote(**opts):
        def wrap(fn):
            return types.SimpleNamespace(remote=lambda *a: Ref(next(counter), fn(*a)))

        return wrap

    fake = types.SimpleNamespace(
        is_initialized=lambda: True,
        remote=remote,
        cluster_resources=lambda: {"CPU": 2},
        wait=lambda refs, num_returns=1, timeout=None: (refs[:1], refs[1:]),
        get=lambda ref: ref.value,
        cancel=lambda ref, force=True: calls.append("cancel"),
        shutdown=lambda: None,
        exceptions=types.SimpleNamespace(RayError=RuntimeError),
    )
    monkeypatch.setitem(sys.modules, "ray", fake)
    spec = runner_mod.RunSpec("last-mouse-lost", ("random",), 40, {"first_to": 1}, chunk_size=2)
    out = tmp_path / "r.parquet"
    runner_mod.execute([runner_mod.Job(spec, out)], backend="ray", workers=2, window=4)
    import pandas as pd

    assert list(pd.read_parquet(out)["index"]) == list(range(40))
    assert peak[0] <= 5, peak  # 20 chunks, at most 4 (+ the one being written) alive at once
