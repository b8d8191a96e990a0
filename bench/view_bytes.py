"""Bytes per update message: what a seat's socket receives after each action, per game.

Plays games through the web app (FastAPI's TestClient, a SQLite file): every seat a human
connected by WebSocket, moves posted by HTTP (a random legal action of the seat to move), and
measures each `state` update (sync false) as sent, in compact JSON bytes. "before" is the same
message with the seat's whole `state.view(seat)` in it, as the server sent it before views had a
static part (issue 23); "after" is the message as sent now (the static part, for 13 Dead End
Drive the mansion and its drawing, goes once with the game's info).

    .venv/bin/python bench/view_bytes.py --games 2 --moves 60
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from trapworks.core.spec import static_view
from trapworks.server import create_app

GAMES: dict[str, dict[str, Any]] = {
    "dead-end-drive": {"players": 4},
    "mouse-trap": {"players": 2},
    "last-mouse-lost": {},
    "booby-trap": {"pieces_per_size": 4},
}


def size(msg: dict[str, Any]) -> int:
    return len(json.dumps(msg, separators=(",", ":")))


def frames(ws: Any) -> list[dict[str, Any]]:
    data = ws.receive_json()
    return data if isinstance(data, list) else [data]


def play(
    client: TestClient, game: str, options: dict[str, Any], moves: int, rng: random.Random
) -> list[tuple[int, int]]:
    """(before, after) bytes of each update seat 0 received in one game."""
    n = client.post("/api/catalog/" + game + "/check", json={"options": options}).json()["players"]
    r = client.post("/api/games", json={"game": game, "options": options, "seats": [{"kind": "human"}] * n})
    assert r.status_code == 201, r.text
    created = r.json()
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    info = client.get(f"/api/games/{gid}", params={"token": tokens[0]}).json()["info"]
    out: list[tuple[int, int]] = []
    with client.websocket_connect(f"/ws/games/{gid}?token={tokens[0]}") as ws:
        latest = None
        while latest is None:
            for m in frames(ws):
                if m.get("type") == "state":
                    latest = m
        for _ in range(moves):
            if latest["terminal"]:
                break
            mover = latest["to_move"]
            state = client.get(f"/api/games/{gid}", params={"token": tokens[mover]}).json()["state"]
            legal = state["view"].get("legal_actions") or []
            if not legal:
                break
            pick = rng.choice(legal)
            text = pick["text"] if isinstance(pick, dict) else pick
            r = client.post(
                f"/api/games/{gid}/moves", json={"token": tokens[mover], "action": text, "ply": state["ply"]}
            )
            assert r.status_code < 300, r.text
            got = None
            while got is None:
                for m in frames(ws):
                    if m.get("type") == "state" and not m["sync"]:
                        got = m
            while got["ply"] < r.json()["ply"]:
                for m in frames(ws):
                    if m.get("type") == "state":
                        got = m
            # The whole view, as sent before: the static part from the info and the update's view
            # (tests/web/test_static_view.py checks that together they are exactly state.view(seat)).
            full = {**(info.get("static_view") or {}), **got["view"]}
            out.append((size({**got, "view": full}), size(got)))
            latest = got
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--moves", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with (
        tempfile.TemporaryDirectory() as tmp,
        TestClient(create_app(f"sqlite:///{Path(tmp) / 'b.sqlite'}")) as client,
    ):
        print(
            "| game | updates | bytes per update before (median) | after (median) | ratio "
            "| static part, once |"
        )
        print("|---|---|---|---|---|---|")
        import trapworks

        for game, options in GAMES.items():
            rows: list[tuple[int, int]] = []
            for _ in range(args.games):
                rows += play(client, game, options, args.moves, rng)
            before = statistics.median(b for b, _ in rows)
            after = statistics.median(a for _, a in rows)
            static = static_view(trapworks.make(game, **options))
            once = size(static) if static else 0
            print(f"| {game} | {len(rows)} | {before:.0f} | {after:.0f} | {before / after:.2f}x | {once} |")


if __name__ == "__main__":
    main()
