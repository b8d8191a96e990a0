"""Typed texts (issue 37): what a game says is a message id with arguments, never a sentence.

A game's event or log line is `{"msg": "last_mouse_lost.round_over", "args": {"who": 1, "n": 2}}`:
seats as seat numbers, counts and pieces as values. The words live in the game's own catalog, one
gettext PO file per language in the folder its spec names (`GameSpec.messages`, e.g.
`games/<game>/i18n/en.po` and `fr.po`), read with Babel:

    msgctxt "you:who"                     # the variant when the viewer is the seat in {who}
    msgid "last_mouse_lost.round_over"    # the message id (the English text is in en.po)
    msgid_plural "last_mouse_lost.round_over"
    msgstr[0] "You pressed the last mouse and lose round {round}."

Rules every front end follows (this module, and js/i18n.js's formatMessage on the same catalog
served as JSON by /api/i18n/<lang>):
- A seat argument is one named in SEAT_ARGS; its value is a seat number or a list of them. The
  message's variant is the one whose context `you:a,b` names the most seat arguments that are all
  the viewer (or hold the viewer); no such variant: the message without context. A seat is
  written as its name, the viewer as the common catalog's `common.you` ("you", "vous"), a list
  with `common.and`.
- A plural message (msgid_plural) takes the form for `args["n"]` by the language's plural rule
  (CLDR's, as Babel and Intl.PluralRules say it; gettext's order [one, other]).
- A measurement is `{"decimal": 0.4, "digits": 2}`: written with that many decimals in the
  language's way ("0.40", "0,40"). As a plural message's count it picks the form by the number
  as written ("1.50 marks", "1,50 graduation": CLDR counts the visible decimals).
- An argument that is itself `{"msg": ..., "args": ...}` (a space's name, a piece's size) is
  formatted in the same language; a list of them is joined like seats.
- The first letter of the result is upper case, and of a part that starts a sentence in it.

The kernel checks at the boundary (core/game.py story_entry, checked_events) that every id a game
emits is declared in its catalog: a game that emits an undeclared id fails its contract test.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import TrapworksError
from .words import Said

SOURCE_LANGUAGE = "en"
# The arguments that hold seats (a seat number or a list of them).
SEAT_ARGS = frozenset({"who", "whom", "seats"})
# The words every catalog shares (a list's "and", the viewer as "you", "Player {n}").
COMMON = Path(__file__).resolve().parent / "i18n"
_PLACE = re.compile(r"\{(\w+)\}")
_SENTENCE_END = re.compile(r"[.!?]\s+$")

Text = str | tuple[str, ...]  # one text, or the plural forms in gettext's order


class UndeclaredMessage(TrapworksError):
    """A game emitted a message id its catalog does not declare."""

    def __init__(self, game_id: str, msg: object, folder: Path | None):
        where = f"its catalog {folder}" if folder else "no catalog (its spec names no messages folder)"
        super().__init__(f"{game_id} emitted the message id {msg!r}, which is not declared in {where}")
        self.game_id = game_id
        self.msg = msg


@dataclass(frozen=True)
class Catalog:
    """One folder's messages in every language it has: {lang: {id: {context: text}}}."""

    folder: Path
    languages: Mapping[str, Mapping[str, Mapping[str, Text]]]
    plural_forms: Mapping[str, str]

    def ids(self, lang: str = SOURCE_LANGUAGE) -> frozenset[str]:
        return frozenset(self.languages.get(lang, {}))

    def entries(self, lang: str) -> Mapping[str, Mapping[str, Text]]:
        return self.languages.get(lang) or self.languages[SOURCE_LANGUAGE]


@lru_cache(maxsize=32)
def load_catalog(folder: str | Path) -> Catalog:
    """The PO files `<lang>.po` of `folder` (FileNotFoundError: no en.po there)."""
    from babel.messages.pofile import read_po

    path = Path(folder)
    if not (path / f"{SOURCE_LANGUAGE}.po").is_file():
        raise FileNotFoundError(f"no {SOURCE_LANGUAGE}.po in the message catalog folder {path}")
    languages: dict[str, dict[str, dict[str, Text]]] = {}
    plural_forms: dict[str, str] = {}
    for po in sorted(path.glob("*.po")):
        lang = po.stem
        with po.open("rb") as f:
            cat = read_po(f, locale=lang)
        plural_forms[lang] = cat.plural_forms
        out: dict[str, dict[str, Text]] = {}
        for m in cat:
            if not m.id or m.fuzzy:
                continue
            if isinstance(m.id, (list, tuple)):
                forms = tuple(m.string) if isinstance(m.string, (list, tuple)) else (m.string,)
                # A form left empty is a form missing (catalog_problems reports it).
                forms = tuple(f for f in forms if f)
                if not forms:
                    continue
                out.setdefault(m.id[0], {})[m.context or ""] = forms
            elif isinstance(m.string, str) and m.string:
                out.setdefault(m.id, {})[m.context or ""] = m.string
        languages[lang] = out
    return Catalog(path, languages, plural_forms)


