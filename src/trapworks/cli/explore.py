"""`trapworks explore`: does a rule change the game? A grid of option cells, played locally or on
Ray, and a report (HTML with embedded plots, Markdown, PNG) comparing the cells."""

from __future__ import annotations

import os
import shlex
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    from .simulate import ADDRESS_HELP, BACKEND_HELP, RESUME_HELP, RETRIES_HELP

    @app.command("explore")
    def explore_command(
        game_id: str = typer.Argument(..., help="Game id (see `trapworks games`)."),
        vary: list[str] | None = typer.Option(
            None,
            "--vary",
            help="An option and its values, OPTION=V1,V2 (repeatable: the grid is every combination). "
            "Default: the game's own grid of what its rulebooks leave open or disagree on.",
        ),
        players: str | None = typer.Option(
            None, "--players", "-p", help="Player counts, comma-separated, e.g. 2,3,4 (each cell with each)."
        ),
        agents: str = typer.Option(
            "heuristic", "--agents", "-a", help="Agents per seat, comma-separated (one name: all seats)."
        ),
        n: int = typer.Option(1000, "-n", help="Games per cell."),
        option: list[str] | None = typer.Option(
            None, "--option", "-o", help="Option for every cell, key=value (repeatable)."
        ),
        seed: int = typer.Option(0, help="Seed of the grid (each cell's games get their own from it)."),
        rotate: bool | None = typer.Option(
            None, help="Rotate the agents through the seats (default: when several agents are given)."
        ),
        max_actions: int | None = typer.Option(None, help="Stop (truncate) a game after this many actions."),
        out: Path | None = typer.Option(
            None, help="Folder for the report and rows (default: the data folder's explore/<game>-<time>/)."
        ),
        workers: int = typer.Option(1, "--workers", "-w", help="Worker processes (local) or CPUs (new Ray)."),
        backend: str = typer.Option("local", help=BACKEND_HELP),
        address: str | None = typer.Option(None, help=ADDRESS_HELP),
        resume: bool = typer.Option(False, help=RESUME_HELP),
        retries: int = typer.Option(3, help=RETRIES_HELP),
        min_effect: float = typer.Option(
            1.0, help="Practical threshold for rates (win rates, jams per crank), in percentage points."
        ),
        min_change: float = typer.Option(
            5.0, help="Practical threshold for means (length, statistics), in % of the baseline cell's."
        ),
        keep_records: bool = typer.Option(
            False, "--keep-records", help="Write each game's record beside the rows (records.parquet)."
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the cells' summaries as JSON."),
    ) -> None:
        """Compare rule variants: seat effects, game length, endings, the game's own statistics."""
        from trapworks.core import TrapworksError, game_class
        from trapworks.sim.explore import GridError, Thresholds, build_grid, report
        from trapworks.sim.provenance import provenance
        from trapworks.sim.rows import stream_join
        from trapworks.sim.runner import Job, RunSpec, default_chunk_size, engine_used

        from . import console
        from .options import data_dir, parse_options
        from .simulate import check_backend, emit_json, fail, json_mode, run_jobs

        if as_json:
            json_mode()
        if min_effect <= 0 or min_change <= 0:
            fail("--min-effect and --min-change must be above 0")
        if n < 1:
            fail("-n must be at least 1")
        check_backend(backend, workers, address)
        counts: list[int] = []
        if players is not None:
            try:
                counts = [int(p) for p in players.split(",") if p.strip()]
            except ValueError:
                fail(f"--players {players!r}: whole numbers separated by commas, e.g. 2,3,4")
            if not counts:
                fail(f"--players {players!r}: give at least one player count")
        try:
            base = parse_options(option)
            cls = game_class(game_id)
            grid = build_grid(game_id, vary or [], counts, base)
        except (typer.BadParameter, TrapworksError, GridError) as e:
            fail(str(e))
        names = [a.strip() for a in agents.split(",") if a.strip()]
        if not names:
            fail("--agents: give at least one agent")
        if out is None:
            out = data_dir() / "explore" / f"{game_id}-{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}"
            out.mkdir(parents=True, exist_ok=True)
        elif not out.parent.is_dir():
            fail(f"--out {out}: folder {out.parent} does not exist")
        elif out.exists() and not out.is_dir():
            fail(f"--out {out} is a file: name a folder for the report")
        out.mkdir(exist_ok=True)
        cells_dir = out / "cells"
        cells_dir.mkdir(exist_ok=True)
        do_rotate = len(names) > 1 if rotate is None else rotate
        jobs = [
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
        engine, engine_words = engine_used([j.spec for j in jobs], "cell")
        started = time.perf_counter()
        done = run_jobs(jobs, backend, workers, address, resume, retries, as_json, label="explore")
        seconds = time.perf_counter() - started
        rows_path = out / "rows.parquet"
        labels = [c.label for c in grid]
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
        meta = provenance({"grid": [c.options for c in grid], "labels": labels}, shlex.join(command))
        stream_join(done, rows_path, "parquet", meta)  # one cell after another, a row group at a time
        if keep_records:
            stream_join([j.records for j in jobs], out / "rows.records.parquet", "parquet", meta)
        shutil.rmtree(cells_dir)
        load = os.getloadavg()[0]
        machine = (
            f" ({os.cpu_count()} CPUs here, load average {load:.1f} at the end)" if backend == "local" else ""
        ) + f"; {engine_words}"
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
            f"{sum(s['games'] for s in result.summaries.values()):,} games in {len(grid)} cells, "
            f"{seconds:.0f} s; {engine_words}",
            markup=False,
        )
        console.print(
            f"Report: {out / 'report.html'} (also report.md, report.png; rows: {rows_path})", markup=False
        )
