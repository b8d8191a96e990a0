"""13 Dead End Drive's hidden draws as chance in the kernel's own chance model (issue 30, deliver 1:
"the same in the kernel's chance model"). With the option deal=chance the deal of Character cards
(seed 004: "Shuffle the 12 Character cards and deal them out face down"), the 2-player secret
cards and every card drawn from the trap pile, a reshuffle's too (004: "If you run out of cards in
the Trap card pile, shuffle the discard pile."), are kernel chance nodes, the OpenSpiel tree's
(chance_layer.KernelChance); their texts and outcomes never reach a seat that may not know them.
The default (deal=seeded) is unchanged (test_dd_golden.py replays the seeded games)."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

import trapworks
from trapworks.core import GameRecord, IllegalActionError
from trapworks.core.game import CHANCE, story_entry, story_for
from trapworks.games.dead_end_drive.chance_layer import DeadEndDriveChance
from trapworks.games.dead_end_drive.components import DETECTIVE, HAND_SIZE, NUM_PAWNS, OFF, SECRET_CARDS_2P


def chance_game(players: int, **options):
    return trapworks.make("dead-end-drive", players=players, deal="chance", **options)


def pick(rng: random.Random, state) -> int:
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    return rng.choice(state.legal_actions())


def play(game, seed: int, limit: int | None = None):
    """A random game (chance by its probabilities) from seed; the states' list is not kept."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal() and (limit is None or len(state.history()) < limit):
        state.apply_action(pick(rng, state))
    return state


def is_hidden(game, action: int) -> bool:
    return action >= game.HIDDEN_BASE


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_chance_node_sums_to_one_and_a_game_plays_to_the_end(players):
    game = chance_game(players, turn_limit=400)
    hidden = DeadEndDriveChance.num_outcomes
    assert game.chance_actions()[-hidden:] == tuple(range(game.HIDDEN_BASE, game.HIDDEN_BASE + hidden))
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        draws = reshuffles = 0
        while not state.is_terminal():
            if state.is_chance_node():
                assert state.current_player() == CHANCE
                outcomes = state.chance_outcomes()
                assert outcomes and all(p > 0 for _, p in outcomes)
                assert math.isclose(sum(p for _, p in outcomes), 1.0)
                assert state.legal_actions() == [a for a, _ in outcomes]
                # every outcome is a chance action of the game, numbered for OpenSpiel
                for a, _ in outcomes:
                    assert game.chance_outcome_action(game.chance_outcome_index(a)) == a
            action = pick(rng, state)
            # the text of every action, a hidden outcome's too, reads back (records replay)
            assert state.string_to_action(state.action_to_string(action)) == action
            epoch = state.epoch
            state.apply_action(action)
            draws += is_hidden(game, action) and action >= game.HIDDEN_BASE + DeadEndDriveChance.CARD_BASE
            reshuffles += state.epoch - epoch
            # the cards are conserved: hands, pile, discard, drawn card (and those being drawn)
            if not state.hidden_pending():
                held = [c for h in state.hands for c, _, _ in h] + state.pile + state.discard
                held += [state.drawn] if state.drawn is not None else []
                assert Counter(held) == Counter(game.deck)
        assert len(state.history()) <= game.max_game_length()
        assert state.phase == "over"


def test_a_reshuffle_is_drawn_by_chance_too():
    """A game long enough to run through the pile: the cards after the reshuffle come from chance
    nodes over the new pile (the old discard pile), one card at a time."""
    game = chance_game(2)
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            if state.hidden_pending() and state.hidden.draw is not None and state.epoch == 0:
                pile = state.hidden.draw["pile"]
                if len(state.hidden.draw["segments"]) == 2:  # the pile ran out: the discard's turn
                    outcomes = state.chance_outcomes()
                    total = sum(pile.values())
                    assert outcomes == [
                        (game.HIDDEN_BASE + DeadEndDriveChance.CARD_BASE + k, c / total)
                        for k, c in sorted(pile.items())
                        if c
                    ]
                    state.apply_action(pick(rng, state))
                    assert state.epoch == 1 or state.hidden_pending()
                    return
            state.apply_action(pick(rng, state))
    pytest.fail("no game of 40 reshuffled the pile")


