"""Issue 26, item 3: no secret in any log line. A write that fails at the statement (a full disk)
used to log SQLAlchemy's message with its parameters: every seat token, invite and the game's key."""

import logging

from fastapi.testclient import TestClient

from trapworks.server import create_app
from trapworks.server.bounds import Bounds
from trapworks.server.logsafe import redact_text
from trapworks.server.store import Store

from .conftest import create_game
from .web_helpers import fill


def secrets_of(stored) -> list[str]:
    out = [stored.spectator_token, stored.secret or ""]
    for s in stored.seats:
        out += [s.get("token") or "", s.get("invite") or ""]
    return [x for x in out if x]


def invited_token(client, g) -> str:
    """The invited seat's token (claimed with its invite link, as its player would)."""
    invite = g["seats"][1]["link"].split("#i=")[1]
    r = client.post(f"/api/games/{g['id']}/claim", json={"invite": invite})
    if r.status_code == 200:
        g["seats"][1]["token"] = r.json()["token"]
    return g["seats"][1]["token"]


def all_log_text(records) -> str:
    fmt = logging.Formatter("%(name)s %(levelname)s %(message)s")
    return "\n".join(fmt.format(r) for r in records)


def test_redact_text_keeps_words_and_ids_and_hides_tokens():
    assert redact_text("game Ab3dE5gH9jK1 ply 3: storage_unavailable") == (
        "game Ab3dE5gH9jK1 ply 3: storage_unavailable"
    )
    token = "Zq3x_9LmPq-7rTuVwXy2Ab4C"
    key = "0f" * 32
    line = f"[SQL: INSERT] [parameters: ('{token}', '{key}')] token={token[:8]}"
    out = redact_text(line)
    assert token not in out and key not in out and token[:8] not in out
    assert out.count("[redacted]") == 3


def test_a_failed_write_logs_no_token_invite_or_key(small_disk, caplog):
    caplog.set_level(logging.DEBUG)  # every logger, every level
    url = f"sqlite:///{small_disk / 'full.sqlite'}"
    made = []
    # No disk reserve: the creations are tried (and fail at the statement) rather than refused first.
    with TestClient(create_app(url, bounds=Bounds(disk_reserve=0))) as c:
        store = c.app.state.store
        real_create = store.insert_game  # the game's row (written off the event loop since issue 40)

        def spy(stored):  # the game whose creation fails: its tokens never reach the client
            made.append(stored)
            return real_create(stored)

        store.insert_game = spy
        g = create_game(c, seats=[{"kind": "human"}, {"kind": "human", "invite": True}])
        token = g["seats"][0]["token"]
        first = {"token": token, "action": "a1", "ply": 0}
        assert c.post(f"/api/games/{g['id']}/moves", json=first).is_success
        filler = fill(small_disk)
        refused = 0
        for _ in range(60):  # moves and creates until the full disk refuses them
            r = c.post("/api/games", json={"game": "last-mouse-lost", "seats": [{"kind": "human"}] * 2})
            refused += r.status_code == 503
            s = c.get(f"/api/games/{g['id']}", params={"token": token}).json()["state"]
            if s["to_move"] is not None:  # both seats play (the invited one by its stored token)
                mover = token if s["to_move"] == 0 else invited_token(c, g)
                text = s["view"]["legal_actions"][0]["text"]
                r = c.post(
                    f"/api/games/{g['id']}/moves", json={"token": mover, "action": text, "ply": s["ply"]}
                )
                refused += r.status_code == 503
            if refused >= 4:
                break
        assert refused >= 2, "the full disk never refused a write"
        filler.unlink()
    text = all_log_text(caplog.records)
    assert "storage failure" in text  # the failures were logged
    check = Store(url)
    stored = [check.load_game(g["id"])]
    check.close()
    leaked = {s for st in stored + made for s in secrets_of(st) if s in text or s in caplog.text}
    assert not leaked, f"{len(leaked)} secrets in the log"
    assert len(made) >= 2  # the spy saw the refused creations' secrets
