"""Issue 12, item 1: every secret and chance outcome of a served game comes from a 256-bit server-only
key, so nothing a spectator sees can be swept back to a seed."""

import hashlib
import json
import random

import pytest

from trapworks.core import CHANCE, GameRecord
from trapworks.core.randomness import derive, seed_key, stream_seed
from trapworks.games.booby_trap import physics
from trapworks.server.room import pipeline as room_module  # the move pipeline draws chance

from .conftest import create_game
from .web_helpers import wait_for

SWEEP = 2**12  # candidate seeds per scheme; a chosen seed below this is found, so the sweep works


def state_of(client, gid, token):
    r = client.get(f"/api/games/{gid}", params={"token": token})
    assert r.status_code == 200, r.text
    return r.json()["state"]


def public_dice(client, g, rolls=12):
    """Play Mouse Trap's human seat (roll, roll...) and collect the dice a spectator sees."""
    gid, tok, spec = g["id"], g["seats"][0]["token"], g["spectator"]["token"]
    for _ in range(rolls):
        s = wait_for(lambda: (st := state_of(client, gid, tok))["to_move"] in (0, None) and st, what="turn")
        if s["terminal"]:
            break
        legal = [a["text"] for a in s["view"]["legal_actions"]]
        r = client.post(f"/api/games/{gid}/moves", json={"token": tok, "action": legal[0], "ply": s["ply"]})
        assert r.status_code == 200, r.text
    log = wait_for(lambda: (st := state_of(client, gid, spec))["to_move"] in (0, None) and st["log"])
    return [
        (e["ply"], int(e["text"][4:])) for e in log if e["seat"] == CHANCE and e["text"].startswith("die:")
    ]


def die_new_scheme(seed, ply):
    u = derive(seed_key(seed), "chance", ply) / float(1 << 256)
    return int(u * 6) + 1


def die_old_scheme(seed, ply):
    # The scheme the issue broke: sha256(f"{seed}:chance:{ply}") seeding random.Random.
    digest = hashlib.sha256(f"{seed}:chance:{ply}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big")).choices(range(1, 7))[0]


def sweep_dice(dice):
    """Every candidate seed under either scheme that predicts all the dice seen."""
    found = []
    for scheme in (die_new_scheme, die_old_scheme):
        found += [(scheme.__name__, s) for s in range(SWEEP) if all(scheme(s, p) == d for p, d in dice)]
    return found


def test_a_dice_sweep_finds_a_chosen_seed_but_nothing_in_a_server_drawn_game(client):
    seats = [{"kind": "human"}, {"kind": "agent", "agent": "random"}]
    chosen = create_game(client, game="mouse-trap", seats=seats, seed=1234)
    dice = public_dice(client, chosen)
    assert len(dice) >= 10
    # The sweep is real: a small chosen seed (one human: allowed, and marked) is found at once.
    assert sweep_dice(dice) == [("die_new_scheme", 1234)]
    info = client.get(f"/api/games/{chosen['id']}", params={"token": chosen["seats"][0]["token"]}).json()
    assert info["info"]["chosen_setup"] is True

    drawn = create_game(client, game="mouse-trap", seats=seats)
    dice = public_dice(client, drawn)
    assert len(dice) >= 10
    assert sweep_dice(dice) == []  # nothing to sweep: the dice come from 256 secret bits
    live = client.app.state.service.get(drawn["id"])
    assert len(live.key) == 32 and live.stored.chosen_setup is False
    # Each die is the key's HMAC at its ply: public outcomes are a function of the key alone.
    assert all(int(derive(live.key, "chance", p) / float(1 << 256) * 6) + 1 == d for p, d in dice)


def test_booby_trap_piece_order_sweeps_to_nothing_and_the_noise_has_its_own_stream(client):
    g = create_game(client, game="booby-trap", seats=[{"kind": "human"}, {"kind": "human"}])
    spectator = state_of(client, g["id"], g["spectator"]["token"])
    live = client.app.state.service.get(g["id"])
    public = list(live.state.sizes)
    per_size = live.game.options["pieces_per_size"]

    def sizes(setup_text_seed):
        return physics.mixed_pieces(random.Random(f"booby-trap-setup:{setup_text_seed}"), per_size)

    # Neither a small setup seed (old scheme) nor a small seed through the new streams gives the tray.
    assert not [s for s in range(SWEEP) if sizes(s) == public]
    assert not [s for s in range(SWEEP) if sizes(stream_seed(s, "pile")) == public]
    # The setup seed is 256 bits derived from the key; tray and noise are separate streams of it.
    seed = live.state.seed
    assert seed == derive(live.key, "setup") and seed.bit_length() > 128
    assert live.state.noise_key == stream_seed(seed, "noise") != stream_seed(seed, "pile")
    # Nothing a spectator receives names the seed, the key or the noise key.
    text = str(spectator)
    for secret in (str(seed), live.key.hex(), str(live.state.noise_key)):
        assert secret not in text


