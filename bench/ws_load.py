"""WebSocket load on `trapworks serve`, side by side with a bare uvicorn WebSocket echo server.

N concurrent clients on loopback (127.0.0.1), each in its own Last Mouse Lost game against the
server's `random` agent, each playing legal moves (picked from its view's legal_actions) with an
optional think time. Latency of a move = time from sending it to receiving its ack (the action is
committed to SQLite before the ack). "turn" = time until it is this client's turn again (the
server's agent has replied and both updates have arrived).

The peer: the same clients against a bare uvicorn WebSocket endpoint that answers each move at
once with one frame holding a tiny update and the ack (no game, no database) — the floor set by
uvicorn, the websockets stack and this client on the same machine.

Each client's games are created before the timed window (one, plus a spare per 2 s of window
for when a match ends; a client that runs out creates more inside the window): the window times
moves. Play starts when every client has its first state; the timed window opens after a
warm-up (`--warmup`, 3 s: the server's caches fill and the 200 clients, which all start at the
same instant, fall out of step). Bounded: at most 500 clients and 120 s per run.

    .venv/bin/python bench/ws_load.py --clients 50 200 --duration 20 --think 0 1.0
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import orjson
from websockets.asyncio.client import connect

MAX_CLIENTS = 500
MAX_DURATION = 120.0
RECV_TIMEOUT = 30.0  # a client waiting longer than this for an update counts as a failure
# Games made for each client before the timed window, beyond its first: one per this many seconds
# of window. The window then times moves, not game creation (a client that runs out makes more).
SPARE_GAME_EVERY_S = 2.0

ECHO_APP = """
import json
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute

async def echo(ws):
    await ws.accept()
    ply = 0
    view = {"legal_actions": [{"text": "a1"}]}
    await ws.send_text(json.dumps({"type": "state", "ply": ply, "to_move": 0, "view": view}))
    while True:
        msg = json.loads(await ws.receive_text())
        ply += 1
        # One frame per move, as trapworks sends its mover: the update, then the ack.
        await ws.send_text(json.dumps([{"type": "state", "ply": ply, "to_move": 0, "view": view},
                                       {"type": "ack", "ref": msg.get("ref"), "ply": ply}]))

app = Starlette(routes=[WebSocketRoute("/ws/games/{gid}", echo)])
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_trapworks(home: Path, port: int) -> subprocess.Popen:
    # i40: the node-wide creation budget off: a load test makes its games from one address.
    env = dict(os.environ, TRAPWORKS_HOME=str(home), TRAPWORKS_BOUND_GAMES_PER_MINUTE_TOTAL="1000000")
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from trapworks.cli import main; main()",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--rate-limit",
            "0",  # every client is on this machine: one address
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )


def start_echo(workdir: Path, port: int) -> subprocess.Popen:
    (workdir / "echo_app.py").write_text(ECHO_APP)
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "echo_app:app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        cwd=workdir,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port}")


class Stats:
    def __init__(self):
        self.ack: list[float] = []
        self.turn: list[float] = []
        self.errors: list[str] = []
        self.games_finished = 0


async def create_game(http: httpx.AsyncClient, base: str, rng: random.Random) -> tuple[str, str]:
    body = {
        "game": "last-mouse-lost",
        "seed": rng.randrange(2**31),
        "seats": [{"kind": "human"}, {"kind": "agent", "agent": "random"}],
    }
    for attempt in range(3):
        try:
            r = await http.post(f"{base}/api/games", json=body)
            break
        except httpx.TransportError:
            # A pooled keep-alive connection the server closed as it was reused (the usual race
            # of HTTP keep-alive): try again on another.
            if attempt == 2:
                raise
    r.raise_for_status()
    g = r.json()
    return g["id"], g["seats"][0]["token"]


class Window:
    """Every client connects first; play starts when all have their first state, and the timed
    window opens `warmup` seconds later (moves sent before it are played, not counted)."""

    def __init__(self, clients: int, duration: float, warmup: float = 0.0):
        self.waiting = clients
        self.duration = duration
        self.warmup = warmup
        self.go = asyncio.Event()
        self.start = self.stop_at = 0.0

    def ready(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.start = time.monotonic() + self.warmup
            self.stop_at = self.start + self.duration
            self.go.set()


async def client(
    idx: int,
    base_ws: str,
    games: list[tuple[str, str]],
    stats: Stats,
    window: Window,
    think: float,
    http: httpx.AsyncClient | None,
    base_http: str,
    rng: random.Random,
) -> None:
    gid, token = games.pop(0)
    ref = 0
    first = True
    while not window.go.is_set() or time.monotonic() < window.stop_at:
        async with connect(
            f"{base_ws}/ws/games/{gid}?token={token}", max_size=2**22, open_timeout=30, ping_interval=None
        ) as ws:
            latest = None  # the newest state received
            waiting = None  # (ref, sent time) of the move awaiting its ack
            moved_at_ply = -1
            turn_started = None
            inbox: list[dict] = []
            while True:
                if not inbox:
                    # A frame holds one message or a list of them (a move's updates and its ack).
                    data = orjson.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT))
                    inbox.extend(data if isinstance(data, list) else [data])
                msg = inbox.pop(0)
                if window.go.is_set() and time.monotonic() >= window.stop_at:
                    break  # the window has closed: what arrives now is not counted
                if msg["type"] == "state":
                    latest = msg
                    if first:
                        first = False
                        window.ready()
                        await window.go.wait()
                elif waiting and msg.get("ref") == waiting[0]:
                    if msg["type"] == "ack":
                        if waiting[1] >= window.start:  # sent inside the timed window
                            stats.ack.append(time.monotonic() - waiting[1])
                    else:
                        stats.errors.append(msg.get("message", ""))
                    waiting = None
                elif msg["type"] == "error":
                    stats.errors.append(msg.get("message", ""))
                if waiting or latest is None or inbox:
                    continue  # decide once the whole frame is read
                if latest.get("terminal"):
                    break
                # The server may send the agent's reply before our ack: decide only from the newest state.
                if latest.get("to_move") != 0 or latest["ply"] == moved_at_ply:
                    continue
                if turn_started is not None and turn_started >= window.start:
                    stats.turn.append(time.monotonic() - turn_started)
                if think:
                    await asyncio.sleep(rng.uniform(0, 2 * think))
                    if time.monotonic() >= window.stop_at:
                        break
                action = rng.choice(latest["view"]["legal_actions"])["text"]
                ref += 1
                moved_at_ply = latest["ply"]
                turn_started = sent = time.monotonic()
                waiting = (ref, sent)
                await ws.send(
                    json.dumps({"type": "move", "action": action, "ply": latest["ply"], "ref": ref})
                )
        if latest is not None and latest.get("terminal"):
            stats.games_finished += 1
            if http is None:
                return
            gid, token = games.pop(0) if games else await create_game(http, base_http, rng)
        else:
            return


