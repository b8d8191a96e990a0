"""Takeback offers between human players (issue 38, server/features/takeback.py), like lichess's
Takebacker: a player proposes, every other human accepts or declines, undo's fair-play policy
applies (no takeback across a revealed die outside practice, none after the end), and declined
offers cannot be spammed (a wait growing with each decline, then none at all)."""

from __future__ import annotations

import json

import pytest

from trapworks.server.features import takeback

from .conftest import create_game

SMALL = {"board": [1, 2, 3], "first_to": 2}  # Last Mouse Lost: no chance after the opener


def view(client, gid, tok):
    r = client.get(f"/api/games/{gid}", params={"token": tok})
    assert r.status_code == 200, r.text
    return r.json()["state"]


def move(client, gid, tok):
    """The seat's first legal action (it must be the seat's turn); the ply after it."""
    s = view(client, gid, tok)
    action = s["view"]["legal_actions"][0]["text"]
    r = client.post(f"/api/games/{gid}/moves", json={"token": tok, "action": action, "ply": s["ply"]})
    assert r.status_code == 200, r.text
    return r.json()["ply"]


def act(client, gid, tok, action):
    return client.post(f"/api/games/{gid}/takeback", json={"token": tok, "action": action})


def to_move(client, g):
    """The token of the seat to move."""
    toks = [s["token"] for s in g["seats"]]
    return next(t for i, t in enumerate(toks) if view(client, g["id"], t)["to_move"] == i)


def players(client, n=2, **body):
    g = create_game(client, options=SMALL, seats=[{"kind": "human"}] * n, **body)
    return g, [s["token"] for s in g["seats"]]


def test_every_other_human_must_accept_then_the_move_is_taken_back(client):
    g, toks = players(client, 2)
    gid = g["id"]
    first = to_move(client, g)
    other = next(t for t in toks if t != first)
    assert move(client, gid, first) == view(client, gid, first)["ply"]
    ply = view(client, gid, first)["ply"]
    before = view(client, gid, first)["takeback"]
    assert before == {"offer": None, "can_propose": True, "can_answer": False}
    assert view(client, gid, other)["takeback"]["can_propose"] is False  # no move of theirs yet

    r = act(client, gid, first, "propose")
    assert r.status_code == 200, r.text
    mine, theirs = view(client, gid, first)["takeback"], view(client, gid, other)["takeback"]
    seat = toks.index(first)
    assert mine["offer"] == {"by": seat, "accepted": [seat], "needed": [toks.index(other)]}
    assert mine["can_answer"] is False and theirs["can_answer"] is True
    assert view(client, gid, first)["ply"] == ply  # nothing taken back yet

    r = act(client, gid, other, "accept")
    assert r.status_code == 200, r.text
    assert r.json()["ply"] == ply - 1
    after = view(client, gid, first)
    assert after["ply"] == ply - 1 and after["to_move"] == seat
    assert after["takeback"]["offer"] is None
    # The store agrees: the game read again holds the shorter log.
    client.app.state.service.live.clear()
    assert view(client, gid, first)["ply"] == ply - 1


def test_with_three_players_one_acceptance_is_not_enough(client):
    g = create_game(
        client, game="mouse-trap", options={"players": 3}, seats=[{"kind": "human"}] * 3, practice=True
    )
    gid, toks = g["id"], [s["token"] for s in g["seats"]]
    first = to_move(client, g)
    move(client, gid, first)
    ply = view(client, gid, first)["ply"]
    others = [t for t in toks if t != first]
    assert act(client, gid, first, "propose").status_code == 200
    assert act(client, gid, others[0], "accept").status_code == 200
    offer = view(client, gid, first)["takeback"]["offer"]
    assert sorted(offer["accepted"]) == sorted([toks.index(first), toks.index(others[0])])
    assert view(client, gid, first)["ply"] == ply
    assert act(client, gid, others[0], "accept").status_code == 200  # accepting twice changes nothing
    assert view(client, gid, first)["ply"] == ply
    assert act(client, gid, others[1], "accept").status_code == 200
    assert view(client, gid, first)["ply"] < ply


def test_a_declined_offer_cannot_be_repeated_at_once_nor_more_than_three_times(client, monkeypatch):
    g, toks = players(client, 2)
    gid = g["id"]
    first = to_move(client, g)
    other = next(t for t in toks if t != first)
    move(client, gid, first)
    assert act(client, gid, first, "propose").status_code == 200
    r = act(client, gid, other, "decline")
    assert r.status_code == 200, r.text
    assert view(client, gid, first)["takeback"]["offer"] is None
    # Spamming: refused right after a decline, with the wait said.
    r = act(client, gid, first, "propose")
    assert r.status_code == 429 and r.json()["code"] == "takeback_too_soon", r.text
    assert "wait" in r.json()["error"]
    assert view(client, gid, first)["takeback"]["can_propose"] is False
    monkeypatch.setattr(takeback, "DECLINED_WAIT_S", 0.0)  # the wait is over
    for _ in range(takeback.MAX_DECLINED - 1):
        assert act(client, gid, first, "propose").status_code == 200
        assert act(client, gid, other, "decline").status_code == 200
    r = act(client, gid, first, "propose")
    assert r.status_code == 429 and r.json()["code"] == "takeback_declined", r.text
    # Stored: a restart does not forget the declines.
    client.app.state.service.live.clear()
    assert act(client, gid, first, "propose").json()["code"] == "takeback_declined"


