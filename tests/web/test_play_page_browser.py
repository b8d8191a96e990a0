"""The game page as a new player tries it (issue 27), in headless Chromium at 1366x768 and 390x844.

- A friend's clock waits for the friend: no clock runs while an invited seat is free.
- An invite link opened again in the browser that took its seat resumes that seat.
- One-screen hot seat: every human seat this browser holds is played on one page (a curtain
  between seats where hands are secret), every game played to its end that way.
- Keyboard: a board is one tab stop, the focus stays on it after the opponent's move, a whole
  Last Mouse Lost game takes under 10 keystrokes a move (counted), the end dialog takes the focus.
- Messages do not stay for ever: a hint's message goes with the next move.
- The board keeps its size when the action bar changes (Booby Trap: touching, then removing).
"""

from __future__ import annotations

import json
import os
import random
import re
import time

import httpx
import pytest

from .test_game_page import AXE, DECISION, GAMES, OUTSIDE_JS, decide_bt, decide_ded, decide_lml
from .web_helpers import ARTIFACTS, CHROMIUM, ServerProcess

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
]

sync_api = pytest.importorskip("playwright.sync_api")

SIZES = [(1366, 768), (390, 844)]
SIZE_IDS = ["desktop", "phone"]
VS_EASY = [{"kind": "human"}, {"kind": "agent", "agent": "easy"}]
VS_HEURISTIC = [{"kind": "human"}, {"kind": "agent", "agent": "heuristic"}]
MY_TURN = "document.body.dataset.myTurn === '1' && document.body.dataset.busy === '0'"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("play-page-home")).start()
    yield s
    s.stop()


def create(server, game, options, seats, **extra):
    r = httpx.post(
        server.url + "/api/games",
        json={"game": game, "options": options, "seats": seats, **extra},
        timeout=30,
    )
    assert r.status_code == 201, r.text
    return r.json()


def new_page(browser, size, errors, ctx=None):
    ctx = ctx or browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def fast(link):
    return link + ("&fast" if "#" in link else "#fast")


def running(page, seat):
    return page.locator(f"[data-testid=clock-seat-{seat}]").get_attribute("data-running")


# --- clocks and seats ---------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_friends_clock_waits_for_the_friend(server, browser, size):
    """Issue 27 item 1: seat 2 "A friend", 2 s per turn, forfeit: my seat is not timed out while
    the friend's seat is still free; the clocks start when the friend takes it."""
    clock = {"mode": "move", "seconds": 2, "on_timeout": "forfeit"}
    seats = [{"kind": "human"}, {"kind": "human", "invite": True}]
    created = create(server, "last-mouse-lost", {"board": [1, 2, 3], "first_to": 1}, seats, clock=clock)
    errors: list[str] = []
    me = new_page(browser, size, errors)
    me.goto(fast(created["seats"][0]["link"]))
    me.wait_for_selector("[data-testid=clock-seat-0]", timeout=20000)
    me.wait_for_timeout(3500)  # longer than the 2 s turn: it would have forfeited
    assert me.evaluate("document.body.dataset.terminal") == "0"
    assert me.locator("[data-testid=end-screen]").is_hidden()
    assert running(me, 0) == "0" and "0:02" in me.locator("[data-testid=clock-seat-0]").inner_text()
    # The friend arrives: now my clock runs, on both pages.
    friend = new_page(browser, size, errors)
    friend.goto(fast(created["seats"][1]["link"]))
    # (the friend's page loads, claims the seat and connects, then the server tells both pages:
    # several round trips and a page load on a loaded machine)
    for page in (me, friend):
        page.wait_for_selector("[data-testid=clock-seat-0][data-running='1']", timeout=30000)
    assert not errors
    me.context.close()
    friend.context.close()


def test_an_update_of_the_same_position_keeps_what_the_player_selected(server, browser):
    """The server sends the page the same position again when something off the board changes (here:
    the friend takes the invited seat, so the clocks start). The board is not drawn again: the mice
    the player has selected stay selected (a redraw dropped them under the player's clicks, and under
    the tests' clicks on a loaded machine)."""
    clock = {"mode": "total", "seconds": 300}
    seats = [{"kind": "human"}, {"kind": "human", "invite": True}]
    created = create(server, "last-mouse-lost", {"first_to": 1, "first_player": 0}, seats, clock=clock)
    errors: list[str] = []
    me = new_page(browser, (1366, 768), errors)
    me.goto(fast(created["seats"][0]["link"]))
    me.wait_for_function(MY_TURN + " && document.body.dataset.connected === '1'", timeout=20000)
    assert running(me, 0) == "0"  # the clocks wait for the friend
    mice = me.locator("svg [data-row='3'][data-raised='1']")
    mice.nth(4).click()  # basic rules: the fifth mouse and the one right of it (what goes down)
    assert me.locator("svg .mouse.selected").count() == 2
    invite = created["seats"][1]["link"].split("#i=")[1]
    r = httpx.post(f"{server.url}/api/games/{created['id']}/claim", json={"invite": invite}, timeout=30)
    assert r.status_code == 200, r.text
    # The update that starts my clock has come and is drawn (the same ply: nobody moved).
    me.wait_for_selector("[data-testid=clock-seat-0][data-running='1']", timeout=30000)
    me.wait_for_function("document.body.dataset.busy === '0'")
    assert me.evaluate("document.body.dataset.ply") == "0"
    assert me.locator("svg .mouse.selected").count() == 2
    assert me.locator("[data-testid=press]").is_enabled()
    assert not errors
    me.context.close()


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_an_invite_link_opened_again_resumes_the_seat(server, browser, size):
    """Issue 27 item 2: the tab closed, the same invite link clicked again: the seat is back."""
    seats = [{"kind": "human"}, {"kind": "human", "invite": True}]
    created = create(server, "last-mouse-lost", {"first_to": 1}, seats)
    invite = fast(created["seats"][1]["link"])
    errors: list[str] = []
    friend = new_page(browser, size, errors)
    friend.goto(invite)
    friend.wait_for_selector("#board svg", timeout=20000)
    friend.wait_for_function("document.body.dataset.ply !== undefined")
    # The seat is in the strips (an unnamed guest's own seat: "You", never "Player 2").
    assert friend.locator("[data-testid=strip-name-1]").inner_text() == "You"
    ctx = friend.context
    friend.close()
    again = new_page(browser, size, errors, ctx=ctx)
    again.goto(invite)
    again.wait_for_selector("#board svg .mouse", timeout=20000)
    again.wait_for_function("document.body.dataset.ply !== undefined")
    assert again.locator("[data-testid=strip-name-1]").inner_text() == "You"
    assert again.locator("[data-message=error]").count() == 0, again.locator("#toasts").inner_text()
    again.wait_for_function("document.body.dataset.connected === '1'", timeout=10000)  # its socket opens
    # A browser that never held the seat is told what to do, not shown an empty board silently.
    stranger = new_page(browser, size, errors)
    stranger.goto(invite)
    stranger.locator("[data-message=error]").wait_for(timeout=10000)
    assert "already used" in stranger.locator("#toasts").inner_text()
    assert not errors
    ctx.close()
    stranger.context.close()


