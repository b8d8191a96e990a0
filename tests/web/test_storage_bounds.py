"""Issue 26, items 2-4 (deliver 2): storage that stays small. The WAL is truncated under
continuous play, a nearly full disk refuses new games before moves, and after a full disk the
freed space serves moves again (the WAL no longer takes it back within a second). Every log line
written meanwhile is scanned for the games' secrets."""

from __future__ import annotations

import logging
import threading
import time

import pytest
from fastapi.testclient import TestClient

from trapworks.server import create_app, walguard
from trapworks.server import store as store_module
from trapworks.server.bounds import Bounds
from trapworks.server.store import Store

from .test_logsafe import all_log_text, secrets_of
from .web_helpers import fill, small_tmpfs

MB = 1024 * 1024


@pytest.fixture
def disk(tmp_path):
    """A 24 MB file system of its own (tmpfs)."""
    with small_tmpfs(tmp_path, "24m") as mount:
        yield mount


class Player:
    """Plays Last Mouse Lost games over HTTP for both seats, a new game when one ends."""

    def __init__(self, client):
        self.c = client
        self.service = client.app.state.service
        self.games: list[dict] = []
        self.g = self.new()

    def new(self):
        r = self.c.post("/api/games", json={"game": "last-mouse-lost", "seats": [{"kind": "human"}] * 2})
        assert r.status_code == 201, r.text
        self.games.append(r.json())
        return r.json()

    def move(self) -> int:
        live = self.service.get(self.g["id"])
        if live.state.is_terminal():
            self.g = self.new()
            live = self.service.get(self.g["id"])
        seat = live.state.current_player()
        text = live.state.action_to_string(live.state.legal_actions()[0])
        body = {"token": self.g["seats"][seat]["token"], "action": text, "ply": live.ply()}
        return self.c.post(f"/api/games/{self.g['id']}/moves", json=body).status_code


def test_a_nearly_full_disk_refuses_new_games_before_moves(disk):
    url = f"sqlite:///{disk / 'near.sqlite'}"
    with TestClient(create_app(url, bounds=Bounds(disk_reserve=4 * MB))) as c:
        p = Player(c)
        assert p.move() == 200
        filler = fill(disk, leave=MB // 2)  # the reserve: 4 MB, at most 1/20 of 24 MB
        r = c.post("/api/games", json={"game": "last-mouse-lost"})
        assert r.status_code == 503 and r.json()["code"] == "disk_nearly_full"
        assert [p.move() for _ in range(20)] == [200] * 20  # the games in play go on
        filler.unlink()
        assert c.post("/api/games", json={"game": "last-mouse-lost"}).status_code == 201


@pytest.mark.slow
def test_after_a_full_disk_the_freed_space_serves_moves_for_30_s_and_no_log_holds_a_secret(disk, caplog):
    caplog.set_level(logging.DEBUG)
    url = f"sqlite:///{disk / 'full.sqlite'}"
    app = create_app(
        url,
        request_rate=(1e9, 1e9),
        bounds=Bounds(disk_reserve=0, games_per_hour=100_000, games_per_minute_total=100_000),
    )
    with TestClient(app) as c:
        p = Player(c)
        for _ in range(20):
            assert p.move() == 200
        filler = fill(disk)
        codes = [p.move() for _ in range(200)]
        assert 503 in codes  # the full disk refused moves
        filler.unlink()  # space is back
        time.sleep(2.5)  # a checkpoint
        refused, acked = 0, 0
        started = time.monotonic()
        while time.monotonic() - started < 30:
            code = p.move()
            acked += code == 200
            refused += code != 200
        wal = walguard.wal_size(disk / "full.sqlite")
        print(
            f"after the space came back: {acked} moves acknowledged, {refused} refused in 30 s; WAL {wal} B"
        )
        assert refused == 0 and acked > 100
    text = all_log_text(caplog.records)
    assert "storage failure" in text
    store = Store(url)
    stored = [store.load_game(g["id"]) for g in p.games]
    store.close()
    leaked = {s for st in stored if st for s in secrets_of(st) if s in text}
    assert not leaked


@pytest.mark.slow
def test_the_wal_stays_under_its_bound_over_ten_truncations(tmp_path, monkeypatch):
    """Continuous play with a reader beside it (a spectator's page, the lobby): the WAL file
    stays under 2 x WAL_SOFT_LIMIT, checked after every move.

    The soft limit is set to 1 MB here (TRAPWORKS_WAL_SOFT_LIMIT, a server setting; 4 MB by
    default): a move writes about 13 KB of WAL, so without the TRUNCATE checkpoint the file would
    pass 2 MB after some 150 moves, and 1,000 moves take it over its soft limit and back about ten
    times. Every cycle is the same whatever the limit (the guard's tick, TICK_S, is the real one,
    so the margin for what a tick of play writes is a quarter of the default's: a stricter check);
    at the default limit the same ten cycles took 3,000 moves (30.6 CPU s against 10.5)."""
    url = f"sqlite:///{tmp_path / 'wal.sqlite'}"
    db = tmp_path / "wal.sqlite"
    stop = threading.Event()
    monkeypatch.setattr(walguard, "WAL_SOFT_LIMIT", MB)
    monkeypatch.setattr(walguard, "JOURNAL_SIZE_LIMIT", MB)
    moves = 1_000
    # Only the guard's TRUNCATE bounds the WAL here (the worst case): the PASSIVE checkpoint every
    # 2 s lets the WAL rewind, and on a loaded machine (fewer moves a second) it then never reached
    # its soft limit at all (CI: 0 truncations in 3,000 moves), so the bound went unexercised.
    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY_S", 3600.0)
    app = create_app(
        url, request_rate=(1e9, 1e9), bounds=Bounds(games_per_hour=100_000, games_per_minute_total=100_000)
    )
    with TestClient(app) as c:
        p = Player(c)
        store = c.app.state.store

        def reader():
            while not stop.is_set():
                store.load_game(p.g["id"])

        t = threading.Thread(target=reader, daemon=True)
        t.start()
        worst = 0
        truncations = 0  # the WAL seen over its soft limit, then back under half of it
        over = False
        try:
            for _ in range(moves):
                assert p.move() == 200
                size = walguard.wal_size(db)
                worst = max(worst, size)
                if size > walguard.WAL_SOFT_LIMIT:
                    over = True
                elif over and size < walguard.WAL_SOFT_LIMIT / 2:
                    over, truncations = False, truncations + 1
        finally:
            stop.set()
            t.join(timeout=10)
        print(f"{moves} moves in {len(p.games)} games: {truncations} truncations, WAL <= {worst / MB:.2f} MB")
        assert truncations >= 2  # the cycle seen more than once
        assert worst <= 2 * walguard.WAL_SOFT_LIMIT
