"""Names, chat, taken seats and the public flag are stored like moves: they survive a SIGKILL of
the server (SQLite), and the same holds on PostgreSQL when TRAPWORKS_TEST_POSTGRES_URL names a
database."""

from __future__ import annotations

import json
import os

import httpx
import pytest
from fastapi.testclient import TestClient

from trapworks.server import create_app

from .web_helpers import ServerProcess

PG_URL = os.environ.get("TRAPWORKS_TEST_POSTGRES_URL")


def socket_url(base: str, gid: str, token: str) -> str:
    return base.replace("http://", "ws://") + f"/ws/games/{gid}?token={token}"


def messages(ws):
    """Every message of the next frame (a frame holds one message or a list of them)."""
    data = json.loads(ws.recv(timeout=10))
    return data if isinstance(data, list) else [data]


def until(ws, wanted):
    while True:
        for msg in messages(ws):
            if wanted(msg):
                return msg


def setup_table(post):
    """A public 3-seat Mouse Trap table: the host named, one seat joined by Bob, one free."""
    g = post(
        "/api/games",
        {
            "game": "mouse-trap",
            "options": {"players": 3},
            "seats": [
                {"kind": "human"},
                {"kind": "human", "invite": True},
                {"kind": "human", "invite": True},
            ],
            "public": True,
            "spectator_chat": True,
        },
    )
    assert post(f"/api/games/{g['id']}/name", {"token": g["seats"][0]["token"], "name": "Alice"})["ok"]
    bob = post(f"/api/tables/{g['id']}/join", {"seat": 1, "name": "Bob"})
    assert bob["seat"] == 1
    return g, bob


def check_after_restart(get, post, g, bob):
    gid = g["id"]
    info = get(f"/api/games/{gid}", {"token": bob["token"]})["info"]
    assert [p["name"] for p in info["players"]] == ["Alice", "Bob", ""]
    assert info["public"] is True and info["spectator_chat"] is True
    tables = [t for t in get("/api/tables", {})["tables"] if t["id"] == gid]
    assert len(tables) == 1 and tables[0]["free"] == 1
    assert [(s["name"], s["free"]) for s in tables[0]["seats"]] == [
        ("Alice", False),
        ("Bob", False),
        ("", True),
    ]
    # Bob's seat is still taken: it is not handed out a second time.
    assert post(f"/api/tables/{gid}/join", {"seat": 1}, status=409)["code"] == "seat_taken"
    return tables[0]


def test_names_chat_seats_and_the_public_flag_survive_sigkill(tmp_path):
    from websockets.sync.client import connect

    server = ServerProcess(tmp_path / "home").start()

    def post(path, body, status=None):
        r = httpx.post(server.url + path, json=body, timeout=10)
        assert status is None and r.status_code < 300 or r.status_code == status, r.text
        return r.json()

    def get(path, params):
        r = httpx.get(server.url + path, params=params, timeout=10)
        assert r.status_code == 200, r.text
        return r.json()

    try:
        g, bob = setup_table(post)
        gid = g["id"]
        with connect(socket_url(server.url, gid, g["seats"][0]["token"])) as ws:
            until(ws, lambda m: m["type"] == "state")
            ws.send(json.dumps({"type": "chat", "text": "before the crash <b>!</b>", "ref": 1}))
            until(ws, lambda m: m.get("ref") == 1)
        with connect(socket_url(server.url, gid, g["spectator"]["token"])) as ws:
            until(ws, lambda m: m["type"] == "state")
            ws.send(json.dumps({"type": "name", "name": "Watcher", "ref": 1}))
            until(ws, lambda m: m.get("ref") == 1)
            ws.send(json.dumps({"type": "chat", "text": "me too", "ref": 2}))
            assert until(ws, lambda m: m.get("ref") == 2)["type"] == "ack"
        server.kill(9)
        first = server
        server = ServerProcess(tmp_path / "home", port=server.port).start()
        table = check_after_restart(get, post, g, bob)
        # Presence after the restart: Alice had been here (left until she is back), Bob never came.
        assert [s["status"] for s in table["seats"]] == ["left", "joined", "free"]
        with connect(socket_url(server.url, gid, bob["token"])) as ws:
            hello = until(ws, lambda m: m["type"] == "hello")
            lines = [(x["seat"], x["name"], x["text"]) for x in hello["chat"]["lines"]]
            assert lines == [(0, "Alice", "before the crash <b>!</b>"), (None, "Watcher", "me too")]
            assert [s["status"] for s in hello["presence"]] == ["left", "online", "free"]
        cleo = post(f"/api/tables/{gid}/join", {"name": "Cleo"})
        assert cleo["seat"] == 2
        assert get("/api/tables", {})["tables"] == []
        # Both servers' logs (a line per request and socket): not one token among them.
        tokens = [g["seats"][0]["token"], g["spectator"]["token"], bob["token"], cleo["token"]]
        lines = first.lines + server.lines
        assert any("/api/tables" in line for line in lines) and any("/ws/games/" in line for line in lines)
        assert not [line for line in lines for t in tokens if t in line]
    finally:
        server.stop()


