"""Game control with people in separate browsers (issue 15, part B), in headless Chromium.

Each player has a browser context of their own (no shared storage or sockets): a resignation seen
by both sides; a rematch offered by one, accepted by the other, with seats rotated and the same
options; a per-move clock running out, once with the AI rule (the clock's AI plays the turn, stated
in the record) and once with the forfeit rule; the embeddable public replay of a finished game.
Screenshots for docs/web.md are written to artifacts/web/control/.
"""

from __future__ import annotations

import os

import httpx
import pytest

from .test_game_page import axe_serious
from .web_helpers import ARTIFACTS, CHROMIUM, ServerProcess, wait_for

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
]

sync_api = pytest.importorskip("playwright.sync_api")

SHOTS = ARTIFACTS / "control"
DESKTOP, PHONE = (1366, 768), (390, 844)
SMALL = {"board": [1, 2, 3], "first_to": 1}  # Last Mouse Lost on a small board: short games


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("control-home")).start()
    yield s
    s.stop()


def create(server, options=None, clock=None, seats=None):
    body = {
        "game": "last-mouse-lost",
        "options": options if options is not None else SMALL,
        "seats": seats or [{"kind": "human"}, {"kind": "human"}],
    }
    if clock:
        body["clock"] = clock
    r = httpx.post(server.url + "/api/games", json=body, timeout=30)
    assert r.status_code == 201, r.text
    return r.json()


