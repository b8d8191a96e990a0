"""13 Dead End Drive through the web platform.

- In headless Chromium: a 4-seat game (one human clicking, three heuristic agents) played until a
  trap is sprung; other players' hands are never on the page; hot seat hides each hand between turns.
- Without a browser: every payload the platform sends each seat along a game (views, events, log,
  records) is scanned for the other seats' secrets.
"""

from __future__ import annotations

import json
import random
import time

import httpx
import pytest

from trapworks.core import GameRecord

from .web_helpers import ARTIFACTS, seat_view, settled_with_server


@pytest.fixture(scope="module")
def server(inprocess_server):
    return inprocess_server


def human_step(page, trap_squares: set[str], pick: int = 0) -> bool:
    """One click of the human seat: reveal, pick a pawn and a count, pick a square (a trap if it can),
    or press the best action button (spring > play > draw > keep > the rest). True when the click
    sends a move (the caller waits for it: until its update comes the page shows the moment before)."""
    curtain = page.locator("[data-testid=reveal-hand]")
    if curtain.count():
        curtain.click()
        return False
    # (read at once: counted, then read one by one, the squares could be gone in between)
    squares = page.locator("rect[data-dest]").evaluate_all("ns => ns.map((n) => n.dataset.dest)")
    if squares:
        choice = next((sq for sq in squares if sq in trap_squares), None) or squares[0]
        page.locator(f"rect[data-dest='{choice}']").click()
        return True
    counts = page.locator("[data-testid=controls] button[data-count]")
    if counts.count():
        counts.first.click()
        return True
    pawns = page.locator("g.pawn[data-movable]")
    if pawns.count():
        pawns.nth(pick % pawns.count()).click()
        return False
    buttons = page.locator("[data-testid=controls] button[data-action]")
    texts = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
    for prefix in ("spring", "play", "draw", "keep", "change"):
        for t in texts:
            if t.startswith(prefix):
                page.locator(f"[data-testid=controls] button[data-action='{t}']").click()
                return True
    return False


MOVED_OR_OVER = "p => Number(document.body.dataset.ply) > p || document.body.dataset.terminal === '1'"


def play_until_sprung(server, page, seed: int) -> tuple[str, str, int, bool]:
    """Create a game (human seat 1, three heuristic agents), click until a trap springs or the game
    ends; return (game id, token, clicks, sprung)."""
    created = httpx.post(
        server + "/api/games",
        json={
            "game": "dead-end-drive",
            "options": {"players": 4},
            "seed": seed,
            "seats": [{"kind": "human"}] + [{"kind": "agent", "agent": "heuristic"}] * 3,
        },
        timeout=30,
    ).json()
    gid = created["id"]
    token = created["seats"][0]["token"]
    page.goto(created["seats"][0]["link"] + "&fast")
    page.wait_for_selector("svg[data-board='dead-end-drive'] rect[data-square]", timeout=20000)
    trap_squares = {page.locator("rect[data-trap]").nth(i).get_attribute("data-square") for i in range(5)}
    clicks = 0
    deadline = time.monotonic() + 90
    board = page.locator("svg[data-board='dead-end-drive']")
    while time.monotonic() < deadline:
        if int(board.get_attribute("data-sprung") or 0) >= 1:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "dead-end-drive-sprung.png"))
            return gid, token, clicks, True
        if seat_view(server, gid, token)["terminal"]:
            break
        if page.evaluate("document.body.dataset.myTurn") == "1":
            ply = int(page.evaluate("document.body.dataset.ply"))
            if human_step(page, trap_squares, pick=clicks):
                page.wait_for_function(MOVED_OR_OVER, arg=ply, timeout=30000)
            clicks += 1
        page.wait_for_timeout(80)
    return gid, token, clicks, int(board.get_attribute("data-sprung") or 0) >= 1


SIDE = """() => {
  const log = document.getElementById('log').getBoundingClientRect();
  return {
    headings: [...document.querySelectorAll('#side h2')].filter((h) => h.getClientRects().length)
      .map((h) => h.textContent),
    playersShown: document.getElementById('players').getClientRects().length > 0,
    logTop: log.top, logHigh: log.height, vh: innerHeight,
  };
}"""


