"""The lobby in real headless Chromium: controls made from each game's declared option schema
(labels, help, select / toggle / number), AI seats as Easy / Medium / Hard with the other agents
behind "More agents", a "How to play" panel per game, invite links with copy buttons in view.

Screenshots at 1366x768 and 390x844 go to artifacts/web/ (kept as test artefacts, gitignored).
"""

import os

import httpx
import pytest

from .web_helpers import ARTIFACTS, CHROMIUM, ServerProcess, open_new_game

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
    pytest.mark.timeout(180),
]

sync_api = pytest.importorskip("playwright.sync_api")
GAMES = ["last-mouse-lost", "mouse-trap", "booby-trap", "dead-end-drive"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("web-home")).start()
    yield s
    s.stop()


OPEN: list = []  # contexts opened by the current test, closed after it


@pytest.fixture(autouse=True)
def close_contexts():
    yield
    while OPEN:
        OPEN.pop().close()


def open_lobby(browser, server, width, height, errors):
    context = browser.new_context(viewport={"width": width, "height": height})
    OPEN.append(context)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    open_new_game(page)
    return page


@pytest.mark.parametrize("game", GAMES)
def test_option_controls_are_made_from_the_schema(server, browser, game):
    errors = []
    page = open_lobby(browser, server, 1366, 768, errors)
    page.select_option("[data-testid=game-select]", game)
    schema = {
        g["id"]: g["options_schema"]
        for g in httpx.get(server.url + "/api/catalog", timeout=30).json()["games"]
    }[game]
    page.click(".more-options summary") if any(o["advanced"] for o in schema) else None
    for opt in schema:
        control = page.locator(f"[data-option={opt['name']}]")
        assert control.count() == 1, opt["name"]
        tag = control.evaluate("e => e.tagName.toLowerCase() + ':' + (e.type || '')")
        expected = {"select": "select:select-one", "toggle": "input:checkbox", "number": "input:number"}
        assert tag == expected.get(opt["control"], "input:text"), (opt["name"], tag)
        row = page.locator(f"[data-option-row={opt['name']}]")
        text = row.inner_text()
        # Players' words: the label and the help line, never the internal name.
        assert opt["label"] in text and opt["help"] in text
        assert "_" not in text, f"an internal option name shows: {text!r}"
        if opt["source"]:
            assert opt["source"] in text
        if opt["control"] == "select":
            shown = control.locator("option").all_inner_texts()
            assert shown == [c["label"] for c in opt["choices"]]
            assert "null" not in " ".join(shown)
    # The rules as clicks, with a drawing.
    panel = page.locator(f"[data-how-to-play='{game}']")
    assert panel.locator("svg").count() == 1 and panel.locator("li").count() >= 3
    assert "click" in panel.inner_text().lower()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"lobby-{game}-1366.png"))
    assert not errors


def test_a_bad_value_is_refused_with_the_kernels_message(server, browser):
    errors = []
    page = open_lobby(browser, server, 1366, 768, errors)
    page.select_option("[data-testid=game-select]", "booby-trap")
    page.click(".more-options summary")
    page.fill("[data-option=tension_noise]", "3")
    # The same message as make("booby-trap", tension_noise=3) and `trapworks -o tension_noise=3`.
    page.wait_for_selector("#create-error:has-text('tension_noise 3: a number from 0 to 1')")
    assert page.locator("[data-testid=create]").is_disabled()
    page.fill("[data-option=tension_noise]", "0.2")
    page.wait_for_selector("[data-testid=create]:not([disabled])")
    assert not errors


def test_ai_seats_are_levels_with_more_agents_behind_a_switch(server, browser):
    errors = []
    page = open_lobby(browser, server, 1366, 768, errors)
    page.select_option("[data-testid=game-select]", "last-mouse-lost")
    visible = page.locator("[data-testid=seat-1] > option").all_inner_texts()
    assert visible[2:] == ["Computer: Easy", "Computer: Medium", "Computer: Hard"]
    assert not any("ismcts" in v or "perfect" in v for v in visible)
    assert page.locator("[data-testid=seat-1]").input_value() == "agent:medium"
    page.check("#more-agents")
    more = page.locator("[data-testid=seat-1] optgroup[label='More agents'] option").all_inner_texts()
    assert "Perfect player (never misses a win)" in more and "Random moves" in more
    assert not errors


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (390, 844)])
def test_invite_links_are_in_view_with_copy_buttons(server, browser, width, height):
    errors = []
    page = open_lobby(browser, server, width, height, errors)
    page.select_option("[data-testid=game-select]", "last-mouse-lost")
    page.select_option("[data-testid=seat-1]", "invite")
    page.click("[data-testid=create]")
    page.wait_for_selector("#created:not([hidden])")
    for name in ("seat-1", "spectator"):
        button = page.locator(f"[data-copy={name}]")
        box = button.bounding_box()
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= height, (name, box)
        assert 0 <= box["x"] and box["x"] + box["width"] <= width, (name, box)
    invite = page.locator("[data-link=seat-1]").input_value()
    page.click("[data-copy=seat-1]")
    page.wait_for_selector("[data-copy=seat-1][data-copied]")
    if page.locator("[data-copy=seat-1]").get_attribute("data-copied") == "1":
        assert page.evaluate("navigator.clipboard.readText()") == invite
    page.screenshot(path=str(ARTIFACTS / f"lobby-links-{width}.png"))
    assert not errors


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (390, 844)])
def test_lobby_screenshots(server, browser, width, height):
    errors = []
    page = open_lobby(browser, server, width, height, errors)
    for game in GAMES:
        page.select_option("[data-testid=game-select]", game)
        page.wait_for_selector(f"[data-how-to-play='{game}']")
        page.screenshot(path=str(ARTIFACTS / f"lobby-{game}-{width}.png"), full_page=True)
    assert not errors
