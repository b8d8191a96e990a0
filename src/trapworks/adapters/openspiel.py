"""Every trapworks game as an OpenSpiel Python game.

    import pyspiel
    import trapworks.adapters.openspiel  # registers the games
    game = pyspiel.load_game("trapworks_last_mouse_lost(rules=advanced,board=1;2;3,first_to=1)")

Names: trapworks_last_mouse_lost, trapworks_mouse_trap, trapworks_booby_trap,
trapworks_dead_end_drive. Game parameters are the trapworks options (docs/research.md), written
so that they survive OpenSpiel's game strings: a list is `;`-separated (`board=3;5;6`; one row:
`board=5;`), an option whose default is "the variant's value" is `variant` or -1 (yes/no for its
booleans), a mapping is `key:value;...`, and `first_player=-1` stands for "random".
Booby Trap and 13 Dead End Drive have a `seed` parameter: the tray's setup and the card deal
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

# OpenSpiel name -> (trapworks id, long name, min players, max players, information, utility).
_PERFECT = pyspiel.GameType.Information.PERFECT_INFORMATION
_IMPERFECT = pyspiel.GameType.Information.IMPERFECT_INFORMATION
_ZERO = pyspiel.GameType.Utility.ZERO_SUM
_GENERAL = pyspiel.GameType.Utility.GENERAL_SUM
_STOCHASTIC = pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
_DETERMINISTIC = pyspiel.GameType.ChanceMode.DETERMINISTIC

GAMES: dict[str, dict[str, Any]] = {
    "trapworks_last_mouse_lost": {
        "game_id": "last-mouse-lost",
        "long_name": "trapworks Last Mouse Lost",
        "players": (2, 2),
        "information": _PERFECT,
        "utility": _ZERO,
        "chance": _STOCHASTIC,  # first_player=random draws who opens
        # parameter -> its OpenSpiel default (its type fixes the parameter's type)
        "params": {
            "rules": "basic",
            "board": "3;5;6;6;5;3",
            "first_to": 3,
            "opener": "alternate",
            "first_player": 0,
        },
    },
    "trapworks_mouse_trap": {
        "game_id": "mouse-trap",
        "long_name": "trapworks Mouse Trap",
        "players": (2, 4),
        "information": _PERFECT,
        "utility": _ZERO,
        "chance": _STOCHASTIC,
        "params": {
            "players": 2,
            "variant": "milton-bradley",
            "cheese_supply": -1,  # -1: the variant's
            # "yes" or "no" ("variant": the variant's value; true/false would parse as booleans)
            "follow_destination": "variant",
            "pay_while_mouse_on_wheel": "variant",
            "pay_miss_ends_turn": "variant",
            "steal_tie": "variant",  # or choose-or-divide, choose
            "safe_protects_cheese": "variant",
            "empty_pile_source": "variant",  # or most, any
            "crank_required": "variant",
            "build_optional": "variant",
            "first_player": 0,  # a seat, or -1: drawn at random
            "trap_reliability": -1.0,  # -1: the documented odds per stage
            "trap_stage_odds": "",  # e.g. "stairs:0.9;bathtub:0.5"
            "turn_limit": 1000,
        },
    },
    "trapworks_booby_trap": {
        "game_id": "booby-trap",
        "long_name": "trapworks Booby Trap",
        "players": (1, 6),
        "information": _IMPERFECT,
        "utility": _GENERAL,
        "chance": _DETERMINISTIC,  # the physics decides; the setup comes from `seed`
        "params": {
            "players": 0,  # 0: 2, or 1 for solitaire
            "variant": "regular",
            "teaching": False,
            "tension_noise": 0.1,
            "pieces_per_size": 20,
            "first_player": 0,
            "seed": 0,
        },
    },
    "trapworks_dead_end_drive": {
        "game_id": "dead-end-drive",
        "long_name": "trapworks 13 Dead End Drive",
        "players": (2, 4),
        "information": _IMPERFECT,
        "utility": _ZERO,
        "chance": _STOCHASTIC,
        "params": {
            "players": 4,
            "first_player": -1,  # a seat 1..players, or -1: the dice roll-off
            "traps_per_kind": 3,
            "wild_cards": 4,
            "detective_cards": 10,
            "blocked_die": "forfeit",
            "after_draw": "drawn-only",
            "passage_hops": 1,
            "passage_start_hop": False,
            "turn_limit": 3000,
            "seed": 0,
        },
    },
}


def options_from_params(name: str, params: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Trapworks options (and the setup seed) from OpenSpiel parameters of game `name`."""
    spec = GAMES[name]["params"]
    options: dict[str, Any] = {}
    seed = 0
    for key, value in params.items():
        if key not in spec:
            raise ValueError(f"{name}: unknown parameter {key!r}; parameters: {', '.join(spec)}")
        if key == "seed":
            seed = int(value)
            continue
        default = spec[key]
        if isinstance(default, str) and not isinstance(value, str):
            value = str(value)
        if key == "board":
            try:
                options[key] = [int(n) for n in str(value).replace(",", ";").split(";") if n]
            except ValueError:
                raise ValueError(
                    f"{name}: board {value!r}: row lengths separated by ';', e.g. 3;5;6"
                ) from None
        elif key == "trap_stage_odds":
            if value:
                pairs = [p.split(":") for p in value.split(";") if p]
                if any(len(p) != 2 for p in pairs):
                    raise ValueError(f"{name}: trap_stage_odds {value!r}: write stage:probability;...")
                options[key] = {k: float(v) for k, v in pairs}
        elif key == "first_player" and name != "trapworks_booby_trap":
            options[key] = "random" if value == -1 else value
        elif default == "variant":
            if value != "variant":
                options[key] = {"yes": True, "no": False}.get(value.lower(), value)
        elif key in ("cheese_supply", "players") and value in (-1, 0) and default in (-1, 0):
            continue
        elif key == "trap_reliability" and value < 0:
            continue
        else:
            options[key] = value
    return options, seed


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
for _name in GAMES:
    GAME_CLASSES[_name] = _make_class(_name)
    pyspiel.register_game(_game_type(_name), GAME_CLASSES[_name])


def ismcts_resampler() -> Callable[[TrapworksState, int], TrapworksState]:
    """A resampler for ISMCTSBot (`bot._resampler_cb = ismcts_resampler()`), equivalent to the
    state's own resample_from_infostate."""
    return lambda state, player: state.resample_from_infostate(player)


__all__ = [
    "GAMES",
    "GAME_CLASSES",
    "TrapworksGame",
    "TrapworksState",
    "options_from_params",
    "ismcts_resampler",
]
