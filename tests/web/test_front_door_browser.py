"""The front door and the game pages as players judge them (issue 39), in headless Chromium.

- The home page: a game against the computer in at most 2 clicks (one: the game's tile's "Play the
  computer"), at the level last chosen, remembered in this browser.
- Phone landscape (844x390): every game's board's shorter side is at least 80% of the viewport's
  height, and every control of the turn is inside the viewport. Phone portrait (390x844): the
  board is at least 90% of the viewport's width. No page scrolls sideways at 390 px.
- A correspondence clock reads in days ("3 days"), not "4320:00".
- axe-core: no violation of any impact on the home page, every game page (start; Last Mouse Lost
  also at its end screen), the account page and the leaderboard, at four sizes, light and dark,
  English and French: one browser visits them all.

Each of these failed on the code before issue 39 (the home page had no game tiles; the landscape
boards were 75 to 120 px tall; the clock read "4320:00"; the dark toasts failed axe's contrast).
"""

from __future__ import annotations

import json
import os
import re
import time

import httpx
import pytest

from .web_helpers import ARTIFACTS, CHROMIUM, ServerProcess

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
]
sync_api = pytest.importorskip("playwright.sync_api")

AXE = ARTIFACTS.parents[1] / "tests" / "web" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
GAMES = ["last-mouse-lost", "mouse-trap", "booby-trap", "dead-end-drive"]
SIZES = {"desktop": (1366, 800), "tablet": (1024, 768), "portrait": (390, 844), "landscape": (844, 390)}
MY_TURN = "() => document.body.dataset.myTurn === '1' && document.body.dataset.busy === '0'"

# The board's drawing on screen: the <svg>'s viewBox scaled into its box (xMidYMid meet), cut by the
# board's box (a board zoomed in pans) and by the viewport.
BOARD_DRAWN = """() => {
  const pan = document.querySelector('#board .board-pan');
  const svg = pan.querySelector('svg');
  const pr = pan.getBoundingClientRect(), sr = svg.getBoundingClientRect();
  const vb = svg.viewBox.baseVal;
  let dw = sr.width, dh = sr.height, dx = sr.left, dy = sr.top;
  if (vb && vb.width) {
    const k = Math.min(sr.width / vb.width, sr.height / vb.height);
    dw = vb.width * k; dh = vb.height * k;
    dx = sr.left + (sr.width - dw) / 2; dy = sr.top + (sr.height - dh) / 2;
  }
  const left = Math.max(dx, pr.left, 0), right = Math.min(dx + dw, pr.right, innerWidth);
  const top = Math.max(dy, pr.top, 0), bottom = Math.min(dy + dh, pr.bottom, innerHeight);
  return {width: right - left, height: bottom - top, vw: innerWidth, vh: innerHeight};
}"""
# The controls of the turn (the action bar's buttons and fields) that are not wholly on screen.
CONTROLS_OUTSIDE = """() => [...document.querySelectorAll(
    '#bar button, #bar input, #bar select, #bar [role=button]')]
  .filter((e) => e.getClientRects().length && !e.closest('[hidden], details:not([open])'))
  .map((e) => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.width > 0
    && (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5))
  .map(([e, r]) => `${e.textContent.trim() || e.outerHTML.slice(0, 60)} at ${r.left | 0},${r.top | 0}`)"""
SIDEWAYS = "() => document.documentElement.scrollWidth - window.innerWidth"
# Hint and Undo (issue 39, polish): in a phone's landscape view they were below the fold in the side panel.
TOOLS_OUTSIDE = CONTROLS_OUTSIDE.replace(
    "'#bar button, #bar input, #bar select, #bar [role=button]'", "'#hint, #undo'"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("front-door-home")).start()
    yield s
    s.stop()


def create(server, game, options=None, clock=None):
    players = {"dead-end-drive": 4}.get(game, 2) if not options else options.get("players", 2)
    seats = [{"kind": "human"}] + [{"kind": "agent", "agent": "easy"}] * (players - 1)
    body = {"game": game, "options": options or {}, "seats": seats, "seed": 5}
    if clock:
        body["clock"] = clock
    r = httpx.post(server.url + "/api/games", json=body, timeout=30)
    assert r.status_code == 201, r.text
    return r.json()