def open_seat(browser, url, size=DESKTOP, errors=None):
    """A page in a browser context of its own (its own storage, cookies and sockets)."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    if errors is not None:
        page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + ("&fast" if "#" in url else "#fast"))
    page.wait_for_function("document.body.dataset.ply !== undefined", timeout=20000)
    return page


def state(server, gid, token):
    r = httpx.get(f"{server.url}/api/games/{gid}", params={"token": token}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def play_first_legal_moves(server, created, count):
    """`count` moves by whichever seat is to move, each its first legal action (by the API)."""
    tokens = [s["token"] for s in created["seats"]]
    for _ in range(count):
        views = [state(server, created["id"], t)["state"] for t in tokens]
        seat = next(i for i, v in enumerate(views) if v["to_move"] == i)
        action = views[seat]["view"]["legal_actions"][0]["text"]
        r = httpx.post(
            f"{server.url}/api/games/{created['id']}/moves",
            json={"token": tokens[seat], "action": action, "ply": views[seat]["ply"]},
            timeout=10,
        )
        assert r.status_code == 200, r.text


def resign_by_clicking(page):
    page.locator("[data-testid=resign]").click()
    page.locator("[data-testid=resign]", has_text="Confirm").click()


def test_resign_both_sides_see_the_result(server, browser):
    created = create(server)
    errors: list[str] = []
    me = open_seat(browser, created["seats"][0]["link"], errors=errors)
    them = open_seat(browser, created["seats"][1]["link"], errors=errors)
    resign_by_clicking(me)
    for page in (me, them):
        page.wait_for_selector("[data-testid=end-screen]:not([hidden])", timeout=10000)
    # One vocabulary for seats (issue 27): "You", then names.
    assert me.locator("#end-title").inner_text() == "You resigned. Player 2 wins."
    assert them.locator("#end-title").inner_text() == "Player 1 resigned. You win!"
    assert "resigned after 0 moves" in them.locator("[data-testid=end-reason]").first.inner_text()
    for page in (me, them):
        assert "· out" in page.locator("#players [data-player='0']").inner_text()
        assert "· out" not in page.locator("#players [data-player='1']").inner_text()
    # The result is the kernel's: the resigning seat loses, the other wins; stated in the record.
    view = state(server, created["id"], created["seats"][1]["token"])["state"]
    assert view["terminal"] and view["winners"] == [1]
    record = httpx.get(f"{server.url}/api/public/games/{created['id']}/record", timeout=10).json()
    assert record["forfeits"] == [{"seat": 0, "reason": "resigned", "ply": 0}]
    assert record["result"] == [-1.0, 1.0]
    assert not errors
    me.context.close()
    them.context.close()


def test_rematch_both_accept_seats_rotated_same_options(server, browser):
    options = {"board": [1, 2, 3], "first_to": 1, "rules": "advanced"}
    created = create(server, options=options, clock={"mode": "total", "seconds": 600, "increment": 3})
    errors: list[str] = []
    me = open_seat(browser, created["seats"][0]["link"], errors=errors)
    them = open_seat(browser, created["seats"][1]["link"], errors=errors)
    resign_by_clicking(them)
    me.wait_for_selector("[data-testid=end-screen]:not([hidden])", timeout=10000)
    them.wait_for_selector("[data-testid=end-screen]:not([hidden])", timeout=10000)
    me.locator("[data-testid=rematch]").click()
    # The offer is shown live to the other player, with a button to accept it.
    them.wait_for_selector("[data-testid=rematch-offer]", timeout=10000)
    assert "Player 1" in them.locator("[data-testid=rematch-offer]").first.inner_text()
    assert "waiting for You" in them.locator("[data-testid=rematch-offer]").first.inner_text()
    assert me.locator("[data-testid=rematch-link]").count() == 0
    them.locator("[data-testid=accept-rematch]").first.click()
    links = []
    for page in (me, them):
        page.wait_for_selector("[data-testid=rematch-link]", timeout=10000)
        links.append(page.locator("[data-testid=rematch-link]").first.get_attribute("href"))
    assert links[0] != links[1] and links[0].split("#")[0] == links[1].split("#")[0]
    for page, link in zip((me, them), links, strict=True):
        page.goto(server.url + link + "&fast")
        page.wait_for_function("document.body.dataset.ply !== undefined", timeout=20000)
    new_gid = links[0].split("/g/")[1].split("#")[0]
    mine = state(server, new_gid, links[0].split("t=")[1])["info"]
    theirs = state(server, new_gid, links[1].split("t=")[1])["info"]
    assert (mine["seat"], theirs["seat"]) == (1, 0)  # everyone one seat along
    assert mine["options"]["board"] == [1, 2, 3] and mine["options"]["rules"] == "advanced"
    assert mine["clock"]["mode"] == "total" and mine["clock"]["increment"] == 3
    assert mine["rematch_of"] == created["id"]
    assert me.evaluate("document.body.dataset.seat") == "1"
    assert not errors
    me.context.close()
    them.context.close()


def test_per_move_clock_runs_out_and_the_ai_plays_the_turn(server, browser):
    clock = {"mode": "move", "seconds": 2, "on_timeout": "ai", "ai_level": "easy"}
    created = create(server, options={"board": [2, 3, 4], "first_to": 1}, clock=clock)
    errors: list[str] = []
    me = open_seat(browser, created["seats"][0]["link"], errors=errors)
    them = open_seat(browser, created["seats"][1]["link"], errors=errors)
    # The countdown runs for the seat on move, from the server's numbers.
    me.wait_for_selector("[data-testid=clock-seat-0][data-running='1']", timeout=10000)
    # Nobody moves: the clock's AI plays Player 1's turn; both pages see it and Player 2's clock runs.
    for page in (me, them):
        page.wait_for_function("Number(document.body.dataset.ply) >= 1", timeout=15000)
        # Each page says why a move was played for Player 1.
        toast = page.locator("[data-message=info]", has_text="Time ran out")
        toast.wait_for(timeout=10000)
        assert "the computer (easy) played for" in toast.inner_text()
    record = wait_for(
        lambda: (
            (
                r := httpx.get(
                    f"{server.url}/api/games/{created['id']}/record",
                    params={"token": created["seats"][0]["token"]},
                    timeout=10,
                ).json()
            ).get("clock_moves")
            and r
        ),
        timeout=10,
        what="a clock move in the record",
    )
    assert record["clock_moves"][0] == 0  # the first move was the clock's AI's
    assert record["clock"]["on_timeout"] == "ai" and record["clock"]["ai_level"] == "easy"
    assert "forfeits" not in record  # written only when someone left the game
    assert not errors
    me.context.close()
    them.context.close()


def test_per_move_clock_runs_out_and_the_seat_forfeits(server, browser):
    created = create(server, clock={"mode": "move", "seconds": 2, "on_timeout": "forfeit"})
    errors: list[str] = []
    me = open_seat(browser, created["seats"][0]["link"], errors=errors)
    them = open_seat(browser, created["seats"][1]["link"], errors=errors)
    for page in (me, them):
        page.wait_for_selector("[data-testid=end-screen]:not([hidden])", timeout=15000)
    assert "ran out of time" in me.locator("#end-title").inner_text()
    assert "You win!" in them.locator("#end-title").inner_text()
    record = httpx.get(f"{server.url}/api/public/games/{created['id']}/record", timeout=10).json()
    assert record["forfeits"] == [{"seat": 0, "reason": "out_of_time", "ply": 0}]
    assert "clock_moves" not in record and record["result"] == [-1.0, 1.0]
    assert not errors
    me.context.close()
    them.context.close()


def test_screenshots_clock_controls_end_screen_and_embedded_replay(server, browser):
    """The pictures in docs/web.md, at 1366x768 and 390x844; axe-core on each (desktop)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    found: dict[str, list[str]] = {}
    for size in (DESKTOP, PHONE):
        tag = size[0]
        created = create(
            server,
            options={"first_to": 1},
            clock={"mode": "total", "seconds": 300, "increment": 5, "on_timeout": "ai", "ai_level": "easy"},
        )
        errors: list[str] = []
        play_first_legal_moves(server, created, 4)
        me = open_seat(browser, created["seats"][0]["link"], size, errors)
        me.wait_for_selector("[data-testid=clock-seat-0][data-running='1']", timeout=10000)
        me.wait_for_selector("[data-testid=resign]")
        if size == PHONE:
            me.locator("[data-testid=control]").scroll_into_view_if_needed()
        me.screenshot(path=str(SHOTS / f"clock-and-controls-{tag}.png"))
        if size == DESKTOP:
            found["clock and controls"] = axe_serious(me)
        # The other player resigns (by the API, as their browser would) and offers a rematch.
        them = {"token": created["seats"][1]["token"]}
        base = f"{server.url}/api/games/{created['id']}"
        assert httpx.post(f"{base}/resign", json=them, timeout=30).status_code == 200
        assert httpx.post(f"{base}/rematch", json=them, timeout=30).status_code == 200
        me.wait_for_selector("[data-testid=end-screen]:not([hidden])", timeout=10000)
        me.wait_for_selector("#end-links [data-testid=rematch-offer]", timeout=10000)
        me.screenshot(path=str(SHOTS / f"end-after-resignation-{tag}.png"))
        if size == DESKTOP:
            found["end after resignation"] = axe_serious(me)
        # The public replay made for an <iframe>: no header, the board and its steps.
        embed = me.context.new_page()
        embed.goto(f"{server.url}/replay/{created['id']}?embed=1")
        embed.wait_for_function("document.body.dataset.ready === '1'", timeout=20000)
        embed.locator("#last").click()
        assert embed.locator("header.top").is_hidden()
        embed.screenshot(path=str(SHOTS / f"embedded-replay-{tag}.png"))
        if size == DESKTOP:
            found["embedded replay"] = axe_serious(embed)
        assert not errors
        me.context.close()
    assert not any(found.values()), found


