"""Mouse Trap's board and contraption in headless Chromium (issue 16, part A).

- Every part of the building plan is an element of the drawing (`g[data-part=<id>]`, the ids the
  view lists); the parts the view says are built are drawn, the rest ghosted; a part built during
  play appears (animated) and the drawing still matches the view.
- A trap that jams (stage odds set so that it jams at F, the rickety stairs) stops the firing's
  animation there: that stage is marked jammed with its "jammed here" label, the stages before it
  were animated and worked, none after it was animated.
- Under prefers-reduced-motion no animation plays and a game still plays to its end by clicking;
  without it the same game animates (mice stepping space by space, parts, the firing).
- The words on the board are legible at 1366x768 (no text under 10 px). On a phone (390x844) the
  whole board is in view first (issue 27: it no longer pans; its spaces are then about 21 px, and
  no decision needs them: every one is a button in the action bar), and one tap on "Zoom in" makes
  it legible (no text under 10 px, spaces of 32 px and more).

Screenshots land in artifacts/web/boards/ (those in docs/screenshots/mouse-trap-*.png are copies).
"""

from __future__ import annotations

import os
import time

import httpx
import pytest

from .web_helpers import ARTIFACTS, CHROMIUM, ServerProcess, seat_view

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
]

sync_api = pytest.importorskip("playwright.sync_api")

STAGES = [
    "crank",
    "gears",
    "lever",
    "shoe",
    "bucket",
    "stairs",
    "rain_pipe",
    "helping_hand",
    "bowling_ball",
    "thing_a_ma_jig",
    "bathtub",
    "diving_board",
    "diver",
    "wash_tub",
    "cage",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("mt-board-home")).start()
    yield s
    s.stop()


def create(server, start, options=None, players=2):
    body = {
        "game": "mouse-trap",
        "options": {"players": players, **(options or {})},
        "seats": [{"kind": "human"}] + [{"kind": "agent", "agent": "heuristic"}] * (players - 1),
        "seed": 7,
        "start": start,
    }
    r = httpx.post(server.url + "/api/games", json=body, timeout=30)
    assert r.status_code == 201, r.text
    return r.json()


def open_game(browser, created, reduced=False, fast=True, size=(1366, 768)):
    ctx = browser.new_context(
        viewport={"width": size[0], "height": size[1]},
        reduced_motion="reduce" if reduced else "no-preference",
    )
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(created["seats"][0]["link"] + ("&fast" if fast else ""))
    page.wait_for_selector("svg[data-board=mouse-trap] g[data-space='49']", timeout=20000)
    return page, errors


def settled(page, timeout=30000):
    page.wait_for_function(
        "document.body.dataset.busy === '0' && (document.body.dataset.myTurn === '1' || "
        "document.body.dataset.terminal === '1')",
        timeout=timeout,
    )


SHOTS = ARTIFACTS / "boards"


def shot(page, name, board_only=False):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    if board_only:
        page.locator("svg[data-board=mouse-trap]").screenshot(path=str(SHOTS / f"{name}.png"))
    else:
        page.screenshot(path=str(SHOTS / f"{name}.png"))


OFF_SCREEN = """(selector) => [...document.querySelectorAll(selector)].filter((n) => {
  const b = n.getBoundingClientRect();
  return b.left < 0 || b.top < 0 || b.right > innerWidth || b.bottom > innerHeight;
}).map((n) => n.outerHTML.slice(0, 60))"""


def drawn_parts(page):
    """Each part element of the drawing: id -> (built flag, ghosted, opacity)."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('svg[data-board] g[data-part]')].map(
             (g) => [g.dataset.part, {built: g.dataset.built, ghost: g.classList.contains('ghost'),
                                      opacity: Number(getComputedStyle(g).opacity),
                                      shapes: g.querySelectorAll('path, rect, circle, polygon').length}]))"""
    )


def check_parts_match_view(page, view):
    parts = drawn_parts(page)
    # one element per part id of the building plan, in the view's own list
    assert sorted(parts) == sorted(view["part_ids"]) and len(parts) == 24
    assert page.locator("svg[data-board] g[data-part]").count() == 24
    built = set(view["built_parts"])
    assert len(built) == view["parts_built"]
    for pid, p in parts.items():
        assert p["shapes"] > 0, pid  # drawn, not an empty slot
        if pid in built:
            assert p["built"] == "1" and not p["ghost"] and p["opacity"] == 1, (pid, p)
        else:
            assert p["built"] == "0" and p["ghost"] and p["opacity"] < 0.5, (pid, p)


