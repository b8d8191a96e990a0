"""Booby Trap (seed 001) with a pymunk model of the tray and the spring bar."""

from .game import BoobyTrapGame, BoobyTrapState
from .render import render_text

# The package joins its layers: drawing sits above the rules and is bound here.
BoobyTrapState.text_renderer = render_text

__all__ = ["BoobyTrapGame", "BoobyTrapState"]
