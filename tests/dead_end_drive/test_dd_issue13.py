"""13 Dead End Drive rule departures found in review (issue 13): a knocked-off pawn's portrait that
was never shown is removed when it comes up; the Secret Passage hop needs the pawn to move onto
the passage first (an option, default as the rulebook reads); the terminal's 'exit' is a move."""

from __future__ import annotations

from rich.console import Console

from dead_end_drive.dd_helpers import dests, game, play, state_at
from rulebook import cite
from trapworks.cli.terminal import TerminalSession

ISSUE_POSITION = (
    "players=4 pawns=S:i2,D:j2,C:k2,L:off2,P:i3,K:j3,B:k3,Z:p2,M:q2,H:p3,R:q3,O:i6 "
    "chars=SDC/PK/BZM/HRO traps=-/-/-/- portrait=S cycle=DCPKBZMHRO phase=roll"
)
PORTRAIT_SENTENCE = (
    "During gameplay, when the “knocked-off” pawn’s matching Portrait card appears in the frame, "
    "remove the card and place it facedown on the gameboard’s large sofa."
)


def test_never_shown_portrait_of_a_knocked_off_pawn_is_removed():
    """The review's example: L was knocked off before its portrait was ever shown. Changing the
    portrait brings the unshown cards up first: L's comes up and is removed (an event), then D's
    (the first at the back) shows."""
    cite("004", PORTRAIT_SENTENCE)
    s = game(4).state_from_position(ISSUE_POSITION)
    assert s.view(0)["frame"]["never_shown"] == 1
    play(s, "roll 2-2", "change portrait")
    assert 3 in s.removed_portraits and s.portrait == 1
    removed = [e for e in s.last_events() if e["type"] == "portrait_removed"]
    assert [e["pawn"] for e in removed] == ["L"]
    assert s.view(0)["frame"]["never_shown"] == 0


def test_a_knocked_off_pawns_card_can_come_up_among_unseen_ones():
    """With unseen live cards left, the next card is drawn from every unseen card (a shuffled
    frame), a knocked-off pawn's included; when that one comes up it is removed and the next is
    drawn."""
    cite("004", PORTRAIT_SENTENCE)
    s = state_at(pawns={"L": None}, portrait="S", cycle="DCPKBZMH", phase="roll")  # R, O, L unseen
    play(s, "roll 2-2", "change portrait")
    assert s.phase == "reveal"
    outcomes = {s.action_to_string(a) for a in s.legal_actions()}
    assert outcomes == {"portrait L", "portrait R", "portrait O"}
    play(s, "portrait L")
    assert 3 in s.removed_portraits and s.phase == "reveal"  # L's card removed; draw again
    assert {s.action_to_string(a) for a in s.legal_actions()} == {"portrait R", "portrait O"}
    play(s, "portrait O")
    assert s.portrait == 11 and s.phase == "select"


def test_secret_passage_hop_needs_the_pawn_to_move_onto_it_first():
    cite(
        "004",
        "You may move any pawn onto a Secret Passage space and then move it to one other Secret "
        'Passage space, counting "1" on your die roll to do so.',
    )
    # S stands on the passage b6 (Figure 10's): as the rulebook reads, it cannot hop at the start.
    s = state_at(dice="1,3", pawns={"S": "b6"})
    assert s.game.options["passage_start_hop"] is False
    assert "x17" not in dests(s, "S", 1)
    # The option lets a pawn already on a passage hop at once (counting 1).
    s = state_at(dice="1,3", pawns={"S": "b6"}, options={"passage_start_hop": True})
    assert "x17" in dests(s, "S", 1)
    # Moving onto a passage and then hopping is the rule either way (Figure 10).
    s = state_at(dice="4,3", pawns={"S": "d6"})
    assert "x17" in dests(s, "S", 3)


def test_exit_in_the_terminal_is_the_game_over_move_not_quitting(tmp_path):
    """The game's help says "'exit' for the Game Over square": typing it must not leave the program."""
    g = game(2)
    assert "'exit'" in g.help_text()
    lines = iter(["exit", "quit"])
    console = Console(record=True, width=200)
    session = TerminalSession(
        g, ["human", "human"], seed=3, ask=lambda _: next(lines), console=console, save_dir=tmp_path
    )
    session.run()
    said = console.export_text()
    assert "Not played:" in said and "'quit' leaves the game" in said
    assert said.count("Leaving the game.") == 1  # only 'quit' left
