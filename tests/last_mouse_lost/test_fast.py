"""The compiled engine (_fastlml.c) against the Python rules, the reference (issue 23).

Last Mouse Lost's rules have two copies: game.py's Python rules (the reference, what runs
without the extension) and the compiled engine, which single states (`_FastState`) and batches
(batch.py, tests in test_batch.py) both run. The engine is optional (setup.py builds it where a
C compiler is found); these tests play both side by side on the same random actions, legal and
not, and from random positions.
"""

from __future__ import annotations

import copy
import ctypes
import os
import pickle
import random
import subprocess
import sys

import pytest

import trapworks
from trapworks.core import IllegalActionError
from trapworks.games.last_mouse_lost import game as lml_game

pytestmark = pytest.mark.skipif(
    lml_game._fastlml is None, reason="the C extension is not built (or TRAPWORKS_PURE_PYTHON is set)"
)


def pure_twin(game):
    """The same game whose states take the Python reference path."""
    twin = trapworks.make("last-mouse-lost", **game.public_options())
    twin.state_class = lml_game.LastMouseLostState
    twin._initial = twin.state_class(twin)
    return twin


def observe(state):
    def outcome(f):
        try:
            return ("ok", f())
        except IllegalActionError as e:
            return ("illegal", str(e))

    return (
        state.is_terminal(),
        state.current_player(),
        state.is_chance_node(),
        state.legal_actions(),
        state.legal_actions(0),
        state.legal_actions(1),
        state.legal_actions(player=1),
        state.position(),
        state.history(),
        state.all_events(),
        state.last_events(0),
        state.returns(),
        state.view(0),
        outcome(lambda: state.string_to_action("c2")),
    )


JUNK = [-1, 10**30, 2**64 + 3, True, False, "a1", None, 1.0, 999]


@pytest.mark.parametrize("rules", ["basic", "advanced"])
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"first_to": 2, "opener": "loser", "first_player": "random"},
        {"board": [16, 1, 15], "first_to": 2, "opener": "winner"},
        {"board": [7] * 9, "opener": "same", "first_player": 1},
        {"board": [1], "first_to": 3},
    ],
)
def test_compiled_and_pure_states_play_the_same_games(rules, options):
    game = trapworks.make("last-mouse-lost", rules=rules, **options)
    assert game.state_class is lml_game._FastState
    twin = pure_twin(game)
    rng = random.Random(f"{rules}{options}")
    for _ in range(12):
        fast, pure = game.new_initial_state(seed=3), twin.new_initial_state(seed=3)
        assert type(pure) is not type(fast)
        while True:
            assert observe(fast) == observe(pure)
            if fast.is_terminal():
                break
            # An illegal or malformed action is refused the same way and changes nothing.
            legal = fast.legal_actions()
            bad = rng.choice([*JUNK, *(a for a in range(game.num_press_actions) if a not in legal)])
            errors = []
            for s in (fast, pure):
                try:
                    s.apply_action(bad)
                except (IllegalActionError, TypeError) as e:
                    errors.append((type(e), str(e)))
            assert len(errors) == 2 and errors[0] == errors[1], (bad, errors)
            if rng.random() < 0.1:  # clones and pickles carry on the same game
                fast = rng.choice([fast.clone(), copy.deepcopy(fast), pickle.loads(pickle.dumps(fast))])
                assert type(fast) is lml_game._FastState
            action = rng.choice(legal)
            fast.apply_action(action)
            pure.apply_action(action)


def test_a_pickle_loads_as_the_other_implementation():
    game = trapworks.make("last-mouse-lost", rules="advanced", first_to=2)
    twin = pure_twin(game)
    fast = game.new_initial_state()
    for text in ("c2-4", "a1", "f*"):
        fast.apply_action(fast.string_to_action(text))
    pure = lml_game._restore_state(twin, fast.__getstate__())
    assert type(pure) is lml_game.LastMouseLostState
    back = lml_game._restore_state(game, pure.__getstate__())
    assert type(back) is lml_game._FastState
    assert observe(pure) == observe(fast) == observe(back)


