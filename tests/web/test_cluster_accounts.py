"""Accounts on a cluster (issue 24, item 4): two `trapworks serve` nodes on one PostgreSQL database
are one service for accounts too. Signed up on node A, logged in on node B: each session opens
the account on both nodes (behind a balancer a browser's requests land on either), a log-out on
one node ends the session on the other, and a correspondence game made on A is in "my games" on B.
"""

from __future__ import annotations

import httpx
import pytest

from .accounts_helpers import PASSWORD, Browser, unique
from .cluster_helpers import PG_URL, fresh_schema, start_nodes, stop_nodes

pytestmark = pytest.mark.skipif(not PG_URL, reason="set TRAPWORKS_TEST_POSTGRES_URL to test a cluster")


@pytest.fixture(scope="module")
def two_nodes(tmp_path_factory):
    with fresh_schema() as url:
        nodes = start_nodes(tmp_path_factory.mktemp("accounts-cluster"), url, 2)
        try:
            yield [n.url for n in nodes]
        finally:
            stop_nodes(nodes)


def browser(base: str, cookies: httpx.Cookies | None = None) -> Browser:
    """A browser on one node; `cookies`: the same browser's cookies, as a balancer would send them
    to whichever node it picks."""
    return Browser(httpx.Client(base_url=base, cookies=cookies, timeout=30))


def me(base: str, cookies: httpx.Cookies) -> dict | None:
    return browser(base, cookies).me()["account"]


def test_signed_up_on_one_node_logged_in_on_the_other_each_session_valid_on_both(two_nodes):
    a_url, b_url = two_nodes
    name = unique("cluster")
    on_a = browser(a_url)
    assert on_a.signup(name)["account"] == {"username": name}
    # The session made on A opens the account on B (the session row is in the shared database).
    assert me(b_url, on_a.c.cookies) == {"username": name}
    # Logged in on B with the password stored by A; that session opens the account on A too.
    on_b = browser(b_url)
    assert on_b.login(name)["account"] == {"username": name}
    assert me(a_url, on_b.c.cookies) == {"username": name}
    # A wrong password is refused on either node, and the name is taken on both.
    browser(a_url).login(name, password=PASSWORD + "x", status=401)
    other = browser(b_url)
    other.me()
    assert other.post("/api/account/signup", {"username": name, "password": PASSWORD}, status=409)
    # A correspondence game made through node A is in the account's games seen from node B.
    made = on_a.post("/api/account/games", {"game": "last-mouse-lost"}, status=201)
    mine = browser(b_url, on_a.c.cookies).get(f"/api/players/{name}/games")
    assert made["id"] in [g["id"] for g in mine["games"]]
    # Logging out on B ends that session on A as well; A's own session is untouched.
    on_b.post("/api/account/logout")
    assert me(a_url, on_b.c.cookies) is None
    assert me(b_url, on_a.c.cookies) == {"username": name}


def test_failed_log_ins_are_counted_by_the_whole_cluster(two_nodes):
    """A guesser who spreads attempts over the nodes (behind a balancer every other request lands
    elsewhere) gets no more tries than on one node: the limiter's window is in the database."""
    from trapworks.server.accounts.throttle import FAILS_PER_PAIR

    a_url, b_url = two_nodes
    name = unique("guessed")
    browser(a_url).signup(name)
    nodes = [browser(a_url), browser(b_url)]
    for i in range(FAILS_PER_PAIR):
        nodes[i % 2].login(name, password=f"wrong guess {i}", status=401)
    # The next attempt is refused on either node, even with the right password.
    for node in nodes:
        r = node.login(name, status=429)
        assert r["code"] == "too_many_attempts" and "this account" in r["error"]
