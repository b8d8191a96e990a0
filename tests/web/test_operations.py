"""Running in front of the internet (issue 40), in one process: trusted proxies, the Host
allow-list, the log-in throttle, sign-up bounds, the fair hashing queue and budget, health and
metrics. The same through HAProxy with several client addresses: tests/web/test_cluster_operations.py."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import sys
import time

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from starlette.websockets import WebSocketDisconnect

from trapworks.core.registry import is_loaded, register_game, unregister
from trapworks.server import create_app
from trapworks.server.accounts import throttle
from trapworks.server.bounds import Bounds
from trapworks.server.budget import FairBudget
from trapworks.server.proxy import OpsSettings, SettingsError

from .accounts_helpers import PASSWORD, Browser
from .conftest import create_game

BALANCER = "testclient"  # the TestClient's own address: the proxy in front of the app


def _client(app, address: str | None = None, **kw) -> TestClient:
    headers = {"x-forwarded-for": address} if address else {}
    return TestClient(app, headers=headers, **kw)


def test_forwarded_addresses_are_believed_only_from_a_trusted_proxy(db_url, tmp_path):
    bounds = Bounds(games_per_hour=2)
    behind = create_app(db_url, bounds=bounds, ops=OpsSettings(trusted_proxies=(BALANCER,)))
    with _client(behind, "203.0.113.7") as a, _client(behind, "203.0.113.8") as b:
        create_game(a)
        create_game(a)
        r = a.post("/api/games", json={"game": "last-mouse-lost"})
        assert r.status_code == 429 and r.json()["code"] == "too_many_games"
        create_game(b)  # another client behind the same balancer: its own bound
    # Without the proxy trusted, X-Forwarded-For is the client's word: it buys nothing.
    direct = create_app(f"sqlite:///{tmp_path / 'other.sqlite'}", bounds=bounds)
    with _client(direct, "203.0.113.7") as a, _client(direct, "203.0.113.8") as b:
        create_game(a)
        create_game(a)
        r = b.post("/api/games", json={"game": "last-mouse-lost"})
        assert r.status_code == 429 and r.json()["code"] == "too_many_games"


def test_the_secure_cookie_follows_x_forwarded_proto_from_a_trusted_proxy_only(db_url):
    app = create_app(db_url, ops=OpsSettings(trusted_proxies=(BALANCER,)))
    with TestClient(app, headers={"x-forwarded-proto": "https"}) as c:
        b = Browser(c)
        b.me()
        r = c.post(
            "/api/account/signup",
            json={"username": "secure1", "password": PASSWORD},
            # The CSRF cookie is Secure now: an http test client would not send it back by itself.
            headers={"x-csrf-token": b.csrf, "cookie": f"tw_csrf={b.csrf}"},
        )
        assert r.status_code == 200, r.text
        assert "Secure" in next(x for x in r.headers.get_list("set-cookie") if x.startswith("tw_session="))


def test_settings_come_from_the_command_line_then_the_environment_then_the_config_file(tmp_path):
    cfg = tmp_path / "trapworks.toml"
    cfg.write_text(
        'trusted_proxy = ["10.0.0.5"]\nallowed_host = ["games.example.org"]\nlog_format = "json"\n'
    )
    s = OpsSettings.load(config=cfg, environ={})
    assert s.trusted_proxies == ("10.0.0.5",) and s.allowed_hosts == ("games.example.org",)
    assert s.log_format == "json"
    s = OpsSettings.load(config=cfg, environ={"TRAPWORKS_TRUSTED_PROXY": "10.0.0.6,10.0.1.0/24"})
    assert s.trusted_proxies == ("10.0.0.6", "10.0.1.0/24")
    s = OpsSettings.load(
        trusted_proxy=["10.0.0.7"], config=cfg, environ={"TRAPWORKS_TRUSTED_PROXY": "10.0.0.6"}
    )
    assert s.trusted_proxies == ("10.0.0.7",)
    # The default allowed hosts: the addresses served.
    s = OpsSettings.load(environ={}, served_host="127.0.0.1")
    assert s.allowed_hosts is not None and {"127.0.0.1", "localhost"} <= set(s.allowed_hosts)
    assert "evil.example" not in s.allowed_hosts
    with pytest.raises(SettingsError, match="not an IP address"):
        OpsSettings.load(trusted_proxy=["balancer!"], environ={})
    cfg.write_text("trusted_proxies = []\n")
    with pytest.raises(SettingsError, match="unknown setting"):
        OpsSettings.load(config=cfg, environ={})


def test_a_dns_rebinding_page_is_refused(db_url):
    app = create_app(db_url, ops=OpsSettings(allowed_hosts=("127.0.0.1", "localhost")))
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        g = create_game(c)
        url = f"/ws/games/{g['id']}?token={g['seats'][0]['token']}"
        # The page of evil.example, its name re-pointed at this server: Host and Origin agree.
        evil = {"host": "evil.example", "origin": "http://evil.example"}
        assert c.get("/api/catalog", headers={"host": "evil.example"}).json()["code"] == "unknown_host"
        with pytest.raises(WebSocketDisconnect), c.websocket_connect(url, headers=evil) as ws:
            ws.receive_json()
        # Another site's page, sent to the right host: the Origin is not allowed.
        other = {"host": "127.0.0.1:8000", "origin": "http://evil.example"}
        with pytest.raises(WebSocketDisconnect), c.websocket_connect(url, headers=other) as ws:
            ws.receive_json()
        own = {"host": "127.0.0.1:8000", "origin": "http://127.0.0.1:8000"}
        with c.websocket_connect(url, headers=own) as ws:
            assert ws.receive_json()["type"] == "hello"


def test_health_readiness_and_metrics(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    app = create_app(f"sqlite:///{data / 'web.sqlite'}")
    with TestClient(app, client=("127.0.0.1", 40000)) as admin, TestClient(app) as anyone:
        assert anyone.get("/healthz").json() == {"ok": True}
        assert anyone.get("/readyz").status_code == 200
        # Only the operator's addresses read the node's figures.
        for path in ("/metrics", "/api/node"):
            r = anyone.get(path)
            assert r.status_code == 403 and r.json()["code"] == "admin_only"
        assert admin.get("/api/node").status_code == 200
        g = create_game(admin)
        r = admin.post(
            f"/api/games/{g['id']}/moves",
            json={"token": g["seats"][0]["token"], "action": "take 1", "ply": 0},
        )
        with admin.websocket_connect(f"/ws/games/{g['id']}?token={g['seats'][1]['token']}") as ws:
            ws.receive_json()
            families = {f.name: f for f in text_string_to_metric_families(admin.get("/metrics").text)}
        assert families["trapworks_sockets_open"].samples[0].value == 1
        assert families["trapworks_games_live"].samples[0].value >= 1
        assert families["trapworks_games_created"].samples[0].value == 1
        moves = [s.value for s in families["trapworks_moves"].samples if s.name == "trapworks_moves_total"]
        assert moves == [1 if r.status_code == 200 else 0]
        assert any(
            s.name == "trapworks_move_seconds_bucket" for s in families["trapworks_move_seconds"].samples
        )
        routes = {s.labels.get("route") for s in families["trapworks_http_request_seconds"].samples}
        assert "/api/games/{gid}/moves" in routes and not any(g["id"] in (x or "") for x in routes)
        assert "trapworks_bus_lag_seconds" in families and "trapworks_node_info" in families
        app.state.store.engine.dispose()
        # The database gone (its folder moved away): not ready, still alive.
        shutil.move(data, tmp_path / "gone")
        r = anyone.get("/readyz")
        assert r.status_code == 503 and "database" in r.json()["problems"]
        assert anyone.get("/healthz").status_code == 200
        shutil.move(tmp_path / "gone", data)
        assert anyone.get("/readyz").status_code == 200


def test_refusals_are_counted_in_the_metrics(db_url):
    app = create_app(db_url, bounds=Bounds(games_per_hour=1))
    with TestClient(app, client=("127.0.0.1", 40000)) as c:
        create_game(c)
        assert c.post("/api/games", json={"game": "last-mouse-lost"}).status_code == 429
        families = {f.name: f for f in text_string_to_metric_families(c.get("/metrics").text)}
        refused = {
            s.labels["code"]: s.value
            for s in families["trapworks_refusals"].samples
            if s.name.endswith("_total")
        }
        assert refused == {"too_many_games": 1}


def test_a_refused_creation_is_answered_before_the_stack_and_logged_as_a_sum(db_url, caplog, monkeypatch):
    """Issue 40 (creation flood): a creation the bounds refuse anyway is answered by EarlyRefusal,
    outermost: no access-log line each (one line sums them), the same typed 429 with Retry-After
    and the security headers, counted in the metrics. (Before: one log line per refusal.)"""
    from trapworks.server.bounds import EarlyRefusal

    app = create_app(db_url, bounds=Bounds(games_per_hour=1))
    with TestClient(app, client=("127.0.0.1", 40000)) as c:
        create_game(c)
        caplog.set_level("INFO", logger="trapworks.access")
        caplog.clear()
        answers = [c.post("/api/games", json={"game": "last-mouse-lost"}) for _ in range(3)]
        assert [a.status_code for a in answers] == [429] * 3
        body = answers[0].json()
        assert body["code"] == "too_many_games" and body["args"]["games_per_hour"] == 1
        assert body["msg"] == "at most {games_per_hour} games an hour from one address; the next in {wait} s"
        assert 3500 < int(answers[0].headers["retry-after"]) <= 3601
        assert answers[0].headers["x-content-type-options"] == "nosniff"
        assert [r for r in caplog.records if getattr(r, "path", "") == "/api/games"] == []
        monkeypatch.setattr(EarlyRefusal, "LOG_EVERY_S", 0.0)
        assert c.post("/api/games", json={"game": "last-mouse-lost"}).status_code == 429
        (line,) = [r for r in caplog.records if getattr(r, "path", "") == "/api/games"]
        assert line.count == 4 and line.status == 429 and "too_many_games 4" in line.getMessage()
        families = {f.name: f for f in text_string_to_metric_families(c.get("/metrics").text)}
        refused = {
            s.labels["code"]: s.value
            for s in families["trapworks_refusals"].samples
            if s.name.endswith("_total")
        }
        assert refused == {"too_many_games": 4}


def test_a_bound_of_zero_games_refuses_every_creation_with_a_429(db_url):
    """TRAPWORKS_BOUND_GAMES_PER_HOUR=0 or _GAMES_PER_MINUTE_TOTAL=0 (a node that makes no games):
    a 429 with Retry-After, not a 500 (there was no earlier game to wait for: IndexError)."""
    for bounds in (Bounds(games_per_hour=0), Bounds(games_per_minute_total=0)):
        with TestClient(create_app(db_url, bounds=bounds), client=("127.0.0.1", 40000)) as c:
            for _ in range(2):  # the bounds' own refusal, then the early one
                r = c.post("/api/games", json={"game": "last-mouse-lost"})
                assert r.status_code == 429 and int(r.headers["retry-after"]) > 0, r.text


def test_asking_the_budget_takes_nothing():
    budget = FairBudget(10, window_s=60, burst=2, pace_from=1)
    for _ in range(50):
        assert budget.take("a", 1.0, dry=True) is None
    assert not budget.events and budget.tokens == 2.0
    assert budget.take("a", 1.0) is None  # a real take takes
    assert len(budget.events) == 1 and budget.tokens == 1.0
    assert budget.take("a", 1.0, dry=True) is not None  # too few tokens left for a repeat: it would wait
    assert len(budget.events) == 1 and budget.tokens == 1.0


def test_wrong_log_ins_slow_the_guesser_down_and_nobody_else(db_url):
    app = create_app(db_url, ops=OpsSettings(trusted_proxies=(BALANCER,)))
    home, attacker, elsewhere, other_home = "198.51.100.10", "203.0.113.66", "192.0.2.9", "198.51.100.20"
    with _client(app, home) as h, _client(app, other_home) as o:
        Browser(h).signup("victim1")
        Browser(o).signup("bystander1")
    with _client(app, attacker) as a:
        guesser = Browser(a)
        statuses = []
        for i in range(25):
            r = guesser.login("victim1", f"wrong guess {i}", status=None)
            statuses.append(r.get("code"))
        assert statuses[: throttle.FAILS_PER_PAIR] == ["wrong_login"] * throttle.FAILS_PER_PAIR
        assert set(statuses[throttle.FAILS_PER_PAIR :]) == {"too_many_attempts"}
        r = a.post(
            "/api/account/login",
            json={"username": "victim1", "password": PASSWORD},
            headers={"x-csrf-token": guesser.csrf},
        )
        assert r.status_code == 429 and int(r.headers["retry-after"]) > 0  # even the right password
    with _client(app, other_home) as o:
        assert Browser(o).login("bystander1")["ok"]  # another user, another address: at once
    with _client(app, home) as h:
        assert Browser(h).login("victim1")["ok"]  # the victim at home: at once
    # Wrong log-ins for the name from many addresses: the name is slowed down from new addresses
    # (one try per SLOW_S), never from its owner's.
    for n in range(throttle.FAILS_PER_NAME - throttle.FAILS_PER_PAIR):  # the attacker's counted too
        with _client(app, f"203.0.113.{100 + n}") as x:
            Browser(x).login("victim1", "wrong again", status=401)
    with _client(app, elsewhere) as e:
        r = Browser(e).login("victim1", status=429)
        assert r["code"] == "slowed_down"
    with _client(app, home) as h:
        assert Browser(h).login("victim1")["ok"]


def test_sign_ups_are_bounded_per_address_with_retry_after(db_url):
    app = create_app(db_url, ops=OpsSettings(trusted_proxies=(BALANCER,)))
    with _client(app, "203.0.113.5") as c:
        b = Browser(c)
        b.me()
        r = c.post(
            "/api/account/signup",
            json={"username": "x", "password": "short"},
            headers={"x-csrf-token": b.csrf},
        )
        assert r.status_code == 400  # refused for its content: costs nothing
        for i in range(throttle_signups_per_address()):
            b.signup(f"flood{i}")
        b.me()
        r = c.post(
            "/api/account/signup",
            json={"username": "flood-last", "password": PASSWORD},
            headers={"x-csrf-token": b.csrf},
        )
        assert (
            r.status_code == 429
            and r.json()["code"] == "too_many_signups"
            and int(r.headers["retry-after"]) > 0
        )
    with _client(app, "203.0.113.6") as c:
        Browser(c).signup("another-address")


def throttle_signups_per_address() -> int:
    from trapworks.server.operations import SIGNUPS_PER_ADDRESS_HOUR

    return SIGNUPS_PER_ADDRESS_HOUR


def test_the_hashing_queue_serves_log_ins_before_sign_ups():
    started: list[str] = []

    def work(kind: str) -> None:
        started.append(kind)
        time.sleep(0.05)

    async def main() -> list[str]:
        queue = throttle.HashQueue(slots=2, signup_slots=1, signup_waiting=8)
        signups = [asyncio.create_task(queue.signup(work, "signup")) for _ in range(6)]
        await asyncio.sleep(0.01)
        logins = [asyncio.create_task(queue.login(work, "login")) for _ in range(3)]
        await asyncio.gather(*signups, *logins)
        # Past its queue a sign-up is told to come back, never a log-in starved.
        many = [asyncio.create_task(queue.signup(work, "signup")) for _ in range(12)]
        results = await asyncio.gather(*many, return_exceptions=True)
        refused = [r for r in results if isinstance(r, throttle.Throttled)]
        assert refused and all(r.status == 429 and r.retry_after > 0 for r in refused)
        return started

    order = asyncio.run(main())
    first_nine = order[:9]
    # One sign-up at a time; the three log-ins start before the sign-ups that were waiting.
    assert first_nine.index("login") <= 2 and first_nine[:5].count("login") == 3


def test_the_node_budget_is_shared_fairly_between_addresses():
    budget = FairBudget(100, window_s=60)
    granted = {f"flood{i}": 0 for i in range(20)}
    t = 0.0
    for _ in range(20):
        for a in granted:
            t += 0.001
            if budget.take(a, t) is None:
                granted[a] += 1
    assert sum(granted.values()) <= 100
    # A player who comes now still gets in (the flooders are past their share, not the budget).
    assert budget.take("player", t + 0.001) is None
    while budget.take("player", t + 0.002) is None:
        pass
    assert budget.take("flood0", t + 0.003) is not None
    # The window passes: room again.
    assert budget.take("flood0", t + 61) is None


def test_a_paced_budget_spreads_a_flood_and_keeps_tokens_for_a_newcomer():
    """120 a minute in bursts of 4: a flood from 20 addresses gets 4 at once, then 2 a second,
    not the window's 120 at once (a creation is event-loop work: all at once they stalled the
    players' moves); the last two tokens are kept for an address with nothing in the window."""
    budget = FairBudget(120, window_s=60, burst=4)
    granted = 0
    for step in range(400):  # 20 s of 20 addresses asking every 50 ms
        for i in range(20):
            if budget.take(f"flood{i}", step * 0.05) is None:
                granted += 1
    assert 40 <= granted <= 46
    assert budget.take("player", 20.0) is None  # the player gets in at once
    assert budget.take("flood0", 20.0) is not None
    # One address (or a few) making game after game is not a flood: never paced.
    alone = FairBudget(120, window_s=60, burst=4)
    assert [alone.take("a" if i % 2 else "b", i * 0.01) for i in range(20)] == [None] * 20