def test_the_embedded_replay_plays_inside_an_iframe(server, browser):
    created = create(server)
    httpx.post(
        f"{server.url}/api/games/{created['id']}/resign",
        json={"token": created["seats"][1]["token"]},
        timeout=30,
    )
    ctx = browser.new_context(viewport={"width": 900, "height": 700})
    page = ctx.new_page()
    page.goto(server.url + "/static/app.css")  # any page of the same server to host the frame
    src = f"{server.url}/replay/{created['id']}?embed=1"
    page.set_content(f'<iframe src="{src}" width="860" height="600"></iframe>')
    page.wait_for_function("window.frames.length === 1", timeout=10000)
    inner = page.frames[1]
    inner.wait_for_function(
        "document.body.dataset.ready === '1' && !!document.body.dataset.step", timeout=20_000
    )
    inner.click("#last")
    text = inner.inner_text("[data-testid=where]")
    assert "game over" in text and "Player 2" in text and "resigned" in text
    ctx.close()


def test_the_lobby_creates_a_game_with_a_clock_and_the_friend_sees_it(server, browser):
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": DESKTOP[0], "height": DESKTOP[1]})
    lobby = ctx.new_page()
    lobby.on("pageerror", lambda e: errors.append(str(e)))
    lobby.goto(server.url + "/?game=last-mouse-lost")
    lobby.wait_for_function("document.body.dataset.ready === '1'", timeout=20000)
    lobby.select_option("[data-testid=seat-1]", "invite")
    lobby.select_option("[data-testid=clock-mode]", "total")
    lobby.fill("[data-testid=clock-seconds]", "240")
    lobby.fill("[data-testid=clock-increment]", "4")
    lobby.select_option("[data-testid=clock-rule]", "forfeit")
    lobby.locator("[data-testid=create]").click()
    invite = lobby.locator("[data-link=seat-1]").input_value(timeout=10000)
    # The friend opens the invite in a browser of their own: the clock is there, running for Player 1.
    friend = open_seat(browser, invite, errors=errors)
    friend.wait_for_selector("[data-testid=clock-seat-0][data-running='1']", timeout=10000)
    assert "4:00" in friend.locator("[data-testid=clock-seat-1]").inner_text()
    assert "forfeit on time" in friend.locator("[data-testid=clock]").inner_text()
    gid = invite.split("/g/")[1].split("#")[0]
    token = friend.evaluate("new URLSearchParams(location.hash.slice(1)).get('t')")
    info = state(server, gid, token)["info"]
    assert info["clock"] == {
        "mode": "total",
        "seconds": 240.0,
        "increment": 4.0,
        "on_timeout": "forfeit",
        "ai_level": None,
    }
    assert not errors
    ctx.close()
    friend.context.close()