def context(browser, size, errors, theme="light", lang="en"):
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=f"{lang}-FR")
    settings = json.dumps({"theme": theme, "language": lang})
    ctx.add_init_script(f"localStorage.setItem('trapworks.settings', {json.dumps(settings)})")
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def finished_game(server):
    """A short Last Mouse Lost game played to its end through the API (one row of 1, one of 2)."""
    created = create(server, "last-mouse-lost", {"first_to": 1, "board": [1, 2]})
    gid, token = created["id"], created["seats"][0]["token"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = httpx.get(f"{server.url}/api/games/{gid}", params={"token": token}, timeout=30).json()[
            "state"
        ]
        if state["terminal"]:
            return created
        if state["to_move"] == 0:
            first = state["view"]["legal_actions"][0]
            action = first["text"] if isinstance(first, dict) else first
            httpx.post(
                f"{server.url}/api/games/{gid}/moves",
                json={"token": token, "action": action, "ply": state["ply"]},
                timeout=30,
            )
        else:
            time.sleep(0.1)
    raise AssertionError("the short game did not end")


def play_to(server, created, until_ply=None, limit_s=90):
    """The first seat plays its first legal move (the computer answers) until `until_ply` plies
    are played and it is its turn again, or the game ends."""
    gid, token = created["id"], created["seats"][0]["token"]
    deadline = time.monotonic() + limit_s
    while True:
        assert time.monotonic() < deadline, "the game did not get there"
        url = f"{server.url}/api/games/{gid}"
        state = httpx.get(url, params={"token": token}, timeout=30).json()["state"]
        if state["terminal"] or (
            until_ply is not None and state["ply"] >= until_ply and state["to_move"] == 0
        ):
            return state
        legal = (state.get("view") or {}).get("legal_actions") or []
        if state["to_move"] != 0 or not legal:
            time.sleep(0.1)
            continue
        action = legal[0]["text"] if isinstance(legal[0], dict) else str(legal[0])
        body = {"token": token, "action": action, "ply": state["ply"]}
        httpx.post(f"{url}/moves", json=body, timeout=30)


def seats_of_the_open_game(server, page):
    """The game the page shows, as the server has it: its id and its seats (the page's token)."""
    gid = page.url.split("/g/")[1].split("#")[0]
    token = page.evaluate("() => new URLSearchParams(location.hash.slice(1)).get('t')")
    info = httpx.get(f"{server.url}/api/games/{gid}", params={"token": token}, timeout=30).json()
    return gid, info["info"]["players"]


def test_home_page_to_a_game_against_the_computer_in_one_click_at_the_remembered_level(server, browser):
    errors: list[str] = []
    for size in (SIZES["desktop"], SIZES["portrait"]):
        page = context(browser, size, errors)
        page.goto(server.url + "/")
        for game in GAMES:
            page.wait_for_selector(f"[data-testid=play-computer-{game}]")
        # The level is one tap, kept for the next visit.
        page.select_option("#level-pick", "medium")
        page.reload()
        page.wait_for_selector("[data-testid=play-computer-mouse-trap]")
        assert page.locator("#level-pick").input_value() == "medium"
        page.click("[data-testid=play-computer-mouse-trap]")  # the one click
        page.wait_for_url("**/g/**", timeout=20000)
        page.wait_for_selector("#board svg", timeout=20000)
        _gid, seats = seats_of_the_open_game(server, page)
        assert [s["kind"] for s in seats] == ["human", "agent"], seats
        assert seats[1]["agent"] == "medium", seats
        page.context.close()
    assert not errors, errors


def test_hot_seat_is_one_tap_on_each_tile_and_the_home_page_leads_to_arenas_and_watching(server, browser):
    """Judge (issue 39, Home 7/10): hot seat was only in the full dialog, nothing led to arenas or
    to watching, and a stray name field sat in "Live now". Each tile's Hot seat makes a game whose
    every seat is this screen's, in one tap, on a phone too."""
    errors: list[str] = []
    page = context(browser, SIZES["portrait"], errors)
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-home-ready='1']")
    width = SIZES["portrait"][0]
    for game in GAMES:  # every tile's three buttons whole and apart on a phone
        boxes = [
            page.locator(f"[data-testid=play-{k}-{game}]").bounding_box()
            for k in ("computer", "friend", "hotseat")
        ]
        assert all(b and b["x"] >= 0 and b["x"] + b["width"] <= width for b in boxes), boxes
        for i, one in enumerate(boxes):
            for other in boxes[i + 1 :]:
                apart = (
                    one["x"] + one["width"] <= other["x"]
                    or other["x"] + other["width"] <= one["x"]
                    or one["y"] + one["height"] <= other["y"]
                    or other["y"] + other["height"] <= one["y"]
                )
                assert apart, (game, boxes)
    assert page.get_attribute("[data-testid=home-arena]", "href") == "/arena"
    assert page.get_attribute("[data-testid=home-watch]", "href") == "/watch"
    # The guest's name is its own card, said what it is for, not in "Live now".
    assert page.locator("#live-now [data-testid=name]").count() == 0
    assert page.locator("[data-testid=home-name] [data-testid=name]").is_visible()
    page.click("[data-testid=play-hotseat-last-mouse-lost]")  # the one tap
    page.wait_for_url("**/g/**", timeout=20000)
    page.wait_for_selector("body[data-hot-seat='1']", timeout=20000)
    gid, seats = seats_of_the_open_game(server, page)
    assert [s["kind"] for s in seats] == ["human", "human"], seats
    held = page.evaluate(
        "(gid) => JSON.parse(localStorage.getItem('trapworks.myGames') || '[]')"
        ".filter((g) => g.id === gid).length",
        gid,
    )
    assert held == 2
    page.context.close()
    assert not errors, errors


