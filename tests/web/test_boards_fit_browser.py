"""Mouse Trap and 13 Dead End Drive on a phone and a desktop (issue 27, Deliver 3 and item 9), in
headless Chromium at 390x844 and 1366x768.

- Phone first: the WHOLE board is inside the viewport without panning (it is scaled to its box),
  and every control of the turn is inside the viewport with it, Mouse Trap's too (it started
  zoomed in on a phone held upright; the independent judge of 2026-11-29 wanted the whole board):
  reading it is one tap away ("Zoom in").
- A phone on its side (844x390): every control of a Mouse Trap build whole ("Do not build: end
  the turn" was cut), 13 Dead End Drive's legend one tap away and its hand whole, Booby Trap's end
  card whole (the winner's name, the result, every link): inside the viewport, none over another.
- Touch targets: an earlier test asked for squares of 32 px on a phone, which made the boards pan
  (half of Mouse Trap's board off screen). The requirement now is what a finger needs: every
  control of a turn a finger must hit is at least 24 px (WCAG 2.2's target size): the action bar's
  buttons, 13 Dead End Drive's pawns offered as buttons in the action bar, and the squares a pawn
  may end on, which a magnified view of the part of the mansion that matters shows at 24 px and
  more ("Whole board" goes back). Reading the small board is one tap away ("Zoom in").
- 13 Dead End Drive on a desktop: squares of at least 24 px (they were 22 px), and a die's move in
  two clicks (pawn, then square: each square shows the die that gets there), or by keyboard.
"""

from __future__ import annotations

import os

import httpx
import pytest

from .test_game_page import DECISION, OUTSIDE_JS
from .web_helpers import CHROMIUM, ServerProcess, seat_view

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
]
sync_api = pytest.importorskip("playwright.sync_api")

PHONE, DESKTOP = (390, 844), (1366, 768)
MY_TURN = "document.body.dataset.myTurn === '1' && document.body.dataset.busy === '0'"
DD = "svg[data-board='dead-end-drive']"
MT = "svg[data-board='mouse-trap']"

# The box of every square/space of a board, on screen, and whether the board's box pans.
BOARD_BOX = """(sel) => {
  const nodes = [...document.querySelectorAll(sel)];
  const boxes = nodes.map((n) => n.getBoundingClientRect());
  const pan = document.querySelector('#board .board-pan');
  return {
    n: nodes.length,
    left: Math.min(...boxes.map((b) => b.left)), top: Math.min(...boxes.map((b) => b.top)),
    right: Math.max(...boxes.map((b) => b.right)), bottom: Math.max(...boxes.map((b) => b.bottom)),
    smallest: Math.min(...boxes.map((b) => Math.min(b.width, b.height))),
    pans: pan.scrollWidth > pan.clientWidth + 1 || pan.scrollHeight > pan.clientHeight + 1,
    vw: window.innerWidth, vh: window.innerHeight,
  };
}"""
# Whether the element is inside the board's box as it is scrolled now (nothing panned to it).
IN_PAN = """(sel) => {
  const b = document.querySelector(sel).getBoundingClientRect();
  const p = document.querySelector('#board .board-pan').getBoundingClientRect();
  return b.width > 0 && b.left >= p.left && b.right <= p.right && b.top >= p.top && b.bottom <= p.bottom;
}"""
SQUARES = {"mouse-trap": "[data-space] > rect", "dead-end-drive": f"{DD} rect[data-square]"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("boards-fit-home")).start()
    yield s
    s.stop()


def create(server, game, options, seed=3):
    seats = [{"kind": "human"}] + [{"kind": "agent", "agent": "heuristic"}] * (options.get("players", 2) - 1)
    r = httpx.post(
        server.url + "/api/games",
        json={"game": game, "options": options, "seats": seats, "seed": seed},
        timeout=30,
    )
    assert r.status_code == 201, r.text
    return r.json()


def open_game(browser, created, size):
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(created["seats"][0]["link"] + "&fast")
    page.wait_for_selector("#board svg[data-board]", timeout=20000)
    page.wait_for_function(MY_TURN, timeout=30000)
    return page, errors


