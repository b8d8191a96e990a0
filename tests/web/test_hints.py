"""Hints in plain words from the hinted seat's point of view (issue 14, item 6): the kernel's words
for the move, the agent's reason only when it speaks plainly (never search statistics), and for
games with hidden information an agent that sees only what the seat knows."""

import re

import pytest

import trapworks
from trapworks.core import State
from trapworks.server import seat_player as seat_player_module

from .conftest import create_game

ENGINE = re.compile(r"iterations|visits|value \d|rollouts|mean return|ismcts|mcts|\+0\.\d{3}")
GAMES = {
    "last-mouse-lost": {},
    "mouse-trap": {},
    "booby-trap": {},
    "dead-end-drive": {"players": 2},
}


def hint_until_my_turn(client, gid, token, tries=30):
    for _ in range(tries):
        r = client.get(f"/api/games/{gid}/hint", params={"token": token})
        if r.status_code == 200:
            return r.json()
        assert r.status_code == 409, r.text  # not my turn yet: the AI is thinking
        import time

        time.sleep(0.2)
    raise AssertionError("never my turn")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_hint_is_in_words_without_engine_talk(client, game):
    n = trapworks.make(game, **GAMES[game]).num_players()
    seats = [{"kind": "human"}] + [{"kind": "agent", "agent": "random"}] * (n - 1)
    g = create_game(client, game=game, seats=seats, options=GAMES[game], seed=4)
    token = g["seats"][0]["token"]
    hint = hint_until_my_turn(client, g["id"], token)
    state = client.get(f"/api/games/{g['id']}", params={"token": token}).json()["state"]
    assert "agent" not in hint, "the agent's internal name is not shown"
    words = hint["text"] + " " + (hint["explanation"] or "")
    assert not ENGINE.search(words), words
    assert hint["text"] != hint["move"] and hint["text"][0].isupper(), hint
    # The words are the kernel's for the suggested move, in the position the seat sees.
    legal = [a["text"] if isinstance(a, dict) else a for a in state["view"].get("legal_actions", [])]
    if legal and isinstance(legal[0], str):
        assert hint["move"] in legal


def test_booby_trap_hint_never_tells_forces_of_untouched_pieces(client):
    g = create_game(
        client, game="booby-trap", seats=[{"kind": "human"}, {"kind": "agent", "agent": "random"}], seed=9
    )
    token = g["seats"][0]["token"]
    for _ in range(6):
        hint = hint_until_my_turn(client, g["id"], token)
        words = hint["text"] + " " + (hint["explanation"] or "")
        assert "force" not in words and "carries" not in words, words
        # Follow the hint (touch, then remove or pass) and ask again on the next decision.
        ply = client.get(f"/api/games/{g['id']}", params={"token": token}).json()["state"]["ply"]
        move = {"token": token, "action": hint["move"], "ply": ply}
        r = client.post(f"/api/games/{g['id']}/moves", json=move)
        assert r.status_code == 200, r.text
        if client.get(f"/api/games/{g['id']}", params={"token": token}).json()["state"]["terminal"]:
            break
        # The reason is about the piece the hint names (one decision, not two).
        piece = re.search(r"piece (\d+)", hint["text"])
        if piece and hint["explanation"]:
            assert re.search(rf"[Pp]iece {piece.group(1)}\b", hint["explanation"]), hint
    assert hint["explanation"], "the touch agent says why, from its own readings"


def test_a_hint_in_a_game_with_secrets_is_computed_from_a_resample(client, monkeypatch):
    # The hint agent must never be handed the true state of 13 Dead End Drive (the other seat's
    # characters and cards): the service resamples from the hinted seat's view first.
    seen = []
    real_make_agent = seat_player_module.make_agent

    def spy(name, game, seat, seed=None):
        agent = real_make_agent(name, game, seat, seed=seed)
        step = agent.step

        def watched(state: State) -> int:
            seen.append(state)
            return step(state)

        agent.step = watched
        return agent

    monkeypatch.setattr(seat_player_module, "make_agent", spy)  # every AI seat plays through it
    resampled = []
    real_resample = State.resample

    def resample(self, seat, rng=None):
        out = real_resample(self, seat, rng)
        resampled.append((seat, out))
        return out

    monkeypatch.setattr(State, "resample", resample)
    g = create_game(
        client,
        game="dead-end-drive",
        options={"players": 2},
        seats=[{"kind": "human"}, {"kind": "human"}],
        hints=True,
    )
    tokens = [s["token"] for s in g["seats"]]
    state = client.get(f"/api/games/{g['id']}", params={"token": tokens[0]}).json()["state"]
    me = state["to_move"]
    hint = client.get(f"/api/games/{g['id']}/hint", params={"token": tokens[me]}).json()
    assert hint["ok"] and seen
    assert [seat for seat, _ in resampled] == [me]
    # The agent played on a clone of that resample, which shows the seat exactly what it knew.
    live_view = client.get(f"/api/games/{g['id']}", params={"token": tokens[me]}).json()["state"]["view"]
    import json

    assert json.loads(json.dumps(seen[0].view(me))) == live_view
    assert hint["text"].split()[0] in ("Move", "Change", "Keep", "Play", "Draw", "Spring")


def test_agent_reasons_become_advice():
    from trapworks.core.agent import advice

    assert advice("the portrait shows my own pawn: keep it") == "The portrait shows your own pawn: keep it"
    assert advice("my own pawn is on the trap: draw and keep the card (a bluff)").startswith("Your own pawn")
    assert (
        advice("Lulu is not mine and I hold no match: draw")
        == "Lulu is not yours and you hold no match: draw"
    )
