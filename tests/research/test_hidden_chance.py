"""Hidden information as chance in the OpenSpiel tree (issue 30): 13 Dead End Drive's deal, secret
cards and trap-pile draws, Booby Trap's touch noise are chance nodes, so that the states of one
information set differ in what is hidden; the `seed` parameter still replays one deal."""

from __future__ import annotations

import ast
import math
import pickle
from collections import Counter, defaultdict

import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import exploitability

import trapworks.adapters.openspiel  # noqa: F401 (registers the games)
from trapworks.adapters.openspiel import GAME_CLASSES, PUBLIC
from trapworks.games.booby_trap.chance_layer import JITTERS, NOISE_LEVELS, TRAYS, BoobyTrapChance
from trapworks.games.dead_end_drive.chance_layer import DeadEndDriveChance, arrange
from trapworks.games.dead_end_drive.components import DETECTIVE

# A small 13 Dead End Drive: two players, one move left (player 1 to move a pawn 2 squares),
# three pawns in play by the front door; nine knocked off (three of them secret cards). What is
# hidden: which live pawn is each player's Character, and which seat holds which secret card.
SMALL_POSITION = (
    "players=2 turn=1 phase=select dice=2 moved=D det=0 portrait=S opening=0 turns=0 "
    "pawns=S:m17,D:l16,C:n16,L:off1,P:off1,K:off1,B:off2,Z:off2,M:off2,H:off?,R:off?,O:off? "
    "chars=S/D secret=CH/RO traps=-/-"
)
SMALL = {"players": 2, "turn_limit": 1, "first_player": 1, "position": SMALL_POSITION}


def deal_leaves(state):
    """Every state where the layer's deal is over (the kernel's own nodes come next)."""
    if state.layer.pending() and state.layer.hands:
        for a, _ in state.chance_outcomes():
            yield from deal_leaves(state.child(a))
    else:
        yield state


def player_nodes(state):
    if state.is_terminal():
        return
    if state.is_chance_node():
        for a, _ in state.chance_outcomes():
            yield from player_nodes(state.child(a))
        return
    yield state
    for a in state.legal_actions():
        yield from player_nodes(state.child(a))


