"""Browser tests in real headless Chromium (Debian's /usr/bin/chromium driven by Playwright).

Screenshots go to artifacts/web/ (kept as test artefacts, gitignored).
"""

import os
import re
import signal

import httpx
import pytest

from .web_helpers import ARTIFACTS, CHROMIUM, ServerProcess, open_new_game

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
    pytest.mark.timeout(180),
]

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("web-home")).start()
    yield s
    s.stop()


def new_page(browser, errors):
    context = browser.new_context(viewport={"width": 1280, "height": 960})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def shot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def body(page, name):
    return page.evaluate(f"document.body.dataset.{name}")


def wait_my_turn_or_end(page, after_ply):
    page.wait_for_function(
        "p => Number(document.body.dataset.ply) > p && "
        "(document.body.dataset.myTurn === '1' || document.body.dataset.terminal === '1')",
        arg=after_ply,
        timeout=20000,
    )


def raised_in_row(page, row):
    return page.locator(f"svg [data-row='{row}'][data-raised='1']")


def first_row_with_raised(page):
    for row in range(6):
        if raised_in_row(page, row).count():
            return row
    raise AssertionError("no raised mouse on the board")


def test_last_mouse_lost_against_ai_played_to_the_end_of_the_match_by_clicking(server, browser):
    errors = []
    page = new_page(browser, errors)
    page.goto(server.url + "/")
    open_new_game(page)
    assert page.locator("[data-testid=game-select]").input_value() == "last-mouse-lost"
    # Options are checked by the server as they are typed: the game's own message, Create disabled.
    # (Options with a fixed set of values, such as rules, are offered as a list instead.)
    assert page.locator("select[data-option=rules]").count() == 1
    # A game may label its choices: who opens is shown as the seats are named.
    assert page.locator("select[data-option=first_player] option").all_inner_texts() == [
        "Player 1",
        "Player 2",
        "drawn at random",
    ]
    board = page.input_value("[data-option=board]")
    page.fill("[data-option=board]", "3,x")
    page.wait_for_selector("#create-error:has-text('give row lengths as numbers')")
    assert page.locator("[data-testid=create]").is_disabled()
    page.fill("[data-option=board]", board)
    page.wait_for_selector("[data-testid=create]:not([disabled])")
    # The seats follow the server's answer for the options: a 3-player Mouse Trap has 3 seats.
    page.select_option("[data-testid=game-select]", "mouse-trap")
    page.select_option("[data-option=players]", "3")
    page.wait_for_selector("[data-testid=seat-2]")
    assert page.locator("[data-seat]").count() == 3
    page.select_option("[data-testid=game-select]", "last-mouse-lost")
    page.wait_for_function("document.querySelectorAll('[data-seat]').length === 2")
    page.check("#more-agents")  # the perfect player is one of the agents behind "More agents"
    page.select_option("[data-testid=seat-1]", "agent:perfect")
    shot(page, "lml-lobby")
    page.click("[data-testid=create]")
    page.wait_for_url("**/g/**")
    # Fast mode: the renderer's animation pauses become 0 ms (everything else is the same).
    page.evaluate("location.hash += '&fast=1'; location.reload()")
    page.wait_for_selector("body[data-my-turn='1']")
    assert "last-mouse-lost.js" in body(page, "renderer")
    assert "Basic rules" in page.locator("[data-testid=rules]").inner_text()
    gid = page.url.split("/g/")[1].split("#")[0]
    token = page.url.split("#t=")[1].split("&")[0]

    # A hint (allowed against AI) selects the suggested mice on the board.
    page.click("[data-testid=hint]")
    page.wait_for_selector("[data-message=info] >> text=Hint:")
    assert page.locator("svg .mouse.hinted").count() >= 1

    # First move by dragging across a run of row c; then undo it (against AI), then play on.
    page.click("[data-testid=clear-selection]")
    first = page.locator("svg [data-row='2'][data-mouse='0']").bounding_box()
    third = page.locator("svg [data-row='2'][data-mouse='2']").bounding_box()
    page.mouse.move(first["x"] + first["width"] / 2, first["y"] + first["height"] / 2)
    page.mouse.down()
    page.mouse.move(third["x"] + third["width"] / 2, third["y"] + third["height"] / 2, steps=5)
    page.mouse.up()
    # basic rules: from the leftmost mouse slid over to the row's end, the mice that go down
    assert page.locator("svg .mouse.selected").count() == 6
    page.click("[data-testid=press]")
    wait_my_turn_or_end(page, 0)
    assert int(body(page, "ply")) == 2  # my press and the AI's reply
    assert page.locator("#log li").count() == 2
    shot(page, "lml-after-first-move")
    page.click("[data-testid=undo]")
    page.wait_for_function("document.body.dataset.ply === '0'")
    assert raised_in_row(page, 2).count() == 6

    moves = 0
    while body(page, "terminal") != "1":
        ply = int(body(page, "ply"))
        row = first_row_with_raised(page)
        # the first raised mouse: it and the raised mice right of it, the whole row (basic rules)
        raised_in_row(page, row).first.click()
        assert page.locator("svg .mouse.selected").count() == raised_in_row(page, row).count()
        page.click("[data-testid=press]")
        wait_my_turn_or_end(page, ply)
        moves += 1
        assert moves < 60
    end = page.locator("[data-testid=end-screen]")
    end.wait_for()
    # the badge says the result once, the title the final score (issue 39: said twice before)
    assert end.locator("[data-testid=end-badge]").inner_text() in ("You won", "You lost")
    assert end.locator("#end-title").inner_text().startswith("Final score: You")
    # the score in the board's one format, the seats in order (issue 39: "3-1" and "1 – 3" before)
    # the computer as every line names it (was "Player 2 (perfect)")
    final = r"Final score: You [0-3] – [0-3] Computer \(perfect\)"
    assert re.search(final, end.inner_text()), end.inner_text()
    assert re.search(r"You [0-3] – [0-3] Computer \(perfect\)", end.inner_text())
    shot(page, "lml-match-over")
    assert not errors, errors

    state = httpx.get(f"{server.url}/api/games/{gid}", params={"token": token}, timeout=30).json()["state"]
    assert state["terminal"] and max(state["view"]["score"]) == 3

    # The record can be downloaded and replayed step by step in the browser.
    with page.expect_download() as dl:
        end.locator("text=Download record").click()
    assert dl.value.suggested_filename.startswith("last-mouse-lost-")
    page.goto(f"{server.url}/replay#g={gid}&t={token}&fast=1")
    page.wait_for_selector("body[data-ready='1']")
    assert body(page, "step") == "0"
    assert page.locator("svg [data-raised='1']").count() == 28
    page.click("[data-testid=next]")
    page.click("[data-testid=next]")
    page.wait_for_function("document.body.dataset.step === '2'")
    assert page.locator("svg [data-raised='1']").count() < 28
    shot(page, "lml-replay")

    # The lobby lists the game under "My games" (localStorage), with a link to resume it.
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    row = page.locator(f"[data-my-game='{gid}']")
    assert row.count() == 1 and "Last Mouse Lost" in row.inner_text()
    assert token in row.locator("a").get_attribute("href")
    assert not errors, errors


