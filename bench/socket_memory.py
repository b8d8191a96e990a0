"""Memory of idle game sockets on one `trapworks serve`, and whether it is given back (issue 40).

Starts a node (SQLite, its own TRAPWORKS_HOME), makes `--games` Last Mouse Lost games, opens
`--sockets` spectator sockets spread over them (each reads its hello and first state, then stays
idle), and reads the node's resident memory (`/api/node` rss_mib, from loopback) before, with the
sockets open, and `--settle` seconds after they are all closed. Prints JSON: KiB per idle socket
and the MiB still held after the close.

    .venv/bin/python bench/socket_memory.py --sockets 2000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

import httpx
from websockets.asyncio.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss(base: str) -> float:
    return float(httpx.get(base + "/api/node", timeout=30).json()["rss_mib"])


async def hold(base: str, n: int, games: int, settle: float) -> dict:
    made = [
        httpx.post(base + "/api/games", json={"game": "last-mouse-lost"}, timeout=30).json()
        for _ in range(games)
    ]
    await asyncio.sleep(settle)
    before = rss(base)
    socks = []
    for i in range(n):
        g = made[i % games]
        ws = await connect(
            base.replace("http://", "ws://") + f"/ws/games/{g['id']}?token={g['spectator']['token']}"
        )
        for _ in range(2):  # hello, first state
            await ws.recv()
        socks.append(ws)
    await asyncio.sleep(settle)
    held = rss(base)
    for ws in socks:
        await ws.close()
    socks.clear()
    await asyncio.sleep(settle)
    after = rss(base)
    return {
        "sockets": n,
        "rss_before_mib": before,
        "rss_with_sockets_mib": held,
        "rss_after_close_mib": after,
        "kib_per_socket": round((held - before) * 1024 / n, 1),
        "mib_kept_after_close": round(after - before, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sockets", type=int, default=2000)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--settle", type=float, default=5.0)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    port = free_port()
    env = dict(
        os.environ,
        TRAPWORKS_HOME=tempfile.mkdtemp(prefix="tw-sockmem-"),
        TRAPWORKS_BOUND_SOCKETS_PER_ADDRESS=str(args.sockets + 10),
        # One address opens every socket, every round within the minute: past half of the node's
        # budget one address is held to its fair share (budget.py), so the budget is 2x all of them.
        TRAPWORKS_BOUND_SOCKET_OPENS_PER_MINUTE_TOTAL=str(args.sockets * args.rounds * 2 + 10),
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", "from trapworks.cli import main; main()", "serve", "--port", str(port)],
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
        for _ in range(args.rounds):  # a second round: is the first's memory reused (not leaked)?
            print(json.dumps(asyncio.run(hold(base, args.sockets, args.games, args.settle))))
    finally:
        proc.terminate()
        proc.wait(timeout=20)


if __name__ == "__main__":
    main()
