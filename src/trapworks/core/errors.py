"""Errors raised by the kernel and the games.

Every error says what was wrong in words a player can act on; none of them leaves a
state half-changed (the kernel validates before it mutates).
"""

from typing import Any


class TrapworksError(Exception):
    """Base class of every error trapworks raises on purpose."""


class UnknownGameError(TrapworksError, KeyError):
    def __init__(self, game_id: str, known: list[str]):
        self.game_id = game_id
        self.known = known
        super().__init__(f"unknown game {game_id!r}; available games: {', '.join(known)}")

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return str(self.args[0])


class OptionError(TrapworksError, ValueError):
    """A game option that does not exist or has a value the game cannot use."""


class IllegalActionError(TrapworksError, ValueError):
    """An action that is malformed, or well formed but not legal in this state."""

    def __init__(self, action: Any, reason: str):
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {action!r}: {reason}")


class PositionError(TrapworksError, ValueError):
    """A position text that cannot be read or describes an impossible position."""

    def __init__(self, position: str, reason: str):
        self.position = position
        self.reason = reason
        super().__init__(f"bad position {position!r}: {reason}")


class RecordError(TrapworksError, ValueError):
    """A game record that cannot be read or does not replay."""