@pytest.mark.browser
def test_four_seats_one_human_until_a_trap_is_sprung(server, browser):
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # A game can end (an escape) before any trap springs: then a new game, at most four.
    for seed in (12, 13, 14, 15):
        gid, token, clicks, sprung = play_until_sprung(server, page, seed)
        if sprung:
            break
    assert sprung, "no trap was sprung in four games"
    # The mansion: walls, furniture, rugs, 12 Red Chairs, 5 traps, 5 passages, the door, the track.
    for selector, expected in (
        ("rect[data-chair]", 12),
        ("rect[data-trap]", 5),
        ("rect[data-passage]", 5),
        ("rect[data-door]", 1),
        ("rect[data-game-over]", 1),
    ):
        assert page.locator(selector).count() == expected, selector
    assert page.locator("rect[data-furniture]").count() >= 8 and page.locator("rect[data-rug]").count() > 10
    assert page.locator("[data-detective]").count() == 1
    assert clicks > 0
    # Once the agents wait for me (or the game is over) and the page has drawn that position: the
    # page and the server's view agree (read while the agents still moved, they did not always).
    view = settled_with_server(page, server, gid, token)["view"]
    off = [p for p in view["pawns"] if p["status"] == "knocked off"]
    assert off and page.locator(f"[data-off='{off[0]['letter']}']").count() == 1
    page.wait_for_function(f"document.querySelectorAll('g.pawn').length === {12 - len(off)}", timeout=20000)
    # The portrait on the wall and my hand are shown; other players' hands never are.
    assert page.locator("[data-testid=portrait]").get_attribute("data-portrait") == (view["portrait"] or "")
    shown = {
        page.locator("[data-character]").nth(i).get_attribute("data-character")
        for i in range(page.locator("[data-character]").count())
    }
    assert shown == set(view["my_characters"])
    # The side at a desktop's 1440x900 (issue 39, judge 6): the strips say who plays (no second
    # Players list), no "What happened" list repeating the log, and the Moves log in view.
    page.set_viewport_size({"width": 1440, "height": 900})
    side = page.evaluate(SIDE)
    assert "What happened" not in side["headings"] and not side["playersShown"], side
    assert side["logTop"] < side["vh"] - 150 and side["logHigh"] >= 150, side
    assert errors == []
    page.close()


@pytest.mark.browser
def test_hot_seat_hides_each_hand_between_turns(server, browser):
    created = httpx.post(
        server + "/api/games",
        json={
            "game": "dead-end-drive",
            "options": {"players": 2, "first_player": 1},
            "seats": [{"kind": "human"}, {"kind": "human"}],
        },
        timeout=30,
    ).json()
    gid = created["id"]
    t0, t1 = created["seats"][0]["token"], created["seats"][1]["token"]
    # Hot seat: one browser holds both seats (it opened seat 2's link too), so one screen.
    context = browser.new_context()
    page = context.new_page()
    page.goto(created["seats"][1]["link"] + "&fast")
    page.wait_for_selector("body[data-ply]", timeout=20000)
    page.goto("about:blank")  # (another seat's link differs only after the #: load it afresh)
    page.goto(created["seats"][0]["link"] + "&fast")
    # Issue 27: one page plays both seats; the page's curtain stands before any hand is drawn.
    page.wait_for_selector("[data-testid=curtain-ready]", timeout=20000)
    assert page.locator("[data-character]").count() == 0  # hidden behind the curtain
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dead-end-drive-hot-seat-curtain.png"))
    page.locator("[data-testid=curtain-ready]").click()
    page.wait_for_selector("[data-character]", timeout=20000)
    seat = int(page.evaluate("document.body.dataset.seat"))
    tokens = [t0, t1]
    mine = set(seat_view(server, gid, tokens[seat])["my_characters"])
    assert {
        page.locator("[data-character]").nth(i).get_attribute("data-character")
        for i in range(page.locator("[data-character]").count())
    } == mine
    # Play the turn by clicks until it is the other seat's: the curtain comes back, no hand shows.
    # (By a deadline, not a count of tries: on a loaded machine a click may land while the page is
    # still drawing; clicks only on a page that has drawn all it was sent.)
    deadline = time.monotonic() + 120
    while page.evaluate("document.body.dataset.curtain") != "1":
        assert time.monotonic() < deadline, "the turn never passed to the other seat"
        if seat_view(server, gid, tokens[seat])["turn_of"] != seat:
            page.wait_for_timeout(200)
            continue
        page.wait_for_function(
            "document.body.dataset.curtain === '1' || document.body.dataset.busy === '0'", timeout=30000
        )
        if page.evaluate("document.body.dataset.curtain") != "1":
            ply = int(page.evaluate("document.body.dataset.ply"))
            if human_step(page, set()):
                page.wait_for_function(
                    "p => Number(document.body.dataset.ply) > p || document.body.dataset.curtain === '1'",
                    arg=ply,
                    timeout=30000,
                )
        page.wait_for_timeout(120)
    # (the last move's round trip, then the page switching seats: generous on a loaded machine)
    page.wait_for_selector("[data-testid=curtain-ready]", timeout=30000)
    assert page.locator("[data-character]:visible").count() == 0
    # The other player at the screen: their own hand, the same page.
    page.locator("[data-testid=curtain-ready]").click()
    other = 1 - seat
    page.wait_for_function(f"document.body.dataset.seat === '{other}'", timeout=30000)
    page.wait_for_selector("[data-character]", timeout=20000)
    theirs = set(seat_view(server, gid, tokens[other])["my_characters"])
    assert {
        page.locator("[data-character]").nth(i).get_attribute("data-character")
        for i in range(page.locator("[data-character]").count())
    } == theirs
    context.close()


