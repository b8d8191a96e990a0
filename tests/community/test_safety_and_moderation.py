"""Block, mute, report and moderation (issue 41, deliver 4 and 7): a blocked player is never paired
by the quick game nor accepted from the lobby's list; a report carries the reason, the game and
the chat line as it was; a moderator (granted by `trapworks admin grant-moderator`) reads the
queue, a player's history and the chat in context, warns, mutes for a time (the chat refuses the
player's lines) and bans (the sessions end, the log-in is refused); every action is in the audit
log; a player who is not a moderator is refused every moderation route."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from trapworks.cli import app as cli_app
from trapworks.server.features.chat import Chat
from web.accounts_helpers import PASSWORD

from .helpers import SMALL_LML, app_client, make_moderator, players


@pytest.fixture
def app(tmp_path):
    with app_client(tmp_path) as c:
        yield c.app


def _seek(b, **extra):
    return b.post(
        "/api/seeks",
        {"game": "last-mouse-lost", "options": SMALL_LML, "rated": False, "ai_after": None, **extra},
        status=201,
    )


def test_the_quick_game_never_pairs_a_player_with_one_they_block(app):
    (a, alice), (b, bob), (c, carol) = players(app, "alice", "bob", "carol")
    a.post("/api/community/block", {"username": bob})
    sa = _seek(a)
    sb = _seek(b)
    assert sa["status"] == "waiting" and sb["status"] == "waiting"  # the same pool, never paired
    refused = b.post(f"/api/seeks/accept/{sa['id']}", status=403)
    assert refused["code"] == "blocked"
    sc = _seek(c)  # carol pairs with the one waiting longest, alice
    assert sc["status"] == "matched"
    assert b.get(f"/api/seeks/{sb['seek']}")["status"] == "waiting"
    assert a.get(f"/api/seeks/{sa['seek']}")["game_id"] == sc["game_id"]


def _game_with_chat(app, a, b, bob):
    """A game between alice (seat 0) and bob (seat 1) where bob says something rude; (gid, line id)."""
    sent = a.post(
        "/api/community/challenges",
        {"username": bob, "game": "last-mouse-lost", "options": SMALL_LML, "seat": 0},
        status=201,
    )["challenge"]
    game = b.post(f"/api/community/challenges/{sent['id']}/accept")
    store = app.state.store
    store.add_chat(game["game_id"], 0, "alice", "good luck")
    line = store.add_chat(game["game_id"], 1, bob, "you are a rude word")
    store.add_chat(game["game_id"], 0, "alice", "that is not nice")
    return game["game_id"], line["id"]


def test_a_report_keeps_the_line_and_a_moderator_mutes_warns_bans_with_an_audit_trail(app):
    (a, alice), (b, bob), (m, mod) = players(app, "alice", "bob", "mod")
    gid, line = _game_with_chat(app, a, b, bob)
    # bad reports change nothing and say why
    assert (
        a.post("/api/community/report", {"username": bob, "reason": "meanie"}, status=400)["code"]
        == "bad_reason"
    )
    assert (
        a.post(
            "/api/community/report",
            {"username": bob, "reason": "abuse", "game_id": gid, "chat_line": line - 1},
            status=400,
        )["code"]
        == "not_their_line"
    )
    assert (
        a.post("/api/community/report", {"username": mod, "reason": "abuse", "game_id": gid}, status=404)[
            "code"
        ]
        == "not_in_game"
    )
    report = a.post(
        "/api/community/report",
        {"username": bob, "reason": "abuse", "details": "insults", "game_id": gid, "chat_line": line},
        status=201,
    )["report"]
    assert a.get("/api/community/safety")["reports"][0]["status"] == "open"
    # not yet a moderator: refused
    assert m.get("/api/mod/reports", status=403)["code"] == "not_moderator"
    assert m.post(f"/api/mod/players/{bob}/ban", {"reason": "x"}, status=403)["code"] == "not_moderator"
    make_moderator(app, mod)
    assert m.get("/api/community/me")["moderator"] is True
    queue = m.get("/api/mod/reports")["reports"]
    assert [(r["id"], r["username"], r["reporter"], r["chat_text"]) for r in queue] == [
        (report, bob, alice, "you are a rude word")
    ]
    context = m.get(f"/api/mod/chat/{gid}", line=line)["lines"]
    assert [(x["text"], x["reported"]) for x in context] == [
        ("good luck", False),
        ("you are a rude word", True),
        ("that is not nice", False),
    ]
    assert context[1]["account"] == bob
    history = m.get(f"/api/mod/players/{bob}")
    assert history["chat"][0]["text"] == "you are a rude word" and history["reports"][0]["id"] == report
    # warn: bob reads it once
    m.post(f"/api/mod/players/{bob}/warn", {"reason": "mind your words"})
    assert [n["kind"] for n in b.get("/api/community/me")["notices"]] == ["warn"]
    assert b.get("/api/community/me")["notices"] == []
    # mute for 10 minutes (closing the report): bob's chat lines are refused
    assert m.post(f"/api/mod/players/{bob}/mute", {"reason": "x"}, status=400)["code"] == "mute_needs_minutes"
    m.post(f"/api/mod/players/{bob}/mute", {"reason": "insults", "minutes": 10, "report": report})
    assert m.get("/api/mod/reports")["reports"] == []
    assert a.get("/api/community/safety")["reports"][0]["status"] == "closed"
    chat = app.state.moderation
    from trapworks.server.errors import ServiceError

    with pytest.raises(ServiceError) as refused:
        chat.check_chat(gid, 1)
    assert refused.value.code == "muted" and "until" in refused.value.message
    chat.check_chat(gid, 0)  # alice is not muted
    # ban: bob's session ends and his log-in is refused; a wrong password still says only that
    m.post(f"/api/mod/players/{bob}/ban", {"reason": "repeated insults", "days": 7})
    assert b.get("/api/account/me")["account"] is None
    banned = b.login(bob, status=403)
    assert banned["code"] == "banned" and "repeated insults" in banned["error"]
    assert b.login(bob, "a wrong password entirely", status=401)["code"] == "wrong_login"
    assert m.get(f"/api/mod/players/{bob}")["banned"] is True
    # the audit log holds every action, newest first
    audit = m.get("/api/mod/audit")["audit"]
    assert [(x["action"], x["target"]) for x in audit[:3]] == [("ban", bob), ("mute", bob), ("warn", bob)]
    assert audit[0]["actor"] == mod and audit[0]["detail"]["reason"] == "repeated insults"
    # lifted: bob logs in again
    m.post(f"/api/mod/players/{bob}/lift")
    b.login(bob)
    assert b.get("/api/account/me")["account"]["username"] == bob
    assert m.post(f"/api/mod/players/{bob}/lift", status=404)["code"] == "not_sanctioned"
    assert m.post(f"/api/mod/players/{mod}/ban", {"reason": "x"}, status=400)["code"] == "moderate_self"


def test_personal_mutes_are_listed_for_the_chat_to_hide(app):
    (a, alice), (b, bob) = players(app, "alice", "bob")
    a.post("/api/community/mute", {"username": bob})
    assert a.get("/api/community/safety")["muted"] == [bob]
    a.post("/api/community/unmute", {"username": bob})
    assert a.get("/api/community/safety")["muted"] == []
    assert a.post("/api/community/unmute", {"username": bob}, status=404)["code"] == "not_muted"
    assert a.post("/api/community/block", {"username": alice}, status=400)["code"] == "block_self"


def _chat_lines(ws, n):
    """The next `n` chat lines a socket receives (other messages passed)."""
    lines = []
    while len(lines) < n:
        msg = json.loads(ws.receive_text())
        if msg.get("type") == "chat":
            lines.append((msg["line"]["seat"], msg["line"]["text"]))
    return lines


def test_a_personal_mute_keeps_the_muted_players_lines_from_the_muters_sockets(app):
    (a, alice), (b, bob) = players(app, "alice", "bob")
    gid, _ = _game_with_chat(app, a, b, bob)  # alice seat 0, bob seat 1; bob's rude line stored
    a.post("/api/community/mute", {"username": bob})
    seats = app.state.service.live[gid].stored.seats
    client = TestClient(app)
    client.__enter__()  # one event loop for both sockets (each connect would start its own)
    with (
        client.websocket_connect(f"/ws/games/{gid}?token={seats[0]['token']}") as alice_ws,
        client.websocket_connect(f"/ws/games/{gid}?token={seats[1]['token']}") as bob_ws,
    ):
        alice_hello = json.loads(alice_ws.receive_text())
        bob_hello = json.loads(bob_ws.receive_text())
        # the history the server sends alice leaves bob's lines out; bob's has them all
        assert [x["seat"] for x in alice_hello["chat"]["lines"]] == [0, 0]
        assert [x["seat"] for x in bob_hello["chat"]["lines"]] == [0, 1, 0]
        bob_ws.send_text(json.dumps({"type": "chat", "text": "another rude word", "ref": 1}))
        assert _chat_lines(bob_ws, 1) == [(1, "another rude word")]  # sent to every socket by now
        alice_ws.send_text(json.dumps({"type": "chat", "text": "bye", "ref": 2}))
        # bob hears alice; alice's next line is her own: bob's never reached her socket
        assert _chat_lines(bob_ws, 1) == [(0, "bye")]
        assert _chat_lines(alice_ws, 1) == [(0, "bye")]
    a.post("/api/community/unmute", {"username": bob})
    with client.websocket_connect(f"/ws/games/{gid}?token={seats[0]['token']}") as alice_ws:
        lines = json.loads(alice_ws.receive_text())["chat"]["lines"]
        assert [x["seat"] for x in lines] == [0, 1, 0, 1, 0]


def test_a_personal_mute_holds_where_the_muter_watches_as_a_spectator(app):
    """carol mutes bob, then watches bob's game with alice by its spectator link, logged in: the
    server sends her socket none of bob's lines, in the history or live; a spectator who is not
    logged in (or does not mute him) hears them all."""
    (a, alice), (b, bob), (c, carol) = players(app, "alice", "bob", "carol")
    gid, _ = _game_with_chat(app, a, b, bob)  # bob (seat 1) said a rude line
    c.post("/api/community/mute", {"username": bob})
    live = app.state.service.live[gid]
    seats, spectate = live.stored.seats, f"/ws/games/{gid}?token={live.stored.spectator_token}"
    carols = c.c.cookies.get("tw_session")
    assert carols
    client = TestClient(app)
    client.__enter__()  # one event loop for every socket; only carol's sends her session cookie
    with (
        client.websocket_connect(spectate, headers={"cookie": f"tw_session={carols}"}) as carol_ws,
        client.websocket_connect(spectate) as anyone_ws,
        client.websocket_connect(f"/ws/games/{gid}?token={seats[1]['token']}") as bob_ws,
        client.websocket_connect(f"/ws/games/{gid}?token={seats[0]['token']}") as alice_ws,
    ):
        hellos = [json.loads(ws.receive_text()) for ws in (carol_ws, anyone_ws, bob_ws, alice_ws)]
        assert [x["seat"] for x in hellos[0]["chat"]["lines"]] == [0, 0]
        assert [x["seat"] for x in hellos[1]["chat"]["lines"]] == [0, 1, 0]
        bob_ws.send_text(json.dumps({"type": "chat", "text": "another rude word", "ref": 1}))
        assert _chat_lines(anyone_ws, 1) == [(1, "another rude word")]
        alice_ws.send_text(json.dumps({"type": "chat", "text": "bye", "ref": 2}))
        assert _chat_lines(anyone_ws, 1) == [(0, "bye")]
        assert _chat_lines(carol_ws, 1) == [(0, "bye")]  # bob's line never reached carol


def test_a_personal_mute_hides_the_muted_players_lines_written_as_a_spectator_everywhere(app):
    """carol mutes bob. bob, logged in, watches carol's game (spectators may chat) and writes: the
    line reaches neither carol's seat socket (opened by its link, no cookie) nor alice's spectator
    socket (alice mutes bob too), in the history or live, nor as it comes from another node of the
    cluster; an anonymous spectator hears it, and no line as sent names its author's account."""
    (a, _alice), (b, bob), (c, _carol) = players(app, "alice", "bob", "carol")
    for muter in (a, c):
        muter.post("/api/community/mute", {"username": bob})
    game = c.post(
        "/api/games",
        {"game": "last-mouse-lost", "options": SMALL_LML, "spectator_chat": True},
        status=201,
    )
    gid, bobs_account = game["id"], app.state.community.player(bob)[0]
    carols_seat = game["seats"][0]["token"]
    c.post("/api/account/seats", {"seats": [{"game": gid, "token": carols_seat}]})
    app.state.store.add_chat(gid, None, "Spectator", "an old line of bob's", bobs_account)
    watch = f"/ws/games/{gid}?token={game['spectator']['token']}"
    cookie = lambda who: {"cookie": f"tw_session={who.c.cookies.get('tw_session')}"}  # noqa: E731
    client = TestClient(app)
    client.__enter__()  # one event loop for every socket
    with (
        client.websocket_connect(watch, headers=cookie(b)) as bob_ws,
        client.websocket_connect(watch, headers=cookie(a)) as alice_ws,
        client.websocket_connect(watch) as anyone_ws,
        client.websocket_connect(f"/ws/games/{gid}?token={carols_seat}") as carol_ws,
    ):
        hellos = [json.loads(ws.receive_text()) for ws in (bob_ws, alice_ws, anyone_ws, carol_ws)]
        assert [len(h["chat"]["lines"]) for h in hellos] == [1, 0, 1, 0]
        assert all("author" not in line for h in hellos for line in h["chat"]["lines"])
        bob_ws.send_text(json.dumps({"type": "chat", "text": "a rude word", "ref": 1}))
        assert _chat_lines(anyone_ws, 1) == [(None, "a rude word")]
        # the same line as the bus brings it from another node (the author travels with it)
        line = app.state.store.chat_lines(gid, 1)[0]
        assert line["author"] == bobs_account
        chat = app.state.service.feature(Chat)
        client.portal.call(chat.heard_elsewhere, {"g": gid, "line": {**line, "text": "from node 2"}})
        assert _chat_lines(anyone_ws, 1) == [(None, "from node 2")]
        anyone_ws.send_text(json.dumps({"type": "chat", "text": "hello", "ref": 2}))
        for ws in (alice_ws, carol_ws):  # bob's two lines never reached them
            assert _chat_lines(ws, 1) == [(None, "hello")]
    with client.websocket_connect(f"/ws/games/{gid}?token={carols_seat}") as carol_ws:
        lines = json.loads(carol_ws.receive_text())["chat"]["lines"]
        assert [x["text"] for x in lines] == ["hello"]


