"""The spring bar's travel in player text (judge 5: "the spring bar moves 9.13 marks" read as
machine output): to the nearest quarter of a mark, in English and French, from the catalog."""

from __future__ import annotations

from typing import Any

import pytest

from trapworks.core.messages import Formatter, game_catalog
from trapworks.core.registry import game_class
from trapworks.games.booby_trap.game import marks_msg


def _say(item: dict[str, Any], lang: str, viewer: int | None = None) -> str:
    cat = game_catalog(game_class("booby-trap"))
    return Formatter([cat] if cat else [], lang, viewer).format(item["msg"], item.get("args"))


@pytest.mark.parametrize(
    ("marks", "en", "fr"),
    [
        (9.13, "9¼ marks", "9¼ graduations"),
        (9.1, "9 marks", "9 graduations"),
        (9.2, "9¼ marks", "9¼ graduations"),
        (1.0, "1 mark", "1 graduation"),
        (1.1, "1 mark", "1 graduation"),
        (1.5, "1½ marks", "1½ graduation"),
        (2.8, "2¾ marks", "2¾ graduations"),
        (3.9, "4 marks", "4 graduations"),
    ],
)
def test_a_trip_reads_whole_and_quarter_marks(marks: float, en: str, fr: str) -> None:
    item = marks_msg(marks)
    assert (_say(item, "en"), _say(item, "fr")) == (en, fr)


@pytest.mark.parametrize(
    ("marks", "en", "fr"),
    [
        (0.05, "less than a quarter of a mark", "de moins d'un quart de graduation"),
        (0.3, "a quarter of a mark", "d'un quart de graduation"),
        (0.45, "half a mark", "d'une demi-graduation"),
        (0.7, "three quarters of a mark", "de trois quarts de graduation"),
        # Kept, so short of one mark: never "1 mark" for a travel that rounds up to it.
        (0.99, "almost a mark", "de presque une graduation"),
    ],
)
def test_a_kept_piece_reads_a_part_of_a_mark(marks: float, en: str, fr: str) -> None:
    # Said alone, the part starts with a capital (the formatter's rule); in a sentence it does not.
    item = marks_msg(marks)
    assert (_say(item, "en"), _say(item, "fr")) == (en[0].upper() + en[1:], fr[0].upper() + fr[1:])


def test_the_removal_sentences_have_no_decimals() -> None:
    kept = {
        "msg": "booby_trap.keeps",
        "args": {"who": 1, "piece": 4, "size": {"msg": "booby_trap.size.small"}, "n": 1},
    }
    kept["args"]["marks"] = marks_msg(0.45)
    assert _say(kept, "en") == (
        "Player 2 removes piece 4 (small) and keeps it for 1 point: the spring bar moved half a mark."
    )
    assert _say(kept, "fr", viewer=1) == (
        "Vous retirez la pièce 4 (petite) et la gardez pour 1 point : "
        "la barre à ressort a bougé d'une demi-graduation."
    )
    trip = {"msg": "booby_trap.trips", "args": {"who": 0, "piece": 7, "marks": marks_msg(9.1)}}
    assert _say(trip, "en") == (
        "Player 1 removes piece 7 and the spring bar moves 9 marks: penalty of 3 points."
    )
    assert _say(trip, "fr") == (
        "Joueur 1 retire la pièce 7 et la barre à ressort avance de 9 graduations : pénalité de 3 points."
    )
