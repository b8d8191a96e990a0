"""`trapworks tournament`: agents against each other, seats rotated, with confidence and ratings.

With as many agents as seats, every game seats all of them, shifted one seat per game. With
more agents than seats, every group of that many agents plays its own series; with fewer (three
agents in a four-player game), the agents fill the seats in turn and rotate (game 0 A,B,C,A,
game 1 B,C,A,B, game 2 C,A,B,C): each agent holds two seats in one game of three and every seat
equally often, and the output says so (an agent with two seats wins when either seat wins).
Results: per agent games, wins, draws (truncated games and games without a winner), win rate
with a 95% Wilson interval (statsmodels); head-to-head scores; Elo ratings fitted to every
pairwise result by OpenSpiel's `elo` (Bradley-Terry maximum likelihood, Hunter's MM algorithm:
a winner beats each loser at the table, anything else between two agents is a draw); rows like
`simulate`'s (one per game, Parquet or CSV, with a `series` column) and a summary beside them.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer

from trapworks.core.words import plural
from trapworks.sim.stats import elo_ratings, wilson

from .simulate import (  # the options every run command shares, defined once
    ADDRESS_OPTION,
    BACKEND_OPTION,
    FMT_OPTION,
    PLAYERS_OPTION,
    RESUME_OPTION,
    RETRIES_OPTION,
    WORKERS_OPTION,
)

__all__ = ["Standings", "elo_ratings", "lineups", "register", "wilson"]


def lineups(agents: list[str], seats: int) -> list[list[str]]:
    """The groups of agents that play a series (each rotated through the seats game by game,
    `trapworks.sim.seats_for`); fewer agents than seats play one series with every agent."""
    if len(agents) >= seats:
        return [list(c) for c in itertools.combinations(agents, seats)]
    return [list(agents)]


def shared_seats_note(agents: list[str], seats: int) -> str | None:
    """What the standings mean when there are fewer agents than seats (None otherwise)."""
    if len(agents) >= seats:
        return None
    doubled = seats - len(agents)
    return (
        f"{len(agents)} agents for {seats} seats: the agents fill the seats in turn, rotated game by "
        f"game, so {doubled} {plural(doubled, 'agent holds', 'agents hold')} two seats in every game "
        "(each agent equally "
        "often, every seat equally often); an agent with two seats wins when either seat wins, "
        f"so win rates are not comparable with 1/{seats}"
    )


@dataclass
class Standings:
    agents: list[str]
    games: dict[str, int] = field(default_factory=dict)
    wins: dict[str, int] = field(default_factory=dict)
    draws: dict[str, int] = field(default_factory=dict)
    # (a, b) with a < b -> [points of a, games] over games with a and b at the table
    pairs: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    beat: dict[tuple[str, str], int] = field(default_factory=dict)  # (winner, loser) -> games
    tied: dict[tuple[str, str], int] = field(default_factory=dict)  # (a, b), a < b -> games

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
                key = (a, b) if a in won else (b, a)
                self.beat[key] = self.beat.get(key, 0) + 1
            else:
                rec[0] += 0.5  # both won, nobody won, or both lost to a third agent
                self.tied[(a, b)] = self.tied.get((a, b), 0) + 1

    def rows(self) -> list[dict[str, Any]]:
        ratings = elo_ratings(self.beat, self.tied, self.agents)
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


# `tournament`'s options, named here so that the command reads as its list of parameters.
GAME_ID_ARGUMENT = typer.Argument(..., help="Game id (see `trapworks games`).")
AGENTS_OPTION = typer.Option(
    ...,
    "--agents",
    "-a",
    help="Agents, comma-separated, e.g. hard,heuristic,random (levels: easy, medium, hard).",
)
N_OPTION = typer.Option(100, "-n", help="Games per group of agents (seats rotate game by game).")
OPTION_OPTION = typer.Option(None, "--option", "-o", help="Game option as key=value (repeatable).")
SEED_OPTION = typer.Option(0, help="Seed of the whole tournament.")
MAX_ACTIONS_OPTION = typer.Option(None, help="Stop (truncate: a draw) a game after this many actions.")
OUT_OPTION = typer.Option(
    None,
    help="Rows file, .parquet or .csv (default: a .parquet in the data folder's tournaments/); "
    "the standings go beside it as *-summary.parquet / .csv.",
)
AS_JSON_OPTION = typer.Option(False, "--json", help="Print the standings as JSON.")


def register(app: typer.Typer) -> None:

    @app.command("tournament")
    def tournament_command(
        game_id: str = GAME_ID_ARGUMENT,
        agents: str = AGENTS_OPTION,
        n: int = N_OPTION,
        players: int | None = PLAYERS_OPTION,
        option: list[str] | None = OPTION_OPTION,
        seed: int = SEED_OPTION,
        workers: int = WORKERS_OPTION,
        max_actions: int | None = MAX_ACTIONS_OPTION,
        out: Path | None = OUT_OPTION,
        fmt: str | None = FMT_OPTION,
        backend: str = BACKEND_OPTION,
        address: str | None = ADDRESS_OPTION,
        resume: bool = RESUME_OPTION,
        retries: int = RETRIES_OPTION,
        as_json: bool = AS_JSON_OPTION,
    ) -> None:
        """Seat-rotated matches between agents: win rates with 95% intervals, Elo ratings, rows."""

        from trapworks.sim.provenance import command_line, provenance
        from trapworks.sim.rows import stream_join, to_table, write_table
        from trapworks.sim.runner import engine_used

        from . import console
        from .simulate import checked_run, emit_json, json_mode, output_path, run_jobs

        if as_json:
            json_mode()
        game, options, names = checked_run(game_id, option, players, agents, n, backend, workers, address)
        _check_entrants(game, game_id, names, agents)
        groups = lineups(names, game.num_players())
        path, fmt = output_path(out, "tournaments", game_id, fmt)
        jobs = _series_jobs(game_id, groups, n, options, seed, max_actions, workers, path)
        engine, engine_words = engine_used([j.spec for j in jobs], "series", game)
        done = run_jobs(jobs, backend, workers, address, resume, retries, as_json, label="tournament")
        meta = provenance({"agents": names, "n": n, "options": options, "seed": seed}, command_line())
        stream_join(done, path, fmt, meta, rename={"cell": "series"})
        for job in jobs:
            job.out.unlink(missing_ok=True)
        players_n = game.num_players()
        standings = _read_standings(path, names, players_n)
        rows = standings.rows()
        note = shared_seats_note(names, players_n)
        summary = path.with_name(f"{path.stem}-summary.{fmt}")
        write_table(to_table(rows), summary, fmt, meta)
        if as_json:
            emit_json(
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
                    "rows": str(path),
                    "summary": str(summary),
                    "note": note,
                    "engine": engine,
                }
            )
            return
        _print_standings(game, n, groups, standings, rows, note)
        console.print(f"Engine: {engine_words}.", markup=False)
        console.print(f"Rows: {path}\nStandings: {summary}", markup=False)


def _check_entrants(game: Any, game_id: str, names: list[str], agents: str) -> None:
    """Two or more different agents the game knows, and OpenSpiel for the Elo fit at the end,
    all checked before any game is played."""
    from trapworks.agents import analysis_agents, available_agents

    from .simulate import fail

    if len(names) < 2:
        fail("a tournament needs at least two agents, e.g. --agents hard,random")
    if len(set(names)) != len(names):
        fail(f"agent listed twice in {agents!r}")
    known = available_agents(game) + analysis_agents(game)  # an oracle may be measured here
    for name in names:
        if name not in known:
            fail(f"unknown agent {name!r} for {game_id}; available: {', '.join(known)}")
    try:  # before any game is played: the Elo fit at the end needs OpenSpiel
        import open_spiel.python.algorithms.elo  # noqa: F401
    except ImportError:
        from . import missing_module

        fail(missing_module("open_spiel"))


def _series_jobs(
    game_id: str,
    groups: list[list[str]],
    n: int,
    options: dict[str, Any],
    seed: int,
    max_actions: int | None,
    workers: int,
    path: Path,
) -> list[Any]:
    """One simulation job per group of agents, each written to its own resumable file."""
    from trapworks.sim.provenance import command_line
    from trapworks.sim.runner import Job, RunSpec, default_chunk_size

    jobs = []
    for gi, group in enumerate(groups):
        spec = RunSpec(
            game_id=game_id,
            agents=tuple(group),
            n=n,
            options=options,
            seed=seed + 7919 * gi,
            rotate=True,
            max_actions=max_actions,
            cell=",".join(group),
            chunk_size=default_chunk_size(n, workers),
        )
        # One file per series while playing (each resumable), joined into `path` at the end.
        jobs.append(Job(spec, path.with_name(f".{path.name}.series{gi}.parquet"), command=command_line()))
    return jobs


def _read_standings(path: Path, names: list[str], players_n: int) -> Standings:
    """The standings from the joined rows file."""
    from trapworks.sim.rows import iter_batches

    standings = Standings(names)
    cols = [f"agent_seat{k + 1}" for k in range(players_n)] + [f"won_seat{k + 1}" for k in range(players_n)]
    for batch in iter_batches(path, [*cols, "truncated"]):
        data = batch.to_pydict()
        for i in range(batch.num_rows):
            seats = [data[f"agent_seat{k + 1}"][i] for k in range(players_n)]
            winners = [k for k in range(players_n) if data[f"won_seat{k + 1}"][i]]
            standings.add(seats, winners, data["truncated"][i])
    return standings


def _print_standings(
    game: Any,
    n: int,
    groups: list[list[str]],
    standings: Standings,
    rows: list[dict[str, Any]],
    note: str | None,
) -> None:
    """The standings and head-to-head tables."""
    from rich.table import Table

    from . import console

    total = n * len(groups)
    t = Table(title=f"{game.title}: {total} games, seats rotated ({len(groups)} series of {n})")
    for col, justify in (
        ("agent", "left"),
        ("games", "right"),
        ("wins", "right"),
        ("draws", "right"),
        ("win rate", "right"),
        ("95% CI", "right"),
        ("Elo", "right"),
    ):
        t.add_column(col, justify=justify)  # type: ignore[arg-type]
    for r in rows:
        t.add_row(
            r["agent"],
            str(r["games"]),
            str(r["wins"]),
            str(r["draws"]),
            f"{r['win_rate']:.1%}",
            f"{r['ci_low']:.1%}–{r['ci_high']:.1%}",
            f"{r['elo']:.0f}",
        )
    console.print(t)
    h2h = Table(title="head to head (points of the first agent: win 1, draw 0.5)")
    for col in ("agents", "games", "score", "95% CI"):
        h2h.add_column(col)
    for (a, b), (pts, g) in sorted(standings.pairs.items()):
        lo, hi = wilson(pts, int(g))
        h2h.add_row(f"{a} vs {b}", str(int(g)), f"{pts / g:.1%}", f"{lo:.1%}–{hi:.1%}")
    console.print(h2h)
    if note:
        console.print(f"Note: {note}.", markup=False)
