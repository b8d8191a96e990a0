"""MCTS iterations per second: trapworks' `MCTSAgent` vs OpenSpiel's Python `MCTSBot`.

Same run, same game, same budget, same rollout policy:

- game: OpenSpiel's C++ `nim` with Last Mouse Lost's board (pile_sizes=3;5;6;6;5;3, misère),
  i.e. one round of Last Mouse Lost under basic rules. BOTH searches play this very game
  object: ours reaches it through `SpielState`, a thin adapter that makes a pyspiel state a
  trapworks kernel `State` (it forwards current_player/legal_actions/apply_action/clone/
  returns; legality is left to pyspiel, which checks actions itself), so the game engine
  costs both searches the same and the figure compares the search code alone.
- budget: the same number of simulations per move (`--simulations`, OpenSpiel's
  `max_simulations` and our `iterations`); one simulation = one tree descent + one leaf
  evaluation by one uniformly random rollout to the end of the game (OpenSpiel's
  `RandomRolloutEvaluator(n_rollouts=1)`).
- exploration: OpenSpiel `uct_c=2` on returns -1..+1, ours `c=1` on the spread of returns
  (2), the same UCB1 term. OpenSpiel's MCTS-Solver backup is off (`solve=False`), since ours
  does not prove nodes; a second OpenSpiel row with `solve=True` (its default) is printed too.
- measurement: a move from the start position (the widest tree) and from a few mid-round
  positions, timed in alternating blocks so machine load hits all contenders alike; the
  figure is the median over blocks of simulations per second.

A second table runs our MCTS on trapworks' own Last Mouse Lost (basic rules, first_to=1):
the same game but with Last Mouse Lost's action space (every set of mice in a row is its own
action, 202 at the start, where nim has 28 "take k from pile p" actions) and the pure-Python
game engine.

    python bench/mcts_vs_openspiel.py [--simulations 1000] [--blocks 5] [--positions 4]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts as spiel_mcts

import trapworks
from trapworks.agents.mcts import MCTSAgent
from trapworks.core import Game, State

PILES = "3;5;6;6;5;3"


class SpielGame(Game):
    """A pyspiel game seen through the trapworks kernel (for this benchmark only)."""

    game_id = "openspiel-nim"
    title = "OpenSpiel nim (adapter)"

    def __init__(self, spiel_game):
        super().__init__()
        self.spiel_game = spiel_game

    def num_players(self) -> int:
        return self.spiel_game.num_players()

    def new_initial_state(self, seed=None) -> SpielState:
        return SpielState(self, self.spiel_game.new_initial_state())


class SpielState(State):
    def __init__(self, game: SpielGame, spiel_state):
        super().__init__(game)
        self.s = spiel_state

    def current_player(self) -> int:
        return self.s.current_player()  # same numbers: -1 chance, -4 terminal

    def is_terminal(self) -> bool:
        return self.s.is_terminal()

    def _legal_actions(self):
        return self.s.legal_actions()

    def _chance_outcomes(self):
        return self.s.chance_outcomes()

    def _why_illegal(self, action):
        return None  # pyspiel validates the action itself

    def _apply_action(self, action):
        self.s.apply_action(action)

    def returns(self):
        return self.s.returns()

    def clone(self) -> SpielState:
        new = SpielState.__new__(SpielState)
        new.game = self.game
        new.seed = None
        new.start = None
        new._history = []  # the adapter keeps no history: the pyspiel state has its own
        new._events = []
        new.s = self.s.clone()
        return new

    def action_to_string(self, action, player=None):
        return self.s.action_to_string(action)


def positions(spiel_game, count: int, rng: random.Random):
    """The start position and `count - 1` mid-round positions (4-8 random moves in)."""
    out = [spiel_game.new_initial_state()]
    while len(out) < count:
        s = spiel_game.new_initial_state()
        for _ in range(rng.randint(4, 8)):
            s.apply_action(rng.choice(s.legal_actions()))
        if not s.is_terminal() and len(s.legal_actions()) > 1:
            out.append(s)
    return out


def time_ours(game: SpielGame, spiel_states, sims: int, seed: int) -> float:
    agent = MCTSAgent(game, 0, seed=seed, iterations=sims, c=1.0)
    total = 0.0
    for ss in spiel_states:
        state = SpielState(game, ss.clone())
        t = time.perf_counter()
        agent.step(state)
        total += time.perf_counter() - t
        assert agent.last_iterations == sims
    return sims * len(spiel_states) / total


def time_theirs(spiel_game, spiel_states, sims: int, seed: int, solve: bool) -> float:
    rs = np.random.RandomState(seed)
    bot = spiel_mcts.MCTSBot(
        spiel_game,
        uct_c=2.0,
        max_simulations=sims,
        evaluator=spiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs),
        solve=solve,
        random_state=rs,
    )
    total = 0.0
    for ss in spiel_states:
        state = ss.clone()
        t = time.perf_counter()
        bot.step(state)
        total += time.perf_counter() - t
    return sims * len(spiel_states) / total


def time_ours_lml(sims: int, seed: int, count: int, rng: random.Random) -> float:
    game = trapworks.make("last-mouse-lost", rules="basic", first_to=1)
    states = [game.new_initial_state()]
    while len(states) < count:
        s = game.new_initial_state()
        for _ in range(rng.randint(4, 8)):
            s.apply_action(rng.choice(s.legal_actions()))
        if not s.is_terminal() and len(s.legal_actions()) > 1:
            states.append(s)
    agent = MCTSAgent(game, 0, seed=seed, iterations=sims, c=1.0)
    total = 0.0
    for s in states:
        s = s.clone()
        agent.seat = s.current_player()
        t = time.perf_counter()
        agent.step(s)
        total += time.perf_counter() - t
    return sims * len(states) / total


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--simulations", type=int, default=1000, help="simulations per move (both searches)")
    parser.add_argument("--blocks", type=int, default=5, help="alternating timing blocks")
    parser.add_argument("--positions", type=int, default=4, help="positions searched per block")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    spiel_game = pyspiel.load_game("nim", {"pile_sizes": PILES, "is_misere": True})
    game = SpielGame(spiel_game)
    rng = random.Random(args.seed)
    states = positions(spiel_game, args.positions, rng)
    names = [
        "trapworks MCTSAgent on nim (adapter)",
        "OpenSpiel MCTSBot, solve=False",
        "OpenSpiel MCTSBot, solve=True (default)",
        "trapworks MCTSAgent on last-mouse-lost",
    ]
    rates: dict[str, list[float]] = {k: [] for k in names}
    for b in range(args.blocks):
        seed = args.seed + b
        rates[names[0]].append(time_ours(game, states, args.simulations, seed))
        rates[names[1]].append(time_theirs(spiel_game, states, args.simulations, seed, solve=False))
        rates[names[2]].append(time_theirs(spiel_game, states, args.simulations, seed, solve=True))
        rates[names[3]].append(
            time_ours_lml(args.simulations, seed, args.positions, random.Random(args.seed))
        )
    med = {k: statistics.median(v) for k, v in rates.items()}

    print(
        f"python {platform.python_version()}, pyspiel nim pile_sizes={PILES} misère, "
        f"{args.simulations} simulations per move, random rollouts (1 per leaf), "
        f"{args.positions} positions x {args.blocks} alternating blocks, median over blocks"
    )
    print("| search | game | simulations/s (median) | min–max over blocks |")
    print("|---|---|---:|---:|")
    for k in names:
        game_name = (
            "last-mouse-lost basic, first_to=1 (pure Python)" if "last-mouse" in k else "OpenSpiel nim (C++)"
        )
        label = k.replace(" on nim (adapter)", " (via adapter)").replace(" on last-mouse-lost", "")
        print(f"| {label} | {game_name} | {med[k]:,.0f} | {min(rates[k]):,.0f}–{max(rates[k]):,.0f} |")
    print(
        f"\nratio ours / OpenSpiel MCTSBot (solve=False), same game, same budget: "
        f"**{med[names[0]] / med[names[1]]:.2f}x**"
    )
    print(f"ratio ours / OpenSpiel MCTSBot (solve=True): {med[names[0]] / med[names[2]]:.2f}x")


if __name__ == "__main__":
    main()