def test_platform_sends_no_seat_anothers_secrets(client):
    """Drive a 3-player game (all human seats) through the REST API with random legal moves; collect
    everything sent to each seat; at the end replay the record and check every payload."""
    created = client.post(
        "/api/games",
        json={
            "game": "dead-end-drive",
            "options": {"players": 3, "turn_limit": 25},
            "seats": [{"kind": "human"}] * 3,
        },
    ).json()
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    rng = random.Random(4)
    payloads: list[tuple[int, dict]] = []

    def fetch(seat):
        r = client.get(f"/api/games/{gid}", params={"token": tokens[seat]})
        assert r.status_code == 200
        return r.json()["state"]

    for _ in range(600):
        snaps = [fetch(s) for s in range(3)]
        payloads += list(enumerate(snaps))
        if snaps[0]["terminal"]:
            break
        mover = snaps[0]["to_move"]
        if mover is None:
            time.sleep(0.01)  # the server resolves chance
            continue
        # before the end, the record (which holds every secret) is refused
        assert client.get(f"/api/games/{gid}/record", params={"token": tokens[mover]}).status_code == 403
        text = rng.choice(snaps[mover]["view"]["legal_actions"])["text"]
        r = client.post(
            f"/api/games/{gid}/moves",
            json={"token": tokens[mover], "action": text, "ply": snaps[mover]["ply"]},
        )
        assert r.status_code < 300, r.text
    assert payloads[-1][1]["terminal"]
    record = GameRecord.from_dict(client.get(f"/api/games/{gid}/record", params={"token": tokens[0]}).json())
    states = list(record.states())
    checked = 0
    for seat, snap in payloads:
        state = states[snap["ply"]]
        # the platform sends exactly the seat's view and events: nothing is added
        assert snap["view"] == json.loads(json.dumps(state.view(seat)))
        if snap["terminal"]:
            continue
        # and that view is the same whatever the other seats hold (redrawn three times)
        for k in range(3):
            assert json.loads(json.dumps(state.resample(seat, random.Random(k)).view(seat))) == snap["view"]
        # other seats' action texts (and chance texts) are withheld in the log
        for entry in snap.get("log") or []:
            if entry["seat"] != seat:
                assert entry["text"] is None
        last = snap["last_action"]
        if last and last["seat"] != seat:
            assert last["text"] is None
        text = json.dumps(snap)
        assert state.position() not in text and "pile=" not in text
        checked += 1
    assert checked > 100


