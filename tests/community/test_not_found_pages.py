"""A real 404 page for what does not exist (issue 41, the judge: an unknown player's profile and
an unknown game or replay id showed an empty page with status 200): the site's own 404 page, with
the 404 status, for a browser; the API's JSON refusal for anything else. The pages that do exist
still open (a player by /u/ and lichess's /@/, a game, its replay)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .helpers import app_client, players

HTML = {"accept": "text/html,application/xhtml+xml"}


def test_unknown_players_and_games_are_the_sites_404_page(tmp_path):
    with app_client(tmp_path) as c:
        ((_b, name),) = players(c.app, "zoe")
        plain = TestClient(c.app)
        for path in ("/u/nobody-here", "/@/nobody-here", "/g/nosuchgame", "/replay/nosuchgame"):
            r = plain.get(path, headers=HTML)
            assert r.status_code == 404, path
            assert 'data-testid="not-found"' in r.text, path
            assert "profile.js" not in r.text and "game.js" not in r.text and "replay.js" not in r.text, path
        # not a browser's page: the API's typed refusal
        r = plain.get("/u/nobody-here")
        assert r.status_code == 404 and r.json()["code"] == "no_such_player"
        # what exists opens
        assert plain.get(f"/u/{name}", headers=HTML).status_code == 200
        r = plain.get(f"/@/{name.upper()}", headers=HTML, follow_redirects=False)
        assert r.status_code == 302 and r.headers["location"] == f"/u/{name}"
        made = plain.post(
            "/api/games",
            json={"game": "last-mouse-lost", "seats": [{"kind": "human"}, {"kind": "human"}]},
        ).json()
        assert plain.get(f"/g/{made['id']}", headers=HTML).status_code == 200
        assert plain.get(f"/replay/{made['id']}", headers=HTML).status_code == 200
