"""Issue 36: a mouse moved by a paid roll (Turn Crank) that lands on a Go back / Move ahead / Go to
space or on the Cheese Wheel. Neither rulebook says whether the space acts on a mouse an opponent
moved; both say the spaces act on a mouse that lands on them. Option `paid_move_follows`, default
true in both variants: the space acts (a movement space sends the mouse on; the Cheese Wheel gives
its owner the wheel's cheese). False: the mouse stays where the die put it and nothing happens.
"""

import pytest

from mouse_trap.mt_helpers import game, legal, play, pos, roll
from rulebook import cite
from trapworks.games.mouse_trap.data import CHEESE_WHEEL

MB = {"variant": "milton-bradley"}
OR = {"variant": "original"}
MOVE_SPACES_000 = "When you land on one of these spaces, you must go to the space indicated"
FOLLOW_003 = "follow the instructions for the space they land on"
WHEEL_000 = "Every time you land on the Cheese Wheel Space, you automatically take two Cheese Cards."
WHEEL_003 = "If a player lands here they automatically collect two pieces of cheese."


@pytest.mark.parametrize("variant", ["milton-bradley", "original"])
def test_the_default_is_true_in_both_variants_tables(variant):
    """Both rulebooks make a space act on the mouse that lands on it, without naming whose move
    put it there: the default follows them in both variants (variants.json)."""
    cite("000", MOVE_SPACES_000)
    cite("003", FOLLOW_003)
    assert game(variant=variant).options["paid_move_follows"] is True
    assert game(variant=variant, paid_move_follows=False).options["paid_move_follows"] is False


@pytest.mark.parametrize("variant", [MB, OR])
def test_true_a_pushed_mouse_goes_on_from_move_ahead_to_the_cheese_wheel(variant):
    """Pushed onto 30 ('Move ahead to the Cheese Wheel'), the mouse goes to the Wheel, so the
    crank may follow. 000 does not follow the message of the space reached by such a move ("but do
    not follow any message printed in that space!": no cheese); 003 does (two cheese)."""
    cite("000", MOVE_SPACES_000)
    cite("003", FOLLOW_003)
    # Player 1 lands on Turn Crank (46) with the trap complete; player 2's mouse is on 26.
    state = pos("mice=45,26 cheese=2,0 parts=24", **variant)
    roll(state, 1)
    events = play(state, "move:2", "die:4")  # 26 + 4 = 30: Move ahead to the Cheese Wheel
    assert state.mice[1] == CHEESE_WHEEL
    assert "crank" in legal(state)
    jump = [e for e in events if e["type"] == "pushed_jump"]
    assert [(e["start"], e["dest"]) for e in jump] == [(30, CHEESE_WHEEL)]
    follows = variant is OR  # follow_destination: 003 yes, 000 no
    assert state.cheese[1] == (2 if follows else 0)


@pytest.mark.parametrize("variant", [MB, OR])
def test_false_a_pushed_mouse_stays_on_move_ahead(variant):
    state = pos("mice=45,26 cheese=2,0 parts=24", paid_move_follows=False, **variant)
    roll(state, 1)
    events = play(state, "move:2", "die:4")
    assert state.mice[1] == 30 and state.cheese[1] == 0
    assert not [e for e in events if e["type"].startswith("pushed_")]
    assert "crank" not in legal(state)  # 000: pay again or end; 003: a miss ends the turn


@pytest.mark.parametrize("variant", [MB, OR])
def test_true_the_cheese_wheel_gives_the_pushed_mouses_owner_its_cheese(variant):
    cite("000", WHEEL_000)
    cite("003", WHEEL_003)
    state = pos("mice=45,47 cheese=3,0 parts=24", **variant)
    roll(state, 1)
    play(state, "move:2", "die:2")  # 47 + 2 = the Cheese Wheel
    assert state.mice[1] == CHEESE_WHEEL and state.cheese[1] == 2 and legal(state)[0] == "crank"
    off = pos("mice=45,47 cheese=3,0 parts=24", paid_move_follows=False, **variant)
    roll(off, 1)
    play(off, "move:2", "die:2")
    assert off.mice[1] == CHEESE_WHEEL and off.cheese[1] == 0 and legal(off)[0] == "crank"


def test_true_go_back_sends_the_pushed_mouse_back():
    cite("000", MOVE_SPACES_000)
    state = pos("mice=45,30 cheese=2,0 parts=24", **MB)
    roll(state, 1)
    play(state, "move:2", "die:3")  # 30 + 3 = 33: Go back 4 spaces
    assert state.mice[1] == 29
    off = pos("mice=45,30 cheese=2,0 parts=24", paid_move_follows=False, **MB)
    roll(off, 1)
    play(off, "move:2", "die:3")
    assert off.mice[1] == 33


def test_other_spaces_do_nothing_to_a_pushed_mouse():
    """Building, taking and losing cheese belong to a player's own move: a pushed mouse landing on
    Lose 2 cheese (24) keeps its cheese whatever the option says."""
    for follows in (True, False):
        state = pos("mice=45,20,0 cheese=2,3,0 parts=24", players=3, paid_move_follows=follows)
        roll(state, 1)
        play(state, "move:2", "die:4")
        assert state.mice[1] == 24 and state.cheese[1] == 3


def test_the_option_shows_in_the_cli_the_lobby_and_the_docs_table(tmp_path):
    """`trapworks games`, the lobby's catalog (lobby.js builds a row per option of the schema it
    serves) and the generated docs table all show it, with the rulebook sentences."""
    from fastapi.testclient import TestClient
    from typer.testing import CliRunner

    from trapworks.cli import app
    from trapworks.cli.optiondocs import options_table
    from trapworks.games.mouse_trap import SPEC
    from trapworks.server import create_app

    listed = CliRunner().invoke(app, ["games"], env={"COLUMNS": "400"})
    assert listed.exit_code == 0 and "paid_move_follows" in listed.output
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.sqlite'}")) as client:
        games = {g["id"]: g for g in client.get("/api/catalog").json()["games"]}
        schema = {o["name"]: o for o in games["mouse-trap"]["options_schema"]}
        assert schema["paid_move_follows"]["label"] == "A paid roll follows the space"
        assert MOVE_SPACES_000 in schema["paid_move_follows"]["source"]
        assert FOLLOW_003 in schema["paid_move_follows"]["source"]
        for value in (True, False):
            ok = client.post("/api/catalog/mouse-trap/check", json={"options": {"paid_move_follows": value}})
            assert ok.status_code == 200 and ok.json()["options"]["paid_move_follows"] is value
    row = next(line for line in options_table(SPEC).splitlines() if "`paid_move_follows`" in line)
    assert "A paid roll follows the space" in row and MOVE_SPACES_000 in row


def test_the_docs_say_one_thing_about_building():
    """docs/mouse-trap.md once said both "building is automatic" and (with the code) that it is a
    choice (`build_optional`, default true in both variants)."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "mouse-trap.md").read_text()
    assert "building is automatic" not in text
    assert game(variant="milton-bradley").options["build_optional"] is True
    assert game(variant="original").options["build_optional"] is True
    assert "building is the player's choice (`build` or `end`), the\n  option `build_optional`" in text