def test_two_humans_each_sees_the_others_move(server, browser):
    errors = []
    host = new_page(browser, errors)
    host.goto(server.url + "/")
    open_new_game(host)
    host.select_option("[data-testid=seat-1]", "invite")
    host.click("[data-testid=create]")
    host.wait_for_selector("#created:not([hidden])")
    invite = host.locator("[data-link=seat-1]").input_value()
    spectator = host.locator("[data-link=spectator]").input_value()
    shot(host, "two-humans-links")
    host.click("[data-testid=open-seat-0]")
    host.wait_for_selector("body[data-my-turn='1']")

    guest = new_page(browser, errors)  # a second browser context: another person
    guest.goto(invite)
    guest.wait_for_selector("body[data-connected='1'][data-ply='0']")
    assert body(guest, "myTurn") == "0"
    watcher = new_page(browser, errors)
    watcher.goto(spectator)
    watcher.wait_for_selector("body[data-connected='1'][data-ply='0']")

    second_tab = host.context.new_page()  # the same person, a second tab on the same seat
    second_tab.goto(host.url)
    second_tab.wait_for_selector("body[data-connected='1'][data-ply='0'][data-my-turn='1']")

    host.locator("svg [data-row='3'][data-mouse='5']").click()
    host.locator("svg [data-row='3'][data-mouse='4']").click()
    host.click("[data-testid=press]")
    for page in (guest, watcher, second_tab):
        page.wait_for_selector("body[data-ply='1']")
        assert raised_in_row(page, 3).count() == 4
    guest.wait_for_selector("body[data-my-turn='1']")
    shot(guest, "two-humans-guest-sees-move")

    raised_in_row(guest, 0).last.click()  # one mouse (a tap takes the mice right of it too)
    guest.click("[data-testid=press]")
    host.wait_for_selector("body[data-ply='2'][data-my-turn='1']")
    assert raised_in_row(host, 0).count() == 2
    assert "Player 2" in host.locator("#log li").nth(1).inner_text()
    shot(host, "two-humans-host-sees-reply")

    # The Press button is off out of turn; a move typed out of turn gets the server's message.
    raised_in_row(guest, 1).first.click()
    assert guest.locator("[data-testid=press]").is_disabled()
    guest.fill("#typed-action", "b1")
    guest.press("#typed-action", "Enter")
    guest.wait_for_selector("[data-message=error]")
    assert "not your turn" in guest.locator("[data-message=error]").first.inner_text()
    assert not errors, errors


