"""The web front end's messages (issue 27): extract them and keep the catalogs up to date.

    .venv/bin/python scripts/i18n.py            # list messages without a translation (exit 1 if any)
    .venv/bin/python scripts/i18n.py --update   # add new messages to each catalog (empty, to translate)
    .venv/bin/python scripts/i18n.py --merge OTHER.po   # take OTHER's translations of messages
                                                        # fr.po leaves untranslated (after a merge)

Messages are the first argument of t("...") and the first two of tn("...", "...", n) in
src/trapworks/web/static/**/*.js (a double-quoted literal: the code's rule) and the data-i18n*
attributes of the static HTML pages; and the message ids the page gets from the server and the
games (every refusal of the server read from its source, the games' declared option and agent
words; see trapworks.server.i18n.declared_words). The games' stories are typed messages of each
game's own catalog (trapworks.core.messages), checked by tests/core/test_typed_texts.py.
Catalogs: src/trapworks/web/i18n/<lang>.po (gettext).
"""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "trapworks" / "web" / "static"
CATALOGS = ROOT / "src" / "trapworks" / "web" / "i18n"
# t("...") and tn("...", "...", n): the messages are double-quoted literals (a rule of the code).
STRING = r'"((?:[^"\\]|\\.)*)"'
CALL = re.compile(r"\b(tn?)\(\s*" + STRING + r"(?:\s*,\s*" + STRING + r")?")
ATTR = re.compile(r'data-i18n(?:-label|-placeholder|-title)?="([^"]+)"')


def where(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def extract() -> dict[str | tuple[str, str], list[str]]:
    """Every message of the front end -> where it is used."""
    found: dict[str | tuple[str, str], list[str]] = {}
    for path in sorted(STATIC.rglob("*.js")):
        if "node_modules" in path.parts:
            continue
        for lineno, line in enumerate(path.read_text().splitlines(), 1):
            if line.lstrip().startswith("//"):
                continue  # a comment's example is no message
            for m in CALL.finditer(line):
                key: str | tuple[str, str] = (
                    (json.loads(f'"{m.group(2)}"'), json.loads(f'"{m.group(3)}"'))
                    if m.group(1) == "tn"
                    else json.loads(f'"{m.group(2)}"')
                )
                found.setdefault(key, []).append(f"{where(path)}:{lineno}")
    for path in sorted(STATIC.glob("*.html")):
        for lineno, line in enumerate(path.read_text().splitlines(), 1):
            for m in ATTR.finditer(line):
                found.setdefault(html.unescape(m.group(1)), []).append(f"{where(path)}:{lineno}")
    from trapworks.server import i18n as server_i18n

    for word in server_i18n.declared_words():
        found.setdefault(word, []).append("src/trapworks/server/i18n.py:0")
    return found


def missing(lang: str) -> list[str]:
    """The messages that `lang`'s catalog does not translate (absent, empty or fuzzy)."""
    with (CATALOGS / f"{lang}.po").open("rb") as f:
        cat = read_po(f, locale=lang)
    from trapworks.server import i18n as server_i18n

    carried = server_i18n.feature_words(lang)  # the features' own words (server/features/*: translations)
    own = []  # the games' own catalogs (trapworks.server.i18n.game_catalog_paths)
    for path in server_i18n.game_catalog_paths(lang):
        with path.open("rb") as f:
            own.append(read_po(f, locale=lang))
    out = []
    for key in extract():
        if not isinstance(key, tuple) and carried.get(key):
            continue
        msgid = key[0] if isinstance(key, tuple) else key
        msg = cat.get(msgid) or next((c.get(msgid) for c in own if c.get(msgid) is not None), None)
        forms = (msg.string if isinstance(msg.string, (list, tuple)) else [msg.string]) if msg else []
        if msg is None or msg.fuzzy or not forms or not all(forms):
            out.append(key[0] if isinstance(key, tuple) else key)
    return out


def update(lang: str) -> None:
    path = CATALOGS / f"{lang}.po"
    template = Catalog(locale=None)
    for key, places in extract().items():
        template.add(key, locations=[(p.rsplit(":", 1)[0], int(p.rsplit(":", 1)[1])) for p in places])
    if path.exists():
        with path.open("rb") as f:
            cat = read_po(f, locale=lang)
    else:
        cat = Catalog(locale=lang, project="trapworks")
    cat.update(template, no_fuzzy_matching=True)
    with path.open("wb") as f:
        write_po(f, cat, width=100, omit_header=False, ignore_obsolete=True, include_previous=False)


def merge(lang: str, other: Path) -> int:
    """Copy `other`'s translations into `lang`'s catalog where it has none (two branches that
    both translated: update first, then merge the other branch's file). Returns how many."""
    path = CATALOGS / f"{lang}.po"
    with path.open("rb") as f:
        cat = read_po(f, locale=lang)
    with other.open("rb") as f:
        theirs = read_po(f, locale=lang)
    n = 0
    for msg in cat:
        if not msg.id:
            continue
        forms = msg.string if isinstance(msg.string, (list, tuple)) else [msg.string]
        if forms and all(forms) and not msg.fuzzy:
            continue
        their = theirs.get(msg.id[0] if isinstance(msg.id, (list, tuple)) else msg.id)
        if their is None or their.fuzzy or not their.string:
            continue
        if isinstance(their.string, (list, tuple)) != isinstance(msg.id, (list, tuple)):
            continue
        msg.string = their.string
        msg.flags.discard("fuzzy")
        n += 1
    with path.open("wb") as f:
        write_po(f, cat, width=100, omit_header=False, ignore_obsolete=True, include_previous=False)
    return n


def main() -> int:
    langs = [p.stem for p in CATALOGS.glob("*.po")] or ["fr"]
    if "--update" in sys.argv:
        for lang in langs:
            update(lang)
    if "--merge" in sys.argv:
        other = Path(sys.argv[sys.argv.index("--merge") + 1])
        print(f"fr: {merge('fr', other)} translations taken from {other}")
    bad = 0
    for lang in langs:
        for m in missing(lang):
            print(f"{lang}: no translation: {m!r}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
