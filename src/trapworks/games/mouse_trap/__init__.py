"""Mouse Trap (seeds 000 and 003)."""

from pathlib import Path
from typing import Any

from trapworks.core.spec import AgentSpec, GameSpec, Notation

from .agents import DoubleCatchAgent, HeuristicAgent
from .encoding import MouseTrapEncoder
from .game import MouseTrapGame, MouseTrapState
from .notation import format_position, parse_position
from .render import render_text
from .stats import explore_grid, game_stats
from .views import MouseTrapView

# The parts of every view that never change during a game: the track, the contraption's parts and
# its firing chain with this game's odds (sent once with the game's info, not with every update).
STATIC_VIEW_KEYS = ("track", "parts", "part_ids", "firing_chain")


def static_view(game: MouseTrapGame) -> dict[str, Any]:
    view = game.new_initial_state(seed=0).view(None)
    return {k: view[k] for k in STATIC_VIEW_KEYS}


SPEC = GameSpec(
    game=MouseTrapGame,
    state=MouseTrapState,
    view_type=MouseTrapView,  # the seat's dynamic view, typed; private fields marked (views.py)
    # Every action text is public: no hidden information.
    secret_action_texts=False,
    notation=Notation(parse=parse_position, write=format_position),
    render_text=render_text,
    encoder=MouseTrapEncoder,
    agents=(
        AgentSpec("heuristic", HeuristicAgent, "Rule-of-thumb player"),
        AgentSpec("double-catch", DoubleCatchAgent, "Trap-first player"),
    ),
    # hard: the heuristic with its one clear mistake fixed. Precise rollouts with common random
    # numbers (bench/mouse_trap_decisions.py; docs/mouse-trap.md, "The agents") found the
    # heuristic's move best at every 2-player decision, and one systematic loss with 3-4
    # players: cranking at once where a second mouse could first be paid onto the Cheese Wheel.
    # The generic MCTS (49.1% against the heuristic over 800 games) and the rollout agent
    # (noise of the same size as these gains within 0.8 s) cannot resolve it within a move's
    # time; double-catch plays it at once.
    levels={"hard": "double-catch"},
    hint_agent="hard",
    stats=game_stats,  # columns of simulation rows
    explore_grid=explore_grid,  # `trapworks explore` default cells
    renderer="mouse-trap.js",
    static_view=static_view,
    vector_env="trapworks.games.mouse_trap.vector_env:MouseTrapVectorEnv",
    quick_options={"turn_limit": 12},
    messages=Path(__file__).parent / "i18n",  # the catalog of its events\' messages
    howto=(
        "On your turn click Roll the die: your mouse moves by the die and the space it lands on happens "
        "by itself (take cheese, build a part of the trap, go back...).",
        "On Turn Crank with the trap built you choose with a button: crank the trap to catch a rival on "
        "the Cheese Wheel, pay cheese to move a rival there, or end your turn.",
        "Watch the trap fire stage by stage. The last mouse left free wins.",
    ),
)

__all__ = ["SPEC", "MouseTrapGame", "MouseTrapState", "format_position", "parse_position"]
