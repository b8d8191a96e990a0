"""The game page as a player sees it (issue 14, part A), in real headless Chromium.

- Every game played to its end BY CLICKING at 1366x768 and at 390x844: at every decision, each
  enabled control of that decision and the seat's own hand are inside the viewport without scrolling
  the page (a board control on a phone board that pans is panned to, inside its board, not by
  scrolling the page); a screenshot per phase goes to artifacts/web/phases/.
- The end-of-game screen of each game (result, why, scores, rematch/new game/download/replay), Undo
  off after the end; 13 Dead End Drive's secrets revealed to every seat and the spectator only then.
- axe-core (npm package, tests/web/axe) on the lobby, each game's page, the replay page and the end
  screen: no violation of impact "serious" or "critical".
- The spectator page and the empty replay page show no move controls; the record refused mid-game
  is explained on the page; a double-clicked Remove sends once and shows no error; keyboard play.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import httpx
import pytest

from .web_helpers import ARTIFACTS, CHROMIUM, ServerProcess, seat_view

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
]

sync_api = pytest.importorskip("playwright.sync_api")

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
PHASES = ARTIFACTS / "phases"
SIZES = [(1366, 768), (390, 844)]

# Short games so that eight full games stay a few minutes on a loaded machine.
GAMES = {
    "last-mouse-lost": {"first_to": 2},
    "booby-trap": {"pieces_per_size": 3},
    "mouse-trap": {"players": 2},
    "dead-end-drive": {"players": 2},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("page-home")).start()
    yield s
    s.stop()


def create(server, game, options, seats=None, seed=3, hints=False):
    seats = seats or [{"kind": "human"}, {"kind": "agent", "agent": "heuristic"}]
    body = {"game": game, "options": options, "seats": seats, "hints": hints}
    if sum(s["kind"] == "human" for s in seats) <= 1:
        body["seed"] = seed  # the server refuses a chosen seed where two humans share secrets
    r = httpx.post(
        server.url + "/api/games",
        json=body,
        timeout=30,
    )
    assert r.status_code == 201, r.text
    return r.json()


def open_page(browser, url, size, errors):
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page


def settled(page, timeout=20000):
    """Wait until the page has drawn every update it received and it is my turn or the end."""
    page.wait_for_function(
        "document.body.dataset.busy === '0' && (document.body.dataset.myTurn === '1' || "
        "document.body.dataset.terminal === '1')",
        timeout=timeout,
    )


OUTSIDE_JS = """
(selector) => {
  // Each visible element matching selector whose box is not wholly inside the viewport, the page
  // scrolled to the top. A board control inside a board that pans (.board-pan) is first panned to,
  // inside its board only (scrollLeft/scrollTop of the pan box, never the page).
  window.scrollTo(0, 0);
  const W = window.innerWidth, H = window.innerHeight;
  const out = [];
  for (const node of document.querySelectorAll(selector)) {
    const box0 = node.getBoundingClientRect();
    if (!box0.width && !box0.height) continue;
    const pan = node.closest('.board-pan');
    if (pan && pan.scrollWidth > pan.clientWidth + 1 || pan && pan.scrollHeight > pan.clientHeight + 1) {
      const p = pan.getBoundingClientRect();
      pan.scrollLeft += (box0.left + box0.width / 2) - (p.left + p.width / 2);
      pan.scrollTop += (box0.top + box0.height / 2) - (p.top + p.height / 2);
    }
    const b = node.getBoundingClientRect();
    // ... and not covered by something else (the sticky action bar over a board, say)
    const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    const covered = !hit || !(hit === node || node.contains(hit) || hit.closest('#toasts'));
    const off = b.left < -0.5 || b.top < -0.5 || b.right > W + 0.5 || b.bottom > H + 0.5;
    if (window.scrollY !== 0 || covered || off) {
      out.push(`${node.tagName} ${node.getAttribute('data-action') || node.getAttribute('aria-label') ||
                node.getAttribute('data-testid') || node.textContent.slice(0, 30)} at ` +
               `${Math.round(b.left)},${Math.round(b.top)}-${Math.round(b.right)},${Math.round(b.bottom)}`);
    }
  }
  return out;
}
"""

# The current decision's controls: enabled buttons of the action bar and the board's actionable things.
DECISION = "#bar button:not([disabled]), #board [data-kbd][tabindex='0']"


def check_decision(page, game, size, phases, label):
    """Assert the decision's controls and the hand are on screen; screenshot each new phase."""
    outside = page.evaluate(OUTSIDE_JS, DECISION)
    assert not outside, f"{game} {size}: controls of '{label}' outside the viewport: {outside}"
    if game == "dead-end-drive":
        assert page.locator("[data-testid=hand]").count() == 1
        assert not page.evaluate(OUTSIDE_JS, "[data-testid=hand]"), f"{game} {size}: the hand is off screen"
    assert page.evaluate(OUTSIDE_JS, "#toasts .toast") == []
    if label not in phases:
        phases.add(label)
        PHASES.mkdir(parents=True, exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(PHASES / f"{game}-{size[0]}-{label}.png"))