def run_loop(coro):
    """Run the clients on uvloop (as the servers run): the measuring client should cost the shared
    machine as little as it can."""
    try:
        import uvloop
    except ImportError:  # uvicorn[standard] brings it; without it, the standard loop
        return asyncio.run(coro)
    return uvloop.run(coro)


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, int(round(p / 100 * (len(values) - 1)))))
    return values[k] * 1000


async def run_one(
    kind: str, port: int, n: int, duration: float, think: float, seed: int, warmup: float = 0.0
) -> dict:
    # The measuring client's own full garbage collections would stall all its clients at once and
    # read as server latency: it collects young objects only, as the server does.
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 100)
    base_http = f"http://127.0.0.1:{port}"
    base_ws = f"ws://127.0.0.1:{port}"
    rng = random.Random(seed)
    stats = Stats()
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        if kind == "trapworks":
            each = 1 + int((warmup + duration) // SPARE_GAME_EVERY_S)
            made = await asyncio.gather(*[create_game(http, base_http, rng) for _ in range(n * each)])
            games = [made[i * each : (i + 1) * each] for i in range(n)]
        else:
            games = [[(f"echo{i}", "x")] for i in range(n)]
        window = Window(n, duration, warmup)
        await asyncio.gather(
            *[
                client(
                    i,
                    base_ws,
                    games[i],
                    stats,
                    window,
                    think,
                    http if kind == "trapworks" else None,
                    base_http,
                    random.Random(seed * 1000 + i),
                )
                for i in range(n)
            ]
        )
        elapsed = time.monotonic() - window.start
    return {
        "server": kind,
        "clients": n,
        "think_s": think,
        "duration_s": round(elapsed, 1),
        "moves": len(stats.ack),
        "moves_per_s": round(len(stats.ack) / elapsed, 1),
        "ack_p50_ms": round(pct(stats.ack, 50), 2),
        "ack_p99_ms": round(pct(stats.ack, 99), 2),
        "ack_max_ms": round(max(stats.ack) * 1000, 1) if stats.ack else None,
        "turn_p50_ms": round(pct(stats.turn, 50), 2) if stats.turn else None,
        "turn_p99_ms": round(pct(stats.turn, 99), 2) if stats.turn else None,
        "errors": len(stats.errors),
        "first_error": stats.errors[0] if stats.errors else None,
        "games_finished": stats.games_finished,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, nargs="+", default=[50, 200])
    ap.add_argument("--duration", type=float, default=20.0, help="seconds of play per run (max 120)")
    ap.add_argument(
        "--think",
        type=float,
        nargs="+",
        default=[0.0, 1.0],
        help="mean think time between a client's moves, seconds (uniform 0..2x)",
    )
    ap.add_argument(
        "--peer",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also run the bare uvicorn echo peer",
    )
    ap.add_argument(
        "--warmup",
        type=float,
        default=3.0,
        help="seconds of play before the timed window opens (not counted)",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args()
    if any(not 1 <= n <= MAX_CLIENTS for n in args.clients):
        ap.error(f"--clients must be 1..{MAX_CLIENTS}")
    duration = min(args.duration, MAX_DURATION)

    results = []
    with tempfile.TemporaryDirectory() as tmp:
        servers = [("trapworks", start_trapworks)] + ([("uvicorn-echo", start_echo)] if args.peer else [])
        for kind, starter in servers:
            port = free_port()
            proc = starter(Path(tmp), port)
            try:
                wait_port(port)
                for think in args.think:
                    for n in args.clients:
                        res = run_loop(run_one(kind, port, n, duration, think, args.seed, args.warmup))
                        results.append(res)
                        print(json.dumps(res), flush=True)
            finally:
                proc.terminate()
                proc.wait(timeout=10)
    print()
    print(
        "| server | clients | think (mean) | moves/s | ack p50 ms | ack p99 ms | turn p50 ms "
        "| turn p99 ms | errors |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(
            f"| {r['server']} | {r['clients']} | {r['think_s']} s | {r['moves_per_s']} | {r['ack_p50_ms']} | "
            f"{r['ack_p99_ms']} | {r['turn_p50_ms'] if r['turn_p50_ms'] is not None else '-'} | "
            f"{r['turn_p99_ms'] if r['turn_p99_ms'] is not None else '-'} | {r['errors']} |"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