@pytest.mark.parametrize("players", [2, 4])
def test_every_deal_is_as_likely_as_a_shuffle_makes_it(players):
    """The product of the chance probabilities along a deal is 1 / (the number of deals): for 4
    players 12!/(3!)^4, for 2 players 12!/(4!4!2!2!) (hands of 4, two secret cards each)."""
    size = HAND_SIZE[players]
    secret = SECRET_CARDS_2P if players == 2 else 0
    deals = math.factorial(NUM_PAWNS) // (
        math.factorial(size) ** players * math.factorial(secret) ** (players if secret else 0)
    )
    game = chance_game(players)
    for seed in range(20):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        prob = Fraction(1)
        while state.hidden_pending():
            outcomes = dict(state.chance_outcomes())
            action = pick(rng, state)
            prob *= Fraction(outcomes[action]).limit_denominator(10**7)
            state.apply_action(action)
        assert prob == Fraction(1, deals)
        assert sorted(p for s in range(players) for p in state.chars[s] + state.secret[s]) == list(
            range(NUM_PAWNS)
        )
        assert [len(c) for c in state.chars] == [size] * players
        assert [len(c) for c in state.secret] == [secret] * players
        assert state.current_player() == CHANCE and not state.hidden_pending()  # who starts / portrait


def test_a_draw_offers_each_kind_in_the_pile_by_its_share():
    game = chance_game(4)
    rng = random.Random(5)
    state = game.new_initial_state(seed=5)
    while not (state.hidden_pending() and state.hidden.draw is not None):
        state.apply_action(pick(rng, state))
    counts = Counter(state.pile)
    base = game.HIDDEN_BASE + DeadEndDriveChance.CARD_BASE
    assert state.chance_outcomes() == [(base + k, c / len(state.pile)) for k, c in sorted(counts.items())]
    assert state.chance_visible_to() == state.to_move  # the drawer's card
    with pytest.raises(IllegalActionError, match="card drawn from the trap pile"):
        state.apply_action(game.DRAW)
    with pytest.raises(IllegalActionError, match="not one of them"):
        state.apply_action(game.HIDDEN_BASE)  # a card dealt: not now
    with pytest.raises(IllegalActionError, match="top card"):
        state.string_to_action("deal Smothers")


def test_the_option_is_refused_by_the_batched_engine_and_left_to_the_kernel():
    game = chance_game(4)
    assert not game.batched_agents
    from trapworks.core import TrapworksError

    with pytest.raises(TrapworksError, match="deal=chance"):
        game.play_batch(["random"] * 4, [1, 2])
    from trapworks.sim.runner import RunSpec, uses_batched_engine

    spec = RunSpec("dead-end-drive", ("random",), 2, {"players": 4, "deal": "chance"}, seed=1)
    assert not uses_batched_engine(spec)
    # The engine's own entry (play_columns) and the vector environment refuse it by name too,
    # rather than dealing from their own stream.
    from trapworks.games.dead_end_drive.batch import engine_tables

    with pytest.raises(TrapworksError, match="deal=chance"):
        engine_tables(game)
    import gymnasium

    import trapworks.adapters.gymnasium  # noqa: F401  (registers the ids)

    with pytest.raises(TrapworksError, match="deal=chance"):
        gymnasium.make_vec("trapworks/DeadEndDrive-v0", num_envs=2, players=4, deal="chance")


def test_a_record_replays_a_chance_dealt_game():
    game = chance_game(2, turn_limit=60)
    state = play(game, 7)
    record = GameRecord.from_state(state)
    data = json.loads(json.dumps(record.to_dict()))
    again = GameRecord.from_dict(data).replay()
    assert again.history() == state.history()
    assert again.view(None) == state.view(None)
    assert again.chars == state.chars and again.secret == state.secret and again.hands == state.hands


