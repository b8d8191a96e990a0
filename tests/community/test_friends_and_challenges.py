"""Friends and challenges (issue 41, deliver 1 and 7): follow, unfollow, the friends list with
presence and games to watch; a challenge to a named player accepted, declined, cancelled and
expired; challenges from or to a blocking player refused; every refusal names its reason and
changes nothing."""

from __future__ import annotations

import time

import pytest

from .helpers import SMALL_LML, app_client, players


@pytest.fixture
def app(tmp_path):
    with app_client(tmp_path) as c:
        yield c.app


def test_follow_lists_the_friend_online_with_the_game_to_watch_and_unfollow_ends_it(app):
    (a, alice), (b, bob) = players(app, "alice", "bob")
    assert a.post("/api/community/follow", {"username": bob.upper()})["following"] == bob
    a.post("/api/community/follow", {"username": bob})  # twice: still one follow
    friends = a.get("/api/community/friends")
    assert [f["username"] for f in friends["following"]] == [bob]
    assert friends["following"][0]["online"] is False  # bob has not opened a community page yet
    assert b.get("/api/community/friends")["followers"] == [alice]
    assert a.get("/api/community/friends")["following"][0]["online"] is True  # now he has
    # bob plays: alice sees the game, with its spectator link (no seat token)
    ch = a.post(
        "/api/community/challenges",
        {"username": bob, "game": "last-mouse-lost", "options": SMALL_LML},
        status=201,
    )
    accepted = b.post(f"/api/community/challenges/{ch['challenge']['id']}/accept")
    live = app.state.accounts.service.get(accepted["game_id"])
    games = a.get("/api/community/friends")["following"][0]["games"]
    assert games == [
        {
            "id": accepted["game_id"],
            "game": "last-mouse-lost",
            "watch": f"/g/{accepted['game_id']}#t={live.stored.spectator_token}",
        }
    ]
    assert a.post("/api/community/unfollow", {"username": bob})["unfollowed"] == bob
    assert a.get("/api/community/friends")["following"] == []
    err = a.post("/api/community/unfollow", {"username": bob}, status=404)
    assert err["code"] == "not_following"


def test_follow_refusals_name_the_problem(app):
    (a, alice), (b, bob) = players(app, "alice", "bob")
    assert (
        a.post("/api/community/follow", {"username": "nobody-here"}, status=404)["code"] == "no_such_player"
    )
    assert a.post("/api/community/follow", {"username": alice}, status=400)["code"] == "follow_self"
    b.post("/api/community/block", {"username": alice})
    assert a.post("/api/community/follow", {"username": bob}, status=403)["code"] == "blocked"
    assert a.get("/api/community/friends")["following"] == []
    # without the CSRF header, nothing happens
    assert a.post("/api/community/follow", {"username": bob}, status=403, csrf=False)["code"] == "csrf_failed"


def test_a_challenge_accepted_makes_a_rated_game_both_players_hold(app):
    (a, alice), (b, bob) = players(app, "alice", "bob")
    sent = a.post(
        "/api/community/challenges",
        {
            "username": bob,
            "game": "last-mouse-lost",
            "options": SMALL_LML,
            "rated": True,
            "seconds_per_move": 60,
            "seat": 0,
        },
        status=201,
    )["challenge"]
    assert sent["status"] == "open" and sent["to"] == bob and sent["clock"]["seconds"] == 60
    incoming = b.get("/api/community/challenges")["incoming"]
    assert [c["id"] for c in incoming] == [sent["id"]] and incoming[0]["from"] == alice
    accepted = b.post(f"/api/community/challenges/{sent['id']}/accept")
    assert accepted["seat"] == 1 and accepted["link"].startswith(f"/g/{accepted['game_id']}#t=")
    out = a.get("/api/community/challenges")["outgoing"][0]
    assert out["status"] == "accepted" and out["game_id"] == accepted["game_id"]
    live = app.state.accounts.service.get(accepted["game_id"])
    assert out["link"] == f"/g/{live.id}#t={live.stored.seats[0]['token']}"
    assert [s["name"] for s in live.stored.seats] == [alice, bob]
    mine = a.get(f"/api/players/{alice}/games")["games"]
    assert mine[0]["id"] == live.id and mine[0]["rated"] is True
    # answered: a second accept (or a decline, or a cancel) changes nothing
    again = b.post(f"/api/community/challenges/{sent['id']}/accept", status=409)
    assert again["code"] == "challenge_answered"
    assert (
        b.post(f"/api/community/challenges/{sent['id']}/decline", status=409)["code"] == "challenge_answered"
    )
    assert (
        a.post(f"/api/community/challenges/{sent['id']}/cancel", status=409)["code"] == "challenge_answered"
    )
    assert len(b.get(f"/api/players/{bob}/games")["games"]) == 1


