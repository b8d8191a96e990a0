"""Kernel hidden chance through the server (issue 30): a 13 Dead End Drive game with deal=chance and a
Booby Trap game with noise=chance, read through the HTTP API as each seat and the spectator would
read them: the hidden chance plies' texts are secret to all (the log gives null and no line), a
seat's view holds only its own cards, and the record (which shows everything) waits for the end."""

from __future__ import annotations

import json

from .conftest import create_game


def snapshot(client, gid, token):
    r = client.get(f"/api/games/{gid}", params={"token": token})
    assert r.status_code == 200, r.text
    return r.json()["state"]


def test_a_chance_dealt_game_reads_as_each_seat_may_know_it(client):
    created = create_game(
        client,
        "dead-end-drive",
        seats=[{"kind": "human"}, {"kind": "human"}],
        options={"players": 2, "deal": "chance"},
    )
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    spectator = created["spectator"]["token"]
    mine = snapshot(client, gid, tokens[0])
    assert len(mine["view"]["my_characters"]) == 4
    # 12 cards dealt (4 + 4 + two secret pairs), one ply each, every one secret and wordless
    deal = mine["log"][:12]
    assert [e["seat"] for e in deal] == [-1] * 12
    for token in [*tokens, spectator]:
        state = snapshot(client, gid, token)
        for entry in state["log"][:12]:
            assert entry["text"] is None and entry["story"]["lines"] == []
        text = json.dumps(state["log"])
        assert "deal " not in text and "top card" not in text
    theirs = snapshot(client, gid, tokens[1])["view"]
    assert theirs["my_characters"] and not set(theirs["my_characters"]) & set(mine["view"]["my_characters"])
    assert snapshot(client, gid, spectator)["view"]["my_characters"] == []
    r = client.get(f"/api/games/{gid}/record", params={"token": tokens[0]})
    assert r.status_code == 403 and "hidden information" in r.text


def test_a_touch_with_chance_noise_reads_only_to_the_toucher(client):
    created = create_game(
        client,
        "booby-trap",
        seats=[{"kind": "human"}, {"kind": "human"}],
        options={"pieces_per_size": 2, "setup": "chance", "noise": "chance"},
    )
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    spectator = created["spectator"]["token"]
    state = snapshot(client, gid, tokens[0])
    assert len(state["log"]) == 2  # the tray and the placement, both played by chance
    piece = state["view"]["touchable"][0]
    r = client.post(
        f"/api/games/{gid}/moves", json={"token": tokens[0], "action": f"touch {piece}", "ply": 2}
    )
    assert r.status_code == 200, r.text
    mine = snapshot(client, gid, tokens[0])
    assert mine["ply"] == 4  # the touch, then its noise (a chance ply)
    assert mine["view"]["reading"]["piece"] == piece and mine["view"]["my_readings"]
    noise = mine["log"][3]
    assert noise["seat"] == -1 and noise["text"] is None
    assert any(line["msg"] == "booby_trap.feels" for line in noise["story"]["lines"])
    for token in (tokens[1], spectator):
        other = snapshot(client, gid, token)
        assert other["view"]["reading"] is None and other["view"]["my_readings"] == []
        assert other["log"][3]["text"] is None and other["log"][3]["story"]["lines"] == []
        assert "noise" not in json.dumps(other["log"]) and "You feel" not in json.dumps(other)
