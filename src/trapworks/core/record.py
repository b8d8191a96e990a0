"""Game records: options, seed, starting position and the action list, as JSON.

A record replays exactly: actions are stored as text (readable, and re-validated on
replay) and every chance outcome is an action, so replay needs no random numbers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .errors import IllegalActionError, RecordError, TrapworksError
from .game import State

FORMAT = "trapworks-record"
VERSION = 1


@dataclass
class GameRecord:
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    start: str | None = None  # position text; None: the game's initial state
    actions: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=list)  # who sat where (free text)
    result: list[float] | None = None
    created: str = ""
    practice: bool = False  # created as practice: undo may cross revealed outcomes

    # --- building -------------------------------------------------------------
    @classmethod
    def from_state(cls, state: State, players: list[str] | None = None, practice: bool = False) -> GameRecord:
        """Record of how `state` was reached (its history replayed from its origin)."""
        origin = _origin(state)
        texts = []
        for a in state.history():
            texts.append(origin.action_to_string(a))
            origin.apply_action(a)
        return cls(
            game=state.game.game_id,
            options=state.game.public_options(),
            seed=state.seed,
            start=state.start,
            actions=texts,
            players=list(players or []),
            result=state.returns() if state.is_terminal() else None,
            created=datetime.now(UTC).isoformat(timespec="seconds"),
            practice=practice,
        )

    # --- replaying --------------------------------------------------------------
    def initial_state(self) -> State:
        from .registry import make  # local: registry imports game, not record

        try:
            game = make(self.game, **self.options)
        except TrapworksError as e:
            raise RecordError(f"record cannot make its game: {e}") from None
        if self.start is not None:
            try:
                return game.state_from_position(self.start)
            except TrapworksError as e:
                raise RecordError(f"record's start position is invalid: {e}") from None
        return game.new_initial_state(seed=self.seed)

    def states(self):
        """Yield the state before the first action and after each action."""
        state = self.initial_state()
        yield state.clone()
        for i, text in enumerate(self.actions):
            try:
                state.apply_action(state.string_to_action(text))
            except IllegalActionError as e:
                raise RecordError(f"record step {i + 1} ({text!r}) does not replay: {e.reason}") from None
            yield state.clone()

    def replay(self, upto: int | None = None) -> State:
        """The state after the first `upto` actions (all of them by default)."""
        n = len(self.actions) if upto is None else upto
        if not 0 <= n <= len(self.actions):
            raise RecordError(f"record has {len(self.actions)} actions; cannot replay {n}")
        state = self.initial_state()
        for i, text in enumerate(self.actions[:n]):
            try:
                state.apply_action(state.string_to_action(text))
            except IllegalActionError as e:
                raise RecordError(f"record step {i + 1} ({text!r}) does not replay: {e.reason}") from None
        return state

    # --- JSON -------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "start": self.start,
            "players": self.players,
            "actions": self.actions,
            "result": self.result,
            "created": self.created,
            "practice": self.practice,
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        if data.get("format", FORMAT) != FORMAT:
            raise RecordError(f"not a trapworks record (format {data.get('format')!r})")
        if data.get("version", VERSION) != VERSION:
            raise RecordError(f"record version {data.get('version')!r} is not supported (expected {VERSION})")
        if not isinstance(data.get("game"), str):
            raise RecordError("record has no 'game' (a game id string)")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("record 'options' must be an object")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise RecordError("record 'seed' must be an integer or null")
        start = data.get("start")
        if start is not None and not isinstance(start, str):
            raise RecordError("record 'start' must be a position string or null")
        actions = data.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("record 'actions' must be a list of action strings")
        players = data.get("players", [])
        if not isinstance(players, list):
            raise RecordError("record 'players' must be a list")
        practice = data.get("practice", False)
        if not isinstance(practice, bool):
            raise RecordError("record 'practice' must be true or false")
        return cls(
            game=data["game"],
            options=options,
            seed=seed,
            start=start,
            actions=list(actions),
            players=[str(p) for p in players],
            result=data.get("result"),
            created=str(data.get("created", "")),
            practice=practice,
        )

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"record is not valid JSON: {e}") from None
        return cls.from_dict(data)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_json() + "\n")
        return path

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        try:
            text = Path(path).read_text()
        except OSError as e:
            raise RecordError(f"cannot read record {path}: {e.strerror}") from None
        return cls.from_json(text)


def _origin(state: State) -> State:
    if state.start is not None:
        return state.game.state_from_position(state.start)
    return state.game.new_initial_state(seed=state.seed)


def undo_refusal(state: State, steps: int, *, against_ai: bool, practice: bool) -> str | None:
    """Why taking back the last `steps` actions is not allowed (None: it is). The one undo policy
    of the terminal and the web server:

    - never after the end of the game;
    - against an AI, never across a revealed outcome (a chance outcome such as a die, or a physics
      result such as a removal's settle), so nobody re-rolls or re-tries a removal against the
      AI, unless the game was created as practice (marked so in its record and on its page).
      Chance outcomes are fixed per ply as well (core.randomness.chance_outcome), so even a
      practice undo replays the same dice when the same moves are made again.
    """
    if state.is_terminal():
        return "the game is over: there is no undo after the end"
    if not 0 < steps <= state.move_number():
        return f"only {state.move_number()} action(s) to take back"
    if against_ai and not practice and state.move_number() - steps < state.revealed_upto():
        return (
            "that would take back a revealed outcome (a chance outcome or a physics result); "
            "against AI undo stops there unless the game was created as practice"
        )
    return None


def undo(state: State, steps: int = 1) -> State:
    """A new state with the last `steps` actions taken back (replayed from the origin)."""
    history = state.history()
    if not 0 <= steps <= len(history):
        raise IllegalActionError("undo", f"only {len(history)} action(s) to take back")
    new = _origin(state)
    for a in history[: len(history) - steps]:
        new.apply_action(a)
    return new
