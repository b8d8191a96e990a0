"""Persistence: an acknowledged action is in the database; after a restart, even SIGKILL, games resume."""

import json
import signal

import httpx
from fastapi.testclient import TestClient

import trapworks
from trapworks.server import create_app
from trapworks.server.store import Store

from .conftest import create_game
from .web_helpers import ServerProcess, wait_for


def test_an_acknowledged_move_is_already_in_the_database(client, db_url):
    g = create_game(client)
    r = client.post(
        f"/api/games/{g['id']}/moves", json={"token": g["seats"][0]["token"], "action": "d3", "ply": 0}
    )
    assert r.status_code == 200
    # A second, independent connection to the same database sees it: it was committed before the reply.
    other = Store(db_url)
    assert other.load_game(g["id"]).actions == [(0, "d3")]
    other.close()


def test_a_new_server_on_the_same_database_resumes_every_game(db_url):
    with TestClient(create_app(db_url)) as c:
        a = create_game(c, options={"rules": "advanced"})
        b = create_game(
            c,
            seats=[{"kind": "human"}, {"kind": "agent", "agent": "random"}],
            options={"first_player": "random"},
            seed=5,
        )
        for ply, text in enumerate(("c2-4", "b1")):
            body = {"token": a["seats"][ply]["token"], "action": text, "ply": ply}
            assert c.post(f"/api/games/{a['id']}/moves", json=body).status_code == 200
        before_a = c.get(f"/api/games/{a['id']}", params={"token": a["spectator"]["token"]}).json()["state"]
        before_b = wait_for(
            lambda: (
                (
                    s := c.get(f"/api/games/{b['id']}", params={"token": b["spectator"]["token"]}).json()[
                        "state"
                    ]
                )["to_move"]
                == 0
                and s
            ),
            what="seat 1 to move",
        )
    with TestClient(create_app(db_url)) as c:
        after_a = c.get(f"/api/games/{a['id']}", params={"token": a["spectator"]["token"]}).json()["state"]
        after_b = c.get(f"/api/games/{b['id']}", params={"token": b["spectator"]["token"]}).json()["state"]
    assert after_a["view"] == before_a["view"] and after_a["log"] == before_a["log"]
    assert after_a["view"]["position"].startswith("ooo/.oooo/o...oo/")
    # The drawn opener (a chance action) is part of the log, so the restart did not redraw it.
    assert after_b["log"] == before_b["log"] and after_b["log"][0]["seat"] == -1


def _move(base, gid, token, action, ply):
    return httpx.post(
        f"{base}/api/games/{gid}/moves", json={"token": token, "action": action, "ply": ply}, timeout=10
    )


def _state(base, gid, token):
    return httpx.get(f"{base}/api/games/{gid}", params={"token": token}, timeout=10).json()["state"]


def test_sigkill_mid_game_then_restart_and_finish_with_nothing_lost(tmp_path):
    """The server is killed with SIGKILL mid-game (and once right after an AI-seat game's move);
    a new server on the same SQLite file resumes both games, which then play to the end."""
    server = ServerProcess(tmp_path / "home").start()
    assert server.first_line.startswith(f"trapworks is serving at http://localhost:{server.port}/")
    base = server.url
    try:
        g = httpx.post(
            f"{base}/api/games",
            json={
                "game": "last-mouse-lost",
                "options": {"first_to": 2},
                "seats": [{"kind": "human"}, {"kind": "human"}],
            },
        ).json()
        vs_ai = httpx.post(
            f"{base}/api/games",
            json={
                "game": "last-mouse-lost",
                "seed": 9,
                "seats": [{"kind": "human"}, {"kind": "agent", "agent": "perfect"}],
            },
        ).json()
        gid, tokens = g["id"], [s["token"] for s in g["seats"]]
        ai_id, ai_tok = vs_ai["id"], vs_ai["seats"][0]["token"]
        reference = trapworks.make("last-mouse-lost", first_to=2).new_initial_state()
        acknowledged = []
        for _ in range(9):  # into the middle of the match
            seat = reference.current_player()
            text = reference.action_to_string(reference.legal_actions()[0])
            r = _move(base, gid, tokens[seat], text, reference.move_number())
            assert r.status_code == 200, r.text
            reference.apply_action(reference.string_to_action(text))
            acknowledged.append(text)
        assert _move(base, ai_id, ai_tok, "a1", 0).status_code == 200
        server.kill(signal.SIGKILL)
        assert server.proc.returncode == -signal.SIGKILL

        server = ServerProcess(tmp_path / "home", port=server.port).start()
        s = _state(base, gid, tokens[0])
        assert [e["text"] for e in s["log"]] == acknowledged
        assert s["view"] == json.loads(json.dumps(reference.view(0)))
        # The AI game: my acknowledged move is there; the AI's reply comes (now or before the kill).
        ai_state = wait_for(
            lambda: (st := _state(base, ai_id, ai_tok))["to_move"] == 0 and st, what="AI reply"
        )
        # (the words for the move are rebuilt by the kernel after the restart)
        assert ai_state["log"][0] == {
            "ply": 0,
            "seat": 0,
            "text": "a1",
            "story": {
                "seat": 0,
                "lines": [{"msg": "last_mouse_lost.pressed", "args": {"who": 0, "n": 1, "row": "a"}}],
            },
        }
        assert ai_state["ply"] == 2

        while not reference.is_terminal():
            seat = reference.current_player()
            text = reference.action_to_string(reference.legal_actions()[-1])
            r = _move(base, gid, tokens[seat], text, reference.move_number())
            assert r.status_code == 200, r.text
            reference.apply_action(reference.string_to_action(text))
        final = _state(base, gid, tokens[1])
        assert final["terminal"] and final["winners"] == reference.winners()
        assert final["view"] == json.loads(json.dumps(reference.view(1)))
        record = httpx.get(f"{base}/api/games/{gid}/record", params={"token": tokens[0]}).json()
        assert record["actions"][:9] == acknowledged and len(record["actions"]) == reference.move_number()
    finally:
        server.stop()
