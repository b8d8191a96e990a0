"""Game control over the HTTP API (issue 15, part B): resign, abort, rematch, clocks, hand-over,
public links; bad input answered with an error naming the problem while the server keeps going."""

from __future__ import annotations

import json
import time

import pytest

from .conftest import create_game
from .web_helpers import wait_for

SMALL = {"board": [1, 2, 3], "first_to": 1}


def game_state(client, gid, token):
    r = client.get(f"/api/games/{gid}", params={"token": token})
    assert r.status_code == 200, r.text
    return r.json()["state"]


def post(client, gid, what, **body):
    return client.post(f"/api/games/{gid}/{what}", json=body)


def first_legal_move(client, gid, token):
    s = game_state(client, gid, token)
    r = client.post(
        f"/api/games/{gid}/moves",
        json={"token": token, "action": s["view"]["legal_actions"][0]["text"], "ply": s["ply"]},
    )
    assert r.status_code == 200, r.text


def error(r, status, code):
    assert r.status_code == status, r.text
    body = r.json()
    assert body["ok"] is False and body["code"] == code, body
    return body["error"]


def test_bad_input_gets_an_error_naming_the_problem_and_the_server_keeps_going(client):
    g = create_game(client, options=SMALL)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    spectator = g["spectator"]["token"]
    assert "spectators cannot resign" in error(post(client, gid, "resign", token=spectator), 403, "spectator")
    assert "spectators cannot abort" in error(post(client, gid, "abort", token=spectator), 403, "spectator")
    assert "still on" in error(post(client, gid, "rematch", token=t0), 409, "not_over")
    assert "opens no seat" in error(post(client, gid, "resign", token="not-a-token"), 403, "wrong_token")
    error(post(client, gid, "resign"), 422, "bad_request")  # no token at all
    assert "seat 7" in error(post(client, gid, "hand-over", token=t0, seat=7), 400, "bad_seat")
    assert "no connection for" in error(post(client, gid, "hand-over", token=t0, seat=1), 409, "not_gone")
    assert "'wizard'" in error(
        post(client, gid, "hand-over", token=t0, seat=1, agent="wizard"), 400, "bad_agent"
    )
    error(post(client, "no-such-game", "resign", token=t0), 404, "no_such_game")
    # Malformed clocks, each refused with the field named.
    bad_clocks = [
        ({"mode": "hourglass", "seconds": 30}, 422, "clock.mode"),
        ({"mode": "move", "seconds": 0}, 422, "clock.seconds"),
        ({"mode": "move", "seconds": "soon"}, 422, "clock.seconds"),
        ({"mode": "move", "seconds": 30, "on_timeout": "panic"}, 422, "clock.on_timeout"),
        ({"mode": "move", "seconds": 30, "colour": "red"}, 422, "clock.colour"),
        ({"mode": "move", "seconds": 30, "increment": 5}, 400, "clock.increment"),
        ({"mode": "total", "seconds": 30, "ai_level": "grandmaster"}, 400, "clock.ai_level"),
    ]
    for clock, status, field in bad_clocks:
        r = client.post("/api/games", json={"game": "last-mouse-lost", "clock": clock})
        assert r.status_code == status, (clock, r.text)
        assert field in r.json()["error"], (clock, r.json())
    r = client.post("/api/games", json={"game": "last-mouse-lost", "hand_over_after": -3})
    assert "hand_over_after" in error(r, 422, "bad_request")
    # Two moves made: too late to abort; resign ends it; everything after is refused.
    first_legal_move(client, gid, t0)
    first_legal_move(client, gid, t1)
    assert "before its second move" in error(post(client, gid, "abort", token=t0), 409, "too_late_to_abort")
    r = post(client, gid, "resign", token=t0)
    assert r.status_code == 200 and r.json() == {"ok": True, "ended": True, "ply": 2}
    error(post(client, gid, "resign", token=t1), 409, "game_over")
    error(post(client, gid, "abort", token=t1), 409, "game_over")
    s = game_state(client, gid, t1)
    move = {"token": t1, "action": "a1", "ply": s["ply"]}
    error(client.post(f"/api/games/{gid}/moves", json=move), 409, "game_over")
    # The server still serves everything else.
    assert client.get("/api/catalog").status_code == 200
    assert create_game(client)["id"]


