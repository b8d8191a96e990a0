"""How long a "hard" agent's move takes, in every registered game (target: at most 1 s).

For each game: games are played with the hard level in one seat (rotating game by game) and
the game's heuristic agent (random where the game has none) in the others; every call of the
hard agent's `step` is timed with `time.perf_counter`, until `--moves` moves are collected.
Reported: moves timed, moves that needed a search (more than one legal action), median, 95th
percentile and largest time, moves over 1 s, and the mean number of search iterations.

    python bench/hard_move_time.py [--moves 120] [--games GAME,...] [--seed 1] [--generic]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

import trapworks
from trapworks.agents import available_agents, make_agent, rollout_policy
from trapworks.agents.levels import GENERIC_LEVELS, describe_levels
from trapworks.core import CHANCE, sample_chance


def generic_hard(game, seat: int, seed: int):
    """The generic hard level (tree search), ignoring the game's own `levels`."""
    settings = dict(GENERIC_LEVELS["hard"])
    settings.pop("agent")
    name = "ismcts" if game.has_hidden_information else "mcts"
    if rollout_policy(game) is None:
        settings.pop("heuristic_share")
        settings.pop("prior_weight")
    return make_agent(
        name, game, seat, seed=seed, **settings
    ), f"{name} ({', '.join(f'{k}={v}' for k, v in settings.items())})"


def measure(game_id: str, moves: int, seed: int, generic: bool = False) -> dict:
    game = trapworks.make(game_id)
    other = "heuristic" if "heuristic" in available_agents(game) else "random"
    rng = random.Random(seed)
    times: list[float] = []
    iterations: list[int] = []
    searched = 0
    index = 0
    while len(times) < moves:
        seat_of_hard = index % game.num_players()
        agents = [make_agent(other, game, s, seed=rng.randrange(2**63)) for s in range(game.num_players())]
        if generic:
            hard, label = generic_hard(game, seat_of_hard, rng.randrange(2**63))
        else:
            hard, label = (
                make_agent("hard", game, seat_of_hard, seed=rng.randrange(2**63)),
                describe_levels(game)["hard"],
            )
        agents[seat_of_hard] = hard
        state = game.new_initial_state(seed=rng.randrange(2**63))
        limit = game.max_game_length() or 10**6
        n = 0
        while not state.is_terminal() and n < limit and len(times) < moves:
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample_chance(state, rng))
            elif player == seat_of_hard:
                t = time.perf_counter()
                action = hard.step(state)
                times.append(time.perf_counter() - t)
                if getattr(hard, "last_iterations", 0):  # a game's own agent may play "hard"
                    searched += 1
                    iterations.append(hard.last_iterations)
                state.apply_action(action)
            else:
                state.apply_action(agents[player].step(state))
            n += 1
        index += 1
    times.sort()
    return {
        "game": game_id,
        "level": label,
        "opponents": other,
        "games": index,
        "moves": len(times),
        "searched": searched,
        "median": statistics.median(times),
        "p95": times[min(len(times) - 1, int(0.95 * len(times)))],
        "max": times[-1],
        "over_1s": sum(t > 1.0 for t in times),
        "iterations": statistics.fmean(iterations) if iterations else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=120, help="hard moves timed per game")
    parser.add_argument("--games", default=None, help="comma-separated game ids (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--generic",
        action="store_true",
        help="time the generic hard search, even where a game declares its own hard level",
    )
    args = parser.parse_args()
    games = args.games.split(",") if args.games else trapworks.available_games()
    print(
        f"python {platform.python_version()}; hard moves timed with time.perf_counter "
        f"({args.moves} per game, hard agent rotating through the seats)"
    )
    print(
        "| game | hard = | opponents | games | moves | searched | median s | p95 s | max s | > 1 s "
        "| mean iterations |"
    )
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for gid in games:
        r = measure(gid, args.moves, args.seed, args.generic)
        print(
            f"| {r['game']} | {r['level']} | {r['opponents']} | {r['games']} | {r['moves']} "
            f"| {r['searched']} | "
            f"{r['median']:.3f} | {r['p95']:.3f} | {r['max']:.3f} | {r['over_1s']} | {r['iterations']:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
