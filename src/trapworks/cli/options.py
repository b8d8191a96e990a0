"""Parsing of the CLI's generic game options (-o key=value) and seat lists."""

from __future__ import annotations

import json
from typing import Any

import typer

from trapworks.paths import data_dir as data_dir  # re-exported: the CLI's commands use it


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """["rules=advanced", "first_to=1"] -> {"rules": "advanced", "first_to": 1}.

    Values are read as JSON when they are JSON (numbers, true/false, lists), else as text;
    each game checks its own options and says what is wrong.
    """
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"option {pair!r} must look like key=value, e.g. rules=advanced")
        key = key.strip().replace("-", "_")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value.strip()
    return options


def game_options(pairs: list[str] | None, players: int | None, game_id: str) -> dict[str, Any]:
    """Options from -o key=value pairs, with --players as the `players` option when given (none
    for a game whose player count is fixed and is the one asked for)."""
    from trapworks.core import OptionError, TrapworksError, game_class
    from trapworks.core.registry import player_count_options

    options = parse_options(pairs)
    if players is None:
        return options
    try:
        game_class(game_id)
    except TrapworksError:  # an unknown game: the command names it when it makes the game
        return {**options, "players": players}
    try:
        options.update(player_count_options(game_id, players))
    except OptionError as e:
        raise typer.BadParameter(f"--players {players}: {e}") from e
    return options


def games_progress(label: str, console, quiet: bool):
    """The progress bar of commands that play many games (on stderr, so --json stays clean)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=quiet and not console.is_terminal,
    )
