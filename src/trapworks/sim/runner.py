"""Resumable runs: games in chunks on local processes or a Ray cluster, rows written as they come.

A run writes each finished chunk to `<out>.parts/part-<first game>.parquet` (atomically) beside a
manifest of the run (`run.json`); when every chunk is there the parts become `<out>` (Parquet or
CSV, sorted by game index) and the folder goes. Ctrl-C or a lost worker leaves the finished
chunks in place and `resume=True` plays only the missing ones: no game is lost or played twice,
and since each game's seed depends on the run's seed and its index alone (`game_seed`), the rows
are the same whatever the backend, the number of workers or where the run was interrupted.

Ray is the distributed engine (`backend="ray"`): one Ray task per chunk, retried by Ray on a lost
node (`retries`), progress from `ray.wait` as chunks finish anywhere in the cluster. When every
worker node is lost, Ray would wait for one to join for ever: a run that has had no CPU in the
cluster and no chunk finished for `stall_timeout` seconds (default `RAY_STALL_TIMEOUT`, or
$TRAPWORKS_RAY_STALL_TIMEOUT) stops as a Ctrl-C does, keeping the finished chunks for `--resume`.

Memory stays flat in the number of games: only a few chunks per worker are in flight at once
(`window`), each chunk's rows are written to its part file as soon as it finishes and then
dropped (on Ray its object is released at once), and the parts are joined into the output one
row group at a time. The manifest records the trapworks version and a fingerprint of the code
that plays the games; `--resume` with different code is refused (its games would not be the
same). With `keep_records`, each game's record (seed, options, every action) is written beside
the rows, `<out stem>.records.parquet`, for `trapworks replay ROWS --seed SEED`.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from trapworks.agents import make_agent
from trapworks.core import game_class, make

from . import game_seed, play_one, seats_for
from .provenance import code_fingerprint, provenance
from .rows import FORMATS, base_row, result_row, seat_columns, stream_join, to_table, write_table

BACKENDS = ("local", "ray")
MANIFEST = "run.json"
# Seconds a Ray run waits with no CPU left in the cluster and no chunk finished before it stops.
RAY_STALL_TIMEOUT = 300.0
STALL_ENV = "TRAPWORKS_RAY_STALL_TIMEOUT"


class RunError(Exception):
    """A run that cannot start as asked (bad resume, clashing files): the message says why."""


class RunIncomplete(Exception):
    """Some chunks did not finish (Ctrl-C, a lost worker); the finished ones are kept."""

    def __init__(self, message: str, done: int, total: int):
        super().__init__(message)
        self.done = done
        self.total = total


class _NoWorkers(Exception):
    """The Ray cluster has had no CPU for the stall timeout (every worker node lost)."""


def stall_timeout() -> float:
    """The Ray stall timeout: $TRAPWORKS_RAY_STALL_TIMEOUT (seconds) or RAY_STALL_TIMEOUT."""
    text = os.environ.get(STALL_ENV)
    if text is None:
        return RAY_STALL_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not seconds > 0 or math.isinf(seconds):
        raise RunError(f"{STALL_ENV}={text!r}: give a number of seconds above 0")
    return seconds


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
    keep_records: bool = False  # write each game's record beside the rows

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["agents"] = list(self.agents)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunSpec:
        return cls(**{**data, "agents": tuple(data["agents"])})

    def same_games(self, other: RunSpec) -> bool:
        a, b = self.to_json(), other.to_json()
        for key in ("chunk_size", "keep_records"):
            a.pop(key)
            b.pop(key)
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


def uses_batched_engine(spec: RunSpec, game: Any | None = None) -> bool:
    """Whether a run's games are played by the game's batched engine (`Game.play_batch`: its
    agents cover the run's, and neither --max-actions nor --keep-records asks for the kernel)."""
    game = game if game is not None else make(spec.game_id, **spec.options)
    batched = getattr(game, "batched_agents", None)
    return bool(
        batched
        and spec.max_actions is None
        and not spec.keep_records
        and all(a in batched for a in spec.agents)
    )


def engine_used(specs: list[RunSpec], unit: str, game: Any | None = None) -> tuple[str, str]:
    """Which engine a set of runs uses ("batched", "kernel" or "mixed") and a sentence that says
    so, each run being one `unit` ("cell", "series") of a grid or a tournament."""
    batched = [uses_batched_engine(spec, game) for spec in specs]
    if all(batched):
        return "batched", f"the game's batched engine (compiled) played every {unit}"
    if not any(batched):
        return (
            "kernel",
            f"the Python kernel played every {unit} (no batched engine for these agents or options)",
        )
    units = unit if unit.endswith("s") else unit + "s"
    return "mixed", f"the batched engine played {sum(batched)} of {len(specs)} {units}, the kernel the rest"


def engines_to_warm(jobs: Sequence[Job]) -> list[RunSpec]:
    """One run per game whose batched engine the jobs use and numba compiles: `warm_up` compiles
    that engine (or loads it from numba's cache) once, before any worker starts. One is enough
    per game: the options and agents are arrays and numbers to the compiled code, the same types
    in every cell. An engine built at install (Last Mouse Lost's C) needs none."""
    seen: set[str] = set()
    out: list[RunSpec] = []
    for job in jobs:
        spec = job.spec
        if spec.game_id in seen or not game_class(spec.game_id).batched_engine_jit:
            continue
        if uses_batched_engine(spec):
            seen.add(spec.game_id)
            out.append(spec)
    return out


def compile_engines(specs: Sequence[RunSpec], done: Callable[[], None] | None = None) -> None:
    """`warm_up` each run's engine in a child process started fresh ("spawn"), one after the
    other: the machine code lands in numba's cache for the workers to load, and this process
    never starts the engines' OpenMP threads (a process that has cannot fork workers safely)."""
    import multiprocessing

    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        for spec in specs:
            pool.submit(warm_up, spec).result()
            if done:
                done()


def warm_up(spec: RunSpec) -> None:
    """Compile a run's batched engine in this process by playing one game with each seating of
    its agents: numba writes the machine code to its cache (the data folder's numba-cache/) and
    the workers load it from there (or inherit it, forked) instead of each compiling its own."""
    game = make(spec.game_id, **spec.options)
    players = game.num_players()
    plans = {tuple(seats_for(list(spec.agents), players, i, spec.rotate)) for i in range(players)}
    for seats in sorted(plans):
        game.play_batch(list(seats), [game_seed(spec.seed, 0)])


def play_chunk(spec_json: dict[str, Any], start: int, stop: int) -> dict[str, Any]:
    """Rows of games start..stop-1, and their records when the run keeps them (what a worker
    runs: plain data in, plain data out)."""
    spec = RunSpec.from_json(spec_json)
    game = make(spec.game_id, **spec.options)
    public = game.public_options()
    players = game.num_players()
    plans = [seats_for(list(spec.agents), players, i, spec.rotate) for i in range(start, stop)]
    seeds = [game_seed(spec.seed, i) for i in range(start, stop)]
    if uses_batched_engine(spec, game):
        return {"rows": _batched_rows(game, spec, public, start, plans, seeds), "records": None}
    rows, records = [], []
    for k in range(stop - start):
        result = play_one(
            spec.game_id, spec.options, plans[k], seeds[k], start + k, spec.max_actions, spec.keep_records
        )
        rows.append(result_row(spec.game_id, public, result, spec.cell))
        if result.record is not None:
            records.append({"index": start + k, "seed": seeds[k], "record": json.dumps(result.record)})
    return {"rows": rows, "records": records if spec.keep_records else None}


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
            first = r.get("first_seat")
            row["first_seat"] = None if first is None else first + 1
            row["length"] = r["length"]
            row["actions"] = r.get("actions")
            row["ending"] = r.get("ending", "truncated" if r["truncated"] else None)
            skip = {"returns", "winners", "truncated", "length", "actions", "ending", "first_seat"}
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
    command: str | None = None  # the command line written into the output's metadata
    created: bool = False  # whether this process made the parts folder (removed if nothing ran)

    @property
    def parts(self) -> Path:
        return self.out.with_name(self.out.name + ".parts")

    @property
    def records(self) -> Path:
        """Where the game records go (with `keep_records`): `<out stem>.records.parquet`."""
        return records_path(self.out)

    def part(self, start: int) -> Path:
        return self.parts / f"part-{start:012d}.parquet"

    def records_part(self, start: int) -> Path:
        return self.parts / f"records-{start:012d}.parquet"


def records_path(rows: Path) -> Path:
    return rows.with_name(rows.stem + ".records.parquet")


def _manifest(spec: RunSpec) -> dict[str, Any]:
    import trapworks

    return {"spec": spec.to_json(), "version": trapworks.__version__, "code": code_fingerprint()}


def prepare(job: Job, resume: bool) -> list[tuple[int, int]]:
    """Set up the parts folder; the chunks still to play (none when the output is complete)."""
    import trapworks

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
        data = json.loads(manifest.read_text())
        if "spec" not in data or data.get("code") != code_fingerprint():
            raise RunError(
                f"--resume with other code than the run in {job.parts}: it was played by trapworks "
                f"{data.get('version', 'before 0.2')} (code {data.get('code', 'unknown')}), this is "
                f"{trapworks.__version__} (code {code_fingerprint()}); its games would differ: finish it "
                "with that version, or delete the folder and start again"
            )
        stored = RunSpec.from_json(data["spec"])
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
        job.created = True
        manifest.write_text(json.dumps(_manifest(job.spec), indent=1) + "\n")
    return [(s, e) for s, e in job.spec.chunks() if not job.part(s).exists()]


def finish(job: Job) -> Path:
    """Join the parts into the output file (sorted by index, one part at a time, with the run's
    provenance in its metadata) and remove the parts folder; the output's path."""
    import pyarrow.parquet as pq

    if not job.parts.exists():
        return job.out
    paths = sorted(job.parts.glob("part-*.parquet"))
    rows = sum(pq.ParquetFile(p).metadata.num_rows for p in paths)
    if rows != job.spec.n:
        raise RunError(f"{job.parts} holds {rows} games, the run has {job.spec.n}")
    meta = provenance(job.spec.to_json(), job.command)
    # Parts are named by their first game and each is in order: joined by name, rows are sorted.
    stream_join(paths, job.out, job.fmt, meta)
    records = sorted(job.parts.glob("records-*.parquet"))
    if job.spec.keep_records and records:
        stream_join(records, job.records, "parquet", meta)
    shutil.rmtree(job.parts)
    return job.out


def _ignore_sigint() -> None:
    # Workers leave Ctrl-C to the parent, which keeps what finished and stops the rest.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


Task = tuple[int, dict[str, Any], int, int]
Outcome = tuple[int, int, dict[str, Any] | BaseException]


def _local(tasks: list[Task], workers: int, window: int) -> Iterator[Outcome]:
    if workers <= 1:
        for key, spec_json, s, e in tasks:
            yield key, s, play_chunk(spec_json, s, e)
        return
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint)
    todo = iter(tasks)
    running: dict[Future[dict[str, Any]], tuple[int, int]] = {}

    def submit() -> None:
        # A few chunks per worker in flight, never the whole run: a finished chunk's future
        # is dropped as soon as its rows are handed on.
        while len(running) < window:
            task = next(todo, None)
            if task is None:
                return
            key, spec_json, s, e = task
            running[pool.submit(play_chunk, spec_json, s, e)] = (key, s)

    try:
        submit()
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for f in done:
                key, s = running.pop(f)
                exc = f.exception()
                yield key, s, exc if exc is not None else f.result()
                del f
            submit()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


