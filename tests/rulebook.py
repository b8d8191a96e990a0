"""Citing the rulebooks in tests: `cite("002", "sentence")` returns the sentence (for messages)
and, whenever the rulebooks can be found, checks that it really is in that seed file, so a
citation cannot drift from the text it claims to test.

The rulebooks are looked for in the folder named by $TRAPWORKS_RULEBOOKS, else in
`shared/seeds` beside the repository. A fresh clone with neither still runs every rule test;
the quote check is then reported as skipped once (tests/test_citations.py), and CI, which has
the rulebooks, sets $TRAPWORKS_REQUIRE_RULEBOOKS=1 so that their absence fails instead.
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

ENV = "TRAPWORKS_RULEBOOKS"
REQUIRE_ENV = "TRAPWORKS_REQUIRE_RULEBOOKS"
BESIDE = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"


def rulebook_folder() -> Path:
    """Where the rulebooks are looked for: $TRAPWORKS_RULEBOOKS if set, else beside the repository."""
    named = os.environ.get(ENV)
    return Path(named).expanduser() if named else BESIDE


def rulebooks_found() -> bool:
    return any(rulebook_folder().glob("0*_*.txt"))


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("*", "").replace("’", "'")).strip().lower()


@cache
def seed_text(seed: str) -> str:
    matches = sorted(rulebook_folder().glob(f"{seed}_*.txt"))
    if not matches:
        raise FileNotFoundError(f"no rulebook {seed}_*.txt in {rulebook_folder()}")
    return _normal(matches[0].read_text(encoding="utf-8"))


def check_quote(seed: str, sentence: str) -> str | None:
    """None if `sentence` is in rulebook `seed`, else what is wrong."""
    if _normal(sentence) in seed_text(seed):
        return None
    return f"not in rulebook {seed}: {sentence!r}"


def cite(seed: str, sentence: str) -> str:
    """Return `sentence`; when the rulebooks are found, assert it occurs in rulebook `seed`."""
    if rulebooks_found():
        problem = check_quote(seed, sentence)
        assert problem is None, problem
    return sentence
