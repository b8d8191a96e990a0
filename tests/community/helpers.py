"""Shared by the community tests: an app on a fresh SQLite file and logged-in players."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from trapworks.server import create_app
from web.accounts_helpers import SMALL_LML, Browser, unique

__all__ = ["SMALL_LML", "Browser", "players", "unique", "app_client", "make_moderator"]


def app_client(tmp_path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'community.sqlite'}", data_dir=tmp_path))


def players(app: Any, *prefixes: str) -> list[tuple[Browser, str]]:
    """One signed-up player per prefix, each with a browser (cookies) of its own."""
    out = []
    for prefix in prefixes:
        c = TestClient(app)
        c.__enter__()
        b = Browser(c)
        name = unique(prefix)
        b.signup(name)
        out.append((b, name))
    return out


def make_moderator(app: Any, username: str) -> None:
    community = app.state.community
    account_id, _ = community.player(username)
    community.grant(account_id, actor="test")