def test_a_moderators_mute_holds_when_the_muted_player_writes_as_a_spectator(app):
    """bob, muted by a moderator, watches a game whose spectators may chat (nobody's seat is his),
    logged in: his line is refused as muted and reaches nobody; a spectator who is not muted
    writes there as before."""
    (b, bob), (m, mod), (c, _carol) = players(app, "bob", "mod", "carol")
    make_moderator(app, mod)
    m.post(f"/api/mod/players/{bob}/mute", {"reason": "insults", "minutes": 10})
    game = c.post(
        "/api/games",
        {"game": "last-mouse-lost", "options": SMALL_LML, "spectator_chat": True},
        status=201,
    )
    watch = f"/ws/games/{game['id']}?token={game['spectator']['token']}"
    cookie = lambda who: {"cookie": f"tw_session={who.c.cookies.get('tw_session')}"}  # noqa: E731
    client = TestClient(app)
    client.__enter__()  # one event loop for both sockets
    with (
        client.websocket_connect(watch, headers=cookie(b)) as bob_ws,
        client.websocket_connect(watch, headers=cookie(c)) as carol_ws,
    ):
        json.loads(bob_ws.receive_text())
        json.loads(carol_ws.receive_text())
        bob_ws.send_text(json.dumps({"type": "chat", "text": "a rude word", "ref": 1}))
        carol_ws.send_text(json.dumps({"type": "chat", "text": "hello", "ref": 2}))
        assert _chat_lines(carol_ws, 1) == [(None, "hello")]  # bob's line never came
        refused = next(m for m in map(json.loads, iter(bob_ws.receive_text, None)) if m["type"] == "error")
        assert refused["code"] == "muted" and refused["ref"] == 1
    assert [x["text"] for x in app.state.store.chat_lines(game["id"], 10)] == ["hello"]