def test_a_dropped_connection_reconnects_and_catches_up(tmp_path, browser):
    server = ServerProcess(tmp_path / "home").start()
    errors = []
    try:
        g = httpx.post(
            f"{server.url}/api/games",
            json={"game": "last-mouse-lost", "seats": [{"kind": "human"}, {"kind": "human"}]},
            timeout=30,
        ).json()
        page = new_page(browser, errors)
        page.goto(g["seats"][1]["link"].replace("localhost", "127.0.0.1"))
        page.wait_for_selector("body[data-connected='1'][data-ply='0']")
        server.kill(signal.SIGKILL)
        page.wait_for_selector("body[data-connected='0']")
        shot(page, "reconnect-offline")
        server = ServerProcess(tmp_path / "home", port=server.port).start()
        # While the page was away, Player 1 moved.
        r = httpx.post(
            f"{server.url}/api/games/{g['id']}/moves",
            json={"token": g["seats"][0]["token"], "action": "e5", "ply": 0},
            timeout=30,
        )
        assert r.status_code == 200
        page.wait_for_selector("body[data-connected='1'][data-ply='1'][data-my-turn='1']", timeout=20000)
        assert raised_in_row(page, 4).count() == 0
        shot(page, "reconnect-caught-up")
        assert not errors, errors
    finally:
        server.stop()


def test_the_generic_renderer_plays_a_game_by_its_listed_actions(server, browser):
    """A game without its own renderer stays playable: the fallback shows the view and a button per
    legal action (forced here with #renderer=generic on a Last Mouse Lost game)."""
    errors = []
    g = httpx.post(
        f"{server.url}/api/games",
        json={
            "game": "last-mouse-lost",
            "options": {"first_to": 1},
            "seats": [{"kind": "human"}, {"kind": "agent", "agent": "random"}],
        },
        timeout=30,
    ).json()
    page = new_page(browser, errors)
    page.goto(g["seats"][0]["link"].replace("localhost", "127.0.0.1") + "&renderer=generic")
    page.wait_for_selector("body[data-my-turn='1']")
    assert body(page, "renderer").endswith("generic.js")
    moves = 0
    while body(page, "terminal") != "1":
        ply = int(body(page, "ply"))
        page.locator("[data-controls=generic] button:not([disabled])").last.click()
        wait_my_turn_or_end(page, ply)
        moves += 1
        assert moves < 30
    assert page.locator("[data-testid=game-over]").count() == 1
    shot(page, "generic-renderer-game-over")
    assert not errors, errors