def whole_board_in_view(page, game):
    box = page.evaluate(BOARD_BOX, SQUARES[game])
    assert box["n"] > 40, box
    assert not box["pans"], f"{game}: the board pans: {box}"
    assert box["left"] >= 0 and box["top"] >= 0, box
    assert box["right"] <= box["vw"] + 0.5 and box["bottom"] <= box["vh"] + 0.5, box
    return box


def to_dd_select(page):
    """Play the turn's opening decisions (keep the portrait) until a pawn is to be picked."""
    for _ in range(6):
        if page.locator(f"{DD} g.pawn[data-movable]").count():
            return
        buttons = page.locator("[data-testid=controls] button[data-action]")
        texts = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
        choice = next(t for t in texts if t.startswith(("keep", "draw", "change")))
        ply = int(page.evaluate("document.body.dataset.ply"))
        page.locator(f"[data-testid=controls] button[data-action='{choice}']").click()
        page.wait_for_function("p => Number(document.body.dataset.ply) > p", arg=ply, timeout=20000)
        page.wait_for_function(MY_TURN, timeout=30000)
    raise AssertionError("no pawn to pick")


# The room the board's box has over the whole board drawn in it, and the gap from the box to the bar.
BAND = """() => {
  const pan = document.querySelector('#board .board-pan');
  const [, , w, h] = pan.querySelector('svg').getAttribute('viewBox').split(' ').map(Number);
  const drawn = Math.min(pan.clientHeight, (pan.clientWidth * h) / w);
  const bar = document.querySelector('.actionbar').getBoundingClientRect().top;
  return { band: pan.clientHeight - drawn, barGap: bar - pan.getBoundingClientRect().bottom };
}"""


def targets_at_least(page, selector, px=24):
    small = page.evaluate(
        """([sel, px]) => [...document.querySelectorAll(sel)].filter((n) => n.getClientRects().length)
             .map((n) => n.getBoundingClientRect()).filter((b) => b.width < px || b.height < px)
             .map((b) => [Math.round(b.width), Math.round(b.height)])""",
        [selector, px],
    )
    assert not small, f"{selector}: targets under {px} px: {small}"


