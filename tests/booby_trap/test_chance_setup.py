"""Booby Trap's set-up as chance in the kernel's own chance model (issue 30, deliver 1: "the same
in the kernel's chance model"). With the option setup=chance the kernel's initial state is the
OpenSpiel tree's set-up at seed=-1 (games/booby_trap/chance_layer.py): a public chance node over
TRAYS trays, then a chance node over JITTERS placements below the eye's resolution. The default
(setup=seeded) is unchanged: the tray comes from the seed (tests/booby_trap/test_golden.py)."""

from __future__ import annotations

import math
import random

import pytest

import trapworks
from trapworks.core import GameRecord
from trapworks.core.game import CHANCE, sample_chance
from trapworks.games.booby_trap.chance_layer import JITTERS, TRAYS, BoobyTrapChance

OPTIONS = {"pieces_per_size": 2}


def kernel_set_up(game, tray, placement, seed=11):
    state = game.new_initial_state(seed=seed)
    state.apply_action(game.tray_base + tray)
    state.apply_action(game.placement_base + placement)
    return state


def test_the_kernels_set_up_chance_outcomes_sum_to_one():
    game = trapworks.make("booby-trap", setup="chance", **OPTIONS)
    root = game.new_initial_state(seed=3)
    assert root.current_player() == CHANCE and root.is_chance_node()
    trays = root.chance_outcomes()
    assert [a for a, _ in trays] == list(game.chance_actions()[:TRAYS])
    assert all(p == 1 / TRAYS for _, p in trays) and math.isclose(sum(p for _, p in trays), 1.0)
    assert root.legal_actions() == [a for a, _ in trays]
    for tray, _ in trays:
        s = root.clone()
        s.apply_action(tray)
        placements = s.chance_outcomes()
        assert s.is_chance_node() and len(placements) == JITTERS
        assert [a for a, _ in placements] == list(game.chance_actions()[TRAYS:])
        assert math.isclose(sum(p for _, p in placements), 1.0)
        s.apply_action(placements[0][0])
        assert s.current_player() == game.options["first_player"] and not s.is_chance_node()
        assert s.legal_actions() == s.touchable()
    # every chance action has its outcome number (the OpenSpiel adapter's numbering)
    assert [game.chance_outcome_index(a) for a in game.chance_actions()] == list(range(TRAYS + JITTERS))
    # a seat's action is refused while the tray is being set up, and a chance outcome after it
    with pytest.raises(trapworks.core.IllegalActionError, match="set up by chance"):
        root.clone().apply_action(0)
    done = kernel_set_up(game, 1, 2)
    with pytest.raises(trapworks.core.IllegalActionError):
        done.apply_action(game.tray_base)


def test_seeded_set_up_is_unchanged_and_has_no_chance():
    seeded = trapworks.make("booby-trap", **OPTIONS)
    assert seeded.options["setup"] == "seeded" and seeded.chance_actions() == ()
    state = seeded.new_initial_state(seed=3)
    assert not state.is_chance_node() and state.chance_outcomes() == []
    # the same tray as a game object made without the option at all (the golden games' case)
    again = trapworks.make("booby-trap", pieces_per_size=2, setup="seeded").new_initial_state(seed=3)
    assert state.position() == again.position()


@pytest.mark.parametrize("tray", range(TRAYS))
def test_the_openspiel_tree_and_the_kernel_agree_on_the_set_up(tray):
    pyspiel = pytest.importorskip("pyspiel")
    import trapworks.adapters.openspiel  # noqa: F401 (registers the games)

    os_game = pyspiel.load_game("trapworks_booby_trap", OPTIONS)  # seed=-1: the layer's set-up
    game = trapworks.make("booby-trap", setup="chance", **OPTIONS)
    root = os_game.new_initial_state()
    kernel_root = game.new_initial_state(seed=5)
    # the same distribution: tray t of the tree is the kernel's outcome tray_base + t
    assert [p for _, p in root.chance_outcomes()] == [p for _, p in kernel_root.chance_outcomes()]
    os_tray = root.child(BoobyTrapChance.TRAY_BASE + tray)
    assert [p for _, p in os_tray.chance_outcomes()] == [1 / JITTERS] * JITTERS
    for j in range(JITTERS):
        os_state = os_tray.child(BoobyTrapChance.JITTER_BASE + j)
        mine = kernel_set_up(game, tray, j)
        theirs = os_state.tw
        assert mine.packing == theirs.packing and mine.sizes == theirs.sizes
        assert mine.bar_rest == theirs.bar_rest
        for seat in range(game.num_players()):
            # the same view but for the move count: the kernel's counts its two set-up outcomes
            a, b = mine.view(seat), theirs.view(seat)
            assert a.pop("moves_made") == b.pop("moves_made") + 2 and a == b
        assert mine.legal_actions() == os_state.legal_actions()
        # and the same physics from there: one touch and removal settle the same way
        piece = mine.legal_actions()[0]
        for s in (mine, theirs):
            s.apply_action(piece)
            s.apply_action(game.remove_action)
        assert mine.packing == theirs.packing and mine.scores() == theirs.scores()


def test_openspiel_over_a_kernel_with_chance_set_up_has_one_set_up():
    """setup=chance through the OpenSpiel adapter: the kernel's chance nodes set the tray up and
    the hidden-chance layer adds only the touch noise (not a second set-up)."""
    pyspiel = pytest.importorskip("pyspiel")
    import trapworks.adapters.openspiel  # noqa: F401 (registers the games)

    os_game = pyspiel.load_game("trapworks_booby_trap", {**OPTIONS, "setup": "chance"})
    state = os_game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == TRAYS and math.isclose(sum(p for _, p in outcomes), 1.0)
    state.apply_action(outcomes[1][0])
    outcomes = state.chance_outcomes()
    assert len(outcomes) == JITTERS
    state.apply_action(outcomes[0][0])
    assert not state.is_chance_node()
    game = trapworks.make("booby-trap", setup="chance", **OPTIONS)
    assert state.tw.packing == kernel_set_up(game, 1, 0).packing


def test_a_chance_set_up_game_plays_out_and_its_record_replays():
    game = trapworks.make("booby-trap", setup="chance", **OPTIONS)
    rng = random.Random(4)
    state = game.new_initial_state(seed=9)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    record = GameRecord.from_state(state)
    texts = []
    replay = game.new_initial_state(seed=9)
    for a in state.history():
        texts.append(replay.action_to_string(a))
        assert replay.string_to_action(texts[-1]) == a
        replay.apply_action(a)
    assert texts[0].startswith("tray ") and texts[1].startswith("placement ")
    assert replay.position() == state.position() and replay.returns() == state.returns()
    replayed = list(GameRecord.from_dict(record.to_dict()).states())
    assert replayed[-1].position() == state.position()
