"""SQLite's write-ahead log kept small, and room kept on the disk for the games in play.

- **The WAL is bounded.** store.py checkpoints in a background thread (never inside a move's
  commit). A PASSIVE checkpoint copies what it can without waiting for anyone, but under
  continuous play some reader always holds an older snapshot, the log is never rewound and the
  file only grows (the issue measured 106.8 MB of WAL beside a 0.85 MB database after 7,950
  moves, unchanged after idle). `checkpoint()` runs PASSIVE while the WAL file is under
  `WAL_SOFT_LIMIT` (every 2 s) and TRUNCATE as soon as it is over (its size is looked at every
  `TICK_S`): TRUNCATE waits (SQLite's busy timeout) for the readers
  of old snapshots, copies every frame, and truncates the file to zero bytes; writers wait for it
  (milliseconds for a few MB). `journal_size_limit` also truncates the file whenever SQLite
  rewinds it on its own. So the WAL stays under about `WAL_SOFT_LIMIT` plus what a quarter of a
  second of play writes (tested: under 2 x WAL_SOFT_LIMIT over ten truncations, with the limit set to 1 MB).
- **A reserve for moves.** `disk_free(path)` is the free space of the database's file system;
  bounds.py refuses new games (503 `disk_nearly_full`) once it is under `Bounds.disk_reserve`
  (64 MB, at most a twentieth of the file system),
  so that the games in play keep the rest for their moves.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

WAL_SOFT_LIMIT = int(os.environ.get("TRAPWORKS_WAL_SOFT_LIMIT", 4 * 1024 * 1024))  # bytes
JOURNAL_SIZE_LIMIT = WAL_SOFT_LIMIT


def pragmas(cursor: Any) -> None:
    """Per connection (store.py's connect hook): a rewound WAL is truncated to this size."""
    cursor.execute(f"PRAGMA journal_size_limit={JOURNAL_SIZE_LIMIT}")


def wal_path(db: Path) -> Path:
    return db.with_name(db.name + "-wal")


def wal_size(db: Path | None) -> int:
    if db is None:
        return 0
    try:
        return wal_path(db).stat().st_size
    except OSError:
        return 0


def checkpoint(engine: Any, db: Path | None, mode: str | None = None) -> str:
    """One checkpoint, PASSIVE or (over the soft limit) TRUNCATE; the mode used."""
    mode = mode or ("TRUNCATE" if wal_size(db) > WAL_SOFT_LIMIT else "PASSIVE")
    with engine.connect() as conn:
        conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")
    return mode


TICK_S = 0.25  # how often the WAL's size is looked at (a stat)


class WalGuard:
    """The checkpoint thread's work, called every TICK_S: a PASSIVE checkpoint every `every_s`,
    a TRUNCATE one as soon as the WAL is over WAL_SOFT_LIMIT."""

    def __init__(self, engine: Any, db: Path | None, every_s: float = 2.0) -> None:
        self.engine = engine
        self.db = db
        self.every_s = every_s
        self._last = time.monotonic()
        self.truncations = 0

    def tick(self) -> str | None:
        now = time.monotonic()
        if wal_size(self.db) > WAL_SOFT_LIMIT:
            self._last = now
            self.truncations += 1
            return checkpoint(self.engine, self.db, "TRUNCATE")
        if now - self._last >= self.every_s:
            self._last = now
            return checkpoint(self.engine, self.db, "PASSIVE")
        return None


def disk_free(db: Path | None) -> int | None:
    """Bytes free for this process on the database file's file system (None: not a file)."""
    if db is None:
        return None
    try:
        st = os.statvfs(db.parent)
    except OSError:
        return None
    return st.f_bavail * st.f_frsize


def disk_size(db: Path | None) -> int | None:
    """Bytes of the database file's file system (None: not a file)."""
    if db is None:
        return None
    try:
        st = os.statvfs(db.parent)
    except OSError:
        return None
    return st.f_blocks * st.f_frsize