def test_play_a_friend_gives_a_link_to_send(server, browser):
    errors: list[str] = []
    page = context(browser, SIZES["portrait"], errors)
    page.goto(server.url + "/")
    page.click("[data-testid=play-friend-last-mouse-lost]")
    page.wait_for_selector("#created:not([hidden]) [data-link=seat-1]")
    assert "/g/" in page.locator("[data-link=seat-1]").input_value()
    # The full options are a dialog one tap away, not a form on the page.
    assert not page.locator("[data-testid=game-select]").is_visible()
    page.click("[data-testid=open-new-game]")
    page.wait_for_selector("#new-game-dialog[open]")
    assert page.locator("[data-testid=game-select]").is_visible()
    page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("game", GAMES)
def test_phone_landscape_board_takes_the_height_and_the_turn_is_in_view(server, browser, game):
    errors: list[str] = []
    created = create(server, game)
    page = context(browser, SIZES["landscape"], errors)
    page.goto(created["seats"][0]["link"])
    page.wait_for_function(MY_TURN, timeout=30000)
    drawn = page.evaluate(BOARD_DRAWN)
    assert min(drawn["width"], drawn["height"]) >= 0.8 * drawn["vh"], drawn
    assert page.evaluate(CONTROLS_OUTSIDE) == []
    assert page.locator("#hint").is_visible() and page.evaluate(TOOLS_OUTSIDE) == []
    assert page.evaluate(SIDEWAYS) <= 0
    page.screenshot(path=str(ARTIFACTS / f"i39-{game}-landscape.png"))
    page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("game", GAMES)
def test_phone_portrait_board_takes_the_width(server, browser, game):
    errors: list[str] = []
    created = create(server, game)
    page = context(browser, SIZES["portrait"], errors)
    page.goto(created["seats"][0]["link"])
    page.wait_for_function(MY_TURN, timeout=30000)
    drawn = page.evaluate(BOARD_DRAWN)
    assert drawn["width"] >= 0.9 * drawn["vw"], drawn
    assert page.evaluate(CONTROLS_OUTSIDE) == []
    assert page.evaluate(SIDEWAYS) <= 0
    page.context.close()
    assert not errors, errors


def test_no_page_scrolls_sideways_on_a_phone(server, browser):
    errors: list[str] = []
    wide = {}
    for lang in ("en", "fr"):
        page = context(browser, SIZES["portrait"], errors, lang=lang)
        for path in ("/", "/account", "/leaderboard", "/replay"):
            page.goto(server.url + path)
            page.wait_for_load_state("networkidle")
            wide[f"{lang} {path}"] = page.evaluate(SIDEWAYS)
        for game in GAMES:
            page.goto(create(server, game)["seats"][0]["link"])
            page.wait_for_function(MY_TURN, timeout=30000)
            wide[f"{lang} {game}"] = page.evaluate(SIDEWAYS)
        page.context.close()
    assert {k: v for k, v in wide.items() if v > 0} == {}
    assert not errors, errors


def test_a_correspondence_clock_reads_in_days(server, browser):
    errors: list[str] = []
    clock = {"mode": "move", "seconds": 3 * 86400, "on_timeout": "forfeit"}
    created = create(server, "last-mouse-lost", clock=clock)
    for lang, words in (("en", "3 days"), ("fr", "3 jours")):
        page = context(browser, SIZES["desktop"], errors, lang=lang)
        page.goto(created["seats"][0]["link"])
        page.wait_for_selector("[data-testid=clock-seat-0]")
        text = page.locator("[data-testid=clock]").inner_text()
        assert words in text and "4320" not in text, text
        # The strip beside the board shows the same clock (days, or days and hours once it runs).
        strip = page.locator("[data-testid=strip-clock-0]").inner_text()
        assert ("2" in strip or "3" in strip) and "4320" not in strip and ":" not in strip, strip
        page.context.close()
    assert not errors, errors


def axe_all(page):
    page.add_script_tag(path=str(AXE))
    return axe_run(page)


def axe_run(page):
    """axe-core's violations on the page as it is now (axe already added to the page)."""
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}" for v in result["violations"]
    ]


# Two animation frames: what a change of the viewport or of the colour scheme restyles is laid out.
TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


