"""`trapworks simulate`: many games between agents, on local processes or a Ray cluster, one row
per game to Parquet (default) or CSV, resumable after Ctrl-C or a lost worker.

The helpers here (output paths, the backend options, `run_jobs` with its progress bar and
one-line errors) are shared by `tournament` and `explore`.
"""

from __future__ import annotations

import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import typer

BACKEND_HELP = "Where games run: 'local' (processes on this machine) or 'ray' (a Ray cluster)."
ADDRESS_HELP = (
    "Ray cluster to join with --backend ray, e.g. 127.0.0.1:6379 or 'auto' "
    "(default: a new Ray instance on this machine with --workers CPUs)."
)
RESUME_HELP = "Complete an interrupted run into the same --out: only the missing games are played."
RETRIES_HELP = "With --backend ray: how often Ray re-runs a chunk whose worker was lost."
FORMAT_HELP = "parquet (default) or csv; by default taken from --out's suffix."


def fail(message: str, code: int = 2) -> None:
    """End the command with one line on stderr (never wrapped, never a traceback)."""
    sys.stderr.write(f"error: {' '.join(message.split())}\n")
    raise typer.Exit(code)


KEEP_RECORDS_HELP = (
    "Write each game's record (its seed, options and every action) beside the rows, as "
    "<out stem>.records.parquet; `trapworks replay ROWS --seed SEED` opens one."
)
_json_fd: int | None = None


def json_mode() -> None:
    """For --json: stdout carries the JSON alone. Anything else written to file descriptor 1
    from here on (Ray's log lines, a library's print) goes to stderr; `emit_json` writes to
    the real stdout."""
    global _json_fd
    if _json_fd is not None:
        return
    try:
        fd = sys.stdout.fileno()
    except (OSError, AttributeError, ValueError):  # not a real file (a test's captured output)
        return
    if fd != 1:
        return
    sys.stdout.flush()
    _json_fd = os.dup(1)
    os.dup2(2, 1)


def emit_json(data: Any) -> None:
    text = json.dumps(data) + "\n"
    if _json_fd is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    os.write(_json_fd, text.encode())


def make_game(game_id: str, options: dict[str, Any]) -> Any:
    from trapworks import make
    from trapworks.core import TrapworksError

    try:
        return make(game_id, **options)
    except TrapworksError as e:
        fail(str(e))


def output_path(out: Path | None, kind: str, stem: str, fmt: str | None) -> tuple[Path, str]:
    """The output file and its format; a bad path or format is a one-line error (exit 2)."""
    from .options import data_dir

    if fmt is not None and fmt not in ("parquet", "csv"):
        fail(f"--format {fmt!r}: choose parquet or csv")
    if out is None:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        fmt = fmt or "parquet"
        folder = data_dir() / kind
        folder.mkdir(parents=True, exist_ok=True)
        return folder / f"{stem}-{stamp}.{fmt}", fmt
    suffix = out.suffix.lower()
    if fmt is None:
        if suffix not in (".parquet", ".csv"):
            fail(f"--out {out}: name a .parquet or .csv file (or give --format)")
        fmt = suffix[1:]
    if not out.parent.is_dir():
        fail(f"--out {out}: folder {out.parent} does not exist")
    if out.is_dir():
        fail(f"--out {out} is a folder: name a file in it")
    return out, fmt


def check_backend(backend: str, workers: int, address: str | None) -> None:
    if backend not in ("local", "ray"):
        fail(f"--backend {backend!r}: choose local or ray")
    if workers < 1:
        fail("--workers must be at least 1")
    if address is not None and backend != "ray":
        fail("--address needs --backend ray")


def checked_run(
    game_id: str,
    option: list[str] | None,
    players: int | None,
    agents: str,
    n: int,
    backend: str,
    workers: int,
    address: str | None,
) -> tuple[Any, dict[str, Any], list[str]]:
    """The checks every run command makes first (the count, the backend, the options, the game):
    the game, the options as given and the agent names; a bad argument ends with one line."""
    from .options import game_options

    if n < 1:
        fail("-n must be at least 1")
    check_backend(backend, workers, address)
    try:
        options = game_options(option, players, game_id)
    except typer.BadParameter as e:
        fail(str(e))
    game = make_game(game_id, options)
    return game, options, [a.strip() for a in agents.split(",") if a.strip()]