def test_a_public_profile_lists_finished_games_only(db_url):
    from .accounts_helpers import SMALL_LML, play_to_end

    app = create_app(db_url)
    with TestClient(app) as c:
        owner = Browser(c)
        owner.signup("profiled")
        on = create_game(c, options=SMALL_LML)
        done = create_game(c, options=SMALL_LML)
        seats = [{"game": g["id"], "token": g["seats"][0]["token"]} for g in (on, done)]
        owner.post("/api/account/seats", {"seats": seats})
        play_to_end(c, done["id"], [s["token"] for s in done["seats"]])
    with TestClient(app) as anyone:
        profile = anyone.get("/api/players/profiled").json()
    listed = [g["id"] for g in profile["recent"]]
    assert done["id"] in listed and on["id"] not in listed


def test_sockets_closed_by_their_clients_leave_no_objects_behind(db_url):
    """Issue 40 (memory after sockets close): 100 sockets from 100 client addresses opened and
    closed leave no per-socket objects (the room's connections, per-connection state and
    coroutines, per-address tables): no gc-tracked type grows with the number of sockets. Left
    out of the count: one dead weakref per socket, traced (tracemalloc) to CPython's sqlite3
    module, which keeps a weakref to every cursor a connection made and prunes the dead ones
    only every 200th cursor (each socket's reads make one): bounded per pooled connection, not
    a leak (BENCHMARKS.md, issue 40)."""
    import collections
    import gc

    app = create_app(db_url, ops=OpsSettings(trusted_proxies=(BALANCER,)))

    def sockets(c: TestClient, url: str, n: int, net: int) -> None:
        for i in range(n):
            with c.websocket_connect(url, headers={"x-forwarded-for": f"10.0.{net}.{i}"}) as ws:
                assert ws.receive_json()["type"] == "hello"

    def census() -> collections.Counter[str]:
        gc.collect()
        return collections.Counter(type(o).__name__ for o in gc.get_objects())

    with TestClient(app) as c:
        g = create_game(c)
        url = f"/ws/games/{g['id']}?token={g['spectator']['token']}"
        sockets(c, url, 20, 1)  # first use: caches, pools and imports made once
        before = census()
        sockets(c, url, 100, 2)
        grown = census() - before
        room = app.state.service.get(g["id"])
    untraced = {"ReferenceType", "builtin_function_or_method"}
    counted = {kind: n for kind, n in grown.items() if kind not in untraced}
    assert sum(counted.values()) < 100, grown.most_common(10)
    assert not [kind for kind, n in counted.items() if n >= 50], grown.most_common(10)
    assert not room.connections  # no socket left registered with the room


