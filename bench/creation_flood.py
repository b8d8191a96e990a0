"""A game-creation flood from 20 client addresses against `trapworks serve`, and one normal player
playing meanwhile (issue 40): the node's creation budget (bounds.py games_per_minute_total,
shared fairly between addresses: server/budget.py) keeps the player's moves fast.

The server listens on 127.0.0.1; each flooder connects from its own loopback address
(127.0.1.1 ... 127.0.1.20, Linux answers the whole 127/8), creating Last Mouse Lost games against
the server's `random` agent as fast as it is answered (20 at once). The player (127.0.2.1)
plays a game of its own over a socket, one move at a time, and the time from sending a move to
its ack is recorded. Prints created/refused counts, the player's move p50/p99 and the node's CPU
time over the flood (in all, and per creation request answered) as JSON.

    .venv/bin/python bench/creation_flood.py --duration 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect

GAME = {"game": "last-mouse-lost", "seats": [{"kind": "human"}, {"kind": "agent", "agent": "random"}]}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def flooder(base: str, address: str, stop: float, counts: dict[int, int]) -> None:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as c:
        while time.monotonic() < stop:
            r = await c.post("/api/games", json=GAME)
            counts[r.status_code] = counts.get(r.status_code, 0) + 1
            if r.status_code == 429:  # told to come back: a flooder does not wait long
                await asyncio.sleep(0.05)


async def player(base: str, stop: float, times: list[float]) -> None:
    transport = httpx.AsyncHTTPTransport(local_address="127.0.2.1")
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as c:
        while time.monotonic() < stop:
            r = await c.post("/api/games", json=GAME)
            if r.status_code == 429:  # the node's budget is spent: come back when it says
                await asyncio.sleep(
                    min(float(r.headers.get("retry-after", "1")), max(0.0, stop - time.monotonic()))
                )
                continue
            g = r.json()
            url = base.replace("http://", "ws://") + f"/ws/games/{g['id']}?token={g['seats'][0]['token']}"
            async with connect(url, local_addr=("127.0.2.1", 0)) as ws:
                state = None
                ref = 0
                while time.monotonic() < stop:
                    mine = (
                        state is not None
                        and not state.get("terminal")
                        and state.get("to_move") == 0
                        and state["view"].get("legal_actions")
                    )
                    if state is not None and state.get("terminal"):
                        break
                    if not mine:
                        msg = json.loads(await ws.recv())
                        for m in msg if isinstance(msg, list) else [msg]:
                            if m.get("type") == "state":
                                state = m
                        continue
                    assert state is not None
                    ref += 1
                    action = state["view"]["legal_actions"][0]["text"]
                    sent = time.perf_counter()
                    await ws.send(
                        json.dumps({"type": "move", "action": action, "ply": state["ply"], "ref": ref})
                    )
                    while True:
                        msg = json.loads(await ws.recv())
                        got = msg if isinstance(msg, list) else [msg]
                        for m in got:
                            if m.get("type") == "state":
                                state = m
                        if any(m.get("ref") == ref for m in got):
                            times.append(time.perf_counter() - sent)
                            break
                    await asyncio.sleep(0.1)  # a person's pace


async def refusals(base: str, duration: float, connections: int = 4) -> dict:
    """`--refusal-cost`: creations from one address past its hourly bound, as fast as answered
    on `connections` kept-alive connections: every one refused (the node's cost of a refusal)."""
    stop = time.monotonic() + duration
    counts: dict[int, int] = {}

    async def one(c: httpx.AsyncClient) -> None:
        while time.monotonic() < stop:
            r = await c.post("/api/games", json=GAME)
            counts[r.status_code] = counts.get(r.status_code, 0) + 1

    transport = httpx.AsyncHTTPTransport(local_address="127.0.3.1")
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as c:
        await asyncio.gather(*(one(c) for _ in range(connections)))
    return {"create_answers": counts}


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


async def flood(base: str, duration: float, flooders: int) -> dict[int, int]:
    stop = time.monotonic() + duration
    counts: dict[int, int] = {}
    await asyncio.gather(*(flooder(base, f"127.0.1.{i + 1}", stop, counts) for i in range(flooders)))
    return counts


def flood_process(base: str, duration: float, flooders: int, out: Any, nice: int) -> None:
    # The flooders stand for 20 other machines: at a lower priority (--flooders-nice) their client
    # work does not take the node's CPU on a machine they share with it.
    if nice:
        os.nice(nice)
    out.send(asyncio.run(flood(base, duration, flooders)))


async def run(base: str, duration: float, flooders: int, nice: int = 0) -> dict:
    # The flooders run in a process of their own: in the player's event loop their 60 requests a
    # second delayed the reading of the player's acks, and that delay was counted as the server's.
    mine, theirs = multiprocessing.Pipe()
    flooding = multiprocessing.Process(target=flood_process, args=(base, duration, flooders, theirs, nice))
    flooding.start()
    stop = time.monotonic() + duration
    times: list[float] = []
    await player(base, stop, times)
    counts = await asyncio.to_thread(mine.recv)
    flooding.join()
    return {
        "flooders": flooders,
        "seconds": duration,
        "create_answers": counts,
        "player_moves": len(times),
        "move_p50_ms": round(percentile(times, 0.5) * 1000, 1),
        "move_p99_ms": round(percentile(times, 0.99) * 1000, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duration", type=float, default=30.0)
    ap.add_argument("--flooders", type=int, default=20)
    ap.add_argument(
        "--flooders-nice",
        type=int,
        default=0,
        help="run the flooders' process this much nicer than the node and the player (e.g. 10)",
    )
    ap.add_argument(
        "--refusal-cost",
        action="store_true",
        help="instead: one address past its hourly bound (1 game), refused as fast as answered; "
        "prints the node's CPU time per refusal",
    )
    args = ap.parse_args()
    port = free_port()
    home = tempfile.mkdtemp(prefix="tw-flood-")
    env = dict(os.environ, TRAPWORKS_HOME=home)
    if args.refusal_cost:
        env["TRAPWORKS_BOUND_GAMES_PER_HOUR"] = "1"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from trapworks.cli import main; main()",
            "serve",
            "--port",
            str(port),
            "--rate-limit",
            "0",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/healthz").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.2)
        if args.refusal_cost:  # the one game the address may make (not counted: its imports)
            with httpx.Client(base_url=base, transport=httpx.HTTPTransport(local_address="127.0.3.1")) as c:
                assert c.post("/api/games", json=GAME).status_code == 201
        cpu_before = cpu_seconds(proc.pid)
        if args.refusal_cost:
            result = asyncio.run(refusals(base, args.duration))
            result["node_cpu_s"] = round(cpu_seconds(proc.pid) - cpu_before, 2)
            refused = result["create_answers"].get(429, 0)
            result["node_cpu_us_per_refusal"] = round(result["node_cpu_s"] * 1e6 / max(1, refused), 1)
            print(json.dumps(result))
            return
        result = asyncio.run(run(base, args.duration, args.flooders, args.flooders_nice))
        result["flooders_nice"] = args.flooders_nice
        # The node's own CPU time over the flood (user + system, from /proc): unlike the move
        # times, it does not depend on what else the machine runs.
        result["node_cpu_s"] = round(cpu_seconds(proc.pid) - cpu_before, 2)
        answers = sum(result["create_answers"].values())
        result["node_cpu_ms_per_create_request"] = round(result["node_cpu_s"] * 1000 / max(1, answers), 3)
        print(json.dumps(result))
    finally:
        proc.terminate()
        proc.wait(timeout=20)


if __name__ == "__main__":
    main()
