"""Display names without accounts: what a player may call themselves.

A name is shown to every seat and spectator (seats, the log, chat), so it is checked strictly:
trimmed, inner runs of spaces made one, at most NAME_MAX characters, no control or invisible
formatting characters (a right-to-left override or a zero-width space could make one name look
like another), and none of the words the page itself uses for seats ("You", "Player 2").
"""

from __future__ import annotations

import re
import unicodedata

NAME_MAX = 24
# Categories refused: controls, format characters (bidi overrides, zero-width), line and paragraph
# separators, surrogates, private use and unassigned code points.
REFUSED_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"}
RESERVED = re.compile(r"^(you|spectator|chance|server|computer|player\s*\d*)$", re.IGNORECASE)


class BadName(ValueError):
    """A name that cannot be used; the message says why, for the person who typed it."""


def clean_name(raw: object) -> str:
    """The name as shown (trimmed, single spaces), or BadName saying what is wrong."""
    if not isinstance(raw, str):
        raise BadName(f"a name is text, not {type(raw).__name__}")
    if len(raw) > 4 * NAME_MAX:  # a giant name is refused before it is looked at
        raise BadName(f"a name is at most {NAME_MAX} characters (this one has {len(raw)})")
    for ch in raw:
        category = unicodedata.category(ch)
        if category in REFUSED_CATEGORIES:
            raise BadName(f"a name cannot hold control or invisible characters (U+{ord(ch):04X} is one)")
    name = " ".join(raw.split())
    if not name:
        raise BadName("a name needs at least one visible character")
    if len(name) > NAME_MAX:
        raise BadName(f"a name is at most {NAME_MAX} characters (this one has {len(name)})")
    if RESERVED.match(name):
        raise BadName(f"{name!r} is a word the page uses for seats; pick another name")
    return name


def same_name(a: str, b: str) -> bool:
    """Names that read alike: case and compatibility forms aside ('ＡＬＩＣＥ' is 'alice'), and after
    folding Unicode confusables (the `confusables` package, from Unicode's confusables data: a
    Cyrillic 'А' reads as a Latin 'A', 'rn' as 'm', '0' as 'O'), so 'Аlice' is taken beside 'Alice'."""
    if unicodedata.normalize("NFKC", a).casefold() == unicodedata.normalize("NFKC", b).casefold():
        return True
    from confusables import is_confusable

    return bool(is_confusable(a, b))
