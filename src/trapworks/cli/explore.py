"""`trapworks explore`: does a rule change the game? A grid of option cells, played locally or on
Ray, and a report (HTML with embedded plots, Markdown, PNG) comparing the cells."""

from __future__ import annotations

import os
import shlex
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import typer

from .simulate import (  # the options every run command shares, defined once
    ADDRESS_OPTION,
    BACKEND_OPTION,
    RESUME_OPTION,
    RETRIES_OPTION,
    WORKERS_OPTION,
)

# `explore`'s options, named here so that the command reads as its list of parameters.
GAME_ID_ARGUMENT = typer.Argument(..., help="Game id (see `trapworks games`).")
VARY_OPTION = typer.Option(
    None,
    "--vary",
    help="An option and its values, OPTION=V1,V2 (repeatable: the grid is every combination). "
    "Default: the game's own grid of what its rulebooks leave open or disagree on.",
)
PLAYERS_OPTION = typer.Option(
    None, "--players", "-p", help="Player counts, comma-separated, e.g. 2,3,4 (each cell with each)."
)
AGENTS_OPTION = typer.Option(
    "heuristic", "--agents", "-a", help="Agents per seat, comma-separated (one name: all seats)."
)
N_OPTION = typer.Option(1000, "-n", help="Games per cell.")
OPTION_OPTION = typer.Option(None, "--option", "-o", help="Option for every cell, key=value (repeatable).")
SEED_OPTION = typer.Option(0, help="Seed of the grid (each cell's games get their own from it).")
ROTATE_OPTION = typer.Option(
    None, help="Rotate the agents through the seats (default: when several agents are given)."
)
MAX_ACTIONS_OPTION = typer.Option(None, help="Stop (truncate) a game after this many actions.")
OUT_OPTION = typer.Option(
    None, help="Folder for the report and rows (default: the data folder's explore/<game>-<time>/)."
)
MIN_EFFECT_OPTION = typer.Option(
    1.0, help="Practical threshold for rates (win rates, jams per crank), in percentage points."
)
MIN_CHANGE_OPTION = typer.Option(
    5.0, help="Practical threshold for means (length, statistics), in % of the baseline cell's."
)
KEEP_RECORDS_OPTION = typer.Option(
    False, "--keep-records", help="Write each game's record beside the rows (records.parquet)."
)
AS_JSON_OPTION = typer.Option(False, "--json", help="Print the cells' summaries as JSON.")


def register(app: typer.Typer) -> None:
    @app.command("explore")
    def explore_command(
        game_id: str = GAME_ID_ARGUMENT,
        vary: list[str] | None = VARY_OPTION,
        players: str | None = PLAYERS_OPTION,
        agents: str = AGENTS_OPTION,
        n: int = N_OPTION,
        option: list[str] | None = OPTION_OPTION,
        seed: int = SEED_OPTION,
        rotate: bool | None = ROTATE_OPTION,
        max_actions: int | None = MAX_ACTIONS_OPTION,
        out: Path | None = OUT_OPTION,
        workers: int = WORKERS_OPTION,
        backend: str = BACKEND_OPTION,
        address: str | None = ADDRESS_OPTION,
        resume: bool = RESUME_OPTION,
        retries: int = RETRIES_OPTION,
        min_effect: float = MIN_EFFECT_OPTION,
        min_change: float = MIN_CHANGE_OPTION,
        keep_records: bool = KEEP_RECORDS_OPTION,
        as_json: bool = AS_JSON_OPTION,
    ) -> None:
        """Compare rule variants: seat effects, game length, endings, the game's own statistics."""
        from trapworks.sim.explore import Thresholds, report
        from trapworks.sim.runner import engine_used

        from .simulate import check_backend, json_mode, run_jobs

        if as_json:
            json_mode()
        cls, grid, names = _checked_grid(game_id, vary, players, agents, n, option, min_effect, min_change)
        check_backend(backend, workers, address)
        out = _out_folder(out, game_id)
        cells_dir = out / "cells"
        cells_dir.mkdir(exist_ok=True)
        do_rotate = len(names) > 1 if rotate is None else rotate
        jobs = _cell_jobs(
            game_id, grid, names, n, seed, do_rotate, max_actions, workers, keep_records, cells_dir
        )
        engine, engine_words = engine_used([j.spec for j in jobs], "cell")
        started = time.perf_counter()
        done = run_jobs(jobs, backend, workers, address, resume, retries, as_json, label="explore")
        seconds = time.perf_counter() - started
        rows_path = out / "rows.parquet"
        labels = [c.label for c in grid]
        command = _command_line(
            game_id,
            vary,
            players,
            agents,
            n,
            seed,
            option,
            rotate,
            max_actions,
            workers,
            out,
            backend,
            address,
            min_effect,
            min_change,
            keep_records,
        )
        _join_rows(done, jobs, grid, command, rows_path, keep_records)
        shutil.rmtree(cells_dir)
        machine = _machine_words(backend, engine_words)
        result = report(
            rows_path,
            labels,
            f"{cls.title}: variant explorer",
            shlex.join(command),
            seconds,
            "report.png",
            machine,
            Thresholds(min_effect / 100, min_change / 100),
        )
        _write_and_tell(out, result, rows_path, len(grid), seconds, engine, engine_words, as_json)


def _player_counts(players: str | None) -> list[int]:
    """--players as a list of counts (empty: the game's default)."""
    from .simulate import fail

    counts: list[int] = []
    if players is not None:
        try:
            counts = [int(p) for p in players.split(",") if p.strip()]
        except ValueError:
            fail(f"--players {players!r}: whole numbers separated by commas, e.g. 2,3,4")
        if not counts:
            fail(f"--players {players!r}: give at least one player count")
    return counts


