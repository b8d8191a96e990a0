"""A healthy player's latency while others flood `trapworks serve` with replays or fuzz.

One healthy client plays a Last Mouse Lost game (both seats, one socket each, a move every
`--pace` seconds per socket, as a brisk human) and times each move from send to ack. Phases of
`--phase` seconds each: before, during a replay flood (`--replays` clients posting a record of
about 4,800 actions (see long_record) to /api/replay, each as soon as its previous one is
answered), after it, during fuzz (`--fuzzers` sockets sending random and broken
messages flat out, and HTTP requests with junk bodies), after it.

The peer: the same load against the server as it was before issue 12 (`--peer-src`, a copy of
that version's src/ folder, e.g. made with `git archive 9b151c3 src | tar -x -C /tmp/base`), whose
replays ran on the event loop. Both servers run as subprocesses (`trapworks serve`, SQLite file in
a temporary TRAPWORKS_HOME); the clients run in this process.

    .venv/bin/python bench/server_robustness.py --peer-src /tmp/base/src --phase 8
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

REPO = Path(__file__).resolve().parent.parent
MAX_PHASE_S = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(src: Path | None, home: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = dict(os.environ, TRAPWORKS_HOME=str(home), PYTHONUNBUFFERED="1")
    if src is not None:
        env["PYTHONPATH"] = str(src)
    cmd = [sys.executable, "-c", "from trapworks.cli import main; main()", "serve", "--port", str(port)]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/")
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/api/catalog", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("server did not start")


class Healthy:
    """Plays Last Mouse Lost games on two sockets and records each move's ack latency."""

    def __init__(self, url: str, pace: float):
        self.url = url
        self.pace = pace
        self.samples: list[tuple[float, float]] = []  # (time sent, latency s)
        self.stop = asyncio.Event()

    async def run(self) -> None:
        while not self.stop.is_set():
            async with httpx.AsyncClient() as c:
                g = (await c.post(self.url + "/api/games", json={"game": "last-mouse-lost"})).json()
            ws_url = self.url.replace("http", "ws") + f"/ws/games/{g['id']}?token="
            async with (
                connect(ws_url + g["seats"][0]["token"]) as a,
                connect(ws_url + g["seats"][1]["token"]) as b,
            ):
                socks = [a, b]
                latest: dict = {}
                for ws in socks:
                    await self._until(ws, "state", latest)
                ref = 0
                while not self.stop.is_set():
                    state = latest["state"]
                    if state["terminal"]:
                        break
                    ws = socks[state["to_move"]]
                    ref += 1
                    action = state["view"]["legal_actions"][0]["text"]
                    sent = time.perf_counter()
                    await ws.send(
                        json.dumps({"type": "move", "action": action, "ply": state["ply"], "ref": ref})
                    )
                    await self._until(ws, "ack", latest, ref)
                    self.samples.append((time.monotonic(), time.perf_counter() - sent))
                    # The other socket's copy of the update, so both stay current.
                    other = socks[1 - socks.index(ws)]
                    await self._until(other, "state", {}, min_ply=state["ply"] + 1)
                    await asyncio.sleep(self.pace)

    @staticmethod
    async def _until(ws, kind: str, latest: dict, ref: int | None = None, min_ply: int = 0) -> dict:
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 60))
            for msg in frame if isinstance(frame, list) else [frame]:
                if msg["type"] == "state":
                    latest["state"] = msg
                if msg["type"] == kind and (ref is None or msg.get("ref") == ref):
                    if kind != "state" or msg["ply"] >= min_ply:
                        return msg


def long_record() -> dict:
    """A Last Mouse Lost match to 140 wins, random play: about 4,800 actions (no setup randomness,
    so the server before issue 12 replays it the same)."""
    import trapworks
    from trapworks.core import GameRecord

    game = trapworks.make("last-mouse-lost", first_to=140, rules="advanced")
    state, rng = game.new_initial_state(), random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return GameRecord.from_state(state).to_dict()


def replay_flood(url: str, clients: int, stop: threading.Event, counts: dict) -> list[threading.Thread]:
    record = long_record()

    def one() -> None:
        with httpx.Client(timeout=120) as c:
            while not stop.is_set():
                r = c.post(url + "/api/replay", json={"record": record, "seat": 0})
                counts[r.status_code] = counts.get(r.status_code, 0) + 1

    threads = [threading.Thread(target=one, daemon=True) for _ in range(clients)]
    for t in threads:
        t.start()
    return threads