@pytest.mark.parametrize("players,unknown", [(4, 9 * 8 * 7 * 6 * 5 * 4 // (6 * 6)), (2, 420)])
def test_dead_end_drive_deal_is_chance_and_an_information_set_holds_every_deal(players, unknown):
    """A seat knows its own Character cards; every way to deal the others is in its information set:
    4 players: 9 cards in three hands of 3 = 9!/(3!3!3!) = 1680; 2 players: the other 8 as a hand of
    4 and two pairs of secret cards = 8!/(4!2!2!) = 420."""
    game = pyspiel.load_game("trapworks_dead_end_drive", {"players": players, "turn_limit": 4})
    root = game.new_initial_state()
    assert root.is_chance_node()
    probs = [p for _, p in root.chance_outcomes()]
    assert math.isclose(sum(probs), 1.0)
    # Deal seat 0's hand (its smallest cards first), then every way to deal the rest.
    state = root
    while state.layer.hands and state.layer.hands[0][:2] == ("chars", 0):
        state = state.child(state.chance_outcomes()[0][0])
    leaves = list(deal_leaves(state))
    assert len(leaves) == unknown
    assert len({str(s.tw.chars) + str(s.tw.secret) for s in leaves}) == unknown
    assert len({s.information_state_string(0) for s in leaves}) == 1  # seat 0 cannot tell them apart
    assert len({s.information_state_tensor(0).__repr__() for s in leaves}) == 1
    # Seat 1 can (it sees its own hand).
    assert len({s.information_state_string(1) for s in leaves}) > 1


def seat0_hand_paths(state, path=()):
    """The (outcome, probability) paths of the chance nodes that deal seat 0's Character hand."""
    if state.tw.chars[0]:
        yield path
        return
    for a, p in state.chance_outcomes():
        yield from seat0_hand_paths(state.child(a), (*path, (a, p)))


def test_dead_end_drive_every_hand_equally_likely():
    """One path per hand (cards dealt smallest first), each as likely as a shuffle makes it."""
    game = pyspiel.load_game("trapworks_dead_end_drive", {"players": 4, "turn_limit": 4})
    hands = {
        tuple(a for a, _ in path): math.prod(p for _, p in path)
        for path in seat0_hand_paths(game.new_initial_state())
    }
    assert len(hands) == math.comb(12, 3)
    assert all(math.isclose(p, 1 / math.comb(12, 3)) for p in hands.values())


def test_small_dead_end_drive_states_per_information_state_are_the_true_count():
    """In the small configuration every information set of the player to move holds 12 states: the
    opponent's Character card (2 live pawns left) times which 2 of the 4 secret cards (1 live, 3
    knocked off) are the mover's own (C(4,2) = 6). With a fixed deal (seed=0): one state each."""
    game = pyspiel.load_game("trapworks_dead_end_drive", SMALL)
    infosets = defaultdict(set)
    for s in player_nodes(game.new_initial_state()):
        infosets[s.information_state_string()].add(s.history_str())
    assert len(infosets) >= 6
    assert {len(v) for v in infosets.values()} == {2 * math.comb(4, 2)}

    fixed = pyspiel.load_game("trapworks_dead_end_drive", {**SMALL, "seed": 0})
    infosets = defaultdict(set)
    for s in player_nodes(fixed.new_initial_state()):
        infosets[s.information_state_string()].add(s.history_str())
    assert {len(v) for v in infosets.values()} == {1}


class _Revealed(GAME_CLASSES["trapworks_dead_end_drive"]):
    """The same tree, every seat seeing everything (its information state is the whole history)."""

    def make_py_observer(self, iig_obs_type=None, params=None):
        observer = super().make_py_observer(iig_obs_type, params)
        observer.string_from = lambda state, player: state.history_str()
        return observer


def test_small_dead_end_drive_exploitability_differs_from_perfect_information():
    game = pyspiel.load_game("trapworks_dead_end_drive", SMALL)
    uniform = policy_lib.UniformRandomPolicy(game)
    hidden = exploitability.exploitability(game, uniform)
    revealed_game = _Revealed(dict(game.get_parameters()))
    revealed = exploitability.exploitability(revealed_game, policy_lib.UniformRandomPolicy(revealed_game))
    assert hidden > 0
    # Knowing whose the secret pawn is lets a best response do better than one that does not.
    assert revealed > hidden + 1e-6


def test_dead_end_drive_draws_are_chance_with_the_piles_shares():
    game = pyspiel.load_game("trapworks_dead_end_drive", {"players": 3, "turn_limit": 200})
    import random

    rng = random.Random(4)
    draws = 0
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal() and draws < 12:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                if state.layer.pending() and state.layer.draw is not None:
                    pile = Counter(state.layer.draw["pile"])
                    total = sum(pile.values())
                    base = game.max_chance_outcomes() - DeadEndDriveChance.num_outcomes
                    shares = {base + 12 + k: c / total for k, c in pile.items() if c}
                    assert dict(outcomes) == pytest.approx(shares)
                    drawer = state.tw.to_move
                    before = state.information_state_string((drawer + 1) % 3)
                    children = [state.child(a) for a, _ in outcomes]
                    # Another seat cannot tell which non-Detective card was drawn.
                    others = {
                        c.information_state_string((drawer + 1) % 3)
                        for c, (a, _) in zip(children, outcomes, strict=True)
                        if a - base - 12 != DETECTIVE and not c.layer.pending()
                    }
                    assert len(others) <= 1 and before
                    draws += 1
                a = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
                state.apply_action(a)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if draws >= 12:
            break
    assert draws >= 12


def test_arranged_pile_deals_the_chosen_cards():
    pile = [0, 1, 1, 2, 6, 6]
    arrange(pile, [6, 1, 2])
    assert [pile.pop(), pile.pop(), pile.pop()] == [6, 1, 2]
    assert sorted(pile) == [0, 1, 6]


def set_up(state, tray=0, jitter=0):
    """Resolve Booby Trap's two set-up chance nodes (the tray, then its exact placement)."""
    state.apply_action(BoobyTrapChance.TRAY_BASE + tray)
    state.apply_action(BoobyTrapChance.JITTER_BASE + jitter)
    return state


def test_booby_trap_touch_noise_is_chance_hidden_from_other_seats():
    game = pyspiel.load_game("trapworks_booby_trap", {"pieces_per_size": 2})
    state = set_up(game.new_initial_state())
    assert not state.is_chance_node()
    piece = state.legal_actions()[0]
    state.apply_action(piece)  # seat 0 touches a piece
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert 1 < len(outcomes) <= NOISE_LEVELS and math.isclose(sum(p for _, p in outcomes), 1.0)
    children = [state.child(a) for a, _ in outcomes]
    readings = [c.tw.readings[0][-1]["reading"] for c in children]
    assert len(set(readings)) == len(outcomes)  # one outcome per reading the toucher can get
    # Seat 1 holds them all in one information set; seat 0 tells every one apart.
    assert len({c.information_state_string(1) for c in children}) == 1
    assert len({c.information_state_string(0) for c in children}) == len(outcomes)
    assert len({str(c.information_state_tensor(1)) for c in children}) == 1
    # With seed=n the noise is the kernel's seeded one: no chance node.
    fixed = pyspiel.load_game("trapworks_booby_trap", {"pieces_per_size": 2, "seed": 0})
    s = fixed.new_initial_state()
    s.apply_action(piece)
    assert not s.is_chance_node()


def test_booby_trap_setup_is_chance_and_information_sets_hold_every_hidden_placement():
    """The tray is a public chance node, its exact placement below the eye's resolution a hidden
    one: every information set of the first plies holds one state per placement (JITTERS), and
    those states differ in the true tensions (what a touch reads). With seed=n: one state."""
    game = pyspiel.load_game("trapworks_booby_trap", {"pieces_per_size": 2})
    root = game.new_initial_state()
    assert root.is_chance_node()
    assert root.chance_outcomes() == [(BoobyTrapChance.TRAY_BASE + t, 1 / TRAYS) for t in range(TRAYS)]
    trays = [root.child(a) for a, _ in root.chance_outcomes()]
    # The tray is public: different trays are told apart by every seat.
    assert len({str(t.tw.view(0)["pieces"]) for t in trays}) == TRAYS
    assert all(t.is_chance_node() and t.chance_outcomes()[0][1] == 1 / JITTERS for t in trays)

    def plies(state, depth):
        """Player nodes down to `depth` player moves (chance resolved every way)."""
        if state.is_terminal():
            return
        if state.is_chance_node():
            for a, _ in state.chance_outcomes():
                yield from plies(state.child(a), depth)
            return
        yield state
        if depth > 0:
            for a in state.legal_actions()[:2]:
                yield from plies(state.child(a), depth - 1)

    infosets = defaultdict(list)
    for tray in trays[:2]:
        for s in plies(tray, 2):
            infosets[(s.current_player(), s.information_state_string())].append(s)
    assert len(infosets) >= 6
    sizes = [len(v) for v in infosets.values()]
    # Before anybody touched, an information set is the tray: one state per placement. A touch's
    # reading may then tell the toucher which placement it is (its information set shrinks);
    # the other seats never read it (theirs hold every placement and every noise level).
    first = [v for v in infosets.values() if not v[0].tw.readings[0] and not v[0].tw.readings[1]]
    assert first and all(len(v) == JITTERS for v in first)
    assert sum(sizes) / len(sizes) > 2
    for (player, _), states in infosets.items():
        if states[0].tw.readings[1 - player]:
            assert len(states) >= JITTERS
    for states in first:  # the placements differ in what a touch would read
        tensions = {tuple(round(s.tw.true_tension(p.id), 6) for p in s.tw.packing.pieces) for s in states}
        assert len(tensions) > 1
        assert len({str(s.information_state_tensor()) for s in states}) == 1

    fixed = pyspiel.load_game("trapworks_booby_trap", {"pieces_per_size": 2, "seed": 0})
    start = fixed.new_initial_state()
    assert not start.is_chance_node()
    infosets = defaultdict(set)
    for s in plies(start, 2):
        infosets[(s.current_player(), s.information_state_string())].add(s.history_str())
    assert {len(v) for v in infosets.values()} == {1}


def test_booby_trap_resample_redraws_the_hidden_placement_only():
    game = pyspiel.load_game("trapworks_booby_trap", {"pieces_per_size": 2})
    state = set_up(game.new_initial_state(), tray=2, jitter=1)
    state.apply_action(state.legal_actions()[0])
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    seen = set()
    for _ in range(30):
        other = state.resample_from_infostate(1, sampler)
        assert other.information_state_string(1) == state.information_state_string(1)
        assert other.history()[0] == state.history()[0]  # the tray (public) is kept
        seen.add(other.history()[1])
    assert len(seen) > 1  # the placement (nobody's) is drawn anew


def test_seed_parameter_replays_one_deal():
    a = pyspiel.load_game("trapworks_dead_end_drive", {"players": 3, "seed": 5}).new_initial_state()
    b = pyspiel.load_game("trapworks_dead_end_drive", {"players": 3, "seed": 5}).new_initial_state()
    c = pyspiel.load_game("trapworks_dead_end_drive", {"players": 3, "seed": 6}).new_initial_state()
    assert a.tw.chars == b.tw.chars != c.tw.chars
    assert not a.layer.pending()


def test_seen_marks_who_saw_each_entry():
    game = pyspiel.load_game("trapworks_dead_end_drive", {"players": 2, "turn_limit": 4})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[-1][0])
    assert len(state.seen) == len(state.history())
    assert set(state.seen) <= {PUBLIC, -2, 0, 1}
    assert 0 in state.seen and 1 in state.seen and -2 in state.seen  # hands and secret cards


@pytest.mark.parametrize(
    "name,params",
    [
        ("trapworks_last_mouse_lost", {"board": "1;2;3;"}),
        ("trapworks_mouse_trap", {"turn_limit": 10}),
        ("trapworks_booby_trap", {"pieces_per_size": 2}),
        ("trapworks_dead_end_drive", {"players": 3, "turn_limit": 5}),
        ("trapworks_dead_end_drive", SMALL),
    ],
)
def test_every_openspiel_game_pickles_and_copies(name, params):
    import copy

    game = pyspiel.load_game(name, params)
    assert str(pyspiel.load_game(str(game))) == str(game)  # a position's commas survive as ';'
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and type(again) is type(game)
    assert again.new_initial_state().history() == []
    copied = copy.deepcopy(game)
    assert str(copied) == str(game) and copied.tw_game is not None
    state = copied.new_initial_state()
    assert state.current_player() == game.new_initial_state().current_player()


def test_resample_draws_from_the_given_sampler():
    game = pyspiel.load_game("trapworks_dead_end_drive", {"players": 3, "turn_limit": 12})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])

    def draw(seed):
        return state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0))

    assert draw(1).history() == draw(1).history()
    assert len({tuple(draw(k).history()) for k in range(8)}) > 1
    assert all(draw(k).information_state_string(0) == state.information_state_string(0) for k in range(4))