# --- one-screen hot seat ----------------------------------------------------------------------
# 13 Dead End Drive stopped by its turn limit (20 turns, 10 a seat, each a curtain, a roll, a pawn,
# a distance and a square): two humans cannot choose the seed, so a whole game is hundreds of
# turns drawn at random (175 CPU s at one size on a quiet machine, 211 s of CI's wall). The
# hot seat's properties (the page becomes the mover's, a curtain between the seats, every control
# on screen, the end screen with nobody "You") are the same on every turn; the game played to
# its natural end by clicking is test_game_page.py's, at both sizes. Mouse Trap the same: its
# game's length is the server's random seed's (CI: 140 s of wall at one size, under 30 at the
# other), so it is stopped at 20 turns too.
HOT_SEAT_OPTIONS = {
    **GAMES,
    "dead-end-drive": {**GAMES["dead-end-drive"], "turn_limit": 20},
    "mouse-trap": {**GAMES["mouse-trap"], "turn_limit": 20},
}


def hold_seats(page, server, created, game):
    """This browser holds every human seat of `created` (as the lobby's Create leaves it)."""
    page.goto(server.url + "/")
    entries = [
        {"id": created["id"], "token": s["token"], "seat": s["seat"], "game": game, "label": s["label"]}
        for s in created["seats"]
        if s["kind"] == "human"
    ]
    page.evaluate("e => localStorage.setItem('trapworks.myGames', JSON.stringify(e))", entries)


def wait_decision(page, timeout=30000):
    """Until the page has drawn everything and a seat of this page is on move, a curtain asks for
    the next player, or the game is over; which one."""
    page.wait_for_function(
        "document.body.dataset.curtain === '1' || (document.body.dataset.busy === '0' && "
        "(document.body.dataset.myTurn === '1' || document.body.dataset.terminal === '1'))",
        timeout=timeout,
    )
    if page.evaluate("document.body.dataset.curtain") == "1":
        return "curtain"
    return "end" if page.evaluate("document.body.dataset.terminal") == "1" else "turn"


def decide_mt(page, rng):
    """Mouse Trap between two people who build (the trap must be built before anyone is caught)."""
    mice = page.locator("[data-mouse].pickable")
    if mice.count():
        mice.first.click()
        return "pick-a-mouse"
    buttons = page.locator("[data-controls=mouse-trap] button[data-action]")
    actions = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
    choice = next((a for a in ("crank", "build", "roll") if a in actions), None)
    choice = choice or actions[rng.randrange(len(actions))]
    page.locator(f"[data-controls=mouse-trap] button[data-action='{choice}']").click()
    return choice


def test_the_lobby_sends_a_hot_seat_game_straight_to_its_page(server, browser):
    errors: list[str] = []
    page = new_page(browser, (1366, 768), errors)
    page.goto(server.url + "/?game=last-mouse-lost")
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=20000)
    page.select_option("[data-testid=seat-1]", "me")
    page.locator("[data-testid=create]").click()
    page.wait_for_url("**/g/**", timeout=20000)
    page.wait_for_function("document.body.dataset.hotSeat === '1'", timeout=20000)
    # Hints between two people on one screen (issue 39, polish): offered to the seat on move
    # (failed before: the game was made with hints off, the button greyed out).
    page.wait_for_function("document.body.dataset.myTurn === '1'", timeout=20000)
    assert page.locator("#hint").is_enabled()
    page.locator("#hint").click()
    page.wait_for_selector(".toast[data-tag=hint]", timeout=20000)
    assert not errors
    page.context.close()


