"""Hidden information as chance nodes, for the OpenSpiel tree.

The kernel draws what only some seats may know from a state's seeded generators (13 Dead End
Drive's deal of Character cards, the 2-player secret cards and the trap pile's order; Booby Trap's
tray and touch noise), so that records replay from a seed. An algorithm that walks the game tree
(CFR, exploitability, best response) must instead see every hidden draw as a chance node, or
every information set holds one state. A chance layer adds those nodes around a kernel state.

Each game declares its layer in its spec (`GameSpec.chance_layer`: a class with `num_outcomes`,
`takes_position` and `for_state(tw)`, whose instances follow `ChanceLayer`'s protocol below):
games/dead_end_drive/chance_layer.py (the deal, the secret cards and every draw from the trap
pile) and games/booby_trap/chance_layer.py (the tray, its exact placement below the eye's
resolution, and every touch's noise). This module names no game.

Outcomes of a layer are numbered from 0 in the layer's own space; the OpenSpiel adapter puts
them after the kernel's chance outcomes.
"""

from __future__ import annotations

from typing import Any

from trapworks.core.game import State
from trapworks.core.registry import game_spec
from trapworks.core.spec import GameSpec, spec_of


class ChanceLayer:
    """No hidden chance: the kernel's own chance nodes only."""

    num_outcomes = 0

    def pending(self) -> bool:
        """True while the layer's chance node comes before the kernel's next node."""
        return False

    def outcomes(self, tw: State) -> list[tuple[int, float]]:
        return []

    def apply(self, tw: State, outcome: int) -> None:
        raise ValueError(f"chance outcome {outcome} is not one of this layer's")

    def intercept(self, tw: State, action: int) -> bool:
        """Called before a player action: True when the layer takes it over (it applies it to the
        kernel itself once its chance nodes are resolved)."""
        return False

    def after(self, tw: State, action: int, player: int) -> None:
        """Called after the kernel applied `action` of `player`."""

    def outcome_string(self, outcome: int) -> str:
        return f"hidden chance {outcome}"

    def visible_to(self, tw: State) -> int:
        """Who sees the outcome of the pending node: -1 everybody, -2 nobody, or one seat."""
        return -1

    def copy(self) -> ChanceLayer:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ChanceLayer:
        return self.copy()


def _layer_class(game: Any) -> Any:
    """The spec's chance layer of a game (a game id, a spec, a game, a game class or a state)."""
    if isinstance(game, str):
        spec: GameSpec | None = game_spec(game)
    elif isinstance(game, GameSpec):
        spec = game
    else:
        spec = spec_of(game)
    return getattr(spec, "chance_layer", None) if spec is not None else None


def layer_for(tw: State) -> Any:
    """The hidden-chance layer of a kernel state's game (ChanceLayer(): none)."""
    cls = _layer_class(tw.game)
    return ChanceLayer() if cls is None else cls.for_state(tw)


def takes_position(game: Any) -> bool:
    """Whether the game's layer deals the unknown cards of a start position (OpenSpiel `position`)."""
    cls = _layer_class(game)
    return bool(cls is not None and cls.takes_position)


def layer_outcomes(game: Any) -> int:
    """How many outcomes the game's layer has (OpenSpiel's max_chance_outcomes adds them)."""
    cls = _layer_class(game)
    return int(cls.num_outcomes) if cls is not None else 0


__all__ = ["ChanceLayer", "layer_for", "layer_outcomes", "takes_position"]