async def fuzz(url: str, sockets: int, stop: asyncio.Event, counts: dict) -> None:
    rng = random.Random(12)
    async with httpx.AsyncClient(timeout=30) as c:
        g = (await c.post(url + "/api/games", json={"game": "last-mouse-lost"})).json()

    def junk() -> str:
        pick = rng.random()
        if pick < 0.3:
            return json.dumps(
                {
                    "type": rng.choice(["move", "sync", "ping", "x"]),
                    "action": "z9",
                    "ply": rng.randrange(-3, 9),
                }
            )
        if pick < 0.6:
            return "[" * rng.randrange(1, 3000) + "]" * rng.randrange(0, 3000)
        return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(1, 200)))

    async def one_socket(i: int) -> None:
        while not stop.is_set():
            try:
                async with connect(
                    url.replace("http", "ws") + f"/ws/games/{g['id']}?token={g['spectator']['token']}"
                ) as ws:
                    while not stop.is_set():
                        await ws.send(junk())
                        counts["ws"] = counts.get("ws", 0) + 1
                        await asyncio.sleep(0)
            except Exception:
                counts["ws_closed"] = counts.get("ws_closed", 0) + 1
                await asyncio.sleep(0.05)

    async def http_junk() -> None:
        async with httpx.AsyncClient(timeout=30) as c:
            while not stop.is_set():
                path = rng.choice(
                    ["/api/games", f"/api/games/{g['id']}/moves", "/api/replay", "/api/catalog/x/check"]
                )
                r = await c.post(
                    url + path, content=junk().encode(), headers={"content-type": "application/json"}
                )
                counts[r.status_code] = counts.get(r.status_code, 0) + 1

    await asyncio.gather(*[one_socket(i) for i in range(sockets)], http_junk())


def summary(samples: list[float]) -> dict:
    if not samples:
        return {"n": 0}
    s = sorted(samples)
    q = lambda p: s[min(len(s) - 1, int(p * len(s)))] * 1000  # noqa: E731
    return {
        "n": len(s),
        "p50_ms": round(q(0.5), 1),
        "p99_ms": round(q(0.99), 1),
        "max_ms": round(s[-1] * 1000, 1),
    }


async def measure(url: str, args: argparse.Namespace) -> dict:
    healthy = Healthy(url, args.pace)
    player = asyncio.create_task(healthy.run())
    phases: dict = {}
    marks = []

    async def phase(name: str) -> None:
        start = time.monotonic()
        await asyncio.sleep(args.phase)
        marks.append((name, start, time.monotonic()))

    await asyncio.sleep(1.0)  # warm-up
    await phase("before")
    stop, counts = threading.Event(), {}
    threads = replay_flood(url, args.replays, stop, counts)
    await phase("replay flood")
    stop.set()
    await asyncio.to_thread(lambda: [t.join(120) for t in threads])
    phases["replay answers"] = counts
    await phase("after flood")
    fstop, fcounts = asyncio.Event(), {}
    fuzzer = asyncio.create_task(fuzz(url, args.fuzzers, fstop, fcounts))
    await phase("fuzz")
    fstop.set()
    await asyncio.wait_for(fuzzer, 60)
    phases["fuzz answers"] = {str(k): v for k, v in fcounts.items()}
    await phase("after fuzz")
    healthy.stop.set()
    await asyncio.wait_for(player, 60)
    for name, start, end in marks:
        phases[name] = summary([lat for t, lat in healthy.samples if start <= t <= end])
    return phases


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--phase", type=float, default=8.0, help="seconds per phase")
    ap.add_argument("--pace", type=float, default=0.05, help="pause after each healthy move, s")
    ap.add_argument("--replays", type=int, default=8, help="replay-flood clients")
    ap.add_argument("--fuzzers", type=int, default=4, help="fuzzing sockets")
    ap.add_argument("--peer-src", type=Path, default=None, help="src/ of the server before issue 12")
    args = ap.parse_args()
    args.phase = min(args.phase, MAX_PHASE_S)
    results = {}
    for name, src in [("trapworks (issue 12)", None), ("peer: before issue 12", args.peer_src)]:
        if name.startswith("peer") and src is None:
            continue
        with tempfile.TemporaryDirectory() as home:
            proc, url = start_server(src, Path(home))
            try:
                results[name] = asyncio.run(measure(url, args))
            finally:
                proc.terminate()
                proc.wait(10)
        print(name, json.dumps(results[name], indent=1), flush=True)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
