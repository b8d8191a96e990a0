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
import re
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


def po_message_keys(path: Path) -> list[tuple[str, str]]:
    """(context, id) of every message of a .po file, as written (continuation lines joined)."""
    keys: list[tuple[str, str]] = []
    field, parts = None, {"msgctxt": "", "msgid": ""}
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        head = line.split(" ", 1)[0]
        if head in ("msgctxt", "msgid"):
            field, parts[head] = head, line.split(" ", 1)[1].strip('"')
        elif line.startswith('"') and field:
            parts[field] += line.strip('"')
        else:
            if field == "msgid" and parts["msgid"]:
                keys.append((parts["msgctxt"], parts["msgid"]))
                parts = {"msgctxt": "", "msgid": ""}
            field = None
    return keys


def test_no_catalog_defines_a_message_twice():
    """gettext's msgfmt refuses a catalog with a message defined twice, and Babel keeps only one of
    the two silently: a merge of two branches that both add a word did that once (fr.po)."""
    catalogs = sorted((ROOT / "src" / "trapworks").glob("**/i18n/*.po"))
    assert len(catalogs) >= 2
    for path in catalogs:
        keys = po_message_keys(path)
        doubled = sorted({k for k in keys if keys.count(k) > 1})
        assert doubled == [], f"{path.relative_to(ROOT)} defines these twice: {doubled}"


def test_a_message_defined_twice_is_found(tmp_path):
    po = tmp_path / "fr.po"
    po.write_text('msgid ""\nmsgstr ""\n\nmsgid "Live"\nmsgstr "En direct"\n\nmsgid "Li"\n"ve"\nmsgstr "x"\n')
    assert po_message_keys(po) == [("", "Live"), ("", "Live")]


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


# --- the words the page does not write itself: the server's, the games' ----------------------

server_i18n = pytest.importorskip("trapworks.server.i18n")


def french() -> dict:
    return server_i18n.catalog("fr")["messages"]


# The games' stories are typed messages from each game's own catalog (issue 37): played and
# formatted in every language by tests/core/test_typed_texts.py. The catalog served to the page
# carries them, compiled, for js/i18n.js formatMessage (no pattern matches a sentence).


def test_the_games_typed_messages_are_served_with_the_catalog(client):
    from trapworks.core.messages import game_catalog
    from trapworks.core.registry import available_games, game_class, game_spec

    for lang in ("en", "fr"):
        texts = client.get(f"/api/i18n/{lang}").json()["texts"]
        assert texts["lang"] == lang
        messages = texts["messages"]
        for gid in available_games():
            if game_spec(gid).messages is None:
                continue  # a game that tells no events declares no catalog (test_typed_texts checks)
            cat = game_catalog(game_class(gid))
            assert cat is not None and cat.ids(lang) <= set(messages), gid
        assert messages["common.list"][""] == ("{a} and {b}" if lang == "en" else "{a} et {b}")
    fr = client.get("/api/i18n/fr").json()["texts"]["messages"]
    assert fr["mouse_trap.takes"] == {
        "": ["{who} prend {n} fromage.", "{who} prend {n} fromages."],
        "you:who": ["Vous prenez {n} fromage.", "Vous prenez {n} fromages."],
    }


def test_no_regular_expression_translates_a_text():
    # Issue 37: patterns.txt, the pattern matching of server/i18n.py (translate) and of the page
    # (tx(), txSeats()) and js/you.js are gone; every text arrives typed or is a declared word.
    assert not (ROOT / "src" / "trapworks" / "web" / "i18n" / "patterns.txt").exists()
    assert not hasattr(server_i18n, "translate") and not hasattr(server_i18n, "patterns")
    static = ROOT / "src" / "trapworks" / "web" / "static"
    assert not (static / "js" / "you.js").exists()
    for path in static.rglob("*.js"):
        if "node_modules" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        for name in ("tx(", "txSeats(", "englishSeats(", "youSentence("):
            assert not re.search(r"(?<![\w.])" + re.escape(name), text), f"{path.name} still calls {name}"


