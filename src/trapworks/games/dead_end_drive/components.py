"""The cards and pawns of 13 Dead End Drive (seed 004, "The Cards" and "The Pawns").

- 12 characters: each is a pawn, a Portrait card and a Character card. The rulebook names none;
  the names are those of fan material (RULES-NOTES: only Hickory the gardener and a cat are
  corroborated). Each has a one-letter code used in positions and on the map.
- 13 Portrait cards: the 12 characters plus Aunt Agatha (removed before the first turn).
- 29 trap-pile cards of three kinds: Trap cards (one kind per trap), Wild cards and Detective
  cards. The split is not published; the default is 3 Trap cards per trap (15), 4 Wild and
  10 Detective (options `traps_per_kind`, `wild_cards`, `detective_cards`).
"""

from __future__ import annotations

OFF = -1  # a knocked-off pawn's square

# Phases of a turn (the rules, game.py, move through them; hidden.py and the views name them).
FIRST = "first"  # chance: who starts
REVEAL = "reveal"  # chance: the next portrait shows
ROLL = "roll"  # chance: the dice
PORTRAIT = "portrait"  # doubles: change the portrait or not
SELECT = "select"  # pick a pawn and a count
DEST = "dest"  # pick where the pawn ends
TRAP = "trap"  # a pawn moved onto a trap: play a card or draw
DRAWN = "drawn"  # a drawn card: spring (if it matches) or keep
OVER = "over"
PHASES = (FIRST, REVEAL, ROLL, PORTRAIT, SELECT, DEST, TRAP, DRAWN, OVER)
CHANCE_PHASES = (FIRST, REVEAL, ROLL)

CHARACTERS: tuple[tuple[str, str], ...] = (
    ("S", "Smothers"),
    ("D", "Dusty"),
    ("C", "Charity"),
    ("L", "Lulu"),
    ("P", "Parker"),
    ("K", "Clay"),
    ("B", "Beauregard III"),
    ("Z", "Spritzy"),
    ("M", "Madame Astra"),
    ("H", "Hickory"),
    ("R", "Pierre"),
    ("O", "Poopsie"),
)
LETTERS = "".join(letter for letter, _ in CHARACTERS)
NAMES = tuple(name for _, name in CHARACTERS)
NUM_PAWNS = len(CHARACTERS)

# Trap-pile cards: 0-4 the Trap cards (one per trap), 5 Wild, 6 Detective.
TRAP_KINDS = ("stairs", "fireplace", "chandelier", "statue", "bookcase")
WILD = 5
DETECTIVE = 6
CARD_NAMES = TRAP_KINDS + ("wild", "detective")
CARD_CODES = "sfctbwd"  # one letter per card kind, as in positions
TOTAL_TRAP_PILE = 29

# Character cards per player (seed 004, the chart under "Character Cards").
HAND_SIZE = {2: 4, 3: 4, 4: 3}
SECRET_CARDS_2P = 2


def pawn_index(text: str) -> int:
    """A pawn by its letter or (a prefix of) its name; ValueError naming the problem."""
    t = text.strip()
    if len(t) == 1 and t.upper() in LETTERS:
        return LETTERS.index(t.upper())
    low = t.lower()
    hits = [i for i, name in enumerate(NAMES) if name.lower() == low]
    if not hits:
        hits = [i for i, name in enumerate(NAMES) if name.lower().startswith(low) and low]
    if len(hits) == 1:
        return hits[0]
    choices = ", ".join(f"{letter} {name}" for letter, name in CHARACTERS)
    raise ValueError(f"{text!r} is not a pawn; pawns are {choices}")


def build_trap_pile(traps_per_kind: int, wild: int, detective: int) -> list[int]:
    pile = []
    for kind in range(len(TRAP_KINDS)):
        pile += [kind] * traps_per_kind
    return pile + [WILD] * wild + [DETECTIVE] * detective


# The two dice as the chance node draws them: unordered pairs, 21 outcomes.
ROLLS = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
