"""Names, presence, chat and open tables through the API and the socket (issue 15, part A):
bad input refused with an error naming the problem, seats handed out once, and no token in
anything another client sees."""

from __future__ import annotations

import json
import logging
import os

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from trapworks.server import create_app
from trapworks.server.features.chat import CHAT_BURST, CHAT_MAX
from trapworks.server.features.names import NAME_MAX, BadName, clean_name
from trapworks.server.store import SeatTaken, Store

from .conftest import create_game
from .test_live import receive


def public_game(client, seats=None, **body):
    seats = seats or [{"kind": "human"}, {"kind": "human", "invite": True}]
    return create_game(client, seats=seats, public=True, **body)


def hello(ws):
    return receive(ws, "hello")


def statuses_until(ws, wanted):
    """Read presence messages until the seats' statuses are `wanted` (what came before is passed)."""
    while True:
        statuses = [s["status"] for s in receive(ws, "presence")["seats"]]
        if statuses == wanted:
            return statuses


def answer(ws, ref):
    """The ack or error answering the request `ref` (other messages skipped)."""
    while True:
        data = ws.receive_json()
        for msg in data if isinstance(data, list) else [data]:
            if msg.get("ref") == ref and msg["type"] in ("ack", "error"):
                return msg


# --- names --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("", "at least one visible character"),
        ("   ", "at least one visible character"),
        ("x" * (NAME_MAX + 1), f"at most {NAME_MAX} characters"),
        ("x" * 100_000, f"at most {NAME_MAX} characters"),
        ("bell\x07", "U+0007"),
        ("new\nline", "U+000A"),
        ("evil\u202eright", "U+202E"),  # a right-to-left override
        ("zero\u200bwidth", "U+200B"),
        ("Player 2", "the page uses for seats"),
        ("you", "the page uses for seats"),
        (42, "a name is text"),
    ],
)
def test_bad_names_are_refused_with_the_reason(raw, words):
    with pytest.raises(BadName, match=words.replace("+", r"\+")):
        clean_name(raw)


def test_a_name_is_trimmed_and_inner_spaces_made_one():
    assert clean_name("  Ada   Lovelace ") == "Ada Lovelace"
    assert clean_name("<b>Zoë</b>") == "<b>Zoë</b>"  # stored as typed; the page shows it as text


def test_set_a_name_over_http_and_the_socket(client):
    g = create_game(client)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    r = client.post(f"/api/games/{gid}/name", json={"token": t0, "name": "  Alice "})
    assert r.status_code == 200 and r.json() == {"ok": True, "seat": 0, "name": "Alice"}
    info = client.get(f"/api/games/{gid}", params={"token": t1}).json()["info"]
    assert info["players"][0]["name"] == "Alice" and "Alice" in info["players"][0]["label"]
    with client.websocket_connect(f"/ws/games/{gid}?token={t1}") as ws:
        assert hello(ws)["presence"][0]["name"] == "Alice"
        ws.send_text(json.dumps({"type": "name", "name": "Bob", "ref": 1}))
        seats = receive(ws, "presence")["seats"]
        assert [s["name"] for s in seats] == ["Alice", "Bob"]
        assert answer(ws, 1)["type"] == "ack"
        # Nobody may pose as another player: the same name in another case is refused.
        ws.send_text(json.dumps({"type": "name", "name": "ALICE", "ref": 2}))
        err = answer(ws, 2)
        assert err["code"] == "name_taken" and "player 1" in err["message"]
        ws.send_text(json.dumps({"type": "name", "name": "a\x00b", "ref": 3}))
        err = answer(ws, 3)
        assert err["code"] == "bad_name" and "U+0000" in err["message"]
        ws.send_text(json.dumps({"type": "name", "name": "n" * 20_000, "ref": 4}))
        err = answer(ws, 4)
        assert err["code"] == "bad_message" and err["message"].startswith("name:")
        ws.send_text(json.dumps({"type": "ping", "ref": 5}))
        assert receive(ws, "pong")["ref"] == 5  # the socket stays open after every refusal


