"""The boards read no layout while they draw an update (docs/testing.md, "Seventh round").

A read of an element's size or position (clientWidth, getBoundingClientRect, scrollLeft...) made
right after the page changed the DOM makes Blink lay the page out at once; the renderers did it
several times per update (Mouse Trap's fitZoom, 13 Dead End Drive's fitView and smallBoard, Booby
Trap's tray size), and Chromium's renderer is most of a browser test's CPU. The renderers now keep
their boxes' sizes from a ResizeObserver (whose callback runs just after Blink laid the page out)
and scroll a zoomed board in the next frame. Here every read of layout made by a renderer's code
outside those frame callbacks is counted while a few turns are played: one measure at the first
drawing is allowed (and 13 Dead End Drive's one look at its box's width, to place its legend).
"""

from __future__ import annotations

import os
import random

import pytest

from .test_game_page import create, decide_bt, decide_ded, settled
from .web_helpers import CHROMIUM, ServerProcess

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
]

pytest.importorskip("playwright.sync_api")

# Every read of layout made by a script under /renderers/ itself (not by a helper it calls),
# outside a requestAnimationFrame or ResizeObserver callback, is counted in window.__layoutReads
# (with where it came from).
COUNT_READS = """
(() => {
  window.__layoutReads = [];
  let inFrame = 0;
  const note = (what) => {
    if (inFrame) return;
    const stack = new Error().stack || "";
    // the reader: the first frame of the page's own scripts (this script's frames have no URL)
    const line = stack.split("\\n").find((l) => l.includes("/static/"));
    if (line && line.includes("/renderers/")) window.__layoutReads.push(`${what} ${line.trim()}`);
  };
  const getters = {
    Element: ["clientWidth", "clientHeight", "clientTop", "clientLeft", "scrollWidth", "scrollHeight",
              "scrollTop", "scrollLeft"],
    HTMLElement: ["offsetWidth", "offsetHeight", "offsetTop", "offsetLeft", "offsetParent", "innerText"],
  };
  for (const [cls, names] of Object.entries(getters)) {
    for (const name of names) {
      const proto = window[cls].prototype;
      const d = Object.getOwnPropertyDescriptor(proto, name);
      Object.defineProperty(proto, name, { ...d, get() { note(name); return d.get.call(this); } });
    }
  }
  const methods = { Element: ["getBoundingClientRect", "getClientRects"],
                    SVGGraphicsElement: ["getBBox", "getScreenCTM", "getCTM"] };
  for (const [cls, names] of Object.entries(methods)) {
    for (const name of names) {
      const proto = window[cls].prototype;
      const f = proto[name];
      proto[name] = function (...args) { note(name); return f.apply(this, args); };
    }
  }
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (cb) => raf((t) => { inFrame++; try { cb(t); } finally { inFrame--; } });
  const RO = window.ResizeObserver;
  window.ResizeObserver = class extends RO {
    constructor(cb) { super((e, o) => { inFrame++; try { cb(e, o); } finally { inFrame--; } }); }
  };
})();
"""


def decide_mt(page, rng):
    # a mouse to pick, else the crank, the roll, the end of the turn, else any button offered (none
    # while the page plays a forced move: the loop waits for the next ply)
    mice = page.locator("[data-mouse].pickable")
    if mice.count():
        mice.first.click()
        return
    actions = page.locator("[data-controls=mouse-trap] button[data-action]:not(:disabled)").evaluate_all(
        "ns => ns.map((n) => n.dataset.action)"
    )
    for prefer in ("crank", "roll", "end", *actions):
        if prefer in actions:
            page.locator(f"[data-controls=mouse-trap] button[data-action='{prefer}']").click()
            return


GAMES = {
    "mouse-trap": ({"players": 2}, decide_mt),
    "dead-end-drive": ({"players": 2}, None),
    "booby-trap": ({"pieces_per_size": 3}, decide_bt),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("layout-home")).start()
    yield s
    s.stop()


@pytest.mark.timeout(300)
# (a phone only: the CI's browser lane is at its limit; a desktop ran the same code paths, 114, 193
# and 44 reads on main)
@pytest.mark.parametrize("size", [(390, 844)], ids=["phone"])
@pytest.mark.parametrize("game", list(GAMES))
def test_a_board_reads_no_layout_while_it_draws_the_turns(server, browser, game, size):
    options, decide = GAMES[game]
    created = create(server, game, options, seed=3)
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.add_init_script(COUNT_READS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(created["seats"][0]["link"] + "&fast")
    page.wait_for_selector("#board svg", timeout=20000)
    rng = random.Random(3)
    traps = {
        page.locator("rect[data-trap]").nth(i).get_attribute("data-square")
        for i in range(page.locator("rect[data-trap]").count())
    }
    plies = 0
    for _ in range(12):  # a dozen decisions: each draws the player's move and the computer's
        settled(page)
        if page.evaluate("document.body.dataset.terminal") == "1":
            break
        ply = int(page.evaluate("document.body.dataset.ply"))
        if game == "dead-end-drive":
            if decide_ded(page, traps, rng) == "pick-a-pawn":
                page.wait_for_function(
                    "p => document.querySelector('[data-testid=controls] button[data-count]')"
                    " || document.querySelector('rect[data-dest]') || Number(document.body.dataset.ply) > p",
                    arg=ply,
                    timeout=20000,
                )
                continue
        else:
            decide(page, rng)
        page.wait_for_function("p => Number(document.body.dataset.ply) > p", arg=ply, timeout=20000)
        plies = int(page.evaluate("document.body.dataset.ply"))
    assert plies >= 4, f"{game}: only {plies} plies drawn"
    reads = page.evaluate("window.__layoutReads")
    # the first drawing's measure of its box, width and height (and 13 Dead End Drive's of its
    # width for the legend)
    assert len(reads) <= 3, "\n".join(reads[:20])
    assert not errors, errors
    context.close()
