"""Seats by their display names in every line of the page (issue 27 review): an English sentence
that the game's events wrote about a seat ("player 2's mouse", "Player 3 rolls 4 and 6.") names
that seat as the seat list does ("Bob's mouse", "Chloé rolls 4 and 6."), the viewer in the second
person ("You roll 2 and land on 11."), the same as the French sentences (through the catalog) do.

A game of each of the four games, every seat named, is played by its human seat (random legal
moves by the API) with the page open in English; at each of its turns, and at the end, the
page's lines (the log, the action bar and its buttons, the side panel's news, the toasts, the
screen reader's live region, the end screen) hold no "player 1".."player 4". The finished game's
replay page with its analysis, and the game page in French ("joueur 1".."joueur 4"), neither.
Screenshots of the log at 1366x768 and 390x844: artifacts/web/seat-names/.
"""

from __future__ import annotations

import os
import random
import re
import time

import httpx
import pytest

from .web_helpers import ARTIFACTS, CHROMIUM, ServerProcess, seat_view

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
]

SHOTS = ARTIFACTS / "seat-names"
NAMES = ["Alice", "Bob", "Chloé", "Dmitri"]
# Seats: the human first, then named computer seats (the random agent plays at once).
GAMES = {
    "mouse-trap": ({"players": 4}, 4),
    "booby-trap": ({"pieces_per_size": 3}, 2),
    "last-mouse-lost": ({"first_to": 2}, 2),
    "dead-end-drive": ({"players": 4, "turn_limit": 8}, 4),
}
RAW_SEAT = {"en": re.compile(r"\bplayer [1-4]\b", re.I), "fr": re.compile(r"\bjoueur [1-4]\b", re.I)}

# The page's lines that speak of seats (the seat list and the header say seat numbers on purpose:
# "Alice (Player 1, you)"). Hidden parts too (textContent): the live region, a closed hint.
LINES = """
() => {
  const out = [];
  const sel = '#log li, #bar, #toasts, #messages, #end, #side-extra, #live, #end-screen, #board';
  for (const root of document.querySelectorAll(sel)) {
    const text = root.id === 'live' ? root.textContent : root.innerText;
    for (const line of (text || '').split('\\n')) if (line.trim()) out.push(line.trim());
    for (const n of root.querySelectorAll('[title], [aria-label]')) {
      for (const a of ['title', 'aria-label']) if (n.getAttribute(a)) out.push(n.getAttribute(a));
    }
    for (const n of root.querySelectorAll('svg title')) out.push(n.textContent);
  }
  return out;
}
"""
REPLAY_LINES = """
() => {
  const out = [];
  for (const root of document.querySelectorAll('#log li, #analysis li, #where, #bar, #side-extra, #board')) {
    for (const line of (root.innerText || '').split('\\n')) if (line.trim()) out.push(line.trim());
    for (const n of root.querySelectorAll('[title], [aria-label]')) {
      for (const a of ['title', 'aria-label']) if (n.getAttribute(a)) out.push(n.getAttribute(a));
    }
  }
  return out;
}
"""
# The log's last lines in sight (a presence message may redraw the log: no element is held).
SCROLL_LOG = "document.querySelector('#log li:last-child').scrollIntoView({block: 'end'})"
SETTLED = (
    "document.body.dataset.busy === '0' && document.body.dataset.connected === '1' && "
    "(document.body.dataset.myTurn === '1' || document.body.dataset.terminal === '1')"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("seat-names-home")).start()
    yield s
    s.stop()


def create(server, game):
    options, n = GAMES[game]
    seats = [{"kind": "human", "name": NAMES[0]}]
    seats += [{"kind": "agent", "agent": "random", "name": NAMES[i]} for i in range(1, n)]
    body = {"game": game, "options": options, "seats": seats, "seed": 11, "hints": True}
    r = httpx.post(server.url + "/api/games", json=body, timeout=30)
    assert r.status_code == 201, r.text
    return r.json()


def raw_seats(lines, lang):
    return sorted({line for line in lines if RAW_SEAT[lang].search(line)})


def open_page(browser, url, size, errors, locale="en-US"):
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=locale)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return ctx, page