def test_name_refusals_over_http(client):
    g = create_game(client)
    gid, t0 = g["id"], g["seats"][0]["token"]
    cases = [
        ({"token": t0, "name": "x" * 500}, 400, "bad_name"),
        ({"token": t0, "name": "\x1b[31mred"}, 400, "bad_name"),
        ({"token": t0, "name": 7}, 422, "bad_request"),
        ({"token": "wrong", "name": "Eve"}, 403, "wrong_token"),
        ({"token": g["spectator"]["token"], "name": "Eve"}, 403, "spectator"),
    ]
    for body, status, code in cases:
        r = client.post(f"/api/games/{gid}/name", json=body)
        assert (r.status_code, r.json()["code"]) == (status, code), (body, r.text)
    r = client.post(
        "/api/games", json={"game": "last-mouse-lost", "seats": [{"kind": "human", "name": "a\tb"}] * 2}
    )
    assert r.status_code == 400 and r.json()["code"] == "bad_name" and "seat 1" in r.json()["error"]


def test_name_changes_and_presence_messages_are_rate_limited(client):
    g = create_game(client)
    gid, t0 = g["id"], g["seats"][0]["token"]
    codes = [
        client.post(f"/api/games/{gid}/name", json={"token": t0, "name": f"Name {i}"})
        .json()
        .get("code", "ok")
        for i in range(5)
    ]
    assert codes == ["ok", "ok", "ok", "name_rate_limited", "name_rate_limited"]
    with client.websocket_connect(f"/ws/games/{gid}?token={t0}") as ws:
        hello(ws)
        ws.send_text(json.dumps({"type": "name", "name": "Another", "ref": 1}))  # the same seat's budget
        err = answer(ws, 1)
        assert err["code"] == "name_rate_limited" and "wait a moment" in err["message"]
        replies = []
        for ref in range(10, 25):
            ws.send_text(json.dumps({"type": "presence", "visible": ref % 2 == 0, "ref": ref}))
            replies.append(answer(ws, ref).get("code", "ack"))
        assert replies[:10] == ["ack"] * 10 and "presence_rate_limited" in replies[10:]


# --- presence -----------------------------------------------------------------------------------
def test_presence_goes_online_away_and_left_live(client, monkeypatch):
    from trapworks.server.features import presence

    monkeypatch.setattr(presence, "LEFT_AFTER_S", 0.2)
    monkeypatch.setattr(presence, "SWEEP_S", 0.05)
    g = create_game(
        client,
        seats=[{"kind": "human"}, {"kind": "human", "invite": True}, {"kind": "agent", "agent": "random"}],
        options={"players": 3},
        game="mouse-trap",
    )
    gid, t0 = g["id"], g["seats"][0]["token"]
    with client.websocket_connect(f"/ws/games/{gid}?token={t0}") as ws:
        statuses = [s["status"] for s in hello(ws)["presence"]]
        assert statuses == ["online", "free", None]
        invite = g["seats"][1]["link"].split("#i=")[1]
        t1 = client.post(f"/api/games/{gid}/claim", json={"invite": invite}).json()["token"]
        with client.websocket_connect(f"/ws/games/{gid}?token={t1}") as other:
            assert [s["status"] for s in hello(other)["presence"]] == ["online", "online", None]
            statuses_until(ws, ["online", "online", None])  # (joined, then online)
            other.send_text(json.dumps({"type": "presence", "visible": False, "ref": 9}))
            assert [s["status"] for s in receive(ws, "presence")["seats"]] == ["online", "away", None]
        # The socket closed: after the grace (a reload would have come back) the seat has left.
        assert [s["status"] for s in receive(ws, "presence")["seats"]] == ["online", "left", None]


# --- chat ---------------------------------------------------------------------------------------
def test_chat_reaches_every_connection_as_plain_text(client):
    g = create_game(client)
    gid = g["id"]
    t0, t1, ts = g["seats"][0]["token"], g["seats"][1]["token"], g["spectator"]["token"]
    client.post(f"/api/games/{gid}/name", json={"token": t0, "name": "Alice"})
    evil = '<img src=x onerror="alert(1)">'
    with (
        client.websocket_connect(f"/ws/games/{gid}?token={t0}") as a,
        client.websocket_connect(f"/ws/games/{gid}?token={t1}") as b,
        client.websocket_connect(f"/ws/games/{gid}?token={ts}") as s,
    ):
        for ws in (a, b, s):
            hello(ws)
        a.send_text(json.dumps({"type": "chat", "text": f"  {evil}\n", "ref": 1}))
        for ws in (a, b, s):
            line = receive(ws, "chat")["line"]
            assert (line["seat"], line["name"], line["text"]) == (0, "Alice", evil)
        assert answer(a, 1)["type"] == "ack"
    # A later connection gets the history in its hello.
    with client.websocket_connect(f"/ws/games/{gid}?token={t1}") as b:
        chat = hello(b)["chat"]
        assert [x["text"] for x in chat["lines"]] == [evil] and chat["can_chat"] is True


