"""Helpers for the 13 Dead End Drive tests: positions built from a readable default."""

from __future__ import annotations

import random

import trapworks
from trapworks.core import sample_chance
from trapworks.games.dead_end_drive.components import LETTERS

# A spread-out middle-game layout: every pawn off the chairs, none on a trap or passage.
PAWNS = {
    "S": "i14",
    "D": "k14",
    "C": "m14",
    "L": "o14",
    "P": "i16",
    "K": "k16",
    "B": "m16",
    "Z": "o16",
    "M": "b14",
    "H": "d16",
    "R": "s15",
    "O": "w15",
}
CHARS = {2: "SDCL/PKBZ", 3: "SDCL/PKBZ/MHRO", 4: "SDC/LPK/BZM/HRO"}
SECRET_2P = "MH/RO"


def game(players: int = 4, **options):
    return trapworks.make("dead-end-drive", players=players, **options)


def position(
    players: int = 4, pawns: dict | None = None, chars: str | None = None, traps: str | None = None, **fields
) -> str:
    """A position text: the default layout, with `pawns` entries moved (None: knocked off by its holder)."""
    layout = dict(PAWNS)
    layout.update(pawns or {})
    chars = chars or CHARS[players]
    hands = chars.split("/")
    secrets = fields.get("secret", SECRET_2P if players == 2 else "")
    items = []
    for letter in LETTERS:
        where = layout[letter]
        if where is None or where.startswith("off"):
            if where is None:
                holder = next((i for i, h in enumerate(hands) if letter in h), None)
                if holder is None and letter not in secrets:
                    raise ValueError(f"test setup: nobody holds {letter}")
                where = f"off{holder + 1}" if holder is not None else "off?"
            items.append(f"{letter}:{where}")
        else:
            items.append(f"{letter}:{where}")
    text = [f"players={players}", "pawns=" + ",".join(items)]
    # Knocked-off pawns' cards are laid down: drop them from the hands.
    dead = {letter for letter in LETTERS if layout[letter] is None or str(layout[letter]).startswith("off")}
    hands = ["".join(c for c in h if c not in dead) or "-" for h in hands]
    text.append("chars=" + "/".join(hands))
    if players == 2 and "secret" not in fields:
        fields["secret"] = SECRET_2P
    text.append("traps=" + (traps or "/".join(["-"] * players)))
    fields.setdefault("portrait", "S")
    for key, value in fields.items():
        text.append(f"{key}={value}")
    return " ".join(text)


def state_at(players: int = 4, options: dict | None = None, **kw):
    g = game(players, **(options or {}))
    return g.state_from_position(position(players, **kw))


def texts(state) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def play(state, *actions: str):
    for a in actions:
        state.apply_action(state.string_to_action(a))
    return state


def dests(state, pawn: str, count: int) -> set[str]:
    """Squares where `pawn` may end a move of `count` (via the select/dest actions)."""
    s = state.clone()
    s.apply_action(s.string_to_action(f"{pawn}{count}"))
    return {t[3:] for t in texts(s)}


def random_game(g, seed: int, max_actions: int | None = None, check=None):
    """Play random legal actions (chance by its odds); call check(state) after every action."""
    rng = random.Random(seed)
    s = g.new_initial_state(seed=seed)
    n = 0
    while not s.is_terminal() and (max_actions is None or n < max_actions):
        a = sample_chance(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions())
        s.apply_action(a)
        n += 1
        if check:
            check(s)
    return s
