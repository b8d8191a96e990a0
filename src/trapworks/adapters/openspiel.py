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
stands for "random". Games whose setup comes from a seed (spec.seeded_setup: Booby Trap and 13 Dead
End Drive) have a `seed` parameter. `seed=-1` (the default) makes every hidden draw a chance node of
the tree (trapworks.adapters._chance: 13 Dead End Drive's deal, secret cards and trap-pile draws;
Booby Trap's tray, its exact placement below the eye's resolution and touch noise), so that an
information set holds every state its seat cannot tell apart; `seed=n` reproduces the kernel's
seeded deal n instead (no hidden chance: one deal). 13 Dead End Drive also takes `position` (its
notation) to start from a position, the cards its public facts leave unknown dealt by chance.

Observers follow `pyspiel.IIGObservationType` (TrapworksObserver): public, one seat's private
information or every seat's; perfect recall for the information state. Games pickle and copy.

Chance outcomes are numbered from 0 in their own space: OpenSpiel's outcome i is the kernel's
action `game.chance_actions()[i]` (trapworks.core.game.Game.chance_outcome_action). Player
actions are the kernel's ids unchanged. A game whose rules have chance under some option is
registered as explicitly stochastic (Last Mouse Lost: `first_player=random`).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

import trapworks
from trapworks.core.game import CHANCE, Game, State
from trapworks.core.registry import game_spec, game_specs
from trapworks.core.spec import GameSpec

from ._chance import ChanceLayer, layer_for, layer_outcomes, takes_position
from .params import openspiel_name, parameter_specification, player_range
from .params import options_from_params as _options_from_params

# OpenSpiel name -> (trapworks id, long name, min players, max players, information, utility).
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
        # (and where the adapter's hidden-chance layer adds chance nodes: Booby Trap's touch noise)
        "chance": _STOCHASTIC if spec.game.has_chance or layer_outcomes(spec.game_id) else _DETERMINISTIC,
        # parameter -> its OpenSpiel default (its type fixes the parameter's type)
        "params": adapter_parameters(spec),
    }


# Parameters of the adapter, not options of the game.
ADAPTER_PARAMS = ("seed", "position")


def adapter_parameters(spec: GameSpec) -> dict[str, Any]:
    """The game's parameters (adapters/params.py) with the adapter's: `seed` -1 by default
    (hidden information as chance), and `position` where the chance layer deals from one."""
    params = parameter_specification(spec)
    if "seed" in params:
        params["seed"] = -1
    if takes_position(spec.game_id):
        params["position"] = ""
    return params


