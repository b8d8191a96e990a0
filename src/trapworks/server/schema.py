"""The database schema, versioned with Alembic (migrations in server/migrations/).

`migrate` brings any database to the newest schema at start-up: an empty one is created, an older
one upgraded, and one made before migrations existed (tables from `create_all`, perhaps missing
some columns) is completed to the first revision and stamped with it, then upgraded. Every node
of a cluster runs it when it starts, so it runs under a lock: PostgreSQL's advisory lock (held by
the migrating connection), or a file lock beside a SQLite file. Two nodes starting at the same
moment on an empty database: one migrates, the other waits, then finds nothing left to do.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
from collections.abc import Iterator
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, MetaData, inspect
from sqlalchemy import text as sql_text

log = logging.getLogger("trapworks.server")

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
BASELINE = "0001"  # the schema before migrations existed
LOCK_KEY = 0x74726170_776B7331  # PostgreSQL advisory lock key ("trapwks1"); any fixed 64-bit number
# Columns added to `games` before migrations existed: a database from then may lack them.
LEGACY_COLUMNS = {
    "secret": "VARCHAR(64)",
    "chosen_setup": "BOOLEAN NOT NULL DEFAULT FALSE",
    "practice": "BOOLEAN NOT NULL DEFAULT FALSE",
    "is_public": "BOOLEAN NOT NULL DEFAULT FALSE",
    "spectator_chat": "BOOLEAN NOT NULL DEFAULT FALSE",
    "open_seats": "INTEGER NOT NULL DEFAULT 0",
}
BASELINE_TABLES = ("games", "seat_joins", "chat_lines", "actions", "game_control")


def _config(conn: Connection) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = conn
    return cfg


def head() -> str:
    """The newest revision shipped with this version of trapworks."""
    rev = ScriptDirectory.from_config(_config(None)).get_current_head()  # type: ignore[arg-type]
    assert rev is not None
    return rev


def current(conn: Connection) -> str | None:
    return MigrationContext.configure(conn).get_current_revision()


@contextlib.contextmanager
def _migration_lock(engine: Engine, sqlite_file: Path | None) -> Iterator[Connection]:
    """A connection that holds the cluster-wide migration lock."""
    if sqlite_file is not None:
        lock_path = sqlite_file.with_name(sqlite_file.name + ".migrate-lock")
        with open(lock_path, "a+") as lock_file:
            fcntl.flock(lock_file, fcntl.LOCK_EX)
            try:
                with engine.connect() as conn:
                    yield conn
            finally:
                fcntl.flock(lock_file, fcntl.LOCK_UN)
        return
    with engine.connect() as conn:
        locked = engine.dialect.name == "postgresql"
        if locked:
            conn.execute(sql_text("SELECT pg_advisory_lock(:k)"), {"k": LOCK_KEY})
            conn.commit()
        try:
            yield conn
        finally:
            if locked:
                conn.rollback()
                conn.execute(sql_text("SELECT pg_advisory_unlock(:k)"), {"k": LOCK_KEY})
                conn.commit()


def _complete_legacy(conn: Connection, metadata: MetaData) -> None:
    """A database made by `create_all` before migrations: add what the first revision has."""
    have = {c["name"] for c in inspect(conn).get_columns("games")}
    for name, kind in LEGACY_COLUMNS.items():
        if name not in have:
            conn.execute(sql_text(f"ALTER TABLE games ADD COLUMN {name} {kind}"))
    tables = [metadata.tables[t] for t in BASELINE_TABLES]
    metadata.create_all(conn, tables=tables)  # tables added later than `games`, if missing
    conn.commit()


def migrate(engine: Engine, metadata: MetaData, sqlite_file: Path | None = None) -> str:
    """Bring the database to the newest revision (under the migration lock); the revision.
    `metadata`: the store's models (server/store.py)."""
    with _migration_lock(engine, sqlite_file) as conn:
        cfg = _config(conn)
        found = current(conn)
        if found is None and inspect(conn).has_table("games"):
            log.warning("database made before migrations: completing it and stamping revision %s", BASELINE)
            _complete_legacy(conn, metadata)
            command.stamp(cfg, BASELINE)
            conn.commit()
        if found != head():
            command.upgrade(cfg, "head")
            conn.commit()
        # Tables whose models have no migration yet (there should be none: a test compares the
        # migrations with the models) are still created, under the same lock.
        metadata.create_all(conn)
        conn.commit()
        rev = current(conn)
    assert rev is not None
    return rev
