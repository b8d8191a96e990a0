"""Mouse Trap rule departures found in review (issue 13): building is the player's choice in both
books, the crank is instructed by 000 but only allowed by 003, and a Move ahead / Go back /
Go to Cheese destination says that its message is not followed."""

from __future__ import annotations

import pytest

from mouse_trap.mt_helpers import legal, play, pos, roll
from rulebook import cite
from trapworks.core import IllegalActionError
from trapworks.core.messages import format_message


@pytest.mark.parametrize("variant", ["milton-bradley", "original"])
def test_building_is_the_players_choice_in_both_books(variant):
    cite(
        "000",
        "If you land on a Build Space and the number of players in the game matches one of the "
        "numbers in the space, then you may build one piece of the Mouse Trap.",
    )
    cite(
        "003",
        "If the number of players in the game matches one of the numbers on the Build space, the "
        "player may add one part to the Mouse Trap and collect one piece of cheese from the pile.",
    )
    state = pos("mice=12,0 cheese=0,0 parts=0", variant=variant)
    assert state.game.options["build_optional"] is True
    roll(state, 2, build=False)  # 14: Build 2-3-4
    assert state.position().endswith("phase=build") and legal(state) == ["build", "end"]
    events = play(state, "end")
    assert state.parts == 0 and state.cheese[0] == 0 and state.current_player() == 1
    assert events[-1]["msg"] == "mouse_trap.does_not_build"
    state = pos("mice=12,0 cheese=0,0 parts=0", variant=variant)
    roll(state, 2, build=False)
    play(state, "build")
    assert state.parts == 1 and state.cheese[0] == 1 and state.current_player() == 1


def test_build_optional_off_builds_at_once():
    state = pos("mice=12,0 cheese=0,0 parts=0", build_optional=False)
    roll(state, 2, build=False)
    assert state.parts == 1 and state.cheese[0] == 1 and state.current_player() == 1
    with pytest.raises(Exception, match="build_optional"):
        pos("mice=14,0 cheese=0,0 parts=0 phase=build", build_optional=False)


def test_build_phase_position_round_trips():
    state = pos("mice=12,0 cheese=0,0 parts=0")
    roll(state, 2, build=False)
    again = pos(state.position())
    assert again.position() == state.position() and legal(again) == ["build", "end"]


@pytest.mark.parametrize(
    "variant,required,choices",
    [("milton-bradley", True, ["crank"]), ("original", False, ["crank", "end"])],
)
def test_crank_instructed_in_000_allowed_in_003(variant, required, choices):
    cite(
        "000",
        "When you end your turn by landing on the TURN CRANK space and there is an opposing mouse "
        "on the Cheese Wheel, turn the crank to set the Mouse Trap in motion.",
    )
    cite(
        "003",
        "If a player lands here while there is another mouse on the Cheese Wheel, and the Mouse "
        "Trap is complete, they are allowed to attempt to capture that player.",
    )
    state = pos("mice=45,49 cheese=0,0 parts=24", players=2, variant=variant)
    assert state.game.options["crank_required"] is required
    roll(state, 1)
    assert legal(state) == choices
    if required:
        with pytest.raises(IllegalActionError, match="crank"):
            play(state, "end")
    # Each option can be set against its variant's default.
    other = pos("mice=45,49 cheese=0,0 parts=24", players=2, variant=variant, crank_required=not required)
    roll(other, 1)
    assert legal(other) == (["crank", "end"] if required else ["crank"])


def test_move_ahead_says_the_destination_is_not_carried_out():
    cite(
        "000",
        "GO BACK, MOVE AHEAD AND GO TO CHEESE: When you land on one of these spaces, you must go to "
        "the space indicated, but do not follow any message printed in that space!",
    )
    state = pos("mice=6,0 cheese=0,0 parts=0", variant="milton-bradley")
    events = roll(state, 4)  # 10: Move ahead 4 -> 14, Build 2-3-4
    jump = next(e for e in events if e["type"] == "jump")
    assert state.mice[0] == 14 and state.parts == 0
    assert format_message(jump, type(state.game)).startswith("Player 1 goes to 14 (")
    assert jump["msg"] == "mouse_trap.goes_to_unfollowed"
    assert format_message(jump, type(state.game)).endswith(" but does not do what that space says.")
    # 003 carries the destination out: no such note, and the build is offered.
    orig = pos("mice=6,0 cheese=0,0 parts=0", variant="original")
    events = roll(orig, 4, build=False)
    jump = next(e for e in events if e["type"] == "jump")
    assert jump["msg"] == "mouse_trap.goes_to" and legal(orig) == ["build", "end"]