def common_catalog() -> Catalog:
    return load_catalog(COMMON)


def catalog_folder(game_cls: type) -> Path | None:
    """The folder of a game's catalog, as its spec declares it (None: it declares none)."""
    spec = getattr(game_cls, "spec", None)
    folder = getattr(spec, "messages", None)
    return None if folder is None else Path(folder)


def game_catalog(game_cls: type) -> Catalog | None:
    folder = catalog_folder(game_cls)
    return None if folder is None else load_catalog(folder)


def check_messages(game: Any, items: Sequence[Mapping[str, Any]]) -> None:
    """Raise UndeclaredMessage for the first item (an event, a log line) whose "msg" the game's
    catalog does not declare, nor the common one; nested messages in its arguments too."""
    cls = type(game)
    cat = game_catalog(cls)
    known = (cat.ids() if cat else frozenset()) | common_catalog().ids()
    for item in items:
        for msg in _ids(item):
            if msg not in known:
                raise UndeclaredMessage(getattr(game, "game_id", cls.__name__), msg, catalog_folder(cls))


def _ids(item: Mapping[str, Any]) -> list[Any]:
    out = [item.get("msg")]
    for v in (item.get("args") or {}).values():
        for x in v if isinstance(v, list) else [v]:
            if isinstance(x, Mapping) and "msg" in x:
                out.extend(_ids(x))
    return out


def plural_index(lang: str, n: Any, count: int) -> int:
    """The form of a gettext plural message (in [one, other] order) for the count `n` in `lang`
    (a number, or a measurement `{"decimal", "digits"}` counted as written)."""
    from babel import Locale

    number: int | float | Decimal
    if isinstance(n, Mapping) and "decimal" in n:
        number = Decimal(str(n["decimal"])).quantize(Decimal(1).scaleb(-int(n.get("digits", 2))))
    else:
        number = int(n) if float(n).is_integer() else n
    return 0 if Locale.parse(lang).plural_form(number) == "one" or count == 1 else count - 1


class Formatter:
    """Formats typed messages in one language for one viewer, from a game's catalog and the
    common one. `name(seat)` is a seat's name (default: the common catalog's "Player {n}")."""

    def __init__(
        self,
        catalogs: Sequence[Catalog],
        lang: str = SOURCE_LANGUAGE,
        viewer: int | None = None,
        name: Callable[[int], str] | None = None,
    ):
        self.lang = lang
        self.viewer = viewer
        self.messages: dict[str, Mapping[str, Text]] = {}
        for cat in [common_catalog(), *catalogs]:
            self.messages.update(cat.entries(lang))
        self.name = name or (lambda seat: self.text("common.player", {"n": seat + 1}))

    def variant(self, msg: str, args: Mapping[str, Any]) -> Text:
        variants = self.messages.get(msg)
        if variants is None:
            raise KeyError(f"no message {msg!r} in the {self.lang} catalog")
        mine = {a for a in SEAT_ARGS if a in args and self._holds_viewer(args[a])}
        best, size = variants.get(""), -1
        for ctx, text in variants.items():
            if ctx.startswith("you:"):
                names = set(ctx[4:].split(","))
                if names <= mine and len(names) > size:
                    best, size = text, len(names)
        if best is None:
            raise KeyError(f"message {msg!r} has no variant for these arguments in {self.lang}")
        return best

    def _holds_viewer(self, value: Any) -> bool:
        if self.viewer is None:
            return False
        return (
            value == self.viewer
            if isinstance(value, int)
            else isinstance(value, list) and self.viewer in value
        )

    def format(self, msg: str, args: Mapping[str, Any] | None = None) -> str:
        """The message as a sentence (its first letter upper case)."""
        out = self.text(msg, args)
        return out[:1].upper() + out[1:]

    def text(self, msg: str, args: Mapping[str, Any] | None = None) -> str:
        """The message as it is written inside a sentence (a nested part, a list's item)."""
        args = args or {}
        text = self.variant(msg, args)
        if isinstance(text, tuple):
            if "n" not in args:
                raise KeyError(f"plural message {msg!r} needs the count n")
            text = text[plural_index(self.lang, args["n"], len(text))]

        def fill(m: re.Match[str]) -> str:
            key = m.group(1)
            if key not in args:
                raise KeyError(f"message {msg!r} in {self.lang} needs the argument {key!r}")
            out = self.value(key, args[key])
            # A part that starts a sentence ("...caught! {loot}") starts with a capital.
            return out[:1].upper() + out[1:] if _SENTENCE_END.search(text[: m.start()]) else out

        return _PLACE.sub(fill, text)

    def value(self, key: str, value: Any) -> str:
        if key in SEAT_ARGS:
            seats = value if isinstance(value, list) else [value]
            return self.join([self.seat(s) for s in seats])
        if isinstance(value, Mapping) and "msg" in value:
            return self.text(value["msg"], value.get("args"))
        if isinstance(value, Mapping) and "decimal" in value:
            from babel.numbers import format_decimal

            digits = int(value.get("digits", 2))
            return format_decimal(value["decimal"], format="0." + "0" * digits, locale=self.lang)
        if isinstance(value, list):
            return self.join([self.value(key, v) for v in value])
        if isinstance(value, float):
            from babel.numbers import format_decimal

            return format_decimal(value, locale=self.lang)
        return str(value)

    def seat(self, seat: int) -> str:
        if self.viewer is not None and seat == self.viewer:
            return self.text("common.you")
        return self.name(seat)

    def join(self, parts: list[str]) -> str:
        """Items as a list in words: "a", "a and b", "a, b and c"."""
        if not parts:
            return self.text("common.nobody")
        if len(parts) == 1:
            return parts[0]
        return self.text("common.list", {"a": ", ".join(parts[:-1]), "b": parts[-1]})


