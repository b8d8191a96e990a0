"""Games that end off the board: a seat resigns or loses on time, or the game is aborted.

No rulebook of ours says what a resignation means, so the kernel holds one documented default
that every game inherits and may override (`Game.forfeit_ends_game`, `Game.forfeit_returns`):

- A seat that resigns or runs out of time with the forfeit rule is *out*: it cannot win.
- When at most one seat is left in, the game ends there: the seat left wins.
- When two or more are left (Mouse Trap and 13 Dead End Drive with 3-4 players), the game goes
  on; the out seat's turns are played by a stand-in (the host's choice of agent) and at the end
  the out seat scores the lowest result, whatever its stand-in did.
- An abort ends the game with no result (no returns, no winner).

The platform (a web server, a terminal) decides who may resign and when a clock runs out; what
that does to the game's result is decided here, from the kernel's utilities alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from .game import State
from .words import Said

Reason = Literal["resigned", "out_of_time", "aborted", "left"]


class ForfeitReason(StrEnum):
    """Why a seat left the game off the board: the one list (records, the API, the front end's
    words all come from it; the catalog publishes `forfeit_reason_words()`)."""

    RESIGNED = "resigned"
    OUT_OF_TIME = "out_of_time"
    ABORTED = "aborted"
    LEFT = "left"  # gone longer than the wait, and another player claimed the game (issue 39)

    @property
    def words(self) -> str:
        """What a player reads after a seat's name ("Ann ran out of time")."""
        return _REASON_WORDS[self]


_REASON_WORDS = {
    ForfeitReason.RESIGNED: "resigned",
    ForfeitReason.OUT_OF_TIME: "ran out of time",
    ForfeitReason.ABORTED: "aborted the game",
    ForfeitReason.LEFT: "left the game",
}
REASONS: tuple[str, ...] = tuple(r.value for r in ForfeitReason)


def forfeit_reason_words() -> dict[str, str]:
    """reason -> words, for front ends (published in the game catalog)."""
    return {r.value: r.words for r in ForfeitReason}


@dataclass(frozen=True)
class Forfeit:
    """One seat leaving the game off the board (`seat` None: the game was aborted)."""

    seat: int | None
    reason: Reason
    ply: int  # actions applied when it happened

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "reason": self.reason, "ply": self.ply}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Forfeit:
        reason = data.get("reason")
        if reason not in REASONS:
            raise ValueError(f"forfeit reason {reason!r}: one of {', '.join(REASONS)}")
        seat = data.get("seat")
        if reason == "aborted":
            seat = None
        elif isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise ValueError(f"forfeit seat {seat!r}: a seat number from 0")
        return cls(seat=seat, reason=reason, ply=int(data.get("ply", 0)))


@dataclass(frozen=True)
class Outcome:
    """How a game stands given its forfeits: `ended` (over, on the board or off it), the
    `returns` per seat and the `winners` (None and [] for an abort or a game still going)."""

    ended: bool
    returns: list[float] | None
    winners: list[int]
    out: frozenset[int]
    aborted: bool = False


def winners_of(returns: Sequence[float]) -> list[int]:
    """The seats with the best result, when it is better than the worst (State.winners' rule)."""
    if not returns:
        return []
    best, worst = max(returns), min(returns)
    return [i for i, v in enumerate(returns) if v == best and v > worst]


def out_seats(forfeits: Sequence[Forfeit]) -> frozenset[int]:
    return frozenset(f.seat for f in forfeits if f.seat is not None)


def outcome(state: State, forfeits: Sequence[Forfeit]) -> Outcome:
    """The result of `state` after `forfeits` (in order), by the game's forfeit policy."""
    out = out_seats(forfeits)
    if any(f.reason == "aborted" for f in forfeits):
        return Outcome(ended=True, returns=None, winners=[], out=out, aborted=True)
    game = state.game
    if state.is_terminal():
        if not out:
            return Outcome(True, state.returns(), state.winners(), out)
        returns = game.forfeit_returns(state, out)
        return Outcome(True, returns, winners_of(returns), out)
    remaining = [s for s in range(state.num_players()) if s not in out]
    if out and game.forfeit_ends_game(remaining):
        returns = game.forfeit_returns(state, out)
        return Outcome(True, returns, winners_of(returns), out)
    return Outcome(False, None, [], out)


def abort_refusal(state: State, seat_moves: int) -> str | None:
    """Why the game may not be aborted now (None: it may): only before the second move by a
    seat (chance outcomes do not count), so that nobody aborts a game they are losing."""
    if state.is_terminal():
        return Said("the game is over")
    if seat_moves >= 2:
        return Said("a game can be aborted only before its second move (resign instead)")
    return None
