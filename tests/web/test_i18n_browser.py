"""The French interface with no English string left, and axe-core clean in French (issue 27).

A French browser (locale fr-FR) walks the lobby and every game's page at the start, mid-game and
at the end, at 1366x768 and 390x844. On each page every visible text (and each visible element's
aria-label, title, placeholder and alt) is compared with the English catalog: a message of the
interface, of the server or of a game (the log's story, the option lists) shown in English fails
the test. Proper nouns (the games' titles, 13 Dead End Drive's heirs, players' names), numbers and
move notation are allowed. axe-core finds no violation of any impact on any of those pages.
Screenshots: artifacts/web/i18n/<page>-<stage>-<width>.png.
"""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path

import httpx
import pytest

from trapworks.server.i18n import catalog

from .web_helpers import ARTIFACTS, CHROMIUM, ServerProcess, open_new_game

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
]

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = ARTIFACTS / "i18n"
SIZES = [(1366, 768), (390, 844)]
# Short games, one human seat against the random agent (it plays at once).
GAMES = {
    "last-mouse-lost": {"first_to": 1},
    "booby-trap": {"pieces_per_size": 3},
    "mouse-trap": {"players": 2},
    "dead-end-drive": {"players": 2, "turn_limit": 6},
}
MID_MOVES = 2  # the human seat's moves before the mid-game page

# Where a renderer draws (its board, its action bar, its side panel, its part of the end screen).
RENDERER_PARTS = (
    "#board, #bar, #side-extra, #end-screen > [data-testid=end-reason], [data-testid=end-scores], "
    "[data-testid=end-secrets], #end-screen > h3"
)

VISIBLE_TEXT = """
(skip) => {
  // Every text a player sees: the page's visible text (innerText leaves hidden parts out) and
  // the words a screen reader or a tooltip gives, of visible elements only. `skip`: parts left
  // out (hidden for the reading, then shown again).
  const drop = skip ? [...document.querySelectorAll(skip)] : [];
  const before = drop.map((d) => d.style.display);
  drop.forEach((d) => { d.style.display = 'none'; });
  const shown = (n) => !!(n.offsetWidth || n.offsetHeight || n.getClientRects().length);
  const parts = [document.body.innerText, document.title];
  for (const n of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    if (!shown(n) && !(n.closest('svg') && shown(n.closest('svg')))) continue;
    for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
      if (n.getAttribute(a)) parts.push(n.getAttribute(a));
    }
  }
  for (const n of document.querySelectorAll('svg title')) {
    if (shown(n.closest('svg'))) parts.push(n.textContent);
  }
  drop.forEach((d, i) => { d.style.display = before[i]; });
  return parts.join('\\n');
}
"""

ONLY_TEXT = """
(sel) => {
  const parts = [];
  for (const root of document.querySelectorAll(sel)) {
    parts.push(root.innerText || '');
    for (const n of root.querySelectorAll('[aria-label], [title]')) {
      for (const a of ['aria-label', 'title']) if (n.getAttribute(a)) parts.push(n.getAttribute(a));
    }
  }
  return parts.join('\\n');
}
"""


def proper_nouns() -> list[str]:
    """Words that stay as they are in French: the games' titles, the heirs of 13 Dead End Drive."""
    from trapworks.core.registry import available_games, game_class
    from trapworks.games.dead_end_drive.components import NAMES

    return sorted({game_class(g).title for g in available_games()} | set(NAMES) | {"trapworks"}, key=len)[
        ::-1
    ]