def test_chat_refusals_and_the_rate_limit(client):
    g = create_game(client)
    gid, t0, ts = g["id"], g["seats"][0]["token"], g["spectator"]["token"]
    with client.websocket_connect(f"/ws/games/{gid}?token={t0}") as ws:
        hello(ws)
        bad = [
            ("x" * (CHAT_MAX + 1), "chat_too_long", f"at most {CHAT_MAX}"),
            ("   ", "bad_chat", "at least one visible character"),
            ("ding\x07", "bad_chat", "U+0007"),
        ]
        for ref, (text, code, words) in enumerate(bad, 1):
            ws.send_text(json.dumps({"type": "chat", "text": text, "ref": ref}))
            err = answer(ws, ref)
            assert err["code"] == code and words in err["message"], err
        ws.send_text(json.dumps({"type": "chat", "text": ["a list"], "ref": 10}))
        assert answer(ws, 10)["code"] == "bad_message"
        codes = []
        for ref in range(20, 20 + CHAT_BURST + 2):
            ws.send_text(json.dumps({"type": "chat", "text": f"line {ref}", "ref": ref}))
            reply = answer(ws, ref)
            codes.append(reply.get("code", reply["type"]))
        assert codes[:CHAT_BURST] == ["ack"] * CHAT_BURST
        assert codes[CHAT_BURST:] == ["chat_rate_limited"] * 2
    with client.websocket_connect(f"/ws/games/{gid}?token={ts}") as spectator:
        assert hello(spectator)["chat"]["can_chat"] is False
        spectator.send_text(json.dumps({"type": "chat", "text": "hi", "ref": 1}))
        err = answer(spectator, 1)
        assert err["code"] == "chat_read_only" and "spectators" in err["message"]
    assert len(client.app.state.store.chat_lines(gid, 100)) == CHAT_BURST


def test_spectators_chat_when_the_game_allows_it_under_their_own_name(client):
    g = create_game(client, spectator_chat=True)
    gid, ts = g["id"], g["spectator"]["token"]
    client.post(f"/api/games/{gid}/name", json={"token": g["seats"][0]["token"], "name": "Alice"})
    with client.websocket_connect(f"/ws/games/{gid}?token={ts}") as ws:
        assert hello(ws)["chat"]["can_chat"] is True
        ws.send_text(json.dumps({"type": "name", "name": "alice", "ref": 1}))
        assert answer(ws, 1)["code"] == "name_taken"  # a spectator cannot pose as a player either
        ws.send_text(json.dumps({"type": "name", "name": "Watcher", "ref": 2}))
        assert answer(ws, 2)["type"] == "ack"
        ws.send_text(json.dumps({"type": "chat", "text": "go on", "ref": 3}))
        line = receive(ws, "chat")["line"]
        assert (line["seat"], line["name"]) == (None, "Watcher")


# --- open tables --------------------------------------------------------------------------------
def test_public_tables_are_listed_and_private_ones_never(client):
    private = create_game(client, seats=[{"kind": "human"}, {"kind": "human", "invite": True}])
    full = public_game(client, seats=[{"kind": "human"}, {"kind": "human"}])
    open_ = public_game(client, options={"rules": "advanced"})
    client.post(f"/api/games/{open_['id']}/name", json={"token": open_["seats"][0]["token"], "name": "Host"})
    tables = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in tables] == [open_["id"]]
    t = tables[0]
    assert t["game"] == "last-mouse-lost" and t["options"]["rules"] == "advanced" and t["free"] == 1
    assert [(s["name"], s["free"]) for s in t["seats"]] == [("Host", False), ("", True)]
    assert t["waiting_s"] >= 0
    # The changed options typed, for the lobby to word (issue 37: it parsed "rules" into "rules"):
    # the option's label and the value's label, message ids of the catalog.
    assert t["changed"] == [
        {"name": "rules", "label": "Rules", "value": "advanced", "value_label": "Advanced: mice side by side"}
    ], t["changed"]
    # A computer seat says which one it is (the lobby names it "Computer (easy)").
    seats = [{"kind": "human"}, {"kind": "agent", "agent": "easy"}, {"kind": "human", "invite": True}]
    three = public_game(client, game="mouse-trap", options={"players": 3}, seats=seats)
    listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}[three["id"]]
    kinds = [(s["kind"], s["agent"]) for s in listed["seats"]]
    assert kinds == [("human", None), ("agent", "easy"), ("human", None)]
    client.post(f"/api/games/{three['id']}/abort", json={"token": three["seats"][0]["token"]})
    # A private game's id is answered like an unknown one.
    for gid in (private["id"], "nope"):
        r = client.post(f"/api/tables/{gid}/join", json={})
        assert (r.status_code, r.json()["code"]) == (404, "no_such_table")
    r = client.post(f"/api/tables/{full['id']}/join", json={})
    assert (r.status_code, r.json()["code"]) == (409, "table_full")