class RayConnectError(RunError):
    """The Ray cluster could not be joined (unreachable, too slow, or refused the driver)."""


def _reachable(address: str, timeout: float) -> None:
    """Raise RayConnectError unless `address` (host:port) accepts a TCP connection in time."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise RayConnectError(f"--address {address!r}: write HOST:PORT, e.g. 127.0.0.1:6379, or 'auto'")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except TimeoutError:
        raise RayConnectError(
            f"cannot reach the Ray cluster at {address}: no answer within {timeout:g} s "
            "(is the head running, and is its port open from here?)"
        ) from None
    except OSError as e:
        raise RayConnectError(
            f"cannot reach the Ray cluster at {address}: {e.strerror or e} "
            "(start one with `ray start --head --port PORT`, or check the address)"
        ) from None


def _auth_hint(text: str) -> bool:
    low = text.lower()
    return "auth" in low or "token" in low or "unauthenticated" in low


_ray_started = False  # whether this process's Ray was started by ray_connect (shut down after a run)


def ray_connect(address: str | None, workers: int, timeout: float = 30.0) -> bool:
    """ray.init with a time limit and errors that say why (callers may connect before a run,
    so that a bad address fails before anything is set up); whether trapworks started Ray."""
    import logging

    import ray

    global _ray_started
    if ray.is_initialized():
        return _ray_started
    _ray_started = False
    kwargs: dict[str, Any] = {
        "include_dashboard": False,
        "log_to_driver": False,
        "logging_level": logging.ERROR,
    }
    if address is None:
        # "local": always a new private instance, never someone else's cluster on this machine.
        ray.init(address="local", num_cpus=max(1, workers), **kwargs)
        _ray_started = True
        return True
    if address != "auto":
        _reachable(address, min(timeout, 10.0))
    box: dict[str, BaseException | None] = {}

    def init() -> None:
        try:
            ray.init(address=address, **kwargs)
            box["error"] = None
        except BaseException as e:  # handed to the caller's thread
            box["error"] = e

    # Ray's own log lines while joining (its retries, an auth failure) go to a log file, read
    # back for the cause; the driver's stdout and stderr keep only trapworks' one line.
    import os
    import sys
    import tempfile

    log = tempfile.NamedTemporaryFile(prefix="trapworks-ray-", suffix=".log", delete=False)  # noqa: SIM115
    sys.stderr.flush()
    saved = os.dup(2)
    os.dup2(log.fileno(), 2)
    try:
        thread = threading.Thread(target=init, name="ray-init", daemon=True)
        thread.start()
        thread.join(timeout)
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        log.close()
    said = Path(log.name).read_text(errors="replace")
    if not thread.is_alive() and box.get("error") is None:
        Path(log.name).unlink(missing_ok=True)
    if "InvalidAuthToken" in said or "Unauthenticated" in said:
        raise RayConnectError(
            f"the Ray cluster at {address} refused this driver's authentication token (InvalidAuthToken): "
            "set RAY_AUTH_MODE=token and the cluster's token (RAY_AUTH_TOKEN or RAY_AUTH_TOKEN_PATH) "
            f"here as on every node, see docs/scale.md (Ray's log: {log.name})"
        )
    if thread.is_alive():
        raise RayConnectError(
            f"the Ray cluster at {address} did not let this driver join within {timeout:g} s "
            "(a head that is starting, a version mismatch, or token authentication: see docs/scale.md; "
            f"Ray's log: {log.name})"
        )
    error = box.get("error")
    if error is not None:
        text = " ".join(str(error).split())
        if _auth_hint(text):
            raise RayConnectError(
                f"the Ray cluster at {address} refused this driver's authentication ({text[:160]}): "
                "set RAY_AUTH_MODE=token and the cluster's token (RAY_AUTH_TOKEN or RAY_AUTH_TOKEN_PATH) "
                "here as on every node, see docs/scale.md"
            )
        raise RayConnectError(
            f"cannot join the Ray cluster at {address}: {type(error).__name__}: {text[:200]} "
            f"(Ray's log: {log.name})"
        )
    _ray_started = True
    return True


def _ray(
    tasks: list[Task], address: str | None, workers: int, retries: int, window: int
) -> Iterator[Outcome]:
    import ray

    stall = stall_timeout()
    started_here = ray_connect(address, workers)
    remote = ray.remote(num_cpus=1, max_retries=retries)(play_chunk)
    todo = iter(tasks)
    refs: dict[Any, tuple[int, int]] = {}
    cpus = int(ray.cluster_resources().get("CPU", workers)) or 1
    limit = max(window, 2 * cpus)

    def submit() -> None:
        while len(refs) < limit:
            task = next(todo, None)
            if task is None:
                return
            key, spec_json, s, e = task
            refs[remote.remote(spec_json, s, e)] = (key, s)

    try:
        submit()
        progress = time.monotonic()
        while refs:
            ready, _ = ray.wait(list(refs), num_returns=1, timeout=min(1.0, stall))
            if not ready:
                # Ray waits for a node with a CPU for ever; stop once none has been there (and no
                # chunk has finished) for the stall timeout.
                if ray.cluster_resources().get("CPU", 0) > 0:
                    progress = time.monotonic()
                elif time.monotonic() - progress >= stall:
                    raise _NoWorkers(f"no CPU in the Ray cluster for {stall:g} s (every worker node lost?)")
                continue
            progress = time.monotonic()
            for ref in ready:
                key, s = refs.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayError as e:  # a task that failed or a node lost for good
                    yield key, s, e
                    continue
                del ref  # the last reference: Ray frees the chunk's object now, not at the end
                yield key, s, result
                del result
            submit()
    finally:
        for ref in list(refs):
            ray.cancel(ref, force=True)
        refs.clear()
        if started_here:
            global _ray_started
            ray.shutdown()
            _ray_started = False


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
    window: int | None = None,
) -> list[Path]:
    """Play every job's missing chunks on `backend` and write the outputs; their paths.

    `total(games, already_done)` is called once before play, `progress(games)` per finished
    chunk; at most `window` chunks (default: two per worker) are in flight at once. Raises
    RunError (nothing played; a parts folder this call made is removed) or RunIncomplete
    (finished chunks kept).
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
    window = window or 2 * max(1, workers)
    stream = (
        _ray(tasks, address, workers, retries, window) if backend == "ray" else _local(tasks, workers, window)
    )
    try:
        for key, start, result in stream:
            if isinstance(result, BaseException):
                failures.append(f"games {start}-{start + sizes[(key, start)] - 1}: {type(result).__name__}")
                continue
            job = jobs[key]
            if result["records"] is not None:
                write_table(to_table(result["records"]), job.records_part(start), "parquet")
            write_table(to_table(result["rows"]), job.part(start), "parquet")
            played += len(result["rows"])
            del result
            if progress:
                progress(sizes[(key, start)])
    except (KeyboardInterrupt, _NoWorkers) as e:
        ctrl_c = isinstance(e, KeyboardInterrupt)
        why, then = ("interrupted", "for the rest") if ctrl_c else (e, "when workers are back")
        kept = n_all - n_todo + played
        raise RunIncomplete(
            f"{why}: {kept} of {n_all} games kept; rerun with --resume {then}", kept, n_all
        ) from None
    except RunError:
        # Nothing could start (a Ray cluster out of reach): leave no parts folder behind that
        # would block the next run.
        if played == 0:
            for job in jobs:
                if job.created and not any(job.parts.glob("part-*.parquet")):
                    shutil.rmtree(job.parts, ignore_errors=True)
                    job.created = False
        raise
    if failures:
        lost = n_todo - played
        raise RunIncomplete(
            f"{lost} games not played ({len(failures)} chunks failed, e.g. {failures[0]}); "
            f"{n_all - lost} of {n_all} kept: rerun with --resume for the rest",
            n_all - lost,
            n_all,
        )
    return [finish(job) for job in jobs]