def _out_folder(out: Path | None, game_id: str) -> Path:
    """The report's folder: --out (a folder, made if its parent exists), or a new one in the data
    folder's explore/."""
    from .options import data_dir
    from .simulate import fail

    if out is None:
        out = data_dir() / "explore" / f"{game_id}-{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}"
        out.mkdir(parents=True, exist_ok=True)
    elif not out.parent.is_dir():
        fail(f"--out {out}: folder {out.parent} does not exist")
    elif out.exists() and not out.is_dir():
        fail(f"--out {out} is a file: name a folder for the report")
    out.mkdir(exist_ok=True)
    return out


def _command_line(
    game_id: str,
    vary: list[str] | None,
    players: str | None,
    agents: str,
    n: int,
    seed: int,
    option: list[str] | None,
    rotate: bool | None,
    max_actions: int | None,
    workers: int,
    out: Path,
    backend: str,
    address: str | None,
    min_effect: float,
    min_change: float,
    keep_records: bool,
) -> list[str]:
    """The command that makes this report again, every default written out (the report shows it)."""
    command = ["trapworks", "explore", game_id]
    for v in vary or []:
        command += ["--vary", v]
    if players:
        command += ["--players", players]
    command += ["--agents", agents, "-n", str(n), "--seed", str(seed)]
    for o in option or []:
        command += ["-o", o]
    if rotate is not None:
        command += ["--rotate" if rotate else "--no-rotate"]
    if max_actions is not None:
        command += ["--max-actions", str(max_actions)]
    command += ["--workers", str(workers), "--out", str(out)]
    if backend != "local":
        command += ["--backend", backend] + (["--address", address] if address else [])
    command += ["--min-effect", f"{min_effect:g}", "--min-change", f"{min_change:g}"]
    if keep_records:
        command += ["--keep-records"]
    return command


def _cell_jobs(
    game_id: str,
    grid: list[Any],
    names: list[str],
    n: int,
    seed: int,
    rotate: bool,
    max_actions: int | None,
    workers: int,
    keep_records: bool,
    cells_dir: Path,
) -> list[Any]:
    """One simulation job per cell of the grid, each into its own file."""
    from trapworks.sim.runner import Job, RunSpec, default_chunk_size

    do_rotate = rotate
    return [
        Job(
            RunSpec(
                game_id=game_id,
                agents=tuple(names),
                n=n,
                options=cell.options,
                seed=seed + 7919 * k,
                rotate=do_rotate,
                max_actions=max_actions,
                cell=cell.label,
                chunk_size=default_chunk_size(n * len(grid), workers),
                keep_records=keep_records,
            ),
            cells_dir / f"cell-{k:03d}.parquet",
        )
        for k, cell in enumerate(grid)
    ]


def _write_and_tell(
    out: Path,
    result: Any,
    rows_path: Path,
    cells: int,
    seconds: float,
    engine: Any,
    engine_words: str,
    as_json: bool,
) -> None:
    """The report's files, then where they are (or the JSON summary)."""
    from . import console
    from .simulate import emit_json

    (out / "report.md").write_text(result.markdown + "\n")
    (out / "report.html").write_text(result.html + "\n")
    (out / "report.png").write_bytes(result.png)
    if as_json:
        emit_json(
            {
                "out": str(out),
                "cells": result.summaries,
                "tests": result.tests,
                "seconds": seconds,
                "engine": engine,
            }
        )
        return
    console.print(
        f"{sum(s['games'] for s in result.summaries.values()):,} games in {cells} cells, "
        f"{seconds:.0f} s; {engine_words}",
        markup=False,
    )
    console.print(
        f"Report: {out / 'report.html'} (also report.md, report.png; rows: {rows_path})", markup=False
    )


def _checked_grid(
    game_id: str,
    vary: list[str] | None,
    players: str | None,
    agents: str,
    n: int,
    option: list[str] | None,
    min_effect: float,
    min_change: float,
) -> tuple[Any, list[Any], list[str]]:
    """The game's class, the grid of cells and the agents' names, each argument checked (a
    mistake is one line and exit 2)."""
    from trapworks.core import TrapworksError, game_class
    from trapworks.sim.explore import GridError, build_grid

    from .options import parse_options
    from .simulate import fail

    if min_effect <= 0 or min_change <= 0:
        fail("--min-effect and --min-change must be above 0")
    if n < 1:
        fail("-n must be at least 1")
    counts = _player_counts(players)
    try:
        base = parse_options(option)
        cls = game_class(game_id)
        grid = build_grid(game_id, vary or [], counts, base)
    except (typer.BadParameter, TrapworksError, GridError) as e:
        fail(str(e))
    names = [a.strip() for a in agents.split(",") if a.strip()]
    if not names:
        fail("--agents: give at least one agent")
    return cls, grid, names


def _join_rows(
    done: list[Any], jobs: list[Any], grid: list[Any], command: list[str], rows_path: Path, keep_records: bool
) -> None:
    """The cells' files joined into rows.parquet (one cell after another, a row group at a time),
    with the grid and the command in its metadata; the records beside it when kept."""
    from trapworks.sim.provenance import provenance
    from trapworks.sim.rows import stream_join

    labels = [c.label for c in grid]
    meta = provenance({"grid": [c.options for c in grid], "labels": labels}, shlex.join(command))
    stream_join(done, rows_path, "parquet", meta)
    if keep_records:
        stream_join([j.records for j in jobs], rows_path.with_name("rows.records.parquet"), "parquet", meta)


def _machine_words(backend: str, engine_words: str) -> str:
    """Where the games ran, for the report's first line."""
    load = os.getloadavg()[0]
    here = f" ({os.cpu_count()} CPUs here, load average {load:.1f} at the end)" if backend == "local" else ""
    return here + f"; {engine_words}"
