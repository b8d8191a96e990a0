"""One live game as a server process holds it, and one open socket: what the service and its
features (control.py, chat, presence...) share, apart from the service itself, so that a feature
names these types without importing the service (no import cycle in server/)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from trapworks.core import Game, State

from .seat_player import SeatPlayer
from .store import StoredGame


@dataclass(eq=False)
class Connection:
    """One open socket: which seat it speaks for (None: spectator) and how to send to it."""

    seat: int | None
    # Sends one frame: a message (dict), or several in order (list) that arrive together.
    send: Callable[[dict[str, Any] | list[dict[str, Any]]], Awaitable[None]]


@dataclass(eq=False)
class LiveGame:
    stored: StoredGame
    game: Game
    state: State
    log: list[tuple[int, str]]  # (seat, text) per ply, exactly the stored rows
    # Per ply, the kernel's words for it (core.story_entry: whose turn, lines, private ones marked).
    stories: list[dict[str, Any]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    agents: dict[int, SeatPlayer] = field(default_factory=dict)  # the AI seats' players
    failed: str | None = None  # an agent crashed: the reason, shown to the players
    human_seats: list[int] | None = None  # made on first use
    # (seat, ply) -> the action text as sent, for moves applied here: a repeat is answered, not applied.
    sent_texts: dict[tuple[int, int], str] = field(default_factory=dict)
    key: bytes = b""  # the secret randomness key (see game_key)
    control: Any = None  # server/control.GameControl: clock, resignations, rematch, hand-overs
    # The ply last told to the other nodes of a cluster (server/bus.py): the next message carries
    # the actions after it.
    published_ply: int = 0
    used: float = field(default_factory=time.monotonic)  # i26: last asked for (eviction.py)

    @property
    def id(self) -> str:
        return self.stored.id

    def ply(self) -> int:
        return len(self.log)
