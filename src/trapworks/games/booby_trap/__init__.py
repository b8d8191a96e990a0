"""Booby Trap (seed 001) with a pymunk model of the tray and the spring bar."""

from .game import BoobyTrapGame, BoobyTrapState

__all__ = ["BoobyTrapGame", "BoobyTrapState"]