def english_probes() -> list[tuple[str, re.Pattern[str]]]:
    """(English message, a regex finding it in a text) for each message French says otherwise:
    a message without placeholders as whole words; a pattern by its fixed fragments of two words
    or more (a fragment French shares is no probe)."""
    fr = catalog("fr")["messages"]
    french_text = " ".join(v if isinstance(v, str) else " ".join(v) for v in fr.values())
    probes = []
    for m, tr in fr.items():
        if isinstance(tr, list):
            tr = tr[0]
        if tr == m:
            continue
        fragments = [f.strip(" :;,.()\"'") for f in re.split(r"\{\w+(?::[^{}]*)?\}", m)]
        for f in fragments:
            if len(f) < 4 or not re.search(r"[A-Za-z]{3}", f):
                continue
            if "{" not in m or (" " in f and len(f) >= 8):
                if f in french_text and "{" in m:
                    continue
                # A word French writes too ("Pile", the Mouse Trap cheese pile: "Pile de fromage")
                # is no sign of English.
                if re.search(r"(?<![\w-])" + re.escape(f) + r"(?![\w-])", french_text):
                    continue
                probes.append((m, re.compile(r"(?<![\w-])" + re.escape(f) + r"(?![\w-])")))
    return probes


# Common English words that are no French word: a second net for sentences no message holds.
ENGLISH_WORDS = re.compile(
    r"\b(the|and|you|your|You|Your|with|of|to|is|are|in|for|by|from|this|that|it|my|My|"
    r"player|Player|Players|turn|moves|moved|wins|won|round|mice|mouse|cheese|piece|pieces|card|cards|"
    r"board|square|squares|dice|pressed|Press|Clear|Pass|remove|Remove|touch|roll|Roll|waiting|"
    r"rematch|Rematch|Resign|resign|Hint|Undo|Send|Close|Settings|Rules|Lobby|Replay|Download|"
    r"Copy|Create|Show|Back|New|Log|Sign|Leaderboards?|Game|game|over)\b"
)


def english_left(text: str, probes, names: list[str]) -> list[str]:
    for n in names:
        text = text.replace(n, " ")
    text = re.sub(r"\{[^{}]*\}", " ", text)  # a JSON example of an option's value is code
    # Move notation quoted in the help ('touch 17', 'roll'): code, not words (an opening quote
    # after a letter is a French apostrophe: l'Abri).
    text = re.sub(r"(?<![^\W\d_])'[^'\n]{1,40}'(?![^\W\d_])", " ", text)
    found = sorted(
        {
            f"{m!r} in {text[max(0, x.start() - 30) : x.end() + 30]!r}"
            for m, rx in probes
            if (x := rx.search(text))
        }
    )
    found += sorted(
        {
            f"word {w.group(0)!r} in {text[max(0, w.start() - 30) : w.end() + 30]!r}"
            for w in ENGLISH_WORDS.finditer(text)
        }
    )
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("i18n-walk-home")).start()
    yield s
    s.stop()


def create(server, game):
    body = {
        "game": game,
        "options": GAMES[game],
        "seats": [{"kind": "human"}, {"kind": "agent", "agent": "random"}],
        "seed": 5,
    }
    r = httpx.post(server.url + "/api/games", json=body, timeout=30)
    assert r.status_code == 201, r.text
    return r.json()


def play(server, created, moves: int | None, rng: random.Random) -> None:
    """The human seat plays `moves` random legal moves (None: to the end) by the API."""
    gid, token = created["id"], created["seats"][0]["token"]
    done = 0
    deadline = time.monotonic() + 240
    while moves is None or done < moves:
        assert time.monotonic() < deadline, f"{created['game']}: no end"
        # One read a move: the view and its ply from the same answer (seat_view reads the same).
        state = httpx.get(f"{server.url}/api/games/{gid}", params={"token": token}, timeout=30).json()[
            "state"
        ]
        view = state["view"]
        if view["terminal"]:
            return
        if not view["legal_actions"]:
            time.sleep(0.05)
            continue
        move = {"token": token, "action": rng.choice(view["legal_actions"])["text"], "ply": state["ply"]}
        r = httpx.post(f"{server.url}/api/games/{gid}/moves", json=move, timeout=30)
        assert r.status_code < 300 or r.status_code == 409, r.text
        done += r.status_code < 300


def axe_violations(page, exclude: str = "") -> list[str]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "async (exclude) => await axe.run("
        "exclude ? {exclude: exclude.split(', ').map((s) => [s])} : document, {resultTypes: ['violations']})",
        exclude,
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} :: {[n['target'] for n in v['nodes']][:4]}"
        for v in result["violations"]
    ]