def test_the_front_end_knows_no_game_s_variants_nor_parses_a_seat_s_label():
    """Issue 37: js/i18n.js kept a table of every game's variant values (variantText) and parsed
    "Player 2 (easy)" with a pattern (owner()); both come typed now (variant_parts' name, the
    namer's OWNER). Failed before: i18n.js held "sizes-in-order" and the owner() pattern. The
    page's shared scripts (js/) name no game's option value; a game's own renderer may."""
    from trapworks.core.registry import available_games, game_class

    values = {
        str(v)
        for gid in available_games()
        for o in game_class(gid).options_schema
        if o.name in ("variant", "rules") and o.kind == "choice"
        for v in o.choices
    }
    for path in (ROOT / "src" / "trapworks" / "web" / "static" / "js").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        for v in values:
            quoted = rf"""["'`]{re.escape(v)}["'`]|[{{,]\s*{re.escape(v)}\s*:"""
            assert not re.search(quoted, text), (path.name, v)
        assert "/^(Player" not in text, f"{path.name} parses a seat's label"


def test_every_refusal_of_the_server_is_a_typed_message_with_a_french_translation():
    # Typed (issue 37): each refusal's message is a template with its values as arguments, never
    # an f-string (English made at the site, which no catalog can word)...
    assert server_i18n.untyped_refusals() == []
    templates = server_i18n.server_messages()
    assert "it is not your turn: {whom} is to move" in templates
    assert "a chat line needs at least one visible character" in templates
    assert "a game can be aborted only before its second move (resign instead)" in templates
    assert "only {n} actions to take back" in templates  # core's undo policy (a Said)
    # ... and each has its French, with the same placeholders.
    from trapworks.core.messages import placeholders

    messages = french()
    missing = [m for m in templates if not isinstance(messages.get(m), str)]
    assert missing == []
    assert [m for m in templates if placeholders(messages[m]) != placeholders(m)] == []


def test_no_refusal_of_the_server_has_an_unnamed_placeholder():
    """Issue 37: a translator reads "seat {seat_number} is not free", not "seat {x} is not free":
    every placeholder of a refusal (and of the catalog) names what it holds."""
    unnamed = re.compile(r"\{[xy]\}")
    assert [m for m in server_i18n.server_messages() if unnamed.search(m)] == []
    assert [m for m in french() if unnamed.search(m)] == []


def test_an_unknown_interface_language_is_a_typed_refusal(client):
    r = client.get("/api/i18n/xx")
    body = r.json()
    assert r.status_code == 404 and body["code"] == "unknown_language"
    assert body["msg"] == "no interface language {lang}; there are {languages}"
    assert body["args"] == {"lang": "'xx'", "languages": "en, fr"}
    assert french()[body["msg"]] == "aucune langue d'interface {lang} ; il y a {languages}"


def test_a_refusal_travels_as_its_message_id_and_values(client):
    from trapworks.server.errors import ErrorCode, ServiceError, fill

    # A seat is a seat (the page names it), a refusal inside another is typed in turn.
    inner = ServiceError(
        ErrorCode.TOO_LATE_TO_ABORT, "a game can be aborted only before its second move (resign instead)"
    )
    outer = ServiceError(ErrorCode.TOO_LATE_TO_ABORT, "abort refused: {why}", why=inner)
    assert (
        outer.message == "abort refused: a game can be aborted only before its second move (resign instead)"
    )
    assert outer.typed == {"msg": "abort refused: {why}", "args": {"why": inner.typed}}
    turn = ServiceError(
        ErrorCode.NOT_YOUR_TURN,
        "it is not your turn: {whom} is to move",
        whom={"seat": 1, "label": "Player 2 (Bob)"},
    )
    assert turn.message == "it is not your turn: Player 2 (Bob) is to move"
    assert fill("only {n} actions to take back", {"n": 3}) == "only 3 actions to take back"
    # Over HTTP: the English, and the message id with its values, which French words.
    body = client.get("/api/games/nope", params={"token": "x"}).json()
    assert body["msg"] == "no game {gid} on this server" and body["args"] == {"gid": "'nope'"}
    assert (
        french()[body["msg"]].replace("{gid}", body["args"]["gid"]) == "aucune partie 'nope' sur ce serveur"
    )


