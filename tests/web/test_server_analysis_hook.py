"""The review of a finished game asks the game (issue 23's layering, review flaws 1 and 2).

1. The server decides no rule: a move's verdict comes from the game's own `GameSpec.judge_move`
   hook (Last Mouse Lost: its exact solver), and analysis.py only copies it. A game whose judge
   says something else is shown that; a game with a solver but no judge is reviewed with its hint
   agent, never by the server reading the solver's output. A wrong hook fails when the spec is
   made, naming it.
2. One list of hint agents, in one place (server/features/hint.py): the review shows the agent a
   hint would have asked, in every game, including one that names no hint agent of its own.
"""

from __future__ import annotations

import dataclasses
import secrets
from pathlib import Path

import pytest

import trapworks
from trapworks.agents import HINT_LEVEL
from trapworks.core.record import GameRecord
from trapworks.core.registry import game_spec, register_spec, unregister
from trapworks.core.spec import GameSpec, MoveVerdict, SpecError
from trapworks.games.last_mouse_lost import SPEC as LML
from trapworks.games.last_mouse_lost.solver import judge_move, solve
from trapworks.server import analysis
from trapworks.server.features import hint
from trapworks.server.features.hint import Hint, hint_agent_name

KEY = secrets.token_bytes(32)


def played(game_id: str, seed: int, **options) -> GameRecord:
    """A finished game between random players, as its record."""
    import random

    rng = random.Random(seed)
    state = trapworks.make(game_id, **options).new_initial_state(seed=seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return GameRecord.from_state(state)


def renamed(base: GameSpec, game_id: str, **changes) -> GameSpec:
    """`base` under another id (a subclass, so the real game's class is never rebound)."""
    sub = type("Renamed", (base.game,), {"game_id": game_id, "title": game_id})
    return dataclasses.replace(base, game=sub, **changes)


@pytest.fixture
def registered():
    made: list[str] = []

    def register(spec: GameSpec) -> GameSpec:
        register_spec(spec)
        made.append(spec.game_id)
        return spec

    yield register
    for gid in made:
        unregister(gid)


def test_the_server_source_reads_no_rule_of_any_game() -> None:
    source = Path(analysis.__file__).read_text()
    for word in ("heaps", "solver(", "same round", "last-mouse-lost"):
        assert word not in source, word
    assert not hasattr(analysis, "judge") and not hasattr(analysis, "_left")


def test_each_verdict_is_the_games_own_judges(registered) -> None:
    """A judge that calls every move of player 1 winning and player 2's losing is copied as is:
    the server adds nothing of its own."""
    calls = []

    def contrary(state, action):
        calls.append((state.position(), action))
        if state.current_player() == 0:
            return MoveVerdict("win", "winning", state.action_to_string(action))
        return MoveVerdict("loss", "losing", None)

    spec = registered(renamed(LML, "contrary-mice", judge_move=contrary))
    record = played("last-mouse-lost", 3, board=[1, 2, 3], first_to=2)
    record = dataclasses.replace(record, game=spec.game_id)
    data = analysis.analyse(record, KEY)
    assert data["kind"] == "solver" and data["agent"] is None
    assert len(calls) == len(data["moves"]) > 4
    for m in data["moves"]:
        if m["seat"] == 0:
            assert (m["outcome"], m["verdict"], m["best"]) == ("win", "winning", m["move"])
        else:
            assert (m["outcome"], m["verdict"], m["best"]) == ("loss", "losing", None)


def test_a_game_with_a_solver_but_no_judge_is_reviewed_by_its_hint_agent(registered) -> None:
    spec = registered(renamed(LML, "unjudged-mice", judge_move=None))
    assert spec.solver is not None
    record = dataclasses.replace(played("last-mouse-lost", 5, board=[1, 2], first_to=1), game=spec.game_id)
    data = analysis.analyse(record, KEY)
    assert data["kind"] == "agent" and data["agent"] == "perfect"
    assert data["moves"] and all("verdict" not in m and m["choice"] for m in data["moves"])


def test_last_mouse_lost_judges_its_moves_with_its_solver() -> None:
    """The game's hook against its solver: in a won position the solver's move is winning and a
    move leaving a won position to the opponent is losing; in a lost one every move is losing;
    pressing the last mouse loses the round (seed 002: "whoever presses the last mouse loses")."""
    game = trapworks.make("last-mouse-lost", board=[1, 2, 4], first_to=2, first_player=0)
    state = game.new_initial_state(seed=0)
    sol = solve(state)
    assert sol.outcome == "win"  # nim-sum 1 ^ 2 ^ 4 = 7
    assert judge_move(state, sol.action) == MoveVerdict("win", "winning", sol.move)
    for a in state.legal_actions():
        after = state.clone()
        after.apply_action(a)
        expected = "winning" if solve(after).outcome == "loss" else "losing"
        assert judge_move(state, a) == MoveVerdict("win", expected, sol.move), state.action_to_string(a)
    lost = game.state_from_position("o/oo/ooo. 1 0-0 1")  # nim-sum 0: lost for the mover
    assert {judge_move(lost, a) for a in lost.legal_actions()} == {MoveVerdict("loss", "losing", None)}
    last = game.state_from_position("o/../.... 1 0-0 1")
    assert last.legal_actions() == [0]
    assert judge_move(last, 0) == MoveVerdict("loss", "losing", None)
    two = game.state_from_position("o/o./.... 1 0-0 1")  # press one: the opponent has the last
    assert {judge_move(two, a).verdict for a in two.legal_actions()} == {"winning"}
    finished = played("last-mouse-lost", 1, board=[1, 2], first_to=1).replay()
    assert finished.is_terminal() and judge_move(finished, 0) is None  # nothing to judge


@pytest.mark.parametrize(
    ("hook", "problem"),
    [(lambda state: None, "cannot be called with 2"), (42, "must be callable")],
    ids=["one-argument", "not-callable"],
)
def test_a_wrong_judge_fails_when_the_spec_is_made(hook, problem) -> None:
    with pytest.raises(SpecError) as err:
        renamed(LML, "wrongly-judged", judge_move=hook)
    assert err.value.hook == "judge_move" and problem in str(err.value)


def test_a_verdict_is_checked_when_it_is_made() -> None:
    with pytest.raises(ValueError, match="outcome"):
        MoveVerdict("draw", "losing")
    with pytest.raises(ValueError, match="winning"):
        MoveVerdict("win", "great")
    with pytest.raises(ValueError, match="lost position"):
        MoveVerdict("loss", "winning")


# --- one list of hint agents ----------------------------------------------------------------
def test_one_list_of_hint_agents_in_one_place() -> None:
    assert analysis.hint_agent_name is hint.hint_agent_name
    assert not hasattr(analysis, "HINT_LEVEL")
    assert HINT_LEVEL == "hard"  # a level every game offers: no agent looked up by a conventional name


@pytest.mark.parametrize("game_id", trapworks.available_games())
def test_the_review_shows_the_agent_a_hint_asks(game_id) -> None:
    game = trapworks.make(game_id)
    feature = Hint.__new__(Hint)
    feature._agents = {}
    assert feature.agent_name(game) == hint_agent_name(game) == (game_spec(game_id).hint_agent or HINT_LEVEL)


def test_a_game_naming_no_hint_agent_gets_the_hard_level_for_hints_and_review(registered) -> None:
    """Last Mouse Lost renamed without a hint agent and without a judge: both a hint and the
    review fall back to the "hard" level (its spec's levels make that its exact player: found
    through the declared levels, not by the agent's name)."""
    spec = registered(renamed(LML, "hintless-mice", hint_agent=None, judge_move=None))
    game = trapworks.make(spec.game_id)
    feature = Hint.__new__(Hint)
    feature._agents = {}
    assert feature.agent_name(game) == hint_agent_name(game) == "hard"
    record = dataclasses.replace(played("last-mouse-lost", 2, board=[1, 2], first_to=1), game=spec.game_id)
    assert analysis.analyse(record, KEY)["agent"] == "hard"


# --- chance outcomes: what was rolled and how likely it was, from the game's own declaration --
def test_each_roll_comes_with_the_chance_the_game_declared_for_it() -> None:
    """Review judge (2026-11-29): no word on the dice. Each chance outcome of the record is given
    with its probability from the game's `chance_outcomes` (the server computes no chance of its
    own): Mouse Trap's die is 1 in 6, every face as likely; 13 Dead End Drive's two dice make a
    double 1 in 36 and a mixed pair 2 in 36, and a double is as rare as the six doubles together."""
    data = analysis.analyse(played("mouse-trap", 4, players=2, turn_limit=25), KEY)
    dice = [r for r in data["rolls"] if r["outcome"].startswith("die:")]
    assert dice and all(r["outcomes"] == 6 for r in dice)
    assert all(r["probability"] == pytest.approx(1 / 6) and r["as_rare"] == pytest.approx(1) for r in dice)
    decided = {m["ply"] for m in data["moves"]}
    assert not decided & {r["ply"] for r in data["rolls"]}  # a roll is nobody's decision
    record = played("dead-end-drive", 2, players=2)
    data = analysis.analyse(record, KEY)
    state = record.initial_state()
    for ply, text in enumerate(record.actions):  # each roll as the game declared it, at its ply
        if state.is_chance_node():
            [roll] = [r for r in data["rolls"] if r["ply"] == ply]
            assert roll["outcome"] == text
            assert roll["probability"] == dict(state.chance_outcomes())[state.string_to_action(text)]
        state.apply_action(state.string_to_action(text))
    pairs = [r for r in data["rolls"] if r["outcome"].startswith("roll ")]
    doubles = [r for r in pairs if r["outcome"][5] == r["outcome"][7]]
    mixed = [r for r in pairs if r["outcome"][5] != r["outcome"][7]]
    assert doubles and mixed and all(r["outcomes"] == 21 for r in pairs)
    for r in doubles:
        assert (r["probability"], r["as_rare"]) == (pytest.approx(1 / 36), pytest.approx(6 / 36)), r
    for r in mixed:
        assert (r["probability"], r["as_rare"]) == (pytest.approx(2 / 36), pytest.approx(1)), r


def test_a_chance_node_whose_outcomes_the_game_cannot_list_gets_no_number(monkeypatch) -> None:
    """No declared probability, no number: the roll is left out rather than given a made-up chance."""
    record = played("mouse-trap", 5, players=2, turn_limit=10)
    state_type = type(record.initial_state())

    def refuse(self):
        raise RuntimeError("no outcomes")

    monkeypatch.setattr(state_type, "chance_outcomes", refuse)
    data = analysis.analyse(record, KEY)
    assert data["rolls"] == [] and data["moves"]
