"""Concurrent writes of a game's control document from two nodes lose neither (issue 24, item 4).

The control document (clock, resignations, rematch acceptances, hand-overs) is one JSON row per
game. Two nodes that each change their copy and write it whole would lose one change: a rematch
accepted on node A and on node B at the same moment used to leave one acceptance (and no rematch).
Now a node writes only over the version it read (optimistic concurrency, migration 0004); the one
that loses adopts the stored document and makes its change again on it.

The app-level test runs two apps on one database with no bus between them (`bus="local"`): every
node's copy is as stale as it can be, the worst case a slow bus could produce.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from trapworks.server import create_app
from trapworks.server.store import ControlConflict, Store, StoredGame

from .cluster_helpers import PG_URL, fresh_schema


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'control.sqlite'}"
        return
    if not PG_URL:
        pytest.skip("set TRAPWORKS_TEST_POSTGRES_URL to test PostgreSQL")
    with fresh_schema() as url:
        yield url


def a_game(gid: str) -> StoredGame:
    seats = [{"kind": "human", "agent": None, "name": "", "token": f"t{i}-{gid}"} for i in range(2)]
    return StoredGame(
        id=gid,
        game="last-mouse-lost",
        options={},
        seed=0,
        start=None,
        seats=seats,
        spectator_token=f"s-{gid}",
        hints=False,
        created="",
    )


def test_a_write_over_a_version_another_writer_changed_is_refused(db_url):
    a, b = Store(db_url), Store(db_url)
    try:
        a.create_game(a_game("g1"))
        assert a.save_control("g1", {"n": "a"}, 0) == 1  # none stored yet: version 0
        with pytest.raises(ControlConflict):
            b.save_control("g1", {"n": "b"}, 0)  # B read before A wrote
        data, version = b.load_control_version("g1")
        assert (data, version) == ({"n": "a"}, 1)
        assert b.save_control("g1", {"n": "a+b"}, version) == 2
        with pytest.raises(ControlConflict):
            a.save_control("g1", {"n": "a again"}, 1)  # A's copy is stale now
        assert a.load_control("g1") == {"n": "a+b"}  # nothing lost, nothing overwritten
    finally:
        a.close()
        b.close()


def post(client: TestClient, path: str, **body) -> dict:
    r = client.post(path, json=body)
    assert r.status_code == 200, r.text
    return r.json()


def test_rematch_accepted_on_two_nodes_at_once_keeps_both_acceptances(db_url, tmp_path):
    node_a = TestClient(create_app(db_url, data_dir=tmp_path / "a", bus="local"))
    node_b = TestClient(create_app(db_url, data_dir=tmp_path / "b", bus="local"))
    with node_a as a, node_b as b:
        g = a.post("/api/games", json={"game": "last-mouse-lost"}).json()
        gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
        assert post(a, f"/api/games/{gid}/resign", token=t0)["ended"] is True
        # Node B reads the finished game now; it never hears of what A does next.
        assert b.get(f"/api/games/{gid}", params={"token": t1}).json()["state"]["terminal"]
        first = post(a, f"/api/games/{gid}/rematch", token=t0)
        assert first["accepted"] == [0] and first["game"] is None
        # B's copy says nobody accepted yet: its write conflicts, it adopts A's document and
        # accepts on it: both seats have accepted, so B makes the rematch.
        second = post(b, f"/api/games/{gid}/rematch", token=t1)
        assert sorted(second["accepted"]) == [0, 1] and second["game"] is not None
    store = Store(db_url)
    try:
        stored = store.load_control(gid)
        assert sorted(stored["rematch"]["accepted"]) == [0, 1]
        assert stored["rematch"]["game"] == second["game"]
        assert stored["forfeits"][0]["reason"] == "resigned"  # A's earlier change kept too
        assert store.load_game(second["game"]) is not None
    finally:
        store.close()