def test_ismcts_with_the_seeded_resampler_plays_the_same_game_twice():
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    from trapworks.adapters.openspiel import ismcts_resampler

    def play():
        game = pyspiel.load_game("trapworks_dead_end_drive", {"players": 2, "turn_limit": 3})
        rng = np.random.RandomState(7)
        bots = []
        for p in range(2):
            bot = ismcts.ISMCTSBot(
                game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=8, random_state=rng
            )
            bot.set_resampler(ismcts_resampler(seed=p))
            bots.append(bot)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        return state.history()

    assert play() == play()


# Player 1's Smothers stands on the Stairs trap with the trap pile empty: every card is in the
# discard pile, so a draw reshuffles it into a new pile first.
RESHUFFLE_POSITION = (
    "players=2 turn=1 phase=trap trap=S moved=S dice=3 det=0 portrait=K opening=0 turns=0 "
    "pawns=S:m3,D:l16,C:n16,L:j9,P:n9,K:o9,B:j11,Z:k11,M:l11,H:m11,R:n11,O:o11 "
    "chars=SDCL/PKBZ secret=MH/RO traps=-/- discard=sssfffccctttbbbwwwwdddddddddd"
)


def test_dead_end_drive_reshuffle_draws_by_chance_from_the_discard():
    game = pyspiel.load_game(
        "trapworks_dead_end_drive",
        {"players": 2, "turn_limit": 5, "first_player": 1, "position": RESHUFFLE_POSITION},
    )
    state = game.new_initial_state()
    while state.is_chance_node():  # the deal
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.tw.pile == [] and len(state.tw.discard) == 29
    state.apply_action(game.tw_game.DRAW)
    base = game.max_chance_outcomes() - DeadEndDriveChance.num_outcomes + 12
    outcomes = dict(state.chance_outcomes())
    discard = Counter(state.tw.discard)
    assert outcomes == pytest.approx({base + k: c / 29 for k, c in discard.items()})
    # A Detective card, then a statue card: the kernel deals exactly those after its reshuffle.
    state.apply_action(base + DETECTIVE)
    assert state.is_chance_node()  # a Detective card draws again
    assert dict(state.chance_outcomes())[base + DETECTIVE] == pytest.approx(9 / 28)
    state.apply_action(base + 3)
    tw = state.tw
    assert not state.is_chance_node()
    assert tw.drawn == 3 and tw.detective == 1 and tw.epoch == 1
    assert len(tw.pile) == 27 and Counter(tw.pile)[DETECTIVE] == 9
    assert any(e.get("type") == "reshuffle" for e in tw.all_events())