def decide_lml(page):
    press = page.locator("[data-testid=press]")
    for _attempt in range(3):
        for row in range(8):
            mice = page.locator(f"svg [data-row='{row}'][data-raised='1']")
            if mice.count():
                for i in range(mice.count()):
                    mice.nth(i).click()
                break
        try:
            sync_api.expect(press).to_be_enabled(timeout=5000)
            break
        except AssertionError:
            # A late update redrew the board under the clicks (a loaded machine): choose again.
            settled(page)
    press.click()
    return "select-and-press"


def decide_bt(page, rng):
    buttons = page.locator("[data-controls=booby-trap] button[data-action]")
    if buttons.count():
        page.locator("[data-controls=booby-trap] button[data-action=remove]").click()
        return "remove-or-pass"
    pieces = page.locator("circle.piece.touchable")
    pieces.nth(rng.randrange(pieces.count())).click()
    return "touch"


def decide_mt(page, rng):
    mice = page.locator("[data-mouse].pickable")
    if mice.count():
        mice.first.click()
        return "pick-a-mouse"
    buttons = page.locator("[data-controls=mouse-trap] button[data-action]")
    actions = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
    for prefer in ("crank", "roll", "end"):
        if prefer in actions:
            page.locator(f"[data-controls=mouse-trap] button[data-action='{prefer}']").click()
            return prefer
    choice = actions[rng.randrange(len(actions))]
    page.locator(f"[data-controls=mouse-trap] button[data-action='{choice}']").click()
    return choice.split(":")[0]


def decide_ded(page, traps, rng):
    # the only move (one square to end on, one action): the page plays it, nothing to click
    if page.locator("[data-testid=forced]").count():
        return "forced"
    # (read at once: counted, then read one by one, the squares could be gone in between)
    squares = page.locator("rect[data-dest]").evaluate_all("ns => ns.map((n) => n.dataset.dest)")
    if squares:
        choice = next((sq for sq in squares if sq in traps), rng.choice(squares))
        page.locator(f"rect[data-dest='{choice}']").click()
        return "where-it-ends"
    counts = page.locator("[data-testid=controls] button[data-count]")
    if counts.count():
        counts.nth(rng.randrange(counts.count())).click()
        return "how-far"
    pawns = page.locator("g.pawn[data-movable]")
    if pawns.count():
        pawns.nth(rng.randrange(pawns.count())).click()
        return "pick-a-pawn"
    buttons = page.locator("[data-testid=controls] button[data-action]")
    texts = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
    for prefix in ("spring", "play", "draw", "keep", "change"):
        for t in texts:
            if t.startswith(prefix):
                page.locator(f"[data-testid=controls] button[data-action='{t}']").click()
                return prefix
    # nothing left to click: the page played the only move meanwhile (the caller then waits for the
    # ply to grow, and fails there if the page did not move)
    return "forced"


