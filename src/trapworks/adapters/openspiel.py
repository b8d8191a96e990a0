"""Every trapworks game as an OpenSpiel Python game.

    import pyspiel
    import trapworks.adapters.openspiel  # registers the games
    game = pyspiel.load_game("trapworks_last_mouse_lost(rules=advanced,board=1;2;3,first_to=1)")

Names: trapworks_<game id in snake_case> for every registered game (trapworks_last_mouse_lost,
trapworks_mouse_trap, trapworks_booby_trap, trapworks_dead_end_drive). Game parameters are the
trapworks options (docs/research.md), derived from each game's option schema (adapters/params.py)
and written so that they survive OpenSpiel's game strings: a list is `;`-separated
(`board=3;5;6`; one row: `board=5;`), an option whose default is "the variant's value" is
`variant` or -1 (yes/no for its booleans), a mapping is `key:value;...`, and `first_player=-1`
stands for "random". Games whose setup comes from a seed (spec.seeded_setup: Booby Trap and
13 Dead End Drive) have a `seed` parameter: the tray's setup and the card deal
come from it (they are not chance nodes in the kernel), so one loaded game always starts from
the same deal; load the game with another seed for another deal.

Chance outcomes are numbered from 0 in their own space: OpenSpiel's outcome i is the kernel's
action `game.chance_actions()[i]` (trapworks.core.game.Game.chance_outcome_action). Player
actions are the kernel's ids unchanged. A game whose rules have chance under some option is
registered as explicitly stochastic (Last Mouse Lost: `first_player=random`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

import trapworks
from trapworks.core.game import CHANCE, Game, State
from trapworks.core.registry import game_spec, game_specs
from trapworks.core.spec import GameSpec

from .params import openspiel_name, parameter_specification, player_range
from .params import options_from_params as _options_from_params

_PERFECT = pyspiel.GameType.Information.PERFECT_INFORMATION
_IMPERFECT = pyspiel.GameType.Information.IMPERFECT_INFORMATION
_ZERO = pyspiel.GameType.Utility.ZERO_SUM
_GENERAL = pyspiel.GameType.Utility.GENERAL_SUM
_STOCHASTIC = pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
_DETERMINISTIC = pyspiel.GameType.ChanceMode.DETERMINISTIC

# OpenSpiel name -> the game's facts, derived from its spec and option schema (adapters/params.py)
# when the game is registered here; nothing is declared twice.
GAMES: dict[str, dict[str, Any]] = {}


def game_facts(spec: GameSpec) -> dict[str, Any]:
    """The registered facts of a game: id, long name, seats, information, utility, chance, params."""
    default = spec.game()
    return {
        "game_id": spec.game_id,
        "long_name": f"trapworks {spec.title}",
        "players": player_range(spec),
        "information": _IMPERFECT if spec.game.has_hidden_information else _PERFECT,
        "utility": _ZERO if default.utility_sum() == 0.0 else _GENERAL,
        # Stochastic where some option brings chance (Last Mouse Lost: first_player=random).
        "chance": _STOCHASTIC if spec.game.has_chance else _DETERMINISTIC,
        # parameter -> its OpenSpiel default (its type fixes the parameter's type)
        "params": parameter_specification(spec),
    }


def options_from_params(name: str, params: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Trapworks options (and the setup seed) from OpenSpiel parameters of game `name`."""
    return _options_from_params(name, params)


def _game_type(name: str, chance_mode: pyspiel.GameType.ChanceMode | None = None) -> pyspiel.GameType:
    info = GAMES[name]
    return pyspiel.GameType(
        short_name=name,
        long_name=info["long_name"],
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=info["chance"] if chance_mode is None else chance_mode,
        information=info["information"],
        utility=info["utility"],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info["players"][1],
        min_num_players=info["players"][0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(info["params"]),
    )


class TrapworksGame(pyspiel.Game):
    """One trapworks game with its options, as a pyspiel game."""

    short_name = ""

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        options, self.seed = options_from_params(self.short_name, params)
        self.tw_game: Game = trapworks.make(GAMES[self.short_name]["game_id"], **options)
        g = self.tw_game
        length = g.max_game_length()
        if length is None:
            raise ValueError(f"{self.short_name}: OpenSpiel needs a bounded game; give turn_limit a number")
        utility_sum = g.utility_sum()
        # Registered as stochastic when some option brings chance; a loaded game whose options
        # bring none (Last Mouse Lost with a fixed first player) says it is deterministic, so
        # that algorithms for deterministic games (alpha-beta) accept it.
        chance_mode = _STOCHASTIC if g.max_chance_outcomes() > 0 else _DETERMINISTIC
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_distinct_actions(),
            max_chance_outcomes=g.max_chance_outcomes(),
            num_players=g.num_players(),
            min_utility=g.min_utility(),
            max_utility=g.max_utility(),
            utility_sum=utility_sum,
            max_game_length=length,
        )
        super().__init__(_game_type(self.short_name, chance_mode), info, params)

    def new_initial_state(self) -> TrapworksState:
        return TrapworksState(self, self.tw_game.new_initial_state(seed=self.seed))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> TrapworksObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return TrapworksObserver(self.tw_game, perfect_recall)


