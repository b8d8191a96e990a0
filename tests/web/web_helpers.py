"""Helpers for the web tests: a server in a subprocess on a free loopback port, polling."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts" / "web"
# Debian's chromium-headless-shell when installed (the old headless mode as its own small binary: what
# Playwright itself drives by default; about a fifth less CPU per test than the full browser), else chromium.
CHROMIUM = os.environ.get("TRAPWORKS_CHROMIUM") or next(
    (p for p in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if os.path.exists(p)),
    "/usr/bin/chromium",
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """`trapworks serve` in a subprocess with its own TRAPWORKS_HOME (so its own SQLite file)."""

    def __init__(self, home: Path, port: int | None = None, extra_args: list[str] | None = None):
        self.extra_args = list(extra_args or [])
        self.home = Path(home)
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.first_line = ""
        self.lines: list[str] = []  # what the server wrote after its first line (the access log)
        self._drainer: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> ServerProcess:
        # No hourly arenas in a test's server (their loop ticks every second in each of the suite's
        # servers): a test that wants them says --recurring-arenas.
        env = dict(
            os.environ, TRAPWORKS_HOME=str(self.home), PYTHONUNBUFFERED="1", TRAPWORKS_RECURRING_ARENAS="0"
        )
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from trapworks.cli import main; main()",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                *self.extra_args,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            text=True,
            cwd=REPO,
            # Its own process group: stop() and kill() reach the worker processes it starts too
            # (an orphaned worker would hold the output pipe open, and the reader with it).
            start_new_session=True,
        )
        self.first_line = self.proc.stdout.readline().strip()
        import httpx

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.first_line} {self.proc.stdout.read()}")
            try:
                if httpx.get(self.url + "/api/catalog", timeout=2).status_code == 200:
                    # Read its output from now on: a full pipe would stall the server's logging.
                    self._drainer = threading.Thread(target=self._drain, daemon=True)
                    self._drainer.start()
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not answer in time")

    def _drain(self) -> None:
        stream = self.proc.stdout if self.proc else None
        try:
            for line in stream or ():
                self.lines.append(line.rstrip("\n"))
        except (ValueError, OSError):  # closed by stop()
            pass

    def _signal_group(self, sig: int) -> None:
        try:
            os.killpg(self.proc.pid, sig)  # the server and every worker process it started
        except (ProcessLookupError, PermissionError):
            pass

    def kill(self, sig: int = 9) -> None:
        """Like a crash of the machine's server: the server and its workers get `sig` at once."""
        if self.proc and self.proc.poll() is None:
            self._signal_group(sig)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc:
            self._signal_group(signal.SIGKILL)  # workers left behind by the server
        if self._drainer is not None:
            self._drainer.join(timeout=5)  # the pipe is closed by now: the reader ends
        if self.proc and self.proc.stdout and (self._drainer is None or not self._drainer.is_alive()):
            self.proc.stdout.close()


def open_new_game(page) -> None:
    """The home page's full new-game form is a dialog (issue 39): open it (once the page is ready)."""
    page.wait_for_selector("body[data-ready='1']", timeout=20000)
    if not page.evaluate("() => document.getElementById('new-game-dialog').open"):
        page.click("[data-testid=open-new-game]")
    page.wait_for_selector("#new-game-dialog[open]")


