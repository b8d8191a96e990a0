"""Booby Trap's position notation: the parser of the position text (like chess's FEN) that
sets up any position for tests, puzzles and bug reports. The rules (game.py) never import it;
the spec declares it (`Notation`) and the kernel reads it (`Game.state_from_position`). The
writer stays with the rules (game.py's `write_position`): a seat's view carries the position as
that seat sees it (lengths by eye).
"""

from __future__ import annotations

import re

from trapworks.core import PositionError
from trapworks.core.words import plural

from . import physics
from .game import (
    MAX_REST_OVERLAP,
    PENALTY,
    POSITION_HELP,
    POSITION_SLACK,
    BoobyTrapGame,
    BoobyTrapState,
    feel_word,
)
from .physics import SIZE_NAMES, SIZES, Packing, Piece


def _float(text: str, where: str, whole: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise PositionError(whole, f"{where}: {text!r} is not a number") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise PositionError(whole, f"{where}: {text!r} is not a finite number")
    return value


def _int(text: str, where: str, whole: str, low: int = 0, high: int | None = None) -> int:
    if not re.fullmatch(r"\d+", text):
        raise PositionError(whole, f"{where}: {text!r} is not a whole number")
    value = int(text)
    if value < low or (high is not None and value > high):
        raise PositionError(whole, f"{where}: {value} is out of range {low}..{high}")
    return value


def _id_list(text: str, where: str, whole: str, n: int) -> list[int]:
    if text == "-":
        return []
    return [_int(t, where, whole, 0, n - 1) for t in text.split(".")]


def parse_position(game: BoobyTrapGame, text: str) -> BoobyTrapState:
    fields = _read_fields(text)
    n = game.players
    sizes, pieces, bar = _read_tray(game, fields, text)
    winnings, discard = _read_accounts(game, fields, text, [p.id for p in pieces])
    state = BoobyTrapState(game, start=text, packing=Packing(tuple(pieces), bar), sizes=sizes)
    state.bar_rest = _float(fields["rest"], "rest", text)
    state.winnings = winnings
    state.debt = [_int(d, "debt", text) for d in fields["debt"].split("/")]
    if any(d % PENALTY for d in state.debt):
        raise PositionError(text, "a debt is a whole number of 3-point penalties")
    state.trips = [_int(t, "trips", text) for t in fields["trips"].split("/")]
    state.discard = discard
    state.passes_in_row = _int(fields["passes"], "passes", text, 0, 2 * n)
    state.touches = _int(fields["touches"], "touches", text)
    state.noise_key = _int(fields["key"], "key", text)
    state.removals = _int(fields["settles"], "settles", text)
    _read_turn(state, fields, text)
    return state


def _read_fields(text: str) -> dict[str, str]:
    if not isinstance(text, str):
        raise PositionError(str(text), "a position is a text: " + POSITION_HELP)
    parts = text.split()
    if not parts or parts[0] != "bt1":
        raise PositionError(text, "a Booby Trap position starts with 'bt1': " + POSITION_HELP)
    fields: dict[str, str] = {}
    for part in parts[1:]:
        key, sep, value = part.partition("=")
        if not sep:
            raise PositionError(text, f"field {part!r} must look like key=value")
        if key in fields:
            raise PositionError(text, f"field {key} is given twice")
        fields[key] = value
    wanted = (
        "sizes",
        "tray",
        "bar",
        "rest",
        "turn",
        "touched",
        "passes",
        "touches",
        "key",
        "settles",
        "won",
        "debt",
        "trips",
        "discard",
    )
    fields.setdefault("key", "0")  # views leave the noise key out; readings then use key 0
    missing = [k for k in wanted if k not in fields]
    unknown = [k for k in fields if k not in wanted]
    if missing or unknown:
        raise PositionError(
            text,
            (f"missing {plural(len(missing), 'field')} {', '.join(missing)}" if missing else "")
            + ("; " if missing and unknown else "")
            + (f"unknown {plural(len(unknown), 'field')} {', '.join(unknown)}" if unknown else ""),
        )
    return fields


def _read_tray(
    game: BoobyTrapGame, fields: dict[str, str], text: str
) -> tuple[tuple[str, ...], list[Piece], float]:
    """sizes=, tray= and bar=: the pieces at rest in the tray, against the bar."""
    sizes = tuple(fields["sizes"])
    if len(sizes) != game.num_pieces or any(s not in SIZES for s in sizes):
        raise PositionError(text, f"sizes must be {game.num_pieces} letters S, M or L (one per piece id)")
    per = game.options["pieces_per_size"]
    for s in SIZES:
        if sizes.count(s) != per:
            raise PositionError(
                text, f"sizes has {sizes.count(s)} {SIZE_NAMES[s]} pieces; this game has {per}"
            )
    pieces: list[Piece] = []
    if fields["tray"] != "-":
        for item in fields["tray"].split(","):
            bits = item.split(":")
            if len(bits) != 3:
                raise PositionError(text, f"tray entry {item!r} must be id:x:y")
            pid = _int(bits[0], "tray id", text, 0, game.num_pieces - 1)
            x = _float(bits[1], f"piece {pid} x", text)
            y = _float(bits[2], f"piece {pid} y", text)
            pieces.append(Piece(pid, sizes[pid], x, y))
    ids = [p.id for p in pieces]
    if ids != sorted(set(ids)):
        raise PositionError(text, "tray pieces must be listed once each, by increasing id")
    bar = _float(fields["bar"], "bar", text)
    for p in pieces:
        r = p.radius
        slack = POSITION_SLACK
        if not (r - slack <= p.x <= bar - r + slack and r - slack <= p.y <= physics.TRAY_WIDTH - r + slack):
            raise PositionError(
                text,
                f"piece {p.id} at ({p.x:.1f}, {p.y:.1f}) is not inside the tray "
                f"in front of the bar (bar at {bar:.1f} mm, width {physics.TRAY_WIDTH} mm)",
            )
    for i, a in enumerate(pieces):
        for b in pieces[i + 1 :]:
            overlap = a.radius + b.radius - ((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5
            if overlap > MAX_REST_OVERLAP:
                raise PositionError(
                    text,
                    f"pieces {a.id} and {b.id} overlap by {overlap:.1f} mm; pieces at rest "
                    f"overlap by at most {MAX_REST_OVERLAP} mm",
                )
    if not -1.0 <= bar <= physics.BAR_BACK:
        raise PositionError(text, f"bar {bar}: the bar's face lies between 0 and {physics.BAR_BACK} mm")
    if pieces and max(p.x + p.radius for p in pieces) < bar - POSITION_SLACK:
        raise PositionError(
            text,
            f"the bar (at {bar:.1f} mm) does not rest against any piece: a position is "
            "a packing at rest, with the bar against the pieces",
        )
    return sizes, pieces, bar


def _read_accounts(
    game: BoobyTrapGame, fields: dict[str, str], text: str, ids: list[int]
) -> tuple[list[list[int]], list[int]]:
    """won=, debt=, trips=, discard=: every piece in exactly one place."""
    n = game.players
    won = fields["won"].split("/")
    debt = fields["debt"].split("/")
    trips = fields["trips"].split("/")
    for name, lst in (("won", won), ("debt", debt), ("trips", trips)):
        if len(lst) != n:
            raise PositionError(
                text, f"{name} has {len(lst)} entries for {n} {plural(n, 'player')}; separate them with /"
            )
    winnings = [_id_list(w, "won", text, game.num_pieces) for w in won]
    discard = _id_list(fields["discard"], "discard", text, game.num_pieces)
    everywhere = ids + [p for w in winnings for p in w] + discard
    dup = sorted({p for p in everywhere if everywhere.count(p) > 1})
    if dup:
        raise PositionError(
            text,
            f"{plural(len(dup), 'piece')} {', '.join(map(str, dup))} "
            f"{plural(len(dup), 'is', 'are')} in two places at once",
        )
    lost = sorted(set(range(game.num_pieces)) - set(everywhere))
    if lost:
        raise PositionError(
            text,
            f"{plural(len(lost), 'piece')} {', '.join(map(str, lost))} "
            f"{plural(len(lost), 'is', 'are')} nowhere (tray, winnings or discard)",
        )
    return winnings, discard


def _read_turn(state: BoobyTrapState, fields: dict[str, str], text: str) -> None:
    """turn= and touched=: whose turn it is and the piece being touched."""
    game, n = state.game, state.game.players
    ids = [p.id for p in state.packing.pieces]
    turn = fields["turn"]
    over = state._game_ends()
    if turn == "-":
        if not over:
            raise PositionError(text, "turn '-' means the game is over, but it is not")
        state.over = True
    else:
        if over:
            raise PositionError(
                text,
                f"the game is over ({state.pieces_left()} {plural(state.pieces_left(), 'piece')} "
                "left): write turn=-",
            )
        state.to_move = _int(turn, "turn", text, 1, n) - 1
    if fields["touched"] != "-":
        if state.over:
            raise PositionError(text, "nobody can have touched a piece: the game is over")
        touched = _int(fields["touched"], "touched", text, 0, game.num_pieces - 1)
        if touched not in ids:
            raise PositionError(text, f"touched piece {touched} is not on the tray")
        state.touched = touched
        # The toucher's reading is part of the turn in progress; rebuild it.
        reading = state.reading_for(touched, state.touches)
        state.readings[state.to_move].append(
            {
                "touch": state.touches,
                "settle": state.removals,
                "piece": touched,
                "reading": reading,
                "feel": feel_word(reading),
            }
        )
    if state.touched is not None and state.touched not in state.touchable():
        raise PositionError(text, f"piece {state.touched} may not be touched now (sizes in order)")
