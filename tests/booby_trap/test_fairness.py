"""Booby Trap fair play (issue 13): what a view carries of the tray (positions to the eye's
resolution), hints that tell no exact forces, the hard level playing from its view only, the
oracle kept out of the levels and the lobby, and removals judged only once the tray is at rest."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from bt_helpers import arch_layout, cite, constructed, piece_at

import trapworks
from trapworks.agents import available_agents, make_agent
from trapworks.agents.levels import level_spec
from trapworks.core.messages import format_message
from trapworks.games.booby_trap import physics
from trapworks.games.booby_trap.game import EYE_MM, eye

PENALTY_SENTENCE = "If the spring bar moves one or more markings, the player is penalized"


def on_grid(v: float) -> bool:
    return abs(v / EYE_MM - round(v / EYE_MM)) < 1e-9


def played(seed: int = 3, removals: int = 3):
    state = trapworks.make("booby-trap").new_initial_state(seed)
    rng = random.Random(seed)
    while state.removals < removals:
        state.apply_action(
            rng.choice(state.touchable()) if state.touched is None else state.game.remove_action
        )
    return state


def test_views_carry_the_tray_only_to_the_eyes_resolution():
    state = played()
    events = []
    state.apply_action(state.touchable()[0])
    state.apply_action(state.game.remove_action)
    events = state.last_events()
    for seat in (0, 1, None):
        v = state.view(seat)
        assert all(on_grid(p["x"]) and on_grid(p["y"]) for p in v["pieces"])
        assert on_grid(v["bar"]) and on_grid(v["bar_rest"])
        tray = re.search(r"tray=(\S+)", v["position"]).group(1)
        for item in tray.split(","):
            _pid, x, y = item.split(":")
            assert on_grid(float(x)) and on_grid(float(y))
        assert on_grid(v["last_removal"]["bar"]) and on_grid(v["last_removal"]["travel_mm"])
    removal = next(e for e in events if e["type"] == "removal")
    for frame in removal["frames"]:
        assert on_grid(frame["bar"]) and all(on_grid(x) and on_grid(y) for _, x, y in frame["pieces"])


def test_the_view_does_not_give_the_exact_tensions():
    """From exact positions any program recomputes every tension; from the view's positions the
    model's loads are off, so the toucher's reading stays the only exact force information."""
    worst = []
    for seed in (1, 2, 3):
        state = trapworks.make("booby-trap").new_initial_state(seed)
        true = physics.stress_of(state.packing).load
        seen = state.game.state_from_position(state.view(0)["position"])
        guess = physics.stress_of(seen.packing).load
        worst.append(max(abs(true[p] - guess[p]) for p in true))
    assert min(worst) > 0.05


def test_hints_tell_no_exact_force_of_an_untouched_piece():
    """The hint agent (the hard level) names a piece and says it looks loose or held: no force."""
    state = played(seed=5, removals=2)
    hard = make_agent("hard", state.game, state.current_player(), seed=0)
    text = hard.explain(state)
    assert not re.search(r"\d\.\d", text), text  # no decimal figure at all before touching
    piece = hard.step(state)
    state.apply_action(piece)
    text = hard.explain(state)
    own = state.view(state.current_player())["reading"]["reading"]
    assert re.findall(r"\d\.\d+", text) == [f"{own:.2f}"]  # only the toucher's own reading


def test_hard_level_plays_from_the_view_and_the_oracle_is_no_level():
    game = trapworks.make("booby-trap")
    assert level_spec(game, "hard")[0] == "physics-view"
    assert all(level_spec(game, lv)[0] != "oracle" for lv in ("easy", "medium", "hard"))
    assert "oracle" not in available_agents(game)  # what the lobby and `play` offer
    assert make_agent("oracle", game, 0).name == "oracle"  # still there for analysis


def test_removal_is_judged_at_rest_the_reviews_example():
    """The review's seed 49 (touch 4, remove, touch 23, remove, touch 28, remove, touch 8, remove,
    touch 22; the position saved before the fifth removal, since setups now come from a secret key's
    streams): that removal used to be judged after 480 steps at 1.6 mm (kept) while the bar ran on
    to 11.8 mm, so the next player paid for the collapse. The judgement now waits until the stored
    tray holds (issue 25's model: 24 solver iterations; there this removal moves the bar 0.7 mm):
    the bar's travel in the event is where the tray holds, and left alone it moves no further."""
    cite(PENALTY_SENTENCE)
    position = (Path(__file__).parent / "data" / "review-seed49-before-fifth-removal.txt").read_text()
    state = trapworks.make("booby-trap").state_from_position(position.strip())
    state.apply_action(state.game.remove_action)
    removal = next(e for e in state.last_events() if e["type"] == "removal")
    assert removal["at_rest"]
    assert removal["tripped"] == (removal["marks"] >= 1)
    assert removal["bar"] == eye(state.packing.bar)
    # At rest: rebuilt and left alone for four times the cap, the bar stays within HOLD.
    world = physics.loaded_world(state.packing)
    for _ in range(4 * physics.MAX_SETTLE_STEPS):
        world.step()
    assert abs(world.bar_face() - state.packing.bar) < physics.HOLD


def test_a_settle_that_hits_the_cap_is_reported(monkeypatch):
    tray, bar, key = arch_layout()
    state = constructed(tray, bar, per_size=8)
    keystone = piece_at(state, *key)
    monkeypatch.setattr(physics, "MAX_SETTLE_STEPS", 12)
    state.apply_action(keystone)
    state.apply_action(state.game.remove_action)
    removal = next(e for e in state.last_events() if e["type"] == "removal")
    unsettled = [e for e in state.last_events() if e["type"] == "unsettled"]
    assert removal["at_rest"] is False and len(unsettled) == 1
    assert "still moving" in format_message(unsettled[0], type(state.game))


@pytest.mark.parametrize("seed", [0, 7])
def test_physics_view_estimate_depends_on_the_view_only(seed):
    """Two true trays that look the same to seat 0 (every piece moved within the eye's
    resolution) give the hard level the same estimate and the same choice."""
    state = trapworks.make("booby-trap").new_initial_state(seed)
    other = state.resample(0, random.Random(99))  # same view, other exact positions
    assert other.view(0)["pieces"] == state.view(0)["pieces"] and other.packing != state.packing
    a = make_agent("hard", state.game, 0, seed=1)
    b = make_agent("hard", state.game, 0, seed=1)
    assert a.estimated_loads(state) == b.estimated_loads(other)
    assert a.step(state) == b.step(other)