def test_a_games_first_creation_imports_its_module_off_the_event_loop(db_url, tmp_path, monkeypatch):
    """Issue 40 (creation flood): the first game of a kind on a node imports the game's modules
    (measured 0.3-2 s: numpy, numba, pymunk); on the event loop that stalled every player's
    moves. A game registered by "module:attr", not imported yet, is imported in a worker thread
    when its first game is created; the game is made and stored as any other."""
    (tmp_path / "tw_import_probe.py").write_text(
        "import asyncio\n"
        "try:\n"
        "    asyncio.get_running_loop()\n"
        "    ON_LOOP = True\n"
        "except RuntimeError:\n"
        "    ON_LOOP = False\n"
        "from tests.example_game import SPEC\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    from tests.example_game import SPEC

    register_game(SPEC.game_id, "tw_import_probe:SPEC")
    try:
        assert not is_loaded(SPEC.game_id)
        with TestClient(create_app(db_url)) as c:
            g = create_game(c, game=SPEC.game_id)
            assert c.get(f"/api/games/{g['id']}", params={"token": g["seats"][0]["token"]}).status_code == 200
        import tw_import_probe  # type: ignore[import-not-found]

        assert tw_import_probe.ON_LOOP is False
    finally:
        unregister(SPEC.game_id)
        sys.modules.pop("tw_import_probe", None)


def test_a_new_games_row_is_committed_off_the_event_loop(db_url):
    """Issue 40 (creation flood): the game's row is written in a worker thread, so a flood of
    creations does not run its commits on the event loop between the players' moves."""
    app = create_app(db_url)
    threads: list[bool] = []
    with TestClient(app) as c:
        store = app.state.service.store
        insert = store.insert_game

        def recording_insert(game):
            try:
                asyncio.get_running_loop()
                threads.append(True)  # called on the event loop's thread
            except RuntimeError:
                threads.append(False)
            insert(game)

        store.insert_game = recording_insert
        g = create_game(c)
    assert threads == [False]
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as db:  # and it is stored
        assert db.execute("SELECT count(*) FROM games WHERE id = ?", (g["id"],)).fetchone() == (1,)


def test_moves_are_committed_before_a_waiting_creation_and_never_wait_on_it_on_the_loop(db_url):
    """Issue 40 (creation flood): SQLite has one writer at a time. A move's commit (on the event
    loop) never blocks the loop on a creation's commit (in a worker thread): it comes back when
    the creation is done; and a creation waits while moves wait to be committed. (Before: the
    loop sat in SQLite's busy handler, and creations took the lock whenever they came.)"""
    app = create_app(db_url)
    with TestClient(app) as c:
        gid = create_game(c)["id"]
    store = app.state.store
    seen: list[tuple[str, bool]] = []

    async def main() -> None:
        with store.creation_turn():  # a creation is committing
            move = store.append_actions_soon(gid, 0, [(0, "x")])
            for _ in range(5):
                await asyncio.sleep(0.002)  # the loop goes on meanwhile
            assert not move.done()
        await move  # committed once the creation is done
        waiting = store.append_actions_soon(gid, 1, [(1, "y")])

        def creation() -> None:
            with store.creation_turn():
                seen.append(("creation", waiting.done()))

        await asyncio.gather(asyncio.to_thread(creation), waiting)

    asyncio.run(main())
    assert seen == [("creation", True)]
    assert store.actions_from(gid, 0) == [(0, "x"), (1, "y")]
    store.close()
