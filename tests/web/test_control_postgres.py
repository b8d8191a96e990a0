"""Game control stored in PostgreSQL (issue 15, part B): the control table, clocks, results and
rematch links read back by a new server. Runs only when TRAPWORKS_TEST_POSTGRES_URL names a
database, as tests/web/test_postgres.py."""

import os

import pytest
from fastapi.testclient import TestClient

from trapworks.server import create_app

from .conftest import create_game

PG_URL = os.environ.get("TRAPWORKS_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not PG_URL, reason="set TRAPWORKS_TEST_POSTGRES_URL to test PostgreSQL")


def test_postgres_keeps_clocks_results_rematches_and_hand_overs():
    with TestClient(create_app(PG_URL)) as c:
        clock = {"mode": "total", "seconds": 900, "increment": 5}
        timed = create_game(c, options={"board": [1, 2, 3], "first_to": 1}, clock=clock)
        tokens = [s["token"] for s in timed["seats"]]
        s = c.get(f"/api/games/{timed['id']}", params={"token": tokens[0]}).json()["state"]
        action = s["view"]["legal_actions"][0]["text"]
        r = c.post(f"/api/games/{timed['id']}/moves", json={"token": tokens[0], "action": action, "ply": 0})
        assert r.status_code == 200, r.text
        before = c.get(f"/api/games/{timed['id']}", params={"token": tokens[0]}).json()["state"]["clock"]
        done = create_game(c)
        done_tokens = [s["token"] for s in done["seats"]]
        c.post(f"/api/games/{done['id']}/resign", json={"token": done_tokens[0]})
        for t in done_tokens:
            c.post(f"/api/games/{done['id']}/rematch", json={"token": t})
        link = c.get(f"/api/games/{done['id']}", params={"token": done_tokens[0]}).json()["state"]["rematch"]
    with TestClient(create_app(PG_URL)) as c:
        after = c.get(f"/api/games/{timed['id']}", params={"token": tokens[0]}).json()["state"]["clock"]
        assert after["running"] == 1 and after["remaining_ms"][0] == before["remaining_ms"][0]
        s = c.get(f"/api/games/{done['id']}", params={"token": done_tokens[0]}).json()["state"]
        assert s["terminal"] and s["winners"] == [1] and s["rematch"] == link
        record = c.get(f"/api/public/games/{done['id']}/record").json()
        assert record["forfeits"] == [{"seat": 0, "reason": "resigned", "ply": 0}]
