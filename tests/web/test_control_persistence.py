"""Clocks, results off the board and rematch links survive a SIGKILL restart like moves do
(issue 15, part B). Time while the server is down is not charged: the turn on move starts again
with the time its seat had when that turn began."""

from __future__ import annotations

import signal
import time

import httpx

from .web_helpers import ServerProcess, wait_for

SMALL = {"board": [1, 2, 3], "first_to": 1}


def create(base, **body):
    body = {"game": "last-mouse-lost", "options": SMALL, "seats": [{"kind": "human"}] * 2, **body}
    r = httpx.post(base + "/api/games", json=body, timeout=30)
    assert r.status_code == 201, r.text
    g = r.json()
    return g["id"], [s["token"] for s in g["seats"]]


def snapshot(base, gid, token):
    r = httpx.get(f"{base}/api/games/{gid}", params={"token": token}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["state"]


def move(base, gid, token):
    s = snapshot(base, gid, token)
    body = {"token": token, "action": s["view"]["legal_actions"][0]["text"], "ply": s["ply"]}
    r = httpx.post(f"{base}/api/games/{gid}/moves", json=body, timeout=10)
    assert r.status_code == 200, r.text


def test_clocks_results_rematch_links_and_hand_overs_survive_sigkill(tmp_path):
    server = ServerProcess(tmp_path).start()
    try:
        base = server.url
        # A total clock: seat 1 has moved (its time is stored), seat 2's is running.
        timed, timed_tokens = create(base, clock={"mode": "total", "seconds": 600, "increment": 10})
        move(base, timed, timed_tokens[0])
        before = snapshot(base, timed, timed_tokens[0])["clock"]
        assert before["running"] == 1
        # A resigned game whose rematch both players accepted.
        done, done_tokens = create(base)
        httpx.post(f"{base}/api/games/{done}/resign", json={"token": done_tokens[1]}, timeout=10)
        for t in done_tokens:
            httpx.post(f"{base}/api/games/{done}/rematch", json={"token": t}, timeout=10)
        links = [snapshot(base, done, t)["rematch"]["link"] for t in done_tokens]
        assert all(links)
        # A seat whose player never came, handed to an AI by the other player.
        handed, handed_tokens = create(base, hand_over_after=1)
        wait_for(
            lambda: snapshot(base, handed, handed_tokens[0])["controls"]["handable"] == [1],
            timeout=10,
            what="seat 2 offered",
        )
        r = httpx.post(
            f"{base}/api/games/{handed}/hand-over", json={"token": handed_tokens[0], "seat": 1}, timeout=10
        )
        assert r.status_code == 200, r.text
        time.sleep(1.5)  # seat 2's clock runs meanwhile
        running_before = snapshot(base, timed, timed_tokens[1])["clock"]["remaining_ms"][1]
        # A per-move clock with the AI rule, still running when the server dies.
        ai_clock = {"mode": "move", "seconds": 3, "on_timeout": "ai", "ai_level": "easy"}
        short, short_tokens = create(base, clock=ai_clock)
        assert snapshot(base, short, short_tokens[0])["ply"] == 0
        server.kill(signal.SIGKILL)
        time.sleep(1.0)  # the server is down: this is not charged to anyone
        server = ServerProcess(tmp_path, port=server.port).start()

        after = snapshot(base, timed, timed_tokens[0])["clock"]
        assert after["running"] == 1 and after["mode"] == "total" and after["increment"] == 10
        assert after["remaining_ms"][0] == before["remaining_ms"][0]  # seat 1's stored time, exactly
        # Seat 2's turn starts again with what it had when the turn began (600 s): the downtime
        # and the time before the kill are given back, never taken.
        assert after["remaining_ms"][1] > running_before

        # The per-move clock is running again without anyone opening the game: its AI plays.
        record = wait_for(
            lambda: (
                (
                    r := httpx.get(
                        f"{base}/api/games/{short}/record", params={"token": short_tokens[0]}, timeout=10
                    ).json()
                ).get("clock_moves")
                and r
            ),
            timeout=20,
            what="the clock's AI move after the restart",
        )
        assert record["clock_moves"][0] == 0 and record["clock"]["mode"] == "move"

        # The result off the board and each player's rematch link are as before.
        for t, link in zip(done_tokens, links, strict=True):
            s = snapshot(base, done, t)
            assert s["terminal"] and s["winners"] == [0]
            assert s["ending"]["forfeits"] == [{"seat": 1, "reason": "resigned", "ply": 0}]
            assert s["rematch"]["link"] == link
        # The hand-over: the seat is the AI's, in the game and in its record.
        info = httpx.get(f"{base}/api/games/{handed}", params={"token": handed_tokens[0]}, timeout=10).json()
        assert info["info"]["players"][1]["kind"] == "agent"
        record = httpx.get(
            f"{base}/api/games/{handed}/record", params={"token": handed_tokens[0]}, timeout=10
        ).json()
        assert record["handed_to_ai"] == [{"seat": 1, "agent": "easy", "ply": 0, "by": 0}]
        new_gid, token = links[0].split("/g/")[1].split("#t=")
        info = httpx.get(f"{base}/api/games/{new_gid}", params={"token": token}, timeout=10).json()["info"]
        assert info["seat"] == 1 and info["rematch_of"] == done
    finally:
        server.stop()
