"""Structured server logs: one line per request and per WebSocket event, no seat token in any."""

import json
import logging

from trapworks.server.accesslog import REDACTED, JsonFormatter, redact

from .conftest import create_game


def test_redact_hides_tokens_in_queries_and_paths():
    assert (
        redact("/api/games/abc/record", "token=SECRETSECRET&seat=1")
        == f"/api/games/abc/record?token={REDACTED}&seat=1"
    )
    assert redact("/play/AbCdEfGhIjKlMnOpQrStUvWx") == f"/play/{REDACTED}"
    assert redact("/api/games/Xy12Ab34Cd56", "") == "/api/games/Xy12Ab34Cd56"  # a game id is no secret


def test_no_log_line_contains_a_seat_token(client, caplog):
    caplog.set_level(logging.INFO, logger="trapworks.access")
    g = create_game(client, options={"first_to": 1})
    gid = g["id"]
    tokens = [s["token"] for s in g["seats"]] + [g["spectator"]["token"]]
    for t in tokens:
        assert client.get(f"/api/games/{gid}", params={"token": t}).status_code == 200
        assert client.get(f"/api/games/{gid}/record", params={"token": t}).status_code in (200, 403, 409)
    client.get(f"/api/games/{gid}", params={"token": "not-a-token"})
    with client.websocket_connect(f"/ws/games/{gid}?token={tokens[0]}") as ws:
        ws.receive_json()
        ws.send_json({"type": "ping", "ref": 1})
        while ws.receive_json()["type"] != "pong":
            pass
    lines = [r for r in caplog.records if r.name == "trapworks.access"]
    http = [r for r in lines if getattr(r, "kind", None) == "http"]
    ws_events = [r.event for r in lines if getattr(r, "kind", None) == "ws"]
    # One line per HTTP request made above (create + 2 per token + the bad one), with status and time.
    assert len(http) == 1 + 2 * len(tokens) + 1, [r.getMessage() for r in http]
    statuses = [r.status for r in http]
    assert statuses[0] == 201 and 200 in statuses and statuses[-1] >= 400  # the bad token refused
    assert all(isinstance(r.ms, float) for r in http)
    assert ws_events == ["open", "close"]
    formatter = JsonFormatter()
    for r in lines:
        text = r.getMessage()
        as_json = formatter.format(r)
        json.loads(as_json)  # one JSON object per line
        assert "\n" not in as_json
        for t in tokens:
            assert t not in text and t not in as_json, text
    assert any(REDACTED in r.getMessage() for r in http)


def test_serve_log_json_writes_one_json_line_per_request_without_tokens(tmp_path):
    import httpx

    from .web_helpers import ServerProcess, wait_for

    server = ServerProcess(tmp_path / "home", extra_args=["--log-json"]).start()
    try:
        r = httpx.post(
            server.url + "/api/games",
            json={"game": "last-mouse-lost", "seats": [{"kind": "human"}, {"kind": "human"}]},
        )
        g = r.json()
        token = g["seats"][0]["token"]
        httpx.get(f"{server.url}/api/games/{g['id']}", params={"token": token})

        def got_it():
            return any(f"/api/games/{g['id']}?token=" in line for line in server.lines)

        wait_for(got_it, what="the access line of the GET")
        entries = [json.loads(line) for line in server.lines if line.startswith("{")]
        gets = [e for e in entries if e.get("path", "").startswith(f"/api/games/{g['id']}?")]
        assert gets and gets[0]["method"] == "GET" and gets[0]["status"] == 200 and gets[0]["ms"] >= 0
        assert all(token not in line for line in server.lines)
    finally:
        server.stop()
