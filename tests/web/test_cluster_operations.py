"""Issue 40 through HAProxy with docs/cluster.md's configuration (`option forwardfor`, health
checks on /readyz; the nodes started with `--trusted-proxy` the balancer): clients from several
loopback addresses (127.0.0.2, 127.0.0.3, ...) are counted each by its own address; wrong log-ins
lock nobody else out; a sign-up flood starves no log-in; a creation flood is held to the node's
budget while a player plays; a node whose database is unreachable is taken out of the rotation."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from .accounts_helpers import PASSWORD, SMALL_LML, Browser, unique
from .cluster_helpers import PG_URL, fresh_schema, haproxy, start_nodes, stop_nodes

pytestmark = [
    pytest.mark.skipif(not PG_URL, reason="set TRAPWORKS_TEST_POSTGRES_URL to test a cluster"),
    pytest.mark.skipif(
        not (shutil.which("haproxy") or shutil.which("/usr/sbin/haproxy")), reason="needs haproxy"
    ),
]


def client_from(lb: str, address: str) -> httpx.Client:
    """An HTTP client whose connections leave from `address` (a loopback address of its own)."""
    return httpx.Client(base_url=lb, transport=httpx.HTTPTransport(local_address=address), timeout=30)


async def open_socket(lb: str, path: str, address: str, **headers: str):
    from websockets.asyncio.client import connect

    url = lb.replace("http://", "ws://") + path
    return await connect(url, local_addr=(address, 0), additional_headers=headers or None, open_timeout=15)


def test_sockets_are_bounded_per_client_address_behind_the_balancer(tmp_path):
    """130 sockets from 3 addresses, all accepted, while one address is held to its bound (100);
    the same through HAProxy's PROXY protocol (send-proxy-v2) frontend."""
    with fresh_schema() as url:
        nodes = start_nodes(tmp_path, url, 1)
        try:
            with haproxy(tmp_path / "lb", nodes) as lb:
                with client_from(lb, "127.0.0.2") as c:
                    g = c.post("/api/games", json={"game": "last-mouse-lost", "options": SMALL_LML}).json()
                path = f"/ws/games/{g['id']}?token={g['spectator']['token']}"

                async def run() -> tuple[dict[str, int], str]:
                    opened: dict[str, list] = {"127.0.0.2": [], "127.0.0.3": [], "127.0.0.4": []}
                    refused = refused_via_pp = ""
                    try:
                        for address, n in (("127.0.0.2", 100), ("127.0.0.3", 15), ("127.0.0.4", 15)):
                            for _ in range(n):
                                opened[address].append(await open_socket(lb, path, address))
                        try:
                            extra = await open_socket(lb, path, "127.0.0.2")
                            await extra.close()
                        except Exception as e:  # the handshake's refusal
                            refused = str(e)
                        # i40: through the PROXY protocol frontend (send-proxy-v2) the node sees
                        # the client too: 127.0.0.2 is at its bound there as well, 127.0.0.6 is not.
                        try:
                            extra = await open_socket(lb.proxy_protocol, path, "127.0.0.2")
                            await extra.close()
                        except Exception as e:
                            refused_via_pp = str(e)
                        opened["127.0.0.6"] = [await open_socket(lb.proxy_protocol, path, "127.0.0.6")]
                        # A DNS-rebinding page: Host and Origin agree, but name another host.
                        with pytest.raises(Exception, match="400|403|4400"):
                            await open_socket(
                                lb, path, "127.0.0.5", Host="evil.example", Origin="http://evil.example"
                            )
                        return {a: len(s) for a, s in opened.items()}, refused + "|" + refused_via_pp
                    finally:
                        for socks in opened.values():
                            for s in socks:
                                await s.close()

                counts, refused = asyncio.run(run())
                assert counts == {"127.0.0.2": 100, "127.0.0.3": 15, "127.0.0.4": 15, "127.0.0.6": 1}
                via_forwardfor, via_proxy_protocol = refused.split("|")
                assert "429" in via_forwardfor and "429" in via_proxy_protocol
        finally:
            stop_nodes(nodes)


