"""Mouse Trap random-play invariants (hypothesis): thousands of games with random options.

Cheese is conserved (pile + held = supply), parts are built only in order and never more than 24,
caught mice never move again, and every game ends in a win or a reported truncation.
"""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import trapworks
from trapworks.core import sample_chance
from trapworks.games.mouse_trap.agents import HeuristicAgent

GAMES = 2000


@settings(max_examples=GAMES, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    variant=st.sampled_from(["milton-bradley", "original"]),
    reliability=st.sampled_from([None, 1.0, 0.25]),
    turn_limit=st.integers(10, 400),
    heuristic=st.booleans(),
)
def test_random_play_keeps_the_invariants(seed, players, variant, reliability, turn_limit, heuristic):
    game = trapworks.make(
        "mouse-trap", players=players, variant=variant, trap_reliability=reliability, turn_limit=turn_limit
    )
    rng = random.Random(seed)
    agents = [HeuristicAgent(game, s, seed=seed) for s in range(players)] if heuristic else None
    state = game.new_initial_state()
    parts = 0
    caught: set[int] = set()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state, rng)
        elif agents:
            action = agents[state.current_player()].step(state)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        steps += 1
        # Cheese is conserved.
        assert state.pile + sum(state.cheese) == game.supply and state.pile >= 0
        assert min(state.cheese) >= 0
        # Parts only in order, never more than 24.
        built = [p for e in state.last_events() if e["type"] == "build" for p in e["parts"]]
        assert built == list(range(parts + 1, state.parts + 1))
        assert parts <= state.parts <= 24
        parts = state.parts
        # Caught mice never move again (and hold no cheese).
        for s in caught:
            assert state.mice[s] is None and state.cheese[s] == 0
        caught |= {s for s, m in enumerate(state.mice) if m is None}
        assert all(m is None or 0 <= m < 50 for m in state.mice)
        if steps % 97 == 0:
            again = game.state_from_position(state.position())
            assert again.position() == state.position()
            assert again.legal_actions() == state.legal_actions()
    # Every game ends in a win or a reported truncation.
    assert state.turn <= turn_limit
    active = [s for s, m in enumerate(state.mice) if m is not None]
    if state.is_truncated():
        assert state.winners() == [] and state.returns() == [0.0] * players
        assert state.turn == turn_limit
    else:
        assert len(active) == 1 and state.winners() == active
        assert sum(state.returns()) == 0.0 or abs(sum(state.returns())) < 1e-9