def check_english_page(page, name: str, size, renderer_parts: bool = False) -> None:
    """The same page in English: axe clean too (both languages)."""
    assert page.evaluate("document.documentElement.lang") == "en"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{size[0]}-en.png"), full_page=True)
    assert axe_violations(page, RENDERER_PARTS if renderer_parts else "") == [], (
        f"{name} (en) at {size[0]}x{size[1]}"
    )


def check_page(page, name: str, size, probes, names, renderer_english: bool = False) -> dict:
    """The page in French with nothing English left, axe clean; a screenshot for the record."""
    assert page.evaluate("document.documentElement.lang") == "fr"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{size[0]}.png"), full_page=True)
    # Longer French words must not widen the page past a phone's screen.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size[0], f"{name} at {size[0]}x{size[1]}: the page is {width} px wide"
    skip = RENDERER_PARTS if renderer_english else ""
    left = english_left(page.evaluate(VISIBLE_TEXT, skip), probes, names)
    assert not left, f"{name} at {size[0]}x{size[1]}: English left: {left}"
    assert axe_violations(page, skip) == [], f"{name} at {size[0]}x{size[1]}"
    if renderer_english:
        return {
            f"{name}-{size[0]}": {
                "english": english_left(page.evaluate(ONLY_TEXT, RENDERER_PARTS), probes, names),
                "axe": axe_violations(page),
            }
        }
    return {}


def french_page(browser, url, size, errors, locale="fr-FR"):
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=locale)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return ctx, page


def settled(page):
    page.wait_for_function(
        "document.body.dataset.busy === '0' && document.body.dataset.connected === '1' && "
        "(document.body.dataset.myTurn === '1' || document.body.dataset.terminal === '1')",
        timeout=30000,
    )


@pytest.mark.timeout(600)
@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_lobby_in_french_has_no_english_left_and_is_axe_clean(server, browser, size):
    probes, names = english_probes(), proper_nouns()
    errors: list[str] = []
    ctx, page = french_page(browser, server.url + "/", size, errors)
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=20000)
    open_new_game(page)  # the lobby's full form is a dialog (issue 39): its words are checked open
    for game in GAMES:
        page.select_option("#game-select", game)
        page.wait_for_function(
            "g => document.querySelector('#seats').dataset.game === g", arg=game, timeout=10000
        )
        page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        check_page(page, f"lobby-{game}", size, probes, names)
    ctx.close()
    ctx, page = french_page(browser, server.url + "/", size, errors, locale="en-US")
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=20000)
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    check_english_page(page, "lobby", size)
    ctx.close()
    assert not errors, errors


# A game whose renderer is not yet French: its board's English words are listed in the test's
# output instead of failing it (everything around it is still checked). None left: every
# renderer, Mouse Trap's and 13 Dead End Drive's included, speaks French.
RENDERERS_NOT_YET_FRENCH: set[str] = set()


