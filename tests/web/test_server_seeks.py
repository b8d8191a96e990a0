"""Quick-game seeks in the database, on one SQLite node (the single-node default, unchanged in
behaviour): a claim takes every seek of a group or none (a conditional UPDATE, so a seek is never
paired twice); a seek whose page stopped polling expires; a poll may wait for its match; the
seeks survive in the database (migration 0006) with only a hash of their handle."""

from __future__ import annotations

import threading

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from trapworks.server import create_app
from trapworks.server.accounts import matchmaking
from trapworks.server.accounts.models import SeekRow

from .accounts_helpers import SMALL_LML, Browser

BODY = {"game": "last-mouse-lost", "options": SMALL_LML, "ai_after": None, "rated": False}


@pytest.fixture
def app(db_url):
    return create_app(db_url)


@pytest.fixture
def seekers(app):
    with TestClient(app) as a, TestClient(app) as b, TestClient(app) as c:
        browsers = [Browser(a), Browser(b), Browser(c)]
        for x in browsers:
            x.me()
        yield browsers


def rows(app) -> dict[str, SeekRow]:
    with app.state.accounts.db() as s:
        return {r.public_id: r for r in s.scalars(select(SeekRow))}


def test_a_claim_takes_the_whole_group_or_nothing(app, seekers):
    a, b, c = seekers
    made = [
        x.post("/api/seeks", {**BODY, "options": {**SMALL_LML, "first_to": 1 + i}}, 201)
        for i, x in enumerate(seekers)
    ]
    assert [m["status"] for m in made] == ["waiting"] * 3  # three pools: nobody pairs
    keys = [matchmaking.seek_hash(m["seek"]) for m in made]
    mm = app.state.matchmaker
    assert mm._claim([keys[0], keys[1]], "first") is True
    # A second claim overlapping the first (keys[1] is taken) gets nothing, not even keys[2].
    assert mm._claim([keys[1], keys[2]], "second") is False
    by_id = rows(app)
    assert [by_id[m["id"]].status for m in made] == ["claimed", "claimed", "waiting"]
    assert by_id[made[1]["id"]].claim == "first"
    # Claimed seeks are not listed, and cannot be cancelled or accepted any more.
    assert [s["id"] for s in a.get("/api/seeks")["seeks"]] == [made[2]["id"]]
    assert a.c.delete(f"/api/seeks/{made[0]['seek']}").status_code == 404
    assert c.post(f"/api/seeks/accept/{made[1]['id']}", {}, 404)["code"] == "no_such_seek"


def test_the_handle_is_stored_only_as_a_hash(app, seekers):
    made = seekers[0].post("/api/seeks", BODY, 201)
    [row] = rows(app).values()
    assert row.id_hash == matchmaking.seek_hash(made["seek"]) and made["seek"] not in str(vars(row))


def test_a_seek_whose_page_stopped_polling_expires(app, seekers):
    a, b, _ = seekers
    old = a.post("/api/seeks", BODY, 201)
    with app.state.accounts.db.begin() as s:  # its page went away SEEK_IDLE_S ago
        s.execute(update(SeekRow).values(polled=SeekRow.polled - matchmaking.SEEK_IDLE_S - 1))
    assert a.get("/api/seeks")["seeks"] == []
    assert a.get(f"/api/seeks/{old['seek']}", status=404)["code"] == "no_such_seek"
    # The newcomer is not paired with the seeker who left: it waits.
    assert b.post("/api/seeks", BODY, 201)["status"] == "waiting"
    assert rows(app) and all(r.status == "waiting" for r in rows(app).values())


def test_a_polled_seek_stays_and_pairs_with_the_next_one(app, seekers):
    a, b, _ = seekers
    first = a.post("/api/seeks", BODY, 201)
    with app.state.accounts.db.begin() as s:  # waited a while, but its page kept polling
        s.execute(update(SeekRow).values(created=SeekRow.created - 20, polled=SeekRow.polled - 20))
    assert a.get(f"/api/seeks/{first['seek']}")["status"] == "waiting"  # the poll renews it
    second = b.post("/api/seeks", BODY, 201)
    got = a.get(f"/api/seeks/{first['seek']}")
    assert second["status"] == got["status"] == "matched" and got["game_id"] == second["game_id"]


def test_a_poll_may_wait_for_its_match(inprocess_server):
    alice, bob = (Browser(httpx.Client(base_url=inprocess_server, timeout=60)) for _ in range(2))
    alice.me()
    bob.me()
    body = {**BODY, "options": {**SMALL_LML, "first_to": 3}}
    mine = alice.post("/api/seeks", body, 201)
    answer: dict = {}
    waiting = threading.Thread(target=lambda: answer.update(alice.get(f"/api/seeks/{mine['seek']}", wait=20)))
    waiting.start()
    theirs = bob.post("/api/seeks", body, 201)
    waiting.join(timeout=30)
    assert answer["status"] == theirs["status"] == "matched" and answer["game_id"] == theirs["game_id"]
    refused = alice.get(f"/api/seeks/{mine['seek']}", status=422, wait=600)  # over MAX_WAIT_S
    assert refused["code"] == "bad_request" and "wait" in refused["error"]


def test_the_bus_message_of_a_match_made_elsewhere_wakes_the_polls_waiting_here(app):
    """What node B publishes after pairing (`{"k": "seek", "seeks": [keys]}`) reaches node A's
    matchmaker through its cluster link and wakes the poll waiting for that seek there."""
    import asyncio

    mm = app.state.matchmaker

    async def heard() -> tuple[bool, bool]:
        mine, other = asyncio.Event(), asyncio.Event()
        mm._matched.update({"k-mine": mine, "k-other": other})
        await app.state.cluster.handle({"k": "seek", "seeks": ["k-mine"], "n": "node-b"})
        return mine.is_set(), other.is_set()

    assert asyncio.run(heard()) == (True, False)
    mm._matched.clear()


def test_a_claim_left_by_a_node_that_stopped_becomes_a_failed_seek_not_a_second_game(app, seekers):
    a, b, _ = seekers
    mine = a.post("/api/seeks", BODY, 201)
    mm = app.state.matchmaker
    assert mm._claim([matchmaking.seek_hash(mine["seek"])], "a-node-that-died")
    assert a.get(f"/api/seeks/{mine['seek']}")["status"] == "waiting"  # being made elsewhere
    with app.state.accounts.db.begin() as s:
        s.execute(update(SeekRow).values(claimed_at=SeekRow.claimed_at - matchmaking.CLAIM_LAPSE_S - 1))
    mm._swept = 0.0  # the next poll sweeps
    got = a.get(f"/api/seeks/{mine['seek']}")
    assert got["status"] == "failed" and got["error"] == "the server making this game stopped; seek again"
    # A newcomer is not paired with it.
    assert b.post("/api/seeks", BODY, 201)["status"] == "waiting"