@pytest.mark.timeout(600)
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("game", list(GAMES))
def test_hot_seat_one_page_plays_every_seat_to_the_end(server, browser, game, size):
    """Issue 27 item 3: both seats "Me": one page, which becomes the seat on move; where hands are
    secret a curtain stands between the seats. Played to the end by clicking."""
    created = create(server, game, HOT_SEAT_OPTIONS[game], [{"kind": "human"}, {"kind": "human"}])
    secret = game in ("booby-trap", "dead-end-drive")
    errors: list[str] = []
    page = new_page(browser, size, errors)
    hold_seats(page, server, created, game)
    page.goto(fast(created["seats"][0]["link"]))
    rng = random.Random(5)
    traps: set[str | None] = set()
    seats_played: set[str] = set()
    curtains = 0
    deadline = time.monotonic() + 420
    while True:
        what = wait_decision(page)
        if what == "end":
            break
        assert time.monotonic() < deadline, f"{game} {size}: no end"
        if what == "curtain":
            curtains += 1
            # nothing of the last seat shows through: the curtain covers the page
            assert not page.evaluate(OUTSIDE_JS, "[data-testid=curtain-ready]")
            page.locator("[data-testid=curtain-ready]").click()
            page.wait_for_function("document.body.dataset.curtain !== '1'")
            continue
        ply0 = int(page.evaluate("document.body.dataset.ply"))
        if page.locator("[data-testid=forced]").count():  # the only move: the page plays it
            page.wait_for_function(
                "p => Number(document.body.dataset.ply) > p || document.body.dataset.curtain === '1'",
                arg=ply0,
                timeout=30000,
            )
            continue
        # The page is the mover's (wait_decision saw myTurn), unless a forced move was played since:
        # with #fast the page plays an only move at once, even before ply0 was read (CI).
        seat, to_move = page.evaluate("[document.body.dataset.seat, document.body.dataset.toMove]")
        if to_move != seat:
            continue
        seats_played.add(seat)
        # every control of the turn is on screen, at both sizes (issue 27 item 8)
        outside = page.evaluate(OUTSIDE_JS, DECISION)
        assert not outside, f"{game} {size}: controls outside the viewport: {outside}"
        ply = int(page.evaluate("document.body.dataset.ply"))
        if game == "last-mouse-lost":
            decide_lml(page)
        elif game == "booby-trap":
            decide_bt(page, rng)
        elif game == "mouse-trap":
            decide_mt(page, rng)
        else:
            traps = traps or {
                page.locator("rect[data-trap]").nth(i).get_attribute("data-square")
                for i in range(page.locator("rect[data-trap]").count())
            }
            label = decide_ded(page, traps, rng)
            if label == "pick-a-pawn":
                # (drawn by the page itself, no server; 20 s: Chromium is slow on a loaded machine),
                # or the pawn's only move played by the page (a forced move)
                page.wait_for_function(
                    "p => document.querySelector('[data-testid=controls] button[data-count]')"
                    " || Number(document.body.dataset.ply) > p || document.body.dataset.curtain === '1'",
                    arg=ply,
                    timeout=20000,
                )
                continue
        page.wait_for_function(
            "p => Number(document.body.dataset.ply) > p || document.body.dataset.curtain === '1'",
            arg=ply,
            timeout=30000,
        )
    assert seats_played == {"0", "1"}, seats_played
    assert (curtains > 0) == secret, (game, curtains)
    page.locator("[data-testid=end-screen]").wait_for(state="visible", timeout=10000)
    # one screen, two people: nobody is "You"
    assert "You" not in page.locator("#players").inner_text()
    assert not errors, errors
    page.context.close()


MICE_JS = "s => [...document.querySelectorAll(s)].map(g => g.dataset.row + ':' + g.dataset.mouse)"


def selected_mice(page):
    return page.evaluate(MICE_JS, "#board .mouse.selected")


def down_after(page, ply):
    page.wait_for_function("p => Number(document.body.dataset.ply) > p", arg=ply, timeout=20000)
    return page.evaluate(MICE_JS, "#board .mouse[data-raised='0']")


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_last_mouse_lost_what_you_tap_is_what_goes_down(server, browser, size):
    """Issue 39 (judge: "what you tap is what goes down"): the mice ringed are exactly the ones the
    press takes down, and Press is one tap. Basic rules: a tap on a mouse selects it and the raised
    mice right of it (a press of n mice takes the n rightmost; before, the third mouse tapped alone
    sent "c1" and the sixth went down). Advanced rules: a second tap stretches a run side by side,
    a tap on its end takes that mouse out."""
    errors: list[str] = []
    seats = [{"kind": "human"}, {"kind": "human", "invite": True}]
    basic = create(server, "last-mouse-lost", {"first_to": 1, "first_player": 0}, seats)
    page = new_page(browser, size, errors)
    page.goto(fast(basic["seats"][0]["link"]))
    page.wait_for_function(MY_TURN, timeout=20000)
    page.locator("svg [data-row='2'][data-mouse='2']").click()
    assert selected_mice(page) == ["2:2", "2:3", "2:4", "2:5"]
    assert "3, 4, 5, 6" in page.locator("[data-testid=selection]").inner_text()
    assert page.locator("[data-testid=press]").get_attribute("data-action") == "c4"
    page.locator("svg [data-row='2'][data-mouse='2']").click()  # the leftmost again: out
    assert selected_mice(page) == ["2:3", "2:4", "2:5"]
    page.locator("[data-testid=press]").click()
    assert down_after(page, 0) == ["2:3", "2:4", "2:5"]

    options = {"first_to": 1, "first_player": 0, "rules": "advanced"}
    advanced = create(server, "last-mouse-lost", options, seats)
    page.goto(fast(advanced["seats"][0]["link"]))
    page.wait_for_function(MY_TURN + " && document.body.dataset.ply === '0'", timeout=20000)
    page.locator("svg [data-row='3'][data-mouse='1']").click()
    page.locator("svg [data-row='3'][data-mouse='4']").click()  # stretches the run: d2 to d5
    assert selected_mice(page) == ["3:1", "3:2", "3:3", "3:4"]
    page.locator("svg [data-row='3'][data-mouse='4']").click()  # its end: out
    assert selected_mice(page) == ["3:1", "3:2", "3:3"]
    assert "2, 3, 4" in page.locator("[data-testid=selection]").inner_text()
    page.locator("[data-testid=press]").click()
    assert down_after(page, 0) == ["3:1", "3:2", "3:3"]
    assert not errors, errors
    page.context.close()


def press_first_raised(page):
    """Last Mouse Lost: press one mouse, the last raised one (by clicks, as a player: a tap on a
    mouse takes the raised mice right of it too)."""
    page.locator("svg .mouse[data-raised='1']").last.click()
    page.locator("[data-testid=press]").click()


