"""Resumable runs: games in chunks on local processes or a Ray cluster, rows written as they come.

A run writes each finished chunk to `<out>.parts/part-<first game>.parquet` (atomically) beside a
manifest of the run (`run.json`); when every chunk is there the parts become `<out>` (Parquet or
CSV, sorted by game index) and the folder goes. Ctrl-C or a lost worker leaves the finished
chunks in place and `resume=True` plays only the missing ones: no game is lost or played twice,
and since each game's seed depends on the run's seed and its index alone (`game_seed`), the rows
are the same whatever the backend, the number of workers or where the run was interrupted.

Ray is the distributed engine (`backend="ray"`): one Ray task per chunk, retried by Ray on a lost
node (`retries`), progress from `ray.wait` as chunks finish anywhere in the cluster.
"""

from __future__ import annotations

import json
import math
import shutil
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from trapworks.agents import make_agent
from trapworks.core import make

from . import game_seed, play_one, seats_for
from .rows import FORMATS, base_row, concat, read_table, result_row, seat_columns, to_table, write_table

BACKENDS = ("local", "ray")
MANIFEST = "run.json"


class RunError(Exception):
    """A run that cannot start as asked (bad resume, clashing files): the message says why."""


class RunIncomplete(Exception):
    """Some chunks did not finish (Ctrl-C, a lost worker); the finished ones are kept."""

    def __init__(self, message: str, done: int, total: int):
        super().__init__(message)
        self.done = done
        self.total = total


@dataclass(frozen=True)
class RunSpec:
    """What a run plays; everything here but `chunk_size` decides the rows."""

    game_id: str
    agents: tuple[str, ...]
    n: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    rotate: bool = False
    max_actions: int | None = None
    cell: str | None = None  # a label naming the cell of an explore grid (a column of the rows)
    chunk_size: int = 100

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["agents"] = list(self.agents)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunSpec:
        return cls(**{**data, "agents": tuple(data["agents"])})

    def same_games(self, other: RunSpec) -> bool:
        a, b = self.to_json(), other.to_json()
        a.pop("chunk_size")
        b.pop("chunk_size")
        return a == b

    def chunks(self) -> list[tuple[int, int]]:
        return [(s, min(self.n, s + self.chunk_size)) for s in range(0, self.n, self.chunk_size)]


def default_chunk_size(n: int, workers: int) -> int:
    """Enough chunks to keep every worker busy and the progress bar moving, at most 1000 games."""
    return max(1, min(1000, math.ceil(n / max(64, 8 * workers))))


def validate(spec: RunSpec) -> None:
    """Raise (OptionError, ValueError...) before any work when the game or agents are wrong."""
    game = make(spec.game_id, **spec.options)
    seats_for(list(spec.agents), game.num_players(), 0, spec.rotate)
    for name in set(spec.agents):
        make_agent(name, game, 0)


def play_chunk(spec_json: dict[str, Any], start: int, stop: int) -> list[dict[str, Any]]:
    """Rows of games start..stop-1 (what a worker runs: plain data in, plain data out)."""
    spec = RunSpec.from_json(spec_json)
    game = make(spec.game_id, **spec.options)
    public = game.public_options()
    players = game.num_players()
    plans = [seats_for(list(spec.agents), players, i, spec.rotate) for i in range(start, stop)]
    seeds = [game_seed(spec.seed, i) for i in range(start, stop)]
    batched = getattr(game, "batched_agents", None)
    if batched and spec.max_actions is None and all(a in batched for a in spec.agents):
        return _batched_rows(game, spec, public, start, plans, seeds)
    return [
        result_row(
            spec.game_id,
            public,
            play_one(spec.game_id, spec.options, plans[k], seeds[k], start + k, spec.max_actions),
            spec.cell,
        )
        for k in range(stop - start)
    ]


def _batched_rows(
    game: Any,
    spec: RunSpec,
    public: dict[str, Any],
    start: int,
    plans: list[list[str]],
    seeds: list[int],
) -> list[dict[str, Any]]:
    """A game's batched engine (`Game.play_batch`) for runs of games with the same seating."""
    rows: list[dict[str, Any]] = []
    i = 0
    while i < len(plans):
        j = i
        while j < len(plans) and plans[j] == plans[i]:
            j += 1
        for k, r in enumerate(game.play_batch(plans[i], seeds[i:j])):
            index = start + i + k
            row = base_row(spec.game_id, spec.cell, index, seeds[i + k], public)
            row.update(seat_columns(plans[i], r["returns"], r["winners"], r["truncated"]))
            row["length"] = r["length"]
            row["actions"] = r.get("actions")
            row["ending"] = r.get("ending", "truncated" if r["truncated"] else None)
            skip = {"returns", "winners", "truncated", "length", "actions", "ending"}
            row.update({key: v for key, v in r.items() if key not in skip})
            rows.append(row)
        i = j
    return rows


@dataclass
class Job:
    """One run's output: `out` (Parquet or CSV) and its folder of parts."""

    spec: RunSpec
    out: Path
    fmt: str = "parquet"

    @property
    def parts(self) -> Path:
        return self.out.with_name(self.out.name + ".parts")

    def part(self, start: int) -> Path:
        return self.parts / f"part-{start:012d}.parquet"


