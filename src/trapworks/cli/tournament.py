"""`trapworks tournament`: agents against each other, seats rotated, with confidence and ratings.

With as many agents as seats, every game seats all of them, shifted one seat per game. With
more agents than seats, every group of that many agents plays its own series; with fewer (two
agents in a four-player game), the agents fill the seats in turn (A,B,A,B) and rotate.
Results: per agent games, wins, draws (truncated games and games without a winner), win rate
with a 95% Wilson interval; head-to-head scores; Elo-style ratings fitted to every pairwise
result (Bradley-Terry maximum likelihood; a winner beats each loser at the table, draws count
half; one virtual draw per pair keeps an unbeaten agent's rating finite); a CSV with one
row per game and a summary CSV beside it.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import typer

Z95 = 1.959963984540054

if TYPE_CHECKING:
    from rich.console import JustifyMethod


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default); (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_ratings(
    scores: dict[tuple[str, str], tuple[float, float]],
    agents: list[str],
    prior_draws: float = 1.0,
    iterations: int = 2000,
) -> dict[str, float]:
    """Bradley-Terry strengths fitted by the MM algorithm, as Elo points with mean 1500.

    `scores[(a, b)] = (points of a, games)` over the games between a and b (a win 1, a draw 0.5).
    """
    wins = {a: 0.0 for a in agents}
    games: dict[tuple[str, str], float] = {}
    for (a, b), (pts, n) in scores.items():
        wins[a] += pts
        wins[b] += n - pts
        key = (a, b) if a < b else (b, a)
        games[key] = games.get(key, 0.0) + n
    for a, b in itertools.combinations(sorted(agents), 2):  # the virtual draws
        wins[a] += prior_draws / 2
        wins[b] += prior_draws / 2
        games[(a, b)] = games.get((a, b), 0.0) + prior_draws
    strength = {a: 1.0 for a in agents}
    for _ in range(iterations):
        new = {}
        for a in agents:
            denom = 0.0
            for (x, y), n in games.items():
                if a in (x, y):
                    other = y if a == x else x
                    denom += n / (strength[a] + strength[other])
            new[a] = wins[a] / denom if denom > 0 else strength[a]
        mean_log = sum(math.log(v) for v in new.values()) / len(new)
        new = {a: v / math.exp(mean_log) for a, v in new.items()}
        done = max(abs(new[a] - strength[a]) for a in agents) < 1e-10
        strength = new
        if done:
            break
    return {a: 1500 + 400 * math.log10(strength[a]) for a in agents}


def lineups(agents: list[str], seats: int) -> list[list[str]]:
    """The groups of agents that play a series (before seat rotation)."""
    if len(agents) >= seats:
        return [list(c) for c in itertools.combinations(agents, seats)]
    return [[agents[i % len(agents)] for i in range(seats)]]


@dataclass
class Standings:
    agents: list[str]
    games: dict[str, int] = field(default_factory=dict)
    wins: dict[str, int] = field(default_factory=dict)
    draws: dict[str, int] = field(default_factory=dict)
    # (a, b) -> [points of a, games] over games with a and b at the table
    pairs: dict[tuple[str, str], list[float]] = field(default_factory=dict)

    def add(self, seats: list[str], winners: list[int], truncated: bool) -> None:
        present = set(seats)
        won = {seats[w] for w in winners}
        for name in present:
            self.games[name] = self.games.get(name, 0) + 1
            if name in won:
                self.wins[name] = self.wins.get(name, 0) + 1
            elif truncated or not winners:
                self.draws[name] = self.draws.get(name, 0) + 1
        for a, b in itertools.combinations(sorted(present), 2):
            rec = self.pairs.setdefault((a, b), [0.0, 0])
            rec[1] += 1
            if (a in won) != (b in won):
                rec[0] += 1.0 if a in won else 0.0
            else:
                rec[0] += 0.5  # both won, nobody won, or both lost to a third agent

    def rows(self) -> list[dict[str, Any]]:
        ratings = elo_ratings({k: (v[0], v[1]) for k, v in self.pairs.items()}, self.agents)
        out = []
        for name in self.agents:
            g = self.games.get(name, 0)
            w = self.wins.get(name, 0)
            lo, hi = wilson(w, g)
            out.append(
                {
                    "agent": name,
                    "games": g,
                    "wins": w,
                    "draws": self.draws.get(name, 0),
                    "win_rate": w / g if g else 0.0,
                    "ci_low": lo,
                    "ci_high": hi,
                    "elo": ratings[name],
                }
            )
        return sorted(out, key=lambda r: -r["elo"])


def register(app: typer.Typer) -> None:
    @app.command("tournament")
    def tournament_command(
        game_id: str = typer.Argument(..., help="Game id (see `trapworks games`)."),
        agents: str = typer.Option(
            ...,
            "--agents",
            "-a",
            help="Agents, comma-separated, e.g. hard,heuristic,random (levels: easy, medium, hard).",
        ),
        n: int = typer.Option(100, "-n", help="Games per group of agents (seats rotate game by game)."),
        players: int | None = typer.Option(
            None, "--players", "-p", help="Number of players, for games that allow several."
        ),
        option: list[str] | None = typer.Option(
            None, "--option", "-o", help="Game option as key=value (repeatable)."
        ),
        seed: int = typer.Option(0, help="Seed of the whole tournament."),
        workers: int = typer.Option(1, "--workers", "-w", help="Worker processes."),
        max_actions: int | None = typer.Option(
            None, help="Stop (truncate: a draw) a game after this many actions."
        ),
        out: Path | None = typer.Option(
            None,
            help="CSV of per-game results (default: the data folder); "
            "the summary goes beside it as *-summary.csv.",
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the standings as JSON."),
    ) -> None:
        """Seat-rotated matches between agents: win rates with 95% intervals, Elo-style ratings, CSV."""
        from rich.table import Table

        from trapworks import sim
        from trapworks.agents import analysis_agents, available_agents
        from trapworks.core import TrapworksError

        from . import _make_game, console, err, fail
        from .options import data_dir, game_options, games_progress

        if n < 1:
            fail("-n must be at least 1")
        options = game_options(option, players)
        game = _make_game(game_id, options)
        names = [a.strip() for a in agents.split(",") if a.strip()]
        if len(names) < 2:
            fail("a tournament needs at least two agents, e.g. --agents hard,random")
        if len(set(names)) != len(names):
            fail(f"agent listed twice in {agents!r}")
        known = available_agents(game) + analysis_agents(game)  # an oracle may be measured here
        for name in names:
            if name not in known:
                fail(f"unknown agent {name!r} for {game_id}; available: {', '.join(known)}")
        groups = lineups(names, game.num_players())
        if out is None:
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
            out = data_dir() / "tournaments" / f"{game_id}-{stamp}.csv"
        out.parent.mkdir(parents=True, exist_ok=True)
        standings = Standings(names)
        fieldnames = [
            "series",
            "game",
            "seed",
            "seats",
            "returns",
            "winners",
            "truncated",
            "actions",
            "decisions",
        ]
        try:
            with out.open("w", newline="") as fh, games_progress("tournament", err, as_json) as progress:
                writer = csv.DictWriter(fh, fieldnames=fieldnames)
                writer.writeheader()
                task = progress.add_task("games", total=n * len(groups))
                for gi, group in enumerate(groups):
                    for r in sim.run(
                        game_id,
                        n,
                        group,
                        options,
                        seed=seed + 7919 * gi,
                        workers=workers,
                        rotate=True,
                        max_actions=max_actions,
                        progress=lambda k: progress.advance(task, k),
                    ):
                        standings.add(r.seats, r.winners, r.truncated)
                        writer.writerow(
                            {
                                "series": ",".join(group),
                                "game": r.index,
                                "seed": r.seed,
                                "seats": ",".join(r.seats),
                                "returns": json.dumps(r.returns),
                                "winners": ",".join(str(w) for w in r.winners),
                                "truncated": r.truncated,
                                "actions": r.actions,
                                "decisions": r.decisions,
                            }
                        )
        except (TrapworksError, ValueError) as e:
            fail(str(e))
        rows = standings.rows()
        summary = out.with_name(out.stem + "-summary.csv")
        with summary.open("w", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        if as_json:
            print(
                json.dumps(
                    {
                        "game": game_id,
                        "options": game.public_options(),
                        "games_per_series": n,
                        "series": groups,
                        "standings": rows,
                        "head_to_head": [
                            {"a": a, "b": b, "points_a": p, "games": g}
                            for (a, b), (p, g) in sorted(standings.pairs.items())
                        ],
                        "csv": str(out),
                        "summary_csv": str(summary),
                    }
                )
            )
            return
        total = n * len(groups)
        table = Table(title=f"{game.title}: {total} games, seats rotated ({len(groups)} series of {n})")
        for col, justify in (
            ("agent", "left"),
            ("games", "right"),
            ("wins", "right"),
            ("draws", "right"),
            ("win rate", "right"),
            ("95% CI", "right"),
            ("Elo", "right"),
        ):
            table.add_column(col, justify=cast("JustifyMethod", justify))
        for row in rows:
            table.add_row(
                row["agent"],
                str(row["games"]),
                str(row["wins"]),
                str(row["draws"]),
                f"{row['win_rate']:.1%}",
                f"{row['ci_low']:.1%}–{row['ci_high']:.1%}",
                f"{row['elo']:.0f}",
            )
        console.print(table)
        h2h = Table(title="head to head (points of the first agent: win 1, draw 0.5)")
        for col in ("agents", "games", "score", "95% CI"):
            h2h.add_column(col)
        for (a, b), (pts, g) in sorted(standings.pairs.items()):
            lo, hi = wilson(pts, int(g))
            h2h.add_row(f"{a} vs {b}", str(int(g)), f"{pts / g:.1%}", f"{lo:.1%}–{hi:.1%}")
        console.print(h2h)
        console.print(f"Results: {out}\nSummary: {summary}", markup=False)
