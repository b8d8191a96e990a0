"""Typed views (issue 23, Deliver 3): each game declares its seat's dynamic view as a TypedDict
with its private fields marked; the kernel strips what is not the viewer's; which action texts a
seat may read is each game's declaration, read by the kernel.

For every game, over many random states: every view fits its declared type; a view made for one
seat and read by another seat or a spectator holds none of that seat's private fields; a
spectator's view holds no private field; and a seat's view does not change when every secret it
may not know is drawn again (State.resample), so no other seat's secret is in it.
"""

from __future__ import annotations

import json
import random
from typing import Annotated, TypedDict

import pytest

import trapworks
from trapworks.core import CHANCE, PerSeat, Private, State
from trapworks.core.registry import game_spec
from trapworks.core.spec import GameSpec, SpecError, spec_of
from trapworks.core.views import conforms, strip_private, view_shape

GAMES = ["mouse-trap", "booby-trap", "last-mouse-lost", "dead-end-drive"]


def random_states(game_id: str, games: int, seed: int, max_steps: int = 400):
    """States met in random games (quick options and the default ones)."""
    spec = game_spec(game_id)
    rng = random.Random(seed)
    for g in range(games):
        options = dict(spec.quick_options) if g % 2 else {}
        if game_id == "booby-trap" and g % 3 == 2:
            options["teaching"] = True
        game = trapworks.make(game_id, **options)
        state = game.new_initial_state(seed=seed * 100 + g)
        for step in range(max_steps):
            if step % 7 == 0 or state.is_terminal():
                yield state
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_view_fits_its_type_and_no_seat_reads_another_seats_private_fields(game_id: str) -> None:
    spec = game_spec(game_id)
    assert spec.view_type is not None, "every built-in game types its view"
    shape = view_shape(spec.view_type)
    hidden = trapworks.make(game_id).has_hidden_information
    assert shape.has_private == hidden, "private fields exactly where the game hides something"
    checked = 0
    for state in random_states(game_id, games=4, seed=23):
        n = state.num_players()
        viewers: list[int | None] = [None, *range(n)]
        for owner in viewers:
            own = state.view(owner)
            json.dumps(own)  # JSON types only
            assert conforms(own, shape) == [], (game_id, owner)
            for viewer in viewers:
                seen = state.view_for(owner, viewer)
                for name, empty in shape.private.items():
                    if viewer is None or viewer != owner:
                        # another seat (or a spectator) reads the empty value, never the owner's
                        assert seen[name] == empty, (game_id, owner, viewer, name)
                    else:
                        assert seen[name] == own[name]
                public = {k: v for k, v in seen.items() if k not in shape.private}
                assert public == {k: v for k, v in own.items() if k not in shape.private}
            if owner is None:
                for name, empty in shape.private.items():
                    assert own[name] == empty, f"a spectator reads {name}"
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("game_id", ["booby-trap", "dead-end-drive"])
def test_a_seats_view_holds_no_secret_of_another_seat(game_id: str) -> None:
    """resample(seat) draws again everything `seat` may not know (the other seats' cards and
    readings): the seat's view is the same in every such redraw."""
    rng = random.Random(7)
    checked = 0
    for state in random_states(game_id, games=3, seed=31, max_steps=150):
        if state.is_terminal() or state.is_chance_node():
            continue
        if state.game.options.get("teaching"):
            continue  # Booby Trap's teaching games show every seat the tray's true stresses
        for seat in range(state.num_players()):
            view = state.view(seat)
            for _ in range(2):
                assert state.resample(seat, rng).view(seat) == view, (game_id, seat)
            checked += 1
    assert checked > 20


class _Hand(TypedDict):
    seat: int
    cards: Annotated[list[str], Private([])]
    count: int


class _ToyView(TypedDict):
    seat: int | None
    mine: Annotated[list[str], Private([])]
    drawn: Annotated[str | None, Private(None)]
    hands: Annotated[list[_Hand], PerSeat()]
    pile: int


def test_the_kernel_strips_private_fields_and_per_seat_records() -> None:
    shape = view_shape(_ToyView)
    assert set(shape.private) == {"mine", "drawn"} and set(shape.per_seat) == {"hands"}
    view = {
        "seat": 0,
        "mine": ["ace"],
        "drawn": "ace",
        "hands": [{"seat": 0, "cards": ["ace"], "count": 1}, {"seat": 1, "cards": ["king"], "count": 1}],
        "pile": 3,
    }
    # seat 0 reads its own fields and its own record only
    own = strip_private(view, shape, 0, 0)
    assert own["mine"] == ["ace"] and own["hands"][0]["cards"] == ["ace"] and own["hands"][1]["cards"] == []
    # seat 1 and a spectator read none of seat 0's fields
    for viewer in (1, None):
        other = strip_private(view, shape, 0, viewer)
        assert other["mine"] == [] and other["drawn"] is None and other["pile"] == 3
        assert [h["cards"] for h in other["hands"]] == ([[], ["king"]] if viewer == 1 else [[], []])
    assert view["mine"] == ["ace"], "the game's own dict is never changed"
    other = strip_private(view, shape, 0, 1)
    other["mine"].append("x")
    assert strip_private(view, shape, 0, 1)["mine"] == [], "each view gets its own empty value"


def test_a_view_type_is_checked_when_the_spec_is_made() -> None:
    spec = game_spec("last-mouse-lost")
    with pytest.raises(SpecError, match="view_type"):
        GameSpec(game=spec.game, state=spec.state, view_type=dict)

    class Bad(TypedDict):
        hands: Annotated[list[int], PerSeat()]

    with pytest.raises(SpecError, match="view_type"):
        GameSpec(game=spec.game, state=spec.state, view_type=Bad)
    spec_of(trapworks.make("last-mouse-lost"))  # the real spec is still bound


@pytest.mark.parametrize("game_id", GAMES)
def test_which_action_texts_a_seat_reads_is_the_games_declaration(game_id: str) -> None:
    spec = game_spec(game_id)
    assert spec.secret_action_texts is not None, "each game declares it"
    state = next(s for s in random_states(game_id, games=1, seed=5) if not s.is_terminal())
    for actor in range(state.num_players()):
        for viewer in (None, *range(state.num_players())):
            expected = not spec.secret_action_texts or viewer == actor
            assert state.action_text_visible(actor, viewer) == expected
    assert State.action_text_visible is type(state).action_text_visible, "the kernel reads it"
