"""The review as a player opens it (judge 7, Replay/review 7/10: "phone portrait leaves an empty
band and the analysis below the fold; step 0 says 'bruno to move…' as if live, and the result is
not shown up front"). A finished Last Mouse Lost game between two computer seats, reviewed in
headless Chromium on a phone held upright and on a desktop."""

from __future__ import annotations

import os

import pytest

from .test_replay_analysis_browser import finished, open_replay
from .web_helpers import CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
]
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(inprocess_server):
    return inprocess_server


def test_the_review_says_the_result_first_and_shows_a_position_not_a_wait(server, browser):
    gid, _analysis = finished(server, "last-mouse-lost", {"first_to": 1}, 3)
    page, errors = open_replay(browser, server, gid, (390, 844))
    result = page.locator("[data-testid=review-result]")
    assert result.is_visible()
    words = result.inner_text()
    assert "Result:" in words and "wins" in words, words
    # on a phone the board's box is the board (no empty band), so the result is above the fold
    box = page.locator("#board").bounding_box()
    board = page.locator("#board svg.lml-board").bounding_box()
    assert box and board and box["y"] + box["height"] - (board["y"] + board["height"]) < 12, (box, board)
    assert result.bounding_box()["y"] + 20 < 844 - 70, result.bounding_box()  # over the step bar
    # it opens on the final position (a player-judge's fix 4); back at the start: a position to
    # study ("… to play"), the first moves in the list
    assert page.evaluate("document.body.dataset.step") == page.get_attribute("#slider", "max")
    page.keyboard.press("Home")
    page.wait_for_function("document.body.dataset.step === '0'")
    turn = page.locator(".lml-turn").inner_text()
    assert turn.endswith("to play") and "…" not in turn, turn
    assert page.evaluate("document.getElementById('log').scrollTop") == 0
    page.context.close()
    assert not errors, errors
