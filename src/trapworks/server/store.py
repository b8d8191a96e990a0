"""Persistence of web games with SQLAlchemy: SQLite by default, PostgreSQL (or any SQLAlchemy URL).

A game row holds what never changes after creation (game id, options, seed, seats, tokens); the
actions table is the log, one row per applied action (chance outcomes included), with a unique
(game, ply) pair so that two writers can never both store move number N.
Every write commits before the caller acknowledges it, so a `kill -9` loses nothing acknowledged.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Connection,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from . import walguard
from .schema import migrate

CHECKPOINT_EVERY_S = 2.0  # SQLite: how often the WAL is copied into the database file
# Timer claims (cluster nodes, server/cluster.py) are swept every this many claims, keeping those
# that lapsed less than CLAIM_KEEP_S ago.
CLAIM_SWEEP_EVERY = 500
CLAIM_KEEP_S = 3600.0


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)  # public id in URLs
    game: Mapped[str] = mapped_column(String(64))  # game id, e.g. last-mouse-lost
    options: Mapped[dict] = mapped_column(JSON)
    # A creator-chosen seed; 0 where the server drew a secret key (the setup seed is derived from it).
    seed: Mapped[int] = mapped_column(BigInteger)
    start: Mapped[str | None] = mapped_column(Text, nullable=True)
    # [{"kind": "human"|"agent", "agent": name|None, "name": str, "token": str|None}]
    seats: Mapped[list] = mapped_column(JSON)
    spectator_token: Mapped[str] = mapped_column(String(64))
    hints: Mapped[bool] = mapped_column(Boolean, default=False)
    # Created as practice: undo may cross revealed chance and physics outcomes against AI.
    practice: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The game's 256-bit randomness key (hex): never sent to a client before the game ends.
    secret: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # The creator chose the seed or the start position (allowed only where no two humans share
    # hidden information or chance): shown to the players.
    chosen_setup: Mapped[bool] = mapped_column(Boolean, default=False)
    # Listed in the lobby's open tables while it has free seats (server/features/tables.py).
    public: Mapped[bool] = mapped_column("is_public", Boolean, default=False)
    # Spectators may write in the chat (by default they only read it).
    spectator_chat: Mapped[bool] = mapped_column(Boolean, default=False)
    # Free seats of a public game (0 once full or over): what the open-tables query filters on.
    open_seats: Mapped[int] = mapped_column(Integer, default=0)


class SeatJoinRow(Base):
    """A human seat someone has taken: the unique (game, seat) pair hands a free seat out once,
    even to two servers racing for it. `seen` is when the seat's last socket opened or closed."""

    __tablename__ = "seat_joins"
    __table_args__ = (UniqueConstraint("game_id", "seat", name="one_holder_per_seat"),)

    pk: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    joined: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ChatRow(Base):
    __tablename__ = "chat_lines"

    pk: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: a spectator
    name: Mapped[str] = mapped_column(String(64))  # the sender's display name when it was sent
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # i41: the account that wrote it (seat holder or logged-in spectator), for personal mutes;
    # kept on the server: the line as sent never carries it
    author_id: Mapped[int | None] = mapped_column(Integer, nullable=True)


class ActionRow(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "ply", name="one_action_per_ply"),)

    pk: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    ply: Mapped[int] = mapped_column(Integer)  # 0-based index in the action list
    seat: Mapped[int] = mapped_column(Integer)  # -1: chance
    text: Mapped[str] = mapped_column(Text)  # action in the game's notation (replays exactly)


class ControlRow(Base):
    """What a game's players did off the board (server/room.py ControlDoc, written by the features
    in server/features/): its clock (settings, time left, who is on move since when), resignations
    and an abort, the clock AI's moves, seats handed to an AI, and a rematch (who accepted, the new
    game). One JSON document per game, rewritten on change."""

    __tablename__ = "game_control"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    data: Mapped[dict] = mapped_column(JSON)
    # Written only over the version read (save_control): two nodes' changes never overwrite one.
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class TimerClaimRow(Base):
    """A node's claim on one timer of a game (server/cluster.py): (game, kind, ply) fires once in
    a cluster; a claim lapses at `until`, so the timers of a node that died are taken over."""

    __tablename__ = "timer_claims"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    node: Mapped[str] = mapped_column(String(64))
    until: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass
