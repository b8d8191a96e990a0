"""Quick-game seeks on a cluster (review of issue 24's caveat): two `trapworks serve` nodes on one
PostgreSQL database pair seeks made on different nodes. A seek made on node A and one made on
node B make one game, once; a crowd of seekers spread over both nodes, all at once (five a node),
each gets exactly one seat in exactly one game (no seek paired twice: the claim in the database)."""

from __future__ import annotations

import threading
import time
from collections import Counter

import httpx
import pytest
from sqlalchemy import create_engine, text

from .accounts_helpers import SMALL_LML, Browser, unique
from .cluster_helpers import PG_URL, fresh_schema, start_nodes, stop_nodes

pytestmark = pytest.mark.skipif(not PG_URL, reason="set TRAPWORKS_TEST_POSTGRES_URL to test a cluster")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with fresh_schema() as url:
        nodes = start_nodes(tmp_path_factory.mktemp("seeks-cluster"), url, 2)
        try:
            yield url, [n.url for n in nodes]
        finally:
            stop_nodes(nodes)


def browser(base: str) -> Browser:
    b = Browser(httpx.Client(base_url=base, timeout=60))
    b.me()
    return b


def games_made(url: str, gids: set[str]) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT id FROM games")).all()
    finally:
        engine.dispose()
    return sum(1 for (gid,) in rows if gid in gids)


def test_a_seek_on_node_a_and_one_on_node_b_make_one_game_once(cluster):
    url, (a_url, b_url) = cluster
    alice, bob = browser(a_url), browser(b_url)
    alice.signup(unique("seek-a"))
    bob.signup(unique("seek-b"))
    body = {"game": "last-mouse-lost", "options": SMALL_LML, "ai_after": None}
    sa = alice.post("/api/seeks", body, 201)
    assert sa["status"] == "waiting"
    # Node B lists the seek made on node A (no secret in the list).
    listed = bob.get("/api/seeks")["seeks"]
    assert [s["id"] for s in listed] == [sa["id"]] and sa["seek"] not in str(listed)
    # Alice waits on node A for her match; Bob's seek on node B is paired with hers.
    answer: dict = {}
    waiting = threading.Thread(target=lambda: answer.update(alice.get(f"/api/seeks/{sa['seek']}", wait=20)))
    waiting.start()
    sb = bob.post("/api/seeks", body, 201)
    waiting.join(timeout=30)
    assert sb["status"] == "matched", sb
    pa = answer
    assert pa["status"] == "matched" and pa["game_id"] == sb["game_id"], (pa, sb)
    assert {pa["seat"], sb["seat"]} == {0, 1} and pa["rated"] is sb["rated"] is True
    # The same answer from the other node, and nothing left waiting on either.
    again = browser(b_url).get(f"/api/seeks/{sa['seek']}")
    assert (again["game_id"], again["seat"], again["token"]) == (pa["game_id"], pa["seat"], pa["token"])
    assert alice.get("/api/seeks")["seeks"] == [] == bob.get("/api/seeks")["seeks"]
    # One game was made, and each seat's link opens its own seat on either node.
    assert games_made(url, {pa["game_id"]}) == 1
    for seeker, node in ((pa, b_url), (sb, a_url)):
        state = httpx.get(f"{node}/api/games/{seeker['game_id']}", params={"token": seeker["token"]}).json()[
            "state"
        ]
        assert state["seat"] == seeker["seat"], state


def test_seekers_spread_over_both_nodes_at_once_each_get_one_seat_in_one_game(cluster):
    url, nodes = cluster
    # Five a node (an odd number: a node pairing only its own seeks would leave one on each),
    # anonymous and casual: every one may pair with every other.
    n = 10
    seekers = [browser(nodes[i % 2]) for i in range(n)]
    body = {
        "game": "last-mouse-lost",
        "options": {**SMALL_LML, "first_to": 2},
        "ai_after": None,
        "rated": False,
    }
    made: list[dict] = [{} for _ in range(n)]
    go = threading.Barrier(n)

    def seek(i: int) -> None:
        go.wait()
        made[i] = seekers[i].post("/api/seeks", body, 201)

    threads = [threading.Thread(target=seek, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    results: list[dict] = []
    deadline = time.monotonic() + 60
    for i, s in enumerate(made):
        while (r := seekers[i].get(f"/api/seeks/{s['seek']}", wait=5))["status"] == "waiting":
            assert time.monotonic() < deadline, f"seeker {i} was never paired"
        results.append(r)
    assert all(r["status"] == "matched" and not r["against_ai"] for r in results), results
    per_game = Counter(r["game_id"] for r in results)
    assert len(per_game) == n // 2 and set(per_game.values()) == {2}, per_game
    seats = Counter((r["game_id"], r["seat"]) for r in results)
    assert set(seats.values()) == {1}  # no seat handed to two seekers
    assert games_made(url, set(per_game)) == n // 2  # and no game made for a seek paired twice
