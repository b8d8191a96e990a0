"""13 Dead End Drive (seed 004): the mansion (a reconstruction), the cards, the rules, the agents."""

from .board import Mansion, load_mansion
from .components import CHARACTERS, LETTERS, NAMES, TRAP_KINDS
from .game import DeadEndDriveGame, DeadEndDriveState

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
