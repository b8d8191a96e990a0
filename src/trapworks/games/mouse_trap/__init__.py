"""Mouse Trap (seeds 000 and 003)."""

from .game import MouseTrapGame, MouseTrapState
from .notation import format_position, parse_position

__all__ = ["MouseTrapGame", "MouseTrapState", "format_position", "parse_position"]
