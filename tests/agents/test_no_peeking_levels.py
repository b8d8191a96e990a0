"""No peeking, for every agent that can sit in a level (easy, medium, hard) in every game
(issue 13): what a seat cannot know may change, or be poisoned, without changing its choices.

Three checks, at decision points of random games:
- "same view, other secrets": the true state and `state.resample(seat)` (the same view for the
  acting seat, every hidden part redrawn) get the same choice from agents with the same seed;
- agents that play through the kernel (search, Booby Trap's) are handed a TrueStateGuard: only
  the rules, their own view and legal actions, and resampling; reading anything else fails;
- agents that read their own fields straight from the state (13 Dead End Drive's heuristic, for
  speed) get a clone whose secrets are sealed: other seats' cards, the 2-player secret cards,
  the pile's order and the state's random generator raise on any use but counting.
In the perfect-information games (Last Mouse Lost, Mouse Trap) nothing is hidden but chance to
come, which the state does not hold: the state's seed is poisoned and choices stay the same.
A control shows that the checks catch an agent that peeks (Booby Trap's oracle).
"""

from __future__ import annotations

import random

import pytest
from search_toy_games import Poison

import trapworks
from guards import TrueStateGuard
from trapworks.agents import make_agent
from trapworks.agents.levels import LEVELS, level_spec
from trapworks.core import CHANCE, Agent, sample_chance

# Games and options small enough for a test; every level of each.
GAMES = {
    "last-mouse-lost": {"first_player": "random"},
    "mouse-trap": {"players": 3},
    "booby-trap": {"pieces_per_size": 5},
    "dead-end-drive": {"players": 3},
}
# Agents that read their own fields from the state directly (documented in their module).
DIRECT_READERS = {("dead-end-drive", "heuristic")}


class Sealed(list):
    """A secret list: how many items it holds is public, which items and in what order are not."""

    def _boom(self, *args, **kwargs):
        raise AssertionError("the agent read a hidden part of the true state")

    __getitem__ = __iter__ = __contains__ = __eq__ = __reversed__ = index = count = copy = _boom


def seal_dead_end_drive(state, seat):
    s = state.clone()
    for o in range(state.game.players):
        if o != seat:
            s.chars[o] = Sealed(s.chars[o])
            s.hands[o] = Sealed(s.hands[o])
    s.secret = [Sealed(x) for x in s.secret]  # 2 players: nobody knows them, its own neither
    s.pile = Sealed(s.pile)
    s.rng = Poison()
    return s


def make_level(game, level, seat, seed):
    name, spec = level_spec(game, level)
    extra = {}
    if name in ("mcts", "ismcts"):
        extra = {"iterations": 12, "time_limit": None}  # deterministic for a given seed
    if name == "physics-view":
        extra = {"samples": 2}
    return name, make_agent(level, game, seat, seed=seed, **extra)


def decision_points(game, seed, count, max_actions=300):
    """States where a seat has a real choice, from a random game."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    out = []
    for _ in range(max_actions):
        if state.is_terminal() or len(out) >= count:
            break
        p = state.current_player()
        if p == CHANCE:
            state.apply_action(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        if len(legal) > 1 and rng.random() < 0.3:
            out.append(state.clone())
        state.apply_action(rng.choice(legal))
    return out


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_level_agents_choose_from_what_their_seat_may_know(game_id, level):
    game = trapworks.make(game_id, **GAMES[game_id])
    points = decision_points(game, seed=7, count=3)
    assert len(points) == 3
    checked = 0
    for k, state in enumerate(points):
        seat = state.current_player()
        name, agent = make_level(game, level, seat, seed=k)
        clean = agent.step(state.clone())
        assert clean in state.legal_actions()
        if not game.has_hidden_information:
            # Nothing hidden but chance to come, which the state does not hold.
            assert state.resample(seat).position() == state.position()
            poisoned = state.clone()
            poisoned.seed = Poison()
            _, again = make_level(game, level, seat, seed=k)
            assert again.step(poisoned) == clean
            checked += 1
            continue
        # Same view for this seat, every hidden part redrawn: the same choice.
        for r in range(2):
            other = state.resample(seat, random.Random(100 + r))
            assert other.view(seat) == state.view(seat)
            _, twin = make_level(game, level, seat, seed=k)
            assert twin.step(other) == clean, f"{name} chose differently with other secrets"
        _, guarded = make_level(game, level, seat, seed=k)
        if (game_id, name) in DIRECT_READERS:
            assert guarded.step(seal_dead_end_drive(state, seat)) == clean
        else:
            assert guarded.step(TrueStateGuard(state)) == clean
        checked += 1
    assert checked == 3


def test_resample_depends_only_on_the_seats_view():
    """Two true states with the same view for a seat resample alike with the same generator, so a
    search that resamples learns nothing of the secrets it was not shown."""
    for game_id in ("booby-trap", "dead-end-drive"):
        game = trapworks.make(game_id, **GAMES[game_id])
        for state in decision_points(game, seed=3, count=2):
            seat = state.current_player()
            other = state.resample(seat, random.Random(5))
            a = state.resample(seat, random.Random(9))
            b = other.resample(seat, random.Random(9))
            assert a.position() == b.position()


class PeekingAgent(Agent):
    """A 13 Dead End Drive agent that (wrongly) reads the next seat's Character cards."""

    name = "peeker"

    def step(self, state):
        legal = state.legal_actions()
        other = state.chars[(self.seat + 1) % state.game.players]
        return legal[sum(other) % len(legal)]


def test_the_checks_catch_an_agent_that_peeks():
    """Control: Booby Trap's oracle reads the true stress network and the guard stops it; an
    agent reading another seat's cards changes its choices with the secrets, and the sealed clone
    stops it."""
    game = trapworks.make("booby-trap", **GAMES["booby-trap"])
    points = decision_points(game, seed=7, count=3)
    with pytest.raises(AssertionError, match="read 'packing'"):
        make_agent("oracle", game, 0, seed=0).step(TrueStateGuard(points[0]))
    game = trapworks.make("dead-end-drive", **GAMES["dead-end-drive"])
    changed = 0
    points = decision_points(game, seed=7, count=6)
    for state in points:
        seat = state.current_player()
        peeker = PeekingAgent(game, seat)
        mine = peeker.step(state)
        changed += any(peeker.step(state.resample(seat, random.Random(r))) != mine for r in range(3))
        with pytest.raises(AssertionError, match="hidden part"):
            peeker.step(seal_dead_end_drive(state, seat))
    assert changed >= 2
