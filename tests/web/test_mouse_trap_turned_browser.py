"""Mouse Trap on a phone and a desktop, as the player-judge of 2026-11-29 asked:

- A phone held upright (390x844): the whole board was 390x215 with bands of ~170 px over and under
  it and words of 6 px. The board is drawn turned a quarter (the track's long side down the screen),
  as wide as the screen: every space's words 11 px and more and upright (inside their space), no
  sideways panning, no band; the player's mouse in view. "Whole board" fits the turned board to the
  box's height (no band over or under it), every space inside the box.
- A phone on its side (844x390), French, dark: the player chips were cut ("V…", "Ordinateur (fac…"):
  every chip's name whole, inside the screen.
- A desktop (1366x800): the bar under the board was a tall box, nearly empty: the die, the turn and
  its buttons on one line.
"""

from __future__ import annotations

import json
import os

import httpx
import pytest

from .web_helpers import CHROMIUM, ServerProcess

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
]
sync_api = pytest.importorskip("playwright.sync_api")

MY_TURN = "document.body.dataset.myTurn === '1' && document.body.dataset.busy === '0'"
MT = "svg[data-board='mouse-trap']"

# The turned board as drawn: its box, the board, the smallest word on screen, the words outside
# their space (or sideways: a word box higher than wide), the player's mouse in view.
LOOK = """() => {
  const pan = document.querySelector('#board .board-pan');
  const svg = pan.querySelector('svg[data-board=mouse-trap]');
  const p = pan.getBoundingClientRect(), b = svg.getBoundingClientRect();
  const scale = svg.getScreenCTM().a;
  const words = [...svg.querySelectorAll('[data-space] > text[data-space-label]')];
  const sizes = words.map((t) => Number(t.getAttribute('font-size')) * scale);
  const astray = [];
  for (const t of words) {
    const w = t.getBoundingClientRect();
    const r = t.parentNode.querySelector(':scope > rect').getBoundingClientRect();
    if (w.left < r.left - 1 || w.right > r.right + 1 || w.top < r.top - 1 || w.bottom > r.bottom + 1
        || (t.textContent.length > 2 && w.height > w.width)) astray.push(t.textContent);
  }
  const m = svg.querySelector("[data-mouse='0']").getBoundingClientRect();
  const spaces = [...svg.querySelectorAll('[data-space] > rect')].map((r) => r.getBoundingClientRect());
  return {
    turned: svg.querySelector('[data-turned]').getAttribute('data-turned'),
    zoomed: pan.dataset.zoomed,
    word: Math.min(...sizes), astray,
    sideways: pan.scrollWidth > pan.clientWidth + 1,
    boardW: b.width, boardH: b.height, boxW: pan.clientWidth, boxH: pan.clientHeight,
    mouseInView: m.width > 0 && m.top >= p.top && m.bottom <= p.bottom
      && m.left >= p.left && m.right <= p.right,
    spacesOut: spaces.filter((s) => s.left < p.left - 0.5 || s.right > p.right + 0.5
                                    || s.top < p.top - 0.5 || s.bottom > p.bottom + 0.5).length,
    pageSideways: document.documentElement.scrollWidth > innerWidth + 1,
  };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("mt-turned-home")).start()
    yield s
    s.stop()


def open_game(server, browser, size, lang="en", theme="light"):
    seats = [{"kind": "human", "name": "Valentine"}, {"kind": "agent", "agent": "heuristic"}]
    r = httpx.post(
        server.url + "/api/games",
        json={"game": "mouse-trap", "options": {"players": 2}, "seats": seats, "seed": 3},
        timeout=30,
    )
    assert r.status_code == 201, r.text
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=f"{lang}-FR")
    settings = json.dumps(json.dumps({"theme": theme, "language": lang}))
    ctx.add_init_script(f"localStorage.setItem('trapworks.settings', {settings})")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(r.json()["seats"][0]["link"] + "&fast")
    page.wait_for_selector(f"#board {MT}", timeout=20000)
    page.wait_for_function(MY_TURN, timeout=30000)
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return ctx, page, errors


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_phone_held_upright_draws_the_board_turned_as_wide_as_the_screen(server, browser, lang):
    ctx, page, errors = open_game(server, browser, (390, 844), lang)
    look = page.evaluate(LOOK)
    assert look["turned"] == "1" and look["zoomed"] == "1", look
    # as wide as its box (less a scroll bar's room), panning up and down only; no band beside it
    assert look["boardW"] >= look["boxW"] - 14 and not look["sideways"] and not look["pageSideways"], look
    assert look["boardH"] >= look["boxH"], look  # no band under it either
    assert look["word"] >= 11, look  # the words of every space (6 px before)
    assert not look["astray"], look  # upright, inside their space
    assert look["mouseInView"], look
    # the contraption's lines, read upright over the board (not sideways on its felt)
    facts = page.locator("[data-testid=facts]")
    over = facts.bounding_box()["y"] < page.locator("#board .board-pan").bounding_box()["y"]
    assert facts.is_visible() and over
    # "Whole board": the turned board fitted to the box's height, every space in it, no band
    page.locator("[data-testid=zoom]").click()
    whole = page.evaluate(LOOK)
    assert whole["zoomed"] == "0" and whole["spacesOut"] == 0 and not whole["sideways"], whole
    assert whole["boardH"] >= whole["boxH"] - 2 and whole["boardW"] <= whole["boxW"] + 0.5, whole
    assert not whole["astray"], whole
    # the player's turn goes on as before: roll, and the mouse moved is still in view
    ply = int(page.evaluate("document.body.dataset.ply"))
    page.locator("[data-controls=mouse-trap] button[data-action]").first.click()
    page.wait_for_function("p => Number(document.body.dataset.ply) > p", arg=ply, timeout=20000)
    page.wait_for_function(f"{MY_TURN} || document.body.dataset.terminal === '1'", timeout=30000)
    assert page.evaluate(LOOK)["spacesOut"] == 0
    ctx.close()
    assert not errors, errors


def test_a_phone_on_its_side_shows_every_chip_whole_in_french_dark(server, browser):
    ctx, page, errors = open_game(server, browser, (844, 390), "fr", "dark")
    chips = page.evaluate(
        """() => [...document.querySelectorAll('#board .mt-player')].map((c) => {
             const n = c.querySelector('.mt-name'), b = c.getBoundingClientRect();
             return { name: n.textContent, cut: n.scrollWidth > n.clientWidth + 1,
                      out: b.left < 0 || b.right > innerWidth + 0.5 || b.bottom > innerHeight + 0.5 };
           })"""
    )
    assert len(chips) == 2 and not [c for c in chips if c["cut"] or c["out"]], chips
    assert page.evaluate(LOOK)["turned"] == "0"  # on its side the board is not turned
    ctx.close()
    assert not errors, errors


def test_a_desktop_has_the_turn_and_its_buttons_on_one_line(server, browser):
    ctx, page, errors = open_game(server, browser, (1366, 800))
    bar = page.locator("#actionbar").bounding_box()
    die = page.locator("#bar .mt-die").bounding_box()
    roll = page.locator("[data-controls=mouse-trap] button[data-action]").first.bounding_box()
    # one line: the roll button beside the die, not under it; the bar no taller than that line
    assert abs((roll["y"] + roll["height"] / 2) - (die["y"] + die["height"] / 2)) < 12, (die, roll)
    assert bar["height"] <= 80, bar
    assert page.evaluate(LOOK)["turned"] == "0"
    ctx.close()
    assert not errors, errors