def test_hot_seat_says_why_undo_takes_back_and_ends_on_the_result(server, browser):
    """Issue 39 (frame): on one screen nobody chats or names a seat (everyone is here); Undo says
    why it is greyed out and, once a move is made, takes it back (everyone at the screen agrees:
    the server's takeback); after the end the header says the result, not whose turn it was.
    Failed before: the chat card and the name box showed, Undo was greyed out with no word, and
    the header said "Player 2's turn" after the end."""
    created = create(server, "last-mouse-lost", {"board": [1, 2], "first_to": 1}, [{"kind": "human"}] * 2)
    errors: list[str] = []
    page = new_page(browser, (1366, 768), errors)
    hold_seats(page, server, created, "last-mouse-lost")
    page.goto(fast(created["seats"][0]["link"]))
    assert wait_decision(page) == "turn"
    assert page.locator("#chat-card").is_hidden() and page.locator("#name-box input").count() == 0
    undo = page.locator("[data-testid=undo]")
    assert undo.is_disabled() and undo.get_attribute("title") == "There is no move to take back yet."
    seat = page.evaluate("document.body.dataset.seat")
    press_first_raised(page)
    page.wait_for_function(
        "s => document.body.dataset.ply === '1' && document.body.dataset.seat !== s"
        " && document.body.dataset.busy === '0'",
        arg=seat,
    )
    assert undo.is_enabled() and "everyone at this screen" in undo.get_attribute("title")
    undo.click()
    page.wait_for_function(
        "s => document.body.dataset.ply === '0' && document.body.dataset.seat === s"
        " && document.body.dataset.busy === '0'",
        arg=seat,
        timeout=20000,
    )
    while wait_decision(page) == "turn":
        ply = int(page.evaluate("document.body.dataset.ply"))
        press_first_raised(page)
        page.wait_for_function("p => Number(document.body.dataset.ply) > p", arg=ply, timeout=20000)
    title = page.locator("[data-testid=title-seat]").inner_text()
    assert "wins" in title and "turn" not in title, title
    assert not errors, errors
    page.context.close()


def test_the_computers_moves_are_shown_one_by_one_and_can_be_skipped(server, browser):
    """Issue 39 (frame): without #fast, a page opened after the computer moved shows that move
    played from the start (not a position from nowhere), with a Skip; the move's log line appears
    with it, lit. Failed before: no Skip, no replay of the opening (the page drew the position at
    once). No time is measured: what the page shows, and that Skip ends it."""
    created = create(
        server,
        "last-mouse-lost",
        {"board": [1, 2, 3, 4, 5], "first_to": 1},
        [{"kind": "agent", "agent": "easy"}, {"kind": "human"}],
    )
    errors: list[str] = []
    page = new_page(browser, (1366, 768), errors)
    page.goto(created["seats"][1]["link"])  # no #fast: as a player opens it
    skip = page.locator("[data-testid=skip-moves]")
    skip.wait_for(state="visible", timeout=20000)
    assert page.evaluate("document.body.dataset.replayingOpening") == "1"
    skip.click()
    page.wait_for_function(MY_TURN + " && document.body.dataset.replayingOpening === '0'", timeout=20000)
    assert skip.is_hidden()
    # The computer's opening is the log's first line, lit as the last move drawn.
    assert page.locator("#log li").count() == 1
    ply = int(page.evaluate("document.body.dataset.ply"))
    press_first_raised(page)
    page.wait_for_function(
        "p => Number(document.body.dataset.ply) >= p + 2 || document.body.dataset.terminal === '1'",
        arg=ply,
        timeout=20000,
    )
    page.wait_for_function("document.body.dataset.busy === '0'", timeout=20000)
    if page.evaluate("document.body.dataset.terminal") != "1":
        assert page.locator("#log li").last.evaluate("li => li.classList.contains('fresh')")
    assert not errors, errors
    page.context.close()


def test_skip_covers_nothing_of_the_page_on_a_phone(server, browser):
    """A player-judge of 2026-11-29: the floating Skip covered a phone's Play button and, on a
    desktop, the move list. It sits in the header now: its box overlaps no control of the action bar,
    nor the board, nor the move list."""
    created = create(
        server,
        "last-mouse-lost",
        {"board": [1, 2, 3, 4, 5], "first_to": 1},
        [{"kind": "agent", "agent": "easy"}, {"kind": "human"}],
    )
    errors: list[str] = []
    page = new_page(browser, (390, 844), errors)
    page.goto(created["seats"][1]["link"])  # no #fast: the opening is paced, with Skip
    skip = page.locator("[data-testid=skip-moves]")
    skip.wait_for(state="visible", timeout=20000)
    covered = page.evaluate(
        """() => {
        const s = document.querySelector("[data-testid=skip-moves]").getBoundingClientRect();
        const hit = (r) => r.width > 0 && r.height > 0
            && s.left < r.right && r.left < s.right && s.top < r.bottom && r.top < s.bottom;
        const parts = [...document.querySelectorAll(
            "#actionbar button, #actionbar a, #board, #log, .side button")];
        return parts.filter((e) => hit(e.getBoundingClientRect()))
            .map((e) => e.id || e.className || e.tagName);
    }"""
    )
    assert covered == []
    assert page.evaluate("document.querySelector('[data-testid=skip-moves]').closest('header') !== null")
    skip.click()
    page.wait_for_function(MY_TURN, timeout=20000)
    assert not errors, errors
    page.context.close()


# --- keyboard ---------------------------------------------------------------------------------
@pytest.mark.timeout(300)
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_whole_last_mouse_lost_game_by_keyboard_under_10_keys_a_move(server, browser, size):
    """Issue 27 items 1 and 4: one tab stop per board, arrows inside, Enter to act; the focus stays
    on the board after the opponent's move; the end dialog takes the focus."""
    created = create(server, "last-mouse-lost", {"first_to": 2}, VS_EASY)
    errors: list[str] = []
    page = new_page(browser, size, errors)
    page.goto(fast(created["seats"][0]["link"]))
    page.wait_for_selector("#board svg .mouse", timeout=20000)
    keys = 0

    def press(key):
        nonlocal keys
        keys += 1
        page.keyboard.press(key)

    on_board = "!!(document.activeElement && document.activeElement.closest('#board [data-kbd]'))"
    per_move: list[int] = []
    first = True
    while True:
        page.wait_for_function(
            "document.body.dataset.busy === '0' && (document.body.dataset.myTurn === '1' || "
            "document.body.dataset.terminal === '1')",
            timeout=30000,
        )
        if page.evaluate("document.body.dataset.terminal") == "1":
            break
        before = keys
        if first:  # the page puts the keyboard on the board when the player arrives to move
            assert page.evaluate(on_board), "the board does not have the focus on arrival"
            first = False
        else:
            assert page.evaluate(on_board), "the focus left the board after the opponent's move"
        ply = int(page.evaluate("document.body.dataset.ply"))
        press("ArrowRight")  # the arrows move between mice (at a row's end it stays)
        assert page.evaluate(on_board)
        press("Enter")  # select the mouse (basic rules: with the raised mice right of it)
        assert page.locator(".mouse.selected").count() >= 1
        press("Enter")  # Enter on a selected mouse presses
        page.wait_for_function("p => Number(document.body.dataset.ply) > p", arg=ply, timeout=20000)
        per_move.append(keys - before)
    print("keystrokes per move:", per_move)
    assert per_move and max(per_move) < 10, per_move
    # The board is one tab stop: one Tab from a mouse leaves the board.
    page.locator("[data-testid=end-screen]").wait_for(state="visible", timeout=10000)
    assert page.evaluate("!!document.activeElement.closest('#end-screen')"), "the end dialog has no focus"
    assert page.evaluate("document.activeElement.dataset.testid") == "rematch"
    assert not errors
    page.context.close()