def test_wrong_log_ins_lock_nobody_else_out_and_sign_ups_starve_no_log_in(tmp_path, monkeypatch):
    # The nodes hash at the production cost (not the suite's cheap one, tests/conftest.py): the
    # flood must fill the hashing queue for real.
    monkeypatch.delenv("TRAPWORKS_PASSWORD_HASH", raising=False)
    with fresh_schema() as url:
        nodes = start_nodes(tmp_path, url, 2)
        try:
            with haproxy(tmp_path / "lb", nodes) as lb:
                victim, bystander = unique("victim"), unique("bystander")
                with client_from(lb, "127.0.0.2") as home, client_from(lb, "127.0.0.3") as other:
                    Browser(home).signup(victim)
                    Browser(other).signup(bystander)
                with client_from(lb, "127.0.0.4") as bad:
                    guesser = Browser(bad)
                    codes = [
                        guesser.login(victim, f"wrong guess {i}", status=None).get("code") for i in range(25)
                    ]
                assert codes[0] == "wrong_login" and codes[-1] == "too_many_attempts", codes
                with client_from(lb, "127.0.0.3") as other:
                    assert Browser(other).login(bystander)["ok"]  # at once: another user, address
                with client_from(lb, "127.0.0.2") as home:
                    assert Browser(home).login(victim)["ok"]  # the victim, from their own address

                # A sign-up flood: 20 at once from 20 addresses for 30 s, while a player logs in 20 times;
                # it ends with the last log-in if that comes first (its hashes after the log-ins prove
                # nothing more; on a loaded machine the log-ins outlast the 30 s, as before).
                stop = time.monotonic() + 30
                logged_in = threading.Event()
                flood_answers: list[int] = []

                def flood(i: int) -> None:
                    with client_from(lb, f"127.0.1.{i + 1}") as c:
                        b = Browser(c)
                        n = 0
                        while time.monotonic() < stop and not logged_in.is_set():
                            b.me()
                            r = c.post(
                                "/api/account/signup",
                                json={"username": unique(f"f{i}n{n}")[:24], "password": PASSWORD},
                                headers={"x-csrf-token": b.csrf},
                            )
                            flood_answers.append(r.status_code)
                            n += 1
                            c.cookies.clear()

                logins: list[int] = []
                with ThreadPoolExecutor(21) as pool:
                    flooders = [pool.submit(flood, i) for i in range(20)]
                    try:
                        time.sleep(2)
                        with client_from(lb, "127.0.0.3") as other:
                            for _ in range(20):
                                other.cookies.clear()
                                b = Browser(other)
                                r = b.login(bystander, status=None)
                                logins.append(200 if r.get("ok") else 0)
                    finally:
                        logged_in.set()
                    for f in flooders:
                        f.result()
                assert logins == [200] * 20
                assert 429 in flood_answers and 200 in flood_answers
                assert all(code in (200, 429) for code in flood_answers), set(flood_answers)
        finally:
            stop_nodes(nodes)