# --- secrets: what an attacker at one seat (or a spectator) can read -------------------------
def redeal(game, source, hands: dict[tuple[str, int], list[int]]):
    """source's game again with the deal `hands` ((kind, seat) -> cards) and every later action
    kept: chance deals each hand's smallest card left first."""
    state = game.new_initial_state(seed=source.seed)
    while state.hidden_pending():
        kind, seat, _ = state.hidden.hands[0]
        wanted = [p for p in hands[(kind, seat)] if p not in state.hidden.taken]
        state.apply_action(game.HIDDEN_BASE + min(wanted))
    deal_len = sum(1 for a in source.history() if game.HIDDEN_BASE <= a < game.HIDDEN_BASE + 12)
    return state, deal_len


def what_seat_reads(state, seat):
    """Everything the kernel gives `seat` (None: a spectator) at this state: its view, its
    information state, the public history, its events and its log line of the last action."""
    out = {
        "view": state.view(seat),
        "public_history": state.public_history(),
        "plies": len(state.history()),  # the log's length: a forced card is a node all the same
        "events": state.last_events(seat),
    }
    if seat is not None:
        out["info"] = state.information_state_string(seat)
        out["obs"] = state.observation_string(seat)
    return json.dumps(out, sort_keys=True, default=str)


@pytest.mark.parametrize("players", [2, 4])
def test_no_seat_can_tell_two_deals_apart_that_differ_only_in_what_it_may_not_know(players):
    """Seat 0's cards kept, every other hand (and the secret cards) changed: at every step until
    the end, seat 0's view, information state, events, log lines and the public view are the same
    in both games; the texts of the hidden chance outcomes are secret to every seat."""
    game = chance_game(players, turn_limit=40)
    compared = 0
    for seed in range(4):
        a = play(game, seed)
        deal_len = sum(1 for x in a.history() if game.HIDDEN_BASE <= x < game.HIDDEN_BASE + NUM_PAWNS)
        assert deal_len == NUM_PAWNS  # every card is a node, a forced one too
        dealt = game.new_initial_state(seed=seed)
        for x in a.history()[:deal_len]:
            dealt.apply_action(x)
        kinds = [("chars", s) for s in range(players)] + (
            [("secret", s) for s in range(players)] if players == 2 else []
        )
        truth = {k: list((dealt.chars if k[0] == "chars" else dealt.secret)[k[1]]) for k in kinds}
        # A knocked-off pawn's card is laid down (its holder is public): those stay where they were;
        # the other seats' cards of pawns still in play at the end change hands.
        slots = [(k, p) for k in kinds[1:] for p in truth[k] if a.pos[p] != OFF]
        if len({k for k, _ in slots}) < 2:
            continue
        rng = random.Random(seed)
        other = truth
        while other == truth:
            moved = [p for _, p in slots]
            rng.shuffle(moved)
            other = {k: [p for p in truth[k] if a.pos[p] == OFF or k == ("chars", 0)] for k in kinds}
            for (k, _), p in zip(slots, moved, strict=True):
                other[k].append(p)
            other = {k: sorted(v) for k, v in other.items()}
        assert other[("chars", 0)] == truth[("chars", 0)]
        compared += 1
        b, deal_len = redeal(game, a, other)
        replay = game.new_initial_state(seed=a.seed)
        for action in a.history()[:deal_len]:
            replay.apply_action(action)
        assert what_seat_reads(replay, 0) == what_seat_reads(b, 0)
        assert what_seat_reads(replay, None) == what_seat_reads(b, None)
        for action in a.history()[deal_len:]:
            owner_r, owner_b = replay.story_owner(action), b.story_owner(action)
            replay.apply_action(action)
            b.apply_action(action)
            if replay.is_terminal():
                break
            for seat in (0, None):
                assert what_seat_reads(replay, seat) == what_seat_reads(b, seat)
                assert story_for(story_entry(owner_r, replay, action), seat) == story_for(
                    story_entry(owner_b, b, action), seat
                )
            if is_hidden(game, action):
                for viewer in [*range(players), None]:
                    assert not replay.action_text_visible(CHANCE, viewer)
        assert b.chars != a.chars or b.secret != a.secret
    assert compared >= 2