def play_to_end(server, browser, game, size, seed=3):
    """Create `game` (me against the heuristic AI), click until the end; return (page, created, clicks)."""
    created = create(server, game, GAMES[game], seed=seed)
    errors: list[str] = []
    page = open_page(browser, created["seats"][0]["link"] + "&fast", size, errors)
    page.wait_for_selector("#board svg", timeout=20000)
    rng = random.Random(seed)
    traps = set()
    if game == "dead-end-drive":
        traps = {
            page.locator("rect[data-trap]").nth(i).get_attribute("data-square")
            for i in range(page.locator("rect[data-trap]").count())
        }
    phases: set[str] = set()
    clicks = 0
    marked_last_move = 0  # decisions at which the board marked the last move (issue 14)
    deadline = time.monotonic() + 240
    while True:
        settled(page)
        if page.evaluate("document.body.dataset.terminal") == "1":
            break
        assert time.monotonic() < deadline, f"{game} {size}: no end after {clicks} clicks"
        ply = int(page.evaluate("document.body.dataset.ply"))
        label = page.evaluate(
            "(document.querySelector('[data-phase]') || document.querySelector('[data-testid=turn]') "
            "|| {dataset: {}}).dataset.phase || ''"
        )
        if game == "last-mouse-lost":
            label = "select-and-press"
        elif game == "booby-trap":
            label = "remove-or-pass" if page.locator("[data-controls=booby-trap] button").count() else "touch"
        elif game == "dead-end-drive":
            label = (
                "where-it-ends"
                if page.locator("rect[data-dest]").count()
                else "how-far"
                if page.locator("button[data-count]").count()
                else "pick-a-pawn"
                if page.locator("g.pawn[data-movable]").count()
                else "trap-card"
            )
        check_decision(page, game, size, phases, label or "decide")
        marked_last_move += page.locator("#board [data-last-move]").count() > 0
        if game == "last-mouse-lost":
            decide_lml(page)
        elif game == "booby-trap":
            decide_bt(page, rng)
        elif game == "mouse-trap":
            decide_mt(page, rng)
        else:
            if decide_ded(page, traps, rng) == "forced":
                page.wait_for_function("p => Number(document.body.dataset.ply) > p", arg=ply, timeout=20000)
                continue
        clicks += 1
        if label == "pick-a-pawn":  # picking a pawn sends nothing: its counts are offered next
            # (drawn by the page itself; 20 s: Chromium is slow on a loaded machine), or the pawn's
            # only move is played by the page
            page.wait_for_function(
                "p => document.querySelector('[data-testid=controls] button[data-count]')"
                " || Number(document.body.dataset.ply) > p",
                arg=ply,
                timeout=20000,
            )
            continue
        # The click's move is applied (the ply grows) before the next decision is looked at.
        page.wait_for_function("p => Number(document.body.dataset.ply) > p", arg=ply, timeout=20000)
    assert not errors, errors
    # The last move stays marked on the board until the next (pressed mice, moved mice and pawns,
    # the hole a removed piece left).
    assert marked_last_move > 0, f"{game} {size}: the last move was never marked on the board"
    return page, created, clicks


def check_end_screen(page, game, size):
    end = page.locator("[data-testid=end-screen]")
    end.wait_for(state="visible", timeout=10000)
    text = end.inner_text()
    assert page.locator("#end-title").inner_text().strip()
    # result and why, final scores, and the four ways on
    assert page.locator("[data-testid=end-reason]").count() >= 1, text
    assert page.locator("[data-testid=end-scores] tbody tr").count() == 2, text
    for testid in ("rematch", "new-game", "end-record", "end-replay"):
        assert end.locator(f"[data-testid={testid}]").count() == 1
    assert not page.evaluate(OUTSIDE_JS, "[data-testid=end-screen] .actions > *"), "end buttons off screen"
    # no undo after the end
    assert page.locator("[data-testid=undo]").is_disabled()
    assert page.locator("#typed").is_hidden()
    PHASES.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(PHASES / f"{game}-{size[0]}-end.png"))
    return text