def test_a_resignation_ends_a_two_player_game_for_everyone(client):
    g = create_game(client, options=SMALL)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    assert game_state(client, gid, t0)["controls"]["can_resign"]
    assert not game_state(client, gid, g["spectator"]["token"])["controls"]["can_resign"]
    post(client, gid, "resign", token=t1)
    for token in (t0, t1, g["spectator"]["token"]):
        s = game_state(client, gid, token)
        assert s["terminal"] and s["winners"] == [0] and s["returns"] == [1.0, -1.0] and s["to_move"] is None
        assert s["ending"] == {
            "forfeits": [{"seat": 1, "reason": "resigned", "ply": 0}],
            "aborted": False,
            "out": [1],
        }
        assert not s["can_undo"] and not s["can_hint"]


def test_in_a_three_player_game_a_resignation_leaves_the_game_to_the_others(client):
    humans = [{"kind": "human"}] * 3
    g = create_game(client, game="mouse-trap", seats=humans, options={"players": 3})
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    post(client, gid, "resign", token=tokens[1])
    s = game_state(client, gid, tokens[0])
    # The kernel's default: with two players left the game goes on; the server plays seat 2.
    assert not s["terminal"] and s["ending"]["out"] == [1]
    info = client.get(f"/api/games/{gid}", params={"token": tokens[0]}).json()["info"]
    assert info["players"][1]["kind"] == "agent"
    error(post(client, gid, "resign", token=tokens[1]), 409, "seat_handed")
    post(client, gid, "resign", token=tokens[2])
    s = game_state(client, gid, tokens[0])
    assert s["terminal"] and s["winners"] == [0]
    record = client.get(f"/api/games/{gid}/record", params={"token": tokens[0]}).json()
    assert [f["seat"] for f in record["forfeits"]] == [1, 2]
    assert record["result"] == pytest.approx([1.0, -0.5, -0.5])


def test_abort_before_the_second_move_ends_the_game_with_no_result(client):
    g = create_game(client, options=SMALL)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    first_legal_move(client, gid, t0)
    assert game_state(client, gid, t1)["controls"]["can_abort"]
    r = post(client, gid, "abort", token=t1)
    assert r.status_code == 200 and r.json()["ended"]
    s = game_state(client, gid, t0)
    assert s["terminal"] and s["winners"] == [] and s["returns"] is None and s["ending"]["aborted"]
    record = client.get(f"/api/public/games/{gid}/record").json()
    assert record["result"] is None and record["forfeits"] == [{"seat": None, "reason": "aborted", "ply": 1}]


def test_rematch_needs_every_human_seat_and_gives_each_their_own_rotated_seat(client):
    clock = {"mode": "total", "seconds": 120, "increment": 2, "on_timeout": "forfeit"}
    g = create_game(client, options=SMALL, hints=True, practice=True, clock=clock)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    post(client, gid, "resign", token=t0)
    first = post(client, gid, "rematch", token=t1).json()
    assert first == {"ok": True, "accepted": [1], "game": None, "link": None}
    assert game_state(client, gid, t0)["rematch"]["accepted"] == [1]  # the offer is shown to the other
    second = post(client, gid, "rematch", token=t0).json()
    new = second["game"]
    assert new and second["accepted"] == [1, 0]
    # Each seat's own link: its new token only, one seat along.
    link0 = game_state(client, gid, t0)["rematch"]["link"]
    link1 = game_state(client, gid, t1)["rematch"]["link"]
    assert link0 == second["link"] and link0 != link1
    info0 = client.get(f"/api/games/{new}", params={"token": link0.split("#t=")[1]}).json()["info"]
    info1 = client.get(f"/api/games/{new}", params={"token": link1.split("#t=")[1]}).json()["info"]
    assert (info0["seat"], info1["seat"]) == (1, 0)
    assert info0["options"]["board"] == [1, 2, 3] and info0["hints"] and info0["practice"]
    assert info0["clock"] == {**clock, "seconds": 120.0, "increment": 2.0, "ai_level": None}
    # Asking again is answered with the same game, never a second one.
    assert post(client, gid, "rematch", token=t1).json()["game"] == new


def test_a_total_clock_charges_the_mover_and_adds_the_increment(client):
    clock = {"mode": "total", "seconds": 100, "increment": 30}
    g = create_game(client, options=SMALL, clock=clock)
    gid, t0 = g["id"], g["seats"][0]["token"]
    s = game_state(client, gid, t0)
    assert s["clock"]["running"] == 0 and s["clock"]["remaining_ms"][1] == 100_000
    first_legal_move(client, gid, t0)
    s = game_state(client, gid, t0)
    assert s["clock"]["running"] == 1
    left = s["clock"]["remaining_ms"][0]
    assert 100_000 < left <= 130_000  # what it had, less the thinking, plus the increment