def prepare(job: Job, resume: bool) -> list[tuple[int, int]]:
    """Set up the parts folder; the chunks still to play (none when the output is complete)."""
    if job.fmt not in FORMATS:
        raise RunError(f"unknown format {job.fmt!r}: choose one of {', '.join(FORMATS)}")
    if not job.out.parent.is_dir():
        raise RunError(f"folder {job.out.parent} does not exist")
    manifest = job.parts / MANIFEST
    if resume:
        if not manifest.exists():
            if job.out.exists():
                return []  # finished before
            raise RunError(f"nothing to resume: {job.parts} does not exist (run without --resume)")
        stored = RunSpec.from_json(json.loads(manifest.read_text()))
        if not stored.same_games(job.spec):
            raise RunError(
                f"--resume with other settings than the run in {job.parts}: it was "
                f"{json.dumps({k: v for k, v in stored.to_json().items() if k != 'chunk_size'})}"
            )
        job.spec = stored  # its chunk size, so the parts line up
    else:
        if job.parts.exists():
            raise RunError(
                f"an unfinished run is in {job.parts}: add --resume to complete it, or delete that folder"
            )
        job.parts.mkdir()
        manifest.write_text(json.dumps(job.spec.to_json(), indent=1) + "\n")
    return [(s, e) for s, e in job.spec.chunks() if not job.part(s).exists()]


def finish(job: Job) -> Any:
    """Join the parts into the output file (sorted by index) and remove the parts folder."""
    import pyarrow.parquet as pq

    if not job.parts.exists():
        return read_table(job.out)
    paths = sorted(job.parts.glob("part-*.parquet"))
    table = concat([pq.read_table(p) for p in paths])
    if table.num_rows != job.spec.n:
        raise RunError(f"{job.parts} holds {table.num_rows} games, the run has {job.spec.n}")
    table = table.sort_by("index")
    write_table(table, job.out, job.fmt)
    shutil.rmtree(job.parts)
    return table


def _ignore_sigint() -> None:
    # Workers leave Ctrl-C to the parent, which keeps what finished and stops the rest.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _local(
    tasks: list[tuple[int, dict[str, Any], int, int]], workers: int
) -> Iterator[tuple[int, int, list[dict[str, Any]] | BaseException]]:
    if workers <= 1:
        for key, spec_json, s, e in tasks:
            yield key, s, play_chunk(spec_json, s, e)
        return
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint)
    try:
        futures: dict[Future[list[dict[str, Any]]], tuple[int, int]] = {
            pool.submit(play_chunk, spec_json, s, e): (key, s) for key, spec_json, s, e in tasks
        }
        pending = set(futures)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                key, s = futures[f]
                exc = f.exception()
                yield key, s, exc if exc is not None else f.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _ray(
    tasks: list[tuple[int, dict[str, Any], int, int]], address: str | None, workers: int, retries: int
) -> Iterator[tuple[int, int, list[dict[str, Any]] | BaseException]]:
    import logging

    import ray

    started_here = not ray.is_initialized()
    if started_here:
        kwargs: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": logging.ERROR,
        }
        if address is None:
            # "local": always a new private instance, never someone else's cluster on this machine.
            ray.init(address="local", num_cpus=max(1, workers), **kwargs)
        else:
            ray.init(address=address, **kwargs)
    remote = ray.remote(num_cpus=1, max_retries=retries)(play_chunk)
    refs = {remote.remote(spec_json, s, e): (key, s) for key, spec_json, s, e in tasks}
    pending = list(refs)
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                key, s = refs[ref]
                try:
                    yield key, s, ray.get(ref)
                except ray.exceptions.RayError as e:  # a task that failed or a node lost for good
                    yield key, s, e
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started_here:
            ray.shutdown()


def plan(jobs: Sequence[Job], resume: bool) -> list[list[tuple[int, int]]]:
    """Check every job (game, options, agents, files) and set up its parts; the chunks to play."""
    for job in jobs:
        validate(job.spec)
    return [prepare(job, resume) for job in jobs]


def execute(
    jobs: Sequence[Job],
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
    resume: bool = False,
    retries: int = 3,
    progress: Callable[[int], None] | None = None,
    total: Callable[[int, int], None] | None = None,
    planned: list[list[tuple[int, int]]] | None = None,
) -> list[Any]:
    """Play every job's missing chunks on `backend` and write the outputs; their tables.

    `total(games, already_done)` is called once before play, `progress(games)` per finished
    chunk. Raises RunError (nothing played) or RunIncomplete (finished chunks kept).
    """
    if backend not in BACKENDS:
        raise RunError(f"unknown backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    todo = planned if planned is not None else plan(jobs, resume)
    tasks = [(k, jobs[k].spec.to_json(), s, e) for k, chunks in enumerate(todo) for s, e in chunks]
    n_all = sum(job.spec.n for job in jobs)
    n_todo = sum(e - s for _, _, s, e in tasks)
    if total:
        total(n_all, n_all - n_todo)
    sizes = {(k, s): e - s for k, _, s, e in tasks}
    failures: list[str] = []
    played = 0
    stream = _ray(tasks, address, workers, retries) if backend == "ray" else _local(tasks, workers)
    try:
        for key, start, result in stream:
            if isinstance(result, BaseException):
                failures.append(f"games {start}-{start + sizes[(key, start)] - 1}: {type(result).__name__}")
                continue
            write_table(to_table(result), jobs[key].part(start), "parquet")
            played += len(result)
            if progress:
                progress(len(result))
    except KeyboardInterrupt:
        raise RunIncomplete(
            f"interrupted: {n_all - n_todo + played} of {n_all} games kept; rerun with --resume for the rest",
            n_all - n_todo + played,
            n_all,
        ) from None
    if failures:
        lost = n_todo - played
        raise RunIncomplete(
            f"{lost} games not played ({len(failures)} chunks failed, e.g. {failures[0]}); "
            f"{n_all - lost} of {n_all} kept: rerun with --resume for the rest",
            n_all - lost,
            n_all,
        )
    return [finish(job) for job in jobs]
