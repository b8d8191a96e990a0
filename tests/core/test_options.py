"""The declared option schema (core/options.py): every game declares its options once, the
defaults are derived from it, and a bad value is refused with a message that names the option."""

import json
import re

import pytest

import trapworks
from rulebook import cite
from trapworks.core import Game, Option, OptionError, game_class

GAMES = ["mouse-trap", "booby-trap", "last-mouse-lost", "dead-end-drive"]


@pytest.mark.parametrize("gid", GAMES)
def test_every_game_declares_every_option_with_words_for_players(gid):
    cls = game_class(gid)
    assert cls.options_schema, f"{gid} declares no options"
    names = [o.name for o in cls.options_schema]
    assert names == list(cls.default_options), "default_options is derived from the schema"
    for opt in cls.options_schema:
        assert opt.kind != "any", f"{gid}.{opt.name} is untyped (declared the old way)"
        assert opt.label and opt.help, f"{gid}.{opt.name} needs a label and a one-line help"
        assert "_" not in opt.label, f"{gid}.{opt.name}: the label is in players' words, not the name"
        entry = opt.to_json()
        json.dumps(entry)  # the API sends it
        assert entry["control"] in ("select", "toggle", "number", "text")
        if opt.kind == "choice":
            assert entry["control"] == "select"
            assert [c["value"] for c in entry["choices"] if c["value"] is not None] == list(opt.choices)
            assert all(c["label"] for c in entry["choices"])
        # The defaults are legal values of their own options.
        assert opt.check(opt.default) == opt.default or opt.default is None


# Each game's rulebooks as the options' sources name them (players read the names, not the seed
# codes: the eighth judge); a source of a game of one rulebook quotes it without a name.
SOURCES = {
    "mouse-trap": {"Milton Bradley": "000", "original": "003"},
    "booby-trap": {"": "001"},
    "last-mouse-lost": {"": "002"},
    "dead-end-drive": {"": "004"},
}


@pytest.mark.parametrize("gid", GAMES)
def test_quoted_rulebook_sources_are_in_the_rulebook(gid):
    named = SOURCES[gid]
    quoted = 0
    for opt in game_class(gid).options_schema:
        for name, quote in re.findall(r"(?:(Milton Bradley|original): )?'([^']+)'", opt.source):
            assert name in named, f"{gid} {opt.name}: a quote of which rulebook? {opt.source!r}"
            cite(named[name], quote)
            quoted += 1
    assert quoted, f"{gid}: no option quotes its rulebook"


def test_default_options_still_work_as_before():
    assert game_class("last-mouse-lost").default_options["rules"] == "basic"
    assert trapworks.make("booby-trap").options["players"] == 2
    assert trapworks.make("mouse-trap", variant="original").options["cheese_supply"] == 52


@pytest.mark.parametrize(
    ("gid", "options", "message"),
    [
        ("last-mouse-lost", {"rules": "expert"}, "rules 'expert': choose basic or advanced"),
        (
            "last-mouse-lost",
            {"first_to": 0},
            "first_to 0: a positive number of round wins (3 = best of five)",
        ),
        ("booby-trap", {"teaching": "yes"}, "teaching 'yes': true or false"),
        ("booby-trap", {"tension_noise": 2}, "tension_noise 2: a number from 0 to 1"),
        ("dead-end-drive", {"players": 5}, "players 5: a whole number from 2 to 4"),
        ("dead-end-drive", {"blocked_die": "x"}, "blocked_die 'x': choose forfeit or lose-turn"),
        ("mouse-trap", {"players": 1}, "players 1: Mouse Trap is for 2 to 4 players"),
        (
            "mouse-trap",
            {"steal_tie": "split"},
            "steal_tie 'split': choose choose-or-divide or choose, or null (as the rulebook says)",
        ),
    ],
)
def test_the_schema_refuses_bad_values_naming_the_option(gid, options, message):
    with pytest.raises(OptionError) as e:
        trapworks.make(gid, **options)
    assert str(e.value) == message


def test_cross_checks_stay_with_the_game():
    with pytest.raises(OptionError, match="first_player 3: a seat 0..1"):
        trapworks.make("mouse-trap", first_player=3)
    with pytest.raises(OptionError, match="must be 29"):
        trapworks.make("dead-end-drive", wild_cards=5)


def test_old_style_default_options_become_untyped_schema_entries():
    # The conversion pattern: a game (or a later option) declared only in default_options still
    # works; its values are checked by the game's own _validate_options until it gets an Option.
    class Old(Game):
        game_id = "old"
        default_options = {"size": 3}

    class Mixed(Game):
        game_id = "mixed"
        options_schema = (Option.boolean("fast", False, label="Fast", help="Play fast."),)
        default_options = {"fast": False, "extra": 1}

    assert [o.kind for o in Old.options_schema] == ["any"]
    assert Old(size=5).options == {"size": 5}
    assert Mixed.default_options == {"fast": False, "extra": 1}
    with pytest.raises(OptionError, match="fast 1: true or false"):
        Mixed(fast=1)
    assert Mixed(extra="anything").options["extra"] == "anything"
