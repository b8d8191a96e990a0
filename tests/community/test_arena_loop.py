"""The arena loop as a player lives it (issue 41, the judge's list): a paired player is told their
game (its seat's link, only to them) wherever they are on the site; a game knows its arena (the end
screen's "Back to the arena"); a pairing whose game nobody plays is aborted after a short while,
the absent player paused and the other free again; Swiss tournaments are listed and have a page."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from web.accounts_helpers import SMALL_LML

from .helpers import app_client, players


def _until(read: Callable[[], Any], ok: Callable[[Any], bool], limit_s: float = 30.0) -> Any:
    """`read()` again until `ok` says yes (the arena loop pairs on its own time); the last read."""
    deadline = time.monotonic() + limit_s
    while True:
        got = read()
        if ok(got) or time.monotonic() > deadline:
            return got
        time.sleep(0.05)


def _arena(c: TestClient, absent_s: float = 30.0) -> tuple[list, str]:
    c.app.state.arenas.wave_s = 0.1
    c.app.state.arenas.absent_s = absent_s
    people = players(c.app, "ann", "ben")
    made = people[0][0].post(
        "/api/community/arenas",
        {"name": "Loop arena", "game": "last-mouse-lost", "options": SMALL_LML, "minutes": 30},
        status=201,
    )
    return people, made["id"]


def test_a_paired_player_is_given_their_seat_and_the_game_knows_its_arena(tmp_path):
    with app_client(tmp_path) as c:
        people, aid = _arena(c)
        (ann, _a), (ben, _b) = people
        assert ann.get("/api/community/arenas/mine") == {"player": True, "arena": None, "game": None}
        for b, _n in people:
            b.post(f"/api/community/arenas/{aid}/join")
        mine = _until(lambda: ann.get("/api/community/arenas/mine"), lambda m: m["game"] is not None)
        assert mine["arena"]["id"] == aid and mine["arena"]["active"] is True
        game = mine["game"]
        assert game["arena"] == aid and game["link"].startswith(f"/g/{game['id']}#t=")
        theirs = _until(lambda: ben.get("/api/community/arenas/mine"), lambda m: m["game"] is not None)
        assert theirs["game"]["id"] == game["id"] and theirs["game"]["link"] != game["link"]
        # each link opens its own player's seat
        live = c.app.state.service.get(game["id"])
        tokens = {s["token"] for s in live.stored.seats}
        assert {game["link"].split("#t=")[1], theirs["game"]["link"].split("#t=")[1]} == tokens
        # nobody logged in: nothing to follow (an answer, not a refusal: every page asks)
        nobody = TestClient(c.app).get("/api/community/arenas/mine")
        assert nobody.status_code == 200 and nobody.json() == {"player": False, "arena": None, "game": None}
        # the end screen's way back: the game's arena; a game of no arena has none
        plain = TestClient(c.app)
        assert plain.get(f"/api/community/arenas/of-game/{game['id']}").json() == {
            "arena": {"id": aid, "name": "Loop arena"}
        }
        assert plain.get("/api/community/arenas/of-game/nosuchgame").json() == {"arena": None}
        # leaving pauses: still the arena's, not active
        ann.post(f"/api/community/arenas/{aid}/leave")
        assert ann.get("/api/community/arenas/mine")["arena"]["active"] is False


def test_a_pairing_nobody_plays_is_aborted_and_the_absent_player_paused(tmp_path):
    with app_client(tmp_path) as c:
        people, aid = _arena(c, absent_s=0.3)
        (ann, an), (ben, bn) = people
        for b, _n in people:
            b.post(f"/api/community/arenas/{aid}/join")
        game = _until(lambda: ann.get("/api/community/arenas/mine"), lambda m: m["game"] is not None)["game"]
        live = c.app.state.service.get(game["id"])
        first = live.state.current_player()
        # nobody moves: the game is aborted, no points, the one to move paused
        table = _until(
            lambda: ann.get(f"/api/community/arenas/{aid}"),
            lambda t: t["games"] and not t["games"][0]["on"] and t["games"][0]["points"] is not None,
        )
        assert table["games"][0]["id"] == game["id"] and table["games"][0]["points"] == [0, 0]
        assert c.app.state.service.get(game["id"]).ended()
        names = [an, bn] if table["games"][0]["players"][0] == an else [bn, an]
        absent, other = names[first], names[1 - first]
        rows = {r["username"]: r for r in table["standings"]}
        assert rows[absent]["active"] is False and rows[other]["active"] is True
        assert rows[absent]["score"] == rows[other]["score"] == 0
        assert rows[absent]["games"] == rows[other]["games"] == 0
        # and the other is no longer held by a game: nobody else is free, so no new game
        assert all(
            m["game"] is None
            for m in (ann.get("/api/community/arenas/mine"), ben.get("/api/community/arenas/mine"))
        )


def test_a_game_being_played_is_not_dropped(tmp_path):
    with app_client(tmp_path) as c:
        # A long wait while the seats move (a loaded machine must not make them late), then a wait
        # so short that any game without both first moves would be dropped at the next wave.
        people, aid = _arena(c, absent_s=60.0)
        ann = people[0][0]
        for b, _n in people:
            b.post(f"/api/community/arenas/{aid}/join")
        game = _until(lambda: ann.get("/api/community/arenas/mine"), lambda m: m["game"] is not None)["game"]
        live = c.app.state.service.get(game["id"])
        tokens = [s["token"] for s in live.stored.seats]
        plain = TestClient(c.app)
        for _ in range(2):  # both seats make their first move in time
            st = plain.get(f"/api/games/{game['id']}", params={"token": tokens[0]}).json()["state"]
            if st["terminal"]:
                break
            seat = st["to_move"]
            mine = plain.get(f"/api/games/{game['id']}", params={"token": tokens[seat]}).json()["state"]
            action = mine["view"]["legal_actions"][0]["text"]
            r = plain.post(
                f"/api/games/{game['id']}/moves",
                json={"token": tokens[seat], "action": action, "ply": mine["ply"]},
            )
            assert r.status_code == 200, r.text
        c.app.state.arenas.absent_s = 0.05
        time.sleep(1.0)  # several waves of the loop, each past the absent wait
        room = c.app.state.service.get(game["id"])
        assert not room.ended(), "a game under way was aborted"
        table = ann.get(f"/api/community/arenas/{aid}")
        assert table["games"][0]["id"] == game["id"] and table["games"][0]["on"]


def test_swiss_tournaments_are_listed_and_have_a_page(tmp_path):
    with app_client(tmp_path) as c:
        people = players(c.app, "sue", "tom")
        host, hn = people[0]
        made = host.post(
            "/api/community/swiss",
            {"name": "Winter Swiss", "game": "last-mouse-lost", "options": SMALL_LML, "rounds": 2},
            status=201,
        )
        assert made["created_by"] == hn
        people[1][0].post(f"/api/community/swiss/{made['id']}/join")
        plain = TestClient(c.app)
        listed = plain.get("/api/community/swiss").json()["swiss"]
        assert [(s["id"], s["name"], s["players"], s["status"]) for s in listed] == [
            (made["id"], "Winter Swiss", 1, "open")
        ]
        page = plain.get("/swiss", headers={"accept": "text/html"})
        assert page.status_code == 200 and 'src="/static/js/swiss.js"' in page.text