@pytest.mark.timeout(600)
@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_played_to_the_end_by_clicking_with_the_decision_on_screen(server, browser, game, size):
    page, created, clicks = play_to_end(server, browser, game, size)
    assert clicks > 0
    text = check_end_screen(page, game, size)
    view = seat_view(server.url, created["id"], created["seats"][0]["token"])
    assert view["terminal"]
    if game == "dead-end-drive":
        # every hand is on the end screen, the opponent's included (one tap away: issue 39's
        # compact result card)
        page.locator("[data-testid=end-details] > summary").click()
        text = page.locator("[data-testid=end-screen]").inner_text()
        for hand in view["revealed"]["hands"]:
            for letter in hand["characters"] + hand["secret_cards"]:
                assert f"({letter})" in text
    if game in ("mouse-trap", "dead-end-drive") and size[0] < 500:
        # issue 27: a phone shows the whole board (every decision is a 24 px control of the action
        # bar or a magnified square, tests/web/test_boards_fit_browser.py); "Zoom in" draws its
        # squares at 32 px and more, to read it
        sel = "[data-space] > rect" if game == "mouse-trap" else "rect[data-square]"
        if page.locator("[data-testid=close-end]").count():
            page.locator("[data-testid=close-end]").click()
        zoom = page.locator("[data-testid=zoom]")
        # the end shows the whole board; "Zoom in" draws it large
        if zoom.get_attribute("aria-pressed") != "true":
            zoom.click()
        assert zoom.get_attribute("aria-pressed") == "true"
        assert page.locator(sel).first.bounding_box()["width"] >= (32 if game == "mouse-trap" else 24)
        zoom.click()
        last = page.locator(sel).last.bounding_box()
        assert last["x"] + last["width"] <= size[0] + 0.5, last
        zoom.click()
        width = page.locator(sel).first.bounding_box()["width"]
        assert width >= (32 if game == "mouse-trap" else 24), width
    page.context.close()


def test_rematch_link_starts_the_same_game_with_seats_rotated(server, browser):
    created = create(server, "last-mouse-lost", {"first_to": 1, "board": [1, 2]}, seed=1)
    errors: list[str] = []
    page = open_page(browser, created["seats"][0]["link"] + "&fast", (1366, 768), errors)
    page.wait_for_selector("[data-testid=press]")
    while page.evaluate("document.body.dataset.terminal") != "1":
        settled(page)
        if page.evaluate("document.body.dataset.terminal") == "1":
            break
        ply = int(page.evaluate("document.body.dataset.ply"))
        decide_lml(page)
        page.wait_for_function("p => Number(document.body.dataset.ply) > p", arg=ply, timeout=20000)
    page.locator("[data-testid=rematch]").click()
    page.wait_for_function(f"!location.pathname.includes('{created['id']}')", timeout=10000)
    gid = page.url.split("/g/")[1].split("#")[0]
    info = httpx.get(
        f"{server.url}/api/games/{gid}", params={"token": page.url.split("t=")[1].split("&")[0]}, timeout=30
    ).json()
    assert info["info"]["seat"] == 1  # I moved one seat along
    assert [p["kind"] for p in info["info"]["players"]] == ["agent", "human"]
    assert info["info"]["options"]["board"] == [1, 2] and info["info"]["options"]["first_to"] == 1
    assert not errors
    page.context.close()


def drive_to_end_by_api(server, created, rng):
    tokens = [s["token"] for s in created["seats"]]
    gid = created["id"]
    seen_before_end = []
    for _ in range(3000):
        views = [seat_view(server.url, gid, t) for t in tokens]
        if views[0]["terminal"]:
            return views, seen_before_end
        seen_before_end.append(views + [seat_view(server.url, gid, created["spectator"]["token"])])
        mover = next((s for s, v in enumerate(views) if v["legal_actions"]), None)
        if mover is None:
            time.sleep(0.02)
            continue
        text = rng.choice(views[mover]["legal_actions"])["text"]
        state = httpx.get(
            f"{server.url}/api/games/{gid}", params={"token": tokens[mover]}, timeout=30
        ).json()["state"]
        ply = state["ply"]
        move = {"token": tokens[mover], "action": text, "ply": ply}
        r = httpx.post(f"{server.url}/api/games/{gid}/moves", json=move, timeout=30)
        assert r.status_code < 300 or r.status_code == 409, r.text
    raise AssertionError("no end")


