"""Takeback offers between two players in separate browsers (issue 38), in headless Chromium: the
page's part is the feature's own module (js/takeback.js, loaded from the game's info, no edit of
game.html or game.js); one player proposes, the other sees the offer live and declines it, then
proposes in turn and is accepted: both boards go back to before that player's last move. A
screenshot of the offer goes to artifacts/web/takeback/."""

from __future__ import annotations

import os

import pytest

from .test_control_browser import create, open_seat, play_first_legal_moves, state
from .web_helpers import ARTIFACTS, CHROMIUM, ServerProcess

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
]

sync_api = pytest.importorskip("playwright.sync_api")

SHOTS = ARTIFACTS / "takeback"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("takeback-home")).start()
    yield s
    s.stop()


def test_one_proposes_the_other_declines_then_proposes_and_is_accepted(server, browser):
    created = create(server, options={"board": [1, 2, 3], "first_to": 2})
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    play_first_legal_moves(server, created, 2)
    views = [state(server, gid, t)["state"] for t in tokens]
    mover = next(i for i, v in enumerate(views) if v["to_move"] == i)  # moved at ply 0, to move again
    ply = views[0]["ply"]
    log = state(server, gid, tokens[mover])["state"]["log"]
    keep = max(e["ply"] for e in log if e["seat"] == mover)  # before my last move
    errors: list[str] = []
    me = open_seat(browser, created["seats"][mover]["link"], errors=errors)
    them = open_seat(browser, created["seats"][1 - mover]["link"], errors=errors)

    # The other player (who moved last) proposes; I see the offer, with its two answers.
    them.locator("[data-testid=takeback-propose]").click()
    me.wait_for_selector("[data-testid=takeback-accept]:visible", timeout=10000)
    offer = me.locator("[data-testid=takeback-offer]").inner_text()
    assert "proposes to take back their last move" in offer
    assert them.locator("[data-testid=takeback-cancel]").is_visible()
    assert not them.locator("[data-testid=takeback-accept]").is_visible()  # not one's own offer
    SHOTS.mkdir(parents=True, exist_ok=True)
    me.screenshot(path=str(SHOTS / "offer.png"))

    me.locator("[data-testid=takeback-decline]").click()
    them.wait_for_selector("[data-testid=takeback-offer]", state="hidden", timeout=10000)
    # Declined: the proposer cannot offer again at once (the button is gone, the server refuses).
    assert not them.locator("[data-testid=takeback-propose]").is_visible()
    assert state(server, gid, tokens[1 - mover])["state"]["ply"] == ply

    # My own offer, accepted by the other player: both boards go back to before my last move.
    me.locator("[data-testid=takeback-propose]").click()
    them.wait_for_selector("[data-testid=takeback-accept]:visible", timeout=10000)
    them.locator("[data-testid=takeback-accept]").click()
    for page in (me, them):
        page.wait_for_function(f"document.body.dataset.ply === '{keep}'", timeout=10000)
    assert state(server, gid, tokens[0])["state"]["ply"] == keep
    assert not errors
    me.context.close()
    them.context.close()
