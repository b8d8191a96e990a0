"""The web front end's message catalogs (issue 27): gettext PO files read with Babel.

The interface is written in English (the source language); `src/trapworks/web/i18n/<lang>.po`
holds each other language. `GET /api/i18n/{lang}` serves one catalog as JSON for the browser:
`{"lang", "plural_forms", "messages": {msgid: text | [forms]}}` (a plural message has its forms in
the PO file's order; the page picks one with `Intl.PluralRules`). English needs no catalog and is
served empty. A fuzzy or empty translation is left out (the page then shows the English text);
`tests/web/test_i18n.py` fails while any message of the front end lacks a translation.
"""

from __future__ import annotations

import ast
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse

CATALOGS = Path(__file__).resolve().parent.parent / "web" / "i18n"
SOURCE_LANGUAGE = "en"


def languages() -> list[str]:
    """Every language of the interface: the source language and each catalog's."""
    return [SOURCE_LANGUAGE, *sorted(p.stem for p in CATALOGS.glob("*.po"))]


def feature_words(lang: str) -> dict[str, str]:
    """The words the server's features carry themselves (`Feature.translations`: a feature is one
    module, its page part and its refusals included), for the catalog's gaps."""
    from .features import discover

    words: dict[str, str] = {}
    for feature in discover():
        words.update(feature.translations.get(lang, {}))
    return words


@lru_cache(maxsize=8)
def catalog(lang: str) -> dict[str, Any]:
    """One language's messages as the browser gets them (KeyError: no such language)."""
    if lang == SOURCE_LANGUAGE:
        return {
            "lang": lang,
            "plural_forms": "nplurals=2; plural=(n != 1);",
            "messages": {},
            "shared": shared_words({}, lang),
            "texts": typed_texts(lang),
        }
    path = CATALOGS / f"{lang}.po"
    if not path.is_file():
        raise KeyError(lang)
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        cat = read_po(f, locale=lang)
    messages: dict[str, Any] = {}
    own: list[Any] = []  # the games' own catalogs (a game from another package brings its words along)
    for game_po in game_catalog_paths(lang):
        with game_po.open("rb") as f:
            own.extend(read_po(f, locale=lang))
    for m in [*own, *cat]:  # the interface's catalog last: its translation wins
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, (list, tuple)):
            forms = list(m.string) if isinstance(m.string, (list, tuple)) else [m.string]
            if all(forms):
                messages[m.id[0]] = forms
        elif m.string:
            messages[m.id] = m.string
    for english, words in feature_words(lang).items():  # a feature's own words (issue 38)
        messages.setdefault(english, words)
    return {
        "lang": lang,
        "plural_forms": cat.plural_forms,
        "messages": messages,
        "shared": shared_words(messages, lang),
        "texts": typed_texts(lang),
    }


def game_catalog_paths(lang: str) -> list[Path]:
    """`i18n/<lang>.po` in each registered game's own folder, where it has one: the words of a
    game that lives in another package (its title, options, agents) travel with it."""
    from trapworks.core.registry import game_specs

    found = []
    for spec in game_specs():
        module = sys.modules.get(spec.game.__module__)
        folder = Path(module.__file__).parent if module is not None and module.__file__ else None
        if folder is not None and (folder / "i18n" / f"{lang}.po").is_file():
            found.append(folder / "i18n" / f"{lang}.po")
    return found


def typed_texts(lang: str) -> dict[str, Any]:
    """Every registered game's typed messages (and the common words) in `lang`, compiled from
    each game's own catalog (core/messages.py): the browser formats events and log lines with
    them (js/i18n.js formatMessage)."""
    from trapworks.core.messages import catalog_json, game_catalog
    from trapworks.core.registry import available_games, game_class

    catalogs = []
    for gid in available_games():
        try:
            cat = game_catalog(game_class(gid))
        except Exception:  # noqa: BLE001 - a game that cannot load has no words to show
            continue
        if cat is not None:
            catalogs.append(cat)
    return catalog_json(catalogs, lang)


def shared_words(messages: dict[str, Any], lang: str) -> dict[str, dict[str, str]]:
    """The words every front end shares, one enum each, in the catalog's language: the forfeit
    reasons (core/forfeit.py's ForfeitReason: "resigned", "ran out of time", ...)."""
    from trapworks.core.forfeit import forfeit_reason_words

    return {
        "forfeit_reasons": {k: translate(v, messages, lang) or v for k, v in forfeit_reason_words().items()}
    }


