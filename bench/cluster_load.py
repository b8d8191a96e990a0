"""A cluster of `trapworks serve` nodes behind HAProxy: moves per second and latencies for 1, 2 and
3 nodes in one run, the two buses against each other, and idle sockets held by one node.

Every configuration gets a fresh PostgreSQL schema, its nodes (real `trapworks serve` processes)
and Debian's HAProxy in front (round robin, no stickiness). N clients each play Last Mouse Lost
against the server's `random` agent through the balancer (a closed loop: a move as soon as it is
the client's turn), and each game has a spectator socket, also through the balancer, so that
with more than one node most spectators sit on another node than their game's player: every move
then crosses the bus. Measured in the timed window:
- moves/s: acknowledged moves (each a stored player move and a stored agent reply);
- ack p50/p99: from sending a move to its ack;
- cross-node p50/p99: from a move's ack at the player to the spectator having the ply the ack's
  frame brought (the agent's reply; 0 where the spectator had it first). With one node this is
  the local fan-out; with more, most spectators sit on another node than their player.
Then, on a single node, `--idle` idle sockets (spectators of 100 games, nothing sent) and the
node's resident memory before and after (GET /api/node).

    .venv/bin/python bench/cluster_load.py --nodes 1 2 3 --bus postgres redis --clients 60 \
        --duration 10 --idle 5000

Needs TRAPWORKS_TEST_POSTGRES_URL (or --db) naming a PostgreSQL database, haproxy and
redis-server (scripts/test.sh installs both). Bounded: at most 300 clients, 60 s per window,
10,000 idle sockets.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
import orjson

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from web.cluster_helpers import fresh_schema, haproxy, redis_server, start_nodes, stop_nodes  # noqa: E402

MAX_CLIENTS = 300
MAX_DURATION = 60.0
MAX_IDLE = 10_000
RECV_TIMEOUT = 30.0


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, max(0, int(round(p / 100 * (len(values) - 1)))))] * 1000


class Run:
    def __init__(self, duration: float, warmup: float):
        self.start = time.monotonic() + warmup
        self.stop_at = self.start + duration
        self.acks: list[float] = []
        self.acked_at: dict[tuple[str, int], float] = {}  # (game, ply) -> when its ack came
        self.watched_at: dict[tuple[str, int], float] = {}  # (game, ply) -> when the spectator had it
        self.errors: Counter[str] = Counter()  # what went wrong, by kind


async def make_game(http: httpx.AsyncClient, lb: str, rng: random.Random) -> dict:
    body = {
        "game": "last-mouse-lost",
        "seed": rng.randrange(2**31),
        "seats": [{"kind": "human"}, {"kind": "agent", "agent": "random"}],
    }
    for attempt in range(3):
        try:
            r = await http.post(f"{lb}/api/games", json=body)
            r.raise_for_status()
            return r.json()
        except httpx.HTTPError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def spectator(ws_base: str, g: dict, run: Run) -> None:
    from websockets.asyncio.client import connect

    with contextlib.suppress(Exception):
        async with connect(
            f"{ws_base}/ws/games/{g['id']}?token={g['spectator']['token']}", max_size=2**22
        ) as ws:
            while time.monotonic() < run.stop_at:
                data = orjson.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT))
                now = time.monotonic()
                for m in data if isinstance(data, list) else [data]:
                    if m.get("type") == "state" and not m.get("sync"):
                        run.watched_at.setdefault((g["id"], m["ply"]), now)


async def player(ws_base: str, g: dict, run: Run, rng: random.Random) -> None:
    from websockets.asyncio.client import connect

    url = f"{ws_base}/ws/games/{g['id']}?token={g['seats'][0]['token']}"
    async with connect(url, max_size=2**22, ping_interval=None) as ws:
        latest = None
        waiting = None
        inbox: list[dict] = []
        while time.monotonic() < run.stop_at:
            if not inbox:
                data = orjson.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT))
                inbox.extend(data if isinstance(data, list) else [data])
            msg = inbox.pop(0)
            if msg["type"] == "state":
                latest = msg
            elif waiting and msg.get("ref") == waiting[0]:
                if msg["type"] == "ack":
                    now = time.monotonic()
                    if waiting[1] >= run.start:
                        run.acks.append(now - waiting[1])
                    # The spectator's update for the agent's reply (the last ply) is the one timed.
                    run.acked_at[(g["id"], latest["ply"] if latest else msg["ply"])] = now
                else:
                    run.errors[f"{msg['type']} {msg.get('code')}"] += 1
                waiting = None
            if waiting or latest is None or inbox:
                continue
            if latest.get("terminal"):
                return
            if latest.get("to_move") != 0:
                continue
            action = rng.choice(latest["view"]["legal_actions"])["text"]
            waiting = (latest["ply"], time.monotonic())
            await ws.send(
                json.dumps({"type": "move", "action": action, "ply": latest["ply"], "ref": latest["ply"]})
            )


async def load(lb: str, clients: int, duration: float, warmup: float, seed: int) -> dict:
    gc.collect()
    gc.freeze()
    rng = random.Random(seed)
    ws_base = lb.replace("http://", "ws://")
    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=20)) as http:
        # Games for the whole window (a client whose game ends goes on in the next one).
        per_client = 1 + int((warmup + duration) // 2)
        games = [await make_game(http, lb, rng) for _ in range(clients * per_client)]
    run = Run(duration, warmup)

    async def one_client(i: int) -> None:
        mine = games[i * per_client : (i + 1) * per_client]
        crng = random.Random(seed * 1000 + i)
        for g in mine:
            if time.monotonic() >= run.stop_at:
                return
            watch = asyncio.create_task(spectator(ws_base, g, run))
            try:
                await player(ws_base, g, run, crng)
            except Exception as e:
                status = getattr(getattr(e, "response", None), "status_code", None)
                run.errors[type(e).__name__ + (f" {status}" if status else "")] += 1
            watch.cancel()
            with contextlib.suppress(BaseException):
                await watch

    await asyncio.gather(*[one_client(i) for i in range(clients)])
    # From the ack at the player to the spectator having that ply (0 where it came first: both
    # sockets are read by this one process, in the order their frames arrive).
    cross = [
        max(0.0, run.watched_at[k] - t)
        for k, t in run.acked_at.items()
        if t >= run.start and k in run.watched_at
    ]
    return {
        "moves/s": len(run.acks) / duration,
        "ack p50": pct(run.acks, 50),
        "ack p99": pct(run.acks, 99),
        "cross p50": pct(cross, 50),
        "cross p99": pct(cross, 99),
        "cross n": len(cross),
        "errors": sum(run.errors.values()),
        "error kinds": dict(run.errors),
    }


async def idle_sockets(base: str, count: int) -> dict:
    from websockets.asyncio.client import connect

    async with httpx.AsyncClient(timeout=60) as http:
        before = (await http.get(f"{base}/api/node")).json()["rss_mib"]
        games = []
        for _ in range(100):
            r = await http.post(f"{base}/api/games", json={"game": "last-mouse-lost"})
            games.append(r.json())
        ws_base = base.replace("http://", "ws://")
        sockets = []
        opened = 0
        try:
            for i in range(count):
                g = games[i % len(games)]
                ws = await connect(
                    f"{ws_base}/ws/games/{g['id']}?token={g['spectator']['token']}", ping_interval=None
                )
                await ws.recv()  # hello
                sockets.append(ws)
                opened += 1
            await asyncio.sleep(2)
            info = (await http.get(f"{base}/api/node")).json()
        finally:
            for ws in sockets:
                with contextlib.suppress(Exception):
                    await ws.close()
    return {"sockets": info["sockets"], "opened": opened, "rss before": before, "rss after": info["rss_mib"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--bus", nargs="+", default=["postgres", "redis"], choices=["postgres", "redis"])
    ap.add_argument("--clients", type=int, default=60)
    ap.add_argument("--duration", type=float, default=10.0)
    ap.add_argument("--warmup", type=float, default=2.0)
    ap.add_argument("--idle", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", default=os.environ.get("TRAPWORKS_TEST_POSTGRES_URL"))
    args = ap.parse_args()
    if not args.db:
        sys.exit("needs a PostgreSQL database: --db or TRAPWORKS_TEST_POSTGRES_URL")
    os.environ["TRAPWORKS_TEST_POSTGRES_URL"] = args.db
    # i40: the node-wide creation budget off: one address makes every game.
    os.environ.setdefault("TRAPWORKS_BOUND_GAMES_PER_MINUTE_TOTAL", "1000000")
    if not 0 < args.clients <= MAX_CLIENTS or not 0 < args.duration <= MAX_DURATION:
        sys.exit(f"--clients 1-{MAX_CLIENTS}, --duration up to {MAX_DURATION} s")
    if not 0 <= args.idle <= MAX_IDLE:
        sys.exit(f"--idle 0-{MAX_IDLE}")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"load average before: {open('/proc/loadavg').read().split()[:3]}", flush=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for bus in args.bus:
            for n in args.nodes:
                with contextlib.ExitStack() as stack:
                    url = stack.enter_context(fresh_schema())
                    bus_arg = stack.enter_context(redis_server()) if bus == "redis" else None
                    nodes = start_nodes(Path(tmp) / f"{bus}{n}", url, n, bus=bus_arg)
                    stack.callback(stop_nodes, nodes)
                    lb = stack.enter_context(haproxy(Path(tmp) / f"lb-{bus}{n}", nodes))
                    result = asyncio.run(load(lb, args.clients, args.duration, args.warmup, args.seed))
                    heard = [httpx.get(f"{node.url}/api/node").json()["heard"] for node in nodes]
                rows.append({"bus": bus, "nodes": n, **result, "heard": sum(heard)})
                print(rows[-1], flush=True)
        idle = None
        if args.idle:
            with fresh_schema() as url:
                nodes = start_nodes(Path(tmp) / "idle", url, 1)
                try:
                    idle = asyncio.run(idle_sockets(nodes[0].url, args.idle))
                finally:
                    stop_nodes(nodes)
            print(idle, flush=True)
    print(f"load average after: {open('/proc/loadavg').read().split()[:3]}")
    print()
    print(
        "| bus | nodes | clients | moves/s | ack p50 ms | ack p99 ms | cross-node p50 ms "
        "| cross-node p99 ms | errors |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['bus']} | {r['nodes']} | {args.clients} | {r['moves/s']:.1f} | {r['ack p50']:.1f} | "
            f"{r['ack p99']:.1f} | {r['cross p50']:.1f} | {r['cross p99']:.1f} | {r['errors']} |"
        )
    if idle:
        print()
        print(
            f"idle sockets: {idle['sockets']} held by one node (of {idle['opened']} opened); resident memory "
            f"{idle['rss before']:.1f} MiB before, {idle['rss after']:.1f} MiB with them"
        )


if __name__ == "__main__":
    main()
