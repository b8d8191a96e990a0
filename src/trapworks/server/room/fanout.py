"""The room's connections and fan-out: what each seat is sent (snapshots, the game's info), one
frame per connection per change, and the other nodes of a cluster told."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from trapworks.core import (
    State,
    checked_events,
)
from trapworks.core.spec import dynamic_view, static_view

from ..catalog import renderer_url
from ..outbox import SocketDropped

if TYPE_CHECKING:
    pass


from .base import MAX_FOLDED_REPLIES, Connection, RoomBase

log = logging.getLogger("trapworks.server")


class RoomFanout(RoomBase):
    def snapshot(
        self,
        viewer: int | None,
        *,
        sync: bool,
        state: State | None = None,
        ply: int | None = None,
    ) -> dict[str, Any]:
        """What `viewer` is sent of the game: now, or of an earlier `state` after `ply` actions."""
        state = self.state if state is None else state
        ply = self.ply() if ply is None else ply
        player = state.current_player()
        terminal = state.is_terminal()
        last = None
        if ply:
            s, t = self.log[ply - 1]
            last = {
                "ply": ply - 1,
                "seat": s,
                "text": self._visible_text(viewer, s, t, state),
                "story": self._story(ply - 1, viewer),
            }
        msg: dict[str, Any] = {
            "type": "state",
            "id": self.id,
            "game": self.stored.game,
            "seat": viewer,
            "ply": ply,
            # An update leaves out the view's static part (sent once in the game's info).
            "view": state.view(viewer) if sync else dynamic_view(state, viewer),
            "events": checked_events(state, viewer),
            "last_action": last,
            "to_move": player if player >= 0 else None,
            "terminal": terminal,
            "returns": state.returns() if terminal else None,
            "winners": state.winners() if terminal else None,
            "truncated": state.is_truncated() if terminal else False,
            # Why the game stopped (the server could not play a seat): English, and typed for the page.
            "error": self.failed.message if self.failed else None,
            "error_msg": self.failed.typed if self.failed else None,
            "sync": sync,
        }
        # What the features add (can_undo, can_hint; now only: the clock, the ending, the controls).
        for feature in self._host.features:
            for k, v in feature.update(self.room, viewer, state).items():
                if k == "controls" and isinstance(msg.get("controls"), dict):
                    msg["controls"] = {**msg["controls"], **v}
                else:
                    msg[k] = v
        if sync:
            msg["log"] = self.log_for(viewer)
        return msg

    def game_info(self, viewer: int | None) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.stored.game,
            "title": type(self.game).title or self.stored.game,
            "options": self.stored.options,
            "seat": viewer,
            "renderer": renderer_url(self.stored.game),
            "static_view": static_view(self.game),  # the views' unchanging part (core/spec.py)
            "help": self.game.help_text(),
            "has_hidden_information": type(self.game).has_hidden_information,
            "created": self.stored.created,
            # The creator chose the seed or start position (it may know the secrets).
            "chosen_setup": self.stored.chosen_setup,
            # The features' part: players (names), hints, practice (undo), public (tables),
            # spectator_chat (chat), clock, hand_over_after, rematch_of.
            **{k: v for f in self._host.features for k, v in f.info(self.room).items()},
            # The features' page parts (js/features.js imports each): the front end lists none.
            "features": [f"/static/{f.script}" for f in self._host.features if f.script],
        }

    async def tell_everyone(self) -> None:
        """Every connection gets the game now (a change off the board: a seat became handable, a
        clock started), in order with the moves' updates, never between them."""
        async with self.lock:
            await self.broadcast()

    async def broadcast(self, *, sync: bool = False, rewound: bool = False) -> None:
        """Send every connection of the game its seat's view of the game now (and tell the other
        nodes of a cluster that it changed; `rewound`: actions were taken back)."""
        self.after_step()
        await self._deliver(lambda seat: self.snapshot(seat, sync=sync))
        self.publish_state(control=True, rewound=rewound)

    async def _deliver(
        self,
        frame_for: Callable[[int | None], Any],
        reply_to: Connection | None = None,
        reply: dict[str, Any] | None = None,
    ) -> None:
        """Send each connection one frame, `frame_for(its seat)` (made once per seat); `reply_to`
        also gets `reply` in the same frame."""
        cache: dict[int | None, Any] = {}
        for conn in list(self.connections):
            if conn.seat not in cache:
                cache[conn.seat] = frame_for(conn.seat)
            frame = cache[conn.seat]
            if conn is reply_to:
                frame = (frame if isinstance(frame, list) else [frame]) + [reply]
            try:
                # Only queued here (the socket's own writer sends it): no network I/O under the lock.
                await conn.send(frame[0] if isinstance(frame, list) and len(frame) == 1 else frame)
            except Exception:  # a closed or dropped socket: others still get theirs
                self.connections.discard(conn)
        if reply_to is not None and reply_to not in self.connections:
            try:  # a socket of a game object since reloaded: the reply still goes
                await reply_to.send(reply)  # type: ignore[arg-type]
            except SocketDropped:
                pass

    async def _send_steps(
        self,
        first: int,
        steps: list[tuple[int, str, State]],
        reply_to: Connection | None,
        reply: dict[str, Any],
    ) -> None:
        """Each connection gets one frame: the update after each step, in order (plus the reply
        for `reply_to`). One frame instead of one per step: under load the server's time per
        frame sent is a large share of a move's."""
        version = self.control.version
        self.after_step()
        await self._deliver(self._step_frames(first, steps), reply_to, reply)
        # The other nodes reread the control document only where a feature stored it (a clock).
        self.publish_state(control=self.control.version != version)

    def _step_frames(
        self, first: int, steps: list[tuple[int, str, State]]
    ) -> Callable[[int | None], list[dict[str, Any]]]:
        return lambda seat: [
            self.snapshot(seat, sync=False, state=after, ply=first + i + 1)
            for i, (_seat, _text, after) in enumerate(steps)
        ]

    def publish_state(self, *, control: bool, rewound: bool = False) -> None:
        """Tell the other nodes that the game changed: its ply now and the actions since the last
        message (the database has them all; these save a read), whether its control document or
        seats changed, and whether actions were taken back."""
        if not self._host.bus.clustered:
            return
        first = self.published_ply
        msg: dict[str, Any] = {"k": "state", "g": self.id, "ply": self.ply(), "from": first}
        if control:
            msg["c"] = 1
        if rewound or first > self.ply():
            msg["rewound"] = 1
        elif self.ply() - first <= MAX_FOLDED_REPLIES:
            msg["a"] = self.log[first:]
        self.published_ply = self.ply()
        self._host.bus.publish(msg)

    def publish(self, kind: str, **fields: Any) -> None:
        """Tell the other nodes something else about the game (seats, chat, presence)."""
        if self._host.bus.clustered:
            self._host.bus.publish({"k": kind, "g": self.id, **fields})