@pytest.mark.timeout(900)
def test_axe_finds_no_violation_on_any_page_size_theme_or_language(server, browser):
    """Every page at every size, in each language, loaded at that size, then checked in light and
    in dark. The theme follows the system's colour scheme (the settings' default), switched on the
    loaded page as a player's system switches it (js/settings.js listens), and the page's theme is
    checked before each run: a page and axe-core loaded once for both themes, not twice (64 loads
    for the 128 checks, not 128)."""
    assert AXE.exists(), "axe-core is not installed: cd tests/web/axe && npm ci"
    errors: list[str] = []
    links = {game: create(server, game)["seats"][0]["link"] for game in GAMES}
    links["end screen"] = finished_game(server)["seats"][0]["link"]
    pages = {"home": server.url + "/", **links, "/account": server.url + "/account"}
    pages["/leaderboard"] = server.url + "/leaderboard"
    found: dict[str, list[str]] = {}
    for lang in ("en", "fr"):
        for size_name, size in SIZES.items():
            # A new visitor each time (the home page first, before this browser has played any game).
            page = context(browser, size, errors, theme="system", lang=lang)
            for name, url in pages.items():
                page.emulate_media(color_scheme="light")
                page.goto(url)
                if name == "home":
                    page.wait_for_selector("body[data-home-ready='1']")
                elif name == "end screen":
                    page.wait_for_selector("[data-testid=end-screen]", state="visible", timeout=30000)
                elif name in links:
                    page.wait_for_function(MY_TURN, timeout=30000)
                else:
                    page.wait_for_load_state("networkidle")
                page.add_script_tag(path=str(AXE))
                for theme in ("light", "dark"):
                    page.emulate_media(color_scheme=theme)
                    page.evaluate(TWO_FRAMES)
                    assert page.evaluate("document.documentElement.dataset.theme") == theme, (name, theme)
                    where = f"{size_name} {theme} {lang}"
                    found[f"{name} {where}"] = axe_run(page)
            page.context.close()
    assert len(found) == 128
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "axe-i39.json").write_text(json.dumps(found, indent=1))
    assert {k: v for k, v in found.items() if v} == {}
    assert not errors, errors


# The header's items that are cut: outside the viewport, or their own words clipped ("Players, m…").
HEADER_CUT = """() => [...document.querySelectorAll(
    'header.top .title, header.top button, header.top a.head-button')]
  .filter((e) => e.getClientRects().length && getComputedStyle(e).display !== 'none')
  .filter((e) => { const r = e.getBoundingClientRect();
    return r.left < -0.5 || r.right > innerWidth + 0.5 || r.top < -0.5 || r.bottom > innerHeight + 0.5
      || e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1; })
  .map((e) => `${e.className}: ${e.textContent.trim()}`)"""


@pytest.mark.parametrize(
    ("size", "lang"), [(SIZES["portrait"], "en"), (SIZES["landscape"], "en"), ((768, 1024), "fr")]
)
def test_phone_header_shows_the_game_name_and_every_button_whole(server, browser, size, lang):
    """Issue 39: the phone's header cut the game's title ("Last ...") and the Players button
    ("Players, m..." at 844x390, "Joueurs, c..." at 768x1024). Failed before: both clipped it."""
    errors: list[str] = []
    page = context(browser, size, errors, lang=lang)
    page.goto(create(server, "last-mouse-lost")["seats"][0]["link"])
    page.wait_for_function(MY_TURN, timeout=30000)
    assert page.locator("header.top .title-game").inner_text() == "Last Mouse Lost"
    assert page.evaluate(HEADER_CUT) == []
    # The site's links are one tap away in the header's menu, and Escape closes it.
    assert not page.locator("header.top nav a[href='/']").is_visible()
    page.click("[data-testid=menu-button]")
    assert page.locator("header.top nav a[href='/']").is_visible()
    assert page.get_attribute("[data-testid=menu-button]", "aria-expanded") == "true"
    page.keyboard.press("Escape")
    assert not page.locator("header.top nav a[href='/']").is_visible()
    page.context.close()
    assert not errors, errors


def test_home_page_in_phone_landscape_has_every_game_one_tap_in_view(server, browser):
    """Failed before: at 844x390 the tiles were three a row and 13 Dead End Drive's below the fold."""
    errors: list[str] = []
    page = context(browser, SIZES["landscape"], errors)
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-home-ready='1']")
    outside = page.evaluate(
        """(games) => games.map((g) => [g, document.querySelector(`[data-testid=play-computer-${g}]`)
             .getBoundingClientRect()]).filter(([g, r]) => r.bottom > innerHeight || r.right > innerWidth)
             .map(([g, r]) => `${g} at ${r.left | 0},${r.top | 0}`)""",
        GAMES,
    )
    assert outside == []
    assert page.evaluate(SIDEWAYS) <= 0
    page.context.close()
    assert not errors, errors


def test_mouse_trap_rolls_for_the_player_when_asked_and_remembers_it(server, browser):
    """The "Roll for me" switch: when the roll is the player's only move the page sends it (what the server
    offers, nothing else); the choice is kept in this browser. Failed before: no such switch."""
    errors: list[str] = []
    page = context(browser, SIZES["desktop"], errors)
    created = create(server, "mouse-trap")
    page.goto(created["seats"][0]["link"])
    page.wait_for_function(MY_TURN, timeout=30000)
    assert page.locator("[data-die]").get_attribute("data-die") == ""
    page.check("[data-testid=auto-roll]")
    # No click on "Roll the die": the die shows a number once the page has rolled.
    page.wait_for_function("() => document.querySelector('[data-die]').dataset.die !== ''", timeout=20000)
    page.reload()
    page.wait_for_selector("[data-testid=auto-roll]")
    assert page.is_checked("[data-testid=auto-roll]")
    page.uncheck("[data-testid=auto-roll]")
    page.context.close()
    assert not errors, errors