def test_dead_end_drive_secrets_revealed_to_every_seat_and_the_spectator_only_after_the_end(server, browser):
    created = create(
        server,
        "dead-end-drive",
        {"players": 3, "turn_limit": 6},
        seats=[{"kind": "human"}] * 3,
        seed=8,
    )
    views, before = drive_to_end_by_api(server, created, random.Random(2))
    assert before and all("revealed" not in v for snap in before for v in snap)
    spectator = seat_view(server.url, created["id"], created["spectator"]["token"])
    revealed = [v["revealed"] for v in views] + [spectator["revealed"]]
    assert all(r == revealed[0] for r in revealed)  # the same to everyone
    hands = revealed[0]["hands"]
    assert [h["seat"] for h in hands] == [0, 1, 2]
    # the hands the seats held in secret are the ones now shown
    for seat, v in enumerate(views):
        assert hands[seat]["characters"] == v["my_characters"]
        assert hands[seat]["trap_cards"] == v["my_trap_cards"]
    frame = revealed[0]["portrait_cycle"] + revealed[0]["portraits_never_shown"]
    assert len(frame) == len(set(frame))
    # The spectator's page shows them on the end screen.
    errors: list[str] = []
    page = open_page(browser, created["spectator"]["link"] + "&fast", (1366, 768), errors)
    page.wait_for_selector("[data-testid=end-screen]", state="visible", timeout=20000)
    # issue 39: a compact result card; the cards are one tap away under its buttons
    page.locator("[data-testid=end-details] > summary").click()
    secrets = page.locator("[data-testid=end-secrets]").all_inner_texts()
    assert len(secrets) == 2
    for h in hands:
        for letter in h["characters"]:
            assert f"({letter})" in secrets[0]
    assert "on the wall" in secrets[1]
    assert not errors
    page.context.close()


def test_spectator_page_shows_no_move_controls(server, browser):
    created = create(server, "booby-trap", GAMES["booby-trap"], seats=[{"kind": "human"}, {"kind": "human"}])
    errors: list[str] = []
    page = open_page(browser, created["spectator"]["link"] + "&fast", (1366, 768), errors)
    page.wait_for_selector("svg[data-tray]")
    page.wait_for_function("document.body.dataset.busy === '0'")
    assert page.locator("#typed").is_hidden()
    assert page.locator("[data-testid=hint]").is_hidden() and page.locator("[data-testid=undo]").is_hidden()
    assert page.locator("#bar button").count() == 0
    assert page.locator("#board [data-kbd][tabindex='0']").count() == 0
    assert page.locator("circle.piece.touchable").count() == 0
    assert not errors
    page.context.close()


def test_empty_replay_page_shows_no_controls(server, browser):
    errors: list[str] = []
    page = open_page(browser, server.url + "/replay", (1366, 768), errors)
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#player").is_hidden()
    for sel in ("[data-testid=next]", "[data-testid=prev]", "#play", "#slider"):
        assert page.locator(sel).is_hidden(), sel
    assert not errors
    page.context.close()


def test_download_record_mid_game_is_refused_with_a_reason_on_the_page(server, browser):
    created = create(server, "dead-end-drive", {"players": 2})
    errors: list[str] = []
    page = open_page(browser, created["seats"][0]["link"] + "&fast", (1366, 768), errors)
    page.wait_for_selector("svg[data-board]")
    # My turn, everything drawn: an agent's move drawn after the refusal would take the message
    # away with it (a new move drops the messages of the moment before), not the test's point.
    settled(page)
    page.locator("[data-testid=record]").click()
    toast = page.locator("[data-message=error]")
    toast.wait_for(timeout=20000)  # a round trip to the server on a loaded machine
    assert "hidden information" in toast.inner_text() and "once the game is over" in toast.inner_text()
    # the message stays until closed
    page.wait_for_timeout(500)
    assert toast.count() == 1
    page.locator("#toasts .close").click()
    assert toast.count() == 0
    assert not errors
    page.context.close()


def test_double_clicked_remove_is_sent_once_and_shows_no_error(server, browser):
    created = create(server, "booby-trap", GAMES["booby-trap"], seats=[{"kind": "human"}, {"kind": "human"}])
    errors: list[str] = []
    page = open_page(browser, created["seats"][0]["link"] + "&fast", (1366, 768), errors)
    page.wait_for_selector("circle.piece.touchable")
    page.locator("circle.piece.touchable").first.click()
    page.wait_for_selector("[data-controls=booby-trap] button[data-action=remove]")
    page.locator("[data-controls=booby-trap] button[data-action=remove]").dblclick()
    page.wait_for_function("document.body.dataset.ply === '2' && document.body.dataset.busy === '0'")
    page.wait_for_timeout(500)
    assert page.locator("[data-message=error]").count() == 0
    assert int(page.evaluate("document.body.dataset.ply")) == 2  # touch + one removal
    assert not errors
    page.context.close()