class StoredGame:
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    start: str | None
    seats: list[dict[str, Any]]
    spectator_token: str
    hints: bool
    created: str
    actions: list[tuple[int, str]] = field(default_factory=list)  # (seat, text) per ply
    secret: str | None = None  # hex of the randomness key (None: a game stored before keys)
    chosen_setup: bool = False
    practice: bool = False
    public: bool = False
    spectator_chat: bool = False
    open_seats: int = 0
    # seat -> (joined, last seen or None): the human seats someone has taken (SeatJoinRow).
    joins: dict[int, tuple[datetime, datetime | None]] = field(default_factory=dict)


class SeatTaken(Exception):
    """Someone took this seat first."""


def _action_rows(game_id: str, first_ply: int, actions: list[tuple[int, str]]) -> list[dict[str, Any]]:
    return [
        {"game_id": game_id, "ply": first_ply + i, "seat": seat, "text": text}
        for i, (seat, text) in enumerate(actions)
    ]


def _settle(done: asyncio.Future, error: BaseException | None) -> None:
    if done.done():  # cancelled by its caller: nobody waits for the answer
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)


class PlyTaken(Exception):
    """Another writer stored an action at this ply first."""


class ControlConflict(Exception):
    """Another writer changed the game's control document since this one read it."""


class StoreUnavailable(Exception):
    """The store cannot take writes now (its database file was deleted or replaced)."""


log = logging.getLogger("trapworks.server")
TURN_RETRY_S = 0.001  # how soon a write kept out by another's turn asks again
TURN_WAIT_S = 2.0  # the longest a creation's commit lets moves go first


