"""HTTP API of the web server: catalog, creating games, moves, bad input, hints, undo, records."""

import json

import trapworks
from trapworks.core import GameRecord

from .conftest import create_game
from .web_helpers import wait_for


def state_of(client, gid, token):
    r = client.get(f"/api/games/{gid}", params={"token": token})
    assert r.status_code == 200, r.text
    return r.json()["state"]


def test_catalog_lists_every_registered_game_with_its_agents(client):
    games = {g["id"]: g for g in client.get("/api/catalog").json()["games"]}
    assert set(games) == set(trapworks.available_games())
    lml = games["last-mouse-lost"]
    assert lml["players"] == 2
    assert "perfect" in lml["agents"] and "random" in lml["agents"]
    assert lml["renderer"] == "/static/renderers/last-mouse-lost.js"
    assert lml["options"]["rules"] == "basic"


def test_openapi_schema_lists_the_api(client):
    paths = client.get("/openapi.json").json()["paths"]
    for p in (
        "/api/catalog",
        "/api/games",
        "/api/games/{gid}/moves",
        "/api/games/{gid}/record",
        "/api/replay",
    ):
        assert p in paths


def test_check_options_reports_the_games_own_error(client):
    r = client.post("/api/catalog/last-mouse-lost/check", json={"options": {"rules": "expert"}})
    assert r.status_code == 400
    assert "basic or advanced" in r.json()["error"]
    r = client.post("/api/catalog/last-mouse-lost/check", json={"options": {"first_to": 1}})
    assert r.status_code == 200 and r.json()["options"]["first_to"] == 1


def test_two_humans_play_by_http_and_each_move_is_validated_by_the_kernel(client):
    g = create_game(client, options={"first_to": 1})
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    assert g["seats"][0]["link"].endswith(f"/g/{gid}#t={t0}")
    ref = trapworks.make("last-mouse-lost", first_to=1).new_initial_state()
    tokens = [t0, t1]
    while not ref.is_terminal():
        seat = ref.current_player()
        text = ref.action_to_string(ref.legal_actions()[-1])
        r = client.post(
            f"/api/games/{gid}/moves", json={"token": tokens[seat], "action": text, "ply": ref.move_number()}
        )
        assert r.status_code == 200, r.text
        ref.apply_action(ref.string_to_action(text))
        assert r.json()["ply"] == ref.move_number()
    s = state_of(client, gid, t0)
    assert s["terminal"] and s["view"] == ref.view(0) and s["winners"] == ref.winners()


def test_malformed_json_is_a_400_naming_the_problem(client):
    r = client.post(
        "/api/games", content=b'{"game": "last-mouse-lost",', headers={"content-type": "application/json"}
    )
    assert r.status_code == 400
    assert "not valid JSON" in r.json()["error"]


def test_missing_field_is_a_clear_422(client):
    r = client.post("/api/games", json={"options": {}})
    assert r.status_code == 422
    assert "game" in r.json()["error"]


def test_unknown_game_is_404_listing_the_games(client):
    r = client.post("/api/games", json={"game": "chess"})
    assert r.status_code == 404
    assert "last-mouse-lost" in r.json()["error"]
    r = client.get("/api/games/no-such-game", params={"token": "x"})
    assert r.status_code == 404 and "no game" in r.json()["error"]


def test_bad_options_and_bad_seats_are_400(client):
    r = client.post("/api/games", json={"game": "last-mouse-lost", "options": {"colour": "red"}})
    assert r.status_code == 400 and "unknown option" in r.json()["error"]
    r = client.post("/api/games", json={"game": "last-mouse-lost", "seats": [{"kind": "human"}]})
    assert r.status_code == 400 and "one entry per seat: expected 2, got 1" in r.json()["error"]
    r = client.post(
        "/api/games",
        json={
            "game": "last-mouse-lost",
            "seats": [{"kind": "human"}, {"kind": "agent", "agent": "deep-blue"}],
        },
    )
    assert r.status_code == 400 and "unknown agent 'deep-blue'" in r.json()["error"]
    r = client.post("/api/games", json={"game": "last-mouse-lost", "start": "ooo/xx 1"})
    assert r.status_code == 400 and "ooo/xx" in r.json()["error"]


