"""The rulebook quotes in the tests are really in the rulebooks (see tests/rulebook.py).

Every `cite(...)` call with literal text anywhere under tests/ is checked here, once, whether
or not the test that makes it is selected; cite() also checks each quote as it runs (that covers
quotes built at run time). Without the rulebooks this is the one test reported as skipped."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rulebook

TESTS = Path(__file__).resolve().parent
# Files whose one-argument cite(sentence) cites a fixed rulebook (their helper's cite).
ONE_ARGUMENT_HELPERS = {"bt_helpers": "001"}


def literal_citations() -> list[tuple[str, int, str, str]]:
    """(file, line, seed, sentence) for every cite() call with literal arguments under tests/."""
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        helper_seed = None
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in ONE_ARGUMENT_HELPERS:
                if any(a.name == "cite" for a in node.names):
                    helper_seed = ONE_ARGUMENT_HELPERS[node.module]
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "cite"
            ):
                continue
            args = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if len(args) != len(node.args):
                continue  # built at run time: cite() checks it when it runs
            if len(args) == 2:
                found.append((str(path.relative_to(TESTS)), node.lineno, args[0], args[1]))
            elif len(args) == 1 and helper_seed:
                found.append((str(path.relative_to(TESTS)), node.lineno, helper_seed, args[0]))
    return found


def test_citations_are_in_the_rulebooks() -> None:
    citations = literal_citations()
    if not rulebook.rulebooks_found():
        message = (
            f"rulebooks not found in {rulebook.rulebook_folder()} (set ${rulebook.ENV} to their "
            f"folder): the rule tests ran, but {len(citations)} quotes were not checked against them"
        )
        if os.environ.get(rulebook.REQUIRE_ENV):
            pytest.fail(message + f" and ${rulebook.REQUIRE_ENV} is set")
        pytest.skip(message)
    problems = [
        f"{file}:{line}: {problem}"
        for file, line, seed, sentence in citations
        if (problem := rulebook.check_quote(seed, sentence))
    ]
    assert not problems, "\n".join(problems)
    # The scan really sees the rule tests (about 250 citations across the five rulebooks).
    assert len(citations) > 200
    assert {seed for _, _, seed, _ in citations} == {"000", "001", "002", "003", "004"}


def test_a_quote_that_is_not_in_the_rulebook_fails(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "002_demo.txt").write_text(
        "The last mouse *loses*.\nTake  one or more mice.\n", encoding="utf-8"
    )
    monkeypatch.setenv(rulebook.ENV, str(tmp_path))
    rulebook.seed_text.cache_clear()
    try:
        assert rulebook.cite("002", "take one or more   mice.") == "take one or more   mice."
        assert rulebook.cite("002", "The last mouse loses.")
        with pytest.raises(AssertionError, match="not in rulebook 002"):
            rulebook.cite("002", "Take two mice.")
    finally:
        rulebook.seed_text.cache_clear()


def test_without_rulebooks_cite_returns_the_sentence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(rulebook.ENV, str(tmp_path))  # an empty folder
    assert not rulebook.rulebooks_found()
    assert rulebook.cite("002", "A sentence no rulebook has.") == "A sentence no rulebook has."


def _run_check(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k != rulebook.REQUIRE_ENV}
    # The check is this file's conftest and one test: pytest's installed plugins (hypothesis,
    # anyio, rerunfailures, timeout...) have no part in it, and loading them was half the run's
    # CPU (5.5 CPU s a run with them, 2.7 without).
    full.update({rulebook.ENV: str(tmp_path), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", **env})
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-rs",
            f"{__file__}::test_citations_are_in_the_rulebooks",
        ],
        capture_output=True,
        text=True,
        env=full,
        cwd=TESTS.parent,
        timeout=120,
    )


def test_missing_rulebooks_are_one_skip_and_a_failure_where_required(tmp_path: Path) -> None:
    skipped = _run_check(tmp_path)
    assert skipped.returncode == 0, skipped.stdout
    assert "1 skipped" in skipped.stdout and "rulebooks not found" in skipped.stdout
    required = _run_check(tmp_path, **{rulebook.REQUIRE_ENV: "1"})
    assert required.returncode == 1 and "1 failed" in required.stdout
