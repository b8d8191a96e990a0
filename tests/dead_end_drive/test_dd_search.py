"""The evaluation the search uses (evaluate), the movement memo, and the hard level (IS-MCTS)."""

import random

import pytest
from dd_helpers import game, state_at

from guards import TrueStateGuard
from trapworks.agents import make_agent
from trapworks.agents.levels import level_spec
from trapworks.core import CHANCE, sample_chance
from trapworks.games.dead_end_drive import board
from trapworks.games.dead_end_drive.components import LETTERS
from trapworks.games.dead_end_drive.evaluation import pawn_chances, seat_values


def _random_states(players: int, games: int, seed: int, every: int = 5):
    g = game(players)
    rng = random.Random(seed)
    for gi in range(games):
        s = g.new_initial_state(seed=seed * 100 + gi)
        k = 0
        while not s.is_terminal() and k < 1500:
            k += 1
            if s.current_player() == CHANCE:
                s.apply_action(sample_chance(s, rng))
                continue
            if k % every == 0:
                yield s.clone()
            s.apply_action(rng.choice(s.legal_actions()))


def test_evaluate_is_on_the_returns_scale_and_sums_like_them():
    agent = make_agent("heuristic", game(4), 0, seed=0)
    seen = 0
    for s in _random_states(4, 3, seed=1, every=40):
        v = agent.evaluate(s)
        assert len(v) == 4 and all(-1 / 3 - 1e-9 <= x <= 1 + 1e-9 for x in v)
        assert sum(v) == pytest.approx(0.0, abs=1e-9)  # returns of a finished game sum to 0 too
        seen += 1
    assert seen > 10


def test_evaluate_of_a_finished_game_is_its_returns():
    s = state_at(dice="6,1", pawns={"S": "m17"}, portrait="S", turn=1)  # player 1 owns S
    s.apply_action(s.string_to_action("S6"))
    s.apply_action(s.string_to_action("to exit"))
    assert s.is_terminal()
    assert make_agent("heuristic", s.game, 2, seed=0).evaluate(s) == s.returns()


def test_evaluate_prefers_the_seat_whose_portrait_pawn_stands_at_the_door():
    """004: 'the player whose Character card matches the pawn that escaped wins' -- the portrait
    pawn one step from the exit is far likelier to win than the same pawn deep in the house."""
    near = state_at(pawns={"S": "m17"}, portrait="S", turn=2)
    far = state_at(pawns={"S": "l2"}, portrait="S", turn=2)
    agent = make_agent("heuristic", near.game, 1, seed=0)
    assert agent.evaluate(near)[0] > agent.evaluate(far)[0]
    assert pawn_chances(near)[LETTERS.index("S")] > pawn_chances(far)[LETTERS.index("S")]


def test_evaluate_counts_the_pawns_a_seat_still_has():
    """004: 'If all of your pawns are eliminated ... you are out of the game': no pawn, no chance."""
    s = state_at(
        pawns={"S": None, "D": None, "C": None}, portrait="L", turn=2
    )  # all of player 1's pawns are off
    v = seat_values(s)
    assert v[0] == pytest.approx(-1 / 3)
    assert max(v[1:]) > -1 / 3


def test_movement_memo_gives_the_same_answers_as_a_fresh_search():
    m = game(4).mansion
    rng = random.Random(5)
    states = list(_random_states(4, 2, seed=3, every=7))
    assert states
    asked = []
    for s in states[:60]:
        occupied = s.occupied()
        for pawn in s.live_pawns():
            start = s.pos[pawn]
            count = rng.randint(1, 12)
            blocked = occupied & ~(1 << start)
            args = (start, count, blocked)
            kw = dict(chairs=rng.random() < 0.3, exit_ok=rng.random() < 0.3, max_hops=1)
            asked.append((args, kw, m.destinations(*args, **kw), m.can_move(*args, **kw, ends=~m.traps)))
    # Ask again: answers now come from the memo, and again after the memo is thrown away.
    for args, kw, dest, can in asked:
        assert m.destinations(*args, **kw) == dest and m.can_move(*args, **kw, ends=~m.traps) == can
    board._MEMO.clear()
    for args, kw, dest, can in asked:
        assert m.destinations(*args, **kw) == dest and m.can_move(*args, **kw, ends=~m.traps) == can
        assert bool(dest & ~m.traps & ~m.chairs) == can


