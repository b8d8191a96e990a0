"""Fair play in the web app (issue 13): chance fixed per ply, so undo then the same move replays
the same outcomes; against AI undo never crosses a revealed outcome unless the game was created
as practice (stored, in the record, on the page); no undo after the end."""

from __future__ import annotations

import pytest

import trapworks

from .conftest import create_game
from .web_helpers import wait_for

# (game, options, the AI) in games where a human move is followed by chance or a physics result.
GAMES = [
    ("mouse-trap", {"players": 2}, "heuristic"),
    ("dead-end-drive", {"players": 2, "first_player": 1}, "heuristic"),
    ("last-mouse-lost", {"first_player": "random", "first_to": 2}, "perfect"),
    ("booby-trap", {"pieces_per_size": 4}, "heuristic"),
]


def live_of(client, gid):
    return client.app.state.service.live[gid]


def state_of(client, gid, tok):
    r = client.get(f"/api/games/{gid}", params={"token": tok})
    assert r.status_code == 200, r.text
    return r.json()


def my_turn(client, gid, tok):
    def ready():
        s = state_of(client, gid, tok)["state"]
        return s if s["terminal"] or s["to_move"] == 0 else None

    return wait_for(ready, what="my turn")


def revealed_after(log, ply):
    """The outcomes nobody chose right after my move at `ply`: chance plies (seat -1), or for
    Booby Trap my own next action's physics (kept in the server's log as the action text)."""
    out = []
    for seat, text in log[ply + 1 :]:
        if seat != -1:
            break
        out.append(text)
    return out


@pytest.mark.parametrize("game_id,options,ai", GAMES)
def test_practice_undo_then_redo_replays_the_same_outcomes(client, game_id, options, ai):
    g = create_game(
        client,
        game=game_id,
        options=options,
        seats=[{"kind": "human"}, {"kind": "agent", "agent": ai}],
        seed=11,
        practice=True,
    )
    gid, tok = g["id"], g["seats"][0]["token"]
    assert state_of(client, gid, tok)["info"]["practice"] is True
    live = live_of(client, gid)
    for _ in range(40):  # play my first legal move until one is followed by a revealed outcome
        s = my_turn(client, gid, tok)
        assert not s["terminal"]
        ply = s["ply"]
        action = s["view"]["legal_actions"][0]["text"] if game_id == "booby-trap" else None
        if action is None:
            st = live.state
            action = st.action_to_string(st.legal_actions()[0])
        r = client.post(f"/api/games/{gid}/moves", json={"token": tok, "action": action, "ply": ply})
        assert r.status_code == 200, r.text
        my_turn(client, gid, tok)
        before_log = list(live.log)
        before_state = live.state
        seen = revealed_after(before_log, ply)
        # Last Mouse Lost's only chance is the opener, drawn before the first move: undoing that
        # move must leave it as it was.
        opener = game_id == "last-mouse-lost" and before_log[0][0] == -1
        if seen or opener or (game_id == "booby-trap" and before_state.revealed_upto() > ply):
            break
    else:
        pytest.fail("no revealed outcome after 40 moves")
    r = client.post(f"/api/games/{gid}/undo", json={"token": tok})
    assert r.status_code == 200, r.text
    assert r.json()["ply"] == ply
    r = client.post(f"/api/games/{gid}/moves", json={"token": tok, "action": action, "ply": ply})
    assert r.status_code == 200, r.text
    my_turn(client, gid, tok)
    after_log = live_of(client, gid).log
    # The same move, and the same outcomes before and right after it.
    assert after_log[: ply + 1 + len(seen)] == before_log[: ply + 1 + len(seen)]
    assert revealed_after(after_log, ply) == seen
    if game_id == "booby-trap":  # the touch's reading is the same again
        assert live_of(client, gid).state.readings[0][-1] == before_state.readings[0][-1]
    record = client.get(f"/api/games/{gid}/record", params={"token": tok})
    if record.status_code == 200:
        assert record.json()["practice"] is True


def test_undo_refused_across_a_revealed_die_against_ai(client):
    g = create_game(
        client,
        game="mouse-trap",
        options={"players": 2},
        seats=[{"kind": "human"}, {"kind": "agent", "agent": "heuristic"}],
        seed=4,
    )
    gid, tok = g["id"], g["seats"][0]["token"]
    assert state_of(client, gid, tok)["info"]["practice"] is False
    r = client.post(f"/api/games/{gid}/moves", json={"token": tok, "action": "roll", "ply": 0})
    assert r.status_code == 200, r.text
    s = my_turn(client, gid, tok)
    assert s["can_undo"] is False  # the page greys the button out ...
    # ... and says why on it (issue 39: a greyed-out Undo said nothing): the refusal, typed.
    assert s["undo_why"]["msg"].startswith("that would take back a revealed outcome")
    r = client.post(f"/api/games/{gid}/undo", json={"token": tok})
    assert r.status_code == 409 and r.json()["code"] == "outcome_revealed"
    assert "revealed outcome" in r.json()["error"]
    record = client.get(f"/api/games/{gid}/record", params={"token": tok}).json()
    assert record["practice"] is False


