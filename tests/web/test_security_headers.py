"""Issue 26, item 8 (deliver 4): browser security headers on every route, and WebSocket opens from
another site's page refused. The browser side (framing, no CSP violation) is in
test_security_browser.py."""

import asyncio
import re

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from starlette.routing import Mount

from trapworks.server import create_app
from trapworks.server.headers import origin_allowed

from .conftest import create_game


def concrete(path: str, gid: str) -> str:
    return re.sub(r"\{[^}]+\}", lambda m: gid if m.group(0) == "{gid}" else "x", path)


def assert_strict(r, *, embed=False):
    h = r.headers
    csp = h.get("content-security-policy", "")
    assert "script-src 'self'" in csp and "unsafe-eval" not in csp, (r.request.url, csp)
    assert "object-src 'none'" in csp and "base-uri 'none'" in csp
    if embed:
        assert "frame-ancestors *" in csp and "x-frame-options" not in h
    else:
        assert "frame-ancestors 'none'" in csp, (r.request.url, csp)
        assert h.get("x-frame-options") == "DENY"
    assert h.get("x-content-type-options") == "nosniff"
    assert h.get("referrer-policy") == "no-referrer"


def every_route(routes):
    """The app's routes, those of its included routers too (FastAPI keeps an included APIRouter
    as one entry of app.routes, `original_router` holding its routes)."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from every_route(inner.routes)
        else:
            yield route


def test_every_route_answers_with_the_security_headers(client):
    g = create_game(client)
    checked = 0
    for route in every_route(client.app.routes):
        if isinstance(route, APIRoute):
            for method in route.methods:
                url = concrete(route.path, g["id"])
                r = client.request(method, url, json={} if method == "POST" else None)
                assert_strict(r)
                checked += 1
        elif isinstance(route, Mount):  # the static files
            r = client.get(route.path + "/app.css")
            assert r.status_code == 200
            assert_strict(r)
            checked += 1
    for url in ("/", f"/g/{g['id']}", "/replay", "/openapi.json", "/no/such/page", "/static/nothing.js"):
        assert_strict(client.get(url))
        checked += 1
    assert_strict(client.put("/api/catalog"))  # 405
    assert checked > 30


def test_the_api_docs_may_load_their_cdn_files_but_cannot_be_framed(client):
    r = client.get("/docs")
    csp = r.headers["content-security-policy"]
    assert "https://cdn.jsdelivr.net" in csp and "frame-ancestors 'none'" in csp


def test_only_the_embeddable_replay_may_be_framed(client):
    g = create_game(client)
    assert_strict(client.get(f"/replay/{g['id']}?embed=1"), embed=True)
    assert_strict(client.get(f"/replay/{g['id']}"))
    assert_strict(client.get(f"/replay/{g['id']}?embed=0"))
    assert_strict(client.get("/replay?embed=1"))  # the upload page is not the embeddable one


def test_refusals_by_the_limits_carry_the_headers_too(db_url):
    # A burst of one token refilled at one per million seconds: the second GET is refused however
    # long the first takes on a loaded machine (at one a second the bucket refilled between them).
    with TestClient(create_app(db_url, request_rate=(1e-6, 1.0))) as c:
        c.get("/api/catalog")
        r = c.get("/api/catalog")
        assert r.status_code == 429
        assert_strict(r)


@pytest.mark.parametrize(
    ("origin", "ok"),
    [
        (None, True),
        (b"http://127.0.0.1:8000", True),
        (b"https://127.0.0.1:8000", True),
        (b"http://127.0.0.1:8001", False),
        (b"http://evil.example", False),
        (b"null", False),
        (b"https://games.example.org", True),  # the allowed origin of a proxy
    ],
)
def test_origin_rule(origin, ok):
    headers = {b"host": b"127.0.0.1:8000"}
    if origin is not None:
        headers[b"origin"] = origin
    assert origin_allowed(headers, ["https://games.example.org"]) is ok


def test_a_websocket_from_another_sites_page_is_refused_at_the_handshake(tmp_path):
    """Against `trapworks serve`: another origin gets 403; the served origin and a configured
    --allowed-origin open and get their hello."""
    import httpx
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    from .web_helpers import ServerProcess

    server = ServerProcess(tmp_path / "home", extra_args=["--allowed-origin", "https://games.example.org"])
    server.start()
    try:
        g = httpx.post(f"{server.url}/api/games", json={"game": "last-mouse-lost"}).json()
        url = f"ws://127.0.0.1:{server.port}/ws/games/{g['id']}?token={g['seats'][0]['token']}"

        async def open_with(origin):
            try:
                async with connect(url, origin=origin, open_timeout=10) as ws:
                    return (await ws.recv())[:20]
            except InvalidStatus as e:
                return e.response.status_code

        async def all_of():
            return [
                await open_with("http://evil.example"),
                await open_with(f"http://localhost:{server.port}"),  # another origin, same machine
                await open_with(server.url),
                await open_with("https://games.example.org"),
            ]

        evil, other_host, own, proxied = asyncio.run(all_of())
        assert evil == 403 and other_host == 403
        assert '"type":"hello"' in own and '"type":"hello"' in proxied
    finally:
        server.stop()
