"""No observation or information-state tensor or string of a seat changes when another seat's
secrets are swapped (13 Dead End Drive: Character, secret and trap cards; Booby Trap: touch
readings), in the kernel and through OpenSpiel. Each check also shows that the seat holding the
secrets does see the change, so the comparison can fail."""

from __future__ import annotations

import random

import pyspiel
import pytest

import trapworks
import trapworks.adapters.openspiel  # noqa: F401 (registers the games)


def encodings(state, seat):
    return (
        state.observation_tensor(seat),
        state.observation_string(seat),
        state.information_state_tensor(seat),
        state.information_state_string(seat),
    )


def played(game, seed, moves):
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def redeal_except(state, observer, rng):
    """A clone where every Character card the observer cannot see (other seats' hands, the
    2-player secret cards) is dealt anew, and other seats' trap cards change kind (same counts)."""
    new = state.clone()
    slots = [
        (new.chars, s, i) for s in range(len(new.chars)) if s != observer for i in range(len(new.chars[s]))
    ]
    slots += [(new.secret, s, i) for s in range(len(new.secret)) for i in range(len(new.secret[s]))]
    slots = [(h, s, i) for h, s, i in slots if h[s][i] not in new.revealed]
    pawns = [h[s][i] for h, s, i in slots]
    for _ in range(20):
        rng.shuffle(pawns)
        if any(h[s][i] != p for (h, s, i), p in zip(slots, pawns, strict=True)):
            break
    for (h, s, i), p in zip(slots, pawns, strict=True):
        h[s][i] = p
    for s in range(len(new.hands)):
        if s != observer:
            for entry in new.hands[s]:
                entry[0] = (entry[0] + 1) % 7
    for h in new.chars + new.secret:
        h.sort()
    return new


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_dead_end_drive_cards_of_other_seats_never_show(players, seed):
    game = trapworks.make("dead-end-drive", players=players)
    state = played(game, seed, 60 + 7 * seed)
    assert not state.is_terminal()
    rng = random.Random(seed)
    for observer in range(players):
        other = redeal_except(state, observer, rng)
        assert encodings(other, observer) == encodings(state, observer), f"seat {observer} saw a secret"
        # The seats whose cards changed do see it: the comparison can fail.
        changed = [s for s in range(players) if s != observer and other.chars[s] != state.chars[s]]
        assert changed
        for s in changed:
            assert encodings(other, s) != encodings(state, s)


@pytest.mark.parametrize("seed", [1, 2])
def test_booby_trap_readings_of_other_seats_never_show(seed):
    game = trapworks.make("booby-trap", players=3, pieces_per_size=3)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    # Everyone touches a few pieces (touch, pass), so every seat holds readings.
    for _ in range(3):
        piece = rng.choice(state.legal_actions())
        state.apply_action(piece)
        state.apply_action(game.pass_action)
    assert all(state.readings[s] for s in range(3))
    for owner in range(3):
        changed = state.clone()
        for r in changed.readings[owner]:
            r["reading"] = r["reading"] + 0.37
            r["feel"] = "tight"
        for seat in range(3):
            if seat == owner:
                assert encodings(changed, seat) != encodings(state, seat)
            else:
                assert encodings(changed, seat) == encodings(state, seat), (
                    f"seat {seat} saw {owner}'s readings"
                )


def test_through_openspiel_the_observer_sees_no_other_seats_secret():
    game = pyspiel.load_game("trapworks_dead_end_drive(players=3,seed=5)")
    state = game.new_initial_state()
    rng = random.Random(5)
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    other = state.clone()
    tw = other.tw
    tw.chars[1], tw.chars[2] = tw.chars[2], tw.chars[1]
    assert other.observation_string(0) == state.observation_string(0)
    assert other.information_state_string(0) == state.information_state_string(0)
    assert other.observation_tensor(0) == state.observation_tensor(0)
    assert other.information_state_tensor(0) == state.information_state_tensor(0)
    assert other.observation_tensor(1) != state.observation_tensor(1)
