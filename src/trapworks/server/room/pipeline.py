"""The move pipeline and commit: every action of a seat into the game by one path (`play`):
validated, applied, chance's and quick agents' replies folded in, stored, then fanned out; AI
seats advanced."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from trapworks.core import (
    CHANCE,
    IllegalActionError,
    State,
    TrapworksError,
)
from trapworks.core.randomness import chance_outcome

from ..errors import STORE_RETRY_S, ErrorCode, ServiceError
from ..seat_player import SeatPlayer
from ..store import PlyTaken

if TYPE_CHECKING:
    pass


from .base import ADVANCE_CLAIM_S, INLINE_AGENT_S, MAX_FOLDED_REPLIES, Connection, Step
from .catchup import RoomCatchUp

log = logging.getLogger("trapworks.server")


class MovePipeline(RoomCatchUp):
    async def move(
        self,
        seat: int | None,
        text: str,
        expected_ply: int,
        *,
        reply_to: Connection | None = None,
        ref: Any = None,
    ) -> dict[str, Any]:
        """A human seat's move, `text` in the game's notation at move count `expected_ply` (both
        already checked by the request's pydantic model, server/messages.py): read, then played by
        `play`. Returns {"ply": the new ply count, "repeat": whether this was a repeat of an applied
        move, answered and not applied again}.

        The action is committed to the store before this returns (and before anyone is told).
        With `reply_to`, that connection's acknowledgement ({"type": "ack", "ref", "ply"}) goes in
        the same frame as its updates.
        """
        if seat is None:
            raise ServiceError(ErrorCode.SPECTATOR, "spectators cannot move")
        shown = text.strip()
        async with self.lock:
            if self._host.bus.clustered and expected_ply > self.ply():
                await self.catch_up_locked(control=True)  # the player saw moves made elsewhere
            if self.state.is_terminal():
                raise ServiceError(ErrorCode.GAME_OVER, "the game is over")
            repeat = self._repeat_of(seat, expected_ply, text)
            if repeat is not None:
                # The same move again (a resend after a lost answer): the earlier result, not applied again.
                if reply_to is not None:
                    await reply_to.send({"type": "ack", "ref": ref, "ply": repeat, "repeat": True})
                return {"ply": repeat, "repeat": True}
            self.check_may_play(seat, "human")
            if expected_ply != self.ply():
                raise ServiceError(
                    ErrorCode.STALE,
                    "your move was for move number {expected_ply}, but the game is at {game_ply}"
                    " (someone moved first); the board is refreshed",
                    expected_ply=expected_ply,
                    game_ply=self.ply(),
                )
            self._check_turn(seat)
            try:
                action = self.state.string_to_action(text)
            except IllegalActionError as e:
                raise ServiceError(
                    ErrorCode.ILLEGAL_MOVE,
                    "illegal move {shown}: {reason}",
                    shown=repr(shown),
                    reason=e.reason,
                ) from None
            except TrapworksError as e:
                raise ServiceError(
                    ErrorCode.ILLEGAL_MOVE, "illegal move {shown}: {e}", shown=repr(shown), e=e
                ) from None
            first = self.ply()
            ack = {"type": "ack", "ref": ref, "ply": first + 1}
            await self.play(seat, action, by="human", reply_to=reply_to, reply=ack, shown=shown)
            self.sent_texts[(seat, first)] = shown
        self.schedule_advance()
        return {"ply": first + 1, "repeat": False}

    async def play(
        self,
        seat: int,
        action: int,
        *,
        by: str,
        reply_to: Connection | None = None,
        reply: dict[str, Any] | None = None,
        shown: str | None = None,
    ) -> list[Step]:
        """The one path of a seat's action into the game, whoever chose it (`by`: "human",
        "agent", "clock"): validated (the game on, the seat's turn, the features' say, a legal
        action: the kernel's), applied, followed by chance's and quick agents' replies, committed
        to the store, then fanned out: every socket here gets its seat's view of every step
        (`reply_to` its `reply` in the same frame) and the other nodes of a cluster are told. The
        caller holds self.lock. The steps (seat, text, state after) stored."""
        self.check_may_play(seat, by)
        self._check_turn(seat)
        state = self.state
        first = self.ply()
        try:
            after = await self._applied(state, action)
        except IllegalActionError as e:
            what = shown or str(action)
            raise ServiceError(
                ErrorCode.ILLEGAL_MOVE, "illegal move {what}: {reason}", what=repr(what), reason=e.reason
            ) from None
        except TrapworksError as e:
            raise ServiceError(
                ErrorCode.ILLEGAL_MOVE, "illegal move {action}: {e}", action=repr(shown or action), e=e
            ) from None
        steps = [(seat, state.action_to_string(action), after)]
        self._fast_replies(steps)
        try:
            await self._commit(steps)
        except ServiceError as e:
            log.info("game %s: %s action at ply %d not stored: %s", self.id, by, first, e.code)
            raise
        await self._send_steps(first, steps, reply_to, reply or {})
        return steps

    def _repeat_of(self, seat: int, ply: int, text: str) -> int | None:
        """The result of this seat's move at `ply` if it is already applied with this text."""
        if ply >= self.ply():
            return None
        stored_seat, stored_text = self.log[ply]
        if stored_seat != seat:
            return None
        shown = text.strip()
        if shown in (stored_text, self.sent_texts.get((seat, ply))):
            return ply + 1
        return None

    def _fast_replies(self, steps: list[tuple[int, str, State]]) -> None:
        """Append the moves of chance and of fast agents that follow steps[-1], while they are fast.

        Against a quick agent the reply then shares the human move's lock and commit: one
        transaction and no extra task per move, which is most of the server's work under load.
        A slow agent (a search) is left to advance(), which thinks in a thread.
        """
        state = steps[-1][2]
        if self._apply_is_slow():
            return  # replies whose physics take time are played by advance(), off the event loop
        while len(steps) < MAX_FOLDED_REPLIES and not state.is_terminal():
            player = state.current_player()
            try:
                if player == CHANCE:
                    action = chance_outcome(state, self.key)
                elif self.stored.seats[player]["kind"] == "agent" and self._agent_is_fast(player):
                    action = self._think(player, state)
                else:
                    return
                after = state.clone()
                text = after.action_to_string(action)
                after.apply_action(action)
            except Exception:  # advance() plays this seat again and reports a failure to the players
                return
            steps.append((player, text, after))
            state = after

    async def _commit(self, steps: list[tuple[int, str, State]]) -> None:
        """Store the steps' actions (seat, text, state after), then make the last state the game's.
        The caller holds self.lock."""
        actions = [(seat, text) for seat, text, _ in steps]
        self._host.last_activity = time.monotonic()
        stored = self._host.store.append_actions_soon(self.id, self.ply(), actions)

        def adopt(done: asyncio.Future) -> None:
            # Runs once the commit is done even if the caller is cancelled meanwhile (a server
            # shutting down): what is stored is always what the game holds.
            if not done.cancelled() and done.exception() is None:
                self._adopt_steps(steps)

        stored.add_done_callback(adopt)
        try:
            await asyncio.shield(stored)
        except PlyTaken:
            # Another server process (a node of the cluster) stored this ply first: our copy was
            # stale. Catch up from the store (the players here see the moves they missed), then
            # refuse this one as stale: it was for a position that is gone.
            try:
                await self.catch_up_locked(control=True)
            except Exception as e:
                log.error("game %s: cannot catch up after a lost ply race: %s", self.id, e)
                self._host.live.pop(self.id, None)  # reloaded from the store on the next request
            self.schedule_advance()
            raise ServiceError(
                ErrorCode.STALE, "another move was stored first; the board is refreshed"
            ) from None
        except Exception as e:  # the store failed: nothing stored, nothing applied, nothing acked
            raise self._host.store_failed(f"store game {self.id} ply {self.ply()}", e) from None

    def schedule_advance(self) -> None:
        if self.needs_server():
            self._host.spawn(self.advance())

    def _recheck_later(self, after_s: float) -> None:
        ply = self.ply()

        def again() -> None:
            if self._host.live.get(self.id) is self and self.ply() == ply:
                self.schedule_advance()

        asyncio.get_running_loop().call_later(after_s + 0.1, again)

    def needs_server(self) -> bool:
        state = self.state
        if state.is_terminal() or self.failed or self.ended():
            return False
        p = state.current_player()
        return p == CHANCE or (p >= 0 and self.stored.seats[p]["kind"] == "agent")

    def _agent(self, seat: int) -> SeatPlayer:
        """The seat's player (server/seat_player.py: it sees only the seat's view), made once."""
        player = self.agents.get(seat)
        if player is None:
            name = self.stored.seats[seat]["agent"]
            player = SeatPlayer.new(name, self.game, seat, self.key, "agent")
            self.agents[seat] = player
        return player

    def _agent_is_fast(self, seat: int) -> bool:
        typical = self._host.agent_time.get((self.stored.game, self.stored.seats[seat]["agent"]))
        if typical is None:  # not timed yet: trust the agent's own word (a fresh server's first replies)
            return self._agent(seat).quick
        return typical < INLINE_AGENT_S

    def _think(self, seat: int, state: State) -> int:
        """The seat's agent's action in `state` (after `self.ply()` or the folded steps' plies; the
        agent sees only the seat's view of it), timing the thinking alone (a thread hand-off waits
        for the busy event loop; counting that wait would keep a fast agent in the thread pool for
        good)."""
        player = self._agent(seat)
        key = (self.stored.game, self.stored.seats[seat]["agent"])
        started = time.perf_counter()
        try:
            return player.choose(state, len(state.history()))
        finally:
            took = time.perf_counter() - started
            typical = self._host.agent_time.get(key)
            # A moving average: a long think (a search) sends the agent to a thread for dozens of
            # steps (its instant forced moves do not bring it back at once), while one step slowed
            # by the machine does not move an agent that takes microseconds.
            self._host.agent_time[key] = took if typical is None else 0.9 * typical + 0.1 * took

    async def _agent_step(self, seat: int, state: State) -> int:
        """Ask the seat's agent for its action. A slow agent (search) thinks in a worker thread so the
        server keeps answering everyone else; an agent that has been fast (under INLINE_AGENT_S per
        step) runs inline, saving the thread hand-off that would cost more than its thinking."""
        if self._agent_is_fast(seat):
            return self._think(seat, state)
        return await asyncio.to_thread(self._think, seat, state.clone())

    async def advance(self) -> None:
        """Play chance and agent seats until a human is to move or the game ends."""
        retries = 0
        while True:
            async with self.lock:
                if self.id not in self._host.live or not self.needs_server():
                    return
                if self._host.bus.clustered:
                    # Once in the cluster: the node whose claim on this ply the store takes plays it;
                    # the others look again when the claim lapses (its node may have died).
                    await self.catch_up_locked()
                    if not self.needs_server():
                        return
                    if not self._host.claim_timer(self.room, "advance", self.ply(), ADVANCE_CLAIM_S):
                        self._recheck_later(ADVANCE_CLAIM_S)
                        return
                state = self.state
                player = state.current_player()
                failed_write = False
                try:
                    if player == CHANCE:
                        # Fixed by the secret key and the ply: a restart or an undo draws the same outcome.
                        action = chance_outcome(state, self.key)
                    else:
                        action = await self._agent_step(player, state)  # from the seat's view only
                    await self.play(player, action, by="chance" if player == CHANCE else "agent")
                except ServiceError as e:
                    if e.status == 503:
                        failed_write = True
                    elif e.code == "illegal_move":
                        await self._could_not_play(player, e)
                        return
                    else:
                        return  # another node stored this ply first (we caught up) or the game ended
                except Exception as e:  # an agent bug must not kill the server; the players are told
                    await self._could_not_play(player, str(e))
                    return
            if failed_write:
                # The store failed: the move is not lost, it is played again once the store works
                # (the same chance outcome and, agents being seeded, the same move).
                retries += 1
                await asyncio.sleep(STORE_RETRY_S[min(retries, len(STORE_RETRY_S)) - 1])
            else:
                retries = 0

    async def _could_not_play(self, player: int, why: ServiceError | str) -> None:
        # Typed (issue 37): the page words it in the viewer's language, the seat by its name.
        who = {"seat": player, "label": self.seat_label(player)} if player >= 0 else {"msg": "chance"}
        self.failed = ServiceError(
            ErrorCode.AGENT_FAILED, "the server could not play {who}: {why}", who=who, why=why
        )
        await self.broadcast()
