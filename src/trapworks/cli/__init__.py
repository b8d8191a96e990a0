"""The `trapworks` command (typer)."""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from trapworks import available_games, make
from trapworks.agents import available_agents
from trapworks.core import GameRecord, TrapworksError, game_class

from .options import data_dir, game_options, parse_options

app = typer.Typer(
    help="trapworks: Mouse Trap, Booby Trap, Last Mouse Lost and 13 Dead End Drive, rule for rule.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False)
err = Console(stderr=True, highlight=False)

OPTION_HELP = "Game option as key=value (repeatable), e.g. -o rules=advanced -o first_to=1."


def fail(message: str, code: int = 2) -> None:
    err.print(f"error: {message}", markup=False)
    raise typer.Exit(code)


def _make_game(game_id: str, options: dict[str, Any]):
    try:
        return make(game_id, **options)
    except TrapworksError as e:
        fail(str(e))


@app.command("games")
def games_command() -> None:
    """List the games and their options."""
    table = Table("game id", "title", "options (defaults)")
    for gid in available_games():
        cls = game_class(gid)
        opts = ", ".join(f"{k}={v!r}" for k, v in cls.default_options.items())
        table.add_row(gid, cls.title, opts)
    console.print(table)


@app.command("play")
def play_command(
    game_id: str = typer.Argument(..., help="Game id (see `trapworks games`)."),
    seats: str | None = typer.Option(
        None,
        "--seats",
        "-s",
        help="Who sits where, comma-separated: 'human' or an agent name, e.g. human,perfect or "
        "human,human. Default: you against the random agent.",
    ),
    players: int | None = typer.Option(
        None, "--players", "-p", help="Number of players, for games that allow several."
    ),
    option: list[str] | None = typer.Option(None, "--option", "-o", help=OPTION_HELP),
    seed: int | None = typer.Option(None, help="Seed for chance and agents."),
    position: str | None = typer.Option(None, help="Start from this position (the game's notation)."),
    save: Path | None = typer.Option(None, help="Where to save the record (default: the data folder)."),
) -> None:
    """Play a game in the terminal: against agents, or several humans at one keyboard."""
    from .terminal import TerminalSession

    options = game_options(option, players)
    game = _make_game(game_id, options)
    n = game.num_players()
    names = [s.strip() for s in seats.split(",")] if seats else ["human"] + ["random"] * (n - 1)
    if len(names) != n:
        fail(
            f"{len(names)} seats given for a {n}-player game: give {n} names, e.g. "
            + ",".join(["human"] + ["random"] * (n - 1))
        )
    known = available_agents(game)
    for name in names:
        if name != "human" and name not in known:
            fail(f"unknown seat {name!r}: use 'human' or one of {', '.join(known)}")
    try:
        session = TerminalSession(game, names, seed=seed, save_dir=data_dir() / "records", start=position)
    except TrapworksError as e:
        fail(str(e))
    session.run()
    if save is not None:
        session.save(save)
        console.print(f"Also saved to {save}", markup=False)


@app.command("replay")
def replay_command(
    file: Path = typer.Argument(..., help="A game record (JSON) saved by trapworks."),
    all_steps: bool = typer.Option(False, "--all", help="Print every step instead of stepping."),
    at: int | None = typer.Option(None, help="Print only the position after this many moves."),
) -> None:
    """Step through a saved game record."""
    from .terminal import replay_session

    try:
        record = GameRecord.load(file)
        if at is not None:
            state = record.replay(at)
            console.print(state.render_text(), markup=False)
            console.print(state.position(), markup=False)
            return
        interactive = sys.stdin.isatty() and not all_steps
        replay_session(
            record, (lambda p: console.input(p)) if interactive else None, console, step_all=not interactive
        )
    except TrapworksError as e:
        fail(str(e))


@app.command("solve")
def solve_command(
    game_id: str = typer.Argument(..., help="Game id; a game with an exact solver (last-mouse-lost)."),
    position: str = typer.Argument(
        ..., help="Position in the game's notation, e.g. ooo/ooooo/oooooo/oooooo/ooooo/ooo"
    ),
    rules: str | None = typer.Option(None, help="Rule set, e.g. basic or advanced."),
    option: list[str] | None = typer.Option(None, "--option", "-o", help=OPTION_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the answer as JSON."),
) -> None:
    """Solve a position exactly: who wins with best play, and a winning move."""
    try:
        cls = game_class(game_id)
    except TrapworksError as e:
        fail(str(e))
    solver = getattr(cls, "position_solver", None)
    if solver is None:
        fail(f"{game_id} has no exact solver")
    options = parse_options(option)
    if rules is not None:
        options["rules"] = rules
    module_name, _, attr = solver.partition(":")
    solve_position = getattr(importlib.import_module(module_name), attr)
    try:
        solution = solve_position(position, **options)
    except TrapworksError as e:
        fail(str(e))
    if as_json:
        print(json.dumps(solution.to_dict()))
        return
    who = f"Player {solution.player + 1}"
    console.print(
        f"{who} to move {'wins' if solution.outcome == 'win' else 'loses'} with best play.", markup=False
    )
    console.print(f"Winning move: {solution.move}" if solution.move else "No winning move.", markup=False)
    console.print(solution.explanation, markup=False)


# Commands that live in their own modules (each defines `register(app)`).
COMMAND_MODULES = ("serve", "simulate", "tournament", "explore")
for _name in COMMAND_MODULES:
    if importlib.util.find_spec(f"{__name__}.{_name}") is not None:
        importlib.import_module(f"{__name__}.{_name}").register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
