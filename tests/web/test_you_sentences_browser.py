"""The viewer's own sentences (issue 27 review): a sentence whose seat is the one looking reads in
the second person, in English and in French ("You roll 4 and 6.", "Vous faites 4 et 6."), never
"You rolls" or "Vous fait". The games' log and events are typed messages whose "you" forms are
variants of each game's catalog (issue 37); the page's own "you" sentences are messages of their own
("You win." beside "{who} wins."), chosen where the page knows the seat (no sentence is rebuilt).
"""

from __future__ import annotations

import os
import random
import re

import httpx
import pytest

from .test_i18n_browser import create, french_page, play, settled
from .web_helpers import ARTIFACTS, CHROMIUM, ServerProcess

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
]

SHOTS = ARTIFACTS / "i18n"

# A French sentence with "Vous" and a verb of the third person (or "(vous)": no own form found).
FRENCH_MISMATCH = re.compile(
    r"\bVous (a|est|fait|prend|paie|construit|finit|tourne|pioche|joue|garde|change|touche|retire|"
    r"passe|gagne|ouvre|commence|doit|va|perd|rend|possédait|pose|appuie)\b|\(vous\)"
)
# An English sentence with "You" and a verb of the third person.
ENGLISH_MISMATCH = re.compile(
    r"\bYou (rolls|has|is|was|takes|pays|owes|builds|ends|turns|draws|plays|keeps|changes|touches|"
    r"removes|wins|goes|opens|loses|returns|does|passes|presses)\b"
)

# Every "you" variant of every game's typed messages (issue 37), formatted by the log's sentence()
# with the viewer (seat 0) in the variant's seat arguments and another seat (Zoé) in the others.
EVERY_TYPED_FORM = """
async () => {
  const { sentence } = await import('/static/js/log.js');
  const lang = document.documentElement.lang || 'en';
  const texts = (await (await fetch(`/api/i18n/${lang}`)).json()).texts.messages;
  const players = [{ name: '', kind: 'human' }, { name: 'Zoé', kind: 'human' }];
  const out = [];
  for (const [msg, variants] of Object.entries(texts)) {
    for (const ctx of Object.keys(variants)) {
      if (!ctx.startsWith('you:')) continue;
      const mine = ctx.slice(4).split(',');
      const args = { n: 7 };
      const forms = [].concat(variants[ctx]);
      for (const text of forms) for (const [, k] of text.matchAll(/\\{(\\w+)\\}/g)) {
        if (!(k in args)) args[k] = mine.includes(k) ? 0 : ['who', 'whom', 'seats'].includes(k) ? 1 : '7';
      }
      for (const k of mine) args[k] = k === 'seats' ? [0] : 0;
      if (mine.includes('seats')) args.n = 1;
      out.push({ msg, ctx, got: sentence({ msg, args }, 0, players) });
    }
  }
  return out;
}
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("you-sentences-home")).start()
    yield s
    s.stop()


@pytest.mark.timeout(300)
@pytest.mark.parametrize("locale", ["fr-FR", "en-US"])
def test_every_sentence_of_the_viewer_takes_the_second_person(server, browser, locale):
    errors: list[str] = []
    ctx, page = french_page(browser, server.url + "/", (1366, 768), errors, locale=locale)
    page.wait_for_selector("body[data-ready='1']", timeout=20000)
    typed = page.evaluate(EVERY_TYPED_FORM)
    ctx.close()
    assert len(typed) >= 50
    mismatch = FRENCH_MISMATCH if locale == "fr-FR" else ENGLISH_MISMATCH
    wrong = [f"typed: {r['msg']} [{r['ctx']}] -> {r['got']!r}" for r in typed if mismatch.search(r["got"])]
    assert not wrong, "\n".join(wrong)
    assert not errors, errors


LOG_TEXT = (
    "() => [...document.querySelectorAll('#log li, #side-extra li, #bar')]"
    ".map((n) => n.innerText).join('\\n')"
)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("game", ["dead-end-drive", "mouse-trap", "booby-trap", "last-mouse-lost"])
def test_a_game_played_in_french_and_english_says_you_in_the_second_person(server, browser, game):
    """A few moves of each game by the human seat against the computer: the log names the viewer
    in the second person in French ("Vous faites 4 et 6.", never "Vous fait" nor "Joueur 1 (vous)")
    and in English (never "You rolls")."""
    created = create(server, game)
    play(server, created, 4, random.Random(3))
    link = created["seats"][0]["link"] + "&fast"
    errors: list[str] = []
    for locale, mismatch, you in (("fr-FR", FRENCH_MISMATCH, "Vous "), ("en-US", ENGLISH_MISMATCH, "You ")):
        ctx, page = french_page(browser, link, (1366, 768), errors, locale=locale)
        settled(page)
        page.wait_for_function("document.querySelectorAll('#log li').length > 1", timeout=20000)
        text = page.evaluate(LOG_TEXT)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"you-{game}-{locale}.png"))
        ctx.close()
        assert you in text, f"{game} {locale}: the viewer's moves are not in the log: {text!r}"
        bad = mismatch.search(text)
        assert not bad, f"{game} {locale}: {bad.group(0)!r} in {text!r}"
    assert not errors, errors


@pytest.mark.timeout(300)
def test_the_viewers_own_resignation_reads_in_the_second_person(server, browser):
    """'Vous avez abandonné', not 'Vous a abandonné' (the forfeit words follow a seat's name)."""
    created = create(server, "mouse-trap")
    play(server, created, 2, random.Random(1))
    r = httpx.post(
        f"{server.url}/api/games/{created['id']}/resign",
        json={"token": created["seats"][0]["token"]},
        timeout=30,
    )
    assert r.status_code < 300, r.text
    errors: list[str] = []
    for locale, want, wrong in (
        ("fr-FR", "Vous avez abandonné", re.compile(r"\bVous a\b")),
        ("en-US", "You resigned", ENGLISH_MISMATCH),
    ):
        link = created["seats"][0]["link"] + "&fast"
        ctx, page = french_page(browser, link, (390, 844), errors, locale=locale)
        page.wait_for_selector("[data-testid=end-screen]:not([hidden])", timeout=20000)
        text = page.locator("#end-screen").inner_text()
        ctx.close()
        assert want in text and not wrong.search(text), text
    assert not errors, errors