class TrapworksState(pyspiel.State):
    """A pyspiel state around a kernel state (`.tw`); chance outcomes renumbered from 0."""

    def __init__(self, game: TrapworksGame, tw_state: State):
        super().__init__(game)
        self.tw = tw_state
        self.tw_game = game.tw_game

    def current_player(self) -> int:
        return self.tw.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.tw.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        index = self.tw_game.chance_outcome_index
        return sorted((index(a), p) for a, p in self.tw.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        action = int(action)
        if self.tw.is_chance_node():
            action = self.tw_game.chance_outcome_action(action)
        self.tw.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        action = int(action)
        try:
            if player == CHANCE:
                return "chance " + self.tw.action_to_string(self.tw_game.chance_outcome_action(action))
            return self.tw.action_to_string(action, player)
        except Exception:  # an action not meaningful in this state (OpenSpiel may ask anyway)
            return f"{'chance ' if player == CHANCE else ''}action {action}"

    def is_terminal(self) -> bool:
        return self.tw.is_terminal()

    def returns(self) -> list[float]:
        return [float(r) for r in self.tw.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> TrapworksState:
        """A state `player_id` cannot tell from this one (the kernel's resample: only the seat's
        view is kept, every hidden part re-drawn). ISMCTSBot calls this."""
        rng = random.Random(int(np.random.randint(2**31)))
        new = self.clone()
        new.tw = self.tw.resample(player_id, rng)
        return new

    def __str__(self) -> str:
        return self.tw.position()


class TrapworksObserver:
    """OpenSpiel's PyObserver: the kernel's encodings of `view(player)`."""

    def __init__(self, game: Game, perfect_recall: bool):
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.encoder().observation_size(), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TrapworksState, player: int) -> None:
        tw = state.tw
        values = tw.information_state_tensor(player) if self.perfect_recall else tw.observation_tensor(player)
        self.tensor[:] = values

    def string_from(self, state: TrapworksState, player: int) -> str:
        tw = state.tw
        return tw.information_state_string(player) if self.perfect_recall else tw.observation_string(player)


def _make_class(name: str) -> type[TrapworksGame]:
    return type(f"Game_{name}", (TrapworksGame,), {"short_name": name})


GAME_CLASSES: dict[str, type[TrapworksGame]] = {}


def register(spec: GameSpec | str) -> str:
    """Register one trapworks game with OpenSpiel (once); returns its OpenSpiel name. The games
    registered when this module is imported are all of trapworks' registry; a game registered
    later (a test's example game) is added by calling this."""
    spec = game_spec(spec) if isinstance(spec, str) else spec
    name = openspiel_name(spec)
    if name not in GAME_CLASSES:
        GAMES[name] = game_facts(spec)
        GAME_CLASSES[name] = _make_class(name)
        pyspiel.register_game(_game_type(name), GAME_CLASSES[name])
    return name


for _spec in game_specs():
    register(_spec)


def ismcts_resampler() -> Callable[[TrapworksState, int], TrapworksState]:
    """A resampler for ISMCTSBot (`bot._resampler_cb = ismcts_resampler()`), equivalent to the
    state's own resample_from_infostate."""
    return lambda state, player: state.resample_from_infostate(player)


__all__ = [
    "GAMES",
    "GAME_CLASSES",
    "game_facts",
    "register",
    "TrapworksGame",
    "TrapworksState",
    "options_from_params",
    "ismcts_resampler",
]
