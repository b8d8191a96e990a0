"""Pig, the example game of docs/adding-a-game.md: one folder, declared once in SPEC.

Nothing outside this folder names it: the tests register it (conftest.py) the way an installed
package would through its `trapworks.games` entry point, and then it plays in the terminal, the
browser (the generic renderer), `simulate`, OpenSpiel, PettingZoo and Gymnasium.
"""

from pathlib import Path

from trapworks.core.spec import AgentSpec, GameSpec, Notation

from .agents import HoldAtAgent, game_stats
from .encoding import PigEncoder
from .game import PigGame, PigState
from .notation import parse_position, render_text, write_position

SPEC = GameSpec(
    game=PigGame,
    state=PigState,
    # Its events' words: i18n/en.po and fr.po (message ids, plurals, "you" variants).
    messages=Path(__file__).parent / "i18n",
    notation=Notation(parse=parse_position, write=write_position),
    render_text=render_text,
    encoder=PigEncoder,
    agents=(AgentSpec("hold-at", HoldAtAgent, "Banks its points at 8 a turn"),),
    levels={"easy": "hold-at"},
    hint_agent="hold-at",
    stats=game_stats,
    quick_options={"target": 10, "turn_limit": 30},
    howto=(
        "Click roll to throw the die: its points add up, but a 1 loses them and ends your turn.",
        "Click hold to bank the turn's points. The first to the target wins.",
    ),
)

__all__ = ["SPEC", "PigGame", "PigState"]
