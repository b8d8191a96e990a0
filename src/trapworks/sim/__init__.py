"""Simulation: many games between agents, in chunks, on local processes or a Ray cluster.

Each game's seed is derived from the run's seed and the game's number alone (`game_seed`), so a
run gives the same rows whatever the backend, the number of workers or the chunk size, and a
resumed run plays exactly the games that are missing. `run()` yields results in memory (what
the tests and bench scripts use); `trapworks.sim.runner.execute` writes rows to Parquet/CSV in
resumable chunks (what `simulate`, `tournament` and `explore` use).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from statistics import mean, median
from typing import Any

from trapworks.agents import make_agent
from trapworks.core import CHANCE, game_statistics, make, sample_chance
from trapworks.core.game import stats_hook
from trapworks.core.randomness import derive, seed_key

SEED_BITS = 63  # per-game seeds fit a signed 64-bit column


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game `index` of a run: a function of the run's seed and the index only."""
    return derive(seed_key(run_seed), "sim-game", index) >> (256 - SEED_BITS)


@dataclass
class GameResult:
    index: int
    seed: int
    seats: list[str]  # agent name per seat
    returns: list[float]
    winners: list[int]
    truncated: bool
    actions: int  # every action, chance included
    decisions: int  # actions chosen by seats
    stats: dict[str, Any] = field(default_factory=dict)  # the game's own statistics (scalars)
    first_seat: int | None = None  # the seat (0-based) that made the first decision
    record: dict[str, Any] | None = None  # the game record (GameRecord.to_dict), when asked for

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def play_one(
    game_id: str,
    options: dict[str, Any],
    seats: list[str],
    seed: int,
    index: int = 0,
    max_actions: int | None = None,
    keep_record: bool = False,
) -> GameResult:
    game = make(game_id, **options)
    rng = random.Random(seed)
    # Untimed: the same seed gives the same game on any machine, whatever its load.
    agents = [make_agent(a, game, s, seed=rng.randrange(2**63), timed=False) for s, a in enumerate(seats)]
    state = game.new_initial_state(seed=rng.randrange(2**63))
    want_stats = stats_hook(type(game)) is not None
    events: list[dict[str, Any]] = []
    n = game.num_players()
    decisions = actions = 0
    first_seat: int | None = None
    limit = max_actions if max_actions is not None else game.max_game_length()
    while not state.is_terminal():
        if limit is not None and actions >= limit:
            break
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            if first_seat is None:
                first_seat = player
            state.apply_action(agents[player].step(state))
            decisions += 1
        actions += 1
        if want_stats:
            # Each event once: state.stat_events() is the game's own list (private ones included);
            # gathering every seat's view would count an event once per seat that sees it.
            events.extend(state.stat_events())
    finished = state.is_terminal()
    truncated = (not finished) or state.is_truncated()
    returns = state.returns() if finished else [0.0] * n
    stats = game_statistics(state, events) if want_stats else {}
    if not finished:
        stats["ending"] = "max-actions"  # stopped by the run's --max-actions
    record = None
    if keep_record:
        from trapworks.core.record import GameRecord

        rec = GameRecord.from_state(state, players=list(seats))
        rec.created = ""  # the same record whenever the game is played again
        record = rec.to_dict()
    return GameResult(
        index,
        seed,
        list(seats),
        list(returns),
        [] if truncated else state.winners(),
        truncated,
        actions,
        decisions,
        stats,
        first_seat,
        record,
    )


def _play_chunk(args: tuple[Any, ...]) -> list[GameResult]:
    game_id, options, jobs, max_actions = args
    return [play_one(game_id, options, seats, seed, index, max_actions) for index, seats, seed in jobs]


def seat_plan(agents: list[str], num_players: int, n: int, rotate: bool) -> list[list[str]]:
    """Agents per seat for each game; with `rotate`, game i shifts the agents by i seats."""
    return [seats_for(agents, num_players, i, rotate) for i in range(n)]


def seats_for(agents: list[str], num_players: int, index: int, rotate: bool) -> list[str]:
    """Agents per seat of game `index` (one name fills every seat).

    With `rotate`, seat j of game i holds agents[(i + j) % len(agents)]: as many agents as seats
    shift one seat per game; fewer agents than seats (3 agents, 4 seats) fill the seats in turn,
    so some agent holds two seats in each game, and which one changes game by game: over any
    len(agents) consecutive games every agent holds every seat once and the extra seats equally.
    """
    if len(agents) == 1:
        return agents * num_players
    if len(agents) > num_players or (len(agents) < num_players and not rotate):
        raise ValueError(f"{len(agents)} agents given for a {num_players}-player game")
    k = index if rotate else 0
    return [agents[(k + j) % len(agents)] for j in range(num_players)]


def run(
    game_id: str,
    n: int,
    agents: list[str],
    options: dict[str, Any] | None = None,
    seed: int = 0,
    workers: int = 1,
    rotate: bool = False,
    max_actions: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[GameResult]:
    """Play `n` games on local processes; yield results in order of index."""
    options = dict(options or {})
    game = make(game_id, **options)  # validate options and agents before any work
    plans = seat_plan(agents, game.num_players(), n, rotate)
    for name in set(agents):
        make_agent(name, game, 0)
    jobs = [(i, plans[i], game_seed(seed, i)) for i in range(n)]
    chunk = max(1, min(200, n // (workers * 8) or 1))
    chunks = [jobs[i : i + chunk] for i in range(0, n, chunk)]
    if workers <= 1:
        for c in chunks:
            results = _play_chunk((game_id, options, c, max_actions))
            if progress:
                progress(len(results))
            yield from results
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for results in pool.map(_play_chunk, [(game_id, options, c, max_actions) for c in chunks]):
            if progress:
                progress(len(results))
            yield from results


@dataclass
class Summary:
    games: int = 0
    truncated: int = 0
    seat_wins: list[int] = field(default_factory=list)
    agent_wins: dict[str, int] = field(default_factory=dict)
    agent_games: dict[str, int] = field(default_factory=dict)
    lengths: list[int] = field(default_factory=list)

    def add(self, r: GameResult) -> None:
        self.add_game(r.seats, r.winners, r.truncated, r.decisions)

    def add_game(self, seats: list[str], winners: list[int], truncated: bool, length: int) -> None:
        if not self.seat_wins:
            self.seat_wins = [0] * len(seats)
        self.games += 1
        self.truncated += truncated
        self.lengths.append(length)
        for name in set(seats):
            self.agent_games[name] = self.agent_games.get(name, 0) + 1
        for w in winners:
            self.seat_wins[w] += 1
            self.agent_wins[seats[w]] = self.agent_wins.get(seats[w], 0) + 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "truncated": self.truncated,
            "seat_wins": self.seat_wins,
            "agent_wins": self.agent_wins,
            "agent_games": self.agent_games,
            "length_mean": mean(self.lengths) if self.lengths else None,
            "length_median": median(self.lengths) if self.lengths else None,
            "length_min": min(self.lengths) if self.lengths else None,
            "length_max": max(self.lengths) if self.lengths else None,
        }


def summarise(results: Any) -> Summary:
    s = Summary()
    for r in results:
        s.add(r)
    return s