def test_missing_or_wrong_token_is_refused(client):
    g = create_game(client)
    gid = g["id"]
    r = client.get(f"/api/games/{gid}")
    assert r.status_code == 401 and "token" in r.json()["error"]
    r = client.get(f"/api/games/{gid}", params={"token": "not-the-token"})
    assert r.status_code == 403 and "opens no seat" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/moves", json={"token": "not-the-token", "action": "a1", "ply": 0})
    assert r.status_code == 403
    r = client.post(f"/api/games/{gid}/moves", json={"token": "jalapeño", "action": "a1", "ply": 0})
    assert r.status_code == 403
    r = client.post(f"/api/games/{gid}/moves", json={"action": "a1"})
    assert r.status_code == 422 and "token" in r.json()["error"]


def test_illegal_move_and_move_out_of_turn_are_refused_and_change_nothing(client):
    g = create_game(client)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    before = state_of(client, gid, t0)
    r = client.post(f"/api/games/{gid}/moves", json={"token": t0, "action": "z9", "ply": 0})
    assert r.status_code == 422 and "there is no row z" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/moves", json={"token": t0, "action": "a7", "ply": 0})
    assert r.status_code == 422 and "illegal move 'a7'" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/moves", json={"token": t1, "action": "a1", "ply": 0})
    assert r.status_code == 409 and "not your turn" in r.json()["error"] and "Player 1" in r.json()["error"]
    r = client.post(
        f"/api/games/{gid}/moves", json={"token": g["spectator"]["token"], "action": "a1", "ply": 0}
    )
    assert r.status_code == 403 and "spectators" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/moves", json={"token": t0, "action": "a1", "ply": 5})
    assert r.status_code == 409 and "move number 5" in r.json()["error"]
    assert state_of(client, gid, t0) == before
    # ... and the server keeps serving: the same game and another one still play.
    assert (
        client.post(f"/api/games/{gid}/moves", json={"token": t0, "action": "a1", "ply": 0}).status_code
        == 200
    )
    other = create_game(client)
    r = client.post(
        f"/api/games/{other['id']}/moves",
        json={"token": other["seats"][0]["token"], "action": "b2", "ply": 0},
    )
    assert r.status_code == 200


def test_spectator_gets_the_spectator_view(client):
    g = create_game(client)
    s = state_of(client, g["id"], g["spectator"]["token"])
    assert s["seat"] is None
    assert s["view"] == trapworks.make("last-mouse-lost").new_initial_state().view(None)


def test_ai_seat_replies_and_chance_is_resolved_by_the_server(client):
    g = create_game(
        client,
        seats=[{"kind": "human"}, {"kind": "agent", "agent": "perfect"}],
        options={"first_player": "random", "first_to": 1},
        seed=7,
    )
    gid, tok = g["id"], g["seats"][0]["token"]
    # The opener is drawn by the server (a chance action in the log), then the AI moves if it opens.
    s = wait_for(lambda: (st := state_of(client, gid, tok))["to_move"] == 0 and st, what="my turn")
    assert s["log"][0]["seat"] == -1 and s["log"][0]["text"] in ("opener:1", "opener:2")
    while not s["terminal"]:
        ply = s["ply"]
        r = client.post(
            f"/api/games/{gid}/moves",
            json={"token": tok, "action": s["view"]["legal_actions"][0]["text"], "ply": ply},
        )
        assert r.status_code == 200, r.text
        s = wait_for(
            lambda ply=ply: (  # bound now: the loop's next ply must not change what is awaited
                (st := state_of(client, gid, tok))["ply"] > ply + 1
                or st["terminal"]
                and st["ply"] > ply
                and st
            ),
            what="the AI reply",
        )
        s = state_of(client, gid, tok)
    # The perfect agent never loses a round it can win; here it only matters that the match ended
    # and the record replays to the same final view.
    record = GameRecord.from_json(client.get(f"/api/games/{gid}/record", params={"token": tok}).text)
    assert record.replay().view(0) == s["view"]
    assert [e["text"] for e in s["log"]] == record.actions
    # Who sat where, typed (issue 37: the replay page read the labels apart with a pattern).
    assert record.seats == [
        {"kind": "human", "agent": None, "name": None},
        {"kind": "agent", "agent": "perfect", "name": None},
    ]