def test_decline_cancel_and_expiry(app):
    (a, alice), (b, bob) = players(app, "alice", "bob")
    body = {"username": bob, "game": "last-mouse-lost", "options": SMALL_LML}
    first = a.post("/api/community/challenges", body, status=201)["challenge"]
    assert (
        a.post(f"/api/community/challenges/{first['id']}/accept", status=403)["code"] == "not_your_challenge"
    )
    b.post(f"/api/community/challenges/{first['id']}/decline")
    assert a.get("/api/community/challenges")["outgoing"][0]["status"] == "declined"
    second = a.post("/api/community/challenges", body, status=201)["challenge"]
    assert (
        b.post(f"/api/community/challenges/{second['id']}/cancel", status=403)["code"] == "not_your_challenge"
    )
    a.post(f"/api/community/challenges/{second['id']}/cancel")
    assert (
        b.post(f"/api/community/challenges/{second['id']}/accept", status=409)["code"] == "challenge_answered"
    )
    third = a.post("/api/community/challenges", {**body, "expires_in_s": 10}, status=201)["challenge"]
    from sqlalchemy import update

    from trapworks.server.community.core import now
    from trapworks.server.community.models import ChallengeRow

    with app.state.community.db.begin() as s:  # ten seconds pass
        s.execute(update(ChallengeRow).where(ChallengeRow.id == third["id"]).values(expires=now()))
    time.sleep(0.01)
    gone = b.post(f"/api/community/challenges/{third['id']}/accept", status=410)
    assert gone["code"] == "challenge_expired" and "expired" in gone["error"]
    assert b.get("/api/community/challenges")["incoming"][0]["status"] == "expired"
    assert b.get(f"/api/players/{bob}/games")["games"] == []
    assert b.post("/api/community/challenges/nonesuch/accept", status=404)["code"] == "no_such_challenge"


def test_challenges_with_a_blocking_player_never_arrive_and_blocking_ends_open_ones(app):
    (a, alice), (b, bob), (c, carol) = players(app, "alice", "bob", "carol")
    body = {"username": bob, "game": "last-mouse-lost", "options": SMALL_LML}
    pending = a.post("/api/community/challenges", body, status=201)["challenge"]
    b.post("/api/community/block", {"username": alice})
    assert b.get("/api/community/safety")["blocked"] == [alice]
    refused = a.post("/api/community/challenges", body, status=403)
    assert refused["code"] == "blocked" and bob in refused["error"]
    assert b.post(f"/api/community/challenges/{pending['id']}/accept", status=403)["code"] == "blocked"
    # the blocker cannot challenge either, and is told why
    mine = b.post("/api/community/challenges", {**body, "username": alice}, status=403)
    assert mine["code"] == "blocking"
    assert [x["status"] for x in b.get("/api/community/challenges")["incoming"]] == ["cancelled"]
    # others are unaffected; unknown players, yourself, bad games are refused by name
    c.post("/api/community/challenges", body, status=201)
    assert (
        a.post("/api/community/challenges", {**body, "username": "ghost-player"}, status=404)["code"]
        == "no_such_player"
    )
    assert (
        a.post("/api/community/challenges", {**body, "username": alice}, status=400)["code"]
        == "challenge_self"
    )
    assert (
        a.post("/api/community/challenges", {**body, "username": carol, "game": "chess"}, status=404)["code"]
        == "unknown_game"
    )
    b.post("/api/community/unblock", {"username": alice})
    a.post("/api/community/challenges", body, status=201)