def test_a_board_is_one_tab_stop(server, browser):
    created = create(server, "last-mouse-lost", {"first_to": 1}, VS_EASY)
    errors: list[str] = []
    page = new_page(browser, (1366, 768), errors)
    page.goto(fast(created["seats"][0]["link"]))
    page.wait_for_selector("#board svg .mouse[data-kbd]", timeout=20000)
    page.wait_for_function("document.body.dataset.myTurn === '1' && document.body.dataset.busy === '0'")
    assert page.locator("#board [data-kbd]").count() > 5
    page.evaluate("document.activeElement.blur()")  # from the top of the page (the board had it)
    stops_on_board = 0
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('#board [data-kbd]')"):
            stops_on_board += 1
        if page.evaluate("document.activeElement.id") == "hint":
            break
    assert stops_on_board == 1
    # Shift+Tab back onto the board lands where the player was.
    page.locator("#board [data-kbd]").nth(3).focus()
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("Tab")
    assert not page.evaluate("!!document.activeElement.closest('#board')")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == label
    assert not errors
    page.context.close()


# --- messages and layout ----------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_hints_message_goes_with_the_next_move(server, browser, size):
    created = create(server, "last-mouse-lost", {"first_to": 2}, VS_EASY, hints=True)
    errors: list[str] = []
    page = new_page(browser, size, errors)
    page.goto(fast(created["seats"][0]["link"]))
    page.wait_for_function(MY_TURN, timeout=20000)
    page.locator("[data-testid=hint]").click()
    page.locator("#toasts .toast", has_text="Hint").wait_for(timeout=20000)
    ply = int(page.evaluate("document.body.dataset.ply"))
    page.locator("[data-testid=press]").click()  # the hint selected its mice: press them
    page.wait_for_function("p => Number(document.body.dataset.ply) > p + 1", arg=ply, timeout=20000)
    page.wait_for_function("document.body.dataset.busy === '0'")
    assert page.locator("#toasts .toast", has_text="Hint").count() == 0
    assert not errors
    page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_booby_trap_board_keeps_its_box_between_touching_and_removing(server, browser, size):
    created = create(server, "booby-trap", GAMES["booby-trap"], VS_HEURISTIC, seed=4)
    errors: list[str] = []
    page = new_page(browser, size, errors)
    page.goto(fast(created["seats"][0]["link"]))
    page.wait_for_selector("circle.piece.touchable", timeout=20000)
    page.wait_for_function("document.body.dataset.myTurn === '1' && document.body.dataset.busy === '0'")
    box = (
        "(() => { const b = document.querySelector('#board .board-pan').getBoundingClientRect();"
        " return [b.left, b.top, b.width, b.height].map(Math.round); })()"
    )
    before = page.evaluate(box)
    page.locator("circle.piece.touchable").first.click()
    page.wait_for_selector("[data-controls=booby-trap] button[data-action=remove]", timeout=20000)
    page.wait_for_function("document.body.dataset.busy === '0'")
    after = page.evaluate(box)
    assert before == after, (before, after)
    assert not errors
    page.context.close()


# --- rules and settings -------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_rules_panel_and_settings_kept_in_the_browser(server, browser, size):
    """Issue 27 items 7 and 10: the rules at hand (how to play, the options in force and where they
    come from) one tap away; theme, animations, board size and sound kept in the browser."""
    options = {"first_to": 2, "rules": "advanced"}
    created = create(server, "last-mouse-lost", options, VS_EASY)
    errors: list[str] = []
    page = new_page(browser, size, errors)
    page.goto(fast(created["seats"][0]["link"]))
    page.wait_for_function(MY_TURN, timeout=20000)
    button = page.locator("[data-testid=rules-button]")
    assert not page.evaluate(OUTSIDE_JS, "[data-testid=rules-button]")  # one tap away, on a phone too
    button.click()
    rules = page.locator("[data-testid=rules-dialog]")
    rules.wait_for(state="visible")
    assert rules.locator("[data-how-to-play]").count() == 1
    words = rules.locator("[data-testid=rules-options]").inner_text()
    assert "Advanced" in words and "chosen for this game" in words, words
    assert "Rulebook:" in words  # where a rule comes from
    page.keyboard.press("Escape")
    rules.wait_for(state="hidden")
    # Settings: dark theme, no animations, a large board; kept after a reload and in the lobby.
    page.locator("[data-testid=settings-button]").click()
    page.locator("[data-setting=theme][value=dark]").check()
    page.locator("[data-setting=speed][value=off]").check()
    page.locator("[data-setting=boardSize][value=large]").check()
    page.locator("[data-setting=sound]").check()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    page.keyboard.press("Escape")
    page.reload()
    page.wait_for_function(MY_TURN, timeout=20000)
    root = page.evaluate("({...document.documentElement.dataset})")
    assert (root["theme"], root["speed"], root["boardSize"]) == ("dark", "off", "large"), root
    assert page.locator("[data-testid=alert-sound]").is_checked()
    page.goto(server.url + "/")
    page.wait_for_function("document.documentElement.dataset.theme === 'dark'")
    # "Follow the system": the browser's dark or light preference decides.
    page.evaluate("localStorage.setItem('trapworks.settings', JSON.stringify({theme: 'system'}))")
    page.emulate_media(color_scheme="light")
    page.reload()
    page.wait_for_function("document.documentElement.dataset.theme === 'light'")
    page.emulate_media(color_scheme="dark")
    page.wait_for_function("document.documentElement.dataset.theme === 'dark'")
    assert not errors
    page.context.close()