def test_admin_grant_moderator_on_the_command_line(tmp_path):
    db = f"sqlite:///{tmp_path / 'community.sqlite'}"
    with app_client(tmp_path) as c:
        ((_, alice),) = players(c.app, "alice")
    runner = CliRunner()
    r = runner.invoke(cli_app, ["admin", "grant-moderator", alice, "--db", db])
    assert r.exit_code == 0 and r.output.strip() == f"{alice} is a moderator", r.output
    r = runner.invoke(cli_app, ["admin", "grant-moderator", alice, "--db", db])
    assert r.output.strip() == f"{alice} is a moderator already"
    r = runner.invoke(cli_app, ["admin", "grant-moderator", "nobody-at-all", "--db", db])
    assert r.exit_code == 2 and "no player is called 'nobody-at-all'" in r.output
    with app_client(tmp_path) as c:
        from web.accounts_helpers import Browser

        b = Browser(c)
        b.login(alice, PASSWORD)
        assert b.get("/api/community/me")["moderator"] is True
        assert b.get("/api/mod/audit")["audit"][0]["action"] == "grant-moderator"
    r = runner.invoke(cli_app, ["admin", "revoke-moderator", alice, "--db", db])
    assert r.output.strip() == f"{alice} is no longer a moderator"


def test_a_chat_line_asks_the_database_for_its_seats_holder_once(app):
    """The moderator's mute check and the line's author share one seat-holder lookup (review of
    issue 41: they made two identical queries per chat line)."""
    from sqlalchemy import event

    (a, alice), (b, bob) = players(app, "alice", "bob")
    gid, _ = _game_with_chat(app, a, b, bob)
    seats = app.state.service.live[gid].stored.seats
    asked: list[str] = []

    def noted(_conn, _cursor, statement, *_rest):
        if "account_seats" in statement and statement.lstrip().upper().startswith("SELECT"):
            asked.append(statement)

    engine = app.state.accounts.engine
    event.listen(engine, "before_cursor_execute", noted)
    try:
        with (
            TestClient(app) as client,
            client.websocket_connect(f"/ws/games/{gid}?token={seats[1]['token']}") as bob_ws,
        ):
            json.loads(bob_ws.receive_text())  # hello
            asked.clear()
            bob_ws.send_text(json.dumps({"type": "chat", "text": "well played", "ref": 1}))
            assert _chat_lines(bob_ws, 1) == [(1, "well played")]
            holder_queries = [q for q in asked if "account_seats.seat =" in q]
    finally:
        event.remove(engine, "before_cursor_execute", noted)
    assert len(holder_queries) == 1, holder_queries
    # and the mute still holds on the seat's holder
    app.state.moderation.check_chat(gid, 1)
