"""The log the server sends: the kernel's words per ply (story), the same after a reload and after
a restart of the game from the store, a seat's private lines only to that seat, and the moment
behind a log line (GET /api/games/{id}/moment/{ply}) as that seat saw it."""

import json

import trapworks

from .conftest import create_game


def state_of(client, gid, token):
    r = client.get(f"/api/games/{gid}", params={"token": token})
    assert r.status_code == 200, r.text
    return r.json()["state"]


def test_log_is_keyed_by_ply_and_the_same_after_reload_and_restart(client):
    g = create_game(client, options={"first_to": 1})
    t0, t1 = (s["token"] for s in g["seats"])
    for ply, (token, action) in enumerate(((t0, "a1"), (t1, "b2"), (t0, "c3"))):
        r = client.post(f"/api/games/{g['id']}/moves", json={"token": token, "action": action, "ply": ply})
        assert r.status_code == 200, r.text
    first = state_of(client, g["id"], t0)["log"]
    assert [e["ply"] for e in first] == [0, 1, 2]
    # Typed lines (issue 37): a message id and its arguments, the seat as a number.
    assert [e["story"]["lines"][0] for e in first] == [
        {"msg": "last_mouse_lost.pressed", "args": {"who": 0, "n": 1, "row": "a"}},
        {"msg": "last_mouse_lost.pressed", "args": {"who": 1, "n": 2, "row": "b"}},
        {"msg": "last_mouse_lost.pressed", "args": {"who": 0, "n": 3, "row": "c"}},
    ]
    assert [e["story"]["seat"] for e in first] == [0, 1, 0]
    assert state_of(client, g["id"], t0)["log"] == first  # a reload: the same entries, no more
    # The game dropped from memory and rebuilt from the store: the words are rebuilt the same.
    client.app.state.service.live.clear()
    assert state_of(client, g["id"], t0)["log"] == first


def test_private_lines_are_sent_only_to_their_seat(client):
    g = create_game(client, game="booby-trap")
    t0, t1 = (s["token"] for s in g["seats"])
    r = client.post(f"/api/games/{g['id']}/moves", json={"token": t0, "action": "touch 3", "ply": 0})
    assert r.status_code == 200, r.text
    mine = state_of(client, g["id"], t0)["log"][0]["story"]["lines"]
    theirs = state_of(client, g["id"], t1)["log"][0]["story"]["lines"]
    spectator = state_of(client, g["id"], g["spectator"]["token"])["log"][0]["story"]["lines"]
    assert any(line["msg"] == "booby_trap.feels" and line["args"]["piece"] == 3 for line in mine)
    assert theirs == spectator and all(line["msg"] != "booby_trap.feels" for line in theirs)
    assert any(line["msg"] == "booby_trap.touches" and line["args"]["who"] == 0 for line in theirs)
    assert len(theirs) == len(mine) - 1


def test_a_moment_is_the_seats_view_after_that_many_moves(client):
    # Two humans: no chosen seed (it would fix every secret); the reference starts from the same
    # setup seed, which the server derived from the game's secret key.
    g = create_game(client, game="dead-end-drive", options={"players": 2})
    tokens = [s["token"] for s in g["seats"]]
    ply = state_of(client, g["id"], tokens[0])["ply"]  # chance (who starts, the portrait, the dice)
    assert ply >= 1
    game = trapworks.make("dead-end-drive", players=2)
    reference = game.new_initial_state(seed=client.app.state.service.live[g["id"]].state.seed)
    stored = client.app.state.service.live[g["id"]].log  # (seat, text): chance texts are secret
    for _seat, text in stored[:1]:
        reference.apply_action(reference.string_to_action(text))
    for seat in (0, 1):
        r = client.get(f"/api/games/{g['id']}/moment/1", params={"token": tokens[seat]})
        assert r.status_code == 200, r.text
        moment = r.json()
        assert moment["ply"] == 1 and moment["moment"] and not moment["can_undo"]
        assert moment["view"] == json.loads(json.dumps(reference.view(seat)))
    r = client.get(f"/api/games/{g['id']}/moment/999", params={"token": tokens[0]})
    assert r.status_code == 400 and "move 999 is not in this game" in r.json()["error"]
    r = client.get(f"/api/games/{g['id']}/moment/1", params={"token": "nope"})
    assert r.status_code == 403


def test_the_log_tells_a_touch_in_words_and_not_its_measured_tension(client):
    """Issue 39: the log read "You feel piece 3: firm (tension 0.34)": a number a new player cannot
    use. It says the feel in words, as the gauge does; the number stays on demand (the gauge)."""
    import re

    from trapworks.core.messages import format_message
    from trapworks.games.booby_trap.game import BoobyTrapGame

    g = create_game(client, game="booby-trap")
    t0 = g["seats"][0]["token"]
    r = client.post(f"/api/games/{g['id']}/moves", json={"token": t0, "action": "touch 3", "ply": 0})
    assert r.status_code == 200, r.text
    lines = state_of(client, g["id"], t0)["log"][0]["story"]["lines"]
    felt = next(line for line in lines if line["msg"] == "booby_trap.feels")
    word = felt["args"]["feel"]["msg"]
    for lang in ("en", "fr"):
        text = format_message(felt, BoobyTrapGame, lang, viewer=0)
        assert format_message({"msg": word}, BoobyTrapGame, lang).lower() in text, text
        assert not re.search(r"\d[.,]\d", text) and "tension" not in text, text
