"""Catch-up from the store: the room's copy brought up to what other nodes of a cluster stored
(actions, the control document, seats), or reloaded whole."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from trapworks.core import (
    State,
    TrapworksError,
)

from ..errors import ServiceError
from ..store import ControlConflict

if TYPE_CHECKING:
    pass


from .fanout import RoomFanout

log = logging.getLogger("trapworks.server")


class RoomCatchUp(RoomFanout):
    def store_control(self, what: str) -> bool:
        """Store the control document over the version read: True. False where another node of
        a cluster changed it meanwhile: the stored one (and the seats) adopted instead, for the
        caller to make its change again on it (no node's change is lost). ServiceError 503
        where the store fails (nothing was acknowledged)."""
        try:
            self.control.version = self._host.store.save_control(
                self.id, self.control.data, self.control.version
            )
            return True
        except ControlConflict:
            log.info("game %s: its control changed elsewhere (%s): reloaded", self.id, what)
            self._reload_control()
            return False
        except Exception as e:
            raise self._host.store_failed(f"{what} of game {self.id}", e) from None

    async def refresh_locked(self) -> None:
        """Before acting on the game off the board (resign, rematch, a timer): our copy and its
        control document as stored (caller holds the lock). Nothing to do on a single node."""
        if self._host.bus.clustered:
            await self.catch_up_locked(control=True)

    async def catch_up_locked(self, *, hint: dict[str, Any] | None = None, control: bool = False) -> bool:
        """Apply the actions other nodes stored since our copy's ply (from `hint`, a bus message,
        when it has them, else read from the store), reload the control document and seats if
        asked, and send our sockets every step in order. The caller holds self.lock. Whether
        anything changed."""
        first = self.ply()
        if hint is not None and hint.get("rewound"):
            await self._reload_locked()
            return True
        actions: list[tuple[int, str]]
        if hint is not None and isinstance(hint.get("ply"), int) and hint["ply"] <= first:
            actions = []  # nothing new (we read it through the store before the message came)
        elif hint is not None and hint.get("from") == first and "a" in hint:
            actions = [(int(a[0]), str(a[1])) for a in hint["a"]]
        else:
            try:
                actions = self._host.store.actions_from(self.id, first)
                if not actions and self._host.store.ply_count(self.id) < first:
                    await self._reload_locked()  # taken back elsewhere (undo)
                    return True
            except ServiceError:
                raise
            except Exception as e:
                raise self._host.store_failed(f"catch up on game {self.id}", e) from None
        steps: list[tuple[int, str, State]] = []
        state = self.state
        try:
            for seat, text in actions:
                action = state.string_to_action(text)
                after = await self._applied(state, action)
                steps.append((seat, text, after))
                state = after
        except TrapworksError as e:  # our copy and the store disagree: start again from the store
            log.error("game %s: stored actions do not follow our copy (%s): reloading it", self.id, e)
            await self._reload_locked()
            return True
        if steps:
            self._adopt_steps(steps)
            self.sent_texts = {k: v for k, v in self.sent_texts.items() if k[1] < first}
        if control:
            self._reload_control()
        self.published_ply = self.ply()
        if not steps and not control:
            return False
        self._host.catch_ups += 1
        self._host.last_activity = time.monotonic()
        if steps:
            await self._deliver(self._step_frames(first, steps))
        else:
            await self._deliver(lambda seat: self.snapshot(seat, sync=False))
        return True

    def _reload_control(self) -> None:
        try:
            found = self._host.store.load_control_version(self.id)
            seats = self._host.store.load_seats(self.id)
            joins = self._host.store.seat_joins(self.id)
        except Exception as e:
            raise self._host.store_failed(f"reload the control of game {self.id}", e) from None
        if seats is not None and seats != self.stored.seats:
            self.stored.seats = seats
            self.human_seats = None
            self.agents.clear()
        self.stored.joins = joins
        self.stored.open_seats = len(self._host.free_seats(self.stored)) if self.stored.public else 0
        if found is None:
            return
        data, self.control.version = found
        # (a document stored before a feature existed: that feature's keys as for a new game)
        plain = self._host.plain_control(len(self.stored.seats))
        self.control.before, self.control.data = self.control.data, {**plain, **data}
        for feature in self._host.features:
            feature.reloaded(self.room)

    async def _reload_locked(self) -> None:
        """Our copy replaced by the stored game (actions taken back elsewhere, or a copy that no
        longer agrees): every socket here gets the whole game again."""
        try:
            stored = self._host.store.load_game(self.id)
        except Exception as e:
            raise self._host.store_failed(f"reload game {self.id}", e) from None
        if stored is None:
            return
        fresh = self._host.rebuild(stored)
        self.stored, self.game, self.state = fresh.stored, fresh.game, fresh.state
        self.log, self.stories, self.key = fresh.log, fresh.stories, fresh.key
        self.sent_texts.clear()
        self.agents.clear()
        self.human_seats = None
        self.failed = None
        self._reload_control()
        self.published_ply = self.ply()
        self._host.catch_ups += 1
        await self._deliver(lambda seat: self.snapshot(seat, sync=True))
