"""Swiss tournaments for correspondence play (issue 41, deliver 3): pairing rules (no rematch,
equal scores together, one bye for the odd player, lowest score first), and a tournament of five
accounts over three rounds played to the end: each round paired once when the last game of the
one before ends, byes scored, Buchholz in the standings, the podium's trophies; joining once it
started is refused."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from trapworks.server.community.swiss import pair
from web.accounts_helpers import SMALL_LML, play_to_end

from .helpers import app_client, players


def test_pairing_never_repeats_and_keeps_equal_scores_together():
    halves = {1: 4, 2: 4, 3: 2, 4: 2, 5: 0, 6: 0}
    pairs, bye = pair(halves, {}, {})
    assert bye is None and pairs == [(1, 2), (3, 4), (5, 6)]
    met = {1: {2}, 2: {1}, 3: {4}, 4: {3}, 5: {6}, 6: {5}}
    pairs, _ = pair(halves, met, {})
    assert all(b not in met[a] for a, b in pairs) and len(pairs) == 3
    odd = {1: 2, 2: 2, 3: 0}
    pairs, bye = pair(odd, {}, {})
    assert bye == 3 and pairs == [(1, 2)]
    pairs, bye = pair(odd, {}, {3: 1})  # 3 had a bye: the next lowest gets it
    assert bye in (1, 2) and len(pairs) == 1


def test_a_swiss_tournament_of_five_over_three_rounds(tmp_path):
    with app_client(tmp_path) as c:
        people = players(c.app, "ann", "ben", "cat", "dan", "eve")
        (host, _hn) = people[0]
        made = host.post(
            "/api/community/swiss",
            {
                "name": "Autumn Swiss",
                "game": "last-mouse-lost",
                "options": SMALL_LML,
                "rounds": 3,
                "days_per_move": 2,
            },
            status=201,
        )
        sid = made["id"]
        for b, _n in people:
            b.post(f"/api/community/swiss/{sid}/join")
        assert people[1][0].post(f"/api/community/swiss/{sid}/start", status=403)["code"] == "not_yours"
        started = host.post(f"/api/community/swiss/{sid}/start")
        assert started["round"] == 1 and len(started["games"]) == 2
        late = players(c.app, "fay")[0][0]
        assert late.post(f"/api/community/swiss/{sid}/join", status=409)["code"] == "swiss_started"
        swiss = c.app.state.arenas.swiss
        plain = TestClient(c.app)
        for round_no in (1, 2, 3):
            # the round may be being paired by this node's loop right now: its games come in a moment
            deadline = time.monotonic() + 30
            while True:
                table = plain.get(f"/api/community/swiss/{sid}").json()
                if table["status"] == "running" and table["round"] == round_no or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            assert table["round"] == round_no and table["status"] == "running"
            games = [g for g in table["games"] if g["round"] == round_no]
            assert len(games) == 2
            for g in games:
                live = c.app.state.accounts.service.get(g["id"])
                assert live.control.data["clock"]["seconds"] == 2 * 86400  # correspondence: 2 days a move
                play_to_end(plain, g["id"], [s["token"] for s in live.stored.seats])
            c.portal.call(swiss.tick)
        final = plain.get(f"/api/community/swiss/{sid}").json()
        assert final["status"] == "finished" and len(final["games"]) == 6
        rows = final["standings"]
        for r in rows:  # nobody met anyone twice; a bye each for three of them at most once
            assert len(r["opponents"]) == len(set(r["opponents"]))
            assert r["byes"] <= 1
        assert sum(r["byes"] for r in rows) == 3
        assert sum(r["points"] for r in rows) == pytest.approx(6 + 3)  # 6 games, 3 byes
        assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5]
        assert all(isinstance(r["buchholz"], float) for r in rows)
        winner = rows[0]["username"]
        trophies = plain.get(f"/api/community/players/{winner}/trophies").json()["trophies"]
        assert trophies[0]["name"] == "Autumn Swiss" and trophies[0]["place"] == 1
