"""The same server on PostgreSQL (by URL). Runs only when TRAPWORKS_TEST_POSTGRES_URL names a database,
e.g. postgresql+psycopg://trapworks:trapworks@127.0.0.1/trapworks_test (needs the psycopg driver)."""

import asyncio
import os

import pytest
from fastapi.testclient import TestClient

from trapworks.server import create_app
from trapworks.server.store import Store

from .conftest import create_game
from .test_live import _simultaneous, check_group_commit_with_a_taken_ply

PG_URL = os.environ.get("TRAPWORKS_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not PG_URL, reason="set TRAPWORKS_TEST_POSTGRES_URL to test PostgreSQL")


def test_postgres_game_is_stored_and_resumed_by_a_new_server():
    with TestClient(create_app(PG_URL)) as c:
        g = create_game(
            c,
            seats=[{"kind": "human"}, {"kind": "agent", "agent": "perfect"}],
            options={"first_player": "random"},
            seed=4,
        )
        tok = g["seats"][0]["token"]
        for _ in range(100):
            s = c.get(f"/api/games/{g['id']}", params={"token": tok}).json()["state"]
            if s["to_move"] == 0:
                break
        r = c.post(
            f"/api/games/{g['id']}/moves",
            json={"token": tok, "action": s["view"]["legal_actions"][0]["text"], "ply": s["ply"]},
        )
        assert r.status_code == 200, r.text
        stored = Store(PG_URL).load_game(g["id"])
        assert stored.actions[0][0] == -1 and len(stored.actions) >= s["ply"] + 1
    with TestClient(create_app(PG_URL)) as c:
        after = c.get(f"/api/games/{g['id']}", params={"token": tok}).json()["state"]
        assert [e["text"] for e in after["log"]][: s["ply"] + 1] == [t for _, t in stored.actions][
            : s["ply"] + 1
        ]


def test_postgres_simultaneous_moves_exactly_one_accepted():
    # Every move names its ply (a move without one is refused: issue 12), so of four moves for
    # ply 0 exactly one is applied.
    codes, bodies, state = asyncio.run(_simultaneous(PG_URL, {"ply": 0}))
    assert sorted(codes) == [200, 409, 409, 409], bodies
    assert len(Store(PG_URL).load_game(state["id"]).actions) == 1


def test_postgres_group_commit_with_one_taken_ply_fails_only_that_write():
    check_group_commit_with_a_taken_ply(PG_URL)