# --- screenshots and axe, light and dark -------------------------------------------------------
SHOTS = ARTIFACTS / "issue27"


def axe_all(page):
    """Every axe-core violation, of any impact."""
    page.add_script_tag(path=str(AXE))
    return axe_run(page)


def axe_run(page):
    """Every axe-core violation, of any impact (axe-core already added to the page)."""
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} :: {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
    ]


def one_decision(page, game, rng):
    """Play one decision of `game` by clicking (to look at a game in its middle)."""
    from .test_game_page import decide_mt as decide_mt_first

    ply = int(page.evaluate("document.body.dataset.ply"))
    if game == "last-mouse-lost":
        decide_lml(page)
    elif game == "booby-trap":
        decide_bt(page, rng)
    elif game == "mouse-trap":
        decide_mt_first(page, rng)
    elif decide_ded(page, set(), rng) == "pick-a-pawn":
        return  # a pawn picked: the turn's next decision is on screen
    page.wait_for_function("p => Number(document.body.dataset.ply) > p", arg=ply, timeout=20000)
    page.wait_for_function(
        "document.body.dataset.busy === '0' && (document.body.dataset.myTurn === '1' || "
        "document.body.dataset.terminal === '1')",
        timeout=30000,
    )


def show_theme(page, theme):
    """The system's colour scheme switched on the loaded page (the settings follow the system by
    default, js/settings.js listens), laid out, and the page's theme checked."""
    page.emulate_media(color_scheme=theme)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert page.evaluate("document.documentElement.dataset.theme") == theme


@pytest.mark.timeout(900)
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_screenshots_and_axe_of_every_game_light_and_dark_english_and_french(server, browser, size):
    """The lobby and every game page at the start of a game against the computer, in English and
    French, light and dark: a screenshot each (artifacts/web/issue27, copied to docs/screenshots);
    axe-core on each, on each game after a decision (mid-game) and on an end screen: no violation of
    any impact. Each page is loaded once and shown in both themes (the system's colour scheme
    switched on it), its mid-game in light, as before."""
    errors: list[str] = []
    found: dict[str, list[str]] = {}
    SHOTS.mkdir(parents=True, exist_ok=True)
    rng = random.Random(2)
    for lang in ("en", "fr"):
        ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=f"{lang}-FR")
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.emulate_media(color_scheme="light")
        page.goto(server.url + "/")
        page.wait_for_selector("body[data-ready='1']", timeout=20000)
        assert page.evaluate("document.documentElement.lang") == lang
        page.add_script_tag(path=str(AXE))
        for theme in ("light", "dark"):
            show_theme(page, theme)
            found[f"lobby {lang} {theme}"] = axe_run(page)
        for game, options in GAMES.items():
            created = create(server, game, options, VS_HEURISTIC, seed=3)
            page.emulate_media(color_scheme="light")
            page.goto(fast(created["seats"][0]["link"]))
            page.wait_for_selector("#board svg", timeout=20000)
            page.wait_for_function(MY_TURN, timeout=30000)
            page.add_script_tag(path=str(AXE))
            for theme in ("dark", "light"):
                show_theme(page, theme)
                page.screenshot(path=str(SHOTS / f"{game}-{size[0]}-{theme}-{lang}.png"))
                found[f"{game} {lang} {theme} start"] = axe_run(page)
            one_decision(page, game, rng)
            found[f"{game} {lang} light mid-game"] = axe_all(page)
        # An end screen: a short game of Last Mouse Lost played out.
        short = {"first_to": 1, "board": [1, 2]}
        created = create(server, "last-mouse-lost", short, VS_HEURISTIC, seed=1)
        page.goto(fast(created["seats"][0]["link"]))
        page.wait_for_function(MY_TURN + " || document.body.dataset.terminal === '1'", timeout=30000)
        while page.evaluate("document.body.dataset.terminal") != "1":
            one_decision(page, "last-mouse-lost", rng)
        page.locator("[data-testid=end-screen]").wait_for(state="visible", timeout=10000)
        page.screenshot(path=str(SHOTS / f"end-{size[0]}-light-{lang}.png"))
        found[f"end screen {lang} light"] = axe_all(page)
        ctx.close()
    assert len(found) == 2 * (2 + 3 * len(GAMES) + 1)
    (SHOTS / f"axe-{size[0]}.json").write_text(json.dumps(found, indent=1))
    assert not errors, errors
    assert not any(found.values()), {k: v for k, v in found.items() if v}


def test_on_a_phone_the_rest_is_one_tap_away(server, browser):
    """Issue 27 item 8: the players, Resign, Hint, Undo, chat and the moves are one tap away."""
    created = create(server, "mouse-trap", GAMES["mouse-trap"], VS_HEURISTIC, seed=3, hints=True)
    errors: list[str] = []
    page = new_page(browser, (390, 844), errors)
    page.goto(fast(created["seats"][0]["link"]))
    page.wait_for_function(MY_TURN, timeout=20000)
    assert not page.evaluate(OUTSIDE_JS, "[data-testid=more]")
    assert page.evaluate(OUTSIDE_JS, "[data-testid=hint]")  # below the board before the tap
    page.locator("[data-testid=more]").click()
    # The jump to the side panel has happened (a fixed 300 ms was a guess): Hint is in view.
    page.wait_for_function(
        "(() => { const b = document.querySelector('[data-testid=hint]').getBoundingClientRect();"
        " return b.top >= 0 && b.bottom <= window.innerHeight; })()",
        timeout=10000,
    )
    box = page.locator("[data-testid=hint]").bounding_box()
    assert box and 0 <= box["y"] and box["y"] + box["height"] <= 844, box
    assert page.locator("[data-testid=resign]").is_visible()
    assert not errors
    page.context.close()