@pytest.mark.timeout(900)
@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_page_in_french_has_no_english_left_and_is_axe_clean(server, browser, game):
    probes, names = english_probes(), proper_nouns()
    created = create(server, game)
    rng = random.Random(7)
    link = created["seats"][0]["link"] + "&fast"
    leftovers: dict = {}
    errors: list[str] = []
    for stage, moves in (("start", 0), ("mid", MID_MOVES), ("end", None)):
        play(server, created, moves, rng)
        for size in SIZES:
            ctx, page = french_page(browser, link, size, errors)
            settled(page)
            if stage == "end":
                page.locator("[data-testid=end-screen]").wait_for(state="visible", timeout=10000)
            leftovers.update(
                check_page(page, f"{game}-{stage}", size, probes, names, game in RENDERERS_NOT_YET_FRENCH)
            )
            if stage == "start":
                # The rules panel: how to play, the options in force and where they come from.
                page.locator("[data-testid=rules-button]").click()
                page.locator("[data-testid=rules-options]").wait_for(timeout=10000)
                assert "Règles" in page.locator("#rules-title").inner_text()
                check_page(page, f"{game}-rules", size, probes, names, game in RENDERERS_NOT_YET_FRENCH)
            ctx.close()
            ctx, page = french_page(browser, link, size, errors, locale="en-US")
            settled(page)
            if stage == "end":
                page.locator("[data-testid=end-screen]").wait_for(state="visible", timeout=10000)
            check_english_page(page, f"{game}-{stage}", size, game in RENDERERS_NOT_YET_FRENCH)
            ctx.close()
    assert not errors, errors
    if leftovers:
        import json

        (SHOTS / f"{game}-renderer-english.json").write_text(
            json.dumps(leftovers, indent=1, ensure_ascii=False)
        )
        print(f"\n{game}: English left in the renderer (another branch's): {leftovers}")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_a_refusal_of_the_server_reaches_a_french_page_in_french(server, browser, size):
    # Two humans; the second tries a move out of turn: the server's refusal, made in English
    # for every client, is shown in the page's language (with the seat's words in it too).
    r = httpx.post(
        server.url + "/api/games",
        json={"game": "last-mouse-lost", "options": {"first_player": 0}, "seats": [{"kind": "human"}] * 2},
        timeout=30,
    )
    assert r.status_code == 201, r.text
    created = r.json()
    errors: list[str] = []
    ctx, page = french_page(browser, created["seats"][1]["link"] + "&fast", size, errors)
    page.wait_for_function("document.body.dataset.connected === '1' && document.body.dataset.busy === '0'")
    page.fill("#typed-action", "a1")
    page.locator("#typed button[type=submit]").click()
    toast = page.locator("#toasts .toast.error .text")
    toast.wait_for(timeout=10000)
    assert toast.inner_text() == "ce n'est pas votre tour : c'est à Joueur 1 de jouer"
    ctx.close()
    assert not errors, errors


@pytest.mark.timeout(300)
@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_account_leaderboard_and_profile_pages_in_french(server, browser, size):
    probes, names = english_probes(), proper_nouns()
    username = f"fr{random.randrange(10**6)}"
    names = [username, *names]
    errors: list[str] = []
    ctx, page = french_page(browser, server.url + "/account", size, errors)
    page.wait_for_selector("body[data-ready]")
    check_page(page, "account-logged-out", size, probes, names)
    page.fill("[data-testid=signup-username]", username)
    page.fill("[data-testid=signup-password]", "a long enough phrase 42")
    page.click("[data-testid=signup-submit]")
    page.wait_for_selector("#logged-in:not([hidden])")
    check_page(page, "account-logged-in", size, probes, names)
    page.goto(server.url + "/leaderboard")
    page.wait_for_selector("[data-testid=board-game] a", state="attached")
    # The table (or its "no rated games yet") is drawn: the page says it is ready (a fixed 300 ms
    # was not always enough on a loaded machine).
    page.wait_for_selector("body[data-ready='1']", timeout=20000)
    check_page(page, "leaderboard", size, probes, names)
    page.goto(f"{server.url}/u/{username}")
    page.wait_for_selector("body[data-ready]")
    check_page(page, "profile", size, probes, names)
    ctx.close()
    assert not errors, errors


@pytest.mark.timeout(300)
@pytest.mark.parametrize("game", ["last-mouse-lost", "booby-trap", "mouse-trap"])
def test_a_hint_reads_in_french(server, browser, game):
    # The move and the hint agent's reason are the game's words (Last Mouse Lost's solver
    # explains the nim-sum): a French page shows them in French.
    probes, names = english_probes(), proper_nouns()
    created = create(server, game)
    errors: list[str] = []
    ctx, page = french_page(browser, created["seats"][0]["link"] + "&fast", SIZES[0], errors)
    settled(page)
    page.locator("#hint").click()
    toast = page.locator("#toasts .toast .text")
    toast.wait_for(timeout=20000)
    text = toast.inner_text()
    assert text.startswith("Indice"), text
    assert english_left(text, probes, names) == [], text
    ctx.close()
    assert not errors, errors
