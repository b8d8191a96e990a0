"""Last Mouse Lost's position notation: a line that sets up any position (tests, puzzles, bug
reports). The rules (game.py) never import it; the spec declares it and the kernel reads it
(`State.position`, `Game.state_from_position`)."""

from __future__ import annotations

import re

from trapworks.core import PositionError

from .game import LastMouseLostGame, LastMouseLostState


def write_position(state: LastMouseLostState) -> str:
    """Rows of o (raised) and . (pressed), the player to move, the score, the round's opener."""
    text = state.game.tables.row_text
    rows = "/".join(text[r][raised] for r, raised in enumerate(state.rows))
    if state.match_over:
        to_move = "-"
    elif state.awaiting_opener:
        to_move = "?"
    else:
        to_move = str(state.to_move + 1)
    return f"{rows} {to_move} {state.score[0]}-{state.score[1]} {state.round_opener + 1}"


_POSITION_HELP = (
    "rows of o (raised) and . (pressed) separated by /, then optionally the player to "
    "move (1 or 2), the score (e.g. 1-0) and who opened this round (1 or 2): "
    "ooo/ooooo/oooooo/oooooo/ooooo/ooo 1 0-0 1"
)


def parse_position(game: LastMouseLostGame, text: str) -> LastMouseLostState:
    if not isinstance(text, str):
        raise PositionError(str(text), "a position is a text: " + _POSITION_HELP)
    fields = text.split()
    if not 1 <= len(fields) <= 4:
        raise PositionError(text, f"expected 1 to 4 fields, found {len(fields)}: " + _POSITION_HELP)
    row_texts = fields[0].split("/")
    for i, rt in enumerate(row_texts):
        if not rt or set(rt) - {"o", "."}:
            raise PositionError(text, f"row {i + 1} ({rt!r}) must be made of o and . only")
    lengths = tuple(len(rt) for rt in row_texts)
    if lengths != game.board:
        raise PositionError(
            text,
            f"its rows have {','.join(map(str, lengths))} mice but this game's board is "
            f"{','.join(map(str, game.board))}; make the game with board={','.join(map(str, lengths))}",
        )
    rows = [sum(1 << i for i, c in enumerate(rt) if c == "o") for rt in row_texts]

    first_to = game.options["first_to"]
    score = [0, 0]
    if len(fields) >= 3:
        m = re.fullmatch(r"(\d+)-(\d+)", fields[2])
        if not m:
            raise PositionError(text, f"score {fields[2]!r} must look like 1-0")
        score = [int(m.group(1)), int(m.group(2))]
    over = max(score) >= first_to
    if min(score) >= first_to or max(score) > first_to:
        raise PositionError(text, f"score {score[0]}-{score[1]} is impossible in a match to {first_to}")

    to_move_text = fields[1] if len(fields) >= 2 else ("-" if over else "1")
    if over:
        if any(rows):
            raise PositionError(text, "the match is over by the score, so every mouse must be pressed")
        if to_move_text != "-":
            raise PositionError(text, "the match is over by the score: nobody is to move (write -)")
    else:
        if not any(rows):
            raise PositionError(
                text,
                "every mouse is pressed, yet nobody has won the match; "
                "a round in progress has at least one raised mouse",
            )
        if to_move_text not in ("1", "2", "?"):
            raise PositionError(
                text, f"player to move {to_move_text!r} must be 1 or 2 (or ? before the draw)"
            )

    full = rows == list(game.full_rows)
    if to_move_text == "?" and not (full and score == [0, 0] and game.options["first_player"] == "random"):
        raise PositionError(
            text,
            "'?' (opener not drawn yet) is only possible at the start of a match with first_player=random",
        )
    opener_text = fields[3] if len(fields) == 4 else None
    if opener_text is not None and opener_text not in ("1", "2"):
        raise PositionError(text, f"round opener {opener_text!r} must be 1 or 2")

    state = game.state_class(game, start=text)
    state.rows = rows
    state.score = score
    state.match_over = over
    state.awaiting_opener = to_move_text == "?"
    state._set_live(not over and not state.awaiting_opener)
    to_move = int(to_move_text) - 1 if to_move_text in ("1", "2") else 0
    state.to_move = to_move
    state.round_opener = int(opener_text) - 1 if opener_text else to_move
    if full and not over and to_move_text in ("1", "2") and state.round_opener != to_move:
        raise PositionError(
            text, "no mouse is pressed yet this round, so the player to move must be the one who opened it"
        )
    return state