def test_last_mouse_lost_says_tap_on_a_touch_screen(server, browser):
    """A phone's player taps: "Click mice…" read as a desktop's words. Failed before: "Click" everywhere."""
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(create(server, "last-mouse-lost")["seats"][0]["link"])
    page.wait_for_function(MY_TURN, timeout=30000)
    assert page.evaluate("() => matchMedia('(pointer: coarse)').matches")
    assert page.locator("[data-testid=selection]").inner_text().startswith("Tap a mouse")
    ctx.close()
    assert not errors, errors


def test_the_name_fields_save_stays_in_view_with_the_large_board(server, browser):
    """Board size "large" narrows the side panel: the name's Save button was off the screen."""
    errors: list[str] = []
    body = {"game": "last-mouse-lost", "options": {}, "seats": [{"kind": "human"}, {"kind": "human"}]}
    created = httpx.post(server.url + "/api/games", json=body, timeout=30).json()
    ctx = browser.new_context(viewport={"width": 1366, "height": 800})
    settings = json.dumps({"theme": "light", "language": "fr", "boardSize": "large"})
    ctx.add_init_script(f"localStorage.setItem('trapworks.settings', {json.dumps(settings)})")
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(created["seats"][0]["link"])
    page.wait_for_selector("[data-testid=name-save]")
    save = page.locator("[data-testid=name-save]").bounding_box()
    side = page.locator("#side").bounding_box()
    assert save and side, (save, side)
    assert save["x"] + save["width"] <= min(side["x"] + side["width"], 1366) + 0.5, (save, side)
    ctx.close()
    assert not errors, errors


def test_a_one_round_end_card_says_the_score_once(server, browser):
    """Last Mouse Lost's end card after a single round: the badge, the headline, the round's line;
    not the rule and the score again ("won 1 of the rounds played (final score 1-0)"), which read
    as machine output. Failed before."""
    errors: list[str] = []
    page = context(browser, SIZES["portrait"], errors)
    page.goto(finished_game(server)["seats"][0]["link"])
    page.wait_for_selector("[data-testid=end-screen]", state="visible", timeout=30000)
    reasons = page.locator("[data-testid=end-reason]").all_inner_texts()
    assert len(reasons) == 1 and "rounds played" not in reasons[0], reasons
    page.context.close()
    assert not errors, errors


# The end card's controls as a player sees them: buttons (and links drawn as buttons) of its ways
# on, the primary ones, the quiet links, and what the side panel offers again.
END_CARD = """() => {
  const card = document.querySelector('[data-testid=end-screen]');
  const seen = (e) => e && e.getClientRects().length > 0 && !e.closest('[hidden]');
  const ids = (sel) => [...card.querySelectorAll(sel)].filter(seen).map((e) => e.dataset.testid);
  return {
    ways: ids('.actions > *'), primary: ids('.primary'), quiet: ids('.end-more a'),
    close: seen(card.querySelector('[data-testid=close-end]')),
    side: [...document.querySelectorAll('#side a, #side button, #side input')].filter(seen)
      .map((e) => e.dataset.testid || e.id || e.textContent.trim()),
    scores: [...document.querySelectorAll('#end-screen, #board .lml-info')]
      .map((e) => e.innerText).join(' | '),
  };
}"""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_end_card_has_one_way_on_and_says_nothing_twice(server, browser, lang):
    """Issue 39 (pagesA, the judge's Last Mouse Lost reasons): the end card had 4 buttons and 3
    links; Download and Replay were in the side panel again; "Notify me on my turn" was offered
    after the end; the score read "0 – 1" on the board and "Score 0-1" on the card. Now: one
    primary way on (Rematch), New game and Review quieter beside it, the record, public link and
    embed one line of small links, the board behind a corner ×; the side offers none of them
    again and no alert for turns to come; every score in one format. Failed before."""
    errors: list[str] = []
    created = create(server, "last-mouse-lost", {"first_to": 2, "board": [1, 2]})
    assert play_to(server, created)["terminal"]
    page = context(browser, SIZES["desktop"], errors, lang=lang)
    page.goto(created["seats"][0]["link"])
    page.wait_for_selector("[data-testid=end-screen]", state="visible", timeout=30000)
    card = page.evaluate(END_CARD)
    assert card["primary"] == ["rematch"], card
    assert card["ways"] == ["rematch", "new-game", "end-replay"], card
    assert card["quiet"] == ["end-record", "end-public-link", "end-embed-link"], card
    assert card["close"], card
    for offered_again in ("record", "replay", "hint", "undo", "alert-notify", "alert-sound"):
        assert offered_again not in card["side"], card["side"]
    # One format for a score: "1 – 2" (digits around an en dash), never "1-2".
    assert re.search(r"\d – \d", card["scores"]) and not re.search(r"\d-\d", card["scores"]), card["scores"]
    final = "Final score: You" if lang == "en" else "Score final : Vous"
    assert final in card["scores"], card["scores"]
    page.click("[data-testid=close-end]")
    assert page.locator("[data-testid=end-screen]").is_hidden()
    page.context.close()
    assert not errors, errors


