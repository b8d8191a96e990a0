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


def six_joined(node, name):
    """Six players on `node` who have joined a new two-round Swiss of Last Mouse Lost: (people, id)."""
    people = players(node.app, "ann", "ben", "cat", "dan", "eve", "fay")
    sid = people[0][0].post(
        "/api/community/swiss",
        {"name": name, "game": "last-mouse-lost", "options": SMALL_LML, "rounds": 2},
        status=201,
    )["id"]
    for b, _n in people:
        b.post(f"/api/community/swiss/{sid}/join")
    return people, sid


def test_a_round_whose_pairing_node_is_lost_is_finished_by_another_node(tmp_path):
    """Node 1 claims round 1 and is lost after making one of its three games (its game creation
    fails from then on, as a process killed there would: the round stays "pairing", its plan in
    the database). Node 2, a second app on the same database, leaves it alone while node 1's
    lease runs, then takes the pairing over: the two games still planned are made, the one made
    stays, nobody is paired twice, and the tournament runs."""
    from sqlalchemy import update

    from trapworks.server import create_app
    from trapworks.server.community.models import SwissRow
    from trapworks.server.errors import ServiceError

    with app_client(tmp_path) as node1:
        people, sid = six_joined(node1, "Lost node")
        service = node1.app.state.service
        made_before = service.create
        made = []

        async def lost_after_one(request, **chosen):
            if made:
                raise ServiceError(503, "node_lost", "this node is gone")
            live = await made_before(request, **chosen)
            made.append(live.id)
            return live

        service.create = lost_after_one
        people[0][0].post(f"/api/community/swiss/{sid}/start", status=503)  # the host
        stuck = TestClient(node1.app).get(f"/api/community/swiss/{sid}").json()
        assert stuck["status"] == "pairing" and [g["id"] for g in stuck["games"]] == made
        (tmp_path / "node2").mkdir()
        with TestClient(
            create_app(f"sqlite:///{tmp_path / 'community.sqlite'}", data_dir=tmp_path / "node2")
        ) as node2:
            swiss2 = node2.app.state.arenas.swiss
            node2.portal.call(swiss2.take_over)  # node 1's lease still runs: not taken
            assert node2.get(f"/api/community/swiss/{sid}").json()["status"] == "pairing"
            with swiss2.c.db.begin() as s:  # node 1's lease runs out (without waiting its 30 s)
                s.execute(update(SwissRow).where(SwissRow.id == sid).values(pairing_until=time.time() - 1))
            # This tick, or node 2's own timer if it came first (it may be making the games while
            # this tick finds the lease taken), finishes the round.
            deadline = time.monotonic() + 60
            while True:
                node2.portal.call(swiss2.tick)
                table = node2.get(f"/api/community/swiss/{sid}").json()
                if table["status"] != "pairing" or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            assert table["status"] == "running" and table["round"] == 1
            games = table["games"]
            assert len(games) == 3 and made[0] in [g["id"] for g in games]  # the game made stays
            seated = [p for g in games for p in g["players"]]
            assert sorted(seated) == sorted(n for _b, n in people)  # each player once: nobody twice
            for r in table["standings"]:
                assert len(r["opponents"]) == 1 and r["byes"] == 0
            node2.portal.call(swiss2.tick)  # again: nothing more is made
            assert len(node2.get(f"/api/community/swiss/{sid}").json()["games"]) == 3


def test_a_game_made_by_a_node_lost_before_recording_it_is_not_made_again(tmp_path):
    """Node 1 makes round 1's second game and is lost before it records the game in the round
    (its planned row stays planned: a kill -9 between the two steps). Node 2 takes the pairing over:
    it finds that game (its id was chosen with the plan) instead of making a second one for the
    same two players: three games in the store for three pairs, each player seated once."""
    from sqlalchemy import func, select, update

    from trapworks.server import create_app
    from trapworks.server.accounts.models import AccountSeatRow
    from trapworks.server.community.models import SwissRow
    from trapworks.server.errors import ErrorCode, ServiceError
    from trapworks.server.store import GameRow

    with app_client(tmp_path) as node1:
        people, sid = six_joined(node1, "Lost in between")
        service = node1.app.state.service
        made_before = service.create
        made = []

        async def lost_after_making_the_second(request, **chosen):
            if len(made) == 2:
                raise ServiceError(ErrorCode.STORAGE_UNAVAILABLE, "this node is gone")
            live = await made_before(request, **chosen)
            made.append(live.id)
            if len(made) == 2:  # made and stored, never recorded in the round
                raise ServiceError(ErrorCode.STORAGE_UNAVAILABLE, "this node is gone")
            return live

        service.create = lost_after_making_the_second
        people[0][0].post(f"/api/community/swiss/{sid}/start", status=503)  # the host
        (tmp_path / "node2").mkdir()
        with TestClient(
            create_app(f"sqlite:///{tmp_path / 'community.sqlite'}", data_dir=tmp_path / "node2")
        ) as node2:
            swiss2 = node2.app.state.arenas.swiss
            with swiss2.c.db.begin() as s:  # node 1's lease runs out
                s.execute(update(SwissRow).where(SwissRow.id == sid).values(pairing_until=time.time() - 1))
            node2.portal.call(swiss2.tick)
            table = node2.get(f"/api/community/swiss/{sid}").json()
            assert table["status"] == "running"
            assert set(made) <= {g["id"] for g in table["games"]}  # both games node 1 made: the round's
            with swiss2.c.db() as s:
                stored = s.scalar(select(func.count()).select_from(GameRow))
                seats = s.execute(
                    select(AccountSeatRow.account_id, func.count()).group_by(AccountSeatRow.account_id)
                ).all()
            assert stored == 3, f"{stored} games stored for the round's 3 pairs"
            assert len(seats) == 6 and all(n == 1 for _a, n in seats)  # each player seated once
