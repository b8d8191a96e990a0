"""Booby Trap: removals judged at rest, and a stored tray that holds (issue 25).

001: "If he does remove a piece and the spring bar moves less than one of the spaces on the scale
along the side, he has completed a successful play and keeps the piece." and "If the spring bar
moves one or more markings, the player is penalized three points". A removal is judged on the
whole motion it causes, so after every removal the packing the game stores is an equilibrium:
rebuilt, loaded and left alone for four times the cap (`physics.MAX_SETTLE_STEPS`), its bar moves
less than `physics.HOLD_MARKS` of a mark. The same for the set-up ("gently release the spring bar
until it rests against them") and for the pieces that jump out after a trip. And a piece that
carries no load never trips the bar: removing it cannot be what moves the bar.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bt_helpers import cite

import trapworks
from trapworks.games.booby_trap import physics

KEEPS = "he has completed a successful play and keeps the piece"
PENALTY_SENTENCE = "If the spring bar moves one or more markings, the player is penalized three points"
SET_UP = "gently release the spring bar until it rests against them"
JUMPED = "any other pieces that may have jumped out of the board"
LOOSE = "Some pieces may be completely loose"


def left_alone(packing: physics.Packing) -> float:
    """How far the bar moves (mm) when the stored packing is rebuilt, loaded and left alone for
    four times the cap (after the warm-up that loads it)."""
    with physics.LeanWorld(packing) as world:
        world.warm_up()
        for _ in range(4 * physics.MAX_SETTLE_STEPS):
            world.step()
        return abs(packing.bar - world.bar_face())


# (variant, players, pieces of each size): every variant, 1 to 6 players, small trays (quick).
GAMES = [
    ("regular", 2, 6),
    ("regular", 3, 5),
    ("regular", 4, 5),
    ("regular", 5, 4),
    ("regular", 6, 4),
    ("solitaire", 1, 5),
    ("solitaire", 1, 4),
    ("sizes-in-order", 2, 5),
    ("sizes-in-order", 4, 4),
    ("no-passes", 3, 5),
    ("no-passes", 5, 4),
    ("no-passes", 2, 4),
]
# A bigger run (slow): more seeds, and full trays (20 pieces a size).
SLOW_GAMES = [
    ("regular", 2, 8),
    ("regular", 3, 8),
    ("regular", 6, 8),
    ("solitaire", 1, 8),
    ("sizes-in-order", 2, 8),
    ("sizes-in-order", 5, 8),
    ("no-passes", 2, 8),
    ("no-passes", 4, 8),
    ("regular", 2, 20),
    ("sizes-in-order", 3, 20),
    ("no-passes", 4, 20),
]


def random_game(variant: str, players: int, per: int, seed: int):
    """A random game (random legal actions, passes included); yields the state and the removal
    event after every removal, and the state at the start."""
    game = trapworks.make("booby-trap", variant=variant, players=players, pieces_per_size=per)
    state = game.new_initial_state(seed)
    rng = random.Random(f"at-rest:{seed}")
    yield state, None
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        removal = next((e for e in state.last_events() if e["type"] == "removal"), None)
        if removal is not None:
            yield state, removal


def check_games(games, seed0: int) -> tuple[int, int, int]:
    kept = trips = popped = 0
    for k, (variant, players, per) in enumerate(games):
        for state, removal in random_game(variant, players, per, seed0 + k):
            where = f"{variant} {players}p {per}/size seed {seed0 + k} after {state.removals} removal(s)"
            if removal is None:  # the set-up
                assert state.setup_at_rest, where
                assert left_alone(state.packing) < physics.HOLD, where
                continue
            assert removal["at_rest"], where  # the cap was never reached
            if removal["tripped"]:
                trips += 1
                popped += bool(removal["popped"])
                if not removal["popped"]:
                    continue
            else:
                kept += 1
            # Every kept removal, and every trip that threw pieces out: the stored tray holds.
            assert left_alone(state.packing) < physics.HOLD, where
    return kept, trips, popped


def test_every_stored_tray_holds_after_kept_removals_set_ups_and_throw_outs():
    cite(KEEPS)
    cite(PENALTY_SENTENCE)
    cite(SET_UP)
    cite(JUMPED)
    kept, trips, _popped = check_games(GAMES, 2500)
    assert kept >= 60 and trips >= 5  # a real sample: many kept removals, some trips


# The bigger run in five parts, each well under pytest's 300 s timeout on a loaded machine (the
# whole run took 105 s of CPU and 290 s of wall time on 2 shared cores: one test was too close).
# Each game keeps its seed (2600 + its index in SLOW_GAMES), so the run is the same games as one
# test; each part's minimum counts add up to more than the one test asked (150 kept, 20 trips,
# 1 throw-out). (first index, last index + 1, kept, trips, throw-outs at least)
SLOW_PARTS = [(0, 4, 30, 8, 1), (4, 8, 45, 5, 1), (8, 9, 30, 6, 1), (9, 10, 30, 6, 1), (10, 11, 30, 6, 1)]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("first", "end", "min_kept", "min_trips", "min_popped"),
    SLOW_PARTS,
    ids=[f"games-{first}-{end - 1}" for first, end, *_ in SLOW_PARTS],
)
def test_every_stored_tray_holds_over_a_bigger_run(first, end, min_kept, min_trips, min_popped):
    kept, trips, popped = check_games(SLOW_GAMES[first:end], 2600 + first)
    assert kept >= min_kept and trips >= min_trips and popped >= min_popped, (kept, trips, popped)


def test_the_bigger_run_covers_every_slow_game_once():
    covered = [k for first, end, *_ in SLOW_PARTS for k in range(first, end)]
    assert covered == list(range(len(SLOW_GAMES)))
    assert sum(p[2] for p in SLOW_PARTS) >= 150 and sum(p[3] for p in SLOW_PARTS) >= 20


def no_load_removals(games, seed0: int, every: int = 2) -> list[tuple[str, float, bool]]:
    """Remove each piece that carries no load (in turn, from the same position) at every
    `every`-th position of random games: (where, travel, tripped) for each."""
    out = []
    for k, (variant, players, per) in enumerate(games):
        for state, _removal in random_game(variant, players, per, seed0 + k):
            if state.is_terminal() or state.removals % every:
                continue
            load = physics.stress_of(state.packing).load
            for pid, force in load.items():
                if force == 0.0:
                    result = physics.resolve_removal(state.packing, pid)
                    out.append(
                        (
                            f"seed {seed0 + k} removal {state.removals} piece {pid}",
                            result.travel,
                            result.tripped,
                        )
                    )
    return out


def test_a_piece_that_carries_no_load_never_trips_the_bar():
    cite(LOOSE)
    cite(PENALTY_SENTENCE)
    got = no_load_removals(GAMES[:6], 2700)
    assert len(got) >= 40
    for where, travel, tripped in got:
        assert not tripped, (where, travel)
        assert abs(travel) < physics.HOLD, (where, travel)


@pytest.mark.slow
def test_a_piece_that_carries_no_load_never_trips_the_bar_full_trays():
    got = no_load_removals([("regular", 2, 20), ("no-passes", 3, 20), ("regular", 2, 20)], 2800, every=3)
    assert len(got) >= 150
    for where, travel, tripped in got:
        assert not tripped, (where, travel)


def test_the_issue_position_no_piece_without_load_trips():
    """A position found while reproducing issue 25 (seed 1 of a random 2-player regular game,
    after 30 removals, stored by the model of the time): every piece there that carried no load,
    lifted out, tripped the bar by 8-19 mm once the stored tray was rebuilt. Loaded into today's
    model, the tray holds and no piece without load trips the bar."""
    cite(LOOSE)
    position = (Path(__file__).parent / "data" / "issue25-no-load-trips.txt").read_text().strip()
    state = trapworks.make("booby-trap").state_from_position(position)
    load = physics.stress_of(state.packing).load
    free = [pid for pid, force in load.items() if force == 0.0]
    assert len(free) >= 5
    for pid in free:
        result = physics.resolve_removal(state.packing, pid)
        assert not result.tripped and abs(result.travel) < physics.HOLD, (pid, result.travel)


def test_a_stored_tray_that_does_not_hold_is_part_of_the_removal(monkeypatch):
    """When the tray, stored at a pause, slips on once rebuilt, that motion is judged with the
    removal that caused it (`Removal.slipped` counts the checks it failed); with no room left
    under the cap the removal is reported as not at rest, never silently judged."""
    state = trapworks.make("booby-trap", pieces_per_size=6).new_initial_state(3)
    piece = state.packing.pieces[0].id
    calm = physics.resolve_removal(state.packing, piece)
    assert calm.at_rest and left_alone(calm.after) < physics.HOLD
    monkeypatch.setattr(physics, "HOLD", 0.0)  # nothing holds: every check fails
    restless = physics.resolve_removal(state.packing, piece)
    assert restless.slipped >= 1 and not restless.at_rest
    assert restless.steps >= physics.MAX_SETTLE_STEPS - physics.WARMUP_STEPS


def test_a_set_up_that_does_not_come_to_hold_is_reported(monkeypatch):
    monkeypatch.setattr(physics, "HOLD", 0.0)
    monkeypatch.setattr(physics, "MAX_SETTLE_STEPS", 200)
    _packing, at_rest, checks = physics.set_up_report(5, 4)
    assert not at_rest and checks >= 1
    game = trapworks.make("booby-trap", pieces_per_size=4)
    assert game.new_initial_state(5).view(0)["setup_at_rest"] is False


def test_the_hold_checks_stress_reading_is_a_fresh_spaces():
    """The hold check leaves its reading of the stored tray in stress_of's cache: the very
    numbers a space built afresh for that packing gives."""
    state = trapworks.make("booby-trap", pieces_per_size=6).new_initial_state(8)
    rng = random.Random(8)
    for _ in range(5):
        result = physics.resolve_removal(state.packing, rng.choice(state.packing.pieces).id)
        state.packing = result.after
        left = physics.stress_of(state.packing)
        physics.stress_of.cache_clear()
        assert physics.stress_of(state.packing) == left