def test_an_unknown_page_is_the_sites_404_page_and_the_api_stays_json(server, browser):
    """Issue 39 (pagesA): /leaderboards answered a browser raw JSON. A page that does not exist is
    the site's 404 page (its header, the ways on, in the player's language; status 404 all the
    same); the API and a client asking for JSON keep the JSON error. The API link is in the home
    page's footer, not its top bar. Failed before: JSON in the browser, "API" in the top bar."""
    errors: list[str] = []
    ways = {
        "en": "Where would you like to go?",
        "fr": "Où voulez-vous aller\u00a0?",
    }  # not "These are the ways on:"
    for lang, words in (("en", "This page does not exist"), ("fr", "Cette page n'existe pas")):
        page = context(browser, SIZES["portrait"], errors, lang=lang, theme="dark")
        response = page.goto(server.url + "/leaderboards")
        assert response is not None and response.status == 404
        page.wait_for_selector("[data-testid=not-found] h2")
        page.wait_for_function("(w) => document.querySelector('main h2').textContent === w", arg=words)
        assert page.locator("header.top").count() == 1
        assert page.inner_text("[data-testid=not-found] p.muted").endswith(ways[lang])
        page.click("[data-testid=not-found-home]")
        page.wait_for_selector("body[data-home-ready='1']")
        page.goto(server.url + "/no/such/page")
        page.wait_for_selector("[data-testid=not-found]")
        assert axe_all(page) == []
        page.context.close()
    api = httpx.get(server.url + "/api/no-such-thing", headers={"accept": "text/html"}, timeout=30)
    assert api.status_code == 404 and api.json()["code"] == "not_found"
    plain = httpx.get(server.url + "/leaderboards", timeout=30)
    assert plain.status_code == 404 and plain.json()["ok"] is False
    page = context(browser, SIZES["desktop"], errors)
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-home-ready='1']")
    assert page.locator("header.top a[href='/docs']").count() == 0
    assert page.locator("footer.site-foot a[href='/docs']").is_visible()
    page.context.close()
    assert not errors, errors


def test_mouse_trap_log_is_one_short_line_a_turn_and_the_players_are_said_once(server, browser):
    """Issue 39 (pagesA, the judge's Mouse Trap reasons): a turn's log entry ran to 9 lines ("...
    you get 2 cheese fewer"); the Players card repeated the strips. Now each turn is one line
    (its first sentence: the roll and the space), the rest one tap away ("+"), kept open over
    the redraws; the strips alone say who plays. Failed before: whole entries, the Players list."""
    errors: list[str] = []
    created = create(server, "mouse-trap")
    play_to(server, created, until_ply=24)
    page = context(browser, SIZES["portrait"], errors)
    page.goto(created["seats"][0]["link"])
    page.wait_for_function(MY_TURN, timeout=30000)
    assert page.locator("[data-testid=strip-top]").is_visible()
    assert not page.locator("#players").is_visible()
    lines = page.locator("#log li .line").all_inner_texts()
    assert len(lines) >= 4, lines
    for text in lines:  # one sentence each
        assert text.count(". ") == 0 and len(text) <= 90, text
    more = page.locator("[data-testid=log-more]")
    assert more.count() >= 1
    first = more.first
    rest = page.locator("[data-testid=log-rest]").first
    assert rest.is_hidden() and first.get_attribute("aria-expanded") == "false"
    first.click()
    assert rest.is_visible() and rest.inner_text().strip()
    ply = int(page.evaluate("document.body.dataset.ply"))
    page.locator(
        "[data-controls=mouse-trap] button[data-action]"
    ).first.click()  # a move: the log is drawn again
    page.wait_for_function("p => Number(document.body.dataset.ply) > p", arg=ply, timeout=20000)
    assert page.locator("[data-testid=log-rest]").first.is_visible()  # still open after a redraw
    page.context.close()
    assert not errors, errors


def signed_up(server, name):
    """An account's client (its session cookie) and its CSRF header."""
    client = httpx.Client(base_url=server.url, timeout=30)
    csrf = client.get("/api/account/me").json()["csrf"]
    body = {"username": name, "password": "correct horse battery staple"}
    r = client.post("/api/account/signup", json=body, headers={"x-csrf-token": csrf})
    assert r.status_code == 200, r.text
    return client, {"x-csrf-token": r.json()["csrf"]}