def test_logged_out_players_are_told_to_log_in(app):
    from fastapi.testclient import TestClient

    anon = TestClient(app)
    r = anon.get("/api/community/friends")
    assert r.status_code == 401 and r.json()["code"] == "login_needed"


def test_a_challenge_with_a_fischer_clock_makes_a_game_with_minutes_each_and_an_increment(app):
    """lichess's "10+5": ten minutes each for the whole game, five seconds added after each move."""
    (a, _alice), (b, bob) = players(app, "alice", "bob")
    body = {
        "username": bob,
        "game": "last-mouse-lost",
        "options": SMALL_LML,
        "minutes_each": 10,
        "increment_s": 5,
    }
    sent = a.post("/api/community/challenges", body, status=201)["challenge"]
    assert sent["clock"] == {"mode": "total", "seconds": 600, "increment": 5, "on_timeout": "forfeit"}
    accepted = b.post(f"/api/community/challenges/{sent['id']}/accept")
    token = accepted["link"].split("#t=")[1]
    clock = b.get(f"/api/games/{accepted['game_id']}", token=token)["state"]["clock"]
    assert (clock["mode"], clock["seconds"], clock["increment"]) == ("total", 600, 5)
    # two clocks at once, or an increment without minutes: refused with the reason, nothing sent
    two = a.post("/api/community/challenges", {**body, "seconds_per_move": 30}, status=400)
    assert two["code"] == "bad_clock" and "not two" in two["error"]
    alone = {"username": bob, "game": "last-mouse-lost", "options": SMALL_LML, "increment_s": 5}
    assert "minutes_each" in a.post("/api/community/challenges", alone, status=400)["error"]
    assert len(a.get("/api/community/challenges")["outgoing"]) == 1


def test_friends_online_lists_only_followed_players_seen_lately_with_their_games(app):
    """The home page's row and the top of the friends page (a player-judge's fix 3): the players
    you follow who are online now, with their games going on; a visitor gets an empty answer."""
    from fastapi.testclient import TestClient

    (a, _alice), (b, bob), (c, carol), (_d, dave) = players(app, "alice", "bob", "carol", "dave")
    assert a.get("/api/community/friends/online") == {"player": True, "online": []}
    a.post("/api/community/follow", {"username": bob})
    a.post("/api/community/follow", {"username": dave})  # followed, never online since signing up
    assert a.get("/api/community/friends/online")["online"] == []
    b.get("/api/community/friends/online")  # bob opens the home page: he is online
    c.get("/api/community/friends/online")  # carol too, but alice does not follow her
    assert a.get("/api/community/friends/online")["online"] == [{"username": bob, "games": []}]
    ch = c.post(
        "/api/community/challenges",
        {"username": bob, "game": "last-mouse-lost", "options": SMALL_LML},
        status=201,
    )
    game = b.post(f"/api/community/challenges/{ch['challenge']['id']}/accept")["game_id"]
    (friend,) = a.get("/api/community/friends/online")["online"]
    assert [g["id"] for g in friend["games"]] == [game] and "#t=" in friend["games"][0]["watch"]
    tokens = {s["token"] for s in app.state.accounts.service.get(game).stored.seats}
    assert friend["games"][0]["watch"].split("#t=")[1] not in tokens  # a spectator link
    # seen long ago: offline
    from trapworks.server.community.models import PresenceRow

    community = app.state.community
    bob_id, _ = community.player(bob)
    with community.db.begin() as s:
        s.get(PresenceRow, bob_id).seen -= 3600
    assert a.get("/api/community/friends/online")["online"] == []
    visitor = TestClient(app).get("/api/community/friends/online")
    assert visitor.status_code == 200 and visitor.json() == {"player": False, "online": []}
