"""Mouse Trap position notation: one line of key=value fields.

    mice=12,45,x,49 cheese=3,0,0,5 pile=22 parts=24 turn=57 next=2 phase=roll

mice    each player's space (0 = Start ... 44-49 = the Loop) or x for a caught mouse
cheese  cheese each player holds
pile    cheese left in the pile (optional; it must equal the supply minus what players hold)
parts   parts of the contraption built (0-24; they are always built in order, so a count says it)
turn    the turn number (1 = the first turn; the turn limit counts these)
next    the player whose turn it is (1-based)
phase   what is pending:
        first            chance: who goes first (first_player=random)
        roll             the player rolls for their mouse
        die              chance: the die for the player's mouse
        crank            the player is on Turn Crank: crank, pay to move a mouse (move:P), or end
        push:P           chance: the die for player P's mouse (already paid for)
        steal:N:P+Q[:divide|choose]
                         the player takes N cheese from one of the tied rivals P, Q, ...
                         (divide: one card at a time, so it may be split)
        fire:K           chance: stage K (1-15) of the firing chain is next
        over             the game is won (one mouse left)
        truncated        the turn limit stopped the game
Fields may come in any order; mice, cheese and parts are required.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from trapworks.core import PositionError
from trapworks.core.words import plural

from .data import CHEESE_WHEEL, FIRING_CHAIN, NUM_PARTS, NUM_SPACES, SAFE, TURN_CRANK
from .game import (
    END,
    P_BUILD,
    P_CRANK,
    P_DIE,
    P_FIRE,
    P_FIRST,
    P_OVER,
    P_PUSH,
    P_ROLL,
    P_STEAL,
    PHASE_NAMES,
    MouseTrapGame,
    MouseTrapState,
)

HELP = (
    "fields key=value separated by spaces, e.g. "
    "'mice=12,45,x,49 cheese=3,0,0,5 pile=22 parts=24 turn=57 next=2 phase=roll'"
)


def write_position(state: MouseTrapState) -> str:
    mice = ",".join("x" if m is None else str(m) for m in state.mice)
    cheese = ",".join(str(c) for c in state.cheese)
    ph = state.phase
    if ph == P_PUSH:
        phase = f"push:{state.push_target + 1}"
    elif ph == P_STEAL:
        mode = "divide" if state.steal_divide else "choose"
        phase = f"steal:{state.steal_owed}:{'+'.join(str(s + 1) for s in state.steal_from)}:{mode}"
    elif ph == P_FIRE:
        phase = f"fire:{state.stage + 1}"
    elif ph == P_OVER:
        phase = "truncated" if state.truncated else "over"
    else:
        phase = PHASE_NAMES[ph]
    return (
        f"mice={mice} cheese={cheese} pile={state.pile} parts={state.parts} turn={state.turn} "
        f"next={state.to_move + 1} phase={phase}"
    )


def _ints(text: str, field: str, full: str) -> list[int]:
    out = []
    for part in text.split(","):
        if not part.isdigit():
            raise PositionError(full, f"{field}: {part!r} is not a whole number")
        out.append(int(part))
    return out


def parse_position(game: MouseTrapGame, text: str) -> MouseTrapState:
    if not isinstance(text, str) or not text.strip():
        raise PositionError(str(text), "a position is a text of " + HELP)
    fields = _read_fields(text)
    n = game.players
    mice, cheese, pile = _mice_and_cheese(game, fields, text)
    (parts,) = _ints(fields["parts"], "parts", text)
    if parts > NUM_PARTS:
        raise PositionError(text, f"parts={parts}: the contraption has {NUM_PARTS} parts")
    turn = 1
    if "turn" in fields:
        (turn,) = _ints(fields["turn"], "turn", text)
        if turn < 1:
            raise PositionError(text, "turn: turns count from 1")
    active = [s for s, m in enumerate(mice) if m is not None]
    fp = game.options["first_player"]
    nxt = (0 if fp == "random" else fp) if "next" not in fields else None
    if "next" in fields:
        (k,) = _ints(fields["next"], "next", text)
        if not 1 <= k <= n:
            raise PositionError(text, f"next={k}: players are 1-{n}")
        nxt = k - 1
    phase_text = fields.get("phase", "roll")

    state = MouseTrapState(game, start=text)
    state.mice = mice
    state.cheese = cheese
    state.pile = pile
    state.parts = parts
    state.turn = turn
    state.to_move = nxt

    head, _, rest = phase_text.partition(":")
    limit = game.turn_limit
    if head in ("over", "truncated"):
        if rest:
            raise PositionError(text, f"phase {head} takes no argument")
        state.phase = P_OVER
        if head == "over":
            if len(active) != 1:
                raise PositionError(text, "phase=over needs exactly one mouse left on the board")
            state.winner = active[0]
        else:
            state.truncated = True
        return state
    if len(active) < 2:
        raise PositionError(text, "fewer than two mice are left, so the game is over: write phase=over")
    if mice[nxt] is None:
        raise PositionError(text, f"next={nxt + 1}: that player's mouse has been caught; it has no turns")
    if limit is not None and turn > limit:
        raise PositionError(text, f"turn {turn} is past the turn limit {limit}")
    on_crank = mice[nxt] == TURN_CRANK and parts >= NUM_PARTS
    read_phase = _PHASES.get(head)
    if read_phase is None:
        raise PositionError(
            text,
            f"phase {phase_text!r}: one of first, roll, die, crank, push:P, steal:N:P+Q, fire:K, "
            "over, truncated",
        )
    read_phase(state, head, rest, text, on_crank)
    return state


def _read_fields(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for token in text.split():
        key, sep, value = token.partition("=")
        if not sep or not value:
            raise PositionError(text, f"{token!r} is not key=value; " + HELP)
        if key in fields:
            raise PositionError(text, f"field {key!r} appears twice")
        fields[key] = value
    known = {"mice", "cheese", "pile", "parts", "turn", "next", "phase"}
    unknown = sorted(set(fields) - known)
    if unknown:
        raise PositionError(
            text,
            f"unknown {plural(len(unknown), 'field')} {', '.join(unknown)}; "
            f"fields are {', '.join(sorted(known))}",
        )
    for need in ("mice", "cheese", "parts"):
        if need not in fields:
            raise PositionError(text, f"the field {need}= is missing; " + HELP)
    return fields


def _mice_and_cheese(
    game: MouseTrapGame, fields: dict[str, str], text: str
) -> tuple[list[int | None], list[int], int]:
    """mice=, cheese= and pile=: where each mouse is, what each player holds, what is left."""
    n = game.players
    mice: list[int | None] = []
    for part in fields["mice"].split(","):
        if part == "x":
            mice.append(None)
        elif part.isdigit() and int(part) < NUM_SPACES:
            mice.append(int(part))
        else:
            raise PositionError(text, f"mice: {part!r} is neither a space 0-{NUM_SPACES - 1} nor x (caught)")
    if len(mice) != n:
        raise PositionError(
            text,
            f"mice lists {len(mice)} players but this game has {n}; make the game with players={len(mice)}",
        )
    cheese = _ints(fields["cheese"], "cheese", text)
    if len(cheese) != n:
        raise PositionError(text, f"cheese lists {len(cheese)} players but mice lists {n}")
    for s, (m, c) in enumerate(zip(mice, cheese, strict=False)):
        if m is None and c:
            raise PositionError(
                text,
                f"player {s + 1} is caught yet holds {c} cheese "
                "(a caught player's cheese goes to the cranker)",
            )
    held = sum(cheese)
    if held > game.supply:
        raise PositionError(text, f"players hold {held} cheese but the supply is {game.supply}")
    pile = game.supply - held
    if "pile" in fields:
        (given,) = _ints(fields["pile"], "pile", text)
        if given != pile:
            raise PositionError(
                text,
                f"pile={given} but the supply {game.supply} minus the {held} held "
                f"leaves {pile} (cheese is conserved)",
            )
    return mice, cheese, pile


def _build_phase(state: MouseTrapState, head: str, rest: str, text: str, on_crank: bool) -> None:
    game, mice, parts, nxt = state.game, state.mice, state.parts, state.to_move
    assert nxt is not None
    if rest:
        raise PositionError(text, "phase build takes no argument")
    here = mice[nxt]
    if not (game.build_optional and here is not None and game.builds_here[here] and parts < NUM_PARTS):
        raise PositionError(
            text,
            "phase=build needs build_optional, the player's mouse on a Build space that builds "
            "for this number of players, and the trap not complete",
        )
    state.phase = P_BUILD


def _simple_phase(state: MouseTrapState, head: str, rest: str, text: str, on_crank: bool) -> None:
    fp, turn = state.game.options["first_player"], state.turn
    if rest:
        raise PositionError(text, f"phase {head} takes no argument")
    state.phase = {"first": P_FIRST, "roll": P_ROLL, "die": P_DIE, "crank": P_CRANK}[head]
    if head == "first" and (fp != "random" or turn != 1):
        raise PositionError(
            text,
            "phase=first (drawing who goes first) only happens on turn 1 of a game with first_player=random",
        )
    if head == "crank":
        if not on_crank:
            raise PositionError(
                text,
                "phase=crank needs the player's mouse on Turn Crank (46) and the trap complete (parts=24)",
            )
        if state._crank_choices() == [END]:
            raise PositionError(
                text,
                "phase=crank but the player has nothing to choose (no mouse on the "
                "Cheese Wheel, and no cheese or no mouse that can be moved)",
            )


def _push_phase(state: MouseTrapState, head: str, rest: str, text: str, on_crank: bool) -> None:
    mice, n, nxt = state.mice, state.game.players, state.to_move
    assert nxt is not None
    if not on_crank:
        raise PositionError(text, "phase=push needs the paying player on Turn Crank with the trap complete")
    if not rest.isdigit() or not 1 <= int(rest) <= n:
        raise PositionError(text, f"push:{rest}: name the player whose mouse is moved (1-{n})")
    t = int(rest) - 1
    if t == nxt or mice[t] in (None, SAFE, CHEESE_WHEEL):
        raise PositionError(
            text,
            f"push:{rest}: player {t + 1}'s mouse cannot be moved "
            "(it is yours, caught, on Safe or on the Cheese Wheel)",
        )
    state.phase = P_PUSH
    state.push_target = t


def _fire_phase(state: MouseTrapState, head: str, rest: str, text: str, on_crank: bool) -> None:
    if not on_crank or not state.on_wheel():
        raise PositionError(
            text,
            "phase=fire needs the cranker on Turn Crank, the trap complete and an "
            "opposing mouse on the Cheese Wheel",
        )
    if not rest.isdigit() or not 1 <= int(rest) <= len(FIRING_CHAIN):
        raise PositionError(text, f"fire:{rest}: a stage 1-{len(FIRING_CHAIN)}")
    state.phase = P_FIRE
    state.stage = int(rest) - 1
    state.last_firing = {"stages": state.stage, "jammed": None, "targets": state.on_wheel()}


def _steal_phase(state: MouseTrapState, head: str, rest: str, text: str, on_crank: bool) -> None:
    game, n, nxt, mice, cheese = state.game, state.game.players, state.to_move, state.mice, state.cheese
    found = re.fullmatch(r"(\d+):(\d(?:\+\d)*)(?::(divide|choose))?", rest)
    if not found:
        raise PositionError(
            text,
            f"steal:{rest}: write steal:N:P+Q (N cheese, from player P or Q), optionally :divide or :choose",
        )
    owed = int(found.group(1))
    group = tuple(int(c) - 1 for c in found.group(2).split("+"))
    if owed < 1:
        raise PositionError(text, "steal: at least 1 cheese must be owed")
    if len(set(group)) != len(group) or len(group) < 2:
        raise PositionError(text, "steal: name two or more different tied rivals (one rival needs no choice)")
    for s in group:
        if not 0 <= s < n or s == nxt or mice[s] is None:
            raise PositionError(text, f"steal: player {s + 1} is not a rival still in the game")
        if cheese[s] <= 0:
            raise PositionError(text, f"steal: player {s + 1} has no cheese to take")
    mode = found.group(3) or ("divide" if game.divide_ties else "choose")
    state.phase = P_STEAL
    state.steal_owed = owed
    state.steal_from = group
    state.steal_divide = mode == "divide"


_PHASES: dict[str, Callable[[MouseTrapState, str, str, str, bool], None]] = {
    "build": _build_phase,
    "first": _simple_phase,
    "roll": _simple_phase,
    "die": _simple_phase,
    "crank": _simple_phase,
    "push": _push_phase,
    "fire": _fire_phase,
    "steal": _steal_phase,
}
