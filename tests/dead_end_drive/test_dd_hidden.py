"""Hidden information: views, events and resampling never give a seat another seat's secrets."""

import json
import random
from collections import Counter

from dd_helpers import game, play, random_game, state_at
from hypothesis import given, settings
from hypothesis import strategies as st
from test_dd_invariants import check_invariants

from trapworks.agents import make_agent
from trapworks.core import sample_chance
from trapworks.games.dead_end_drive.components import DETECTIVE, LETTERS

OFF = -1


def secrets_of(s, seat):
    """What `seat` may not see, as comparable values."""
    others = [o for o in range(s.game.players) if o != seat]
    return (
        [sorted(s.chars[o]) for o in others],
        [sorted(h) for h in s.secret],
        [sorted(c for c, _, _ in s.hands[o]) for o in others],
        list(s.pile),
        s.drawn if s.to_move != seat else None,
    )


def assert_consistent(original, sampled, seat):
    """The resampled state agrees with everything `seat` has seen."""
    assert sampled.view(seat) == original.view(seat)
    assert sampled.chars[seat] == original.chars[seat]
    assert sampled.hands[seat] == original.hands[seat]
    assert sampled.pos == original.pos and sampled.revealed == original.revealed
    assert sampled.discard == original.discard and sampled.cycle == original.cycle
    assert sampled.unseen == original.unseen and sampled.portrait == original.portrait
    n = original.game.players
    for o in range(n):
        assert len(sampled.chars[o]) == len(original.chars[o])
        assert len(sampled.secret[o]) == len(original.secret[o])
        # when each card was drawn is public: per seat, the (epoch, turn) tags are unchanged
        assert sorted((e, t) for _, e, t in sampled.hands[o]) == sorted(
            (e, t) for _, e, t in original.hands[o]
        )
        for c, _, _ in sampled.hands[o]:
            assert c != DETECTIVE
    # cards drawn in a past epoch come from that epoch's (publicly seen) pile: same multiset per epoch
    for epoch in range(original.epoch):
        a = Counter(c for o in range(n) for c, e, _ in original.hands[o] if e == epoch)
        b = Counter(c for o in range(n) for c, e, _ in sampled.hands[o] if e == epoch)
        assert a == b
    # a knocked-off pawn whose card nobody laid down stays a secret card
    for p, holder in original.revealed.items():
        if holder is None:
            assert any(p in h for h in sampled.secret)
    if original.drawn is not None and original.to_move == seat:
        assert sampled.drawn == original.drawn
    check_invariants(sampled)


@settings(max_examples=15, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), length=st.integers(0, 700))
def test_resampling_is_consistent_with_the_seats_view(players, seed, length):
    g = game(players)
    s = random_game(g, seed, max_actions=length)
    rng = random.Random(seed)
    for seat in range(players):
        r = s.resample(seat, rng)
        assert_consistent(s, r, seat)
        # and it is a real state: play on from it
        for _ in range(40):
            if r.is_terminal():
                break
            r.apply_action(sample_chance(r, rng) if r.is_chance_node() else rng.choice(r.legal_actions()))


def test_resampling_redraws_what_the_seat_cannot_see():
    s = game(4).new_initial_state(seed=5)
    rng = random.Random(1)
    seen = {json.dumps(secrets_of(s.resample(0, rng), 0)) for _ in range(30)}
    assert len(seen) > 20
    # in 2 players the seat does not know its own secret cards either
    s2 = game(2).new_initial_state(seed=5)
    own_secret = {tuple(s2.resample(0, rng).secret[0]) for _ in range(30)}
    assert len(own_secret) > 5


def test_resampling_across_a_reshuffle_keeps_epochs():
    deck = "sssfffccctttbbbwwww" + "d" * 10
    s = state_at(pawns={"L": "f8"}, traps="-/f/-/-", discard=deck.replace("f", "", 1), pile="-", dice="5,1")
    play(s, "L5", "to b9", "draw", "keep")
    assert s.epoch == 1
    rng = random.Random(3)
    for seat in range(4):
        for _ in range(10):
            assert_consistent(s, s.resample(seat, rng), seat)


def test_dead_secret_card_stays_secret_in_resamples():
    s = state_at(players=2, pawns={"M": "off?", "S": "f8"}, secret="MH/RO", chars="SDCL/PKBZ", dice="5,1")
    rng = random.Random(0)
    for _ in range(20):
        r = s.resample(0, rng)
        assert any(LETTERS.index("M") in h for h in r.secret)


def serialised_for(s, seat) -> str:
    return json.dumps({"view": s.view(seat), "events": s.last_events(seat)}, sort_keys=True)


def test_no_view_or_event_leaks_another_seats_secrets():
    """Scan everything serialised to each seat along random games.

    A seat's view must not change when everything it may not see is redrawn (so nothing of it is in
    the view), private events go only to their seat, and the events of actions that reveal nothing
    by the rules (all but draws, springs and the end of the game, which lay cards face up) are the
    same in the real state and in a resampled one.
    """
    rng = random.Random(11)
    for players, seed in ((4, 1), (3, 2), (2, 3)):
        g = game(players)
        s = g.new_initial_state(seed=seed)
        steps = 0
        while not s.is_terminal() and steps < 450:
            mover = s.current_player()
            action = sample_chance(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions())
            twins = {seat: s.resample(seat, rng) for seat in range(players)}
            s.apply_action(action)
            steps += 1
            for event in s.all_events():
                if event["type"] == "drawn_card":
                    assert event["to"] == [mover]
                assert "to" not in event or event["type"] == "drawn_card"
            for seat in range(players):
                text = serialised_for(s, seat)
                assert s.position() not in text
                twin = twins[seat]
                reveals = action in (g.DRAW, g.SPRING, g.PLAY_TRAP, g.PLAY_WILD) or s.is_terminal()
                if action in twin.legal_actions() and not reveals:
                    twin.apply_action(action)
                    assert serialised_for(twin, seat) == text, (seat, s.action_to_string(action))
                for _ in range(2):
                    assert serialised_for(s.resample(seat, rng), seat) == text


def test_spectator_sees_no_hand():
    s = random_game(game(4), 4, max_actions=300)
    v = s.view(None)
    assert v["my_characters"] == [] and v["my_trap_cards"] == [] and v["legal_actions"] == []
    assert v["drawn_card"] is None


def test_heuristic_decides_from_the_seats_view_only():
    """The agent plays the same in a state and in any state its seat cannot tell from it."""
    g = game(4)
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        s = random_game(g, seed, max_actions=60 + 37 * seed)
        if s.is_terminal() or s.is_chance_node():
            continue
        seat = s.current_player()
        a = make_agent("heuristic", g, seat, seed=1).step(s)
        for _ in range(3):
            b = make_agent("heuristic", g, seat, seed=1).step(s.resample(seat, rng))
            assert a == b
        checked += 1
    assert checked >= 3