def test_a_gone_seat_is_offered_to_the_others_and_handed_to_an_ai(client):
    g = create_game(client, options=SMALL, hand_over_after=1)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    with client.websocket_connect(f"/ws/games/{gid}?token={t0}") as ws:
        ws.receive_json()  # hello
        # Seat 2 never came: after hand_over_after seconds the offer is pushed to seat 1's socket
        # (or is already in its first state, where the socket took longer than that to open: CI,
        # under load, waited 50 s for a second offer that never comes).
        deadline = time.monotonic() + 10
        while True:
            frame = ws.receive_json()
            msgs = frame if isinstance(frame, list) else [frame]
            if any(m.get("type") == "state" and m.get("controls", {}).get("handable") == [1] for m in msgs):
                break
            assert time.monotonic() < deadline
        r = post(client, gid, "hand-over", token=t0, seat=1, agent="easy")
        assert r.status_code == 200 and r.json() == {"ok": True, "seat": 1, "agent": "easy"}
        first_legal_move(client, gid, t0)
        # The AI plays seat 2 from now on.
        wait_for(lambda: game_state(client, gid, t0)["ply"] >= 2, timeout=20, what="the AI's reply")
    error(post(client, gid, "rematch", token=t1), 409, "not_over")
    s = game_state(client, gid, t1)
    move = {"token": t1, "action": "a1", "ply": s["ply"]}
    assert client.post(f"/api/games/{gid}/moves", json=move).status_code == 409
    post(client, gid, "resign", token=t0)
    record = client.get(f"/api/games/{gid}/record", params={"token": t0}).json()
    assert record["handed_to_ai"] == [{"seat": 1, "agent": "easy", "ply": 0, "by": 0}]


def all_secrets(created, client):
    """Every token and invite code of a game (the claimed invite's token included)."""
    out = [s["token"] for s in created["seats"] if s["token"]] + [created["spectator"]["token"]]
    for s in created["seats"]:
        if s["invite"]:
            code = s["link"].split("#i=")[1]
            out.append(code)
            out.append(
                client.post(f"/api/games/{created['id']}/claim", json={"invite": code}).json()["token"]
            )
    return out


def test_no_public_link_nor_anything_it_serves_holds_a_seat_token(client):
    seats = [{"kind": "human"}, {"kind": "human", "invite": True}]
    for game, options in [("last-mouse-lost", SMALL), ("dead-end-drive", {"players": 2})]:
        g = create_game(client, game=game, seats=seats, options=options)
        gid = g["id"]
        secrets = all_secrets(g, client)
        tokens = [g["seats"][0]["token"], secrets[-1]]  # seat 1's, and seat 2's claimed by its invite
        if game == "last-mouse-lost":
            first_legal_move(client, gid, tokens[0])
        post(client, gid, "resign", token=tokens[0])
        post(client, gid, "rematch", token=tokens[0])
        post(client, gid, "rematch", token=tokens[1])  # a rematch: new tokens exist now too
        for token in tokens:
            secrets.append(game_state(client, gid, token)["rematch"]["link"].split("#t=")[1])
        public_url = f"/replay/{gid}?embed=1"
        page = client.get(public_url)
        record = client.get(f"/api/public/games/{gid}/record")
        assert page.status_code == 200 and record.status_code == 200
        assert record.json()["forfeits"][0]["reason"] == "resigned"
        assert "secret_key" in record.json()  # revealed as at the end screen
        replay = client.post("/api/replay", json={"record": record.json()})
        assert replay.status_code == 200 and replay.json()["steps"][-1]["terminal"]
        served = [public_url, page.text, record.text, replay.text, json.dumps(dict(record.headers))]
        for secret in secrets:
            assert len(secret) >= 20
            for text in served:
                assert secret not in text


def test_an_unfinished_hidden_information_record_is_still_refused(client):
    g = create_game(client, game="dead-end-drive", options={"players": 2})
    gid, t0 = g["id"], g["seats"][0]["token"]
    error(client.get(f"/api/games/{gid}/record", params={"token": t0}), 403, "record_hidden")
    assert "not over yet" in error(client.get(f"/api/public/games/{gid}/record"), 409, "not_finished")
    # A perfect-information game's public link waits for its end too.
    other = create_game(client, options=SMALL)
    error(client.get(f"/api/public/games/{other['id']}/record"), 409, "not_finished")
    post(client, gid, "resign", token=t0)
    assert client.get(f"/api/games/{gid}/record", params={"token": t0}).status_code == 200
    assert client.get(f"/api/public/games/{gid}/record").status_code == 200