def test_boards_beyond_64_mice_take_the_pure_path():
    game = trapworks.make("last-mouse-lost", board=[16, 16, 16, 16, 1])
    state = game.new_initial_state()
    assert type(state) is lml_game.LastMouseLostState
    assert not game.batched_agents  # nor batches: the engine holds up to 64 mice
    state.apply_action(state.string_to_action("e1"))
    assert state.position().startswith("o" * 16)


def test_trapworks_pure_python_turns_the_compiled_path_off():
    code = "import trapworks; print(type(trapworks.make('last-mouse-lost').new_initial_state()).__name__)"
    env = {**os.environ, "TRAPWORKS_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "LastMouseLostState"


def random_position(game, rng):
    """A random position text of `game`: any raised mice (at least one), score and seat."""
    while True:
        rows = ["".join(rng.choice("o.") for _ in range(n)) for n in game.board]
        if "o" in "".join(rows):
            break
    first_to = game.options["first_to"]
    score = [rng.randrange(first_to), rng.randrange(first_to)]
    seat = rng.choice("12")
    full = all("." not in r for r in rows)  # a round not begun: its opener is to move
    return f"{'/'.join(rows)} {seat} {score[0]}-{score[1]} {seat if full else rng.choice('12')}"


@pytest.mark.parametrize("rules", ["basic", "advanced"])
@pytest.mark.parametrize("opener", lml_game.OPENERS)
def test_the_engine_agrees_with_the_reference_from_random_positions(rules, opener):
    """From 300 random positions per case (random boards up to 64 mice, scores, seats), every
    legal press and a few illegal ones: the engine and the reference give the same legal list,
    refusals and resulting states (the end of a round and of the match included)."""
    rng = random.Random(f"{rules}{opener}")
    for _ in range(30):
        board = [rng.randint(1, 16) for _ in range(rng.randint(1, 6))]
        while sum(board) > 64:
            board.pop()
        game = trapworks.make(
            "last-mouse-lost", rules=rules, board=board, opener=opener, first_to=rng.randint(1, 3)
        )
        assert game.state_class is lml_game._FastState
        twin = pure_twin(game)
        for _ in range(10):
            text = random_position(game, rng)
            fast, pure = game.state_from_position(text), twin.state_from_position(text)
            assert observe(fast) == observe(pure), text
            legal = pure.legal_actions()
            others = [a for a in range(game.num_press_actions) if a not in legal]
            for action in legal + rng.sample(others, min(3, len(others))) + [rng.choice(JUNK)]:
                a, b = fast.clone(), pure.clone()
                outcomes = []
                for s in (a, b):
                    try:
                        s.apply_action(action)
                        outcomes.append("ok")
                    except (IllegalActionError, TypeError) as e:
                        outcomes.append(f"{type(e).__name__}: {e}")
                assert outcomes[0] == outcomes[1], (text, action, outcomes)
                assert observe(a) == observe(b), (text, action)
                assert (a.score, a.round_opener, a.last_round) == (b.score, b.round_opener, b.last_round)


def test_the_engines_count_and_kth_press_list_the_legal_presses():
    """The batch's random policy reads the legal list through count and kth (no list made):
    from random positions, they give the reference's legal list, entry for entry."""
    addresses = lml_game._fastlml.engine_addresses()
    i64 = ctypes.c_int64
    count = ctypes.CFUNCTYPE(i64, i64, i64)(addresses["count"])
    kth = ctypes.CFUNCTYPE(i64, i64, i64, i64)(addresses["kth"])
    play_kth = ctypes.CFUNCTYPE(i64, i64, i64, i64, i64)(addresses["play_kth"])
    rng = random.Random(23)
    for rules in ("basic", "advanced"):
        for _ in range(40):
            board = [rng.randint(1, 16) for _ in range(rng.randint(1, 4))]
            game = trapworks.make("last-mouse-lost", rules=rules, board=board)
            twin = pure_twin(game)
            spec = game.tables.spec.address()
            for _ in range(10):
                state = twin.state_from_position(random_position(game, rng))
                bits = state.board - (1 << 64) if state.board >> 63 else state.board
                legal = state.legal_actions()
                assert count(spec, bits) == len(legal)
                assert [kth(spec, bits, k) for k in range(len(legal))] == legal
                assert kth(spec, bits, len(legal)) == -1
                k = rng.randrange(len(legal))
                out = i64(-2)
                after = play_kth(spec, bits, k, ctypes.addressof(out))
                assert out.value == legal[k]
                score = list(state.score)
                state.apply_action(legal[k])
                if state.score == score:  # the round goes on: the board after the press
                    assert after & ((1 << 64) - 1) == state.board


def test_the_batch_needs_no_numba():
    """The batch is the engine's own C match loop (play_batch in _fastlml.c): with numba made
    unimportable, batches are still offered and play the same games."""
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "import trapworks\n"
        "g = trapworks.make('last-mouse-lost', rules='advanced')\n"
        "assert g.batched_agents == {'random', 'heuristic'}, g.batched_agents\n"
        "rows = g.play_batch(['heuristic', 'random'], range(50), moves=True)\n"
        "print(sum(len(r['moves']) for r in rows), rows[7]['moves'])\n"
        "assert 'numba' not in [m.split('.')[0] for m in sys.modules if sys.modules[m]]\n"
    )
    env = dict(os.environ)
    env.pop("TRAPWORKS_PURE_PYTHON", None)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    game = trapworks.make("last-mouse-lost", rules="advanced")
    rows = game.play_batch(["heuristic", "random"], range(50), moves=True)
    assert out.stdout.split(maxsplit=1) == [
        str(sum(len(r["moves"]) for r in rows)),
        f"{rows[7]['moves']}\n",
    ]