def options_from_params(name: str, params: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Trapworks options (and the setup seed: -1 for hidden information as chance) from OpenSpiel
    parameters of game `name`; `position` is the adapter's (TrapworksGame), not an option."""
    if "position" in params and not takes_position(GAMES[name]["game_id"]):
        known = ", ".join(GAMES[name]["params"])
        raise ValueError(f"{name}: unknown parameter 'position'; parameters: {known}")
    options = {k: v for k, v in params.items() if k != "position"}
    found, seed = _options_from_params(name, options)
    if "seed" not in params and "seed" in GAMES[name]["params"]:
        seed = -1  # the default: hidden information as chance
    if seed < -1:
        raise ValueError(f"{name}: seed {seed}: -1 (hidden information as chance) or a seed >= 0")
    return found, seed


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
    """One trapworks game with its options, as a pyspiel game.

    `seed=-1` (the default of Booby Trap and 13 Dead End Drive) puts every hidden draw in the tree
    as a chance node (trapworks.adapters._chance); `seed=n` replays the kernel's deal `n` instead
    (no hidden chance: one deal, every information set one state). 13 Dead End Drive also takes
    `position`: a position in its notation to start from, its unknown cards dealt by chance.
    Games pickle and deep-copy as their name and parameters (like `pyspiel.load_game`).
    """

    short_name = ""

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        options, self.seed = options_from_params(self.short_name, params)
        # OpenSpiel's game strings split parameters at ',' and a parameter at '=': the game keeps
        # a position with ';' for ',' and '~' for '=' (both spellings are read), so that
        # load_game(str(game)) gives the same game.
        self.position = str(params.get("position", "") or "").replace(";", ",").replace("~", "=")
        if self.position:
            params["position"] = self.position.replace(",", ";").replace("=", "~")
        self.tw_game: Game = trapworks.make(GAMES[self.short_name]["game_id"], **options)
        g = self.tw_game
        length = g.max_game_length()
        if length is None:
            raise ValueError(f"{self.short_name}: OpenSpiel needs a bounded game; give turn_limit a number")
        if self.position:
            g.state_from_position(self.position)  # a bad position is named now, not at the first state
        # Hidden information as chance (seed -1): the layer's outcomes come after the kernel's.
        # A game whose own chance model already holds every hidden draw (13 Dead End Drive's
        # deal=chance: `hidden_chance_in_kernel`) needs no layer: its kernel chance nodes are the
        # tree's, each marked with who sees it (`chance_visible_to`).
        self.kernel_hidden = bool(getattr(g, "hidden_chance_in_kernel", False))
        self.hidden_chance = self.seed < 0 and layer_outcomes(g.game_id) > 0 and not self.kernel_hidden
        # Some chance outcome is hidden from some seat: resampling replays them, the perfect-recall
        # strings keep what the observer saw of them.
        self.any_hidden = self.hidden_chance or self.kernel_hidden
        self.kernel_outcomes = g.max_chance_outcomes()
        chance_outcomes = self.kernel_outcomes + (layer_outcomes(g.game_id) if self.hidden_chance else 0)
        if self.hidden_chance:
            # Each layer node: a deal (at most 12), one per draw (a Detective card draws again,
            # at most once per track step) or one per touch (Booby Trap's noise).
            length = 2 * length + 26
        self.kernel_length = g.max_game_length()
        utility_sum = g.utility_sum()
        # Registered as stochastic when some option brings chance; a loaded game whose options
        # bring none (Last Mouse Lost with a fixed first player) says it is deterministic, so
        # that algorithms for deterministic games (alpha-beta) accept it.
        chance_mode = _STOCHASTIC if chance_outcomes > 0 else _DETERMINISTIC
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_distinct_actions(),
            max_chance_outcomes=chance_outcomes,
            num_players=g.num_players(),
            min_utility=g.min_utility(),
            max_utility=g.max_utility(),
            utility_sum=utility_sum,
            max_game_length=length,
        )
        self.history_length = length
        self.action_ids = g.num_distinct_actions() + chance_outcomes
        super().__init__(_game_type(self.short_name, chance_mode), info, params)

    def new_initial_state(self) -> TrapworksState:
        # Made once, then cloned: OpenSpiel's C++ algorithms (best response, exploitability) make
        # a Python game's initial state for every state they copy.
        proto = self.__dict__.get("_initial")
        if proto is None:
            g = self.tw_game
            if self.position:
                tw = g.state_from_position(self.position)
            else:
                tw = g.new_initial_state(seed=max(self.seed, 0))
            layer = layer_for(tw) if self.hidden_chance else ChanceLayer()
            proto = self._initial = (tw, layer)
        return TrapworksState(self, None, None)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> TrapworksObserver:
        window = None
        for key, value in (params or {}).items():
            if key != "history_window":
                raise ValueError(f"unknown observation parameter {key!r}; the one known is history_window")
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"history_window {value!r}: a whole number of actions, at least 1")
            window = value
        return TrapworksObserver(self, iig_obs_type, history_window=window)

    # --- pickling and copying: a game is its name and parameters -------------------------
    def __reduce__(self) -> tuple[Any, ...]:
        return (_load_game, (self.short_name, dict(self.get_parameters())))

    def __deepcopy__(self, memo: dict[int, Any]) -> TrapworksGame:
        # A game is immutable (its rules and parameters): a copy is the game itself, as for a
        # tuple; states copied by OpenSpiel share it.
        return self

    def __copy__(self) -> TrapworksGame:
        return self


