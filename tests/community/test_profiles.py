"""What a profile adds (issue 41, deliver 6): results against each opponent, from finished games
only (a game going on counts nothing yet); the trophies are tested with the arena."""

from __future__ import annotations

from fastapi.testclient import TestClient

from web.accounts_helpers import SMALL_LML, play_to_end

from .helpers import app_client, players


def _game(app, x, y_browser, y_name) -> tuple[str, list[str]]:
    sent = x.post(
        "/api/community/challenges",
        {"username": y_name, "game": "last-mouse-lost", "options": SMALL_LML},
        status=201,
    )["challenge"]
    game = y_browser.post(f"/api/community/challenges/{sent['id']}/accept")
    live = app.state.accounts.service.get(game["game_id"])
    return live.id, [s["token"] for s in live.stored.seats]


def test_results_by_opponent(tmp_path):
    with app_client(tmp_path) as c:
        (a, alice), (b, bob), (k, carol) = players(c.app, "alice", "bob", "carol")
        plain = TestClient(c.app)
        for _ in range(2):
            gid, tokens = _game(c.app, a, b, bob)
            end = play_to_end(plain, gid, tokens)
        _game(c.app, a, k, carol)  # still going on: not counted
        record = plain.get(f"/api/community/players/{alice}/record").json()
        assert record["trophies"] == []
        [row] = record["opponents"]
        assert row["username"] == bob and row["played"] == 2 and row["games"] == ["last-mouse-lost"]
        assert row["won"] + row["lost"] + row["drawn"] == 2
        mirrored = plain.get(f"/api/community/players/{bob}/record").json()["opponents"][0]
        assert (mirrored["won"], mirrored["lost"]) == (row["lost"], row["won"])
        assert end["terminal"]
        missing = plain.get("/api/community/players/nobody-here/record")
        assert missing.status_code == 404 and missing.json()["code"] == "no_such_player"
