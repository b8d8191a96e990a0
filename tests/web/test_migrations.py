"""The database schema is versioned with Alembic (server/schema.py, server/migrations/): an empty
database is created by the migrations, an older one upgraded, and nodes starting together on one
empty database all come up (issue 24)."""

from __future__ import annotations

import sqlite3
import threading

import httpx
import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import MetaData, create_engine, inspect

from trapworks.server import schema
from trapworks.server.store import Base, Store

from .cluster_helpers import PG_URL, fresh_schema, start_nodes, stop_nodes

needs_pg = pytest.mark.skipif(not PG_URL, reason="set TRAPWORKS_TEST_POSTGRES_URL to test PostgreSQL")


def all_models() -> MetaData:
    """The store's models and the accounts' (server/accounts/models.py), in one MetaData."""
    from trapworks.server.accounts.models import AccountsBase
    from trapworks.server.community.models import CommunityBase  # i41

    combined = MetaData()
    for metadata in (Base.metadata, AccountsBase.metadata, CommunityBase.metadata):
        for table in metadata.tables.values():
            table.to_metadata(combined)
    return combined


def test_the_migrations_make_exactly_the_tables_of_the_models(tmp_path):
    """Only the migrations run here (no create_all): a model changed without a migration fails."""
    engine = create_engine(f"sqlite:///{tmp_path / 'm.sqlite'}")
    with engine.connect() as conn:
        command.upgrade(schema._config(conn), "head")
        conn.commit()
        diff = compare_metadata(MigrationContext.configure(conn), all_models())
        assert schema.current(conn) == schema.head()
    assert diff == [], diff


OLD_SCHEMA = """
CREATE TABLE games (id VARCHAR(32) PRIMARY KEY, game VARCHAR(64) NOT NULL, options JSON NOT NULL,
  seed BIGINT NOT NULL, start TEXT, seats JSON NOT NULL, spectator_token VARCHAR(64) NOT NULL,
  hints BOOLEAN NOT NULL, created DATETIME NOT NULL);
CREATE TABLE actions (pk INTEGER PRIMARY KEY AUTOINCREMENT, game_id VARCHAR(32) NOT NULL REFERENCES games(id),
  ply INTEGER NOT NULL, seat INTEGER NOT NULL, text TEXT NOT NULL,
  CONSTRAINT one_action_per_ply UNIQUE (game_id, ply));
INSERT INTO games VALUES ('old1', 'last-mouse-lost', '{}', 5, NULL,
  '[{"kind": "human", "agent": null, "name": "", "token": "t0"},
    {"kind": "human", "agent": null, "name": "", "token": "t1"}]', 'spec', 0, '2024-01-01 00:00:00');
INSERT INTO actions (game_id, ply, seat, text) VALUES ('old1', 0, 0, 'c2');
"""


def test_a_database_made_before_migrations_is_completed_stamped_and_upgraded(tmp_path):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SCHEMA)
    store = Store(f"sqlite:///{path}")
    try:
        assert store.revision == schema.head()
        tables = set(inspect(store.engine).get_table_names())
        assert {"games", "actions", "seat_joins", "chat_lines", "game_control", "timer_claims"} <= tables
        old = store.load_game("old1")
        assert old is not None and old.actions == [(0, "c2")] and old.public is False
    finally:
        store.close()
    # Started again: nothing left to do, same revision, the game still there.
    again = Store(f"sqlite:///{path}")
    try:
        assert again.revision == schema.head() and again.load_game("old1").actions == [(0, "c2")]
    finally:
        again.close()


def stores_opened_at_once(url: str, n: int) -> list[str]:
    """Open `n` stores on one database at the same moment (threads); the schema revision each
    found, once every one is open (an error in any fails the test)."""
    revisions: list[str] = []
    errors: list[BaseException] = []

    def open_store() -> None:
        try:
            s = Store(url)
            revisions.append(s.revision)
            s.close()
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=open_store) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return revisions


def test_processes_opening_one_new_sqlite_file_together_all_come_up(tmp_path):
    url = f"sqlite:///{tmp_path / 'new.sqlite'}"
    assert stores_opened_at_once(url, 4) == [schema.head()] * 4


@needs_pg
def test_stores_opening_one_empty_postgres_database_together_all_come_up():
    with fresh_schema() as url:
        assert stores_opened_at_once(url, 4) == [schema.head()] * 4


@needs_pg
def test_two_nodes_started_at_once_on_an_empty_postgres_database_both_serve(tmp_path):
    """The issue's first report: both `trapworks serve` processes start at the same moment on a
    fresh database; both come up, and a game made on one is played on the other."""
    with fresh_schema() as url:
        nodes = start_nodes(tmp_path, url, 2)
        try:
            a, b = nodes
            g = httpx.post(f"{a.url}/api/games", json={"game": "last-mouse-lost"}).json()
            t0 = g["seats"][0]["token"]
            r = httpx.post(f"{b.url}/api/games/{g['id']}/moves", json={"token": t0, "action": "c2", "ply": 0})
            assert r.status_code == 200, r.text
            seen = httpx.get(f"{a.url}/api/games/{g['id']}", params={"token": t0}).json()["state"]
            assert seen["ply"] == 1
            assert all(n.proc.poll() is None for n in nodes)
        finally:
            stop_nodes(nodes)


def test_a_timer_claim_is_taken_once_renewed_by_its_node_taken_over_once_lapsed_and_swept(tmp_path):
    from trapworks.server.store import StoredGame

    store = Store(f"sqlite:///{tmp_path / 'c.sqlite'}")
    try:
        store.create_game(
            StoredGame(
                id="g1",
                game="last-mouse-lost",
                options={},
                seed=1,
                start=None,
                seats=[],
                spectator_token="s",
                hints=False,
                created="",
            )
        )
        assert store.claim_timer("g1", "clock", 3, "node-a", 60)
        assert not store.claim_timer("g1", "clock", 3, "node-b", 60)  # held by a
        assert store.claim_timer("g1", "clock", 3, "node-a", 60)  # a renews its own
        assert store.claim_timer("g1", "clock", 4, "node-b", -7200)  # another timer; lapsed at once
        assert store.claim_timer("g1", "clock", 4, "node-a", 60)  # a lapsed claim is taken over
        assert store.claim_timer("g1", "advance", 5, "node-b", -7200)
        assert store.forget_old_claims(3600) == 1  # only the claim that lapsed two hours ago
        assert not store.claim_timer("g1", "clock", 3, "node-b", 60)
    finally:
        store.close()