def run_jobs(
    jobs: list[Any],
    backend: str,
    workers: int,
    address: str | None,
    resume: bool,
    retries: int,
    quiet: bool,
    label: str = "games",
) -> list[Any]:
    """Run `trapworks.sim.runner` jobs under a progress bar; errors end the command in one line."""
    from trapworks.core import TrapworksError
    from trapworks.sim.runner import RunError, RunIncomplete, execute, plan

    from . import err
    from .options import games_progress

    try:
        if backend == "ray":  # an unreachable cluster ends here, before any file or progress bar
            from trapworks.sim.runner import ray_connect

            ray_connect(address, workers)
        planned = plan(jobs, resume)  # bad input ends here, before any progress bar
        if backend == "local":
            warm_engines(jobs, quiet)
        with games_progress(label, err, quiet) as progress:
            task = progress.add_task("games", total=None)

            def total(n: int, done: int) -> None:
                progress.update(task, total=n, completed=done)

            return execute(
                jobs,
                backend=backend,
                workers=workers,
                address=address,
                resume=resume,
                retries=retries,
                progress=lambda k: progress.advance(task, k),
                total=total,
                planned=planned,
            )
    except (TrapworksError, ValueError, RunError) as e:
        fail(str(e))
    except RunIncomplete as e:
        fail(str(e), code=130 if str(e).startswith("interrupted") else 1)
    except ConnectionError as e:  # Ray cannot reach --address
        fail(f"cannot reach the Ray cluster at {address}: {e}")
    raise AssertionError("unreachable")


HEARTBEAT_S = 30.0  # seconds between "Still compiling" lines where no spinner is drawn