# --- words the page does not write itself: patterns ---------------------------------------
# The server's refusals and the games' own words (the log's story, the lobby's option lists)
# reach the page as English text made by the server or a game. They are translated at the page
# with the same catalog: each is a message whose msgid is an English *pattern* ("it is not your
# turn: {whom} is to move"); the page finds the pattern a text matches and fills the language's
# pattern with the parts it caught, each translated in turn ("{P0}'s mouse", "Cheese Wheel").
# The patterns come from (1) patterns.txt beside the catalogs (the games' sentences), (2) the
# server's own refusals, read from its source (every ServiceError message), (3) the games'
# declared words (titles, option labels, choices, help, agents, how-to steps). A new message of
# any of them without a translation fails tests/web/test_i18n.py.

PATTERNS_FILE = CATALOGS / "patterns.txt"
SOURCE = Path(__file__).resolve().parent.parent
_PLACE = re.compile(r"\{(\w+)\}")


def file_patterns() -> list[str]:
    """The games' sentences (the log's story): patterns.txt, one pattern a line."""
    out = []
    for line in PATTERNS_FILE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not (line.startswith("# ") or line == "#"):
            out.append(line.rstrip("\n"))
    return out


# The refusers and which positional argument holds the message (after a raw helper's `send`).
REFUSERS = {
    "ServiceError": 1,
    "Throttled": 1,
    "BadCredentials": 1,
    "refusal": 1,
    "error_reply": 1,
    "_refuse": 2,
    "_refuse_http": 2,
    "Said": 0,
}


def refusal_sites() -> list[tuple[str, ast.AST]]:
    """Each message argument of a refusal in src/trapworks/server and core (ServiceError and the
    other refusers above, core.words.Said), with its place: 'path:line'."""
    out: list[tuple[str, ast.AST]] = []
    files = sorted((SOURCE / "server").rglob("*.py")) + sorted((SOURCE / "core").glob("*.py"))
    for path in files:
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            fname = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if fname not in REFUSERS:
                continue
            args = [a for a in node.args if not (isinstance(a, ast.Name) and a.id == "send")]
            index = 2 if fname == "ServiceError" and len(args) >= 3 else REFUSERS[fname]
            if len(args) > index:
                out.append((f"{path.relative_to(SOURCE.parent)}:{node.lineno}", args[index]))
    return out


def untyped_refusals() -> list[str]:
    """The refusals whose message is an f-string (English made at the site, which no catalog
    can word): each must be a template with its values as keyword arguments (issue 37)."""
    return [where for where, node in refusal_sites() if isinstance(node, ast.JoinedStr)]


def server_messages() -> list[str]:
    """Every refusal the server words, as the message ids the page looks up: each refusal's
    template (ServiceError(code, template, **values), a Said), each {"error": ...} /
    {"message": ...} reply in src/trapworks/server, and the module constants sent as refusals."""
    found: list[str] = []

    def add(text: object) -> None:
        # A template of placeholders only ("{field}: {why}") says nothing to translate.
        if isinstance(text, str) and _PLACE.sub("", text).strip(" :.,'\"") and text not in found:
            found.append(text)

    for _where, node in refusal_sites():
        if isinstance(node, ast.Constant):
            add(node.value)
    for path in sorted((SOURCE / "server").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values, strict=True):
                    if isinstance(k, ast.Constant) and k.value in ("error", "message"):
                        if isinstance(v, ast.Constant):
                            add(v.value)
            elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in ("STORAGE_FAILED", "MISSING_PLY") for t in node.targets
            ):
                if isinstance(node.value, ast.Constant):
                    add(node.value.value)
    return found


def game_words() -> list[str]:
    """The games' declared words the lobby shows: titles, option labels, choices, help, rulebook
    sources, agents' words and how-to steps (from each game's spec and option schema)."""
    from trapworks.core.registry import available_games, game_class
    from trapworks.server.catalog import catalog_words

    words: list[str] = []

    def add(w: object) -> None:
        if (
            isinstance(w, str)
            and w.strip()
            and not w.strip().lstrip("-").replace(".", "").isdigit()
            and w not in words
        ):
            words.append(w)

    for gid in available_games():
        try:
            cls = game_class(gid)
            game = cls()
        except Exception:  # noqa: BLE001 - a game that cannot load has no words to show
            continue
        add(cls.title)
        for o in cls.options_schema:
            j = o.to_json()
            for key in ("label", "help", "source"):
                add(j.get(key))
            for c in j.get("choices") or []:
                add(c.get("label"))
        # The move notation's help (the rules panel's "Typing a move"), for each variant.
        add(game.help_text())
        for o in cls.options_schema:
            if o.to_json().get("control") == "select" and o.name in ("rules", "variant"):
                for c in o.to_json().get("choices") or []:
                    try:
                        add(cls(**{o.name: c.get("value")}).help_text())
                    except Exception:  # noqa: BLE001, S112 - a choice that needs other options too
                        continue
        cw = catalog_words(game)
        for w in cw["agent_words"].values():
            add(w)
        for step in cw["howto"]:
            for w in step.values() if isinstance(step, dict) else [step]:
                add(w)
    return words