def test_joining_hands_a_seat_out_once_and_the_full_table_leaves_the_list(client):
    g = public_game(
        client,
        game="mouse-trap",
        options={"players": 4},
        seats=[{"kind": "human"}] + [{"kind": "human", "invite": True}] * 3,
    )
    gid = g["id"]
    r = client.post(f"/api/tables/{gid}/join", json={"seat": 0})
    assert (r.status_code, r.json()["code"]) == (409, "seat_taken")
    r = client.post(f"/api/tables/{gid}/join", json={"seat": 9})
    assert (r.status_code, r.json()["code"]) == (400, "bad_seat")
    r = client.post(f"/api/tables/{gid}/join", json={"name": "\x00"})
    assert (r.status_code, r.json()["code"]) == (400, "bad_name")
    assert client.get("/api/tables").json()["tables"][0]["free"] == 3  # a bad name costs no seat
    joined = [client.post(f"/api/tables/{gid}/join", json={"name": f"P{i}"}).json() for i in range(3)]
    assert sorted(j["seat"] for j in joined) == [1, 2, 3]
    assert len({j["token"] for j in joined}) == 3
    assert all(j["link"].endswith(f"/g/{gid}#t={j['token']}") for j in joined)
    r = client.post(f"/api/tables/{gid}/join", json={})
    assert (r.status_code, r.json()["code"]) == (409, "table_full")
    assert client.get("/api/tables").json()["tables"] == []
    # The friend's invite link for a seat a stranger took is refused, not a second hand-out.
    invite = g["seats"][1]["link"].split("#i=")[1]
    assert client.post(f"/api/games/{gid}/claim", json={"invite": invite}).status_code == 403
    for j in joined:
        info = client.get(f"/api/games/{gid}", params={"token": j["token"]}).json()["info"]
        assert info["seat"] == j["seat"] and info["players"][j["seat"]]["name"] == f"P{j['seat'] - 1}"


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_two_servers_racing_for_one_seat_hand_it_out_once(backend, db_url):
    """Two app processes on one database each still think the seat is free: the store's unique
    (game, seat) pair lets one of them have it."""
    pg = os.environ.get("TRAPWORKS_TEST_POSTGRES_URL")
    if backend == "postgres" and not pg:
        pytest.skip("set TRAPWORKS_TEST_POSTGRES_URL to test PostgreSQL")
    db_url = pg if backend == "postgres" else db_url
    with TestClient(create_app(db_url)) as a, TestClient(create_app(db_url)) as b:
        g = public_game(a)
        gid = g["id"]
        assert b.get("/api/tables").json()["tables"][0]["free"] == 1  # b has the game loaded too
        first = a.post(f"/api/tables/{gid}/join", json={})
        second = b.post(f"/api/tables/{gid}/join", json={})
        assert first.status_code == 200
        # Over PostgreSQL the bus may tell b of a's seat before b's join arrives: b then refuses it
        # as a full table without asking the store. Either way the seat went to one player only,
        # and the store's own refusal is checked below.
        assert second.status_code == 409
        assert second.json()["code"] in {"seat_taken", "table_full"}
    store = Store(db_url)
    with pytest.raises(SeatTaken):
        store.take_seat(gid, 1, 0)
    store.close()