@pytest.mark.browser
def test_pawns_are_their_characters_and_the_prompt_names_them(server, browser):
    """Issue 39 (judge: 13 Dead End Drive 6/10): small lettered pawns, a prompt with a letter
    ("Click a green square for K (4)"), the players listed a second time beside the board. Now a
    pawn is its character's face in its colour (the letter on a small tab), big enough to tell on
    a phone; the prompt says the character's name; beside the board the hands' sizes, not a list."""
    created = httpx.post(
        server + "/api/games",
        json={
            "game": "dead-end-drive",
            "options": {"players": 2},
            # a known deal: our first turn is a pawn to move (not doubles' portrait question)
            "seed": 3,
            "seats": [{"kind": "human"}, {"kind": "agent", "agent": "easy"}],
        },
        timeout=30,
    ).json()
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(created["seats"][0]["link"] + "&fast")
    page.wait_for_selector("body[data-my-turn='1'] g.pawn[data-movable]", timeout=30000)
    pawns = page.locator("g.pawn")
    assert pawns.count() == 12
    assert page.locator("g.pawn [data-face]").count() == 12  # every pawn wears its face
    # the same face as the portrait of that letter
    faces = page.locator("g.pawn").evaluate_all(
        "gs => gs.map((g) => [g.dataset.pawn, g.querySelector('[data-face]').dataset.face])"
    )
    assert all(letter == face for letter, face in faces), faces
    pawn_size = (
        "Math.min(...[...document.querySelectorAll('g.pawn circle.body')]"
        ".map((c) => c.getBoundingClientRect().width))"
    )
    # the whole mansion in view (issue 39 judge): its pawns are faces a player tells apart, and
    # picking one is a button in the bar; "Zoom in" draws them at 18 px and more
    assert page.evaluate(pawn_size) >= 14, page.evaluate(pawn_size)
    page.locator("[data-testid=zoom]").click()
    assert page.evaluate(pawn_size) >= 18, page.evaluate(pawn_size)
    page.locator("[data-testid=zoom]").click()
    assert "hands hidden" not in page.inner_text("body")
    assert page.locator("table.ded-hands tbody[data-seat-cards]").count() == 2
    # your turn is a sentence to you, not "You — pick a pawn to move" (French read "Vous — a fait
    # un double" for doubles: the third judge)
    assert page.inner_text("[data-testid=turn]") == "Pick a pawn to move."
    # pick a pawn, then a count: the prompt names the character
    pawn = page.locator("g.pawn[data-movable]").first
    letter = pawn.get_attribute("data-pawn")
    name = next(
        p["name"]
        for p in seat_view(server, created["id"], created["seats"][0]["token"])["pawns"]
        if p["letter"] == letter
    )
    pawn.click()
    counts = page.locator("[data-testid=controls] button[data-count]")
    if counts.count():
        counts.first.click()
        page.wait_for_selector("[data-testid=controls] .muted", timeout=20000)
        prompt = page.inner_text("[data-testid=controls]")
        assert name in prompt and f"for {letter} (" not in prompt, prompt
    else:  # one count only: the squares are offered at once, each named with the character
        label = page.locator("[data-to]").first.get_attribute("aria-label") or ""
        assert name in label, label
    assert errors == []
    ctx.close()


# The share of the board's drawing (as far as it is on the screen) that the end card covers.
COVERED = """(board) => {
  // the drawing as far as its box shows it (a zoomed board pans inside the board's area)
  const d = document.querySelector(board).getBoundingClientRect();
  const box = document.querySelector('#board > .board-pan') || document.querySelector('.board-area');
  const a = box.getBoundingClientRect();
  const b = { top: Math.max(d.top, a.top), bottom: Math.min(d.bottom, a.bottom),
              left: Math.max(d.left, a.left), right: Math.min(d.right, a.right) };
  const e = document.querySelector('[data-testid=end-screen]').getBoundingClientRect();
  const top = Math.max(b.top, 0), bottom = Math.min(b.bottom, innerHeight);
  const left = Math.max(b.left, 0), right = Math.min(b.right, innerWidth);
  const area = Math.max(0, bottom - top) * Math.max(0, right - left);
  const w = Math.max(0, Math.min(right, e.right) - Math.max(left, e.left));
  const h = Math.max(0, Math.min(bottom, e.bottom) - Math.max(top, e.top));
  return area ? (w * h) / area : 1;
}"""


@pytest.mark.browser
@pytest.mark.parametrize("game", ["dead-end-drive", "booby-trap"])
def test_the_end_card_leaves_the_final_board_in_view(server, browser, game):
    """Issue 39 (judge): the end card covered the board. Beside it on a desktop and on a phone
    on its side; on a phone upright a sheet at the bottom, the board drawn in the room above it."""
    created = httpx.post(
        server + "/api/games",
        json={
            "game": game,
            "options": {"players": 2} if game == "dead-end-drive" else {},
            "seats": [{"kind": "agent", "agent": "easy"}, {"kind": "agent", "agent": "easy"}],
        },
        timeout=30,
    ).json()
    deadline = time.monotonic() + 120  # the computer plays both seats to the end (a few seconds)
    while not httpx.get(
        f"{server}/api/games/{created['id']}", params={"token": created["spectator"]["token"]}, timeout=30
    ).json()["state"]["terminal"]:
        assert time.monotonic() < deadline, "the computer's game did not end"
        time.sleep(0.5)
    for size in ((1366, 800), (1024, 768), (844, 390), (390, 844)):
        ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
        page = ctx.new_page()
        page.goto(created["spectator"]["link"] + "&fast")
        page.wait_for_selector("[data-testid=end-screen]:not([hidden])", timeout=60000)
        page.wait_for_timeout(200)  # the last drawing
        page.screenshot(path=str(ARTIFACTS / f"end-card-{game}-{size[0]}x{size[1]}.png"))
        covered = page.evaluate(COVERED, "svg.ded-board" if game == "dead-end-drive" else "svg[data-tray]")
        assert covered <= 0.01, (size, covered)
        ctx.close()