def _load_game(name: str, params: dict[str, Any]) -> TrapworksGame:
    """A game by name and parameters (what a pickled game is rebuilt with)."""
    return GAME_CLASSES[name](params)


# Who may see a history entry: PUBLIC, NOBODY, or the one seat it was shown to.
PUBLIC, NOBODY = -1, -2


class TrapworksState(pyspiel.State):
    """A pyspiel state around a kernel state (`.tw`); chance outcomes renumbered from 0.

    `layer` holds the hidden-information chance nodes (trapworks.adapters._chance); `seen` says,
    for every entry of the history, who saw it (PUBLIC, NOBODY or a seat), which the observers'
    perfect-recall tensors are made from.
    """

    def __init__(self, game: TrapworksGame, tw_state: State | None, layer: ChanceLayer | None = None):
        super().__init__(game)
        # None: the game's initial state, copied when first used (OpenSpiel clones a Python state
        # by making an initial state and replacing its attributes with copies of the original's).
        self._tw = tw_state
        self._layer = layer
        self.tw_game = game.tw_game
        self.os_game = game
        self.seen: list[int] = []

    @property
    def tw(self) -> State:
        """The kernel state."""
        tw = self._tw
        if tw is None:
            self._tw = tw = self.os_game._initial[0].clone()
        return tw

    @tw.setter
    def tw(self, value: State) -> None:
        self._tw = value

    @property
    def layer(self) -> ChanceLayer:
        """The hidden-information chance nodes around the kernel state."""
        layer = self._layer
        if layer is None:
            self._layer = layer = copy.deepcopy(self.os_game._initial[1])
        return layer

    def current_player(self) -> int:
        if self.layer.pending():
            return CHANCE
        return self.tw.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.tw.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.layer.pending():
            base = self.os_game.kernel_outcomes
            return [(base + o, p) for o, p in self.layer.outcomes(self.tw)]
        index = self.tw_game.chance_outcome_index
        return sorted((index(a), p) for a, p in self.tw.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        action = int(action)
        layer = self.layer
        if layer.pending():
            who = layer.visible_to(self.tw)
            layer.apply(self.tw, action - self.os_game.kernel_outcomes)
            self.seen.append(who)
            return
        if self.tw.is_chance_node():
            # Who sees a kernel chance outcome: everybody, unless the kernel's own chance model
            # holds hidden draws (13 Dead End Drive's deal=chance: `chance_visible_to`).
            visible = getattr(self.tw, "chance_visible_to", None)
            who = PUBLIC if visible is None else visible()
            self.tw.apply_action(self.tw_game.chance_outcome_action(action))
            self.seen.append(who)
            return
        player = self.tw.current_player()
        self.seen.append(PUBLIC)
        if layer.intercept(self.tw, action):
            return
        self.tw.apply_action(action)
        layer.after(self.tw, action, player)

    def _action_to_string(self, player: int, action: int) -> str:
        action = int(action)
        try:
            if player == CHANCE:
                base = self.os_game.kernel_outcomes
                if action >= base:
                    return "chance " + self.layer.outcome_string(action - base)
                return "chance " + self.tw.action_to_string(self.tw_game.chance_outcome_action(action))
            return self.tw.action_to_string(action, player)
        except Exception:  # an action not meaningful in this state (OpenSpiel may ask anyway)
            return f"{'chance ' if player == CHANCE else ''}action {action}"

    def is_terminal(self) -> bool:
        return not self.layer.pending() and self.tw.is_terminal()

    def returns(self) -> list[float]:
        return [float(r) for r in self.tw.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> TrapworksState:
        """A state of `player_id`'s information set, drawn with `probability_sampler` (a callable
        giving floats in [0, 1), such as `pyspiel.UniformProbabilitySampler`; ISMCTSBot passes
        one). See `resample` for the method."""
        if probability_sampler is None:
            probability_sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        return resample(self, player_id, probability_sampler)

    def __str__(self) -> str:
        if self.layer.pending():
            return "chance (hidden) " + " ".join(map(str, self.history()))
        return self.tw.position()


def resample(state: TrapworksState, player: int, sampler: Callable[[], float]) -> TrapworksState:
    """A state drawn from `player`'s information set at `state`, with chance's probabilities.

    Without hidden chance every information set is one state: a clone. With it, the history is
    replayed from the start, each hidden chance outcome that `player` did not see drawn anew by
    its probability (`sampler()` picks it), every other action kept; a replay where a kept action
    becomes illegal or that ends in another information state is thrown away and tried again.
    Accepted replays are drawn in proportion to the chance probabilities of their hidden
    outcomes, which is the information set's distribution given chance alone (what OpenSpiel's
    own games resample). After 500 failed replays the kernel's own resample (the seat's view
    kept, hidden parts redrawn; trapworks.core.game.State.resample) is used instead.
    """
    if not state.os_game.any_hidden:
        return state.clone()
    target = state.information_state_string(player)
    history = state.history()
    game = state.os_game
    for _ in range(500):
        new = game.new_initial_state()
        ok = True
        for action, who in zip(history, state.seen, strict=True):
            if new.is_chance_node() and who != PUBLIC and who != player:
                outcomes = new.chance_outcomes()
                u = sampler()
                acc = 0.0
                action = outcomes[-1][0]
                for a, p in outcomes:
                    acc += p
                    if u < acc:
                        action = a
                        break
            elif new.is_chance_node():
                if action not in dict(new.chance_outcomes()):
                    ok = False
                    break
            elif new.is_terminal() or action not in new.legal_actions():
                ok = False
                break
            new.apply_action(action)
        if ok and new.information_state_string(player) == target:
            return new
    fallback = state.clone()
    fallback.tw = state.tw.resample(player, random.Random(int(sampler() * 2**62)))
    return fallback


class TrapworksObserver:
    """OpenSpiel's PyObserver for one `IIGObservationType`, from the kernel's views.

    - private info `SINGLE_PLAYER` (the default): the seat's own view (`state.view(seat)`);
      `NONE`: the public view (a spectator's, `state.view(None)`): no seat's secrets, the
      observing seat's included; `ALL_PLAYERS`: every seat's view, one after the other.
    - `perfect_recall`: the strings are the information state (the public action history, the
      hidden chance outcomes the observer saw, in order, and the view); the tensor adds
      "history": the actions the observer saw, in order, each as (id + 1) / (ids + 1) (OpenSpiel's
      ids: player actions, then chance outcomes), 0 after the last; the outcomes it did not see
      (another seat's card, a secret deal) are left out, their number too (forced outcomes are
      not nodes, so how many there are can depend on what is hidden). Two histories the observer
      can tell apart never share a tensor.
    - `history_window=k` (an observation parameter, `make_observation(game, type, {"history_window":
      k})`): a bounded information state for learning. The tensor's "history" is then the last k
      actions the observer saw (the same rule of what it sees as above), each one-hot over
      OpenSpiel's ids, oldest first, empty slots all 0, whatever the game's length: its size is
      the view's plus k x (ids) (docs/research.md, "A bounded information state"). The string
      ends with the same k actions. Not perfect recall: two histories that share their last k
      seen actions and their view share it.
    - `public_info=False` is refused: every trapworks observation includes the public state.
    """

    def __init__(
        self,
        game: TrapworksGame,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        history_window: int | None = None,
    ):
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if not iig_obs_type.public_info:
            raise ValueError(
                "trapworks observers always include the public information: use public_info=True "
                "(with private_info NONE for the public part alone)"
            )
        self.game = game.tw_game
        self.os_game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info
        enc = self.game.encoder()
        size = enc.observation_size()
        n = self.game.num_players()
        views = n if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS else 1
        self.window = history_window
        if history_window is not None:
            history = history_window * game.action_ids
        else:
            history = game.history_length if self.perfect_recall else 0
        self.tensor = np.zeros(views * size + history, np.float32)
        self.dict: dict[str, np.ndarray] = {"observation": self.tensor[: views * size]}
        if history:
            self.dict["history"] = self.tensor[views * size :]
        self.size = size

    def _seats(self, player: int) -> list[int | None]:
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return list(range(self.game.num_players()))
        if self.private == pyspiel.PrivateInfoType.NONE:
            return [None]
        return [player]

    def _sees(self, player: int, who: int) -> bool:
        if who == PUBLIC:
            return True
        if who == NOBODY:
            return False
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return True
        return self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER and who == player

    def set_from(self, state: TrapworksState, player: int) -> None:
        tw = state.tw
        enc = self.game.encoder()
        fast = getattr(enc, "state_tensor", None)  # the view's tensor, vectorised (_common)
        for i, seat in enumerate(self._seats(player)):
            if fast is not None and seat is not None:
                self.tensor[i * self.size : (i + 1) * self.size] = fast(tw, seat)
            else:
                self.tensor[i * self.size : (i + 1) * self.size] = enc.observation_tensor(tw.view(seat))
        if self.window is not None:
            hist = self.dict["history"]
            hist[:] = 0.0
            ids = self.os_game.action_ids
            last = self._seen(state, player)[-self.window :]
            hist[np.arange(len(last)) * ids + np.asarray(last, dtype=np.int64)] = 1.0
        elif self.perfect_recall:
            hist = self.dict["history"]
            hist[:] = 0.0
            ids = self.os_game.action_ids
            seen = self._seen(state, player)[: len(hist)]
            hist[: len(seen)] = (np.asarray(seen, dtype=np.float32) + 1.0) / (ids + 1.0)

    def _seen(self, state: TrapworksState, player: int) -> list[int]:
        """The actions and chance outcomes the observer saw, in order (OpenSpiel's ids)."""
        return [a for a, w in zip(state.history(), state.seen, strict=True) if self._sees(player, w)]

    def string_from(self, state: TrapworksState, player: int) -> str:
        tw = state.tw
        enc = self.game.encoder()
        parts = []
        for seat in self._seats(player):
            view = tw.view(seat)
            if self.perfect_recall:
                parts.append(enc.information_state_string(view, tw.public_history()))
            else:
                parts.append(enc.observation_string(view))
        text = "\n".join(parts)
        if self.perfect_recall and state.os_game.any_hidden:
            # What the observer saw of the hidden chance (its own cards as dealt, its draws): the
            # view shows where those cards are now; this keeps the order in which they came.
            seen = [
                str(a)
                for a, w in zip(state.history(), state.seen, strict=True)
                if w != PUBLIC and self._sees(player, w)
            ]
            text = "seen " + " ".join(seen) + "\n" + text
        if self.window is not None:
            last = self._seen(state, player)[-self.window :]
            text += "\nlast " + " ".join(str(a) for a in last)
        return text


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


def ismcts_resampler(seed: int = 0) -> Callable[[TrapworksState, int], TrapworksState]:
    """A seeded resampler for ISMCTSBot (`bot.set_resampler(ismcts_resampler(seed))`): the state's
    own resample_from_infostate drawing from `pyspiel.UniformProbabilitySampler(seed, 0, 1)`, so
    that a seeded bot plays the same game twice (ISMCTSBot's own call passes an unseeded one)."""
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    return lambda state, player: state.resample_from_infostate(player, sampler)


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
