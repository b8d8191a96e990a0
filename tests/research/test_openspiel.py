"""OpenSpiel's own checks on every trapworks game and variant (issue 17)."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import cfr, exploitability, ismcts, mcts, minimax

import trapworks
import trapworks.adapters.openspiel  # noqa: F401 (registers the games)
from research.variants import OPENSPIEL_NAMES, case_id, cases, openspiel_params
from trapworks.adapters.openspiel import PUBLIC
from trapworks.games.last_mouse_lost import solve

CASES = cases()


def load(game_id: str, options: dict, **extra) -> pyspiel.Game:
    return pyspiel.load_game(OPENSPIEL_NAMES[game_id], {**openspiel_params(game_id, options), **extra})


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_random_sim_test_with_and_without_serialisation(case):
    game_id, options = case
    game = load(game_id, options)
    sims = 1 if game_id == "booby-trap" else 2
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)
    # The game string survives a round trip (a `board=3,5,6` value would not).
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.num_distinct_actions() == game.num_distinct_actions()


def test_game_facts_come_from_the_kernel():
    for game_id, name in OPENSPIEL_NAMES.items():
        game = pyspiel.load_game(name)
        tw = trapworks.make(game_id)
        assert game.num_distinct_actions() == tw.num_distinct_actions()
        assert game.num_players() == tw.num_players()
        # Hidden information as chance (seed -1) adds the deal and the draws (or the touch noise).
        hidden = game_id in ("booby-trap", "dead-end-drive")
        assert game.max_game_length() == tw.max_game_length() * (2 if hidden else 1) + (26 if hidden else 0)
        if hidden:
            fixed = pyspiel.load_game(name, {"seed": 0})
            assert fixed.max_game_length() == tw.max_game_length()
            assert fixed.max_chance_outcomes() == tw.max_chance_outcomes()
        assert game.observation_tensor_size() == tw.encoder().observation_size()
    # Registered as stochastic (first_player=random draws the opener); a game loaded with a fixed
    # first player has no chance node and says so.
    registered = {t.short_name: t for t in pyspiel.registered_games()}
    stochastic = pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert registered["trapworks_last_mouse_lost"].chance_mode == stochastic
    assert registered["trapworks_dead_end_drive"].chance_mode == stochastic
    assert registered["trapworks_booby_trap"].chance_mode == stochastic  # the touch noise
    lml = pyspiel.load_game("trapworks_last_mouse_lost")
    assert lml.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    drawn = pyspiel.load_game("trapworks_last_mouse_lost(first_player=-1)")
    assert drawn.get_type().chance_mode == stochastic
    state = drawn.new_initial_state()
    assert state.is_chance_node() and [a for a, _ in state.chance_outcomes()] == [0, 1]
    # Booby Trap: the touch noise is chance (seed -1); a seeded game has none.
    assert pyspiel.load_game("trapworks_booby_trap").get_type().chance_mode == stochastic
    assert pyspiel.load_game("trapworks_booby_trap(seed=3)").get_type().chance_mode == (
        pyspiel.GameType.ChanceMode.DETERMINISTIC
    )


def test_bad_parameters_are_named():
    with pytest.raises((ValueError, pyspiel.SpielError), match="board"):
        pyspiel.load_game("trapworks_last_mouse_lost(board=3;x)")
    with pytest.raises((ValueError, pyspiel.SpielError), match="rules"):
        pyspiel.load_game("trapworks_last_mouse_lost(rules=fancy)")


def _play_with_bots(game: pyspiel.Game, make_bot, seed: int, max_moves: int = 5000) -> pyspiel.State:
    rng = np.random.RandomState(seed)
    bots = [make_bot(game, p, rng) for p in range(game.num_players())]
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
        moves += 1
        assert moves < max_moves
    return state


MCTS_GAMES = [
    ("last-mouse-lost", {"board": [1, 2, 3], "first_to": 2, "first_player": "random"}),
    ("last-mouse-lost", {"first_to": 1, "rules": "advanced"}),
    ("mouse-trap", {"players": 3, "turn_limit": 6}),
    ("booby-trap", {"pieces_per_size": 2}),
    ("dead-end-drive", {"players": 3, "turn_limit": 4}),
]


@pytest.mark.parametrize("case", MCTS_GAMES, ids=[case_id(c) for c in MCTS_GAMES])
def test_openspiel_mcts_bot_plays_every_game_to_the_end(case):
    game_id, options = case
    game = load(game_id, options)

    def bot(game, player, rng):
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        return mcts.MCTSBot(game, uct_c=2.0, max_simulations=6, evaluator=evaluator, random_state=rng)

    state = _play_with_bots(game, bot, seed=1)
    assert state.is_terminal()
    assert len(state.returns()) == game.num_players()


ISMCTS_GAMES = [
    ("booby-trap", {"pieces_per_size": 2}),
    ("dead-end-drive", {"players": 2, "turn_limit": 4}),
    ("dead-end-drive", {"players": 4, "turn_limit": 3}),
]


@pytest.mark.parametrize("case", ISMCTS_GAMES, ids=[case_id(c) for c in ISMCTS_GAMES])
def test_openspiel_ismcts_bot_plays_the_hidden_information_games(case):
    game_id, options = case
    game = load(game_id, options)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION

    def bot(game, player, rng):
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        return ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=6, random_state=rng)

    state = _play_with_bots(game, bot, seed=2)
    assert state.is_terminal()


def test_resample_from_infostate_keeps_the_seats_information():
    game = load("dead-end-drive", {"players": 3, "turn_limit": 20})
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(25):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    seat = 1
    other = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(seat) == state.information_state_string(seat)
    assert other.observation_tensor(seat) == state.observation_tensor(seat)
    assert other.information_state_tensor(seat) == state.information_state_tensor(seat)

    # The same public actions; the hidden chance outcomes (other seats' cards) drawn anew.
    def public(s):
        return [a for a, who in zip(s.history(), s.seen, strict=True) if who in (PUBLIC, seat)]

    assert public(other) == public(state)
    others = [
        state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(k, 0.0, 1.0)) for k in range(6)
    ]
    assert len({str(o.tw.chars) for o in others}) > 1


@pytest.mark.parametrize("rules", ["basic", "advanced"])
@pytest.mark.parametrize("board", [[1, 2, 3], [2, 2, 3], [1, 1, 4]])
def test_alpha_beta_agrees_with_the_trapworks_solver(rules, board):
    game = load("last-mouse-lost", {"board": board, "first_to": 1, "rules": rules})
    rng = random.Random(sum(board))
    checked = 0
    for _ in range(12):
        state = game.new_initial_state()
        for _ in range(rng.randrange(0, 4)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        mover = state.current_player()
        value, action = minimax.alpha_beta_search(game, state=state.clone(), maximizing_player_id=mover)
        solution = solve(state.tw)
        assert (value > 0) == (solution.outcome == "win"), state.tw.position()
        if value > 0:
            # Alpha-beta's move wins too: after it, the solver says the opponent loses.
            after = state.clone()
            after.apply_action(action)
            assert after.is_terminal() or solve(after.tw).outcome == "loss"
        checked += 1
    assert checked >= 8


def test_cfr_exploitability_falls_on_a_small_board():
    game = load("last-mouse-lost", {"board": [1, 2, 2], "first_to": 1, "first_player": "random"})
    solver = cfr.CFRSolver(game)
    solver.evaluate_and_update_policy()
    first = exploitability.exploitability(game, solver.average_policy())
    for _ in range(30):
        solver.evaluate_and_update_policy()
    later = exploitability.exploitability(game, solver.average_policy())
    assert first > 0.05
    assert later < first / 2


def test_every_game_option_is_an_openspiel_parameter():
    """A new game option must reach OpenSpiel too: the registered parameters are exactly the game's
    options (plus the setup seed where a game draws one)."""
    import trapworks.core
    from trapworks.adapters.openspiel import GAMES

    for name, info in GAMES.items():
        options = set(trapworks.core.game_class(info["game_id"]).default_options)
        assert set(info["params"]) - {"seed", "position"} == options, name