def test_the_clocks_ai_plays_from_the_seats_view_never_the_true_state(client, monkeypatch):
    """13 Dead End Drive hides each seat's cards: the clock's AI gets a state resampled from the
    seat's view (State.resample), never the game's own state."""
    from trapworks.core import State
    from trapworks.server import seat_player as control  # the clock's AI plays through it

    resampled: dict[int, int] = {}  # id of a resampled state -> the seat it was made for
    seen: list[tuple[int, State]] = []
    real_resample = State.resample

    def spying_resample(self, seat, rng=None):
        out = real_resample(self, seat, rng)
        resampled[id(out)] = seat
        return out

    class SpyAgent:
        def __init__(self, seat):
            self.seat = seat

        def step(self, position):
            seen.append((self.seat, position))
            return position.legal_actions()[0]

    monkeypatch.setattr(State, "resample", spying_resample)
    monkeypatch.setattr(control, "make_agent", lambda _name, _game, seat, seed: SpyAgent(seat))
    clock = {"mode": "move", "seconds": 1, "on_timeout": "ai", "ai_level": "easy"}
    g = create_game(client, game="dead-end-drive", options={"players": 2}, clock=clock)
    gid, t0 = g["id"], g["seats"][0]["token"]
    wait_for(lambda: len(seen) >= 2, timeout=20, what="two moves by the clock's AI")
    live = client.app.state.service.live[gid]
    for seat, position in seen:
        assert resampled.get(id(position)) == seat
        assert position is not live.state
    record = client.get(f"/api/games/{gid}/record", params={"token": t0})
    assert record.status_code == 403  # still on, hidden information: refused


def test_a_public_link_does_not_keep_a_finished_game_in_memory(client):
    g = create_game(client, options=SMALL)
    post(client, g["id"], "resign", token=g["seats"][0]["token"])
    service = client.app.state.service
    service.live.pop(g["id"])  # as after a restart: only the store holds it
    assert client.get(f"/api/public/games/{g['id']}/record").status_code == 200
    assert g["id"] not in service.live  # anyone may open public links: none piles games up
    game_state(client, g["id"], g["seats"][1]["token"])  # a player's request loads it as before
    assert g["id"] in service.live


def test_a_clock_agent_that_fails_is_reported_to_the_players_and_the_server_goes_on(client, monkeypatch):
    from trapworks.server import seat_player as control  # the clock's AI plays through it

    class BrokenAgent:
        def step(self, position):
            raise RuntimeError("out of ideas")

    monkeypatch.setattr(control, "make_agent", lambda *_args, **_kw: BrokenAgent())
    clock = {"mode": "move", "seconds": 1, "on_timeout": "ai", "ai_level": "easy"}
    g = create_game(client, options=SMALL, clock=clock)
    token = g["seats"][1]["token"]
    failed = wait_for(lambda: game_state(client, g["id"], token)["error"], timeout=10, what="the failure")
    assert "the clock could not play for Player 1" in failed and "out of ideas" in failed
    # Typed for the page (issue 37): the catalog's message, the seat as a seat, not an English label.
    typed = game_state(client, g["id"], token)["error_msg"]
    assert typed["msg"] == "the clock could not play for {who} when time ran out: {why}"
    assert typed["args"]["who"]["seat"] == 0 and "out of ideas" in typed["args"]["why"]
    assert game_state(client, g["id"], token)["ply"] == 0  # nothing half-applied
    assert client.get("/api/catalog").status_code == 200


def test_an_invited_seats_clock_waits_until_its_player_takes_the_seat(client):
    """A friend is not timed out before they have opened their link: an invited seat on move is
    shown with its whole time, not counting down, until its invite is used; then it runs."""
    clock = {"mode": "move", "seconds": 1, "on_timeout": "forfeit"}
    seats = [{"kind": "human"}, {"kind": "human", "invite": True}]
    g = create_game(client, options=SMALL, seats=seats, clock=clock)
    gid, t0 = g["id"], g["seats"][0]["token"]
    first_legal_move(client, gid, t0)  # now the invited seat is on move
    time.sleep(2.5)  # more than its second: it would have forfeited had its clock run
    s = game_state(client, gid, t0)
    assert not s["terminal"] and s["clock"]["running"] is None, s["clock"]
    assert s["clock"]["remaining_ms"][1] == 1000
    code = g["seats"][1]["link"].split("#i=")[1]
    t1 = client.post(f"/api/games/{gid}/claim", json={"invite": code}).json()["token"]
    assert game_state(client, gid, t1)["clock"]["running"] == 1
    wait_for(lambda: game_state(client, gid, t0)["terminal"], timeout=20, what="the forfeit on time")
    record = client.get(f"/api/games/{gid}/record", params={"token": t0}).json()
    assert record["forfeits"] == [{"seat": 1, "reason": "out_of_time", "ply": 1}]
