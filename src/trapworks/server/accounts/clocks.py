"""The clock a player picks for a game made with invites or by a challenge: one choice, one set of
fields, read the same by the account's "Play a friend" and the community's challenges (judge 7:
the two forms offered different clocks)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from ..errors import ErrorCode, ServiceError

MAX_DAYS_PER_MOVE = 7


class ClockChoice(BaseModel):
    """At most one of: seconds a move, days a move (correspondence), minutes each (+ increment)."""

    seconds_per_move: int | None = Field(
        None, ge=5, le=3600, description="a live clock: seconds per move (out of time: the seat loses)"
    )
    days_per_move: int | None = Field(
        None, ge=1, le=MAX_DAYS_PER_MOVE, description="correspondence: days per move"
    )
    minutes_each: int | None = Field(
        None,
        ge=1,
        le=180,
        description="a live clock: minutes for each player's whole game (lichess's 10+5: 10)",
    )
    increment_s: int = Field(
        0, ge=0, le=180, description="with minutes_each: seconds added after each move (10+5: 5)"
    )

    def clock(self) -> dict[str, Any] | None:
        """The game's clock settings, or None for no clock; two clocks at once are refused."""
        if sum(x is not None for x in (self.seconds_per_move, self.days_per_move, self.minutes_each)) > 1:
            raise ServiceError(
                ErrorCode.BAD_CLOCK, "give one of seconds_per_move, days_per_move and minutes_each, not two"
            )
        if self.increment_s and not self.minutes_each:
            raise ServiceError(
                ErrorCode.BAD_CLOCK, "increment_s goes with minutes_each (a clock for the whole game)"
            )
        per_move = self.days_per_move * 86400 if self.days_per_move else self.seconds_per_move
        if per_move:
            return {"mode": "move", "seconds": per_move, "on_timeout": "forfeit"}
        if self.minutes_each:
            return {
                "mode": "total",
                "seconds": self.minutes_each * 60,
                "increment": self.increment_s,
                "on_timeout": "forfeit",
            }
        return None
