"""Terminal drawing of a Mouse Trap state: the track in columns, the Loop, cheese, the
contraption's progress and the last firing of the trap."""

from __future__ import annotations

from .data import FIRING_CHAIN, LOOP_START, NUM_PARTS, NUM_SPACES, PARTS, SPACES
from .game import P_FIRE, MouseTrapState

MOUSE_MARKS = "ABCD"  # player 1 = A ... player 4 = D on the board


def _mice_at(state: MouseTrapState, index: int) -> str:
    return "".join(MOUSE_MARKS[s] for s, m in enumerate(state.mice) if m == index)


def short_text(space: dict) -> str:
    """A space's text cut to fit a column (the full text is in track.json and the view)."""
    kind = space["kind"]
    if kind == "go_to":
        return {0: "Fat cat: to Start", 21: "Mad dog: to 21", 49: "To Cheese Wheel"}.get(
            space["target"], f"Go to {space['target']}"
        )
    if kind == "go_back":
        return f"Go back {space['amount']}"
    if kind == "move_ahead":
        return f"Move ahead {space['amount']}"
    if kind == "steal_most":
        return f"Take {space['amount']} from most"
    if kind == "lose" and space["amount"] == 3:
        return "Napping: lose 3"
    if kind == "loop_build":
        return "Build 2 parts"
    return space["text"]


def _cell(state: MouseTrapState, index: int, width: int) -> str:
    """One space: number, text (cut to fit), and the marks of the mice on it."""
    space = SPACES[index]
    text = short_text(space)
    if space["kind"] in ("build", "loop_build") and not state.game.builds_here[index]:
        text += " (-)"
    label = f"{index:>2} {text}"
    room = width - 6
    if len(label) > room:
        label = label[: room - 1] + "…"
    return f"{label:<{room}} {_mice_at(state, index):<4} "


def render_text(state: MouseTrapState, seat: int | None = None) -> str:
    game = state.game
    lines = []
    status = state._phase_words()
    limit = f" (limit {game.turn_limit})" if game.turn_limit else ""
    lines.append(
        f"Mouse Trap · {game.options['variant']} · {game.players} players · turn {state.turn}{limit}"
    )
    lines.append(f"  {status}")
    who = []
    for s in range(game.players):
        tag = f"{MOUSE_MARKS[s]}=Player {s + 1}"
        if seat == s:
            tag += " (you)"
        if state.mice[s] is None:
            who.append(f"{tag}: caught")
        else:
            who.append(f"{tag}: {state.cheese[s]} cheese")
        if s == state.to_move and not state.is_terminal():
            who[-1] = "▶ " + who[-1]
    who.append(f"pile {state.pile}/{game.supply}")
    for k in range(0, len(who), 3):
        lines.append("  " + " | ".join(who[k : k + 3]))
    bar = "#" * state.parts + "." * (NUM_PARTS - state.parts)
    if state.parts < NUM_PARTS:
        nxt = f"next: #{state.parts + 1} {PARTS[state.parts]}"
    else:
        nxt = f"COMPLETE: capture chance {game.capture_chance:.1%}"
    lines.append(f"  Contraption {state.parts:>2}/{NUM_PARTS} [{bar}] {nxt}")
    lines.append("  Trap: " + _firing_line(state))
    # Track: spaces 0-43 in three columns, then the Loop.
    width = 26  # three columns in 80 characters
    per_col = (LOOP_START + 2) // 3
    cols = [list(range(c * per_col, min(LOOP_START, (c + 1) * per_col))) for c in range(3)]
    for r in range(per_col):
        row = []
        for col in cols:
            row.append(_cell(state, col[r], width) if r < len(col) else " " * width)
        lines.append("  " + "".join(row).rstrip())
    lines.append("  The Loop (circular, after the Cheese Wheel comes Safe again):")
    loop = list(range(LOOP_START, NUM_SPACES))
    for r in range(0, len(loop), 3):
        lines.append("  " + "".join(_cell(state, i, width) for i in loop[r : r + 3]).rstrip())
    lines.append("  A-D = mice of players 1-4; (-) = does not build with this many players")
    if state.is_terminal():
        if state.truncated:
            lines.append("Game stopped at the turn limit: no winner.")
        else:
            lines.append(f"Player {state.winner + 1} wins: the last mouse on the board.")
    return "\n".join(lines)


def _firing_line(state: MouseTrapState) -> str:
    chain = FIRING_CHAIN
    if state.phase == P_FIRE:
        done = " ".join(s["letter"] + "✓" for s in chain[: state.stage])
        return f"FIRING: {done} {chain[state.stage]['letter']}…".replace("  ", " ")
    last = state.last_firing
    if not last:
        return "not fired yet" if state.parts >= NUM_PARTS else "incomplete: the crank cannot be turned yet"
    passed = " ".join(s["letter"] + "✓" for s in chain[: last["stages"]])
    if last["jammed"]:
        k = last["stages"]
        return f"last firing: {passed} {chain[k]['letter']}✗ jammed ({chain[k]['text'].lower()})".replace(
            "  ", " "
        )
    return f"last firing: {passed} — cage fell"