def test_a_card_another_seat_draws_is_not_in_this_seats_reading():
    """Seat 1 draws and keeps its card: two games that differ only in that card read the same to
    seat 0 and to a spectator (its view, information state, events, log lines)."""
    game = chance_game(2, turn_limit=200)
    base = game.HIDDEN_BASE + DeadEndDriveChance.CARD_BASE
    found = 0
    for seed in range(30):
        a = play(game, seed)
        history = a.history()
        for i, action in enumerate(history):
            if not (action >= base and action != base + DETECTIVE) or i + 1 >= len(history):
                continue
            if history[i + 1] != game.KEEP_CARD:
                continue
            state = game.new_initial_state(seed=seed)
            for x in history[:i]:
                state.apply_action(x)
            if state.to_move != 1:
                continue
            alternatives = [x for x, _ in state.chance_outcomes() if x != action and x != base + DETECTIVE]
            if not alternatives:
                continue
            twin = state.clone()
            owner = state.story_owner(action)
            state.apply_action(action)
            twin.apply_action(alternatives[0])
            assert state.drawn != twin.drawn
            for seat in (0, None):
                assert what_seat_reads(state, seat) == what_seat_reads(twin, seat)
                assert story_for(story_entry(owner, state, action), seat) == story_for(
                    story_entry(owner, twin, alternatives[0]), seat
                )
            assert what_seat_reads(state, 1) != what_seat_reads(twin, 1)  # the drawer sees it
            state.apply_action(game.KEEP_CARD)
            twin.apply_action(game.KEEP_CARD)
            for seat in (0, None):
                assert what_seat_reads(state, seat) == what_seat_reads(twin, seat)
            found += 1
            break
        if found >= 3:
            return
    pytest.fail(f"only {found} draws kept by seat 1 in 30 games")


def test_the_seat_sees_its_own_deal_and_nothing_of_the_others():
    game = chance_game(4)
    state = game.new_initial_state(seed=3)
    rng = random.Random(3)
    while state.hidden_pending():
        kind, seat, _ = state.hidden.hands[0]
        assert kind == "chars" and state.chance_visible_to() == seat
        state.apply_action(pick(rng, state))
    for seat in range(4):
        view = state.view(seat)
        assert view["my_characters"] == ["SDCLPKBZMHRO"[p] for p in state.chars[seat]]
        for other in range(4):
            assert view["seats"][other]["character_cards"] == 3
    assert state.view(None)["my_characters"] == []
    two = chance_game(2).new_initial_state(seed=3)
    while two.hidden_pending():
        kind, seat, _ = two.hidden.hands[0]
        assert two.chance_visible_to() == (seat if kind == "chars" else -2)  # secret cards: nobody
        two.apply_action(pick(rng, two))


def test_resample_for_search_keeps_the_seats_view_under_the_option():
    game = chance_game(3, turn_limit=50)
    rng = random.Random(1)
    state = game.new_initial_state(seed=1)
    checked = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            seat = state.current_player()
            new = state.resample(seat, random.Random(checked))
            assert new.view(seat) == state.view(seat)
            assert new.public_history() == state.public_history()
            # the resampled state plays on, its draws chance nodes too
            for _ in range(30):
                if new.is_terminal():
                    break
                new.apply_action(pick(rng, new))
            checked += 1
        state.apply_action(pick(rng, state))
    assert checked > 10


def test_the_terminal_tells_no_hidden_draw(tmp_path):
    """Terminal play against agents with deal=chance: the deal and the draws are told as hidden
    draws, never by name; the public chance (who starts, the portrait, the dice) as before."""
    import io

    from rich.console import Console

    from trapworks.cli.terminal import TerminalSession

    out = io.StringIO()
    session = TerminalSession(
        chance_game(2, turn_limit=200),
        ["random", "random"],
        seed=4,
        ask=lambda _: "quit",
        console=Console(file=out, width=160, highlight=False),
        save_dir=tmp_path,
    )
    session.run()
    text = out.getvalue()
    assert text.count("Chance: a hidden draw") >= 12
    assert "Chance: deal" not in text and "Chance: top card" not in text
    assert "Chance: roll" in text and "Chance: portrait" in text
