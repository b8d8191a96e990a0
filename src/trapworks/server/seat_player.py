"""The one way an AI plays a seat on the server, whatever put it there: an agent seat chosen at
creation (a level), a seat handed to an AI, a resigned seat's stand-in, the clock's AI when time
runs out, or a hint.

The agent only ever gets the position as that seat may know it: in a game with hidden
information, a state resampled from the seat's view (`State.resample`, seeded from the game's
secret key, the purpose and the ply, so that a restart or another node of a cluster draws the
same one); otherwise a copy (nothing is hidden but chance to come, which no state holds). Its
answer must be one of the seat's legal actions in the true state (a resample keeps the seat's own
choices).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from trapworks.agents import make_agent
from trapworks.core import Agent, Game, State
from trapworks.core.agent import ReasonedAgent
from trapworks.core.randomness import derive, derived_random


class IllegalChoice(Exception):
    """The agent chose an action the seat cannot play here."""


@dataclass(eq=False)
class SeatPlayer:
    game: Game
    seat: int
    agent: Agent
    key: bytes  # the game's secret randomness key
    purpose: str  # "agent", "clock", "hint": a stream of the key of its own

    @classmethod
    def new(cls, name: str, game: Game, seat: int, key: bytes, purpose: str, *ids: Any) -> SeatPlayer:
        """Agent `name` for the seat, seeded from the key's stream for (purpose, seat or ids...)."""
        seed = derive(key, purpose, *(ids or (seat,))) >> 193  # 63 bits of that stream
        return cls(game, seat, make_agent(name, game, seat, seed=seed), key, purpose)

    @property
    def quick(self) -> bool:
        return bool(getattr(self.agent, "quick", False))

    def position(self, state: State, ply: int) -> State:
        """What the seat may know of `state` (after `ply` actions), as a state the agent may change."""
        if type(self.game).has_hidden_information:
            return state.resample(self.seat, derived_random(self.key, self.purpose, self.seat, ply))
        return state.clone()

    def _checked(self, state: State, action: int) -> int:
        if action not in state.legal_actions():
            raise IllegalChoice(f"the {self.purpose} agent for seat {self.seat + 1} chose an illegal action")
        return action

    def choose(self, state: State, ply: int) -> int:
        """The agent's action for the seat in the true `state` (seen only through the seat's view)."""
        return self._checked(state, self.agent.step(self.position(state, ply)))

    def choose_with_reason(self, state: State, ply: int) -> tuple[int, Any]:
        """The action and the agent's reason for it (a hint): a sentence, or a typed message of
        the game's catalog ({"msg", "args"})."""
        position = self.position(state, ply)
        reason: Any
        if isinstance(self.agent, ReasonedAgent):  # the move and its reason from one decision
            action, reason = self.agent.choose(position.clone())
        else:
            action = self.agent.step(position.clone())
            reason = self.agent.explain_typed(position.clone())
        return self._checked(state, action), reason
