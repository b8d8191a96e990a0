"""Games to watch across two nodes (issue 41, deliver 2, must show): two server processes' apps
on one database; games started on one node are listed on the other with players, ratings, moves
and clock; the featured game is the best rated; when it ends (on the other node) the featured game
switches; the links are spectator links (no seat token)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from trapworks.server import create_app
from web.accounts_helpers import SMALL_LML, Browser, play_to_end, unique


@pytest.fixture
def nodes(tmp_path):
    url = f"sqlite:///{tmp_path / 'shared.sqlite'}"
    with (
        TestClient(create_app(url, data_dir=tmp_path)) as a,
        TestClient(create_app(url, data_dir=tmp_path)) as b,
    ):
        yield a, b


def signed_up(node: TestClient, prefix: str) -> tuple[Browser, str]:
    b = Browser(TestClient(node.app))
    name = unique(prefix)
    b.signup(name)
    return b, name


def challenge_game(node_a, node_b, x: str, y: str, **clock) -> tuple[str, list[str]]:
    """x challenges y on node A, y accepts on node B: (game id, seat tokens)."""
    bx = Browser(TestClient(node_a.app))
    bx.login(x)
    by = Browser(TestClient(node_b.app))
    by.login(y)
    sent = bx.post(
        "/api/community/challenges",
        {"username": y, "game": "last-mouse-lost", "options": SMALL_LML, "seat": 0, **clock},
        status=201,
    )["challenge"]
    game = by.post(f"/api/community/challenges/{sent['id']}/accept")
    live = node_b.app.state.accounts.service.get(game["game_id"])
    return game["game_id"], [s["token"] for s in live.stored.seats]


def test_live_games_and_the_featured_game_across_two_nodes(nodes):
    a, b = nodes
    names = [signed_up(a, p)[1] for p in ("alice", "bob", "carol", "dave")]
    alice, bob, carol, dave = names
    fresh = b.get("/api/community/live").json()
    assert (fresh["games"], fresh["featured"], fresh["computer"], fresh["recent"]) == ([], {}, [], [])
    first, first_tokens = challenge_game(a, b, alice, bob, days_per_move=1)
    # carol and dave are rated higher: their game is the one to watch
    from trapworks.server.accounts.models import RatingRow
    from trapworks.server.community.core import now

    community = a.app.state.community
    with community.db.begin() as s:
        for name in (carol, dave):
            account_id, _ = community.player(name)
            s.add(
                RatingRow(
                    account_id=account_id,
                    game="last-mouse-lost",
                    players=2,
                    mu=40.0,
                    sigma=3.0,
                    games=12,
                    updated=now(),
                )
            )
    second, second_tokens = challenge_game(b, a, carol, dave)
    listed = b.get("/api/community/live").json()
    assert [g["id"] for g in listed["games"]] == [second, first]
    top = listed["games"][0]
    assert [(p["username"], p["rating"]) for p in top["players"]] == [
        (carol, 2400),
        (dave, 2400),
    ]  # 1500 + 60 x (40 - 25)
    assert listed["featured"]["last-mouse-lost"]["id"] == second
    low = listed["games"][1]
    assert [p["username"] for p in low["players"]] == [alice, bob] and low["moves"] == 0
    assert (
        low["clock"]["seconds"] == 86400 and low["clock"]["to_move"] == 0 and low["clock"]["left_s"] > 86000
    )
    for g in listed["games"]:  # spectator links only
        spectator = a.app.state.accounts.service.get(g["id"]).stored.spectator_token
        assert g["watch"] == f"/g/{g['id']}#t={spectator}"
    # the featured game ends on node A: node B features the other at once
    play_to_end(a, second, second_tokens)
    again = b.get("/api/community/live").json()
    assert [g["id"] for g in again["games"]] == [first]
    assert again["featured"]["last-mouse-lost"]["id"] == first
    # a move made on node A shows on node B
    state = a.get(f"/api/games/{first}", params={"token": first_tokens[0]}).json()["state"]
    r = a.post(
        f"/api/games/{first}/moves",
        json={
            "token": first_tokens[0],
            "action": state["view"]["legal_actions"][0]["text"],
            "ply": state["ply"],
        },
    )
    assert r.status_code == 200, r.text
    moved = b.get("/api/community/live", params={"game": "last-mouse-lost"}).json()
    assert moved["games"][0]["moves"] >= 1 and moved["games"][0]["clock"]["to_move"] == 1
    other = b.get("/api/community/live", params={"game": "mouse-trap"}).json()
    assert (other["games"], other["featured"], other["recent"]) == ([], {}, [])
    # the game that ended is among the recent ones, with its result and its review
    (ended,) = moved["recent"]
    assert ended["id"] == second and ended["review"] == f"/replay/{second}"
    assert {p["result"] for p in ended["players"]} == {"won", "lost"}
    assert [p["username"] for p in ended["players"]] == [carol, dave] and not ended["against_computer"]


def test_a_game_with_a_seat_not_yet_taken_is_not_listed(nodes):
    a, _b = nodes
    br, _name = signed_up(a, "erin")
    made = br.post(
        "/api/account/games", {"game": "last-mouse-lost", "options": SMALL_LML, "rated": False}, status=201
    )
    assert made["invites"]
    assert a.get("/api/community/live").json()["games"] == []


def test_a_fischer_clock_lists_both_players_time_left(nodes):
    """lichess TV shows both clocks: a 10+5 game lists each seat's seconds left and the increment."""
    a, b = nodes
    x, y = signed_up(a, "xena")[1], signed_up(a, "yann")[1]
    gid, _tokens = challenge_game(a, b, x, y, minutes_each=10, increment_s=5)
    clock = next(g for g in b.get("/api/community/live").json()["games"] if g["id"] == gid)["clock"]
    assert clock["mode"] == "total" and clock["increment"] == 5 and len(clock["remaining_s"]) == 2
    assert all(590 <= s <= 600 for s in clock["remaining_s"])