def test_the_home_page_shows_whats_going_on_now(server, browser):
    """Issue 39 (pagesA, the judge's Home reason): the front door showed no life; lichess's says how
    many play and lists the games going on. Now a "Live now" card: games being played and players
    online (GET /api/activity, counts only), open tables (each with Join) and the games between
    players going on, each with Watch (a spectator link). Failed before: no such card, no
    /api/activity."""
    errors: list[str] = []
    suffix = str(int(time.time() * 1000) % 10**8)
    (a, a_csrf), (b, b_csrf) = signed_up(server, f"livea{suffix}"), signed_up(server, f"liveb{suffix}")
    made = a.post("/api/account/games", json={"game": "last-mouse-lost", "seat": 0}, headers=a_csrf).json()
    invite = made["invites"][0]["link"].split("#i=")[1]
    claimed = b.post(f"/api/games/{made['id']}/claim", json={"invite": invite}).json()
    b.post(
        "/api/account/seats",
        json={"seats": [{"game": made["id"], "token": claimed["token"]}]},
        headers=b_csrf,
    )
    public = {
        "game": "mouse-trap",
        "options": {},
        "public": True,
        "seats": [{"kind": "human", "invite": False}, {"kind": "human", "invite": True}],
    }
    table = httpx.post(server.url + "/api/games", json=public, timeout=30).json()
    player = context(browser, SIZES["desktop"], errors)  # a player at a game: one game being played
    player.goto(server.url + made["link"])
    player.wait_for_selector("#board svg", timeout=30000)
    activity = httpx.get(server.url + "/api/activity", timeout=30).json()
    assert activity["playing"] >= 1 and activity["online"] >= 1, activity
    assert set(activity) == {"playing", "online"}  # counts only: no game, seat or token
    for size in (SIZES["desktop"], SIZES["portrait"]):
        page = context(browser, size, errors)
        page.goto(server.url + "/")
        page.wait_for_selector(f"#tables [data-table='{table['id']}'] [data-join]")
        # the counts once the open tables are read (a table listed: not "0 open tables")
        page.wait_for_function(
            "() => /[1-9]\\d* open tables?/"
            ".test(document.querySelector('[data-testid=live-counts]').textContent)"
        )
        counts = page.locator("[data-testid=live-counts]").inner_text()
        assert re.search(r"[1-9]\d* games? being played", counts) and re.search(
            r"[1-9]\d* players? online", counts
        )
        watch = page.locator(f"[data-live-game='{made['id']}'] [data-testid=live-watch]")
        assert watch.is_visible()
        assert "#t=" in (watch.get_attribute("href") or "") and claimed["token"] not in watch.get_attribute(
            "href"
        )
        assert page.evaluate(SIDEWAYS) <= 0
        # The match's length is said on the tile (the judge: the same button gave matches of
        # different lengths): "Play the computer" makes the game's default, best of five.
        meta = page.locator("[data-testid=tile-meta-last-mouse-lost]").inner_text()
        assert meta == "2 players · first to 3 rounds", meta
        page.context.close()
    player.context.close()
    a.close()
    b.close()
    assert not errors, errors


def test_live_now_shows_no_zeros_and_says_what_to_do_when_quiet(server, browser):
    """Issue 39 (judge: the empty "Live now" card showed zeros): only counts above zero are shown;
    with no open table and no game between players, one line says what to do. Failed before:
    "0 open tables" and "0 players waiting"."""
    errors: list[str] = []
    page = context(browser, SIZES["portrait"], errors)
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-live-ready='1']")
    assert "0" not in page.locator("[data-testid=live-counts] b").all_inner_texts()
    # Quiet is nothing to show at all: "quiet right now" under "1 game being played" contradicted
    # itself (judge 5; failed before with a game against the computer under way).
    quiet = (
        page.locator("#tables [data-table]").count() == 0
        and page.locator("[data-live-game]").count() == 0
        and page.locator("[data-testid=live-counts] b").count() == 0
    )
    assert page.locator("[data-testid=live-empty]").is_visible() == quiet
    # A game against the computer open in another tab is "1 game being played": then the card is
    # not "quiet" (judge 5 saw both at once; failed before).
    game = page.context.new_page()
    game.goto(create(server, "last-mouse-lost")["seats"][0]["link"])
    game.wait_for_function(MY_TURN, timeout=30000)
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-live-ready='1']")
    page.wait_for_function(
        "document.querySelectorAll('[data-testid=live-counts] b').length > 0", timeout=15_000
    )
    assert not page.locator("[data-testid=live-empty]").is_visible()
    page.context.close()
    assert not errors, errors