@pytest.mark.skipif(not PG_URL, reason="set TRAPWORKS_TEST_POSTGRES_URL to test PostgreSQL")
def test_postgres_keeps_names_chat_seats_and_the_public_flag():
    def client_calls(c):
        def post(path, body, status=None):
            r = c.post(path, json=body)
            assert status is None and r.status_code < 300 or r.status_code == status, r.text
            return r.json()

        def get(path, params):
            r = c.get(path, params=params)
            assert r.status_code == 200, r.text
            return r.json()

        return post, get

    with TestClient(create_app(PG_URL)) as c:
        post, get = client_calls(c)
        g, bob = setup_table(post)
        with c.websocket_connect(f"/ws/games/{g['id']}?token={bob['token']}") as ws:
            ws.receive_json()
            ws.send_text(json.dumps({"type": "chat", "text": "stored in PostgreSQL", "ref": 1}))
            while ws.receive_json().get("ref") != 1:
                pass
    with TestClient(create_app(PG_URL)) as c:
        post, get = client_calls(c)
        check_after_restart(get, post, g, bob)
        assert [x["text"] for x in c.app.state.store.chat_lines(g["id"], 10)] == ["stored in PostgreSQL"]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_database_from_before_gets_the_new_columns_and_tables(backend, db_url):
    from sqlalchemy import text

    from trapworks.server.store import Store

    if backend == "postgres" and not PG_URL:
        pytest.skip("set TRAPWORKS_TEST_POSTGRES_URL to test PostgreSQL")
    url = PG_URL if backend == "postgres" else db_url
    with TestClient(create_app(url)) as c:
        old = c.post("/api/games", json={"game": "last-mouse-lost"}).json()
    # Make it a database of the code before issue 15: no social columns, no social tables.
    store = Store(url)
    with store.engine.begin() as conn:
        conn.execute(text("DROP TABLE seat_joins"))
        conn.execute(text("DROP TABLE chat_lines"))
        for column in ("is_public", "spectator_chat", "open_seats"):
            conn.execute(text(f"ALTER TABLE games DROP COLUMN {column}"))
        # ... and before migrations: no revision stamped, no table added by a migration since.
        conn.execute(text("DROP TABLE alembic_version"))
        conn.execute(text("DROP TABLE timer_claims"))
    store.close()
    with TestClient(create_app(url)) as c:
        info = c.get(f"/api/games/{old['id']}", params={"token": old["seats"][0]["token"]}).json()["info"]
        assert info["public"] is False and info["spectator_chat"] is False
        r = c.post(
            f"/api/games/{old['id']}/name", json={"token": old["seats"][0]["token"], "name": "Old Timer"}
        )
        assert r.status_code == 200, r.text
        new = c.post(
            "/api/games",
            json={
                "game": "last-mouse-lost",
                "seats": [{"kind": "human"}, {"kind": "human", "invite": True}],
                "public": True,
            },
        ).json()
        assert new["id"] in [t["id"] for t in c.get("/api/tables").json()["tables"]]