def test_an_embedded_replay_in_a_small_frame_shows_its_controls(server, browser):
    """Issue 27 item 8: an embedded replay in a 640x420 frame hid its controls."""
    created = create(server, "last-mouse-lost", {"first_to": 1, "board": [1, 2]}, VS_EASY, seed=1)
    httpx.post(
        f"{server.url}/api/games/{created['id']}/resign",
        json={"token": created["seats"][0]["token"]},
        timeout=30,
    )
    errors: list[str] = []
    page = new_page(browser, (1366, 768), errors)
    page.goto(server.url + "/static/app.css")  # a page of the same server hosts the frame
    src = f"{server.url}/replay/{created['id']}?embed=1"
    page.set_content(f'<iframe src="{src}" width="640" height="420"></iframe>')
    page.wait_for_function("window.frames.length === 1", timeout=10000)
    inner = page.frames[1]
    inner.wait_for_function("document.body.dataset.ready === '1'", timeout=20000)
    frame = page.locator("iframe").bounding_box()
    assert frame
    for sel in ("#first", "#prev", "#next", "#last", "#play", "#slider", "[data-testid=where]"):
        box = inner.locator(sel).bounding_box()
        assert box, sel
        top, left = box["y"] - frame["y"], box["x"] - frame["x"]
        assert top >= 0 and top + box["height"] <= 420 and left + box["width"] <= 640, (sel, box, frame)
    board = inner.locator("#board svg").bounding_box()
    assert board and board["height"] > 120, board  # the board still has room
    inner.click("#last")
    assert "resigned" in inner.inner_text("[data-testid=where]")
    assert not errors
    page.context.close()


# --- the frame as the judge of issue 39 found it (boardsA, round 3) ------------------------------
# The share of one box that another covers (0: apart).
OVERLAP = """([a, b]) => {
  const r = document.querySelector(a).getBoundingClientRect();
  const s = document.querySelector(b).getBoundingClientRect();
  const w = Math.max(0, Math.min(r.right, s.right) - Math.max(r.left, s.left));
  const h = Math.max(0, Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top));
  return (w * h) / Math.max(1, r.width * r.height);
}"""
PAN_BOX = (
    "(() => { const b = document.querySelector('#board .board-pan').getBoundingClientRect();"
    " return [b.left, b.top, b.width, b.height].map(Math.round); })()"
)


@pytest.mark.parametrize("size", [(1440, 900), (390, 844), (844, 390)], ids=["desktop", "phone", "landscape"])
def test_the_result_is_beside_the_board_and_in_the_move_list(server, browser, size):
    """Issue 39 (the judge, every game): the end-of-game card covered the board and the move list.
    Now it is a panel beside the board (under it on a phone, in the controls' column in landscape),
    the result is the move list's last line, and the Players card is not an empty box. Failed
    before (the card was fixed over the middle of the page)."""
    created = create(server, "last-mouse-lost", {"first_to": 1, "board": [1, 2]}, VS_EASY)
    gid, token = created["id"], created["seats"][0]["token"]
    for _ in range(40):  # press a whole row each turn: a few moves end the round
        st = httpx.get(f"{server.url}/api/games/{gid}", params={"token": token}, timeout=30).json()["state"]
        if st["terminal"]:
            break
        legal = st["view"]["legal_actions"] if st["to_move"] == 0 else []
        if legal:
            httpx.post(
                f"{server.url}/api/games/{gid}/moves",
                json={"token": token, "action": legal[-1]["text"], "ply": st["ply"]},
                timeout=30,
            )
        else:
            time.sleep(0.1)
    errors: list[str] = []
    page = new_page(browser, size, errors)
    page.goto(fast(created["seats"][0]["link"]))
    page.wait_for_selector("[data-testid=end-screen]:not([hidden])", timeout=20000)
    page.wait_for_timeout(200)
    assert page.evaluate(OVERLAP, ["#board svg", "[data-testid=end-screen]"]) == 0
    assert not page.evaluate(OUTSIDE_JS, "[data-testid=end-screen] .actions > *"), (
        "the ways on are on the screen"
    )
    result = page.locator("#log-result")
    assert result.is_visible() and result.inner_text().startswith("Game over"), result.inner_text()
    if size[0] > 900:  # the move list beside the board, whole and uncovered
        assert page.evaluate(OVERLAP, ["#log", "[data-testid=end-screen]"]) == 0
        assert not page.evaluate(OUTSIDE_JS, "#log-result")
    assert not page.locator(".players-card").is_visible(), "no empty Players card"
    page.screenshot(path=str(ARTIFACTS / f"frame-end-{size[0]}x{size[1]}.png"))
    page.context.close()
    assert not errors, errors


def test_hint_is_offered_at_once_and_said_as_a_player_would(server, browser):
    """Issue 39 (the judge): Hint was greyed out for about half a second at the start of each turn
    (while the computer's press was shown); Last Mouse Lost's hint was a lecture on binary nim-sums
    and its message made the board shrink. Now the button is never disabled during the game (a
    click before the turn waits for it), the hint is one sentence with the reasoning behind "Why?",
    and the board keeps its box. Failed before (disabled between turns; the lecture in the message)."""
    created = create(server, "last-mouse-lost", {"first_to": 2}, VS_EASY)
    errors: list[str] = []
    page = new_page(browser, (1366, 768), errors)
    page.goto(created["seats"][0]["link"])  # not fast: the computer's press is shown for a while
    page.wait_for_function(MY_TURN, timeout=20000)
    for _ in range(2):
        ply = int(page.evaluate("document.body.dataset.ply"))
        page.locator("svg .mouse[data-raised='1']").first.click()
        page.locator("[data-testid=press]").click()
        greyed = page.evaluate(
            """async (ply) => { let greyed = 0; const t0 = performance.now();
              while (performance.now() - t0 < 8000) {
                if (document.getElementById('hint').disabled) greyed++;
                if (Number(document.body.dataset.ply) > ply + 1 && document.body.dataset.busy === '0') break;
                await new Promise((r) => setTimeout(r, 20)); }
              return greyed; }""",
            ply,
        )
        assert greyed == 0, "Hint was greyed out between turns"
        page.wait_for_function(MY_TURN, timeout=20000)
    before = page.evaluate(PAN_BOX)
    page.locator("[data-testid=hint]").click()
    toast = page.locator("#toasts .toast", has_text="Hint")
    toast.wait_for(timeout=20000)
    text = toast.locator(".text").inner_text()
    assert "nim" not in text.lower() and "XOR" not in text, text
    assert page.evaluate(PAN_BOX) == before, "the board moved when the hint came"
    toast.locator("[data-testid=toast-why]").click()
    assert "nim" in toast.locator("[data-testid=toast-details]").inner_text().lower()
    page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("size", [(1440, 900), (390, 844)], ids=["desktop", "phone"])