def test_the_headers_language_and_theme_switches_hold_on_every_page_on_a_phone(server, browser):
    """Issue 39 (front): the language and the theme could be changed only in a game page's settings.
    Every other page's header has both switches, on a phone too, and a choice made on one page holds
    on the next ones, the game page included (the same stored settings). Failed before: no switch."""
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US", color_scheme="light")
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/leaderboard")
    page.wait_for_selector("[data-testid=theme-toggle]")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    for name in ("theme-toggle", "language-pick", "menu-button"):  # the phone's header: all in view
        box = page.locator(f"[data-testid={name}]").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 80, (
            name
        )
    page.click("[data-testid=theme-toggle]")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.get_attribute("[data-testid=theme-toggle]", "aria-pressed") == "true"
    with page.expect_navigation():
        page.select_option("[data-testid=language-pick]", "fr")
    page.wait_for_function("document.querySelector('main h2').textContent === 'Classements'")
    for path, ready in (
        ("/no-such-page", "[data-testid=not-found]"),
        ("/", "body[data-home-ready='1']"),
        ("/account", "[data-testid=theme-toggle]"),
        ("/replay", "[data-testid=menu-button]"),
    ):
        page.goto(server.url + path)
        page.wait_for_selector(ready)
        page.wait_for_selector("[data-testid=language-pick]", state="attached")
        assert page.evaluate("[document.documentElement.dataset.theme, document.documentElement.lang]") == [
            "dark",
            "fr",
        ], path
        assert page.input_value("[data-testid=language-pick]") == "fr", path
    # The replay's bar is its title: the switches are in its menu, one tap away.
    page.click("[data-testid=menu-button]")
    assert page.locator("[data-testid=theme-toggle]").is_visible()
    # The game page keeps its own settings button (the full dialog) and takes the same choices.
    page.goto(create(server, "last-mouse-lost")["seats"][0]["link"])
    page.wait_for_function(MY_TURN, timeout=30000)
    assert page.evaluate("[document.documentElement.dataset.theme, document.documentElement.lang]") == [
        "dark",
        "fr",
    ]
    assert page.locator("[data-testid=head-prefs]").count() == 0
    ctx.close()
    assert not errors, errors


def test_a_tile_plays_two_by_default_and_its_number_of_players_is_one_tap_and_kept(server, browser):
    """Issue 39 (front): 13 Dead End Drive's "Play the computer" made a four-player game with no
    choice. A tile of a game for 2 to 4 plays two (you and the computer) unless its players
    select says more; the choice is kept for the next visit. Failed before: 4 seats, no select."""
    errors: list[str] = []
    page = context(browser, SIZES["desktop"], errors)
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-home-ready='1']")
    assert page.locator("[data-testid=tile-players-last-mouse-lost]").count() == 0  # two, always

    def seats_of_a_tap(game):
        page.click(f"[data-testid=play-computer-{game}]")
        page.wait_for_url("**/g/**", timeout=20000)
        return [s["kind"] for s in seats_of_the_open_game(server, page)[1]]

    assert page.input_value("[data-testid=tile-players-dead-end-drive]") == "2"
    assert seats_of_a_tap("dead-end-drive") == ["human", "agent"]
    page.goto(server.url + "/")
    page.select_option("[data-testid=tile-players-dead-end-drive]", "3")
    page.reload()
    page.wait_for_selector("body[data-home-ready='1']")
    assert page.input_value("[data-testid=tile-players-dead-end-drive]") == "3"
    assert seats_of_a_tap("dead-end-drive") == ["human", "agent", "agent"]
    page.context.close()
    assert not errors, errors


def test_every_page_has_the_same_top_bar_in_the_same_order(server, browser):
    """Judge 7 (Leaderboard 6, 404 7): "the top navigation differs from page to page" (the lobby
    had Lobby and Replay a record, the friends page Lobby and Friends, the arena four links, the
    game page one). Every page's bar: Lobby, Watch, Arenas, Swiss, Friends, Leaderboards, then the account."""
    created = create(server, "last-mouse-lost")
    game = f"/g/{created['id']}#t={created['seats'][0]['token']}"
    site = ["/", "/watch", "/arena", "/swiss", "/friends", "/leaderboard"]
    errors: list[str] = []
    page = context(browser, SIZES["desktop"], errors)
    for path in [*site, "/account", "/replay", "/nowhere", game]:
        page.goto(server.url + path)
        page.wait_for_selector("[data-testid=account-nav]", state="attached", timeout=20000)
        hrefs = page.eval_on_selector_all(
            "header.top nav > a[data-testid^=nav-]", "(links) => links.map((a) => a.getAttribute('href'))"
        )
        assert hrefs == site, (path, hrefs)
    page.context.close()
    assert not errors, errors


def test_phone_landscape_tiles_keep_their_drawing_and_every_button_in_view(server, browser):
    """Judge 7 (Home 7): the tiles' drawings were hidden in phone landscape (844x390)."""
    errors: list[str] = []
    page = context(browser, SIZES["landscape"], errors)
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-home-ready='1']")
    for game in GAMES:
        art = page.locator(f"[data-game-tile={game}] .tile-art svg").bounding_box()
        assert art and art["height"] >= 30, (game, art)
        for kind in ("computer", "friend", "hotseat"):
            b = page.locator(f"[data-testid=play-{kind}-{game}]").bounding_box()
            assert b and b["y"] + b["height"] <= SIZES["landscape"][1], (game, kind, b)
    page.context.close()
    assert not errors, errors
