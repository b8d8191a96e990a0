"""Opt-in CPU accounting per test: `TRAPWORKS_CPU_REPORT=path pytest ...` writes one JSON line a
test (`test`, `cpu_s`, `wall_s`, `outcome`) to `path` and prints the 15 costliest at the end.

A test's CPU seconds are those of setup, call and teardown together, counted over this process
and every process below it:
- this process (RUSAGE_SELF) and the children it has reaped (RUSAGE_CHILDREN: a CLI subprocess,
  a server node run with subprocess);
- the descendants still alive (psutil): their own time and that of the children they reaped.
  Chromium is a child of Playwright's driver, which lives as long as the browser fixture: its
  time reaches RUSAGE_CHILDREN only when the driver exits, so it is read from /proc while it runs.
A process that dies between two readings moves from the living sum to its parent's reaped sum,
so nothing is counted twice or lost; only a process reparented to init (a daemon that detached
itself) is not seen. Fixtures shared by several tests (a module's browser, a started server)
charge their start-up to the first test that sets them up and their work to the test using them.
"""

from __future__ import annotations

import json
import os
import resource
import time
from pathlib import Path

import pytest

REPORT = os.environ.get("TRAPWORKS_CPU_REPORT")


def _own_and_reaped() -> float:
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def _living_descendants() -> float:
    import psutil

    total = 0.0
    for proc in psutil.Process().children(recursive=True):
        try:
            t = proc.cpu_times()
        except psutil.Error:  # gone meanwhile: its time is in its parent's reaped sum now
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


def become_subreaper() -> None:
    """Chromium's helper processes (its GPU process, zygote and renderers) outlive the browser
    process that started them by a moment: orphaned, they would be reparented to init and their
    CPU time lost from this tree (a module's last test read tens of CPU seconds below zero). As a
    child subreaper (Linux prctl) this process inherits them instead and reaps them below."""
    import ctypes

    PR_SET_CHILD_SUBREAPER = 36
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: orphans' time is lost, as said above
        pass


def _reap_orphaned_chromium() -> None:
    # Only Chromium's processes: a child that Python's subprocess started must be left for its
    # Popen to wait for (reaped here, its exit status would be lost to the test).
    import psutil

    for proc in psutil.Process().children():
        try:
            if proc.status() == psutil.STATUS_ZOMBIE and proc.name().startswith("chrom"):
                os.waitpid(proc.pid, os.WNOHANG)
        except (psutil.Error, ChildProcessError):
            continue


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and everything below it."""
    _reap_orphaned_chromium()
    return _own_and_reaped() + _living_descendants()


_rows: list[dict] = []
_OUTCOME = pytest.StashKey[dict]()


# The hooks below act only once tests/conftest.py registers this module (TRAPWORKS_CPU_REPORT set).


def pytest_configure(config):
    become_subreaper()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    cpu0, wall0 = cpu_seconds(), time.monotonic()
    outcome: dict[str, str] = {}
    item.stash[_OUTCOME] = outcome
    yield
    row = {
        "test": item.nodeid,
        "cpu_s": round(cpu_seconds() - cpu0, 3),
        "wall_s": round(time.monotonic() - wall0, 3),
        "outcome": outcome.get("call", outcome.get("setup", "?")),
    }
    _rows.append(row)
    assert REPORT
    with Path(REPORT).open("a") as f:
        f.write(json.dumps(row) + "\n")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    report = (yield).get_result()
    item.stash.setdefault(_OUTCOME, {})[call.when] = report.outcome


def pytest_terminal_summary(terminalreporter):
    if not _rows:
        return
    tr = terminalreporter
    tr.section(f"CPU seconds per test (TRAPWORKS_CPU_REPORT={REPORT})")
    total_cpu = sum(r["cpu_s"] for r in _rows)
    total_wall = sum(r["wall_s"] for r in _rows)
    tr.write_line(f"{len(_rows)} tests: {total_cpu:.1f} CPU s, {total_wall:.1f} s wall")
    for r in sorted(_rows, key=lambda r: -r["cpu_s"])[:15]:
        tr.write_line(f"{r['cpu_s']:8.2f} CPU s {r['wall_s']:8.2f} s wall  {r['test']}")
