"""Game records: options, seed, starting position and the action list, as JSON.

A record replays exactly: actions are stored as text (readable, and re-validated on
replay) and every chance outcome is an action, so replay needs no random numbers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
)

from trapworks.core.words import Said, plural

from .errors import IllegalActionError, RecordError, TrapworksError
from .forfeit import Forfeit, outcome
from .game import State

FORMAT = "trapworks-record"
JS_SAFE_INT = 2**53 - 1  # the largest integer a JSON number keeps exactly in a browser
VERSION = 1


class ForfeitModel(BaseModel):
    """A seat out of the game off the board (core/forfeit.py)."""

    seat: StrictInt | None = Field(description="The seat (null: the game was aborted).")
    reason: Literal["resigned", "out_of_time", "aborted", "left"]
    ply: StrictInt = Field(description="Actions applied when it happened.")


class HandoverModel(BaseModel):
    """A seat whose player had gone, handed to an AI by another player."""

    seat: StrictInt
    agent: StrictStr = Field(description="The agent (level) that played the seat from then on.")
    ply: StrictInt = Field(description="Actions applied when it was handed over.")
    by: StrictInt | None = Field(None, description="The seat whose player handed it over.")


class SeatModel(BaseModel):
    """Who sat at a seat, typed (the pages name the seat from this, never by reading `players`)."""

    kind: Literal["human", "agent"]
    agent: StrictStr | None = Field(None, description="A computer seat's agent (its level); null: a person.")
    name: StrictStr | None = Field(None, description="The name the seat went by (an account's); null: none.")


class RecordModel(BaseModel):
    """The JSON form of a game record (validation and the published JSON Schema)."""

    model_config = ConfigDict(
        title="trapworks game record",
        extra="ignore",  # fields a later version adds are left alone
    )

    format: Literal["trapworks-record"] = Field("trapworks-record", description="Always 'trapworks-record'.")
    version: Literal[1] = Field(1, description="Format version.")
    game: StrictStr = Field(description="Game id, e.g. 'last-mouse-lost' (see `trapworks games`).")
    options: dict[str, Any] = Field(default_factory=dict, description="The game's options, name -> value.")
    seed: StrictInt | None = Field(
        None,
        description="Seed of the initial state; null when `start` is given. A seed past 2**53 "
        "is written as its decimal digits (text), which a browser keeps exactly.",
        json_schema_extra={
            "anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^[0-9]+$"}, {"type": "null"}]
        },
    )
    start: StrictStr | None = Field(None, description="Position text the game started from (null: initial).")
    players: list[str] = Field(default_factory=list, description="Who sat where (free text), seat by seat.")
    seats: list[SeatModel] = Field(
        default_factory=list,
        description="Who sat where, typed, seat by seat (a person and the name, or a computer and its "
        "agent); empty in records made before it was written.",
    )
    actions: list[StrictStr] = Field(
        default_factory=list, description="Every action as text, chance outcomes included, in order."
    )
    result: list[float] | None = Field(None, description="Returns per seat when the game ended, else null.")
    created: str = Field("", description="When the record was made (ISO 8601).")
    practice: StrictBool = Field(
        False, description="Created as a practice game: undo against AI could take back seen outcomes."
    )
    forfeits: list[ForfeitModel] = Field(
        default_factory=list,
        description="Seats that left the game off the board, in order (a resignation, a loss on time, "
        "or an abort with seat null); `result` is then the kernel's forfeit result (core/forfeit.py).",
    )
    clock: dict[str, Any] | None = Field(
        None, description="The clock the game was played with (null: none): mode, seconds, increment, rule."
    )
    clock_moves: list[StrictInt] = Field(
        default_factory=list,
        description="Plies (0-based indexes in `actions`) played by the clock's AI when a seat's "
        "time ran out.",
    )
    handed_to_ai: list[HandoverModel] = Field(
        default_factory=list,
        description="Seats handed to an AI while the game was played (who, when, to what).",
    )

    @field_validator("players", mode="before")
    @classmethod
    def _players_as_text(cls, value: Any) -> Any:
        # Seat labels are free text; numbers (e.g. seat ids) are kept as their text.
        if isinstance(value, list):
            return [v if isinstance(v, str) else str(v) for v in value]
        return value

    @field_validator("seed", mode="before")
    @classmethod
    def _seed_from_text(cls, value: Any) -> Any:
        # A large seed written as decimal text (see GameRecord.to_dict).
        if isinstance(value, str) and value.isdigit():
            return int(value)
        return value


# What each field must be, in a player's words (a RecordError names the bad field).
_FIELD_RULES = {
    "format": "not a trapworks record (format {value!r})",
    "version": f"record version {{value!r}} is not supported (expected {VERSION})",
    "game": "record 'game' must be a game id string",
    "options": "record 'options' must be an object",
    "seed": "record 'seed' must be an integer (or its decimal digits as text) or null",
    "start": "record 'start' must be a position string or null",
    "players": "record 'players' must be a list",
    "actions": "record 'actions' must be a list of action strings",
    "result": "record 'result' must be a list of numbers or null",
    "created": "record 'created' must be a string",
    "practice": "record 'practice' must be true or false",
    "forfeits": "record 'forfeits' must be a list of {{seat, reason, ply}}",
    "clock": "record 'clock' must be an object or null",
    "clock_moves": "record 'clock_moves' must be a list of plies",
    "handed_to_ai": "record 'handed_to_ai' must be a list of {{seat, agent, ply, by}}",
}


def _record_error(error: ValidationError, data: dict[str, Any]) -> RecordError:
    first = error.errors()[0]
    loc = first["loc"]
    name = str(loc[0]) if loc else ""
    if first["type"] == "missing" and name == "game":
        return RecordError("record has no 'game' (a game id string)")
    where = ".".join(str(part) for part in loc)
    rule = _FIELD_RULES.get(name, f"record field {name!r} is invalid").format(value=data.get(name))
    return RecordError(f"{rule} ({where}: {first['msg']})")


def record_json_schema() -> dict[str, Any]:
    """JSON Schema of a record file (published as docs/schema/record.schema.json)."""
    return RecordModel.model_json_schema()


@dataclass
class GameRecord:
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    start: str | None = None  # position text; None: the game's initial state
    actions: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=list)  # who sat where (free text)
    seats: list[dict[str, Any]] = field(default_factory=list)  # who sat where, typed (SeatModel)
    result: list[float] | None = None
    created: str = ""
    practice: bool = False  # created as practice: undo may cross revealed outcomes
    # Off the board (core/forfeit.py): resignations, losses on time, an abort, as dicts.
    forfeits: list[dict[str, Any]] = field(default_factory=list)
    clock: dict[str, Any] | None = None  # the clock's settings, if the game had one
    clock_moves: list[int] = field(default_factory=list)  # plies the clock's AI played
    handed_to_ai: list[dict[str, Any]] = field(default_factory=list)

    # --- building -------------------------------------------------------------
    @classmethod
    def from_state(
        cls,
        state: State,
        players: list[str] | None = None,
        practice: bool = False,
        forfeits: list[Forfeit] | None = None,
    ) -> GameRecord:
        """Record of how `state` was reached (its history replayed from its origin). With
        `forfeits`, the result is the kernel's forfeit result (core/forfeit.outcome)."""
        origin = _origin(state)
        texts = []
        for a in state.history():
            texts.append(origin.action_to_string(a))
            origin.apply_action(a)
        ended = outcome(state, forfeits or [])
        return cls(
            game=state.game.game_id,
            options=state.game.public_options(),
            seed=state.seed,
            start=state.start,
            actions=texts,
            players=list(players or []),
            result=ended.returns,
            created=datetime.now(UTC).isoformat(timespec="seconds"),
            practice=practice,
            forfeits=[f.to_dict() for f in forfeits or []],
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

    def states(self) -> Iterator[State]:
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
        data = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            # A seed past 2**53 (a server's 256-bit setup seed) as decimal text: a JavaScript
            # number would round it (the browser's replay page reads and resends records).
            "seed": str(self.seed) if self.seed is not None and abs(self.seed) > JS_SAFE_INT else self.seed,
            "start": self.start,
            "players": self.players,
            "actions": self.actions,
            "result": self.result,
            "created": self.created,
            "practice": self.practice,
        }
        # What happened off the board is written only when something did: a game played on the
        # board alone keeps the record it always had (golden records, older readers).
        off_board = {
            "forfeits": self.forfeits,
            "clock": self.clock,
            "clock_moves": self.clock_moves,
            "handed_to_ai": self.handed_to_ai,
            "seats": self.seats,  # written by the server's games (a record made elsewhere has none)
        }
        return data | {k: v for k, v in off_board.items() if v}

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        try:
            model = RecordModel.model_validate(data)
        except ValidationError as e:
            raise _record_error(e, data) from None
        return cls(
            game=model.game,
            options=model.options,
            seed=model.seed,
            start=model.start,
            actions=model.actions,
            players=model.players,
            seats=[s.model_dump() for s in model.seats],
            result=model.result,
            created=model.created,
            practice=model.practice,
            forfeits=[f.model_dump() for f in model.forfeits],
            clock=model.clock,
            clock_moves=model.clock_moves,
            handed_to_ai=[h.model_dump() for h in model.handed_to_ai],
        )

    def forfeit_list(self) -> list[Forfeit]:
        return [Forfeit.from_dict(f) for f in self.forfeits]

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

    def save_new(self, folder: str | Path, stem: str) -> Path:
        """Save to a file in `folder` that did not exist: `stem.json`, else `stem-2.json`...

        The file is created exclusively, so two saves (or two processes) never share a name.
        """
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        text = self.to_json() + "\n"
        for n in range(1, 10_000):
            path = folder / (f"{stem}.json" if n == 1 else f"{stem}-{n}.json")
            try:
                with path.open("x", encoding="utf-8") as f:
                    f.write(text)
            except FileExistsError:
                continue
            return path
        raise RecordError(f"no free record name for {stem} in {folder}")

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
        return Said("the game is over: there is no undo after the end")
    if not 0 < steps <= state.move_number():
        n = state.move_number()
        # Said: the server sends the message id with the count, the page words it (issue 37).
        return Said("only 1 action to take back") if n == 1 else Said("only {n} actions to take back", n=n)
    if against_ai and not practice and state.move_number() - steps < state.revealed_upto():
        return Said(
            "that would take back a revealed outcome (a chance outcome or a physics result); "
            "against AI undo stops there unless the game was created as practice"
        )
    return None


def undo(state: State, steps: int = 1) -> State:
    """A new state with the last `steps` actions taken back (replayed from the origin)."""
    history = state.history()
    if not 0 <= steps <= len(history):
        raise IllegalActionError("undo", f"only {len(history)} {plural(len(history), 'action')} to take back")
    new = _origin(state)
    for a in history[: len(history) - steps]:
        new.apply_action(a)
    return new