def click_step(page) -> str:
    """One decision of the human seat: crank, pay for a mouse, build, roll, else end."""
    controls = page.locator("[data-controls=mouse-trap]")
    for action in ("crank", "build"):
        if controls.locator(f"button[data-action={action}]").count():
            controls.locator(f"button[data-action={action}]").click()
            return action
    mice = page.locator("svg[data-board=mouse-trap] circle[data-mouse].pickable")
    if mice.count():
        mice.first.click()
        return "move"
    for action in ("roll", "end"):
        if controls.locator(f"button[data-action={action}]").count():
            controls.locator(f"button[data-action={action}]").click()
            return action
    buttons = controls.locator("button[data-action]")
    assert buttons.count(), "no control to click"
    buttons.first.click()
    return "other"


def play_click(page):
    ply = int(page.evaluate("document.body.dataset.ply"))
    clicked = click_step(page)
    page.wait_for_function("p => Number(document.body.dataset.ply) > p", arg=ply, timeout=20000)
    return clicked


@pytest.mark.parametrize("parts", [0, 12, 24])
def test_each_part_is_an_element_built_ones_drawn_and_the_rest_ghosted(server, browser, parts):
    pile = 30 - 6
    created = create(server, f"mice=3,5 cheese=3,3 pile={pile} parts={parts} turn=9 next=1 phase=roll")
    page, errors = open_game(browser, created)
    settled(page)
    view = seat_view(server.url, created["id"], created["seats"][0]["token"])
    assert view["parts_built"] == parts
    check_parts_match_view(page, view)
    # the next part to build is labelled where it goes
    assert page.locator("[data-next-part] text").count() == (0 if parts == 24 else 1)
    shot(page, f"mouse-trap-contraption-{parts}", board_only=True)
    assert not errors, errors
    page.context.close()