def sqlite_path(url: str) -> Path | None:
    """The database file of a SQLite URL (None: not SQLite, or in memory)."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url[len(prefix) :] in ("", ":memory:"):
        return None
    return Path(url[len(prefix) :].split("?")[0])


def default_url(data_dir: Path) -> str:
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{data_dir / 'trapworks.sqlite'}"


class Store:
    def __init__(self, url: str):
        self.url = url
        self.path = sqlite_path(url)
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        if self.path is not None:
            # Create the file once; every later connection opens it read-write without creating:
            # a deleted file must be noticed (and restored), not silently replaced by an empty one.
            sqlite3.connect(self.path).close()
            target = f"file:{quote(str(self.path.resolve()))}?mode=rw"
            kwargs["creator"] = lambda: sqlite3.connect(target, uri=True, check_same_thread=False)
        # i26: never put a statement's parameters (tokens, keys) in an error message or log line.
        self.engine = create_engine(url, hide_parameters=True, **kwargs)
        if url.startswith("sqlite"):

            @event.listens_for(self.engine, "connect")
            def _sqlite_pragmas(dbapi_connection, _record):
                cur = dbapi_connection.cursor()
                # WAL + synchronous=NORMAL: a commit is in the WAL file before it returns, so it
                # survives the process being killed; only an OS crash could lose the last commits.
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.execute("PRAGMA busy_timeout=5000")
                # No checkpoint inside a commit (it fsyncs the database file and stalled every move
                # for up to half a second under load); a background thread checkpoints instead.
                cur.execute("PRAGMA wal_autocheckpoint=0")
                walguard.pragmas(cur)  # i26: a rewound WAL is truncated (walguard.py)
                cur.close()

        # The schema: created, upgraded or stamped by its Alembic migrations (server/schema.py),
        # under a lock so that nodes starting together on one empty database all come up.
        self.revision = migrate(self.engine, Base.metadata, self.path)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._writer: Connection | None = self.engine.connect()
        # The database file's identity: a write first checks that the file is still the one open
        # (a deleted file takes writes that vanish at the next start; a replaced one is another store).
        self._identity = self._file_identity()
        self.lost: str | None = None  # why the store refuses writes, while it does
        self._warn_unwritable()
        self._insert_action = insert(ActionRow)
        self._claims = 0  # timer claims made (the old ones are swept now and then)
        # Group commit: actions stored by concurrent moves in one turn of the event loop share one
        # transaction (see append_actions_soon).
        self._pending: list[tuple[list[dict[str, Any]], asyncio.Future]] = []
        # i40: moves first. SQLite lets one writer at a time; a creation's commit in a worker
        # thread (`creation_turn`) waits while moves wait to be committed, and the moves' flush on
        # the event loop never blocks on a creation being committed (SQLite's busy handler
        # stalled the whole loop meanwhile): it comes back a moment later.
        self._write_turn = threading.Lock()
        self._stop = threading.Event()
        self._checkpointer = None
        if url.startswith("sqlite"):
            self._checkpointer = threading.Thread(
                target=self._checkpoint_loop, name="sqlite-checkpoint", daemon=True
            )
            self._checkpointer.start()

    def _file_identity(self) -> tuple[int, int] | None:
        if self.path is None:
            return None
        st = os.stat(self.path)
        return (st.st_dev, st.st_ino)

    def check_file(self) -> None:
        """Raise StoreUnavailable if the database file was deleted or replaced since it was opened."""
        if self.path is None:
            return
        try:
            now: tuple[int, int] | None = self._file_identity()
        except FileNotFoundError:
            now = None
        if now == self._identity:
            return
        if now is None:
            self._recover_deleted()
        else:
            self.lost = f"the database file {self.path} was replaced by another file while in use"
            log.critical("%s: writes refused until the server is restarted on the right file", self.lost)
        raise StoreUnavailable(self.lost or "the database file was deleted")

    def _recover_deleted(self) -> None:
        """The file was deleted while open: every committed move is still readable through the open
        connection. Copy it (SQLite's backup API) back to the path, then reopen there."""
        assert self.path is not None
        self.lost = f"the database file {self.path} was deleted while in use"
        log.critical("%s: restoring it from the open connection", self.lost)
        copy = self.path.with_name(f"{self.path.name}.recovered-{int(time.time())}")
        if self._writer is None:
            # No connection held the deleted file open: its content is gone with it.
            log.critical("%s and no connection held it open: nothing to restore; restore a backup", self.lost)
            return
        try:
            raw = self._writer_connection().connection.dbapi_connection
            target = sqlite3.connect(copy)
            with target:
                raw.backup(target)  # type: ignore[union-attr]
            target.close()
            # Close every connection of the deleted file (SQLite removes its -wal and -shm names).
            self._drop_connections()
            if self.path.exists():
                log.critical("not restoring over a file that appeared meanwhile; the copy is %s", copy)
                return
            # The deleted file's -wal and -shm are left behind (SQLite keeps them for an unlinked
            # database): their content is in the copy, and beside a new file they would corrupt it.
            for suffix in ("-wal", "-shm"):
                self.path.with_name(self.path.name + suffix).unlink(missing_ok=True)
            os.replace(copy, self.path)
            self._identity = self._file_identity()
            self.lost = None
            log.error("database file restored at %s; the move that found it missing was refused", self.path)
        except Exception as e:
            log.critical("could not restore the database file: %s (copy attempted at %s)", e, copy)

    def _warn_unwritable(self, error: BaseException | None = None) -> None:
        """Name a database file this process cannot write (a read-only -wal or -shm makes every write
        fail with 'attempt to write a readonly database', which does not say which file)."""
        if self.path is None:
            return
        for suffix in ("", "-wal", "-shm"):
            f = self.path.with_name(self.path.name + suffix)
            if f.exists() and not os.access(f, os.W_OK):
                log.error("database file %s is read-only: moves are refused until it is writable", f)
        if error is not None:
            log.error("database write failed: %s", str(error).splitlines()[0])

    def _checkpoint_loop(self) -> None:
        # PASSIVE: copy committed WAL pages into the database without blocking writers or readers;
        # TRUNCATE once the WAL is over its bound (walguard.py).
        guard = walguard.WalGuard(self.engine, self.path, CHECKPOINT_EVERY_S)  # i26
        while not self._stop.wait(walguard.TICK_S):
            try:
                guard.tick()  # i26: PASSIVE every CHECKPOINT_EVERY_S, TRUNCATE over the WAL's bound
            except Exception:  # a busy or closing database: try again next time
                pass

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=5)
        self._drop_connections()

    def _writer_connection(self) -> Connection:
        if self._writer is None:
            self._writer = self.engine.connect()
        return self._writer

    def _drop_connections(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        self.engine.dispose()

    # --- writing ----------------------------------------------------------------
    @property
    def writes_from_any_thread(self) -> bool:
        """Whether a worker thread's pooled connection writes the same database: a file or a
        server, not an in-memory SQLite database (one per connection)."""
        return not self.url.startswith("sqlite") or self.path is not None

    def create_game(self, game: StoredGame) -> None:
        self.check_file()
        self.insert_game(game)

    def insert_game(self, game: StoredGame) -> None:
        """The game's row, committed on return, on a pooled connection (not the move writer's):
        safe from a worker thread once `check_file` has passed on the event loop."""
        with self.sessions.begin() as s:
            s.add(
                GameRow(
                    id=game.id,
                    game=game.game,
                    options=game.options,
                    seed=game.seed,
                    start=game.start,
                    seats=game.seats,
                    spectator_token=game.spectator_token,
                    hints=game.hints,
                    practice=game.practice,
                    created=datetime.now(UTC),
                    secret=game.secret,
                    chosen_setup=game.chosen_setup,
                    public=game.public,
                    spectator_chat=game.spectator_chat,
                    open_seats=game.open_seats,
                )
            )

    def append_actions(self, game_id: str, first_ply: int, actions: list[tuple[int, str]]) -> None:
        """Store actions at plies first_ply, first_ply+1, ... in one transaction (committed on return)."""
        self._insert(_action_rows(game_id, first_ply, actions))

    def append_actions_soon(
        self, game_id: str, first_ply: int, actions: list[tuple[int, str]]
    ) -> asyncio.Future:
        """As append_actions, for the event loop: a future that is done once the actions are committed.

        Every call made in the same turn of the event loop joins one transaction, committed when
        the loop gets to it: under load one commit serves dozens of moves (each still waits for
        its own commit before it is acknowledged). A ply already taken fails only its own call
        (the future's exception is PlyTaken).
        """
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        if not self._pending:
            loop.call_soon(self._flush)
        self._pending.append((_action_rows(game_id, first_ply, actions), done))
        return done

    @contextlib.contextmanager
    def creation_turn(self) -> Iterator[None]:
        """Held by a worker thread around a new game's writes: it starts once no move waits to be
        committed (or after TURN_WAIT_S, so creations are never starved for good)."""
        if not self.url.startswith("sqlite"):  # a server database takes both writes at once
            yield
            return
        deadline = time.monotonic() + TURN_WAIT_S
        while True:
            self._write_turn.acquire()
            if not self._pending or time.monotonic() > deadline:
                break
            self._write_turn.release()
            time.sleep(TURN_RETRY_S)
        try:
            yield
        finally:
            self._write_turn.release()

    def _flush(self) -> None:
        if not self._write_turn.acquire(blocking=False):  # a creation is committing: not on the loop
            asyncio.get_running_loop().call_later(TURN_RETRY_S, self._flush)
            return
        try:
            self._commit_pending()
        finally:
            self._write_turn.release()

    def _commit_pending(self) -> None:
        batch, self._pending = self._pending, []
        try:
            self._insert([row for rows, _ in batch for row in rows])
        except PlyTaken:
            # Someone's ply was taken (another server process): store each call on its own, so
            # that only the calls that clash fail.
            for rows, done in batch:
                try:
                    self._insert(rows)
                except Exception as e:
                    _settle(done, e)
                else:
                    _settle(done, None)
            return
        except Exception as e:
            for _, done in batch:
                _settle(done, e)
            return
        for _, done in batch:
            _settle(done, None)

    def _insert(self, rows: list[dict[str, Any]]) -> None:
        self.check_file()
        try:
            # Core insert on a connection kept open, not the ORM unit of work: this is the hot path
            # of every move. The service calls the store from the event loop thread only.
            writer = self._writer_connection()
            with writer.begin():
                writer.execute(self._insert_action, rows)
        except IntegrityError:
            first = rows[0]
            raise PlyTaken(f"game {first['game_id']}: ply {first['ply']} is already stored") from None
        except OperationalError as e:
            # The database connection broke (a PostgreSQL restart), the disk is full or a file
            # became read-only: let this move fail (the player retries it) and open fresh
            # connections for the next write. All of them: SQLite keeps a read-only -shm mapping
            # for as long as any connection of this process holds the file (so: none until the
            # next write).
            self._drop_connections()
            self._warn_unwritable(e)
            raise

    def update_seats(self, game_id: str, seats: list[dict[str, Any]]) -> None:
        """Store a game's seats again (an invite used up), committed on return."""
        self.check_file()
        with self.sessions.begin() as s:
            row = s.get(GameRow, game_id)
            if row is not None:
                row.seats = seats

    def truncate_actions(self, game_id: str, keep: int) -> None:
        """Delete every action at ply >= keep (undo), committed on return."""
        self.check_file()
        with self.sessions.begin() as s:
            s.execute(delete(ActionRow).where(ActionRow.game_id == game_id, ActionRow.ply >= keep))

    def save_control(self, game_id: str, data: Mapping[str, Any], version: int | None = None) -> int:
        """Store a game's control document (server/room.py ControlDoc), committed on return; its
        new version. With `version` (the one read: 0 for none stored yet), only over that version:
        ControlConflict where another writer (a node of a cluster) changed it since."""
        self.check_file()
        try:
            with self.sessions.begin() as s:
                if version is not None and version > 0:
                    done = s.execute(
                        update(ControlRow)
                        .where(ControlRow.game_id == game_id, ControlRow.version == version)
                        .values(data=dict(data), version=version + 1)
                    )
                    if done.rowcount != 1:  # type: ignore[attr-defined]
                        raise ControlConflict(game_id)
                    return version + 1
                row = s.get(ControlRow, game_id)
                if row is None:
                    s.add(ControlRow(game_id=game_id, data=dict(data), version=1))
                    s.flush()  # a row added meanwhile by another writer: IntegrityError
                    return 1
                if version == 0:
                    raise ControlConflict(game_id)  # stored meanwhile by another writer
                row.data = dict(data)
                row.version = (row.version or 0) + 1
                return row.version
        except IntegrityError:
            raise ControlConflict(game_id) from None

    # --- reading ----------------------------------------------------------------
    def load_game(self, game_id: str) -> StoredGame | None:
        with self.sessions() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            actions = s.execute(
                select(ActionRow.seat, ActionRow.text)
                .where(ActionRow.game_id == game_id)
                .order_by(ActionRow.ply)
            ).all()
            return StoredGame(
                id=row.id,
                game=row.game,
                options=dict(row.options),
                seed=row.seed,
                start=row.start,
                seats=json.loads(json.dumps(row.seats)),
                spectator_token=row.spectator_token,
                hints=row.hints,
                practice=bool(row.practice),
                created=row.created.isoformat(timespec="seconds") if row.created else "",
                actions=[(seat, text) for seat, text in actions],
                secret=row.secret,
                chosen_setup=bool(row.chosen_setup),
                public=bool(row.public),
                spectator_chat=bool(row.spectator_chat),
                open_seats=row.open_seats or 0,
                # In the same session: a second connection could not open a deleted SQLite file,
                # while the open one still reads it (test_reliability's deleted-file case).
                joins=self._seat_joins(s, game_id),
            )

    def load_control(self, game_id: str) -> dict[str, Any] | None:
        found = self.load_control_version(game_id)
        return None if found is None else found[0]

    def load_control_version(self, game_id: str) -> tuple[dict[str, Any], int] | None:
        """The control document and its version (None: none stored)."""
        with self.sessions() as s:
            row = s.get(ControlRow, game_id)
            return None if row is None else (json.loads(json.dumps(row.data)), row.version or 0)

    def games_on_the_clock(self) -> list[str]:
        """Games whose clock was running for a seat when last stored (a restart resumes them)."""
        with self.sessions() as s:
            rows = s.execute(select(ControlRow.game_id, ControlRow.data)).all()
        return [
            gid
            for gid, data in rows
            if (data or {}).get("clock") and (data.get("clock_state") or {}).get("turn_seat") is not None
        ]

    def actions_from(self, game_id: str, first_ply: int) -> list[tuple[int, str]]:
        """The stored actions at plies >= first_ply, in order (a node catching up on a game)."""
        with self.sessions() as s:
            rows = s.execute(
                select(ActionRow.seat, ActionRow.text)
                .where(ActionRow.game_id == game_id, ActionRow.ply >= first_ply)
                .order_by(ActionRow.ply)
            ).all()
        return [(seat, text) for seat, text in rows]

    def ply_count(self, game_id: str) -> int:
        """How many actions the game has stored (plies are 0, 1, ...: the count is max + 1)."""
        with self.sessions() as s:
            top = s.scalar(select(func.max(ActionRow.ply)).where(ActionRow.game_id == game_id))
        return 0 if top is None else int(top) + 1

    def load_seats(self, game_id: str) -> list[dict[str, Any]] | None:
        with self.sessions() as s:
            row = s.get(GameRow, game_id)
            return None if row is None else json.loads(json.dumps(row.seats))

    def claim_timer(self, game_id: str, kind: str, ply: int, node: str, hold_s: float) -> bool:
        """Claim timer (game, kind, ply) for `node` for `hold_s` seconds: True for exactly one
        claimant at a time (committed on return). A lapsed claim may be taken over; a node may
        renew its own."""
        self.check_file()
        now = datetime.now(UTC)
        until = now + timedelta(seconds=hold_s)
        key = (TimerClaimRow.game_id == game_id, TimerClaimRow.kind == kind, TimerClaimRow.ply == ply)
        self._claims += 1
        if self._claims % CLAIM_SWEEP_EVERY == 0:
            self.forget_old_claims(CLAIM_KEEP_S)
        try:
            with self.sessions.begin() as s:
                s.add(TimerClaimRow(game_id=game_id, kind=kind, ply=ply, node=node, until=until))
            return True
        except IntegrityError:
            pass
        with self.sessions.begin() as s:
            taken = s.execute(
                update(TimerClaimRow)
                .where(*key, or_(TimerClaimRow.until < now, TimerClaimRow.node == node))
                .values(node=node, until=until)
            )
            return bool(taken.rowcount)  # type: ignore[attr-defined]

    def forget_old_claims(self, older_than_s: float) -> int:
        """Delete timer claims that lapsed more than `older_than_s` ago (their timers have fired
        or been taken over long since); how many (committed on return)."""
        cutoff = datetime.now(UTC) - timedelta(seconds=older_than_s)
        with self.sessions.begin() as s:
            gone = s.execute(delete(TimerClaimRow).where(TimerClaimRow.until < cutoff))
        return int(gone.rowcount)  # type: ignore[attr-defined]

    def game_ids(self) -> list[str]:
        with self.sessions() as s:
            return list(s.scalars(select(GameRow.id).order_by(GameRow.created)))

    # --- seats taken, presence, chat, open tables (server/features/presence.py, chat.py, tables.py) ------
    def take_seat(self, game_id: str, seat: int, open_seats: int) -> datetime:
        """Record that `seat` is taken and `open_seats` seats are left free (committed on return);
        SeatTaken if the seat already was taken."""
        self.check_file()
        now = datetime.now(UTC)
        try:
            with self.sessions.begin() as s:
                s.add(SeatJoinRow(game_id=game_id, seat=seat, joined=now, seen=None))
                s.flush()  # the unique pair is checked here, before the count changes
                row = s.get(GameRow, game_id)
                if row is not None:
                    row.open_seats = open_seats
        except IntegrityError:
            raise SeatTaken(f"game {game_id}: seat {seat} is taken") from None
        return now

    def seat_seen(self, game_id: str, seat: int, when: datetime) -> None:
        """A taken seat's socket opened or closed at `when` (the seat is taken if it was not)."""
        self.check_file()
        with self.sessions.begin() as s:
            row = s.scalars(
                select(SeatJoinRow).where(SeatJoinRow.game_id == game_id, SeatJoinRow.seat == seat)
            ).first()
            if row is None:
                s.add(SeatJoinRow(game_id=game_id, seat=seat, joined=when, seen=when))
            else:
                row.seen = when

    def seat_joins(self, game_id: str) -> dict[int, tuple[datetime, datetime | None]]:
        with self.sessions() as s:
            return self._seat_joins(s, game_id)

    @staticmethod
    def _seat_joins(s: Session, game_id: str) -> dict[int, tuple[datetime, datetime | None]]:
        rows = s.execute(
            select(SeatJoinRow.seat, SeatJoinRow.joined, SeatJoinRow.seen).where(
                SeatJoinRow.game_id == game_id
            )
        ).all()
        return {seat: (_aware(joined), _aware(seen) if seen else None) for seat, joined, seen in rows}

    def add_chat(
        self, game_id: str, seat: int | None, name: str, text: str, author: int | None = None
    ) -> dict[str, Any]:
        """Store one chat line (committed on return); the line, with its `author` (an account id,
        or None) that the chat strips before sending it to anyone."""
        self.check_file()
        now = datetime.now(UTC)
        with self.sessions.begin() as s:
            row = ChatRow(game_id=game_id, seat=seat, name=name, text=text, at=now, author_id=author)
            s.add(row)
            s.flush()
            pk = row.pk
        return {
            "id": pk,
            "seat": seat,
            "name": name,
            "text": text,
            "at": now.isoformat(timespec="seconds"),
            "author": author,
        }

    def chat_lines(self, game_id: str, last: int) -> list[dict[str, Any]]:
        """The game's last `last` chat lines, oldest first (each with its `author`, kept on the server)."""
        with self.sessions() as s:
            rows = s.scalars(
                select(ChatRow).where(ChatRow.game_id == game_id).order_by(ChatRow.pk.desc()).limit(last)
            ).all()
            return [
                {
                    "id": r.pk,
                    "seat": r.seat,
                    "name": r.name,
                    "text": r.text,
                    "at": _aware(r.at).isoformat(timespec="seconds"),
                    "author": r.author_id,
                }
                for r in reversed(rows)
            ]

    def close_table(self, game_id: str) -> None:
        """A public game is over: it has no open seats any more (committed on return)."""
        self.check_file()
        with self.sessions.begin() as s:
            row = s.get(GameRow, game_id)
            if row is not None:
                row.open_seats = 0

    def open_tables(self, since: datetime, limit: int) -> list[tuple[str, datetime]]:
        """(id, created) of public games with open seats created after `since`, oldest first (i26:
        newer tables, junk ones included, cannot push a waiting table off the list)."""
        with self.sessions() as s:
            rows = s.execute(
                select(GameRow.id, GameRow.created)
                .where(GameRow.public.is_(True), GameRow.open_seats > 0, GameRow.created > since)
                .order_by(GameRow.created.asc())
                .limit(limit)
            ).all()
        return [(gid, _aware(created)) for gid, created in rows]


def _aware(when: datetime) -> datetime:
    # SQLite gives back naive datetimes (stored as UTC); PostgreSQL aware ones.
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)
