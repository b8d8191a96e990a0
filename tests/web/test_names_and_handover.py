"""Issue 26, item 7: names compared after Unicode confusable folding, and an invited seat nobody
has opened is not handed to an AI before a floor (hand_over_after: 1 s no longer does it)."""

from __future__ import annotations

import json
import time

import pytest

from trapworks.server.features import handover as control_module
from trapworks.server.features.names import same_name

from .conftest import create_game
from .test_social_api import answer


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Alice", "\u0410lice", True),  # Cyrillic capital A
        ("alice", "ALICE", True),
        ("Bob", "\uff22ob", True),  # a fullwidth B
        ("paypal", "p\u0430yp\u0430l", True),  # Cyrillic a twice
        ("Olga", "0lga", True),  # a digit zero for the letter O
        ("Alice", "Alicia", False),
        ("Bob", "Rob", False),
    ],
)
def test_names_that_read_alike_are_the_same_name(a, b, same):
    assert same_name(a, b) is same


def test_a_confusable_name_is_refused_beside_the_one_it_imitates(client):
    g = create_game(client)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    assert client.post(f"/api/games/{gid}/name", json={"token": t0, "name": "Alice"}).status_code == 200
    r = client.post(f"/api/games/{gid}/name", json={"token": t1, "name": "\u0410lice"})
    assert r.status_code == 409 and r.json()["code"] == "name_taken"
    with client.websocket_connect(f"/ws/games/{gid}?token={t1}") as ws:
        ws.send_text(json.dumps({"type": "name", "name": "\u0410lic\u0435", "ref": 1}))
        assert answer(ws, 1)["code"] == "name_taken"


def test_an_invited_seat_nobody_opened_is_not_handed_over_before_the_floor(client, monkeypatch):
    g = create_game(client, seats=[{"kind": "human"}, {"kind": "human", "invite": True}], hand_over_after=1)
    gid, t0 = g["id"], g["seats"][0]["token"]
    time.sleep(1.5)
    r = client.post(f"/api/games/{gid}/hand-over", json={"token": t0, "seat": 1})
    assert r.status_code == 409 and r.json()["code"] == "not_gone"
    assert "not opened the link" in r.json()["error"]
    # Past the floor it may be (the floor made short here).
    monkeypatch.setattr(control_module, "HAND_OVER_INVITE_FLOOR_S", 1.0)
    r = client.post(f"/api/games/{gid}/hand-over", json={"token": t0, "seat": 1})
    assert r.status_code == 200, r.text