def test_a_part_built_in_play_appears_in_place(server, browser):
    # Two players: every Build space builds; the human builds when offered.
    created = create(server, "mice=2,5 cheese=3,3 pile=24 parts=10 turn=9 next=1 phase=roll")
    token = created["seats"][0]["token"]
    page, errors = open_game(browser, created)
    settled(page)
    # Record each part that was drawn on its way in (moved off its place) while it was built.
    page.evaluate(
        r"""() => {
          window.__dropped = new Set();
          new MutationObserver((records) => {
            for (const r of records) {
              const m = /translate\(0,(-?[0-9.]+)\)/.exec(r.oldValue || '');
              if (m && Number(m[1]) < -1) window.__dropped.add(r.target.dataset.part);
            }
          }).observe(document.querySelector('svg[data-board]'), {
            subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ['transform'],
          });
        }"""
    )
    built_before = 10
    deadline = time.monotonic() + 120
    while True:
        settled(page)
        view = seat_view(server.url, created["id"], token)
        page.wait_for_function(f"document.body.dataset.ply === '{view['moves_made']}'", timeout=10000)
        check_parts_match_view(page, view)
        if view["parts_built"] > built_before + 1 or view["terminal"]:
            break
        assert time.monotonic() < deadline, "no part was built"
        play_click(page)
    assert view["parts_built"] > built_before
    # each new part dropped into its place (an animation), and only the new ones
    dropped = set(page.evaluate("[...window.__dropped]"))
    assert dropped == set(view["built_parts"][built_before:]), dropped
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize(
    ("reduced", "size"),
    [(False, (1366, 768)), (True, (1366, 768)), (False, (390, 844))],
    ids=["motion", "reduced-motion", "phone"],
)
def test_a_jam_stops_the_firing_at_the_jammed_stage_marked_there(server, browser, reduced, size):
    # Every stage works except F (the rickety stairs), which always jams. A third mouse the player
    # may pay to move makes the crank a choice, clicked here (a crank that is the only move is
    # played by the page itself: test_mouse_trap_browser's forced-choice test).
    created = create(
        server,
        "mice=46,49,10 cheese=4,4,0 pile=22 parts=24 turn=40 next=1 phase=crank",
        {"trap_reliability": 1.0, "trap_stage_odds": {"stairs": 0.0}},
        players=3,
    )
    page, errors = open_game(browser, created, reduced=reduced, size=size)
    settled(page)
    # Record every stage the page marks as firing ("next", then its outcome) while it fires.
    page.evaluate(
        """() => {
          window.__fired = [];
          // The bar's news shows the last turn's lines only (issue 39): each line kept as it comes.
          window.__news = [];
          new MutationObserver((changes) => {
            for (const c of changes) for (const n of c.addedNodes) {
              if (n.nodeType === 1 && n.dataset.event) window.__news.push(n.dataset.event);
            }
          }).observe(document.body, {childList: true, subtree: true});
          new MutationObserver((records) => {
            for (const r of records) if (r.oldValue === 'next') window.__fired.push(r.target.dataset.stage);
          }).observe(document.querySelector('svg[data-board]'), {
            subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ['data-state'],
          });
        }"""
    )
    play_click(page)  # turn the crank
    page.wait_for_selector("g[data-stage=stairs][data-state=jammed]", timeout=30000)
    settled(page)
    view = seat_view(server.url, created["id"], created["seats"][0]["token"])
    assert view["last_firing"]["jammed"] == "stairs" and view["last_firing"]["stages"] == 5
    board = page.locator("svg[data-board=mouse-trap]")
    assert board.get_attribute("data-last-firing") == "jammed:stairs"
    # the jammed stage is marked: a red outline and "jammed here"
    label = page.locator("[data-jam-label=stairs]")
    assert label.is_visible() and label.inner_html().count("jammed here") == 1
    halo = page.evaluate("getComputedStyle(document.querySelector('g[data-stage=stairs] .halo')).stroke")
    assert halo == "rgb(185, 28, 28)", halo
    assert page.locator("[data-jam-label]:visible").count() == 1
    states = {s: page.locator(f"g[data-stage={s}]").get_attribute("data-state") for s in STAGES}
    animated = {s: page.locator(f"g[data-stage={s}]").get_attribute("data-animated") for s in STAGES}
    jam = STAGES.index("stairs")
    assert all(states[s] == "worked" for s in STAGES[:jam]), states
    assert all(states[s] == "idle" for s in STAGES[jam + 1 :]), states
    # the firing went stage by stage up to the jam and never beyond it
    fired = list(dict.fromkeys(page.evaluate("window.__fired")))
    assert fired == STAGES[: jam + 1], fired
    assert all(animated[s] is None for s in STAGES[jam + 1 :]), animated
    # the metal ball stopped on the stairs; the pieces after them did not move
    ball = page.locator("g[data-part=metal_ball] > g.mv").bounding_box()
    stairs = page.locator("g[data-stage=stairs] .halo").bounding_box()
    cx, cy = ball["x"] + ball["width"] / 2, ball["y"] + ball["height"] / 2
    assert stairs["x"] <= cx <= stairs["x"] + stairs["width"], (ball, stairs)
    assert stairs["y"] <= cy <= stairs["y"] + stairs["height"], (ball, stairs)
    for piece in ("bowling_ball", "diver", "cage"):
        moved = page.locator(f"g[data-part={piece}] > g.mv").get_attribute("transform")
        assert moved in (None, "", "translate(0.00,0.00)"), (piece, moved)
    if reduced:
        # reduced motion: the outcome is drawn, no animation played
        assert all(a is None for a in animated.values()), animated
        assert board.get_attribute("data-animations") == "0"
    else:
        assert all(animated[s] == "1" for s in STAGES[: jam + 1]), animated
    assert "trap_failed" in page.evaluate("window.__news")  # the news told the jam
    if size[0] < 500:
        # a phone held upright opens zoomed on the player's mouse (boardsB); one tap on "Whole
        # board" and the jammed part and its label are on screen
        zoom = page.locator("[data-testid=zoom]")
        if zoom.get_attribute("aria-pressed") == "true":
            zoom.click()
        assert zoom.get_attribute("aria-pressed") == "false"
        assert not page.evaluate(OFF_SCREEN, "g[data-stage=stairs] .halo, [data-jam-label=stairs]")
        shot(page, "mouse-trap-jammed-390")
    else:
        shot(page, f"mouse-trap-jammed{'-reduced' if reduced else ''}", board_only=True)
    assert not errors, errors
    page.context.close()


