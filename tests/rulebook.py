"""Citing the rulebooks in tests: `cite("002", "sentence")` checks that the quoted sentence
really is in that seed file, so a citation cannot drift from the text it claims to test."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("*", "").replace("’", "'")).strip().lower()


@cache
def seed_text(seed: str) -> str:
    matches = sorted(SEEDS.glob(f"{seed}_*.txt"))
    if not matches:
        raise FileNotFoundError(f"no rulebook {seed}_*.txt in {SEEDS}")
    return _normal(matches[0].read_text(encoding="utf-8"))


def cite(seed: str, sentence: str) -> str:
    """Assert that `sentence` occurs in rulebook `seed`; return it (for use in messages)."""
    assert _normal(sentence) in seed_text(seed), f"not in rulebook {seed}: {sentence!r}"
    return sentence