@pytest.mark.parametrize("game", ["mouse-trap", "dead-end-drive"])
def test_on_a_phone_the_whole_board_and_every_control_of_the_turn_are_in_view(server, browser, game):
    options = {"players": 2}
    page, errors = open_game(browser, create(server, game, options), PHONE)
    zoom = page.locator("[data-testid=zoom]")
    if game == "mouse-trap":
        # the player-judge of 2026-11-29: a phone held upright draws the board turned a quarter, as
        # wide as the screen (the whole board flat was 390x215, its words 6 px); the whole turned
        # board is one tap ("Whole board")
        assert zoom.get_attribute("aria-pressed") == "true"
        assert zoom.is_visible()
        zoom.click()
    else:
        # issue 39 judge: so does 13 Dead End Drive (a zoomed start hid most of the mansion);
        # choosing where a pawn ends magnifies its squares (below)
        assert zoom.get_attribute("aria-pressed") != "true"
    whole_board_in_view(page, game)
    assert not page.evaluate(OUTSIDE_JS, DECISION), page.evaluate(OUTSIDE_JS, DECISION)
    targets_at_least(page, "#bar button:not([disabled])")
    if game == "mouse-trap":
        # reading it is one tap away: "Zoom in" draws it large (it pans), "Whole board" goes back
        page.locator("[data-testid=zoom]").click()
        assert page.evaluate(BOARD_BOX, SQUARES[game])["smallest"] >= 36
        page.locator("[data-testid=zoom]").click()
        whole_board_in_view(page, game)
        # a tap on the whole board zooms in where it landed, as on a map (here the Loop)
        page.locator(f"{MT} [data-space='46'] > rect").click()
        assert zoom.get_attribute("aria-pressed") == "true"
        assert page.evaluate(BOARD_BOX, SQUARES[game])["smallest"] >= 32
        assert page.evaluate(IN_PAN, f"{MT} [data-space='46'] > rect"), "the tapped space is out of view"
        zoom.click()
        whole_board_in_view(page, game)
    else:
        to_dd_select(page)
        whole_board_in_view(page, game)
        # the pawns that may move are buttons a finger can hit, in the action bar, in view
        chips = page.locator("[data-pawn-chip]")
        movable = page.locator(f"{DD} g.pawn[data-movable]").count()
        assert chips.count() == movable > 0
        targets_at_least(page, "[data-pawn-chip]")
        assert not page.evaluate(OUTSIDE_JS, "[data-pawn-chip]")
        chips.first.click()
        # where it may end: magnified to a finger's size, every square in view
        page.wait_for_selector(f"{DD} [data-to]")
        assert page.locator(DD).get_attribute("data-zoomed") == "1"
        targets_at_least(page, f"{DD} [data-to] rect")
        assert not page.evaluate(OUTSIDE_JS, f"{DD} [data-to] rect")
        assert not page.evaluate(OUTSIDE_JS, DECISION)  # nothing offered out of the magnified view
        both = page.locator(f"{DD} [data-to][data-count*='/']")
        if both.count():  # a square two dice reach: one target; its dice as buttons in the bar
            both.first.click()
            counts = page.locator("[data-testid=controls] button[data-count]")
            assert counts.count() == 2
            targets_at_least(page, "[data-testid=controls] button[data-count]")
        page.locator("[data-testid=zoom]").click()  # "Whole board"
        assert page.locator(DD).get_attribute("data-zoomed") == "0"
        whole_board_in_view(page, game)
    # A tablet held upright (issue 39, judge 6): the board's box is the board's height, no empty
    # bands over and under it (they were 200 px each), the bar right under it.
    page.set_viewport_size({"width": 820, "height": 1180})
    page.wait_for_timeout(300)
    band = page.evaluate(BAND)
    assert band["band"] < 24 and band["barGap"] < 80, band  # (the strip of the player to move between)
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_dead_end_drive_a_die_moves_in_two_clicks(server, browser, size):
    created = create(server, "dead-end-drive", {"players": 2}, seed=5)
    page, errors = open_game(browser, created, size)
    to_dd_select(page)
    if size == DESKTOP:
        # the mansion takes the room the screen has: squares of 24 px and more (they were 22)
        box = page.evaluate(BOARD_BOX, SQUARES["dead-end-drive"])
        assert box["smallest"] >= 24, box
        assert not page.evaluate(OUTSIDE_JS, DECISION)
    ply = int(page.evaluate("document.body.dataset.ply"))
    pawn = page.locator(f"{DD} g.pawn[data-movable]").first.get_attribute("data-pawn")
    clicks = 0
    if size == PHONE:
        page.locator(f"[data-pawn-chip='{pawn}']").click()
    else:
        page.locator(f"{DD} g.pawn[data-pawn='{pawn}']").click()
    clicks += 1
    # a square one die reaches (on a phone a square two dice reach asks which die in the bar)
    square = page.locator(f"{DD} [data-to]:not([data-count*='/'])").first
    square.wait_for()
    target, count = square.get_attribute("data-to"), square.get_attribute("data-count")
    assert square.locator("text").text_content() == count  # the die that gets it there
    square.click()
    clicks += 1
    page.wait_for_function("p => Number(document.body.dataset.ply) >= p + 2", arg=ply, timeout=20000)
    view = seat_view(server.url, created["id"], created["seats"][0]["token"])
    moved = next(p for p in view["pawns"] if p["letter"] == pawn)
    assert moved["square"] == target and clicks == 2, (moved, target)
    assert not errors, errors
    page.context.close()


