"""Claiming the game against a player who left (issue 39, server/features/claim.py), over the API.

A seat whose player has had no connection for the game's wait (`hand_over_after`) may be claimed
against by another player: the seat is out ("left the game" in the record) and the kernel's
forfeit policy ends a two-player game with the claimer the winner. Before the wait, for oneself,
for a spectator or after the end, the claim is refused with an error that names the problem.
This test failed before issue 39 (no /claim-win route: 404).
"""

from __future__ import annotations

import time

from .conftest import create_game

SMALL = {"board": [1, 2, 3], "first_to": 1}


def post(client, gid, **body):
    return client.post(f"/api/games/{gid}/claim-win", json=body)


def state(client, gid, token):
    return client.get(f"/api/games/{gid}", params={"token": token}).json()["state"]


def test_a_player_who_left_can_be_claimed_against_after_the_wait(client):
    g = create_game(client, options=SMALL, hand_over_after=1)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    spectator = g["spectator"]["token"]
    with client.websocket_connect(f"/ws/games/{gid}?token={t0}") as ws:
        ws.receive_json()  # hello
        ws.receive_json()  # the state
        first = post(client, gid, token=t0, seat=1)
        # Seat 2 may have been gone a second already by the time the socket is open: either the
        # claim is refused as too early, or (a slow machine) it is the first to pass.
        if first.status_code == 409:
            assert first.json()["code"] == "not_gone" and "no connection for 1 s" in first.json()["error"]
            deadline = time.monotonic() + 10
            while True:  # the offer comes to seat 1's page once the wait is over
                frame = ws.receive_json()
                msgs = frame if isinstance(frame, list) else [frame]
                # An update leaves controls out when they did not change (`kept`).
                if any(
                    m.get("type") == "state" and m.get("controls", {}).get("claimable") == [1] for m in msgs
                ):
                    break
                assert time.monotonic() < deadline, "no claim offered"
            assert post(client, gid, token=spectator, seat=1).json()["code"] == "spectator"
            assert post(client, gid, token=t0, seat=0).json()["code"] == "not_gone"  # not oneself
            assert post(client, gid, token=t0, seat=9).json()["code"] == "bad_seat"
            first = post(client, gid, token=t0, seat=1)
        assert first.status_code == 200, first.text
        assert first.json()["ended"] is True
    s = state(client, gid, t0)
    assert s["terminal"] and s["winners"] == [0]
    assert s["ending"]["forfeits"][0]["seat"] == 1 and s["ending"]["forfeits"][0]["reason"] == "left"
    assert s["controls"]["claimable"] == []
    again = post(client, gid, token=t0, seat=1)
    assert again.status_code == 409 and again.json()["code"] == "game_over"
    record = client.get(f"/api/games/{gid}/record", params={"token": t1}).json()
    assert record["forfeits"] == [{"seat": 1, "reason": "left", "ply": 0}]
