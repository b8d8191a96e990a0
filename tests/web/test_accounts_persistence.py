"""Accounts, sessions, ratings, histories and correspondence games survive a SIGKILL of the server,
on SQLite and (where TRAPWORKS_TEST_POSTGRES_URL names a database) on PostgreSQL; and no secret
(password, session cookie, CSRF token, seat token, seek id) reaches the server's log."""

from __future__ import annotations

import os

import httpx
import pytest

from .accounts_helpers import PASSWORD, SMALL_LML, Browser, play_to_end, unique
from .web_helpers import ServerProcess

PG_URL = os.environ.get("TRAPWORKS_TEST_POSTGRES_URL")


def scenario(tmp_path, extra_args):
    server = ServerProcess(tmp_path / "home", extra_args=extra_args).start()
    secrets_seen: list[str] = [PASSWORD]
    first_lines: list[str] = []
    try:
        a = Browser(httpx.Client(base_url=server.url, timeout=20))
        b = Browser(httpx.Client(base_url=server.url, timeout=20))
        alice, bob = unique("alice"), unique("bob")
        a.signup(alice)
        b.signup(bob)
        # A rated game played to the end, and a correspondence game (a day per move) still on.
        done = a.post("/api/account/games", {"game": "last-mouse-lost", "options": SMALL_LML, "seat": 0}, 201)
        invite = done["invites"][0]["link"].split("#i=")[1]
        bob_token = b.c.post(f"/api/games/{done['id']}/claim", json={"invite": invite}).json()["token"]
        b.post("/api/account/seats", {"seats": [{"game": done["id"], "token": bob_token}]})
        play_to_end(a.c, done["id"], [done["link"].split("#t=")[1], bob_token])
        corr = a.post(
            "/api/account/games",
            {"game": "last-mouse-lost", "options": SMALL_LML, "seat": 0, "days_per_move": 1},
            201,
        )
        corr_invite = corr["invites"][0]["link"].split("#i=")[1]
        corr_bob = b.c.post(f"/api/games/{corr['id']}/claim", json={"invite": corr_invite}).json()["token"]
        b.post("/api/account/seats", {"seats": [{"game": corr["id"], "token": corr_bob}]})
        corr_alice = corr["link"].split("#t=")[1]
        r = a.c.post(f"/api/games/{corr['id']}/moves", json={"token": corr_alice, "action": "a1", "ply": 0})
        assert r.status_code == 200, r.text
        seek = a.post("/api/seeks", {"game": "mouse-trap", "ai_after": None}, 201)
        assert a.get(f"/api/seeks/{seek['seek']}")["status"] == "waiting"
        before = {name: a.get(f"/api/players/{name}")["ratings"] for name in (alice, bob)}
        assert all(len(v) == 1 and v[0]["games"] == 1 for v in before.values())
        bob_games = b.get(f"/api/players/{bob}/games")["games"]
        secrets_seen += [
            a.c.cookies.get("tw_session"),
            b.c.cookies.get("tw_session"),
            a.csrf,
            b.csrf,
            bob_token,
            corr_bob,
            corr_alice,
            seek["seek"],
        ]

        server.kill(9)
        first_lines = list(server.lines)
        server = ServerProcess(tmp_path / "home", port=server.port, extra_args=extra_args).start()

        # The sessions are still open (the cookies were stored as hashes), the ratings unchanged.
        assert b.me()["account"]["username"] == bob
        assert {name: a.get(f"/api/players/{name}")["ratings"] for name in (alice, bob)} == before
        # The correspondence game waits for Bob's move, with its day-long clock, from any device.
        phone = Browser(httpx.Client(base_url=server.url, timeout=20))
        phone.login(bob)
        games = phone.get(f"/api/players/{bob}/games")["games"]
        assert [g["id"] for g in games] == [corr["id"], done["id"]] == [g["id"] for g in bob_games]
        assert games[0]["state"] == "your_turn" and games[0]["deadline"]
        token = games[0]["link"].split("#t=")[1]
        state = phone.get(f"/api/games/{corr['id']}", token=token)["state"]
        assert state["clock"]["mode"] == "move" and state["clock"]["seconds"] == 86400
        assert state["clock"]["running"] == 1 and state["clock"]["remaining_ms"][1] > 86000 * 1000
        assert me_turn(b, bob) == [corr["id"]]
        # Alice's password still opens her account.
        c = Browser(httpx.Client(base_url=server.url, timeout=20))
        c.login(alice)
        secrets_seen += [phone.c.cookies.get("tw_session"), c.c.cookies.get("tw_session"), phone.csrf, token]
    finally:
        server.stop()
    lines = first_lines + server.lines
    assert len(lines) > 20  # the access log was on
    for line in lines:
        for secret in secrets_seen:
            assert secret and secret not in line, f"a secret in the log: {line}"


def me_turn(browser: Browser, username: str) -> list[str]:
    return [g["id"] for g in browser.me().get("your_turn", [])]


def test_accounts_ratings_and_correspondence_games_survive_sigkill_on_sqlite(tmp_path):
    scenario(tmp_path, [])


@pytest.mark.skipif(not PG_URL, reason="set TRAPWORKS_TEST_POSTGRES_URL to test PostgreSQL")
def test_accounts_ratings_and_correspondence_games_survive_sigkill_on_postgres(tmp_path):
    scenario(tmp_path, ["--db", PG_URL])
