"""The heuristic agent: the misère endgame rule and a one-move look-ahead; weaker than the solver."""

import trapworks
from trapworks import sim
from trapworks.agents import make_agent
from trapworks.cli.tournament import wilson
from trapworks.games.last_mouse_lost.solver import heaps_of, mover_wins


def test_in_the_endgame_it_leaves_an_odd_number_of_single_mice():
    game = trapworks.make("last-mouse-lost", board=[4, 1, 1])
    state = game.state_from_position("oooo/o/o")  # one big row and two singles: leave 1 -> three singles
    agent = make_agent("heuristic", game, 0, seed=1)
    state.apply_action(agent.step(state))
    assert sorted(h.size for h in heaps_of(state)) == [1, 1, 1]


def test_it_never_presses_the_last_mouse_when_another_move_exists():
    game = trapworks.make("last-mouse-lost", board=[3, 3])
    for seed in range(20):
        state = game.state_from_position("ooo/o..")
        agent = make_agent("heuristic", game, 0, seed=seed)
        action = agent.step(state)
        after = state.clone()
        after.apply_action(action)
        assert after.score == [0, 0]  # the round goes on
        assert not mover_wins([h.size for h in heaps_of(after)])  # and the opponent is lost


def test_in_the_middle_game_it_avoids_handing_over_a_won_endgame():
    game = trapworks.make("last-mouse-lost", board=[5, 5, 2])
    state = game.state_from_position("ooooo/ooooo/oo")
    for seed in range(20):
        agent = make_agent("heuristic", game, 0, seed=seed)
        after = state.clone()
        after.apply_action(agent.step(state))
        sizes = [h.size for h in heaps_of(after)]
        assert sum(1 for s in sizes if s >= 2) > 1 or not mover_wins(sizes)


def test_the_heuristic_beats_random_and_the_solver_beats_the_heuristic():
    for strong, weak in (("heuristic", "random"), ("perfect", "heuristic")):
        wins = sum(
            any(r.seats[w] == strong for w in r.winners)
            for r in sim.run("last-mouse-lost", 30, [strong, weak], {"first_to": 1}, seed=3, rotate=True)
        )
        assert wilson(wins, 30)[0] > 0.5, (strong, weak, wins)
