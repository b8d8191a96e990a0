"""A room: one live game as a server process holds it, and the one path of its actions.

A `Room` owns one game (its state, log, seats, lock, connections and control document) and every
action of a seat goes into it by one public path, `play(seat, action, by=...)`: validated (the
seat's turn, a legal action, the features' say: a resigned or handed seat plays no more),
committed to the store, then fanned out (each connection its seat's view of every step, the other
nodes of a cluster told). Whoever chose the action: a human (`move`, which reads the seat's text
first), an AI seat (`advance`), the clock's AI. Every AI seat plays through a `SeatPlayer`
(server/seat_player.py): it sees only its seat's view.

What happens off the board is the features' (server/features/: clock, resign, rematch, hand-over,
undo, hint, chat, presence, names, open tables): the room calls their hooks after each step and
asks them what a seat's update and the record carry. The room knows no rule: the kernel answers
every rule question. Its host (server/service.py's GameService) holds what all rooms share: the
store, the bus, the worker pools, the features.

The room is made of its seams, one module each, stacked: base.py (the game, seats, log, control
document and the features' hooks), fanout.py (connections and fan-out), catchup.py (catch-up from
the store), pipeline.py (the move pipeline and commit, AI seats advanced).
"""

from __future__ import annotations

from .base import (
    ADVANCE_CLAIM_S,
    CONTROL_TRIES,
    INLINE_AGENT_S,
    INLINE_APPLY_S,
    MAX_FOLDED_REPLIES,
    Connection,
    ControlDoc,
    GameControl,
    H,
    Hooks,
    Host,
    RoomBase,
    Step,
)
from .catchup import RoomCatchUp
from .fanout import RoomFanout
from .pipeline import MovePipeline

__all__ = [
    "ADVANCE_CLAIM_S",
    "CONTROL_TRIES",
    "INLINE_AGENT_S",
    "INLINE_APPLY_S",
    "MAX_FOLDED_REPLIES",
    "Connection",
    "ControlDoc",
    "GameControl",
    "H",
    "Hooks",
    "Host",
    "MovePipeline",
    "Room",
    "RoomBase",
    "RoomCatchUp",
    "RoomFanout",
    "Step",
]


class Room(MovePipeline):
    """One live game: its state and seats (base), connections (fanout), catch-up (catchup) and
    the path of its actions (pipeline)."""
