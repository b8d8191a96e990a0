"""An `explore` report.html works from a file with no network (issue 42, item 2): headless
Chromium with every request but the file itself refused draws every chart of the page, and
hovering a mark shows its values in a tooltip. Before, the page loaded Vega from a CDN unless
vl-convert happened to be installed, and with the network blocked no chart was drawn."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from trapworks.cli import app

cli = CliRunner()


@pytest.fixture(scope="module")
def report_file(tmp_path_factory):
    home = tmp_path_factory.mktemp("explore")
    out = home / "lml"
    result = cli.invoke(
        app,
        ["explore", "last-mouse-lost", "--vary", "rules=basic,advanced", "-n", "40", "--out", str(out)],
        env={"TRAPWORKS_HOME": str(home)},
    )
    assert result.exit_code == 0, result.output
    return out / "report.html"


def test_the_report_names_no_remote_script(report_file):
    page = report_file.read_text()
    assert "cdn.jsdelivr" not in page and "<script src=" not in page.replace(" ", "")


def test_offline_every_chart_is_drawn_and_hover_shows_values(browser, report_file):
    context = browser.new_context()
    blocked: list[str] = []

    def only_the_file(route):
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_file)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(report_file.as_uri())
    page.wait_for_selector("#vis svg", timeout=20_000)
    assert errors == [] and blocked == []

    # Every chart of the page's vertical concatenation is drawn, with data marks in it (the
    # top-level scopes of Vega's scene, each with its marks as SVG elements).
    spec = json.loads(page.evaluate("() => JSON.stringify(spec)"))
    drawn = page.evaluate(
        """() => [...document.querySelectorAll('#vis svg g.role-scope')]
            .filter((g) => !g.parentElement.closest('g.role-scope'))
            .map((g) => g.querySelectorAll('g.role-mark > path, g.role-mark > line').length)"""
    )
    assert len(spec["vconcat"]) >= 3
    assert len(drawn) == len(spec["vconcat"]) and all(k > 0 for k in drawn), drawn

    # Hover: a point of the first chart (seat effects) shows its values (vega-tooltip).
    page.locator("#vis svg g.role-mark.mark-symbol > path").first.hover(force=True)
    tooltip = page.locator("#vg-tooltip-element")
    tooltip.wait_for(state="visible", timeout=5_000)
    text = tooltip.inner_text()
    assert "cell" in text and "win_rate" in text and "%" in text, text
    context.close()
