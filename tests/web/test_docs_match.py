"""Issue 26, item 9: the answers the docs and the OpenAPI schema give are the answers the server
gives: a move without ply is 400 missing_ply, a head over 16 KB is refused however it arrives,
405 names the allowed methods, a protocol's close code is logged as it is, an integer-valued
number is an integer, and the bounds' 413/429/503 answers are in the schema."""

from __future__ import annotations

import json
import socket
import time

import httpx
import pytest

from .conftest import create_game
from .web_helpers import ServerProcess, wait_for


def test_a_move_without_ply_is_400_missing_ply_over_http_too(client):
    g = create_game(client)
    r = client.post(f"/api/games/{g['id']}/moves", json={"token": g["seats"][0]["token"], "action": "a1"})
    assert r.status_code == 400 and r.json()["code"] == "missing_ply"


def test_405_names_the_allowed_methods(client):
    r = client.put("/api/catalog")
    assert r.status_code == 405 and r.headers["allow"] == "GET"
    assert r.json()["code"] == "method_not_allowed"


@pytest.mark.parametrize("value", [1.0, 0.0])
def test_integer_valued_numbers_are_integers(client, value):
    g = create_game(client)
    t0, t1 = g["seats"][0]["token"], g["seats"][1]["token"]
    r = client.post(f"/api/games/{g['id']}/moves", json={"token": t0, "action": "a1", "ply": 0.0})
    assert r.status_code == 200, r.text
    r = client.post(f"/api/games/{g['id']}/moves", json={"token": t1, "action": "b1", "ply": 1.0})
    assert r.status_code == 200, r.text
    r = client.post(
        "/api/replay", json={"record": {"game": "last-mouse-lost", "actions": ["a1"]}, "seat": value}
    )
    assert r.status_code == 200, r.text
    r = client.post(
        "/api/games",
        json={
            "game": "last-mouse-lost",
            "seed": 7.0,
            "seats": [{"kind": "human"}, {"kind": "agent", "agent": "random"}],
        },
    )
    assert r.status_code == 201, r.text
    with client.websocket_connect(f"/ws/games/{g['id']}?token={t0}") as ws:
        ws.send_json({"type": "ping", "ref": 3.0})
        while True:
            frame = ws.receive_json()
            if isinstance(frame, dict) and frame.get("type") == "pong":
                assert frame["ref"] == 3
                break


@pytest.mark.parametrize("value", [1.5, "1", True])
def test_non_integers_stay_refused(client, value):
    g = create_game(client)
    r = client.post(
        f"/api/games/{g['id']}/moves", json={"token": g["seats"][0]["token"], "action": "a1", "ply": value}
    )
    assert r.status_code in (400, 422) and r.json()["ok"] is False


def test_the_openapi_schema_lists_the_bounds_answers(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert {"429", "503"} <= set(paths["/api/games"]["post"]["responses"])
    assert {"413", "429", "503"} <= set(paths["/api/replay"]["post"]["responses"])
    assert "429" in paths["/api/tables/{gid}/join"]["post"]["responses"]
    assert "400" in paths["/api/games/{gid}/moves"]["post"]["responses"]


def raw_request(port: int, head: bytes, pieces: int) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        step = max(1, len(head) // pieces)
        try:  # the server may answer and close before the whole head is sent
            for i in range(0, len(head), step):
                s.sendall(head[i : i + step])
                if pieces > 1:
                    time.sleep(0.01)
            s.shutdown(socket.SHUT_WR)
        except (BrokenPipeError, ConnectionResetError):
            pass
        out = b""
        try:
            while chunk := s.recv(65536):
                out += chunk
        except ConnectionResetError:
            pass
        return out


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("docs-home")).start()
    yield s
    s.stop()


@pytest.mark.parametrize("pieces", [1, 8])
@pytest.mark.parametrize("kb", [20, 70])
def test_a_head_over_16_kb_is_refused_however_it_arrives(server, kb, pieces):
    host = f"Host: 127.0.0.1:{server.port}\r\n".encode()  # a host the server serves (its allow-list)
    head = b"GET /api/catalog HTTP/1.1\r\n" + host + b"X-Big: " + b"a" * (kb * 1024) + b"\r\n\r\n"
    answer = raw_request(server.port, head, pieces)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    small_head = b"GET /api/catalog HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n"
    small = raw_request(server.port, small_head, 1)
    assert small.startswith(b"HTTP/1.1 200")


def test_a_protocol_close_is_logged_with_its_code(server):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    g = httpx.post(server.url + "/api/games", json={"game": "last-mouse-lost"}).json()
    url = f"ws://127.0.0.1:{server.port}/ws/games/{g['id']}?token={g['spectator']['token']}"
    with connect(url, max_size=None) as ws:
        ws.recv()
        ws.send(json.dumps({"type": "ping", "pad": "x" * 70_000}))  # over the 64 KB message cap
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    wait_for(
        lambda: any(g["id"] in line and "WS close" in line and "code 1009" in line for line in server.lines),
        timeout=10,
        what="the close logged with 1009",
    )
