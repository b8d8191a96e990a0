"""The `trapworks` command (typer)."""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table
from typer.core import TyperGroup

from trapworks import available_games, make
from trapworks.agents import available_agents
from trapworks.core import GameRecord, TrapworksError, game_class
from trapworks.core.spec import spec_of

from .options import data_dir, game_options, parse_options

console = Console(highlight=False)
err = Console(stderr=True, highlight=False)
_debug = {"on": False}  # the global --debug of the command being run


# Optional packages and the extra that installs each (pyproject.toml's optional-dependencies).
EXTRAS = {"ray": "cluster", "open_spiel": "research", "pyspiel": "research", "pettingzoo": "research"}
EXTRAS |= {"gymnasium": "research", "numba": "fast", "psycopg": "postgres"}


def missing_module(name: str) -> str:
    """One line naming the package a command needs and how to install it."""
    top = name.split(".")[0]
    extra = EXTRAS.get(top)
    if extra:
        return f"this command needs the '{top}' package: pip install 'trapworks[{extra}]'"
    return f"this command needs the '{top}' package, which trapworks depends on: pip install trapworks again"


def _one_line(error: BaseException) -> str:
    """An error as one line a player can act on."""
    if isinstance(error, TrapworksError):
        return str(error)
    if isinstance(error, ModuleNotFoundError) and error.name:
        return missing_module(error.name)
    if isinstance(error, OSError):
        where = f" {error.filename}" if error.filename else ""
        return f"cannot use{where}: {error.strerror or error}"
    return f"unexpected {type(error).__name__}: {error} (run again with --debug for the traceback)"


def _report(message: str) -> None:
    err.print(f"error: {message}", markup=False, soft_wrap=True)


class TrapworksGroup(TyperGroup):
    """Shows failures as one line (`error: ...`); with --debug, as the full traceback."""

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        # Usage errors in the global options (before any command runs).
        try:
            return super().make_context(*args, **kwargs)
        except typer.TyperException as e:
            if type(e).__name__ == "NoArgsIsHelpError":  # plain `trapworks`: click shows the help
                raise
            _report(f"{_usage_message(e)} (see: trapworks --help)")
            raise typer.Exit(2) from None

    def invoke(self, ctx: Any) -> Any:
        # The command as typed, for the provenance written into simulation files.
        from trapworks.sim.provenance import set_command

        set_command(["trapworks", *getattr(ctx, "_protected_args", []), *ctx.args])
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except Exception as e:  # expected failures and bugs alike: one line unless --debug
            if ctx.meta.get("trapworks.debug"):
                raise
            if isinstance(e, typer.TyperException):  # click's usage errors (bad options)
                where = getattr(e, "ctx", None)
                command = f"trapworks {where.info_name}" if where and where.parent else "trapworks"
                _report(f"{_usage_message(e)} (see: {command} --help)")
                raise typer.Exit(2) from None
            _report(_one_line(e))
            raise typer.Exit(2 if isinstance(e, TrapworksError) else 1) from None


def _usage_message(error: Exception) -> str:
    formatted = getattr(error, "format_message", None)
    return str(formatted() if formatted else error)


app = typer.Typer(
    cls=TrapworksGroup,
    help="trapworks: Mouse Trap, Booby Trap, Last Mouse Lost and 13 Dead End Drive, rule for rule.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        console.print(f"trapworks {version('trapworks')}", markup=False)
        raise typer.Exit()


@app.callback()
def main_options(
    ctx: typer.Context,
    show_version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
    debug: bool = typer.Option(False, "--debug", help="On an error, show the full traceback."),
) -> None:
    """trapworks: Mouse Trap, Booby Trap, Last Mouse Lost and 13 Dead End Drive, rule for rule."""
    ctx.meta["trapworks.debug"] = _debug["on"] = debug


OPTION_HELP = "Game option as key=value (repeatable), e.g. -o rules=advanced -o first_to=1."


def fail(message: str, code: int = 2) -> NoReturn:
    """Stop the command with a one-line error; with --debug, an error being handled propagates
    instead (its traceback is what --debug is for)."""
    if _debug["on"] and sys.exc_info()[1] is not None:
        raise  # the exception the caller is handling
    _report(message)
    raise typer.Exit(code)


def _make_game(game_id: str, options: dict[str, Any]):
    try:
        return make(game_id, **options)
    except TrapworksError as e:
        fail(str(e))


@app.command("games")
def games_command() -> None:
    """List the games and their options."""
    for gid in available_games():
        cls = game_class(gid)
        # One table per game, made from its declared options (the lobby shows the same schema).
        table = Table(
            "-o name=value", "default", "what it is", title=f"{cls.title} ({gid})", title_justify="left"
        )
        for opt in cls.options_schema:
            default = "null" if opt.default is None else json.dumps(opt.default)
            what = opt.title + (f": {opt.help}" if opt.help else "")
            what += f" Values: {opt.expectation()}."
            if opt.source:
                what += f" Rulebook: {opt.source}."
            table.add_row(opt.name, f"{default} ({opt.choice_label(opt.default)})", what)
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
    save: Path | None = typer.Option(
        None, help="Save the record to this file (default: a new file in the data folder's records/)."
    ),
    practice: bool = typer.Option(
        False,
        "--practice",
        help="A practice game: undo may take back dice, cards and physics outcomes already seen "
        "against AI (marked in the record).",
    ),
) -> None:
    """Play a game in the terminal: against agents, or several humans at one keyboard."""
    from .terminal import TerminalSession

    options = game_options(option, players, game_id)
    game = _make_game(game_id, options)
    n = game.num_players()
    names = [s.strip() for s in seats.split(",")] if seats else ["human"] + ["random"] * (n - 1)
    if len(names) != n:
        fail(
            f"{len(names)} seats given for a {n}-player game: give {n} names, e.g. "
            + ",".join(["human"] + ["random"] * (n - 1))
        )
    if seed is not None and seed < 0:
        fail(f"--seed {seed}: a seed is a whole number of 0 or more")
    known = available_agents(game)
    for name in names:
        if name != "human" and name not in known:
            fail(f"unknown seat {name!r}: use 'human' or one of {', '.join(known)}")
    try:
        session = TerminalSession(
            game,
            names,
            seed=seed,
            save_dir=data_dir() / "records",
            save_path=save,
            start=position,
            practice=practice,
        )
    except TrapworksError as e:
        fail(str(e))
    session.run()


@app.command("replay")
def replay_command(
    file: Path = typer.Argument(..., help="A game record (JSON) saved by trapworks."),
    all_steps: bool = typer.Option(False, "--all", help="Print every step instead of stepping."),
    at: int | None = typer.Option(None, help="Print only the position after this many moves."),
    seed: int | None = typer.Option(
        None,
        help="With rows from a run with --keep-records (.parquet): the game whose row has this seed.",
    ),
) -> None:
    """Step through a saved game record, or a simulated game by its row's seed."""
    from .terminal import replay_session

    try:
        if seed is not None or file.suffix == ".parquet":
            from trapworks.sim.replay import record_for_seed

            record = record_for_seed(file, seed)
        else:
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
    spec = spec_of(cls)
    solve_position = spec.solver if spec is not None else None
    if solve_position is None:
        fail(f"{game_id} has no exact solver")
    options = parse_options(option)
    if rules is not None:
        options["rules"] = rules
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
COMMAND_MODULES = ("serve", "simulate", "tournament", "explore", "admin")  # admin: i41
for _name in COMMAND_MODULES:
    if importlib.util.find_spec(f"{__name__}.{_name}") is not None:
        importlib.import_module(f"{__name__}.{_name}").register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
