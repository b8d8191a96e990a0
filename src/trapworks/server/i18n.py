"""The web front end's message catalogs (issue 27): gettext PO files read with Babel.

The interface is written in English (the source language); `src/trapworks/web/i18n/<lang>.po`
holds each other language. `GET /api/i18n/{lang}` serves one catalog as JSON for the browser:
`{"lang", "plural_forms", "messages": {msgid: text | [forms]}}` (a plural message has its forms in
the PO file's order; the page picks one with `Intl.PluralRules`). English needs no catalog and is
served empty. A fuzzy or empty translation is left out (the page then shows the English text);
`tests/web/test_i18n.py` fails while any message of the front end lacks a translation.
"""

from __future__ import annotations

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


@lru_cache(maxsize=8)
def catalog(lang: str) -> dict[str, Any]:
    """One language's messages as the browser gets them (KeyError: no such language)."""
    if lang == SOURCE_LANGUAGE:
        return {"lang": lang, "plural_forms": "nplurals=2; plural=(n != 1);", "messages": {}}
    path = CATALOGS / f"{lang}.po"
    if not path.is_file():
        raise KeyError(lang)
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        cat = read_po(f, locale=lang)
    messages: dict[str, Any] = {}
    for m in cat:
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, (list, tuple)):
            forms = list(m.string) if isinstance(m.string, (list, tuple)) else [m.string]
            if all(forms):
                messages[m.id[0]] = forms
        elif m.string:
            messages[m.id] = m.string
    return {"lang": lang, "plural_forms": cat.plural_forms, "messages": messages}


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