def test_a_new_refusal_of_the_server_without_translation_is_reported(tmp_path, monkeypatch):
    (tmp_path / "server").mkdir()
    (tmp_path / "core").mkdir()
    (tmp_path / "server" / "new.py").write_text(
        "def f(seat):\n"
        '    raise ServiceError(ErrorCode.BAD_SEAT, "seat {seat} may not dance here", seat=seat)\n'
        "def g(seat):\n"
        '    raise ServiceError(ErrorCode.BAD_SEAT, f"seat {seat} may not sing here")\n'
    )
    monkeypatch.setattr(server_i18n, "SOURCE", tmp_path)
    assert server_i18n.server_messages() == ["seat {seat} may not dance here"]
    assert "seat {seat} may not dance here" in i18n_script.missing("fr")
    # An f-string refusal is reported: no catalog can word it.
    untyped = server_i18n.untyped_refusals()
    assert len(untyped) == 1 and untyped[0].endswith("server/new.py:4")


def test_the_lobby_option_lists_and_the_games_words_are_translated():
    from trapworks.core.registry import available_games, game_class

    messages = french()
    words = server_i18n.game_words()
    for gid in available_games():
        for opt in game_class(gid).options_schema:
            j = opt.to_json()
            assert j["label"] in words and isinstance(messages.get(j["label"]), str), j["label"]
            for c in j.get("choices") or []:
                label = c["label"]
                if not label.strip().lstrip("-").replace(".", "").isdigit():
                    assert isinstance(messages.get(label), str), (gid, label)
    assert messages["Round wins to take the match"] == "Manches gagnées pour remporter le match"


def test_the_forfeit_reasons_are_one_enum_published_with_the_catalog(client):
    from trapworks.core.forfeit import ForfeitReason, forfeit_reason_words

    en = client.get("/api/i18n/en").json()["shared"]["forfeit_reasons"]
    fr = client.get("/api/i18n/fr").json()["shared"]["forfeit_reasons"]
    assert en == forfeit_reason_words()
    assert set(fr) == {r.value for r in ForfeitReason}
    assert fr["resigned"] == "a abandonné" and fr["out_of_time"] == "n'a plus de temps"
    # the front end holds no copy of them
    static = ROOT / "src" / "trapworks" / "web" / "static" / "js"
    for name in ("controls.js", "replay.js"):
        text = (static / name).read_text()
        assert '"ran out of time"' not in text and "forfeitWords" in text, name


def test_another_branchs_translations_are_merged_where_ours_has_none(tmp_path, monkeypatch):
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    ours, theirs = Catalog(locale="fr"), Catalog(locale="fr")
    ours.add("Resign", "Abandonner")
    ours.add("Roll the die")  # new on the other branch: no translation here yet
    theirs.add("Resign", "Laisser tomber")
    theirs.add("Roll the die", "Lancer le dé")
    (tmp_path / "cat").mkdir()
    with (tmp_path / "cat" / "fr.po").open("wb") as f:
        write_po(f, ours)
    with (tmp_path / "theirs.po").open("wb") as f:
        write_po(f, theirs)
    monkeypatch.setattr(i18n_script, "CATALOGS", tmp_path / "cat")
    assert i18n_script.merge("fr", tmp_path / "theirs.po") == 1
    with (tmp_path / "cat" / "fr.po").open("rb") as f:
        merged = read_po(f, locale="fr")
    assert merged.get("Roll the die").string == "Lancer le dé"
    assert merged.get("Resign").string == "Abandonner"  # ours kept
