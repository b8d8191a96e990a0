"""Boards worth looking at (issue 16), in real headless Chromium.

Delivered so far: Last Mouse Lost, the AI's press animated and the mice it took down marked until
the next move; pressed mice drawn unlike raised ones; reduced motion skips the animation and the
game still plays to the end.
"""

from __future__ import annotations

import os

import pytest

from .test_game_page import create, settled
from .web_helpers import CHROMIUM, ServerProcess

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
]

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("boards-home")).start()
    yield s
    s.stop()


def press_first_row(page):
    for row in range(8):
        mice = page.locator(f"svg [data-row='{row}'][data-raised='1']")
        if mice.count():
            mice.nth(0).click()
            break
    page.locator("[data-testid=press]").click()


def ai_pressed_marks(page):
    """The mice marked as taken down by the last move: (count, all pressed, animation names)."""
    return page.evaluate(
        """() => {
          const just = [...document.querySelectorAll('#board g.mouse.just')];
          return {
            n: just.length,
            rings: document.querySelectorAll('#board g.mouse.just .just-ring').length,
            down: just.every((g) => g.dataset.raised === '0'),
            labels: just.map((g) => g.getAttribute('aria-label')),
            anim: just.map((g) => getComputedStyle(g.querySelector('.body')).animationName),
          };
        }"""
    )


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
def test_last_mouse_lost_ai_press_is_animated_and_marked_and_reduced_motion_plays_to_the_end(
    server, browser, reduced
):
    created = create(server, "last-mouse-lost", {"first_to": 1, "board": [3, 4, 4]}, seed=5)
    ctx = browser.new_context(
        viewport={"width": 1366, "height": 768}, reduced_motion="reduce" if reduced else "no-preference"
    )
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(created["seats"][0]["link"])
    page.wait_for_selector("#board svg", timeout=20000)
    seen_ai_press = False
    for _ in range(20):
        settled(page, timeout=30000)
        if page.evaluate("document.body.dataset.terminal") == "1":
            break
        marks = ai_pressed_marks(page)
        if marks["n"]:
            seen_ai_press = True
            # which mice went down: each marked mouse is down, ringed, and says so to a screen reader
            assert marks["down"] and marks["rings"] == marks["n"], marks
            assert all("pressed down by the last move" in label for label in marks["labels"]), marks
            assert set(marks["anim"]) == ({"none"} if reduced else {"lml-press"}), marks
        ply = int(page.evaluate("document.body.dataset.ply"))
        press_first_row(page)
        page.wait_for_function("p => Number(document.body.dataset.ply) > p", arg=ply, timeout=20000)
    assert page.evaluate("document.body.dataset.terminal") == "1", "the game did not end"
    assert seen_ai_press, "the AI's press was never marked on the board"
    # pressed mice are drawn unlike raised ones: a dark cap, no mouse body (but the press that
    # ended the game, whose mice are drawn going into their holes, ringed: issue 39, frame)
    assert page.locator("#board g.mouse[data-raised='0']:not(.just):not(.final-press) .body").count() == 0
    assert page.locator("#board g.mouse.final-press .final-ring").count() >= 1
    assert (
        page.locator("#board g.mouse[data-raised='0'] .cap").count()
        == page.locator("#board g.mouse[data-raised='0']").count()
    )
    assert not errors, errors
    ctx.close()
