"""Helpers for the accounts tests: an HTTP client that keeps cookies and sends the CSRF header."""

from __future__ import annotations

import uuid
from typing import Any

SMALL_LML = {"board": [1, 2, 3], "first_to": 1}
PASSWORD = "a long enough passphrase"


def unique(prefix: str) -> str:
    """A username no earlier run has taken (the PostgreSQL test database is shared)."""
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


class Browser:
    """One browser's cookies over a client (TestClient or httpx.Client): log in, send CSRF."""

    def __init__(self, client: Any):
        self.c = client
        self.csrf = ""

    def me(self) -> dict[str, Any]:
        r = self.c.get("/api/account/me")
        assert r.status_code == 200, r.text
        self.csrf = r.json()["csrf"]
        return r.json()

    def post(
        self, path: str, body: Any = None, status: int | None = 200, csrf: bool = True
    ) -> dict[str, Any]:
        headers = {"x-csrf-token": self.csrf} if csrf else {}
        r = self.c.post(path, json=body if body is not None else {}, headers=headers)
        if status is not None:
            assert r.status_code == status, r.text
        data = r.json()
        if isinstance(data, dict) and data.get("csrf"):
            self.csrf = data["csrf"]
        return data

    def get(self, path: str, status: int = 200, **params: Any) -> dict[str, Any]:
        r = self.c.get(path, params=params)
        assert r.status_code == status, r.text
        return r.json()

    def signup(self, username: str, password: str = PASSWORD, seats: list | None = None) -> dict[str, Any]:
        self.me()
        return self.post(
            "/api/account/signup", {"username": username, "password": password, "seats": seats or []}
        )

    def login(self, username: str, password: str = PASSWORD, status: int | None = 200) -> dict[str, Any]:
        self.me()
        return self.post("/api/account/login", {"username": username, "password": password}, status=status)


def play_to_end(client: Any, gid: str, tokens: list[str], limit: int = 400) -> dict[str, Any]:
    """Each seat plays its first legal action until the game is over; the last state."""
    for _ in range(limit):
        state = client.get(f"/api/games/{gid}", params={"token": tokens[0]}).json()["state"]
        if state["terminal"]:
            return state
        seat = state["to_move"]
        if seat is None:
            continue
        mine = client.get(f"/api/games/{gid}", params={"token": tokens[seat]}).json()["state"]
        action = mine["view"]["legal_actions"][0]["text"]
        r = client.post(
            f"/api/games/{gid}/moves", json={"token": tokens[seat], "action": action, "ply": mine["ply"]}
        )
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")