def test_a_finished_public_game_leaves_the_list(client):
    g = public_game(client, options={"first_to": 1, "board": [1]})
    assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [g["id"]]
    r = client.post(
        f"/api/games/{g['id']}/moves", json={"token": g["seats"][0]["token"], "action": "a1", "ply": 0}
    )
    assert r.status_code == 200
    assert client.get("/api/tables").json()["tables"] == []
    r = client.post(f"/api/tables/{g['id']}/join", json={})
    assert (r.status_code, r.json()["code"]) == (409, "game_over")


# --- no token where another client sees it ------------------------------------------------------
def test_no_token_in_the_list_presence_chat_or_any_log_line(client, caplog):
    caplog.set_level(logging.DEBUG)
    g = public_game(
        client,
        game="mouse-trap",
        options={"players": 3},
        seats=[{"kind": "human"}, {"kind": "human", "invite": True}, {"kind": "human", "invite": True}],
        spectator_chat=True,
    )
    gid = g["id"]
    secrets = [g["seats"][0]["token"], g["spectator"]["token"]]
    secrets += [s["link"].split("#i=")[1] for s in g["seats"][1:]]
    seen: list[str] = [client.get("/api/tables").text]
    joined = client.post(f"/api/tables/{gid}/join", json={"name": "Joiner"}).json()
    secrets.append(joined["token"])
    t0 = g["seats"][0]["token"]
    seen.append(client.post(f"/api/games/{gid}/name", json={"token": t0, "name": "Host"}).text)
    seen.append(client.get("/api/tables").text)
    with (
        client.websocket_connect(f"/ws/games/{gid}?token={t0}") as a,
        client.websocket_connect(f"/ws/games/{gid}?token={joined['token']}") as b,
        client.websocket_connect(f"/ws/games/{gid}?token={g['spectator']['token']}") as s,
    ):
        for ws in (a, b, s):
            seen.append(json.dumps(hello(ws)))
        a.send_text(json.dumps({"type": "chat", "text": "hello", "ref": 1}))
        b.send_text(json.dumps({"type": "name", "name": "Renamed", "ref": 2}))
        s.send_text(json.dumps({"type": "chat", "text": "watching", "ref": 3}))
        b.send_text(json.dumps({"type": "presence", "visible": False, "ref": 4}))
        for ws, ref in ((a, 1), (b, 2), (s, 3), (b, 4)):
            while True:
                data = ws.receive_json()
                seen.append(json.dumps(data))
                if any(m.get("ref") == ref for m in (data if isinstance(data, list) else [data])):
                    break
    seen.append(client.get("/api/tables").text)
    seen += [r.getMessage() + json.dumps(getattr(r, "__dict__", {}), default=str) for r in caplog.records]
    kinds = " ".join(seen)
    assert "presence" in kinds and '"chat"' in kinds and "tables" in kinds
    for secret in secrets:
        assert all(secret not in text for text in seen), secret


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_any_text_is_a_clean_name_or_refused_with_a_reason(raw):
    try:
        name = clean_name(raw)
    except BadName as e:
        assert str(e).startswith(("a name", repr(" ".join(raw.split()))))
        return
    assert name == name.strip() and 0 < len(name) <= NAME_MAX and "  " not in name
    assert clean_name(name) == name  # stable: what is stored passes again


def test_random_names_and_chat_lines_are_each_answered_and_the_socket_stays(client):
    import random

    rng = random.Random(15)
    g = create_game(client)
    gid, t0 = g["id"], g["seats"][0]["token"]
    alphabet = "aZ <>&\"'\\/\x00\x07\t\n\u202e\u200b\ud7ff\U0001f600é漢"
    with client.websocket_connect(f"/ws/games/{gid}?token={t0}") as ws:
        hello(ws)
        for ref in range(60):
            text = "".join(rng.choice(alphabet) for _ in range(rng.choice([0, 1, 5, 30, 400])))
            kind = rng.choice(["name", "chat"])
            ws.send_text(json.dumps({"type": kind, kind if kind == "name" else "text": text, "ref": ref}))
            reply = answer(ws, ref)
            assert reply["type"] == "ack" or reply["code"] in (
                "bad_name",
                "name_taken",
                "name_rate_limited",
                "bad_chat",
                "chat_too_long",
                "chat_rate_limited",
            ), reply
        ws.send_text(json.dumps({"type": "ping", "ref": "end"}))
        assert receive(ws, "pong")["ref"] == "end"
