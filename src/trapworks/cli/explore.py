"""`trapworks explore`: does a rule change the game? A grid of option cells, played locally or on
Ray, and a report (HTML with embedded plots, Markdown, PNG) comparing the cells."""

from __future__ import annotations

import json
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
        as_json: bool = typer.Option(False, "--json", help="Print the cells' summaries as JSON."),
    ) -> None:
        """Compare rule variants: seat advantage, game length, endings, the game's own statistics."""
        import pandas as pd

        from trapworks.core import TrapworksError, game_class
        from trapworks.sim.explore import GridError, build_grid, cell_summary, report
        from trapworks.sim.rows import concat, write_table
        from trapworks.sim.runner import Job, RunSpec, default_chunk_size

        from . import console
        from .options import data_dir, parse_options
        from .simulate import check_backend, fail, run_jobs

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
                ),
                cells_dir / f"cell-{k:03d}.parquet",
            )
            for k, cell in enumerate(grid)
        ]
        started = time.perf_counter()
        tables = run_jobs(jobs, backend, workers, address, resume, retries, as_json, label="explore")
        seconds = time.perf_counter() - started
        rows_path = out / "rows.parquet"
        write_table(concat(tables), rows_path, "parquet")
        shutil.rmtree(cells_dir)
        df = pd.read_parquet(rows_path)
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
        load = os.getloadavg()[0]
        machine = (
            f" ({os.cpu_count()} CPUs here, load average {load:.1f} at the end)" if backend == "local" else ""
        )
        md, page, png = report(
            df, labels, f"{cls.title}: variant explorer", shlex.join(command), seconds, "report.png", machine
        )
        (out / "report.md").write_text(md + "\n")
        (out / "report.html").write_text(page + "\n")
        (out / "report.png").write_bytes(png)
        if as_json:
            summaries = {c: cell_summary(df[df["cell"] == c]) for c in labels}
            print(json.dumps({"out": str(out), "cells": summaries, "seconds": seconds}))
            return
        console.print(f"{len(df):,} games in {len(grid)} cells, {seconds:.0f} s", markup=False)
        console.print(
            f"Report: {out / 'report.html'} (also report.md, report.png; rows: {rows_path})", markup=False
        )