def test_keyboard_play_tab_arrows_and_enter(server, browser):
    created = create(server, "last-mouse-lost", {"first_to": 1})
    errors: list[str] = []
    page = open_page(browser, created["seats"][0]["link"] + "&fast", (1366, 768), errors)
    page.wait_for_selector("[data-testid=press]")
    settled(page)
    # Tab from the top of the page reaches a mouse of the board (a labelled button).
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('#board [data-kbd]')"):
            break
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label and label.startswith("Row ")
    page.keyboard.press("ArrowRight")  # the next mouse of the row
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") != label
    page.keyboard.press("Enter")  # select it: with the basic rules, it and the raised mice right of it
    # (what goes down when pressed: the rightmost mice of the row, issue 39's "what you tap")
    expected = page.evaluate(
        """() => {
          const a = document.activeElement;
          return [...document.querySelectorAll(`.mouse[data-row="${a.dataset.row}"][data-raised="1"]`)]
            .filter((m) => +m.dataset.mouse >= +a.dataset.mouse).length;
        }"""
    )
    assert expected >= 1 and page.locator(".mouse.selected").count() == expected
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
    row = page.evaluate("document.activeElement.dataset.row")
    page.locator("[data-testid=press]").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("Number(document.body.dataset.ply) >= 1")
    assert any(
        e["text"].startswith("abcdef"[int(row)])
        for e in httpx.get(
            f"{server.url}/api/games/{created['id']}",
            params={"token": created["seats"][0]["token"]},
            timeout=30,
        ).json()["state"]["log"][:1]
    )
    # what happened is spoken: the live region has text
    page.wait_for_function("document.getElementById('live').textContent.length > 0")
    assert not errors
    page.context.close()


def axe_serious(page):
    assert AXE.exists(), "axe-core is not installed: cd tests/web/axe && npm ci"
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} :: {[n['target'] for n in v['nodes']][:4]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.timeout(300)
def test_axe_finds_no_serious_or_critical_violation(server, browser):
    errors: list[str] = []
    found: dict[str, list[str]] = {}
    page = open_page(browser, server.url + "/", (1366, 768), errors)
    page.wait_for_selector("body[data-ready='1']")
    found["lobby"] = axe_serious(page)
    page.context.close()
    for game, options in GAMES.items():
        created = create(server, game, options)
        page = open_page(browser, created["seats"][0]["link"] + "&fast", (1366, 768), errors)
        page.wait_for_selector("#board svg")
        settled(page)
        found[game] = axe_serious(page)
        page.context.close()
    # the end screen and the replay page: a short finished game of Last Mouse Lost
    created = create(server, "last-mouse-lost", {"first_to": 1, "board": [1, 2]}, seed=1)
    token = created["seats"][0]["token"]
    page = open_page(browser, created["seats"][0]["link"] + "&fast", (1366, 768), errors)
    page.wait_for_selector("[data-testid=press]")
    while True:
        settled(page)
        if page.evaluate("document.body.dataset.terminal") == "1":
            break
        ply = int(page.evaluate("document.body.dataset.ply"))
        decide_lml(page)
        page.wait_for_function("p => Number(document.body.dataset.ply) > p", arg=ply, timeout=20000)
    page.wait_for_selector("[data-testid=end-screen]", state="visible")
    found["end screen"] = axe_serious(page)
    page.goto(f"{server.url}/replay#g={created['id']}&t={token}&fast=1")
    page.wait_for_selector("body[data-ready='1']")
    found["replay"] = axe_serious(page)
    page.context.close()
    (ARTIFACTS / "axe.json").parent.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "axe.json").write_text(json.dumps(found, indent=1))
    assert not any(found.values()), found
    assert not errors