def warm_engines(jobs: list[Any], quiet: bool) -> None:
    """Compile (or load from the cache) each compiled engine the jobs use, once, here, before
    the workers start, saying so at once: a first use compiles for minutes, later runs load the
    machine code from the data folder's numba-cache/ in seconds."""
    import threading
    import time

    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    from trapworks.paths import numba_cache_dir
    from trapworks.sim.runner import compile_engines, engines_to_warm

    from . import err

    announced = os.environ.pop("TRAPWORKS_COMPILE_ANNOUNCED", None)  # by trapworks.launch, at the start
    specs = engines_to_warm(jobs)
    if not specs:
        if announced and not quiet:  # said at the start, before the game was known
            err.print("Nothing to compile: the kernel plays these agents", markup=False, highlight=False)
        return
    if not quiet and not announced:  # else said already, at the command's start
        err.print(
            f"Compiling the batched engine ({len(specs)} to prepare): up to a minute on first use, "
            f"then seconds from the cache in {numba_cache_dir()}",
            markup=False,
            highlight=False,
        )
    start = time.monotonic()
    # Where no spinner can be drawn (a log, a pipe), a line every HEARTBEAT_S seconds says the
    # compile goes on: a first use takes minutes, which must not look like a hang.
    beating = not quiet and not err.is_terminal
    stop = threading.Event()

    def heartbeat() -> None:
        while not stop.wait(HEARTBEAT_S):
            err.print(f"Still compiling: {time.monotonic() - start:.0f} s", markup=False, highlight=False)

    beat = threading.Thread(target=heartbeat, daemon=True)
    if beating:
        beat.start()
    with Progress(
        SpinnerColumn(),
        TextColumn("[bold]compiling"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=quiet or not err.is_terminal,
    ) as progress:
        task = progress.add_task("compiling", total=len(specs))
        try:
            compile_engines(specs, lambda: progress.advance(task))
        finally:
            stop.set()
            if beating:
                beat.join()
    if not quiet:
        err.print(f"Engine ready in {time.monotonic() - start:.1f} s", markup=False, highlight=False)


def seat_count(path: Path) -> int:
    from trapworks.sim.rows import column_names

    return sum(1 for c in column_names(path) if c.startswith("agent_seat"))


def summary_of(path: Path) -> dict[str, Any]:
    """The run's summary (games, seat and agent wins, truncations, lengths, endings) from its
    rows file, read in batches of a few columns (memory does not grow with the run; the median
    comes from a histogram of lengths, exactly)."""
    from collections import Counter

    import numpy as np

    from trapworks.sim.rows import iter_batches

    players = seat_count(path)
    agent_cols = [f"agent_seat{k}" for k in range(1, players + 1)]
    won_cols = [f"won_seat{k}" for k in range(1, players + 1)]
    seat_wins = [0] * players
    agent_games: Counter[str] = Counter()
    agent_wins: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    lengths = np.zeros(0, dtype=np.int64)  # games of each length
    games = truncated = 0
    columns = [*agent_cols, *won_cols, "length", "truncated", "ending"]
    for batch in iter_batches(path, columns):
        data = batch.to_pydict()
        n = batch.num_rows
        games += n
        truncated += sum(bool(t) for t in data["truncated"])
        endings.update(str(e) for e in data["ending"])
        counts = np.bincount(np.asarray(data["length"], dtype=np.int64))
        if len(counts) > len(lengths):
            lengths = np.concatenate([lengths, np.zeros(len(counts) - len(lengths), dtype=np.int64)])
        lengths[: len(counts)] += counts
        for i in range(n):
            seats = [data[c][i] for c in agent_cols]
            agent_games.update({a for a in seats if a is not None})
            for k in range(players):
                if data[won_cols[k]][i]:
                    seat_wins[k] += 1
                    agent_wins[seats[k]] += 1
    cum = np.cumsum(lengths)
    lo = int(np.searchsorted(cum, (games - 1) // 2, side="right"))
    hi = int(np.searchsorted(cum, games // 2, side="right"))
    present = np.nonzero(lengths)[0]
    return {
        "games": games,
        "truncated": truncated,
        "seat_wins": seat_wins,
        # every agent that played, winless ones included (the table reads one row per agent)
        "agent_wins": {k: agent_wins[k] for k in sorted(agent_games)},
        "agent_games": {k: agent_games[k] for k in sorted(agent_games)},
        "length_mean": float((lengths * np.arange(len(lengths))).sum() / games),
        "length_median": (lo + hi) / 2,
        "length_min": int(present[0]),
        "length_max": int(present[-1]),
        "endings": dict(endings.most_common()),
    }


# `simulate`'s options, named here so that the command reads as its list of parameters.
GAME_ID_ARGUMENT = typer.Argument(..., help="Game id.")
N_OPTION = typer.Option(1000, "-n", help="Number of games.")
AGENTS_OPTION = typer.Option(
    "random", "--agents", "-a", help="Agents per seat, comma-separated (one name: all seats)."
)
PLAYERS_OPTION = typer.Option(
    None, "--players", "-p", help="Number of players, for games that allow several."
)
OPTION_OPTION = typer.Option(
    None, "--option", "-o", help="Game option as key=value (repeatable), e.g. -o rules=advanced."
)
SEED_OPTION = typer.Option(0, help="Seed of the whole run (each game's seed comes from it and its index).")
WORKERS_OPTION = typer.Option(1, "--workers", "-w", help="Worker processes (local) or CPUs (new Ray).")
ROTATE_OPTION = typer.Option(False, help="Rotate the agents through the seats game by game.")
MAX_ACTIONS_OPTION = typer.Option(None, help="Stop (truncate) a game after this many actions.")
OUT_OPTION = typer.Option(
    None, help="Rows file, .parquet or .csv (default: a .parquet in the data folder's simulations/)."
)
FMT_OPTION = typer.Option(None, "--format", help=FORMAT_HELP)
BACKEND_OPTION = typer.Option("local", help=BACKEND_HELP)
ADDRESS_OPTION = typer.Option(None, help=ADDRESS_HELP)
RESUME_OPTION = typer.Option(False, help=RESUME_HELP)
RETRIES_OPTION = typer.Option(3, help=RETRIES_HELP)
CHUNK_OPTION = typer.Option(None, help="Games per chunk (default: from -n and --workers).")
KEEP_RECORDS_OPTION = typer.Option(False, "--keep-records", help=KEEP_RECORDS_HELP)
AS_JSON_OPTION = typer.Option(False, "--json", help="Print the summary as JSON.")


def register(app: typer.Typer) -> None:
    @app.command("simulate")
    def simulate_command(
        game_id: str = GAME_ID_ARGUMENT,
        n: int = N_OPTION,
        agents: str = AGENTS_OPTION,
        players: int | None = PLAYERS_OPTION,
        option: list[str] | None = OPTION_OPTION,
        seed: int = SEED_OPTION,
        workers: int = WORKERS_OPTION,
        rotate: bool = ROTATE_OPTION,
        max_actions: int | None = MAX_ACTIONS_OPTION,
        out: Path | None = OUT_OPTION,
        fmt: str | None = FMT_OPTION,
        backend: str = BACKEND_OPTION,
        address: str | None = ADDRESS_OPTION,
        resume: bool = RESUME_OPTION,
        retries: int = RETRIES_OPTION,
        chunk: int | None = CHUNK_OPTION,
        keep_records: bool = KEEP_RECORDS_OPTION,
        as_json: bool = AS_JSON_OPTION,
    ) -> None:
        """Simulate many games between agents: one row per game (Parquet or CSV) and a summary."""
        from trapworks.sim.provenance import command_line
        from trapworks.sim.runner import Job, RunSpec, default_chunk_size, uses_batched_engine

        from . import console

        if as_json:
            json_mode()
        if chunk is not None and chunk < 1:
            fail("--chunk must be at least 1")
        game, options, names = checked_run(game_id, option, players, agents, n, backend, workers, address)
        path, fmt = output_path(out, "simulations", game_id, fmt)
        spec = RunSpec(
            game_id=game_id,
            agents=tuple(names),
            n=n,
            options=options,
            seed=seed,
            rotate=rotate,
            max_actions=max_actions,
            chunk_size=chunk or default_chunk_size(n, workers),
            keep_records=keep_records,
        )
        job = Job(spec, path, fmt, command=command_line())
        (done,) = run_jobs([job], backend, workers, address, resume, retries, as_json)
        data = summary_of(done)
        data["out"] = str(path)
        data["engine"] = "batched" if uses_batched_engine(spec) else "kernel"
        if keep_records:
            data["records"] = str(job.records)
        if as_json:
            emit_json(data)
            return
        _print_summary(game.title, n, names, rotate, data)
        console.print(f"Rows: {path}", markup=False)
        if keep_records:
            console.print(f"Records: {job.records} (trapworks replay {path} --seed SEED)", markup=False)


def _print_summary(title: str, n: int, names: list[str], rotate: bool, data: dict[str, Any]) -> None:
    """The run's summary as a table: wins by seat and by agent, lengths, endings, the engine."""
    from rich.table import Table

    from . import console

    game_title = title
    title = f"{game_title}: {n} games, agents {','.join(names)}" + (" (rotated)" if rotate else "")
    t = Table(title=title)
    for col, justify in (("who", "left"), ("games", "right"), ("wins", "right"), ("win rate", "right")):
        t.add_column(col, justify=justify)  # type: ignore[arg-type]
    games = data["games"]
    for seat, wins in enumerate(data["seat_wins"]):
        t.add_row(f"seat {seat + 1}", str(games), str(wins), f"{wins / games:.1%}")
    for name in sorted(data["agent_games"]):
        wins, g = data["agent_wins"][name], data["agent_games"][name]
        t.add_row(f"agent {name}", str(g), str(wins), f"{wins / g:.1%}")
    t.add_row("truncated", str(games), str(data["truncated"]), f"{data['truncated'] / games:.1%}")
    console.print(t)
    console.print(
        f"Game length (decisions): mean {data['length_mean']:.1f}, median {data['length_median']:g}, "
        f"min {data['length_min']}, max {data['length_max']}",
        markup=False,
    )
    endings = ", ".join(f"{k} {v}" for k, v in data["endings"].items())
    console.print(f"How games ended: {endings}", markup=False)
    console.print(
        "Engine: the game's batched engine (compiled; every game of the run)"
        if data["engine"] == "batched"
        else "Engine: the kernel, one game at a time",
        markup=False,
    )