@pytest.mark.timeout(600)
@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
def test_reduced_motion_skips_animations_and_the_game_plays_to_the_end(server, browser, reduced):
    # Near the end of a game: the trap two parts from complete and always working.
    created = create(
        server,
        "mice=38,41 cheese=3,3 pile=24 parts=22 turn=30 next=1 phase=roll",
        {"trap_reliability": 1.0},
    )
    # With motion the page runs ?fast (timers at 0) but still plays every animation's frames.
    page, errors = open_game(browser, created, reduced=reduced, fast=not reduced)
    board = page.locator("svg[data-board=mouse-trap]")
    walks: set[str] = set()
    deadline = time.monotonic() + 400
    while True:
        settled(page, timeout=60000)
        walk = board.get_attribute("data-last-walk")
        if walk:
            walks.add(walk)
        if page.evaluate("document.body.dataset.terminal") == "1":
            break
        assert time.monotonic() < deadline, "the game did not end"
        play_click(page)
    view = seat_view(server.url, created["id"], created["seats"][0]["token"])
    assert view["terminal"] and not view["truncated"]
    assert view["parts_built"] == 24 and view["last_firing"]["jammed"] is None
    # a die's move walks space by space: each step to the next space, round the Loop
    assert walks
    for walk in walks:
        steps = [int(x) for x in walk.split(":")[1].split(",")]
        assert all(b == (44 if a == 49 else a + 1) for a, b in zip(steps, steps[1:], strict=False)), walk
    animations = int(board.get_attribute("data-animations"))
    if reduced:
        assert animations == 0 and page.locator("[data-animated]").count() == 0
    else:
        assert animations > 0 and page.locator("[data-animated]").count() == len(STAGES)
    page.locator("[data-testid=end-screen]").wait_for(state="visible", timeout=10000)
    assert not errors, errors
    page.context.close()


TEXT_SIZES = """() => {
  const svg = document.querySelector('svg[data-board=mouse-trap]');
  const scale = svg.getScreenCTM().a;
  const sizes = [...svg.querySelectorAll('text')].filter((t) => t.getClientRects().length)
    .map((t) => Number(getComputedStyle(t).fontSize.replace('px', '')) * scale);
  const tile = svg.querySelector('[data-space] rect').getBoundingClientRect().width;
  return {smallest: Math.min(...sizes), count: sizes.length, tile};
}"""


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=["desktop", "phone"])
def test_the_board_is_legible_at_desktop_and_phone_size(server, browser, size):
    created = create(
        server, "mice=12,45,27 cheese=4,2,3 pile=21 parts=13 turn=20 next=1 phase=roll", players=3
    )
    page, errors = open_game(browser, created, size=size)
    settled(page)
    if size[0] < 500:
        # a phone held upright opens with the board turned a quarter, as wide as the screen (the
        # player-judge of 2026-11-29: the whole board was 390x215, its words 6 px); it pans up and
        # down only
        zoom = page.locator("[data-testid=zoom]")
        assert zoom.get_attribute("aria-pressed") == "true"
        pan = page.evaluate(
            "(() => { const p = document.querySelector('#board .board-pan');"
            " return [p.scrollWidth, p.clientWidth]; })()"
        )
        assert pan[0] <= pan[1] + 1, pan  # the track's whole width in view, no panning sideways
    sizes = page.evaluate(TEXT_SIZES)
    # every space's number and words, the status lines, the pile: 10 px or more on screen
    assert sizes["count"] > 100 and sizes["smallest"] >= 10, sizes
    assert sizes["tile"] >= 32, sizes
    # the spaces keep their pictures: an icon drawn in every space
    assert page.locator("[data-space] > g[aria-hidden=true] > *").count() >= 50
    shot(page, f"mouse-trap-board-{size[0]}")
    assert not errors, errors
    page.context.close()


