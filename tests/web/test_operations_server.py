"""Issue 40 on a real `trapworks serve`: sockets closed by their clients leave no traceback in the
log, and `--log-format json` writes every line as JSON with its request id and no secret."""

from __future__ import annotations

import asyncio
import json
import time

import httpx

from .web_helpers import ServerProcess


def test_sockets_closed_by_their_clients_leave_no_traceback(tmp_path):
    server = ServerProcess(tmp_path / "home", extra_args=["--log-format", "json"]).start()
    try:
        g = httpx.post(f"{server.url}/api/games", json={"game": "last-mouse-lost"}).json()
        url = server.url.replace("http://", "ws://") + f"/ws/games/{g['id']}?token={g['seats'][0]['token']}"

        async def open_and_close() -> None:
            from websockets.asyncio.client import connect

            for start in range(0, 100, 20):
                socks = [await connect(url) for _ in range(20)]
                for s in socks:
                    await s.recv()
                for i, s in enumerate(socks):
                    if (start + i) % 2:
                        await s.close()  # a clean close
                    else:
                        s.transport.abort()  # a client that vanishes

        asyncio.run(open_and_close())
        time.sleep(7)  # past limits.CLOSE_GRACE_S: the server's own timers on those sockets have run
        httpx.get(f"{server.url}/api/catalog")
        time.sleep(0.5)
        lines = [line for line in server.lines if not line.startswith("Open that address")]  # stdout
    finally:
        server.stop()
    records = [json.loads(line) for line in lines if line.startswith("{")]
    assert not [line for line in lines if not line.startswith("{")], "every log line is JSON"
    assert not [r for r in records if "exception" in r or "Traceback" in r.get("message", "")]
    closes = [r for r in records if r.get("event") == "close"]
    assert len(closes) == 100
    assert all(len(r["request_id"]) == 16 for r in records if r.get("kind") in ("http", "ws"))
    assert g["seats"][0]["token"] not in "\n".join(lines)
