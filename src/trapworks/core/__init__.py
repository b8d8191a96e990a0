"""trapworks.core: the game kernel. It knows what a game is, never which games exist."""

from .agent import Agent, ReasonedAgent, play_game
from .errors import (
    IllegalActionError,
    OptionError,
    PositionError,
    RecordError,
    TrapworksError,
    UnknownGameError,
)
from .forfeit import Forfeit, Outcome, abort_refusal, outcome, winners_of
from .game import (
    CHANCE,
    TERMINAL,
    Game,
    State,
    apply_sequence,
    check_seat,
    checked_events,
    explore_cells,
    game_statistics,
    legal_action_strings,
    sample_chance,
    story_entry,
    story_for,
)
from .options import Option
from .record import GameRecord, record_json_schema, undo, undo_refusal
from .registry import available_games, game_class, make, register_game
from .views import PerSeat, Private

__all__ = [
    "PerSeat",
    "Private",
    "Agent",
    "Forfeit",
    "Outcome",
    "abort_refusal",
    "outcome",
    "winners_of",
    "ReasonedAgent",
    "play_game",
    "IllegalActionError",
    "OptionError",
    "PositionError",
    "RecordError",
    "TrapworksError",
    "UnknownGameError",
    "CHANCE",
    "TERMINAL",
    "Game",
    "Option",
    "State",
    "undo_refusal",
    "apply_sequence",
    "check_seat",
    "explore_cells",
    "game_statistics",
    "legal_action_strings",
    "sample_chance",
    "checked_events",
    "story_entry",
    "story_for",
    "GameRecord",
    "record_json_schema",
    "undo",
    "available_games",
    "game_class",
    "make",
    "register_game",
]