def game_with_a_gone_player(server, browser):
    """A two-seat game whose second player never comes (the wait for a gone player is 2 s), and the
    first seat's page."""
    body = {
        "game": "last-mouse-lost",
        "options": SMALL,
        "seats": [{"kind": "human"}, {"kind": "human"}],
        "hand_over_after": 2,
    }
    r = httpx.post(server.url + "/api/games", json=body, timeout=30)
    assert r.status_code == 201, r.text
    created = r.json()
    errors: list[str] = []
    return created, open_seat(browser, created["seats"][0]["link"], errors=errors), errors


def test_a_gone_players_seat_is_offered_and_handed_to_the_computer(server, browser):
    created, me, errors = game_with_a_gone_player(server, browser)
    # Player 2 never opens the game: after 2 s the offer appears on my page by itself.
    me.locator("[data-testid=hand-over-1]").click(timeout=15000)
    me.locator("[data-message=info]", has_text="played by the computer now").wait_for(timeout=10000)
    me.wait_for_selector("[data-testid=hand-over-1]", state="detached", timeout=10000)
    me.locator("#players [data-player='1']", has_text="played by the computer").wait_for(
        state="attached", timeout=10000
    )
    record = wait_for(
        lambda: (
            (
                r := httpx.get(
                    f"{server.url}/api/games/{created['id']}/record",
                    params={"token": created["seats"][0]["token"]},
                    timeout=10,
                ).json()
            ).get("handed_to_ai")
            and r
        ),
        timeout=10,
        what="the hand-over in the record",
    )
    assert record["handed_to_ai"][0]["seat"] == 1 and record["handed_to_ai"][0]["by"] == 0
    assert not errors
    me.context.close()


def test_a_player_who_left_is_claimed_against_and_the_claimer_wins(server, browser):
    """Issue 39 (Must show): as lichess lets one claim a game whose opponent left, the seat still at
    the game ends it once the other has been gone for the game's wait, and wins it."""
    created, me, errors = game_with_a_gone_player(server, browser)
    # Player 2 never opens the game: after 2 s the claim is offered beside the hand-over.
    me.locator("[data-testid=claim-1]").click(timeout=15000)
    me.locator("[data-testid=end-badge]", has_text="You won").wait_for(timeout=15000)
    s = state(server, created["id"], created["seats"][0]["token"])["state"]
    assert s["terminal"] and s["winners"] == [0]
    assert s["ending"]["forfeits"][0] == {**s["ending"]["forfeits"][0], "seat": 1, "reason": "left"}
    assert not errors
    me.context.close()