def test_a_catch_drops_the_cage_over_the_caught_mouse(server, browser):
    # Two players, a trap that always works: the catch ends the game and the board stays as it fell.
    created = create(
        server,
        "mice=46,49 cheese=6,5 pile=19 parts=24 turn=40 next=1 phase=crank",
        {"trap_reliability": 1.0},
    )
    page, errors = open_game(browser, created)
    settled(page)
    # turn the crank: the only move here (no mouse to pay for), so the page turns it itself
    page.locator("[data-testid=close-end]").click(timeout=30000)  # "Look at the board"
    view = seat_view(server.url, created["id"], created["seats"][0]["token"])
    assert view["terminal"] and view["mice"][1] is None and view["last_firing"]["jammed"] is None
    assert page.locator("svg[data-board]").get_attribute("data-last-firing") == "caught"
    assert page.locator("g[data-stage][data-state=worked]").count() == 15
    assert page.locator("circle[data-mouse='1']").count() == 0  # out of the game...
    caught = page.locator("g[data-caught='1']").bounding_box()  # ...drawn under the fallen cage
    cage = page.locator("g[data-part=cage] > g.mv").bounding_box()
    wheel = page.locator("g[data-space='49'] rect").bounding_box()
    cx, cy = caught["x"] + caught["width"] / 2, caught["y"] + caught["height"] / 2
    assert cage["x"] <= cx <= cage["x"] + cage["width"] and cage["y"] <= cy <= cage["y"] + cage["height"]
    assert cage["y"] + cage["height"] >= wheel["y"] + wheel["height"] - 2  # down on the Cheese Wheel
    shot(page, "mouse-trap-caught", board_only=True)
    assert not errors, errors
    page.context.close()


TAG_OVER_SPACES = """() => {
  const tag = document.querySelector('svg[data-board] [data-next-part] rect').getBoundingClientRect();
  return [...document.querySelectorAll('svg[data-board] g[data-space] > rect')].filter((r) => {
    const b = r.getBoundingClientRect();
    return b.left < tag.right && tag.left < b.right && b.top < tag.bottom && tag.top < b.bottom;
  }).map((r) => r.parentNode.dataset.space);
}"""

# Every part's "next" label, placed as the board places it (at the widest French label's width),
# against every space of the track: the indexes of the spaces it would cover, by part.
EVERY_TAG_OVER_SPACES = """async () => {
  const A = await import('/static/renderers/mouse-trap-art.js');
  const over = {};
  for (const [id, part] of Object.entries(A.PARTS)) {
    for (const w of [64, 120]) {
      const [x, y] = A.labelCentre(part.tag[0], part.tag[1], w);
      for (let i = 0; i <= 49; i++) {
        const s = A.spaceXY(i), h = A.TILE / 2;
        const apart = s.x + h <= x - w / 2 || x + w / 2 <= s.x - h || s.y + h <= y - 10 || y + 10 <= s.y - h;
        if (!apart) (over[id] ||= []).push(i);
      }
    }
  }
  return over;
}"""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_next_part_label_covers_no_space_and_the_felt_follows_the_dark_theme(server, browser, lang):
    """Issue 39 (polish): "next: 4" beside the crank, at the board's right edge, covered space 21
    (failed before: ['21']); in the dark theme the felt inside the track and the words on it took
    the light theme's cream and ink (failed before: the felt stayed rgb(230, 239, 211))."""
    created = create(server, "mice=3,5 cheese=3,3 pile=24 parts=3 turn=9 next=1 phase=roll")
    size = {"width": 1440, "height": 900}
    ctx = browser.new_context(viewport=size, locale=f"{lang}-FR", color_scheme="dark")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(created["seats"][0]["link"] + "&fast")
    page.wait_for_selector("svg[data-board=mouse-trap] [data-next-part] rect", timeout=20000)
    settled(page)
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.locator("g[data-part=crank]").get_attribute("data-number") == "4"
    assert page.evaluate(TAG_OVER_SPACES) == []
    assert page.evaluate(EVERY_TAG_OVER_SPACES) == {}
    colours = page.evaluate(
        """() => ({felt: getComputedStyle(document.querySelector('.mt-felt')).fill,
                   words: getComputedStyle(document.querySelector('[data-info] text')).fill,
                   area: getComputedStyle(document.querySelector('.board-area')).backgroundColor})"""
    )
    dark = {"felt": "rgb(35, 31, 29)", "words": "rgb(236, 232, 228)", "area": "rgb(41, 37, 36)"}
    assert colours == dark, colours
    shot(page, f"mouse-trap-dark-next-tag-{lang}")
    assert not errors, errors
    ctx.close()
