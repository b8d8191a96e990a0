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
        "forfeit_reasons": {
            k: tr if isinstance(tr := messages.get(v), str) else v for k, v in forfeit_reason_words().items()
        }
    }


# --- words the page does not write itself: the server's and the games' -----------------------
# The server's refusals and the games' declared words (titles, option labels, help, agents,
# how-to steps) reach the page as message ids of this catalog: a refusal as its template and
# values (ServiceError: "it is not your turn: {whom} is to move", whom={"seat": 1}), a declared
# word as itself. The page looks each up (js/i18n.js t(), refusalText); nothing is matched
# against a sentence (issue 37). A new message of either without a translation fails
# tests/web/test_i18n.py.

SOURCE = Path(__file__).resolve().parent.parent
_PLACE = re.compile(r"\{(\w+)\}")


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

    # A refusal worded by a module constant (auth.py's WRONG_LOGIN, imported from base.py): the
    # constants of every server and core module, by name.
    constants: dict[str, str] = {}
    for path in sorted((SOURCE / "server").rglob("*.py")) + sorted((SOURCE / "core").glob("*.py")):
        for stmt in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant):
                for target in stmt.targets:
                    if isinstance(target, ast.Name) and isinstance(stmt.value.value, str):
                        constants[target.id] = stmt.value.value
    for _where, node in refusal_sites():
        if isinstance(node, ast.Constant):
            add(node.value)
        elif isinstance(node, ast.Name) and node.id in constants:
            add(constants[node.id])
    for path in sorted((SOURCE / "server").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values, strict=True):
                    # {"msg": "chance"}: a word of the catalog carried inside a refusal
                    if isinstance(k, ast.Constant) and k.value in ("error", "message", "msg"):
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
            for name in o.names.values():  # a choice's short name (a variant on a profile)
                add(name)
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


def declared_words() -> list[str]:
    """Every message id the page gets from the server or a game rather than writing it itself:
    the refusals' templates, the games' declared words and the forfeit reasons."""
    from trapworks.core.forfeit import forfeit_reason_words

    out: list[str] = []
    shared = list(forfeit_reason_words().values())
    for p in [*server_messages(), *game_words(), *shared]:
        if p not in out:
            out.append(p)
    return out


def add_i18n_routes(app: FastAPI) -> None:
    @app.get("/api/i18n", summary="The interface's languages")
    async def i18n_languages() -> dict[str, Any]:
        return {"languages": languages(), "source": SOURCE_LANGUAGE}

    @app.get("/api/i18n/{lang}", summary="One language's messages for the web front end")
    async def i18n_catalog(lang: str) -> JSONResponse:
        try:
            body = catalog(lang)
        except KeyError:
            from .errors import ErrorCode, ServiceError

            # typed (issue 37): the page words it from the catalog, like every refusal
            raise ServiceError(
                ErrorCode.UNKNOWN_LANGUAGE,
                "no interface language {lang}; there are {languages}",
                lang=repr(lang[:20]),
                languages=", ".join(languages()),
            ) from None
        return JSONResponse(body, headers={"cache-control": "no-cache"})