def test_booby_trap_shows_the_turns_two_steps(server, browser, size):
    """Issue 39 (the judge): nothing told a new player that a turn is touch a piece, then take it
    or pass; the Players card repeated the strips. Now the bar shows the two steps, the one to do
    now lit, and at step 2 the other pieces step back; each seat's points are in its strip. Failed
    before (no steps, points only in the dense lines over the tray)."""
    created = create(server, "booby-trap", GAMES["booby-trap"], VS_EASY, seed=4)
    errors: list[str] = []
    page = new_page(browser, size, errors)
    page.goto(fast(created["seats"][0]["link"]))
    page.wait_for_selector("circle.piece.touchable", timeout=20000)
    page.wait_for_function(MY_TURN)
    lit = "document.querySelector('[data-testid=bt-steps] li.on')?.dataset.step"
    assert page.evaluate(lit) == "1"
    assert page.locator("[data-testid=strip-score-0]").inner_text().endswith("pts")
    assert not page.locator("#players").is_visible()
    page.locator("circle.piece.touchable").first.dispatch_event("click")
    page.wait_for_selector("[data-controls=booby-trap] button[data-action]", timeout=20000)
    assert page.evaluate(lit) == "2"
    other = "g[data-piece-group]:not(:has(> [data-touched])) > circle"
    dimmed = page.evaluate(f"getComputedStyle(document.querySelector('{other}')).opacity")
    assert float(dimmed) < 1
    assert not page.evaluate(OUTSIDE_JS, "[data-controls=booby-trap] button[data-action]")
    # The feel names the piece as a player would (its size, ringed on the tray), not "piece 9".
    assert re.match(r"You feel the (small|medium|large) piece", page.locator("[data-feel]").inner_text())
    # Each strip's detail (what the seat kept) is whole, on its own line, clear of the points
    # (issue 39: "1 large, 1 small …" cut; in French it ran into the points). Failed before.
    for seat in (0, 1):
        detail = page.locator(f"[data-testid=strip-detail-{seat}]")
        assert detail.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), detail.inner_text()
        d, score = detail.bounding_box(), page.locator(f"[data-testid=strip-score-{seat}]").bounding_box()
        assert d["y"] >= score["y"] + score["height"] - 1 or d["x"] + d["width"] <= score["x"], (d, score)
    page.context.close()
    assert not errors, errors


# The board's drawing (its viewBox scaled into the <svg>'s box), not cut: where it is on screen.
BOARD_RECT = """() => {
  const svg = document.querySelector('#board .board-pan svg');
  const sr = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
  const k = Math.min(sr.width / vb.width, sr.height / vb.height);
  const w = vb.width * k, h = vb.height * k;
  const left = sr.left + (sr.width - w) / 2, top = sr.top + (sr.height - h) / 2;
  return {left, top, right: left + w, bottom: top + h, vw: innerWidth, vh: innerHeight};
}"""
JUDGE_SIZES = {"desktop": (1366, 800), "tablet": (1024, 768), "portrait": (390, 844), "landscape": (844, 390)}


@pytest.mark.parametrize("size", list(JUDGE_SIZES.values()), ids=list(JUDGE_SIZES))
@pytest.mark.parametrize("game", ["last-mouse-lost", "booby-trap"])
def test_board_first_at_the_judges_four_sizes(server, browser, game, size):
    """Issue 39, judge: the whole board in view at every size (at 844x390 Last Mouse Lost's ran 13 px
    under the screen's edge: the header was 48 px over a 35 px reckoning), the header one line (at
    1024 px its links took two), nothing sideways; on a wide screen the board takes the left
    column's whole height and the turn's decision sits beside it (at 1366x800 Booby Trap's tray
    was 640 px wide, 47% of the screen, with the decision under it)."""
    from .test_front_door_browser import CONTROLS_OUTSIDE, SIDEWAYS

    errors: list[str] = []
    page = new_page(browser, size, errors)
    page.goto(fast(create(server, game, {}, VS_EASY, seed=5)["seats"][0]["link"]))
    page.wait_for_function(MY_TURN, timeout=30000)
    board = page.evaluate(BOARD_RECT)
    assert board["top"] >= 0 and board["bottom"] <= board["vh"] + 0.5, board
    assert board["left"] >= 0 and board["right"] <= board["vw"] + 0.5, board
    assert page.evaluate("document.querySelector('header.top').getBoundingClientRect().height") <= 56
    assert page.evaluate(CONTROLS_OUTSIDE) == []
    assert page.evaluate(SIDEWAYS) <= 0
    if size[0] > 900:
        bar = page.evaluate("document.querySelector('#actionbar').getBoundingClientRect().left")
        assert bar >= board["right"], (bar, board)  # beside the board, not under it
    if size == (1366, 800):
        assert board["right"] - board["left"] >= 0.5 * size[0], board
    if game == "booby-trap" and min(size) < 500:  # a phone: every piece a finger's size
        pieces = "[...document.querySelectorAll('#board circle.piece')]"
        smallest = page.evaluate(f"Math.min(...{pieces}.map(c => c.getBoundingClientRect().width))")
        assert smallest >= 28, smallest
    assert not errors, errors
    page.context.close()
