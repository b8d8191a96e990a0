"""A real Ray cluster on loopback for the tests: a head node and one worker node, each a separate
`ray start --block` process in its own process group (so a test can kill one node by its id)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RAY = str(Path(sys.executable).with_name("ray"))
RAY_ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class NodeDied(RuntimeError):
    """A node's `ray start` process exited while the cluster waited for it."""


class Cluster:
    def __init__(self, head_cpus: int = 1, token: str | None = None) -> None:
        # head_cpus=0: a head that schedules no task (Ray's advice for real clusters), so every
        # task runs on a worker node and a test that loses a worker knows it held work.
        self.head_cpus = head_cpus
        self.temp = tempfile.mkdtemp(prefix="rt", dir="/tmp")  # short: Ray's socket paths have a limit
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.nodes: dict[str, subprocess.Popen[bytes]] = {}
        # A private loopback cluster: no token authentication (Ray >= 2.5x enables it on a head by
        # default, with a token file in the shared home that other Ray users may rewrite).
        self.env = {**os.environ, **RAY_ENV}
        # token: docs/scale.md's set-up instead, RAY_AUTH_MODE=token and the same RAY_AUTH_TOKEN
        # on every node; a driver joins with `auth` in its environment.
        self.auth: dict[str, str] = {}
        if token is not None:
            self.auth = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token}
            self.env.update(self.auth)

    def _start(self, name: str, args: list[str], cpus: int = 1) -> None:
        log = open(Path(self.temp) / f"{name}.log", "wb")  # noqa: SIM115 (kept open for the process)
        # Free ports for what Ray would otherwise put on fixed ones (other Ray users on this machine).
        ports = [
            "--dashboard-agent-listen-port",
            str(free_port()),
            "--metrics-export-port",
            str(free_port()),
            "--object-store-memory",
            str(100 * 1024 * 1024),
        ]
        self.nodes[name] = subprocess.Popen(
            [RAY, "start", "--block", "--num-cpus", str(cpus), "--node-ip-address", "127.0.0.1"]
            + [*ports, *args],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=self.env,
            start_new_session=True,
        )

    def start_head(self) -> None:
        self._start(
            "head",
            [
                "--head",
                "--port",
                str(self.port),
                "--temp-dir",
                self.temp,
                "--include-dashboard",
                "false",
                "--dashboard-port",
                str(free_port()),
                "--ray-client-server-port",
                str(free_port()),
                "--disable-usage-stats",
            ],
            cpus=self.head_cpus,
        )

    def start_worker(self, name: str = "worker") -> None:
        self.kill(name)
        self._start(name, ["--address", self.address])

    def workers(self) -> list[str]:
        return [name for name in self.nodes if name != "head"]

    def ensure_workers(self, *names: str) -> None:
        """Start those of the named worker nodes that are not running (a test before killed them),
        one at a time: two nodes starting at once time out in Ray's start-up on one host.

        A node whose `ray start` gave up is started again, up to three times: Ray waits a fixed
        30 s for a new node to register (ray/_private/node.py, not configurable), which a loaded
        machine can exceed ("The current node timed out during startup"): that failed the first
        test of tests/sim/test_ray.py here twice at load 14-18, and the next test, which started
        the node again, passed."""
        for name in names:
            node = self.nodes.get(name)
            if node is not None and node.poll() is None:
                continue
            for attempt in range(3):
                self.start_worker(name)
                try:
                    self.wait_nodes(1 + len(self.workers()))
                    break
                except NodeDied:
                    if attempt == 2:
                        raise

    def alive_nodes(self) -> int:
        code = (
            f"import ray; ray.init(address={self.address!r}, logging_level='ERROR');"
            "print(sum(1 for n in ray.nodes() if n['Alive']))"
        )
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=self.env)
        try:
            return int(out.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            return 0

    def _said_started(self) -> bool:
        """Whether every node's `ray start` has written "Ray runtime started." to its log (or has
        died: the wait below then reports it), read from the files: no process started to ask."""
        for name, node in self.nodes.items():
            log = Path(self.temp) / f"{name}.log"
            if node.poll() is None and "Ray runtime started." not in log.read_text(errors="replace"):
                return False
        return True

    def wait_nodes(self, count: int, timeout: float = 240) -> None:
        deadline = time.monotonic() + timeout
        # Each `alive_nodes` is a Python process that imports Ray and joins the cluster (about
        # 1 CPU s); asked every second while a node starts (15-50 s on a loaded machine) that was
        # 3-4 CPU s a wait. A node's `ray start` says "Ray runtime started." when the cluster
        # counts it (measured: the next `alive_nodes` saw it), so the log is read first, and the
        # cluster asked once it is there (asked again each second, as before, if it is not yet).
        while time.monotonic() < deadline and not self._said_started():
            time.sleep(0.2)
        dead = [name for name, node in self.nodes.items() if node.poll() is not None]
        if dead:  # a node whose `ray start` exited never joins: no need to wait out the timeout
            raise NodeDied(f"Ray node(s) {dead} exited while starting: {self._logs()}")
        while time.monotonic() < deadline:
            if self.alive_nodes() >= count:
                return
            time.sleep(1)
        raise RuntimeError(f"the Ray cluster did not reach {count} nodes: {self._logs()}")

    def _logs(self) -> dict[str, str]:
        return {p.name: p.read_text(errors="replace")[-2000:] for p in Path(self.temp).glob("*.log")}

    def _members(self, name: str) -> list[int]:
        """The node's processes: its `ray start` process and every descendant (Ray's workers run
        in sessions of their own, so the process group alone would miss them)."""
        root = self.nodes[name].pid
        children: dict[int, list[int]] = {}
        for proc in Path("/proc").iterdir():
            if proc.name.isdigit():
                try:
                    ppid = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
                except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
                    continue
                children.setdefault(ppid, []).append(int(proc.name))
        members, todo = [], [root]
        while todo:
            pid = todo.pop()
            members.append(pid)
            todo.extend(children.get(pid, []))
        return members

    def running(self, name: str, task: str) -> bool:
        """Whether a process of node `name` is executing Ray task `task` (Ray titles it ray::<task>)."""
        for pid in self._members(name):
            try:
                if Path(f"/proc/{pid}/cmdline").read_bytes().startswith(f"ray::{task}".encode()):
                    return True
            except (FileNotFoundError, ProcessLookupError):
                continue
        return False

    def kill(self, name: str) -> None:
        """Kill one node at once: its `ray start` process and all its descendants, by process id."""
        if name not in self.nodes:
            return
        for pid in self._members(name):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.nodes.pop(name).wait()

    def stop(self) -> None:
        for name in list(self.nodes):
            self.kill(name)
        shutil.rmtree(self.temp, ignore_errors=True)