def test_a_chosen_seed_or_start_is_refused_where_two_humans_share_secrets_or_chance(client):
    two = [{"kind": "human"}, {"kind": "human"}]
    for game in ("dead-end-drive", "booby-trap", "mouse-trap"):
        body = {"game": game, "seats": two, "seed": 5, "options": {"players": 2}}
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and r.json()["code"] == "chosen_seed_shared", r.text
    # One human against agents may choose (the first test plays such a game).
    one = [{"kind": "human"}, {"kind": "agent", "agent": "random"}]
    body = {"game": "dead-end-drive", "seats": one, "seed": 5, "options": {"players": 2}}
    assert client.post("/api/games", json=body).status_code == 201


def test_the_record_reveals_the_key_only_after_the_end(client):
    g = create_game(
        client, game="mouse-trap", seats=[{"kind": "human"}, {"kind": "agent", "agent": "random"}]
    )
    tok = g["seats"][0]["token"]
    record = client.get(f"/api/games/{g['id']}/record", params={"token": tok}).json()
    assert "secret_key" not in record
    live = client.app.state.service.get(g["id"])
    assert live.key.hex() not in str(record) and str(live.state.seed) not in str(record["actions"])
    public_dice(client, g, rolls=400)  # random play until the game ends
    assert live.state.is_terminal() or client.app.state.service.get(g["id"]).state.is_terminal()
    record = client.get(f"/api/games/{g['id']}/record", params={"token": tok}).json()
    assert record["secret_key"] == client.app.state.service.get(g["id"]).key.hex()
    # The 256-bit setup seed travels as text (a browser's number would round it) and replays.
    assert isinstance(record["seed"], str) and int(record["seed"]) == live.state.seed
    replayed = GameRecord.from_dict(json.loads(json.dumps(record))).replay()
    assert replayed.is_terminal() and replayed.seed == live.state.seed


def test_spectators_of_two_games_with_one_public_history_and_different_secrets_see_the_same(
    client, monkeypatch
):
    """Two 13 Dead End Drive games (different keys: different deals and piles) played with the same
    dice and the same public moves: every frame a spectator gets is identical."""
    table = random.Random(4)
    dice = {}

    def same_dice(state, _key):  # both games get the same die at each ply; the keys still differ
        outcomes = [a for a, _ in state.chance_outcomes()]
        return dice.setdefault((state.move_number(), tuple(outcomes)), table.choice(outcomes))

    monkeypatch.setattr(room_module, "chance_outcome", same_dice)
    seats = [{"kind": "human"}, {"kind": "human"}]
    a = create_game(client, game="dead-end-drive", seats=seats, options={"players": 2})
    b = create_game(client, game="dead-end-drive", seats=seats, options={"players": 2})
    svc = client.app.state.service

    def spectator(g):
        s = state_of(client, g["id"], g["spectator"]["token"])
        s.pop("id")
        return s

    def both_settled():
        return all(svc.get(g["id"]).state.current_player() != CHANCE for g in (a, b))

    compared = 0
    pick = random.Random(7)
    for _ in range(40):
        wait_for(both_settled, what="chance resolved")
        sa, sb = spectator(a), spectator(b)
        assert sa == sb
        compared += 1
        if sa["terminal"]:
            break
        seat = sa["to_move"]
        views = [state_of(client, g["id"], g["seats"][seat]["token"]) for g in (a, b)]
        common = sorted(
            {x["text"] for x in views[0]["view"]["legal_actions"]}
            & {x["text"] for x in views[1]["view"]["legal_actions"]}
        )
        if not common:
            break
        move = pick.choice(common)
        for g in (a, b):
            r = client.post(
                f"/api/games/{g['id']}/moves",
                json={"token": g["seats"][seat]["token"], "action": move, "ply": sa["ply"]},
            )
            if r.status_code != 200:
                pytest.fail(f"{move}: {r.text}")
    assert compared >= 10
    # The secrets do differ: each seat's own hand is not the same in the two games.
    hands = [svc.get(g["id"]).state.chars for g in (a, b)]
    assert hands[0] != hands[1]


def test_the_creator_gets_its_own_token_and_one_use_invite_links_for_the_others(client):
    seats = [{"kind": "human"}, {"kind": "human", "invite": True}]
    g = create_game(client, game="dead-end-drive", seats=seats, options={"players": 2})
    mine, theirs = g["seats"]
    assert mine["token"] and not mine["invite"]
    # The invited seat's token is not in what the creator receives; its link holds an invite code.
    svc = client.app.state.service
    secret = svc.get(g["id"]).stored.seats[1]["token"]
    assert theirs["token"] is None and theirs["invite"] and secret not in str(g)
    code = theirs["link"].split("#i=")[1]
    r = client.post(f"/api/games/{g['id']}/claim", json={"invite": code})
    assert r.status_code == 200 and r.json() == {"ok": True, "seat": 1, "token": secret}
    assert client.get(f"/api/games/{g['id']}", params={"token": secret}).json()["info"]["seat"] == 1
    # One use: a second claim (the creator trying the link it handed out) is refused.
    again = client.post(f"/api/games/{g['id']}/claim", json={"invite": code})
    assert again.status_code == 403 and again.json()["code"] == "invite_used"
    assert svc.store.load_game(g["id"]).seats[1]["invite"] is None  # used up in the store too