@pytest.mark.timeout(900)
@pytest.mark.parametrize("game", list(GAMES))
def test_every_line_names_the_seats_as_the_seat_list_does(server, browser, game):
    created = create(server, game)
    gid, token = created["id"], created["seats"][0]["token"]
    link = created["seats"][0]["link"] + "&fast"
    errors: list[str] = []
    seen: list[str] = []
    bad: set[str] = set()
    ctx, page = open_page(browser, link, (1366, 768), errors)
    rng = random.Random(4)
    deadline = time.monotonic() + 400
    turns = 0
    while True:
        assert time.monotonic() < deadline, f"{game}: no end"
        page.wait_for_function(SETTLED, timeout=30000)
        if turns % 4 == 1 and page.is_enabled("#hint"):
            page.click("#hint")  # the hint's move and reason are the game's words
            page.wait_for_selector("#toasts .toast", timeout=10000)
        lines = page.evaluate(LINES)
        seen += lines
        bad.update(raw_seats(lines, "en"))
        view = seat_view(server.url, gid, token)
        if view["terminal"]:
            break
        if not view["legal_actions"]:
            time.sleep(0.05)
            continue
        state = httpx.get(f"{server.url}/api/games/{gid}", params={"token": token}, timeout=30).json()
        move = {
            "token": token,
            "action": rng.choice(view["legal_actions"])["text"],
            "ply": state["state"]["ply"],
        }
        r = httpx.post(f"{server.url}/api/games/{gid}/moves", json=move, timeout=30)
        assert r.status_code < 300 or r.status_code == 409, r.text
        turns += 1
        page.wait_for_function(f"+document.body.dataset.ply > {state['state']['ply']}", timeout=30000)
    page.wait_for_function("document.body.dataset.terminal === '1'", timeout=30000)
    bad.update(raw_seats(page.evaluate(LINES), "en"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{game}-end-1366.png"))
    # The log itself, beside the board (the end screen closed).
    page.click("[data-testid=close-end]")
    page.evaluate(SCROLL_LOG)
    page.screenshot(path=str(SHOTS / f"{game}-log-1366.png"))
    ctx.close()
    assert any(NAMES[1] in line for line in seen), f"{game}: the other seats are never named: {seen[:40]}"
    assert any(line.startswith("You ") for line in seen), f"{game}: the viewer's own lines are missing"

    # The same finished game on a phone, and in French.
    for locale, lang, size in (
        ("en-US", "en", (390, 844)),
        ("fr-FR", "fr", (1366, 768)),
        ("fr-FR", "fr", (390, 844)),
    ):
        ctx, page = open_page(browser, link, size, errors, locale=locale)
        page.wait_for_function(
            "document.body.dataset.terminal === '1' && document.querySelectorAll('#log li').length > 1",
            timeout=30000,
        )
        lines = page.evaluate(LINES)
        bad.update(f"{lang}: {line}" for line in raw_seats(lines, lang))
        assert any(NAMES[1] in line for line in lines), f"{game} {lang}: {lines[:40]}"
        page.click("[data-testid=close-end]")
        page.evaluate(SCROLL_LOG)
        page.screenshot(path=str(SHOTS / f"{game}-log-{size[0]}-{lang}.png"))
        ctx.close()

    # The replay page with the analysis: the log, the analysis and the renderer's lines at each step.
    ctx, page = open_page(browser, f"{server.url}/replay/{gid}#fast", (1366, 768), errors)
    page.wait_for_selector("body[data-ready='1']", timeout=30000)
    page.wait_for_selector("body[data-analysis]", timeout=60000)
    steps = int(page.get_attribute("#slider", "max"))
    for step in range(1, steps + 1):
        page.click("#next")
        page.wait_for_function(f"document.body.dataset.step === '{step}'", timeout=10000)
        if step % 3 == 0 or step == steps:
            bad.update(f"replay: {line}" for line in raw_seats(page.evaluate(REPLAY_LINES), "en"))
    lines = page.evaluate(REPLAY_LINES)
    assert any(NAMES[1] in line for line in lines), f"{game} replay: {lines[:40]}"
    page.screenshot(path=str(SHOTS / f"{game}-replay-1366.png"), full_page=True)
    ctx.close()
    assert not bad, f"{game}: seats named 'player N' although they have names:\n" + "\n".join(sorted(bad))
    assert not errors, errors
