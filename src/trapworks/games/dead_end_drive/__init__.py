"""13 Dead End Drive (seed 004): the mansion (a reconstruction), the cards, the rules, the agents."""

from .board import Mansion, load_mansion
from .components import CHARACTERS, LETTERS, NAMES, TRAP_KINDS
from .game import DeadEndDriveGame, DeadEndDriveState
from .notation import parse_position, write_position
from .render import mansion_drawing, render_text

# The package joins its layers: notation and drawing sit above the rules and are bound here.
DeadEndDriveGame.position_parser = parse_position
DeadEndDriveState.position_writer = write_position
DeadEndDriveState.text_renderer = render_text
# What a picture of the mansion needs (rooms, furniture pieces, doorways, a legend: public, worked
# out from the grid; see render.py), added to every view.
DeadEndDriveState.mansion_drawing = mansion_drawing

__all__ = [
    "CHARACTERS",
    "LETTERS",
    "NAMES",
    "TRAP_KINDS",
    "DeadEndDriveGame",
    "DeadEndDriveState",
    "Mansion",
    "load_mansion",
]