def test_dead_end_drive_a_die_moves_by_keyboard(server, browser):
    """Arrows to a pawn, Enter: the keyboard goes to the nearest square it may end on; Enter."""
    created = create(server, "dead-end-drive", {"players": 2}, seed=5)
    page, errors = open_game(browser, created, DESKTOP)
    to_dd_select(page)
    page.locator(f"{DD} g.pawn[data-movable]").first.focus()
    pawn = page.evaluate("document.activeElement.getAttribute('data-pawn')")
    ply = int(page.evaluate("document.body.dataset.ply"))
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.getAttribute('data-to')"), "the keyboard is not on a square"
    target = page.evaluate("document.activeElement.getAttribute('data-to')")
    page.keyboard.press("Enter")
    page.wait_for_function("p => Number(document.body.dataset.ply) >= p + 2", arg=ply, timeout=20000)
    view = seat_view(server.url, created["id"], created["seats"][0]["token"])
    assert next(p for p in view["pawns"] if p["letter"] == pawn)["square"] == target
    assert not errors, errors
    page.context.close()


def test_dead_end_drive_a_hint_picks_its_pawn_and_is_one_tap(server, browser):
    """Issue 39 judge: after a hint the player still had to find the pawn and click its square.
    Now the hint picks its pawn, marks where it goes, and the bar plays it in one tap."""
    created = create(server, "dead-end-drive", {"players": 2}, seed=5)
    page, errors = open_game(browser, created, PHONE)
    to_dd_select(page)
    ply = int(page.evaluate("document.body.dataset.ply"))
    with page.expect_response(lambda r: "/hint" in r.url) as answer:
        page.locator("#hint").click()
    move = answer.value.json()["move"]
    view = seat_view(server.url, created["id"], created["seats"][0]["token"])
    entry = next(a for a in view["legal_actions"] if a["text"] == move)
    picked = page.locator(f"{DD} g.pawn.picked")
    picked.wait_for()
    assert picked.count() == 1 and picked.get_attribute("data-pawn") == entry["pawn"]
    assert page.locator(f"{DD} [data-to].hinted").count() >= 1  # where it may end, marked
    one_tap = page.locator("[data-testid=play-hint]")
    if one_tap.count():  # the hinted die ends on one square: the whole move is one button
        assert not page.evaluate(OUTSIDE_JS, "[data-testid=play-hint]")
        one_tap.click()
        page.wait_for_function("p => Number(document.body.dataset.ply) >= p + 2", arg=ply, timeout=20000)
    else:  # a choice of squares: the hinted count is the lit one, its squares on the board
        page.locator(f"{DD} [data-to].hinted").first.click()
        page.wait_for_function("p => Number(document.body.dataset.ply) >= p + 2", arg=ply, timeout=20000)
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("game", ["mouse-trap", "dead-end-drive"])
def test_phone_on_its_side_the_whole_board_is_above_the_screens_bottom(server, browser, game):
    """Issue 39 judge: at 844x390 the board takes the height, whole: the phone header's 3rem floor
    (over the 2.2rem the board's box is computed with) pushed each board 13 px under the bottom
    edge (Mouse Trap's bottom row, 13 Dead End Drive's Detective and last legend line cut off)."""
    page, errors = open_game(browser, create(server, game, {"players": 2}), (844, 390))
    box = whole_board_in_view(page, game)
    assert box["bottom"] - box["top"] >= 0.8 * box["vh"], box  # the board takes the height
    assert not page.evaluate(OUTSIDE_JS, DECISION), page.evaluate(OUTSIDE_JS, DECISION)
    assert not errors, errors
    page.context.close()


def test_dead_end_drive_at_1024x768_has_the_info_over_the_mansion(server, browser):
    """At 1024x768 the portrait, Detective and pile went in a column beside the mansion: it was left
    465 px wide, squares of 17 px over a 160 px band. They are one line over it now."""
    page, errors = open_game(browser, create(server, "dead-end-drive", {"players": 2}), (1024, 768))
    box = whole_board_in_view(page, "dead-end-drive")
    info = page.locator("#board > .ded-info").bounding_box()
    pan = page.locator("#board > .board-pan").bounding_box()
    assert info["y"] + info["height"] <= pan["y"] + 1, (info, pan)  # over it, not beside it
    assert box["smallest"] >= 20, box
    assert not errors, errors
    page.context.close()