def patterns() -> list[str]:
    """Every pattern of the words the page does not write itself (see above)."""
    from trapworks.core.forfeit import forfeit_reason_words

    out: list[str] = []
    shared = list(forfeit_reason_words().values())
    for p in [*file_patterns(), *server_messages(), *game_words(), *shared]:
        if p not in out:
            out.append(p)
    return out


def _regex(pattern: str) -> re.Pattern[str]:
    parts = _PLACE.split(pattern)
    rx = "".join(re.escape(p) if i % 2 == 0 else "(.+?)" for i, p in enumerate(parts))
    return re.compile(f"^{rx}$", re.S)


def _matchable(pattern: str) -> bool:
    # A pattern with no fixed words ("{label}: ") would take any text: it is a message only.
    return bool(_PLACE.sub("", pattern).strip(" :"))


def _specificity(pattern: str) -> tuple[int, int]:
    # The pattern with the most fixed text wins ("{who} pays nothing and owes {n} points."
    # before "{who} pays {what}.").
    return (-len(_PLACE.sub("", pattern)), len(_PLACE.findall(pattern)))


# A count's word in a translated pattern: "{n:fromage|fromages}" is the word for the count
# caught as {n}, by the language's plural rule (CLDR's, as Babel and Intl.PluralRules say it).
_PLURAL = re.compile(r"\{(\w+):([^{}|]*)\|([^{}]*)\}")


@lru_cache(maxsize=64)
def _compiled(keys: tuple[str, ...]) -> list[tuple[str, re.Pattern[str], list[str]]]:
    ordered = sorted((m for m in keys if _PLACE.search(m) and _matchable(m)), key=_specificity)
    return [(m, _regex(m), _PLACE.findall(m)) for m in ordered]


def _plural_one(lang: str, value: str) -> bool:
    from babel import Locale

    try:
        n = float(value)
    except ValueError:
        return False
    number: int | float = int(n) if n.is_integer() else n
    return Locale.parse(lang).plural_form(number) == "one"


def translate(text: str, messages: dict[str, Any], lang: str = "fr", depth: int = 0) -> str | None:
    """`text` in the catalog's language (None: no message or pattern matches it). The page does
    the same (i18n.js tx()); this one is the tests' and the server's."""
    tr = messages.get(text)
    if isinstance(tr, str):
        return tr
    if depth > 3:
        return None
    keys = tuple(k for k, v in messages.items() if isinstance(v, str) and "{" in k)
    for pattern, rx, names in _compiled(keys):
        m = rx.match(text)
        if not m:
            continue
        raw = dict(zip(names, m.groups(), strict=True))
        values = {name: _part(value, messages, lang, depth + 1) for name, value in raw.items()}
        return _fill(messages[pattern], raw, values, lang)
    return None


def _fill(target: str, raw: dict[str, str], values: dict[str, str], lang: str) -> str:
    out = _PLURAL.sub(
        lambda g: g.group(2) if _plural_one(lang, raw.get(g.group(1), "")) else g.group(3), target
    )
    return _PLACE.sub(lambda g: values.get(g.group(1), g.group(0)), out)


def _part(value: str, messages: dict[str, Any], lang: str, depth: int) -> str:
    """A caught part in the language: a seat reference or a number as is, a message or pattern
    translated, a list ("a, b, c") item by item."""
    if re.fullmatch(r"[-+]?\d+\.\d+", value):  # a number the language's way: "0.08" -> "0,08"
        from babel.numbers import get_decimal_symbol

        return value.replace(".", get_decimal_symbol(lang))
    if re.fullmatch(r"\{P\d+\}|[-+]?[\d.]+|\s*", value):
        return value
    tr = translate(value, messages, lang, depth)
    if tr is not None:
        return tr
    if ", " in value:
        return ", ".join(_part(v, messages, lang, depth) for v in value.split(", "))
    return value


def add_i18n_routes(app: FastAPI) -> None:
    @app.get("/api/i18n", summary="The interface's languages")
    async def i18n_languages() -> dict[str, Any]:
        return {"languages": languages(), "source": SOURCE_LANGUAGE}

    @app.get("/api/i18n/{lang}", summary="One language's messages for the web front end")
    async def i18n_catalog(lang: str) -> JSONResponse:
        try:
            body = catalog(lang)
        except KeyError:
            return JSONResponse(
                {
                    "ok": False,
                    "error": f"no interface language {lang!r}; there are {', '.join(languages())}",
                    "code": "unknown_language",
                },
                status_code=404,
            )
        return JSONResponse(body, headers={"cache-control": "no-cache"})
