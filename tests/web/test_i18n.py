"""The interface in English and French through a gettext catalog (issue 27).

- Every message of the front end (t("..."), tn("...", "...", n), the pages' data-i18n words) has a
  French translation in src/trapworks/web/i18n/fr.po: a new message without one fails here.
- The server serves each catalog as JSON (plural forms included); an unknown language is a 404.
- In a French browser the game page's own words are French, with no English message left; the
  language can also be chosen in the settings.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import httpx
import pytest

from .web_helpers import CHROMIUM, ServerProcess

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("trapworks_i18n_script", ROOT / "scripts" / "i18n.py")
assert spec and spec.loader
i18n_script = importlib.util.module_from_spec(spec)
spec.loader.exec_module(i18n_script)


def test_every_message_of_the_front_end_has_a_french_translation():
    found = i18n_script.extract()
    assert len(found) > 100  # the extraction sees the page's messages
    assert "Resign" in found and ("{who} {what} after {n} move.", "{who} {what} after {n} moves.") in found
    assert i18n_script.missing("fr") == []


def test_a_message_without_translation_is_reported(tmp_path, monkeypatch):
    static = tmp_path / "static"
    static.mkdir()
    (static / "x.js").write_text('el("p", { text: t("A brand new message") });\n')
    monkeypatch.setattr(i18n_script, "STATIC", static)
    assert i18n_script.missing("fr") == ["A brand new message"]


def test_the_catalog_is_served_as_json(client):
    fr = client.get("/api/i18n/fr").json()
    assert fr["lang"] == "fr" and "n > 1" in fr["plural_forms"]
    assert fr["messages"]["Resign"] == "Abandonner"
    assert fr["messages"]["{who} {what} after {n} move."] == [
        "{who} {what} après {n} coup.",
        "{who} {what} après {n} coups.",
    ]
    assert client.get("/api/i18n/en").json()["messages"] == {}
    r = client.get("/api/i18n/xx")
    assert r.status_code == 404 and r.json()["code"] == "unknown_language"
    assert client.get("/api/i18n").json()["languages"] == ["en", "fr"]


# --- in the browser ---------------------------------------------------------------------------

SHELL_TEXT = """
() => {
  // The page's own words: everything but the board, the decision's game words, the log and the
  // game's notation help (the games' words, not the page's).
  const clone = document.body.cloneNode(true);
  const games = '#board, #bar, #side-extra, #log, #help, #title, script, style, [hidden]';
  for (const n of clone.querySelectorAll(games)) n.remove();
  const attrs = [...clone.querySelectorAll('[aria-label], [placeholder], [title]')]
    .map((n) => ['aria-label', 'placeholder', 'title'].map((a) => n.getAttribute(a) || '').join(' '));
  return clone.innerText + ' ' + attrs.join(' ');
}
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("i18n-home")).start()
    yield s
    s.stop()


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium")
@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=["desktop", "phone"])
def test_a_french_browser_gets_the_game_page_in_french(server, browser, size):
    r = httpx.post(
        server.url + "/api/games",
        json={
            "game": "last-mouse-lost",
            "options": {"first_to": 1},
            "seats": [{"kind": "human"}, {"kind": "human"}],
        },
        timeout=30,
    )
    created = r.json()
    fr = httpx.get(server.url + "/api/i18n/fr", timeout=10).json()["messages"]
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="fr-FR")
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(created["seats"][0]["link"] + "&fast")
    page.wait_for_function(
        "document.body.dataset.myTurn === '1' && document.body.dataset.busy === '0'", timeout=20000
    )
    page.wait_for_function("document.body.dataset.connected === '1'")
    assert page.evaluate("document.documentElement.lang") == "fr"
    text = page.evaluate(SHELL_TEXT)
    assert "Joueurs" in text and "Indice" in text and "Abandonner" in text, text
    english = [
        m
        for m, tr in fr.items()
        if isinstance(tr, str) and tr != m and len(m) > 3 and "{" not in m and m in text
    ]
    assert not english, f"English words left on the French page: {english}"
    # Last Mouse Lost's own words (its rulebook is printed in both languages) are French too.
    bar = page.locator("#bar").inner_text() + page.locator("#board").inner_text()
    assert "Appuyer" in bar and "Manche 1" in bar and "Règles de base" in bar, bar
    assert page.locator("#board [data-kbd]").first.get_attribute("aria-label").startswith("Rangée ")
    # Chosen in the settings: an English browser, French chosen.
    page.locator("[data-testid=settings-button]").click()
    assert page.locator("[data-setting=language][value=fr]").count() == 1
    ctx.close()
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="en-US")
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('trapworks.settings', JSON.stringify({language: 'fr'}))")
    page.goto(created["spectator"]["link"] + "&fast")
    page.wait_for_function("document.body.dataset.ply !== undefined", timeout=20000)
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert "Joueurs" in page.evaluate(SHELL_TEXT)
    ctx.close()
    assert not errors, errors