# The blocks of the column beside the board on a phone on its side (the strips, the board's own
# lines, the action bar, the end card): pairs of them that overlap by more than a pixel.
OVERLAPS = """() => {
  const nodes = [...document.querySelectorAll(
    '.strip, #board > :not(.board-pan), .actionbar, #end-screen:not([hidden])')]
    .filter((n) => n.getClientRects().length && getComputedStyle(n).display !== 'contents');
  const out = [];
  nodes.forEach((a, i) => nodes.slice(i + 1).forEach((b) => {
    if (a.contains(b) || b.contains(a)) return;
    const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
    const x = Math.min(p.right, q.right) - Math.max(p.left, q.left);
    const y = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (x > 1 && y > 1) out.push(`${a.className || a.id} / ${b.className || b.id}`);
  }));
  return out;
}"""
SIDE = (844, 390)


def api_state(server, created):
    r = httpx.get(
        f"{server.url}/api/games/{created['id']}", params={"token": created["seats"][0]["token"]}, timeout=30
    )
    return r.json()["state"]


def play_until(server, created, stop, rng, limit=200):
    """The human seat plays random legal moves through the API (the computer answers) until
    `stop(state)` or the end; the state reached."""
    import time

    deadline = time.monotonic() + 120
    for _ in range(limit):
        st = api_state(server, created)
        if stop(st) or st["terminal"]:
            return st
        legal = [a["text"] for a in (st.get("view") or {}).get("legal_actions") or []]
        if st["to_move"] == 0 and legal:
            httpx.post(
                f"{server.url}/api/games/{created['id']}/moves",
                json={"token": created["seats"][0]["token"], "action": rng.choice(legal), "ply": st["ply"]},
                timeout=30,
            )
        else:
            assert time.monotonic() < deadline, "the computer did not answer"
            time.sleep(0.1)
    raise AssertionError("not reached")


def texts(st):
    return [a["text"] for a in (st.get("view") or {}).get("legal_actions") or []]


