"""The game spec (core/spec.py): each game declares itself once, with real objects, checked when
the spec is made; games are found through the `trapworks.games` entry-point group."""

from __future__ import annotations

import dataclasses
import typing
from importlib.metadata import entry_points
from pathlib import Path

import pytest

import trapworks
from trapworks.agents import agent_words, available_agents, make_agent
from trapworks.core.forfeit import REASONS, ForfeitReason, Reason, forfeit_reason_words
from trapworks.core.record import ForfeitModel
from trapworks.core.registry import GROUP, game_spec, register_spec, unregister
from trapworks.core.spec import AgentSpec, GameSpec, Notation, SpecError, spec_of

RENDERERS = Path(trapworks.__file__).parent / "web" / "static" / "renderers"
SPECS = [game_spec(g) for g in trapworks.available_games()]


def test_every_built_in_game_is_an_entry_point_naming_its_packages_spec() -> None:
    eps = {ep.name: ep for ep in entry_points(group=GROUP)}
    assert {"mouse-trap", "booby-trap", "last-mouse-lost", "dead-end-drive"} <= set(eps)
    for name, ep in eps.items():
        spec = ep.load()
        assert isinstance(spec, GameSpec) and spec.game_id == name
        assert game_spec(name) is spec
        assert spec_of(trapworks.make(name)) is spec  # the kernel finds it from a game


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.game_id)
def test_each_spec_holds_real_objects_and_its_renderer_exists(spec: GameSpec) -> None:
    spec.validate()
    assert (RENDERERS / spec.renderer).is_file()
    # The how-to steps are optional: a game without them shows its rules page alone.
    assert all(isinstance(step, str) and step for step in spec.howto)
    game = spec.game(**spec.quick_options)
    state = game.new_initial_state(seed=1)
    assert isinstance(state, spec.state)
    if spec.notation is not None:
        assert spec.notation.write(spec.notation.parse(game, state.position())) == state.position()
    if spec.encoder is not None:  # no encoder declared: no research adapters (they refuse it)
        assert game.encoder().observation_size() > 0
    for a in spec.agents:
        agent = make_agent(a.name, game, 0, seed=1)
        assert agent is not None
        assert (a.name in available_agents(game)) is (not a.analysis)
    words = agent_words(game)
    assert set(words) <= set(available_agents(game)) and "random" in words


def _toy() -> GameSpec:
    return game_spec("last-mouse-lost")


@pytest.mark.parametrize(
    ("change", "hook"),
    [
        ({"notation": Notation(parse=lambda text: None, write=lambda s: "")}, "notation.parse"),
        ({"notation": "ooo/ooo"}, "notation"),
        ({"render_text": 42}, "render_text"),
        ({"encoder": dict}, "encoder"),
        ({"agents": (AgentSpec("x", lambda game, seat, seed=None: None, ""),)}, "agents['x'].words"),
        ({"agents": (AgentSpec("x", lambda: None, "X"),)}, "agents['x'].factory"),
        ({"levels": {"hard": "nobody"}}, "levels['hard']"),
        ({"levels": {"expert": {}}}, "levels['expert']"),
        ({"hint_agent": "oracle"}, "hint_agent"),
        ({"stats": lambda state: {}}, "stats"),
        ({"explore_grid": "module:attr"}, "explore_grid"),
        ({"renderer": "../secrets.js"}, "renderer"),
        ({"vector_env": "a vector env"}, "vector_env"),
        ({"quick_options": {"bored": 1}}, "quick_options"),
        ({"state": object}, "state"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_a_missing_or_wrong_hook_fails_when_the_spec_is_made_naming_it(change: dict, hook: str) -> None:
    base = _toy()
    fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(GameSpec)}
    fields.update(change)
    # A subclass, so that a spec made here never rebinds the real game's class.
    fields["game"] = type("Copy", (base.game,), {})
    with pytest.raises(SpecError) as err:
        GameSpec(**fields)
    assert err.value.hook == hook
    assert repr(hook) in str(err.value)


def test_a_game_registered_in_code_is_found_by_the_one_lookup() -> None:
    base = _toy()
    sub = type("Renamed", (base.game,), {"game_id": "renamed-mice", "title": "Renamed Mice"})
    spec = dataclasses.replace(base, game=sub)
    register_spec(spec)
    try:
        assert "renamed-mice" in trapworks.available_games()
        assert trapworks.make("renamed-mice").game_id == "renamed-mice"
        assert spec_of(sub) is spec and spec_of(base.game) is base
    finally:
        unregister("renamed-mice")
    assert "renamed-mice" not in trapworks.available_games()


def test_forfeit_reasons_are_one_enum_that_records_and_the_catalog_use() -> None:
    assert tuple(typing.get_args(Reason)) == REASONS == tuple(r.value for r in ForfeitReason)
    literal = ForfeitModel.model_fields["reason"].annotation
    assert tuple(typing.get_args(literal)) == REASONS
    assert set(forfeit_reason_words()) == set(REASONS)