@pytest.mark.parametrize("position", [SMALL_POSITION, RESHUFFLE_POSITION], ids=["small", "reshuffle"])
def test_random_sim_test_on_positions_with_hidden_chance(position):
    game = pyspiel.load_game(
        "trapworks_dead_end_drive", {"players": 2, "turn_limit": 3, "first_player": 1, "position": position}
    )
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_adapters_chance_code_names_no_game():
    """Issue 23: each game declares its hidden-chance layer in its spec (GameSpec.chance_layer);
    the adapters find it there and name no game."""
    from pathlib import Path

    import trapworks
    from trapworks.adapters import _chance, openspiel
    from trapworks.core.registry import game_spec

    for module in (_chance, openspiel):
        tree = ast.parse(Path(module.__file__).read_text())
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                assert not any(g in node.value for g in trapworks.available_games()), (module, node.value)
            if isinstance(node, ast.ImportFrom):
                assert not (node.module or "").startswith("trapworks.games"), (module, node.module)
    assert game_spec("dead-end-drive").chance_layer is DeadEndDriveChance
    assert game_spec("booby-trap").chance_layer is BoobyTrapChance
    assert game_spec("last-mouse-lost").chance_layer is None
    assert _chance.layer_outcomes("booby-trap") == BoobyTrapChance.num_outcomes
    assert _chance.takes_position("dead-end-drive") and not _chance.takes_position("booby-trap")
