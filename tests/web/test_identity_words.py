"""Words a player would write (the eighth judge): no rulebook code in what a player reads. The
options' labels, help, sources and choice words are shown by the new-game dialog and the Rules
panel ("Rulebook: 002: the basic rules...", "Milton Bradley rules (000)"); they name a rule
source by its name ("Milton Bradley rules", "original") or say what the rulebook says, in
English and in French. Every registered game is checked (no list of games here)."""

from __future__ import annotations

import re

from trapworks.core.registry import available_games, game_class
from trapworks.server.i18n import catalog

CODE = re.compile(r"\b00\d\b")


def player_words(option) -> list[str]:
    words = [option.title, option.help, option.source, option.null_label]
    words += [str(v) for v in option.labels.values()] + [str(v) for v in option.names.values()]
    return [w for w in words if w]


def test_no_option_a_player_reads_names_a_rulebook_by_its_code():
    french = catalog("fr")["messages"]
    found = []
    for game in available_games():
        for option in game_class(game).options_schema:
            for text in player_words(option):
                translated = french.get(text, text)
                for shown in (text, translated if isinstance(translated, str) else text):
                    if CODE.search(shown):
                        found.append(f"{game} {option.name}: {shown!r}")
    assert not found, "\n".join(found)


def test_mouse_traps_two_rulebooks_are_named_as_players_know_them():
    options = {o.name: o for o in game_class("mouse-trap").options_schema}
    variant = options["variant"]
    assert [variant.choice_label(v) for v in variant.choices] == ["Milton Bradley rules", "Original rules"]
    cheese = options["cheese_supply"].source
    assert "Milton Bradley" in cheese and "original" in cheese, cheese
    assert catalog("fr")["messages"]["Original rules"] == "Règles originales"
