"""Shared test settings, and the game from another package every game-wide test runs on."""

import os
from pathlib import Path

from hypothesis import HealthCheck, settings

from fixtures.installed import install

# Take-away (tests/fixtures/extgame) is a package of its own with a `trapworks.games` entry
# point: installed here as a distribution before any test lists the games, it is found the way
# any installed game is, so every test that iterates the games checks the contract on a game
# that lives outside trapworks and declares only `game` and `state`.
EXTERNAL_GAME = "take-away"
install(Path(__file__).parent / "fixtures" / "extgame")

# Property tests: a fixed profile in CI so the run is reproducible and bounded.
settings.register_profile("ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def share_one_ssl_context_between_httpx_clients() -> None:
    """Every `httpx.get()`/`post()` and every `httpx.Client` (FastAPI's TestClient is one) builds a
    new SSL context, reading and parsing certifi's CA bundle: 37 ms of CPU each on this machine,
    though the tests speak plain HTTP to loopback servers. Polling loops and API-driven games made
    hundreds of them a test (the French pages' Mouse Trap game, 240 plies by the API: 11 CPU s of
    client, 1 of server). The default context (verify=True, no client certificate, the same
    environment) is made once and shared, as httpx's docs advise (`verify=ctx`); any other
    arguments build their own as before. Verification is unchanged: the same context, reused."""
    try:
        from httpx._transports import default as transports
    except ImportError:  # another httpx layout: every client builds its own, only slower
        return
    build = transports.create_ssl_context
    made: dict[tuple, object] = {}

    def create_ssl_context(verify=True, cert=None, trust_env=True):
        if verify is not True or cert is not None or not trust_env:
            return build(verify=verify, cert=cert, trust_env=trust_env)
        key = (os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))
        if key not in made:
            made[key] = build(verify=verify, cert=cert, trust_env=trust_env)
        return made[key]

    transports.create_ssl_context = create_ssl_context


share_one_ssl_context_between_httpx_clients()

ARTIFACTS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "artifacts")


def pytest_configure(config):
    # TRAPWORKS_CPU_REPORT=path: each test's CPU seconds, this process and its children (cpu_report.py).
    if os.environ.get("TRAPWORKS_CPU_REPORT"):
        import cpu_report

        config.pluginmanager.register(cpu_report, "trapworks_cpu_report")


# The fast lane (`pytest -m "not slow" --ignore=tests/web`, README) leaves out what costs minutes:
# besides the tests marked `slow` one by one, every test that drives Chromium (tests/community has
# some), the files of scripts/test.sh's heavy lane, and the tests that start a Ray cluster (64 +
# 23 CPU s in the fast lane, docs/testing.md). The full command runs them all.
LEFT_OUT_OF_THE_FAST_LANE = (
    "tests/booby_trap/test_at_rest.py",
    "tests/dead_end_drive/test_dd_batch.py",
    "tests/research/test_vector_env",
    "tests/sim/test_ray.py",
    "tests/sim/test_ray_no_workers.py",
)


def pytest_collection_modifyitems(config, items):
    import pytest

    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)
        elif item.nodeid.startswith(LEFT_OUT_OF_THE_FAST_LANE):
            item.add_marker(pytest.mark.slow)