def test_undo_refused_after_a_booby_trap_removal_against_ai(client):
    g = create_game(
        client,
        game="booby-trap",
        options={"pieces_per_size": 4},
        seats=[{"kind": "human"}, {"kind": "agent", "agent": "heuristic"}],
        seed=2,
    )
    gid, tok = g["id"], g["seats"][0]["token"]
    s = my_turn(client, gid, tok)
    piece = s["view"]["legal_actions"][0]["text"]
    move = {"token": tok, "action": piece, "ply": s["ply"]}
    assert client.post(f"/api/games/{gid}/moves", json=move).status_code == 200
    r = client.post(f"/api/games/{gid}/undo", json={"token": tok})
    assert r.status_code == 409 and r.json()["code"] == "outcome_revealed"  # no feeling a second piece
    move = {"token": tok, "action": "remove", "ply": s["ply"] + 1}
    assert client.post(f"/api/games/{gid}/moves", json=move).status_code == 200
    my_turn(client, gid, tok)
    r = client.post(f"/api/games/{gid}/undo", json={"token": tok})
    assert r.status_code == 409 and r.json()["code"] == "outcome_revealed"


def test_no_undo_after_the_end_even_in_practice(client):
    g = create_game(
        client,
        options={"first_to": 1},
        seats=[{"kind": "human"}, {"kind": "agent", "agent": "random"}],
        seed=1,
        practice=True,
    )
    gid, tok = g["id"], g["seats"][0]["token"]
    for _ in range(40):
        s = my_turn(client, gid, tok)
        if s["terminal"]:
            break
        text = s["view"]["legal_actions"][-1]["text"] if "legal_actions" in s["view"] else None
        st = live_of(client, gid).state
        text = st.action_to_string(st.legal_actions()[-1])
        client.post(f"/api/games/{gid}/moves", json={"token": tok, "action": text, "ply": s["ply"]})
    assert state_of(client, gid, tok)["state"]["terminal"]
    assert state_of(client, gid, tok)["state"]["can_undo"] is False
    assert "no undo after the end" in state_of(client, gid, tok)["state"]["undo_why"]["msg"]
    r = client.post(f"/api/games/{gid}/undo", json={"token": tok})
    assert r.status_code == 409 and r.json()["code"] == "game_over"
    assert "no undo after the end" in r.json()["error"]


def test_practice_flag_survives_a_restart(db_url):
    from fastapi.testclient import TestClient

    from trapworks.server import create_app

    with TestClient(create_app(db_url)) as c:
        g = create_game(c, practice=True, seats=[{"kind": "human"}, {"kind": "agent", "agent": "random"}])
    with TestClient(create_app(db_url)) as c:
        assert state_of(c, g["id"], g["seats"][0]["token"])["info"]["practice"] is True
    assert trapworks.make("last-mouse-lost")  # the app's games still load


def test_the_oracle_is_not_offered_and_cannot_sit(client):
    """Booby Trap's oracle reads the true stress network: never in the lobby, refused as a seat."""
    games = {g["id"]: g for g in client.get("/api/catalog").json()["games"]}
    assert "oracle" not in games["booby-trap"]["agents"] and "hard" in games["booby-trap"]["agents"]
    r = client.post(
        "/api/games",
        json={"game": "booby-trap", "seats": [{"kind": "human"}, {"kind": "agent", "agent": "oracle"}]},
    )
    assert r.status_code == 400 and "unknown agent 'oracle'" in r.json()["error"]


def test_a_database_from_before_the_practice_column_is_upgraded(tmp_path):
    import sqlite3

    from fastapi.testclient import TestClient

    from trapworks.server import create_app

    path = tmp_path / "old.sqlite"
    url = f"sqlite:///{path}"
    with TestClient(create_app(url)) as c:
        old = create_game(c, seats=[{"kind": "human"}, {"kind": "agent", "agent": "random"}])
    con = sqlite3.connect(path)
    con.execute("ALTER TABLE games DROP COLUMN practice")  # the table as it was made before
    # ... and before migrations: no revision stamped, no table added by a migration since.
    con.execute("DROP TABLE alembic_version")
    con.execute("DROP TABLE timer_claims")
    con.commit()
    con.close()
    with TestClient(create_app(url)) as c:
        assert state_of(c, old["id"], old["seats"][0]["token"])["info"]["practice"] is False
        new = create_game(c, practice=True, seats=[{"kind": "human"}, {"kind": "agent", "agent": "random"}])
        assert state_of(c, new["id"], new["seats"][0]["token"])["info"]["practice"] is True