def test_offers_are_one_at_a_time_and_void_once_a_move_is_played(client):
    g, toks = players(client, 2)
    gid = g["id"]
    first = to_move(client, g)
    other = next(t for t in toks if t != first)
    move(client, gid, first)
    move(client, gid, other)
    assert act(client, gid, first, "propose").status_code == 200
    r = act(client, gid, other, "propose")
    assert r.status_code == 409 and r.json()["code"] == "offer_pending"
    assert act(client, gid, first, "propose").json()["code"] == "offer_pending"
    assert act(client, gid, first, "accept").json()["code"] == "own_offer"
    assert act(client, gid, other, "cancel").json()["code"] == "no_offer"
    move(client, gid, first)  # a move played: the offer was for a position that is gone
    assert view(client, gid, other)["takeback"]["offer"] is None
    assert act(client, gid, other, "accept").json()["code"] == "no_offer"
    # Cancelling one's own offer costs nothing: the next may follow at once.
    assert act(client, gid, other, "propose").status_code == 200
    assert act(client, gid, other, "cancel").status_code == 200
    assert act(client, gid, other, "propose").status_code == 200


def test_undos_fair_play_policy_applies_to_takebacks(client):
    """Mouse Trap: a roll's die is revealed; taking the roll back would re-try it (outside practice)."""
    seats = [{"kind": "human"}, {"kind": "human"}]
    for practice, expected in ((False, 409), (True, 200)):
        g = create_game(client, game="mouse-trap", options={"players": 2}, seats=seats, practice=practice)
        gid = g["id"]
        first = to_move(client, g)
        s = view(client, gid, first)
        r = client.post(f"/api/games/{gid}/moves", json={"token": first, "action": "roll", "ply": s["ply"]})
        assert r.status_code == 200, r.text
        assert view(client, gid, first)["takeback"]["can_propose"] is (expected == 200)
        r = act(client, gid, first, "propose")
        assert r.status_code == expected, r.text
        if expected == 409:
            assert r.json()["code"] == "takeback_refused" and "revealed outcome" in r.json()["error"]


def test_who_may_take_part(client):
    # Against AI only: undo's, not takeback's.
    g = create_game(client, options=SMALL, seats=[{"kind": "human"}, {"kind": "agent", "agent": "random"}])
    r = act(client, g["id"], g["seats"][0]["token"], "propose")
    assert r.status_code == 403 and r.json()["code"] == "no_takeback"
    assert view(client, g["id"], g["seats"][0]["token"])["takeback"] is None
    g, toks = players(client, 2)
    r = act(client, g["id"], g["spectator"]["token"], "propose")
    assert r.status_code == 403 and r.json()["code"] == "spectator"
    r = act(client, g["id"], toks[0], "dance")  # the model names the field
    assert r.status_code == 400 and r.json()["code"] == "bad_action" and "propose" in r.json()["error"]
    r = act(client, g["id"], "not-a-token", "propose")
    assert r.status_code == 403 and r.json()["code"] == "wrong_token"


def test_a_game_stored_before_takebacks_existed_gets_the_feature(client):
    """Its control document has no `takeback` key: read, it gets the feature's part as new."""
    g, toks = players(client, 2, clock={"seconds": 600})
    gid = g["id"]
    service = client.app.state.service
    store = service.store
    doc, version = store.load_control_version(gid)
    old = {k: v for k, v in doc.items() if k != "takeback"}
    store.save_control(gid, old, version)
    service.live.clear()
    first = to_move(client, g)
    move(client, gid, first)
    assert act(client, gid, first, "propose").status_code == 200


def test_over_the_socket_every_seat_is_told(client):
    g, toks = players(client, 2)
    gid = g["id"]
    first = to_move(client, g)
    other = next(t for t in toks if t != first)
    move(client, gid, first)
    ply = view(client, gid, first)["ply"]

    def until(ws, test):
        for _ in range(50):
            frame = ws.receive_json()
            for m in frame if isinstance(frame, list) else [frame]:
                if test(m):
                    return m
        raise AssertionError("not received")

    with (
        client.websocket_connect(f"/ws/games/{gid}?token={first}") as a,
        client.websocket_connect(f"/ws/games/{gid}?token={other}") as b,
    ):
        hello = until(a, lambda m: m["type"] == "hello")
        assert "/static/js/takeback.js" in hello["info"]["features"]  # the page loads its part
        a.send_text(json.dumps({"type": "takeback", "action": "propose", "ref": 7}))
        assert until(a, lambda m: m["type"] == "ack")["ref"] == 7
        offered = until(b, lambda m: m["type"] == "state" and (m.get("takeback") or {}).get("offer"))
        assert offered["takeback"]["can_answer"] is True
        b.send_text(json.dumps({"type": "takeback", "action": "accept", "ref": 8}))
        assert until(b, lambda m: m["type"] == "ack") == {"type": "ack", "ref": 8, "ply": ply - 1}
        rewound = until(a, lambda m: m["type"] == "state" and m["ply"] == ply - 1)
        assert rewound["sync"] is True and rewound["takeback"]["offer"] is None
        b.send_text(json.dumps({"type": "takeback", "action": "nonsense", "ref": 9}))
        err = until(b, lambda m: m["type"] == "error")
        assert err["code"] == "bad_action" and "propose" in err["message"]


@pytest.mark.parametrize("action", ["accept", "decline", "cancel"])
def test_nothing_to_answer_is_refused_and_changes_nothing(client, action):
    g, toks = players(client, 2)
    doc = client.app.state.service.store.load_control_version(g["id"])
    r = act(client, g["id"], toks[0], action)
    assert r.status_code == 409 and r.json()["code"] == "no_offer"
    assert client.app.state.service.store.load_control_version(g["id"]) == doc
