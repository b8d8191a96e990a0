"""The countdown to a claim (issue 41, the judge: the opponent's "claim the win" came only after
~125 s with no sign of it coming): from the moment an opponent is gone (past a reload's grace), the
other player's update says in how many seconds the claim is offered (`controls.claim_in`), and the
page counts down from it (js/claim.js, loaded as the feature's script); the opponent back, it goes.
This failed before: no `claim_in`, no script."""

from __future__ import annotations

import time

from trapworks.server.features.claim import Claim

from .conftest import create_game

SMALL = {"board": [1, 2, 3], "first_to": 1}


def _state_with(ws, ok, limit_s=20.0):
    """The first state message from `ws` whose controls `ok` accepts."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        frame = ws.receive_json()
        for m in frame if isinstance(frame, list) else [frame]:
            if m.get("type") == "state" and "controls" in m and ok(m["controls"]):
                return m
    raise AssertionError("no such state message came")


def test_a_player_sees_when_they_may_claim_against_an_opponent_gone(client):
    client.app.state.service.feature(Claim).gone_grace_s = 0.3
    g = create_game(client, options=SMALL, hand_over_after=60)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    with client.websocket_connect(f"/ws/games/{gid}?token={t0}") as ws0:
        hello = ws0.receive_json()
        assert "/static/js/claim.js" in hello["info"]["features"]
        # seat 2 never came: once the grace is over, seat 1 is told when the claim comes
        m = _state_with(ws0, lambda c: c.get("claim_in"))
        assert list(m["controls"]["claim_in"]) == ["1"]
        assert 0 < m["controls"]["claim_in"]["1"] <= 60
        assert m["controls"]["claimable"] == []
        with client.websocket_connect(f"/ws/games/{gid}?token={t1}") as ws1:
            ws1.receive_json()
            # back: the countdown goes
            _state_with(ws0, lambda c: c.get("claim_in") == {})
            # seat 2 sees no countdown against seat 1, who is here
            s1 = client.get(f"/api/games/{gid}", params={"token": t1}).json()["state"]
            assert s1["controls"]["claim_in"] == {}
        # gone again (its socket closed): told again after the grace
        m = _state_with(ws0, lambda c: "1" in (c.get("claim_in") or {}))
        assert m["controls"]["claim_in"]["1"] <= 60
    # a spectator is told nothing of it
    spectator = client.get(f"/api/games/{gid}", params={"token": g["spectator"]["token"]}).json()["state"]
    assert spectator["controls"]["claim_in"] == {}
