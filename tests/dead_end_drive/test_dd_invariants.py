"""Random play: what the rules conserve stays conserved, and every game ends with one of the three wins."""

import json
import random
from collections import Counter

import pytest
from dd_helpers import game, random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from trapworks.core import GameRecord, sample_chance, undo
from trapworks.games.dead_end_drive.components import DETECTIVE, NUM_PAWNS

OFF = -1


def check_invariants(s):
    g = s.game
    m = g.mansion
    # Every pawn alive on a square a pawn may stand on, or knocked off; no two share a square.
    live = [sq for sq in s.pos if sq != OFF]
    assert len(set(live)) == len(live)
    for sq in live:
        assert m.walkable >> sq & 1
        assert not (m.chairs >> sq & 1) or s.opening, "a move never ends on a Red Chair"
    for p in range(NUM_PAWNS):
        assert (s.pos[p] == OFF) == (p in s.revealed)
    # Exactly one portrait showing, of a live pawn (none only while the next one is being revealed).
    if s.phase in ("first", "reveal"):
        assert s.portrait is None
    else:
        assert s.portrait is not None and s.pos[s.portrait] != OFF
    shown = (
        ([s.portrait] if s.portrait is not None else []) + sorted(s.unseen) + s.cycle + s.removed_portraits
    )
    assert sorted(shown) == list(range(NUM_PAWNS))
    # Cards conserved: the 29 trap-pile cards, the 12 Character cards.
    cards = (
        s.pile
        + s.discard
        + [c for h in s.hands for c, _, _ in h]
        + ([s.drawn] if s.drawn is not None else [])
    )
    assert Counter(cards) == Counter(g.deck)
    assert all(c != DETECTIVE for h in s.hands for c, _, _ in h)
    chars = [p for h in s.chars + s.secret for p in h]
    laid_down = [p for p, seat in s.revealed.items() if seat is not None]
    assert sorted(chars + laid_down) == list(range(NUM_PAWNS))
    for seat in range(g.players):
        if g.players > 2:
            assert s.out[seat] == (not s.chars[seat])
            if s.out[seat]:
                assert s.hands[seat] == []
    assert 0 <= s.detective < len(m.track)
    if s.is_terminal():
        assert s.truncated or s.win_reason in ("escape", "last-alive", "detective")


@settings(max_examples=12, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_random_play_keeps_the_invariants(players, seed):
    g = game(players)
    s = random_game(g, seed, max_actions=500, check=check_invariants)
    json.dumps(s.view(0))
    # The position notation holds the whole state.
    again = g.state_from_position(s.position())
    assert again.position() == s.position()


@pytest.mark.parametrize("players,seed", [(4, 0), (4, 2), (3, 5), (2, 7)])
def test_complete_random_games_end_with_one_of_the_three_wins(players, seed):
    g = game(players)
    s = random_game(g, seed)
    check_invariants(s)
    assert s.is_terminal() and not s.truncated
    assert s.win_reason in ("escape", "last-alive", "detective")
    w = s.winner_seat()
    assert s.returns()[w] == 1.0 and abs(sum(s.returns())) < 1e-9
    if s.win_reason == "escape":
        assert s.pos[s.winner_pawn] == g.mansion.game_over
    if s.win_reason == "last-alive":
        assert [p for p in range(12) if s.pos[p] != OFF] == [s.winner_pawn]
    if s.win_reason == "detective":
        assert s.detective == len(g.mansion.track) - 1 and s.portrait == s.winner_pawn


def test_turn_limit_truncates_without_a_winner():
    s = random_game(game(4, turn_limit=3), seed=1)
    assert s.is_terminal() and s.is_truncated() and s.winners() == [] and s.returns() == [0.0] * 4
    assert "winner=-" in s.position()


def test_records_replay_and_undo():
    g = game(4)
    s = random_game(g, seed=3, max_actions=300)
    record = GameRecord.from_state(s, players=["random"] * 4)
    again = GameRecord.from_json(record.to_json()).replay()
    assert again.position() == s.position()
    back = undo(s, 5)
    assert back.history() == s.history()[:-5]
    # a record started from a position replays as well
    start = random_game(g, seed=4, max_actions=80)
    t = g.state_from_position(start.position())
    rng = random.Random(0)
    for _ in range(60):
        if t.is_terminal():
            break
        t.apply_action(sample_chance(t, rng) if t.is_chance_node() else rng.choice(t.legal_actions()))
    assert GameRecord.from_state(t).replay().position() == t.position()


def test_seeded_games_repeat_and_unseeded_games_keep_their_seed():
    g = game(3)
    assert random_game(g, 9, max_actions=200).position() == random_game(g, 9, max_actions=200).position()
    s = g.new_initial_state()
    assert isinstance(s.seed, int)
    assert g.new_initial_state(seed=s.seed).position() == s.position()
