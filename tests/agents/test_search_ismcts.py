"""IS-MCTS: plays hidden-information games from the acting seat's view, and never peeks."""

from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest
from search_toy_games import CALL, CHECK, FOLD, RAISE, MiniPoker, Poison, PokerHeuristic, dealt_poker

import trapworks
from guards import TrueStateGuard
from trapworks.agents import make_agent
from trapworks.agents.ismcts import ISMCTSAgent
from trapworks.agents.mcts import MCTSAgent
from trapworks.core import CHANCE, TrapworksError, play_game, sample_chance


def choices(agent_cls, own, other, seeds, **options):
    out = []
    for seed in seeds:
        agent = agent_cls(MiniPoker(), 0, seed=seed, iterations=300, **options)
        out.append(agent.step(dealt_poker(own, other)))
    return out


def test_no_peeking_poisoned_secrets_leave_choices_unchanged():
    """The hidden card of seat 1 is replaced by a poison that fails on any use: IS-MCTS for seat
    0 still searches, and for every seed makes exactly the choice it makes when seat 1 really
    holds the lowest card, or the highest: the choice distribution does not depend on the secret."""
    seeds = range(30)
    clean_low = choices(ISMCTSAgent, 2, 0, seeds)
    clean_high = choices(ISMCTSAgent, 2, 5, seeds)
    poisoned = choices(ISMCTSAgent, 2, Poison(), seeds)
    assert poisoned == clean_low == clean_high
    # With heuristic rollouts (the heuristic reads views of determinizations) the same holds.
    assert choices(ISMCTSAgent, 2, Poison(), seeds[:10], rollout="heuristic") == choices(
        ISMCTSAgent, 2, 5, seeds[:10], rollout="heuristic"
    )


def test_the_no_peeking_test_can_fail_a_cheating_search():
    """Control: plain MCTS searching the true state sees seat 1's card, so its choices change
    with the secret (and it trips over the poison). The test above would catch such an agent."""
    seeds = range(10)
    low = choices(MCTSAgent, 2, 0, seeds, allow_hidden=True)
    high = choices(MCTSAgent, 2, 5, seeds, allow_hidden=True)
    assert Counter(low) != Counter(high)
    assert Counter(low)[RAISE] == 10 and Counter(high)[CHECK] == 10
    with pytest.raises(AssertionError, match="hidden part"):
        choices(MCTSAgent, 2, Poison(), seeds[:1], allow_hidden=True)


@pytest.mark.parametrize("own,best", [(5, RAISE), (4, RAISE), (0, CHECK), (1, CHECK)])
def test_ismcts_plays_its_own_card(own, best):
    """With a sure winner seat 0 raises (+1 or +2, against +0.5 for a check); with a sure or
    likely loser it checks (-0.5, against -2 when called)."""
    got = Counter(choices(ISMCTSAgent, own, Poison(), range(5)))
    assert got[best] == 5


def test_ismcts_second_seat_calls_with_a_winner_and_folds_a_loser():
    for own, best in ((5, CALL), (0, FOLD)):
        s = MiniPoker().new_initial_state()
        s.apply_action(100 + 3)
        s.apply_action(100 + own)
        s.apply_action(RAISE)
        s.cards[0] = Poison()
        agent = ISMCTSAgent(s.game, 1, seed=1, iterations=200)
        assert agent.step(s) == best


def test_ismcts_refuses_to_move_for_another_seat():
    s = dealt_poker(3, 1)
    with pytest.raises(TrapworksError, match="seat 1"):
        ISMCTSAgent(s.game, 1, seed=1, iterations=10).step(s)


def test_ismcts_is_reproducible_with_a_seed():
    a = [ISMCTSAgent(MiniPoker(), 0, seed=9, iterations=200) for _ in range(2)]
    s = dealt_poker(3, 1)
    assert a[0].step(s) == a[1].step(s)
    stats = [sorted((k.action, k.n, k.avail) for k in x.last_root.kids) for x in a]
    assert stats[0] == stats[1]


def test_availability_counts_follow_legality():
    s = dealt_poker(3, 1)
    agent = ISMCTSAgent(MiniPoker(), 0, seed=1, iterations=100)
    agent.step(s)
    # Both root moves are legal in every determinization: each is available on every visit
    # from the one in which it was first tried (the first visit tries one, the second the other).
    assert [k.avail for k in agent.last_root.kids] == [100, 99]


