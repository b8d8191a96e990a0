"""Mouse Trap (seeds 000 and 003)."""

from .game import MouseTrapGame, MouseTrapState
from .notation import format_position, parse_position
from .render import render_text

# The package joins its layers: notation and drawing sit above the rules and are bound here.
MouseTrapGame.position_parser = parse_position
MouseTrapState.position_writer = format_position
MouseTrapState.text_renderer = render_text

__all__ = ["MouseTrapGame", "MouseTrapState", "format_position", "parse_position"]