def format_message(
    item: Mapping[str, Any],
    game_cls: type | None,
    lang: str = SOURCE_LANGUAGE,
    viewer: int | None = None,
    name: Callable[[int], str] | None = None,
) -> str:
    """One event or log line in `lang` for `viewer` (None: a spectator)."""
    cat = game_catalog(game_cls) if game_cls is not None else None
    return Formatter([cat] if cat else [], lang, viewer, name).format(item["msg"], item.get("args"))


def told(game_cls: type, msg: str, **args: Any) -> Said:
    """A game's message as an English sentence that says which message it is (a reason why an
    action is illegal): the terminal prints it, the server sends its id and arguments so the page
    words it in the viewer's language (issue 37). Written inside a sentence: no capital."""
    cat = game_catalog(game_cls)
    return Said.worded(Formatter([cat] if cat else []).text(msg, args), msg, args)


def catalog_json(catalogs: Sequence[Catalog], lang: str) -> dict[str, Any]:
    """The catalogs' messages in `lang` as the browser loads them: {"plural_forms", "messages":
    {id: {context: text | [forms]}}} (the common catalog first)."""
    messages: dict[str, dict[str, Any]] = {}
    for cat in [common_catalog(), *catalogs]:
        for msg, variants in cat.entries(lang).items():
            messages[msg] = {ctx: list(t) if isinstance(t, tuple) else t for ctx, t in variants.items()}
    common = common_catalog()
    forms = common.plural_forms.get(lang) or common.plural_forms[SOURCE_LANGUAGE]
    return {"lang": lang, "plural_forms": forms, "messages": messages}


def placeholders(text: Text) -> set[str]:
    texts = text if isinstance(text, tuple) else (text,)
    return {p for t in texts for p in _PLACE.findall(t)}


def catalog_problems(cat: Catalog) -> list[str]:
    """What a catalog lacks, one sentence each (empty: complete): every message and variant of
    the source language in every other language, as plural when plural, with every plural form
    its language's Plural-Forms asks for, and with the same placeholders."""
    problems: list[str] = []
    source = cat.languages.get(SOURCE_LANGUAGE, {})
    for lang, entries in sorted(cat.languages.items()):
        wanted = _nplurals(cat.plural_forms.get(lang, ""))
        for msg, variants in sorted(source.items()):
            for ctx, text in sorted(variants.items()):
                label = f"{cat.folder.name}/{lang}.po: {msg!r}" + (f" ({ctx})" if ctx else "")
                got = entries.get(msg, {}).get(ctx)
                if got is None:
                    problems.append(f"{label} has no translation")
                    continue
                if isinstance(text, tuple) != isinstance(got, tuple):
                    plural_in = SOURCE_LANGUAGE if isinstance(text, tuple) else lang
                    problems.append(f"{label} is plural in {plural_in} only")
                    continue
                if isinstance(got, tuple) and len(got) != wanted:
                    problems.append(f"{label} has {len(got)} plural forms, {lang} needs {wanted}")
                if placeholders(got) != placeholders(text):
                    problems.append(
                        f"{label} has the placeholders {sorted(placeholders(got))}, "
                        f"{SOURCE_LANGUAGE} has {sorted(placeholders(text))}"
                    )
        for msg in sorted(set(entries) - set(source)):
            problems.append(f"{cat.folder.name}/{lang}.po: {msg!r} is not in {SOURCE_LANGUAGE}.po")
    return problems


def _nplurals(plural_forms: str) -> int:
    m = re.search(r"nplurals\s*=\s*(\d+)", plural_forms)
    return int(m.group(1)) if m else 2
