"""Tabular Q-learning (OpenSpiel's QLearner) learns Last Mouse Lost's misère rule by self-play.

Two QLearners play each other on a small board through `trapworks.adapters.openspiel` and
OpenSpiel's rl_environment. Every `eval_every` episodes the greedy policies are measured:
- their win rate against a uniformly random opponent (both seats, the first player drawn at
  random), next to a random player's own win rate against random (the baseline, about 0.5);
- how often, in every position where the player to move can force a win, the greedy move is one
  of the winning moves, as trapworks' exact solver (the misère-Nim rule) judges it.

    .venv/bin/python examples/lml_qlearning.py                     # full size: plot + JSON in docs/
    .venv/bin/python examples/lml_qlearning.py --episodes 3000 --no-plot

The test suite runs `train()` at a small budget and asserts the learners beat random.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import random_agent, tabular_qlearner

import trapworks.adapters.openspiel  # noqa: F401 (registers the games)
from trapworks.games.last_mouse_lost import solve

DOCS = Path(__file__).resolve().parent.parent / "docs"


def game_string(board: list[int]) -> str:
    # One round, the opener drawn at random (a chance node), basic rules.
    return f"trapworks_last_mouse_lost(board={';'.join(map(str, board))};,first_to=1,first_player=-1)"


def play(env: rl_environment.Environment, agents: list[Any], learn: bool) -> list[float]:
    time_step = env.reset()
    while not time_step.last():
        player = time_step.observations["current_player"]
        out = agents[player].step(time_step, is_evaluation=not learn)
        time_step = env.step([out.action])
    for agent in agents:
        agent.step(time_step, is_evaluation=not learn)
    return time_step.rewards


def win_rate_vs_random(env, learners, randoms, games: int) -> float:
    wins = 0
    for g in range(games):
        seat = g % 2
        agents = [learners[0], randoms[1]] if seat == 0 else [randoms[0], learners[1]]
        wins += play(env, agents, learn=False)[seat] > 0
    return wins / games


def random_baseline(env, randoms, games: int) -> float:
    return sum(play(env, randoms, learn=False)[g % 2] > 0 for g in range(games)) / games


def optimal_move_rate(game: pyspiel.Game, learners) -> float:
    """Share of winning positions (for the mover) where the greedy move wins, over every position
    reachable on the board."""
    seen: dict[str, pyspiel.State] = {}
    frontier = [game.new_initial_state()]
    while frontier:
        state = frontier.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            for a, _ in state.chance_outcomes():
                frontier.append(state.child(a))
            continue
        key = str(state.observation_tensor(state.current_player()))
        if key in seen:
            continue
        seen[key] = state
        frontier.extend(state.child(a) for a in state.legal_actions())
    good = total = 0
    for key, state in seen.items():
        player = state.current_player()
        if solve(state.tw).outcome != "win":
            continue
        q = learners[player]._q_values.get(key)  # the QLearner's table, keyed by the tensor's text
        legal = state.legal_actions()
        best = max(legal, key=lambda a: q[a]) if q else legal[0]
        after = state.child(best)
        total += 1
        good += after.is_terminal() is False and solve(after.tw).outcome == "loss"
    return good / max(1, total)


def train(board: list[int], episodes: int, eval_every: int, eval_games: int, seed: int = 0) -> dict[str, Any]:
    random.seed(seed)
    np.random.seed(seed)
    game = pyspiel.load_game(game_string(board))
    # rl_environment ignores `seed=` for a game object (it is a game parameter then): the chance
    # nodes (who opens) are drawn by a seeded sampler; the agents draw from numpy's generator,
    # seeded above. So the same command gives the same figures.
    # Last Mouse Lost has perfect information: the observation is the whole position (the
    # information state adds the history, which a tabular learner would only split on).
    env = rl_environment.Environment(
        game,
        chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed),
        observation_type=rl_environment.ObservationType.OBSERVATION,
    )
    n = env.action_spec()["num_actions"]
    learners = [tabular_qlearner.QLearner(player_id=p, num_actions=n, step_size=0.2) for p in range(2)]
    randoms = [random_agent.RandomAgent(player_id=p, num_actions=n) for p in range(2)]
    baseline = random_baseline(env, randoms, eval_games)
    history = []
    start = time.perf_counter()
    for episode in range(episodes + 1):
        if episode % eval_every == 0:
            history.append(
                {
                    "episode": episode,
                    "win_rate_vs_random": win_rate_vs_random(env, learners, randoms, eval_games),
                    "optimal_move_rate": optimal_move_rate(game, learners),
                }
            )
        if episode < episodes:
            play(env, learners, learn=True)
    return {
        "board": board,
        "episodes": episodes,
        "eval_games": eval_games,
        "seed": seed,
        "random_vs_random": baseline,
        "history": history,
        "seconds": round(time.perf_counter() - start, 1),
    }


def plot(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    h = result["history"]
    x = [r["episode"] for r in h]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=120)
    ax.plot(x, [r["win_rate_vs_random"] for r in h], label="Q-learner's win rate vs random")
    ax.plot(x, [r["optimal_move_rate"] for r in h], label="winning positions: greedy move wins (solver)")
    ax.axhline(result["random_vs_random"], color="grey", ls="--", label="random vs random")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("self-play episodes")
    ax.set_title(f"OpenSpiel tabular Q-learning, Last Mouse Lost board {result['board']} (one round)")
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="2,3,4", help="row lengths, e.g. 2,3,4")
    parser.add_argument("--episodes", type=int, default=30000)
    parser.add_argument("--eval-every", type=int, default=1500)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-plot", action="store_true")
    args = parser.parse_args()
    board = [int(x) for x in args.board.split(",")]
    result = train(board, args.episodes, args.eval_every, args.eval_games, args.seed)
    last = result["history"][-1]
    print(
        f"board {board}: after {args.episodes} episodes ({result['seconds']} s) the Q-learners win "
        f"{last['win_rate_vs_random']:.1%} against random "
        f"(random vs random: {result['random_vs_random']:.1%}); "
        f"greedy move wins in {last['optimal_move_rate']:.1%} of the winning positions"
    )
    if not args.no_plot:
        (DOCS / "research-qlearning.json").write_text(json.dumps(result, indent=1) + "\n")
        plot(result, DOCS / "research-qlearning.png")
        print(f"wrote {DOCS / 'research-qlearning.png'} and research-qlearning.json")


if __name__ == "__main__":
    main()