def wait_for(predicate, timeout: float = 10.0, interval: float = 0.02, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(interval)


def seat_view(base: str, gid: str, token: str) -> dict:
    """What the server sends `token`'s seat as its view of game `gid`."""
    import httpx

    return httpx.get(f"{base}/api/games/{gid}", params={"token": token}, timeout=10).json()["state"]["view"]


def settled_with_server(page, base: str, gid: str, token: str, timeout: float = 60.0) -> dict:
    """Until the game waits for `token`'s seat (or is over) and `page` has drawn that very
    position: the server's state then (`seat_view`'s view is its "view"). A page compared with the
    server while agents still move reads a position the server has already left (or not yet
    drawn one it has)."""
    deadline = time.monotonic() + timeout
    while True:
        state = httpx.get(f"{base}/api/games/{gid}", params={"token": token}, timeout=30).json()["state"]
        if state["terminal"] or state["to_move"] == state["seat"]:
            left = max(1.0, deadline - time.monotonic())
            page.wait_for_function(
                "p => document.body.dataset.ply === String(p) && document.body.dataset.busy === '0'",
                arg=state["ply"],
                timeout=left * 1000,
            )
            return state
        if time.monotonic() > deadline:
            raise AssertionError(f"game {gid}: still not this seat's turn nor over after {timeout} s")
        time.sleep(0.1)


# A function's text, as Playwright tells one: `function ...`, `async ...`, `(a, b) => ...`, `p => ...`.
_FUNCTION = re.compile(r"^\s*(async\b|function\b|\([^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)")


# How often a wait_for_function looks again, in ms. Playwright's default ("raf": every animation
# frame) keeps the page drawing 60 frames a second for as long as a test waits, which costs Chromium
# CPU time on both cores for nothing; a timer every 40 ms answers as soon for a test (a move takes
# longer) at a fraction of the CPU. TRAPWORKS_TEST_POLL=raf restores Playwright's default.
_POLL = os.environ.get("TRAPWORKS_TEST_POLL", "40")
POLL_MS: float | None = None if _POLL == "raf" else float(_POLL)


def poll_without_eval() -> None:
    """Playwright polls a `wait_for_function("expression")` by evaluating the string with `eval` in
    the page, which the pages' Content-Security-Policy forbids (no 'unsafe-eval': issue 26). Passed
    as a function (`() => (expression)`) it is called without eval: every test's expressions are
    turned into functions here, so the tests run under the real policy."""
    from playwright.sync_api import Frame, Page

    for cls in (Page, Frame):
        original = cls.wait_for_function
        if getattr(original, "_no_eval", False):
            continue

        def wait_for_function(self, expression, *args, _original=original, **kwargs):
            if not _FUNCTION.match(expression):  # an expression, not already a function
                expression = f"() => ({expression.strip()})"
            if POLL_MS is not None:
                kwargs.setdefault("polling", POLL_MS)
            return _original(self, expression, *args, **kwargs)

        wait_for_function._no_eval = True  # type: ignore[attr-defined]
        cls.wait_for_function = wait_for_function  # type: ignore[method-assign]

        # A test's own script (axe-core) added as a <script> element is an inline script the
        # policy refuses: run its text through the DevTools protocol instead, which the page's
        # policy does not govern (nothing the page itself could do).
        add_script = cls.add_script_tag

        def add_script_tag(self, *args, _original=add_script, **kwargs):
            path, content = kwargs.get("path"), kwargs.get("content")
            if not args and (path or content) and not kwargs.get("url") and not kwargs.get("type"):
                source = Path(path).read_text() if path else content
                self.evaluate(f"() => {{ {source}\n}}")
                return None
            return _original(self, *args, **kwargs)

        cls.add_script_tag = add_script_tag  # type: ignore[method-assign]


def serve_in_thread(app, **settings) -> tuple[str, Callable[[], None]]:
    """`app` under uvicorn in a thread of this process, on a free loopback port, once it answers
    (a loaded machine may take a while); (base URL, stop). `settings`: more uvicorn.Config."""
    import uvicorn

    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning", **settings))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"

    def up() -> bool:
        try:
            return httpx.get(base + "/api/catalog", timeout=5).status_code == 200
        except httpx.HTTPError:  # not listening yet
            return False

    wait_for(up, timeout=60, what="server up")

    def stop() -> None:
        srv.should_exit = True
        thread.join(timeout=10)

    return base, stop


@contextlib.contextmanager
def small_tmpfs(tmp_path: Path, size: str):
    """A file system of its own of `size` (e.g. "4m") under tmp_path; the test is skipped where
    tmpfs cannot be mounted."""
    import pytest

    mount = tmp_path / "tmpfs"
    mount.mkdir()
    r = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)], capture_output=True
    )
    if r.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {r.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(mount: Path, leave: int = 0) -> Path:
    """Fill the disk until about `leave` bytes are free (0: to the last block); the file to delete
    to free it again."""
    filler = mount / "filler"
    block = 65536 if leave else 4096
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        while True:
            if leave and shutil.disk_usage(mount).free <= leave + block:
                break
            os.write(fd, b"\0" * block)
    except OSError:
        pass
    finally:
        os.close(fd)
    return filler