def whole_and_apart(page, selector):
    outside = page.evaluate(OUTSIDE_JS, selector)
    assert not outside, outside
    overlaps = page.evaluate(OVERLAPS)
    assert not overlaps, overlaps


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_phone_on_its_side_every_control_of_a_mouse_trap_build_is_whole(server, browser, locale):
    """The judge at 844x390: "Do not build: end the turn" was cut at the screen's bottom."""
    import random

    rng = random.Random(5)
    for seed in range(7, 20):
        created = create(server, "mouse-trap", {"players": 2}, seed=seed)
        st = play_until(
            server, created, lambda st: st["to_move"] == 0 and {"build", "end"} <= set(texts(st)), rng
        )
        if not st["terminal"]:
            break
    ctx = browser.new_context(viewport={"width": SIDE[0], "height": SIDE[1]}, locale=locale)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(created["seats"][0]["link"])
    page.wait_for_selector("#bar [data-action='end']", timeout=20000)
    page.wait_for_function(MY_TURN, timeout=30000)
    # both buttons, the auto-roll switch and "Zoom in": whole, inside the screen, none covered
    whole_and_apart(page, "#bar button, #bar label.mt-auto, [data-testid=zoom]")
    targets_at_least(page, "#bar button:not([disabled])")
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_phone_on_its_side_dead_end_drive_has_its_legend_one_tap_away_and_its_hand_whole(
    server, browser, locale
):
    """The judge at 844x390: the legend beside the mansion took its room; the hand's cards were cut
    at the screen's bottom."""
    created = create(server, "dead-end-drive", {"players": 2})
    ctx = browser.new_context(viewport={"width": SIDE[0], "height": SIDE[1]}, locale=locale)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(created["seats"][0]["link"] + "&fast")
    page.wait_for_selector(f"{DD}", timeout=20000)
    page.wait_for_function(MY_TURN, timeout=30000)
    to_dd_select(page)
    # collapsed: not drawn beside the mansion, a closed toggle
    assert page.locator(f"{DD} [data-testid=legend] > *").count() == 0
    legend = page.locator("[data-testid=legend-details]")
    assert legend.is_visible() and legend.get_attribute("open") is None
    whole_board_in_view(page, "dead-end-drive")
    # the hand, each of its cards and every control of the turn whole, none over another
    whole_and_apart(
        page,
        f"[data-testid=hand], [data-testid=hand] .ded-card, {DECISION}, "
        "[data-testid=legend-details] > summary",
    )
    # one tap opens it
    legend.locator("summary").click()
    assert legend.get_attribute("open") is not None
    assert page.locator("[data-testid=legend-details] svg").bounding_box()["height"] > 50
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_phone_on_its_side_booby_trap_end_card_is_whole(server, browser, locale):
    """The judge at 844x390: the end card's text ("Playe...") and its Embed link were cut."""
    import random

    created = create(server, "booby-trap", {"pieces_per_size": 3})
    play_until(server, created, lambda st: False, random.Random(1))
    ctx = browser.new_context(viewport={"width": SIDE[0], "height": SIDE[1]}, locale=locale)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(created["seats"][0]["link"])
    page.wait_for_selector(
        "[data-testid=end-screen]:not([hidden]) [data-testid=end-embed-link]", timeout=20000
    )
    page.wait_for_timeout(300)
    end = "[data-testid=end-screen]"
    whole_and_apart(
        page,
        f"{end} [data-testid=end-reason], {end} .actions > *, {end} .end-more a, "
        f"{end} [data-testid=end-details] > summary, .strip-who, .strip-score, .strip-turn",
    )
    # every word whole: no line of the card cut short, no player's name cut ("Playe...")
    cut = page.evaluate(
        """() => [...document.querySelectorAll('#end-screen *, .strip-who')]
             .filter((n) => n.getClientRects().length && n.scrollWidth > n.clientWidth + 1)
             .map((n) => n.textContent.slice(0, 40))"""
    )
    assert not cut, cut
    # the title (inline, on two lines beside the badge: its centre is no point of it) inside the screen
    title = page.locator(f"{end} h2").bounding_box()
    assert title["x"] >= 0 and title["y"] >= 0, title
    assert title["x"] + title["width"] <= SIDE[0] + 0.5 and title["y"] + title["height"] <= SIDE[1] + 0.5, (
        title
    )
    box = page.locator(end).evaluate("(n) => [n.scrollHeight, n.clientHeight]")
    assert box[0] <= box[1] + 1, f"the end card scrolls: {box}"
    assert not errors, errors
    ctx.close()


def test_dead_end_drive_at_1366x800_the_mansion_fills_the_height_legend_one_tap_away(server, browser):
    """The player-judge of 2026-11-29 at 1366x800: the legend beside the mansion took a quarter of
    the board's width (the mansion 630 px wide, 200 px blank under the legend). The mansion now takes
    the box's whole height; the legend is folded in the column beside it, under the portrait."""
    page, errors = open_game(browser, create(server, "dead-end-drive", {"players": 2}), (1366, 800))
    box = whole_board_in_view(page, "dead-end-drive")
    pan = page.locator("#board > .board-pan").bounding_box()
    assert page.locator(f"{DD} [data-testid=legend] > *").count() == 0  # not drawn beside the mansion
    # the mansion's height is the box's (less the lawn under it and a margin), not the width's share
    assert box["bottom"] - box["top"] >= pan["height"] - 80, (box, pan)
    assert box["right"] - box["left"] >= 660, box  # its squares (630 px with the walls before)
    legend = page.locator("[data-testid=legend-details]")
    assert legend.is_visible() and legend.get_attribute("open") is None
    at = legend.bounding_box()
    assert at["x"] + at["width"] <= pan["x"] + 1, (at, pan)  # in the column beside the mansion
    legend.locator("summary").click()
    row = page.locator("[data-testid=legend-details] [data-legend] text").first.bounding_box()
    assert row["height"] >= 10, row  # one entry a line, readable in the column
    assert not errors, errors
    page.context.close()