@pytest.mark.timeout(300)
def test_axe_on_a_phone_where_the_boards_pan(server, browser):
    """On a phone, zoomed in, Mouse Trap's board (up and down: drawn turned) and 13 Dead End Drive's
    mansion (sideways) scroll: a keyboard must reach them (axe: scrollable-region-focusable), also
    when nothing on them is to be clicked. (Unzoomed, the whole board fits the screen:
    test_boards_fit_browser.py.)"""
    errors: list[str] = []
    found: dict[str, list[str]] = {}
    for game in ("mouse-trap", "dead-end-drive"):
        created = create(server, game, GAMES[game])
        page = open_page(browser, created["seats"][0]["link"] + "&fast", (390, 844), errors)
        page.wait_for_selector("#board svg")
        settled(page)
        zoom = page.locator("[data-testid=zoom]")
        if zoom.get_attribute("aria-pressed") != "true":  # a phone upright starts with the whole board
            zoom.click()  # "Zoom in": the board drawn large, it pans
        settled(page)
        # (Mouse Trap upright on a phone is drawn turned a quarter: it pans up and down.)
        assert page.evaluate(
            "(() => { const p = document.querySelector('.board-pan');"
            " return p.scrollWidth > p.clientWidth || p.scrollHeight > p.clientHeight; })()"
        ), f"{game}: the board does not pan"
        found[game] = axe_serious(page)
        page.context.close()
    assert not any(found.values()), found
    assert not errors


def tab_to(page, selector, back=False, limit=120):
    """Press Tab (Shift+Tab when back) until the focused element matches selector."""
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        if page.evaluate("s => !!(document.activeElement && document.activeElement.matches(s))", selector):
            return page.evaluate(
                "document.activeElement.getAttribute('aria-label') || document.activeElement.textContent"
            )
    raise AssertionError(f"Tab never reached {selector}")


def test_keyboard_play_booby_trap_and_dead_end_drive(server, browser):
    errors: list[str] = []
    # Booby Trap: Tab to a piece, Enter touches it, Tab to Remove, Enter removes it.
    created = create(server, "booby-trap", GAMES["booby-trap"], seats=[{"kind": "human"}, {"kind": "human"}])
    page = open_page(browser, created["seats"][0]["link"] + "&fast", (1366, 768), errors)
    page.wait_for_selector("circle.piece.touchable")
    settled(page)
    label = tab_to(page, "circle.piece.touchable")
    assert "piece" in label and "touch it" in label
    page.keyboard.press("Enter")
    page.wait_for_function("document.body.dataset.ply === '1' && document.body.dataset.busy === '0'")
    tab_to(page, "[data-controls=booby-trap] button[data-action=remove]")
    page.keyboard.press("Enter")
    page.wait_for_function("Number(document.body.dataset.ply) >= 2")
    page.context.close()
    # 13 Dead End Drive: Tab to a pawn, Enter picks it, Tab to a count, Enter, back to a square, Enter.
    created = create(server, "dead-end-drive", {"players": 2, "first_player": 1})
    page = open_page(browser, created["seats"][0]["link"] + "&fast", (1366, 768), errors)
    page.wait_for_selector("g.pawn[data-movable]")
    settled(page)
    label = tab_to(page, "g.pawn[data-movable]")
    assert label.startswith("Pawn ") and "pick it" in label
    page.keyboard.press("ArrowRight")  # the arrows move between the pawns that may move
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=controls] button[data-count]")
    ply = int(page.evaluate("document.body.dataset.ply"))
    tab_to(page, "[data-testid=controls] button[data-count]")
    page.keyboard.press("Enter")
    page.wait_for_function("p => Number(document.body.dataset.ply) > p", arg=ply)
    # one square to end on: the page plays it (the forced move), else Tab back to a square, Enter
    page.wait_for_function(
        "p => document.querySelector('rect[data-dest]') || Number(document.body.dataset.ply) > p + 1", arg=ply
    )
    if not page.locator("[data-testid=forced]").count() and page.locator("rect[data-dest]").count():
        settled(page)
        ply = int(page.evaluate("document.body.dataset.ply"))
        label = tab_to(page, "rect[data-dest]", back=True)
        assert label.startswith("Square ")
        page.keyboard.press("Enter")
        page.wait_for_function("p => Number(document.body.dataset.ply) > p", arg=ply)
    else:
        page.wait_for_function("p => Number(document.body.dataset.ply) > p + 1", arg=ply)
    assert not errors
    page.context.close()
