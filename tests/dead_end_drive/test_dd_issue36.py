"""Issue 36: 13 Dead End Drive's opening could deadlock for good. Rule 2 read literally left a
pawn on a Red Chair boxed in by pawns that had moved, and no die could ever be used again. The
rule is lifted for a die that no pawn on a chair can use: that die may move a pawn that has left
the chairs (still not onto a trap). docs/dead-end-drive.md."""

from __future__ import annotations

import random

import pytest
from dd_helpers import dests, game, play, state_at, texts

from rulebook import cite
from trapworks.core import sample_chance

RULE_2 = cite(
    "004",
    "All pawns must be moved off the Red Chair Starting spaces before any pawn can be moved either "
    "a second time or onto a Trap space.",
)

# The issue's six legal turns from the start: Smothers (S) is left on j9, boxed in by Spritzy (i9),
# Beauregard III (j8) and the free chair k9, whose way on is blocked by pawns that have moved.
DEADLOCK = (
    "portrait H; roll 1-5; B5; to j8; D1; to k8; roll 1-3; C1; to l8; O3; to p9; "
    "roll 1-1; keep portrait; L1; to m8; P1; to n8; roll 1-6; K1; to o8; Z6; to i9; "
    "roll 1-1; keep portrait; M1; to l12; H1; to m12; roll 1-2; R1; to n12"
).split("; ")


def deadlock_state(turn_limit: int = 60):
    g = game(4, first_player=1, turn_limit=turn_limit)
    s = g.new_initial_state(seed=7)
    return play(s, *DEADLOCK)


def test_reproduction_smothers_is_boxed_in():
    s = deadlock_state()
    m = s.game.mansion
    assert s.opening and s.pos[0] == m.square("j9")  # S is the last pawn on a chair
    assert s.movable_pawns() == [0] and not any(s.can_move(0, c) for c in range(1, 13))


def test_the_issues_position_offers_a_pawn_move_within_two_turns():
    """Before the lift every turn from here said "No pawn can move 2: the die is forfeited." (0
    pawn moves offered in 54 turns). Now the die left over (2) is offered at once, to pawns that
    have left the chairs, and so is every die of the next two turns, whatever the roll."""
    s = deadlock_state()
    assert s.phase == "select" and s.dice == [2]
    assert texts(s) == {"L2", "K2", "Z2", "M2", "H2", "O2"}
    for roll in ("roll 1-2", "roll 4-4", "roll 6-6", "roll 3-5"):
        t = deadlock_state()
        play(t, "L2", "to " + sorted(dests(t, "L", 2))[0], roll)
        if t.phase == "portrait":
            play(t, "keep portrait")
        assert t.phase == "select" and t.legal_actions(), roll


@pytest.mark.parametrize("seed", range(4))
def test_random_play_from_the_issues_position_ends_without_the_turn_limit(seed):
    s = deadlock_state(turn_limit=3000)
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply_action(sample_chance(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
    assert not s.is_truncated() and s.win_reason in ("escape", "last-alive", "detective")
    assert s.turns < 3000


# The lift itself, in a position: S and D are the last pawns on the chairs, each boxed in.
TWO_BOXED = {"S": "j9", "K": "i9", "P": "j8", "D": "o9", "C": "p9", "L": "o8"}


def test_a_die_no_chair_pawn_can_use_moves_a_pawn_that_has_left():
    s = state_at(pawns=TWO_BOXED, dice="1,3", opening=1)
    got = texts(s)
    # 3: S and D can cross free chairs (Figure 8), so rule 2 holds for it: only they move 3.
    assert {t for t in got if t.endswith("3")} == {"S3", "D3"}
    # 1: no chair pawn can move 1, so the pawns that have left may (a second time).
    ones = {t for t in got if t.endswith("1")}
    assert {"K1", "P1", "C1", "L1"} <= ones and not {"S1", "D1"} & ones


def test_the_lifted_die_still_may_not_end_on_a_trap():
    """Rule 2's second half (no pawn onto a trap) holds until every pawn has left the chairs."""
    # O stands next to the Fireplace trap (b9), on c9: the lifted 1 may move it, not onto b9.
    layout = dict(TWO_BOXED, O="c9")
    s = state_at(pawns=layout, dice="1,3", opening=1)
    assert "O1" in texts(s) and dests(s, "O", 1) == {"c8", "c10"}
    s.opening = False
    s._dest_cache.clear()
    assert "b9" in dests(s, "O", 1)


# The issue's position: S on j9 can move no count at all.
ISSUES = {
    "S": "j9", "D": "k8", "C": "l8", "L": "m8", "P": "n8", "K": "o8",
    "B": "j8", "Z": "i9", "M": "l12", "H": "m12", "R": "n12", "O": "p9",
}  # fmt: skip


def test_a_doubles_total_is_lifted_only_with_its_die():
    # S can move neither 1 nor the total 2: both are lifted.
    s = state_at(pawns=ISSUES, dice="1,1", opening=1)
    assert {"M1", "M2"} <= texts(s)
    # In TWO_BOXED, D can move the total 2 (across a chair) but no chair pawn can move 1: the 1
    # is lifted, the total stays the chair pawns'.
    s = state_at(pawns=TWO_BOXED, dice="1,1", opening=1)
    got = texts(s)
    assert "K1" in got and {t for t in got if t.endswith("2")} <= {"S2", "D2"}
    # Doubles 3-3: S and D can use a 3 (across the chairs): nothing is lifted.
    s = state_at(pawns=TWO_BOXED, dice="3,3", opening=1)
    assert {t[0] for t in texts(s)} == {"S", "D"}


def _engine_select(state):
    """batch._select_choices for `state` (pawns, portrait, opening, dice, pawns moved)."""
    import numpy as np

    from trapworks.games.dead_end_drive import batch

    t = batch.engine_tables(state.game)
    G = np.zeros(batch.G_SIZE, np.int64)
    for p, sq in enumerate(state.pos):
        G[batch.POS + p] = sq
        if sq >= 0:
            G[batch.OCC + sq] = 1
    G[batch.PORTRAIT] = -1 if state.portrait is None else state.portrait
    G[batch.OPENING] = int(state.opening)
    G[batch.NDICE] = len(state.dice)
    for i, d in enumerate(state.dice):
        G[batch.DIE0 + i] = d
    G[batch.TOTAL_OK] = int(state.total_ok)
    G[batch.MOVED] = sum(1 << p for p in state.moved)
    out = np.zeros(40, np.int64)
    k = batch._select_choices(G, t["params"], t["tables"][batch.T_MOVES], t["go"], out)
    return [int(a) for a in out[:k]]


@pytest.mark.parametrize("dice", ["1,3", "1,1", "3,3", "2,6", "5,5"])
def test_the_engine_lifts_rule_2_like_the_kernel(dice):
    """The compiled engine (batch.py) offers the same moves, in the same order."""
    pytest.importorskip("numba")
    s = state_at(pawns=TWO_BOXED, dice=dice, opening=1)
    assert _engine_select(s) == s.legal_actions()
    s = deadlock_state()
    assert _engine_select(s) == s.legal_actions()