def test_hint_only_against_ai_or_when_enabled(client):
    g = create_game(client)  # two humans, hints off
    r = client.get(f"/api/games/{g['id']}/hint", params={"token": g["seats"][0]["token"]})
    assert r.status_code == 403 and "hints are allowed only" in r.json()["error"]
    g = create_game(client, hints=True)
    r = client.get(f"/api/games/{g['id']}/hint", params={"token": g["seats"][0]["token"]})
    assert r.status_code == 200 and r.json()["text"].startswith("Press ")  # the solver's move, in words
    r = client.get(f"/api/games/{g['id']}/hint", params={"token": g["seats"][1]["token"]})
    assert r.status_code == 409 and "your own turn" in r.json()["error"]
    g = create_game(
        client,
        seats=[{"kind": "human"}, {"kind": "agent", "agent": "random"}],
        start="o../...../....../....../...../ooo 1 0-0 1",
    )
    hint = client.get(f"/api/games/{g['id']}/hint", params={"token": g["seats"][0]["token"]}).json()
    # The solver's winning move from this position (misère Nim: leave an odd number of single mice).
    from trapworks.games.last_mouse_lost import solve_position

    assert hint["move"] == solve_position("o../...../....../....../...../ooo 1 0-0 1").move


def test_undo_against_ai_takes_back_my_move_and_the_reply(client):
    g = create_game(client, seats=[{"kind": "human"}, {"kind": "agent", "agent": "random"}], seed=3)
    gid, tok = g["id"], g["seats"][0]["token"]
    start = state_of(client, gid, tok)
    assert not start["can_undo"]
    assert (
        client.post(f"/api/games/{gid}/moves", json={"token": tok, "action": "c2", "ply": 0}).status_code
        == 200
    )
    wait_for(lambda: state_of(client, gid, tok)["ply"] == 2, what="the AI reply")
    assert state_of(client, gid, tok)["can_undo"]
    r = client.post(f"/api/games/{gid}/undo", json={"token": tok})
    assert r.status_code == 200 and r.json()["ply"] == 0
    after = state_of(client, gid, tok)
    assert after["view"] == start["view"] and after["log"] == []
    r = client.post(f"/api/games/{gid}/undo", json={"token": tok})
    assert r.status_code == 409 and "no move to take back" in r.json()["error"]
    two = create_game(client)
    r = client.post(f"/api/games/{two['id']}/undo", json={"token": two["seats"][0]["token"]})
    assert r.status_code == 403 and "only for a game against AI" in r.json()["error"]


def test_record_download_and_replay_steps(client):
    g = create_game(client, options={"first_to": 1})
    gid, toks = g["id"], [g["seats"][0]["token"], g["seats"][1]["token"]]
    for ply, text in enumerate(["a*", "b*", "c*"]):
        assert (
            client.post(
                f"/api/games/{gid}/moves", json={"token": toks[ply % 2], "action": text, "ply": ply}
            ).status_code
            == 200
        )
    r = client.get(f"/api/games/{gid}/record", params={"token": g["spectator"]["token"]})
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = json.loads(r.text)
    assert record["format"] == "trapworks-record" and record["actions"] == ["a3", "b5", "c6"]
    rep = client.post("/api/replay", json={"record": record}).json()
    assert len(rep["steps"]) == 4 and rep["renderer"].endswith("last-mouse-lost.js")
    assert rep["steps"][3]["view"] == GameRecord.from_dict(record).replay().view(None)
    assert rep["steps"][1]["last_action"] == {
        "ply": 0,
        "seat": 0,
        "text": "a3",
        "story": {
            "seat": 0,
            "lines": [{"msg": "last_mouse_lost.pressed", "args": {"who": 0, "n": 3, "row": "a"}}],
        },
    }
    bad = dict(record, actions=["a3", "a3"])
    r = client.post("/api/replay", json={"record": bad})
    assert r.status_code == 400 and "step 2" in r.json()["error"]
    r = client.post("/api/replay", json={"record": {"format": "chess-pgn"}})
    assert r.status_code == 400 and "not a trapworks record" in r.json()["error"]


def test_pages_are_served(client):
    gid = create_game(client)["id"]  # issue 41: a game of no id is the 404 page
    for path in (
        "/",
        f"/g/{gid}",
        "/replay",
        "/static/js/game.js",
        "/static/renderers/last-mouse-lost.js",
        "/static/renderers/generic.js",
    ):
        assert client.get(path).status_code == 200, path


def test_an_overlong_action_text_is_refused_without_echoing_it(client):
    g = create_game(client)
    r = client.post(
        f"/api/games/{g['id']}/moves", json={"token": g["seats"][0]["token"], "action": "a" * 5000, "ply": 0}
    )
    assert r.status_code == 400 and "at most 200 characters" in r.json()["error"]
    assert len(r.text) < 300