def test_heuristic_rollouts_use_the_games_registered_heuristic():
    PokerHeuristic.calls = 0
    ISMCTSAgent(MiniPoker(), 0, seed=1, iterations=50, rollout="heuristic").step(dealt_poker(3, 1))
    assert PokerHeuristic.calls > 0
    PokerHeuristic.calls = 0
    ISMCTSAgent(MiniPoker(), 0, seed=1, iterations=50).step(dealt_poker(3, 1))
    assert PokerHeuristic.calls == 0


def test_levels_give_hidden_information_games_ismcts_with_heuristic_rollouts():
    game = MiniPoker()
    hard = make_agent("hard", game, 0, seed=1)
    assert isinstance(hard, ISMCTSAgent) and hard.level == "hard"
    assert hard.heuristic_share > 0


def test_ismcts_beats_random_at_mini_poker():
    """Seat-rotated games against random. The game is zero-sum, so over rotated seats an agent
    no better than random averages 0; IS-MCTS's mean return is above 0 with 95% confidence."""
    rng = random.Random(3)
    game = MiniPoker()
    results = []
    for i in range(400):
        seat = i % 2
        agents = [None, None]
        agents[seat] = ISMCTSAgent(game, seat, seed=i, iterations=100)
        agents[1 - seat] = make_agent("random", game, 1 - seat, seed=i)
        results.append(play_game(game.new_initial_state(), agents, rng).returns()[seat])
    mean = statistics.fmean(results)
    se = statistics.stdev(results) / len(results) ** 0.5
    assert mean - 1.96 * se > 0, (mean, se)


# --- the registered games with secrets ------------------------------------------------------
HIDDEN_GAMES = [g for g in trapworks.available_games() if trapworks.make(g).has_hidden_information]


def _mid_game(game_id: str, steps: int, seed: int):
    game = trapworks.make(game_id)
    rng = random.Random(seed)
    s = game.new_initial_state(seed=seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        p = s.current_player()
        s.apply_action(sample_chance(s, rng) if p == CHANCE else rng.choice(s.legal_actions()))
    while s.current_player() == CHANCE:
        s.apply_action(sample_chance(s, rng))
    assert not s.is_terminal()
    return game, s


@pytest.mark.parametrize("game_id", HIDDEN_GAMES)
def test_ismcts_uses_only_whose_move_and_resample_of_the_true_state(game_id):
    """In every registered game with secrets: IS-MCTS given a guard that lets through only
    `current_player()` and `resample(seat, rng)` still searches and plays a legal move."""
    game, s = _mid_game(game_id, 8, seed=4)
    seat = s.current_player()
    agent = ISMCTSAgent(game, seat, seed=1, iterations=3, rollout_limit=4)
    assert agent.step(TrueStateGuard(s)) in s.legal_actions()


@pytest.mark.parametrize("game_id", HIDDEN_GAMES)
def test_ismcts_choices_do_not_depend_on_the_hidden_parts(game_id):
    """Two true states that the acting seat cannot tell apart (the second is re-drawn from the
    seat's view) get the same choices seed by seed, where the game's resampling is canonical
    (depends only on the view; e.g. Booby Trap). Where it is not (its output depends on the order
    of the hidden parts it re-draws), only the guard test above applies."""
    game, s = _mid_game(game_id, 8, seed=6)
    seat = s.current_player()
    alt = s.resample(seat, random.Random(99))
    assert alt.view(seat) == s.view(seat)
    canonical = all(
        s.resample(seat, random.Random(k)).position() == alt.resample(seat, random.Random(k)).position()
        for k in range(3)
    )
    if not canonical:
        pytest.skip(f"{game_id}: resample output depends on the hidden order it re-draws")
    for seed in range(3):
        a = ISMCTSAgent(game, seat, seed=seed, iterations=4, rollout_limit=4)
        b = ISMCTSAgent(game, seat, seed=seed, iterations=4, rollout_limit=4)
        assert a.step(s) == b.step(alt)
        assert [(k.action, k.n) for k in a.last_root.kids] == [(k.action, k.n) for k in b.last_root.kids]