@contextlib.contextmanager
def tcp_forwarder(target_port: int) -> Iterator[tuple[int, threading.Event]]:
    """A TCP forwarder to 127.0.0.1:target_port; setting the event cuts it (every connection
    closed, new ones refused) as a network failure between a node and its database would."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    cut = threading.Event()
    open_socks: list[socket.socket] = []

    def pipe(a: socket.socket, b: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while not cut.is_set():
                data = a.recv(65536)
                if not data:
                    break
                b.sendall(data)
        for s in (a, b):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def serve() -> None:
        while not cut.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", target_port))
            open_socks.extend([conn, upstream])
            threading.Thread(target=pipe, args=(conn, upstream), daemon=True).start()
            threading.Thread(target=pipe, args=(upstream, conn), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()

    def watch() -> None:
        cut.wait()
        with contextlib.suppress(OSError):
            listener.close()
        for s in open_socks:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
                s.close()

    threading.Thread(target=watch, daemon=True).start()
    try:
        yield listener.getsockname()[1], cut
    finally:
        cut.set()


def test_the_balancer_takes_a_node_out_when_its_database_is_unreachable(tmp_path):
    from sqlalchemy.engine import make_url

    with fresh_schema() as url:
        parsed = make_url(url)
        with tcp_forwarder(parsed.port or 5432) as (port, cut):
            via = parsed.set(port=port).render_as_string(hide_password=False)
            nodes = start_nodes(tmp_path, [url, via], 2)
            try:
                with haproxy(tmp_path / "lb", nodes) as lb:
                    ids = {httpx.get(f"{lb}/api/node").json()["node"] for _ in range(6)}
                    assert len(ids) == 2
                    assert httpx.get(f"{nodes[1].url}/readyz").status_code == 200
                    cut.set()
                    r = httpx.get(f"{nodes[1].url}/readyz", timeout=10)
                    assert r.status_code == 503 and r.json()["code"] == "not_ready"
                    assert httpx.get(f"{nodes[1].url}/healthz").status_code == 200
                    # HAProxy's checks (every second, 3 failures) take it out of the rotation.
                    deadline = time.monotonic() + 20
                    while True:
                        seen = {httpx.get(f"{lb}/api/node").json()["node"] for _ in range(6)}
                        if len(seen) == 1 or time.monotonic() > deadline:
                            break
                        time.sleep(0.5)
                    assert seen == {httpx.get(f"{nodes[0].url}/api/node").json()["node"]}
                    # The other node goes on serving through the balancer.
                    with client_from(lb, "127.0.0.2") as c:
                        assert c.post("/api/games", json={"game": "last-mouse-lost"}).status_code == 201
            finally:
                stop_nodes(nodes)


def test_a_creation_flood_from_20_addresses_is_held_to_the_budget_while_a_player_plays(tmp_path):
    """Counts, not times (the times: bench/creation_flood.py, BENCHMARKS.md)."""
    from .conftest import create_game

    with fresh_schema() as url:
        nodes = start_nodes(tmp_path, url, 1)
        try:
            with haproxy(tmp_path / "lb", nodes) as lb:
                with client_from(lb, "127.0.2.1") as me:
                    g = create_game(me)  # a whole match: longer than the flood
                stop = time.monotonic() + 15
                answers: dict[int, int] = {}
                lock = threading.Lock()

                def flood(i: int) -> None:
                    with client_from(lb, f"127.0.1.{i + 1}") as c:
                        while time.monotonic() < stop:
                            r = c.post("/api/games", json={"game": "last-mouse-lost"})
                            with lock:
                                answers[r.status_code] = answers.get(r.status_code, 0) + 1
                            if r.status_code == 429:
                                assert int(r.headers["retry-after"]) > 0
                                time.sleep(0.05)

                acked = 0
                with ThreadPoolExecutor(20) as pool:
                    flooders = [pool.submit(flood, i) for i in range(20)]
                    with client_from(lb, "127.0.2.1") as me:
                        ply = 0
                        while time.monotonic() < stop:
                            seen = me.get(
                                f"/api/games/{g['id']}", params={"token": g["seats"][0]["token"]}
                            ).json()
                            if seen["state"]["terminal"]:
                                break
                            seat = seen["state"]["to_move"]
                            if seat is None:  # chance to move: the server plays it
                                time.sleep(0.05)
                                continue
                            state = me.get(
                                f"/api/games/{g['id']}", params={"token": g["seats"][seat]["token"]}
                            ).json()
                            ply = state["state"]["ply"]
                            action = state["state"]["view"]["legal_actions"][0]["text"]
                            r = me.post(
                                f"/api/games/{g['id']}/moves",
                                json={"token": g["seats"][seat]["token"], "action": action, "ply": ply},
                            )
                            assert r.status_code == 200, r.text
                            acked += 1
                            ply = r.json()["ply"]
                    for f in flooders:
                        f.result()
                assert acked > 0
                # The node's budget (120 a minute, fairly shared) holds the flood; the rest is 429.
                assert 0 < answers.get(201, 0) <= 120 and answers.get(429, 0) > answers[201], answers
                assert set(answers) <= {201, 429}, answers
        finally:
            stop_nodes(nodes)
