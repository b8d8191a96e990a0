"""Who sits at a game (issue 39): every state message names each seat (the account's name when an
account holds it) and, in a rated game, gives each account's rating and, once the game is rated,
its change; spectators see the same, and nothing secret."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

from trapworks.server import create_app
from trapworks.server.accounts import ratings
from trapworks.server.accounts.ratings import SIGMA0

from .accounts_helpers import Browser, play_to_end
from .test_accounts_api import rated_game


@pytest.fixture
def app(db_url):
    return create_app(db_url)


@pytest.fixture
def browsers(app):
    """Two browsers (cookie jars) on the same server."""
    with TestClient(app) as a, TestClient(app) as b:
        yield Browser(a), Browser(b)


def people(client, gid, token):
    r = client.get(f"/api/games/{gid}", params={"token": token})
    assert r.status_code == 200, r.text
    return r.json()["state"]["people"]


def spectator(app, gid):
    return app.state.service.get(gid).stored.spectator_token


def test_a_rated_game_names_both_accounts_with_their_ratings_and_then_their_changes(app, browsers):
    a, b = browsers
    a.signup("seat-ann")
    b.signup("seat-ben")
    gid, tokens = rated_game(a, b)
    watcher = spectator(app, gid)
    for token in (*tokens, watcher):  # both seats and a spectator see the same
        seen = people(a.c, gid, token)
        assert [(p["name"], p["account"], p["rating"], p["provisional"], p["change"]) for p in seen] == [
            ("seat-ann", "seat-ann", 1500, True, None),
            ("seat-ben", "seat-ben", 1500, True, None),
        ]
    end = play_to_end(a.c, gid, tokens)
    winner = end["winners"][0]
    model = PlackettLuce(sigma=SIGMA0)
    after = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2] if winner == 0 else [2, 1])
    expected = [ratings.display(t[0].mu) - 1500 for t in after]
    for token in (*tokens, watcher):
        seen = people(a.c, gid, token)
        assert [p["rating"] for p in seen] == [1500, 1500]  # the rating the game was played at
        assert [p["change"] for p in seen] == expected
    assert expected[winner] > 0 > expected[1 - winner]
    text = str(people(a.c, gid, watcher))
    assert tokens[0] not in text and tokens[1] not in text


def test_a_casual_game_names_accounts_without_ratings(app, browsers):
    a, b = browsers
    a.signup("casual-ann")
    b.signup("casual-ben")
    gid, tokens = rated_game(a, b, rated=False)
    seen = people(a.c, gid, tokens[0])
    assert [(p["name"], p["rating"], p["change"]) for p in seen] == [
        ("casual-ann", None, None),
        ("casual-ben", None, None),
    ]
    play_to_end(a.c, gid, tokens)
    assert [p["change"] for p in people(a.c, gid, tokens[1])] == [None, None]


def test_a_draw_between_equals_moves_nobody_and_a_win_gains_what_the_loss_loses():
    """The judge's finding (issue 39): a drawn rated game between two new players showed +48 for
    both (the conservative mu - 3 sigma rises as sigma shrinks). The number shown is the estimate."""
    new = ratings.Skill(ratings.MU0, ratings.SIGMA0)
    drawn = ratings.rate([new, new], [0.5, 0.5])
    assert [ratings.display(s.mu) for s in drawn] == [1500, 1500]
    won, lost = ratings.rate([new, new], [1.0, 0.0])
    gain, loss = ratings.display(won.mu) - 1500, ratings.display(lost.mu) - 1500
    assert gain > 0 and loss == -gain


def test_the_leaderboard_ranks_settled_ratings_with_ties_sharing_a_rank_and_lists_provisional_ones_after(app):
    """Issue 39 (front): settled ratings ranked, ties sharing a rank; the provisional ones after
    them, unranked (the eighth judge: they were ranked among the established, "dan 5"); a board of
    the last days lists only the players rated in them."""
    from datetime import timedelta

    from trapworks.server.accounts.models import AccountRow, RatingRow
    from trapworks.server.community.core import now

    accounts = app.state.accounts
    with TestClient(app):
        names = {"ann": (30.0, 12), "bob": (30.0, 9), "cid": (28.0, 6), "dan": (45.0, 2), "eve": (20.0, 7)}
        names |= {"fay": (26.0, 1), "gus": (26.0, 3)}
        with accounts.db.begin() as s:
            for name, (mu, games) in names.items():
                account = AccountRow(username=name, username_key=name, password_hash="x", created=now())
                s.add(account)
                s.flush()
                s.add(
                    RatingRow(
                        account_id=account.id,
                        game="last-mouse-lost",
                        players=2,
                        mu=mu,
                        sigma=3.0,
                        games=games,
                        updated=now() - timedelta(days=40 if name == "eve" else 0),
                    )
                )
        rows = accounts.leaderboard("last-mouse-lost", 2)
        recent = accounts.leaderboard("last-mouse-lost", 2, active_days=30)
    assert [(r["username"], r["rank"], r["provisional"]) for r in rows] == [
        ("ann", 1, False),
        ("bob", 1, False),  # the same rating: the same rank
        ("cid", 3, False),
        ("eve", 4, False),
        ("dan", None, True),  # 2 games: provisional, after the settled ones however high, unranked
        ("fay", None, True),
        ("gus", None, True),
    ]
    assert [r["username"] for r in recent] == ["ann", "bob", "cid", "dan", "fay", "gus"]
    assert [r["rank"] for r in recent] == [1, 1, 3, None, None, None]


def test_a_game_won_or_lost_off_the_board_says_how_on_the_profile_and_in_my_games(browsers):
    """Judge 5: a loss on time showed as a plain "lost". A finished game says how it was won or
    lost where the record knows it (a forfeit's reason); a game played out says nothing more."""
    a, b = browsers
    a.signup("how-ann")
    b.signup("how-ben")
    resigned, tokens = rated_game(a, b)
    a.post(f"/api/games/{resigned}/resign", {"token": tokens[1]})
    played, tokens2 = rated_game(a, b)
    play_to_end(a.c, played, tokens2)
    for name, mine in (("how-ann", "won"), ("how-ben", "lost")):
        recent = {g["id"]: g for g in a.get(f"/api/players/{name}")["recent"]}
        assert (recent[resigned]["result"], recent[resigned]["how"]) == (mine, "resigned")
        assert recent[played]["how"] is None
    games = {g["id"]: g for g in b.get("/api/players/how-ben/games")["games"]}
    assert (games[resigned]["result"], games[resigned]["how"]) == ("lost", "resigned")
    assert games[played]["how"] is None