def test_the_engines_batch_refuses_malformed_buffers():
    """play_batch (C) checks its buffers and arguments; a mistake is a clear ValueError, never a
    write past an array."""
    import numpy as np

    game = trapworks.make("last-mouse-lost")
    spec = game.tables.spec
    seeds = np.arange(4, dtype=np.uint64)

    def call(**change):
        args = dict(
            spec=spec,
            full=game.full_board,
            first_to=1,
            opener=0,
            first=0,
            policies=(0, 1),
            seeds=seeds,
            winner=np.zeros(4, np.int8),
            length=np.zeros(4, np.int32),
            rounds=np.zeros(4, np.int32),
            opener_wins=np.zeros(4, np.int32),
            moves=np.full((4, 40), -1, np.int32),
            max_len=40,
        )
        args.update(change)
        lml_game._fastlml.play_batch(*args.values())
        return args

    done = call()
    assert set(done["winner"].tolist()) <= {0, 1} and (done["length"] > 0).all()
    assert (done["moves"][np.arange(4), done["length"] - 1] >= 0).all()
    for change, words in [
        ({"winner": np.zeros(3, np.int8)}, "winner"),
        ({"length": np.zeros(4, np.int64)}, "int32 per seed"),
        ({"moves": np.zeros((4, 39), np.int32)}, "moves"),
        ({"max_len": 2, "moves": np.zeros((4, 2), np.int32)}, "past max_len"),
        ({"policies": (0, 2)}, "policy"),
        ({"opener": 4}, "opener rule"),
        ({"first_to": 0}, "first_to"),
        ({"full": 0}, "no mice"),
    ]:
        with pytest.raises(ValueError, match=words):
            call(**change)
    with pytest.raises(TypeError):
        call(spec=object())
    with pytest.raises(TypeError):  # a read-only output
        ro = np.zeros(4, np.int8)
        ro.flags.writeable = False
        call(winner=ro)
