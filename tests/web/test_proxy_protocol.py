"""Issue 40: the PROXY protocol (HAProxy's send-proxy / send-proxy-v2) read in front of uvicorn
(server/proxyproto.py), believed only from the trusted proxies. One uvicorn server on a thread,
raw sockets: what the app sees as the client's address."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from ipaddress import IPv4Address

import pytest
import uvicorn
import uvloop
from proxyprotocol.result import ProxyResultIPv4
from proxyprotocol.v2 import ProxyProtocolV2

from trapworks.server.limits import uvicorn_settings
from trapworks.server.proxyproto import header_length, with_proxy_protocol


async def echo_client(scope, receive, send):
    body = f"{scope['client'][0]}".encode()
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


@contextmanager
def server(trusted: list[str]) -> Iterator[int]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    settings = uvicorn_settings()
    settings["http"] = with_proxy_protocol(settings["http"], trusted)
    srv = uvicorn.Server(uvicorn.Config(echo_client, log_level="warning", lifespan="off", **settings))
    # uvloop, as `trapworks serve` runs (its transports are not asyncio.Transport instances).
    runner = asyncio.Runner(loop_factory=uvloop.new_event_loop)
    thread = threading.Thread(target=lambda: runner.run(srv.serve(sockets=[sock])), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield sock.getsockname()[1]
    finally:
        srv.should_exit = True
        thread.join(10)


def ask(port: int, head: bytes = b"", source: str = "127.0.0.1") -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0)) as c:
        c.sendall(head + b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        got = b""
        while chunk := c.recv(4096):
            got += chunk
    return got.decode("latin-1")


def v2(client: str) -> bytes:
    return ProxyProtocolV2().pack(
        ProxyResultIPv4((IPv4Address(client), 40000), (IPv4Address("127.0.0.1"), 80))
    )


V1 = b"PROXY TCP4 203.0.113.7 127.0.0.1 40000 80\r\n"


def test_a_trusted_proxys_v1_and_v2_headers_name_the_client():
    with server(["127.0.0.1"]) as port:
        assert ask(port, v2("198.51.100.4")).endswith("\r\n\r\n198.51.100.4")
        assert ask(port, V1).endswith("\r\n\r\n203.0.113.7")
        # Without a header (a health check without check-send-proxy): the proxy's own address.
        assert ask(port).endswith("\r\n\r\n127.0.0.1")


def test_a_header_from_an_untrusted_address_is_not_believed():
    with server(["127.0.0.9"]) as port:
        answer = ask(port, v2("198.51.100.4"))
        assert answer.startswith("HTTP/1.1 400") and "198.51.100.4" not in answer
        assert ask(port, V1).startswith("HTTP/1.1 400")
        assert ask(port).endswith("\r\n\r\n127.0.0.1")


def test_a_malformed_header_from_the_proxy_closes_the_connection():
    with server(["127.0.0.1"]) as port:
        assert ask(port, b"PROXY TCP4 not-an-address 127.0.0.1 1 2\r\n") == ""


@pytest.mark.parametrize(
    ("data", "length"),
    [(b"", None), (b"PRO", None), (V1[:20], None), (V1 + b"GET", len(V1)), (b"GET / HTTP/1.1\r\n", 0)],
)
def test_the_header_length_is_found_in_pieces(data, length):
    assert header_length(data) == length


def test_a_v2_header_arriving_in_pieces_is_waited_for():
    head = v2("198.51.100.4")
    assert header_length(head[:10]) is None
    assert header_length(head[:15]) is None
    assert header_length(head + b"GET") == len(head)