def test_an_untimed_game_leaves_the_live_list_after_its_first_hour(nodes):
    """Judge 7 (Home 7): abandoned games stayed in "Live now". A game with a clock ends when its
    players leave (the clock runs out); one without is listed for its first hour only."""
    from sqlalchemy import update

    from trapworks.server.accounts.models import AccountGameRow
    from trapworks.server.community import watch

    a, b = nodes
    x, y = signed_up(a, "uma")[1], signed_up(a, "ugo")[1]
    untimed, _ = challenge_game(a, b, x, y)
    timed, _ = challenge_game(a, b, x, y, minutes_each=10, increment_s=5)
    listed = {g["id"] for g in b.get("/api/community/live").json()["games"]}
    assert {untimed, timed} <= listed
    community = a.app.state.community
    with community.db.begin() as s:  # both games started over an hour ago
        s.execute(
            update(AccountGameRow)
            .where(AccountGameRow.game_id.in_([untimed, timed]))
            .values(created=watch.now() - timedelta(seconds=watch.UNTIMED_LISTED_S + 60))
        )
    listed = {g["id"] for g in b.get("/api/community/live").json()["games"]}
    assert timed in listed and untimed not in listed


def test_watch_offers_games_against_the_computer_and_recent_games_when_none_between_players(nodes):
    """A fresh server has no game between players: /watch still has something on (judge's fix 3):
    players' games against the computer going on (spectator links, labelled) and the games just
    ended with their results and reviews; never a seat's token, and no practice game."""
    a, b = nodes
    ann, ann_name = signed_up(a, "ann")
    vs_ai = a.post(
        "/api/games",
        json={"game": "last-mouse-lost", "seats": [{"kind": "human"}, {"kind": "agent", "agent": "easy"}]},
    ).json()
    ann.post("/api/account/seats", {"seats": [{"game": vs_ai["id"], "token": vs_ai["seats"][0]["token"]}]})
    # not listed: a practice game, and a game against the computer of nobody with an account
    practice = a.post(
        "/api/games",
        json={
            "game": "last-mouse-lost",
            "practice": True,
            "seats": [{"kind": "human"}, {"kind": "agent", "agent": "easy"}],
        },
    ).json()
    ann.post(
        "/api/account/seats", {"seats": [{"game": practice["id"], "token": practice["seats"][0]["token"]}]}
    )
    a.post(
        "/api/games",
        json={"game": "last-mouse-lost", "seats": [{"kind": "human"}, {"kind": "agent", "agent": "easy"}]},
    )
    listed = b.get("/api/community/live").json()
    assert listed["games"] == [] and listed["featured"] == {}
    (g,) = listed["computer"]
    assert g["id"] == vs_ai["id"]
    assert g["players"][0]["username"] == ann_name and g["players"][1] == {
        "seat": 1,
        "username": None,
        "computer": "easy",
    }
    spectator = a.app.state.accounts.service.get(g["id"]).stored.spectator_token
    assert g["watch"] == f"/g/{g['id']}#t={spectator}"
    assert vs_ai["seats"][0]["token"] not in str(listed)
    # it ends: among the recent games, against the computer, with each seat's result
    r = a.post(f"/api/games/{vs_ai['id']}/resign", json={"token": vs_ai["seats"][0]["token"]})
    assert r.status_code == 200, r.text
    after = b.get("/api/community/live").json()
    assert after["computer"] == []
    (done,) = after["recent"]
    assert (
        done["id"] == vs_ai["id"] and done["against_computer"] and done["review"] == f"/replay/{vs_ai['id']}"
    )
    assert [p.get("result") for p in done["players"]] == ["lost", "won"]
    assert done["players"][1]["computer"] == "easy"
    assert vs_ai["seats"][0]["token"] not in str(after)