def test_hard_is_an_information_set_search_with_cut_rollouts():
    agent_name, settings = level_spec(game(4), "hard")
    assert agent_name == "ismcts"
    assert settings["rollout_limit"] <= 20 and settings["prior_weight"] > 0
    hard = make_agent("hard", game(4), 0, seed=1)
    assert hard._evaluate is not None  # cut rollouts are valued by the heuristic's evaluate


def test_hard_plays_legal_moves_and_spends_nothing_on_a_forced_one():
    g = game(4)
    rng = random.Random(2)
    hard = make_agent("hard", g, 1, seed=3, iterations=20, time_limit=None)
    others = [make_agent("heuristic", g, seat, seed=seat) for seat in range(4)]
    s = g.new_initial_state(seed=9)
    searched = forced = 0
    while not s.is_terminal() and (searched < 8 or forced < 1) and len(s.history()) < 2000:
        p = s.current_player()
        if p == CHANCE:
            s.apply_action(sample_chance(s, rng))
            continue
        if p == 1:
            a = hard.step(s)
            assert a in s.legal_actions()
            if len(s.legal_actions()) == 1:
                forced += 1
                assert hard.last_iterations == 0
            else:
                searched += 1
                assert hard.last_iterations == 20
        else:
            a = others[p].step(s)
        s.apply_action(a)
    assert searched >= 8 and forced >= 1


def test_hard_reads_the_true_state_only_through_resample():
    """Heuristic rollouts, its hints and evaluate all run on determinizations."""
    g = game(4)
    rng = random.Random(4)
    s = g.new_initial_state(seed=4)
    checked = 0
    for _ in range(400):
        if s.is_terminal() or checked >= 4:
            break
        p = s.current_player()
        if p == CHANCE:
            s.apply_action(sample_chance(s, rng))
            continue
        if len(s.legal_actions()) > 1 and rng.random() < 0.2:
            hard = make_agent("hard", g, p, seed=checked, iterations=15, time_limit=None)
            assert hard.step(TrueStateGuard(s)) in s.legal_actions()
            checked += 1
        s.apply_action(rng.choice(s.legal_actions()))
    assert checked == 4


def test_cut_rollouts_are_valued_by_evaluate_on_determinizations(monkeypatch):
    from trapworks.games.dead_end_drive.agents import HeuristicAgent

    seen = []
    real = HeuristicAgent.evaluate

    def recording(self, state):
        seen.append(state)
        return real(self, state)

    monkeypatch.setattr(HeuristicAgent, "evaluate", recording)
    g = game(4)
    rng = random.Random(8)
    s = g.new_initial_state(seed=8)
    while s.current_player() == CHANCE or len(s.legal_actions()) < 2:
        s.apply_action(sample_chance(s, rng) if s.current_player() == CHANCE else s.legal_actions()[0])
    hard = make_agent("hard", g, s.current_player(), seed=1, iterations=30, time_limit=None)
    hard.step(s)
    assert len(seen) >= 20  # nearly every rollout is cut after rollout_limit actions
    assert all(x is not s for x in seen)


def test_resample_after_the_end_keeps_the_winner():
    """004: 'the player whose Character card matches the pawn that escaped wins' (the card is shown;
    with 2 players 'the secret cards are turned over'): once the game is over the winner is public,
    so every resampled state names the same winner."""
    from dd_helpers import random_game

    ends = 0
    for players, seed in ((2, 181861025), (3, 1), (4, 2), (4, 3), (2, 4)):
        s = random_game(game(players), seed)
        if not s.is_terminal() or s.winner_seat() is None:
            continue
        ends += 1
        for seat in range(players):
            for k in range(6):
                r = s.resample(seat, random.Random(k))
                assert r.winner_seat() == s.winner_seat() and r.view(seat) == s.view(seat)
    assert ends >= 3
