import pytest
from fastapi.testclient import TestClient

from trapworks.server import create_app


@pytest.fixture
def db_url(tmp_path):
    return f"sqlite:///{tmp_path / 'web.sqlite'}"


@pytest.fixture
def client(db_url):
    with TestClient(create_app(db_url)) as c:
        yield c


def create_game(client, game="last-mouse-lost", seats=None, **body):
    seats = seats or [{"kind": "human"}, {"kind": "human"}]
    r = client.post("/api/games", json={"game": game, "seats": seats, **body})
    assert r.status_code == 201, r.text
    return r.json()
