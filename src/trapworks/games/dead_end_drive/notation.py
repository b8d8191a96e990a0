"""Position notation for 13 Dead End Drive: one line of `key=value` fields.

A position holds everything, secrets included (it is for tests, puzzles and bug reports, never
sent to a seat). Example (4 players, the start of player 1's turn after rolling 4 and 6):

    players=4 turn=1 phase=select dice=4,6 det=0 portrait=L
    pawns=S:j9,D:k9,C:l9,L:m9,P:n9,K:o9,B:j11,Z:k11,M:l11,H:m11,R:n11,O:o11
    chars=SDC/LPK/BZM/HRO traps=-/-/-/-

Fields (any order; those marked * may be left out):
  players   number of players (must match the game's `players` option)
  pawns     all 12 pawns: LETTER:square (in play; the Game Over square means escaped),
            LETTER:offN (knocked off, Player N laid down its card) or LETTER:off? (2 players: a secret card)
  chars     Character cards per seat, separated by /, '-' for none
  secret    * 2 players: the two secret cards per seat (default: the cards no one else holds)
  traps     trap cards per seat: codes s f c t b (stairs fireplace chandelier statue bookcase),
            w (wild); a + after a code marks a card drawn this turn
  discard   * face-up discard pile, bottom first (codes as above, d = detective)
  pile      * the trap pile, TOP FIRST; cards of the deck not placed anywhere go beneath it
  det       * Detective steps taken (0-13)
  portrait  * the portrait showing (a pawn letter; '-': Aunt Agatha, before the first reveal)
  cycle     * portraits already shown and moved to the back, in order (the rest are unseen)
  turn      * seat to move, 1-based (default 1)
  phase     * first | reveal | roll | portrait | select | dest | trap | drawn | over (default: roll,
            or select when dice are given)
  resume    * after a reveal: roll | select | continue
  dice      * dice left to use this turn, e.g. 4,6 (4,4 with no pawn moved: doubles, total allowed)
  moved     * pawns already moved this turn
  sel       * (phase dest) the pawn and count picked, e.g. S4
  trap      * (phase trap/drawn) the pawn on the trap
  drawn     * (phase drawn) the card drawn
  drew      * 1 if the player to move has drawn this turn
  opening   * 1 while pawns must still leave the Red Chairs (default: 1 if any pawn is on a chair)
  turns     * turns played so far (default 0)
  winner    * (phase over) the winning pawn and reason, e.g. S:escape
"""

from __future__ import annotations

import random
import zlib
from collections import Counter

from trapworks.core import PositionError

from .components import (
    CARD_CODES,
    CHANCE_PHASES,
    DEST,
    DETECTIVE,
    DRAWN,
    LETTERS,
    NUM_PAWNS,
    OFF,
    OVER,
    PHASES,
    PORTRAIT,
    ROLL,
    SECRET_CARDS_2P,
    SELECT,
    TRAP,
    WILD,
)
from .game import (
    RESUME_CONTINUE,
    RESUME_ROLL,
    RESUME_SELECT,
    DeadEndDriveGame,
    DeadEndDriveState,
)

FIELDS = (
    "players",
    "turn",
    "phase",
    "resume",
    "dice",
    "moved",
    "sel",
    "trap",
    "drawn",
    "drew",
    "opening",
    "turns",
    "det",
    "portrait",
    "cycle",
    "pawns",
    "chars",
    "secret",
    "traps",
    "discard",
    "pile",
    "winner",
)


def _letters(pawns) -> str:
    return "".join(LETTERS[p] for p in pawns) or "-"


def write_position(s: DeadEndDriveState) -> str:
    g = s.game
    m = g.mansion
    n = g.players
    f: list[str] = [f"players={n}", f"turn={s.to_move + 1}", f"phase={s.phase}"]
    if s.phase == "reveal":
        f.append(f"resume={s.resume}")
    if s.dice:
        f.append("dice=" + ",".join(map(str, s.dice)))
    if s.moved:
        f.append("moved=" + _letters(s.moved))
    if s.selected:
        f.append(f"sel={LETTERS[s.selected[0]]}{s.selected[1]}")
    if s.trap_pawn is not None:
        f.append(f"trap={LETTERS[s.trap_pawn]}")
    if s.drawn is not None:
        f.append(f"drawn={CARD_CODES[s.drawn]}")
    if s.drew:
        f.append("drew=1")
    f.append(f"opening={int(s.opening)}")
    f.append(f"turns={s.turns}")
    f.append(f"det={s.detective}")
    f.append("portrait=" + ("-" if s.portrait is None else LETTERS[s.portrait]))
    if s.cycle:
        f.append("cycle=" + _letters(s.cycle))
    pawns = []
    for p in range(NUM_PAWNS):
        sq = s.pos[p]
        if sq == OFF:
            owner = s.revealed.get(p)
            pawns.append(f"{LETTERS[p]}:off{'?' if owner is None else owner + 1}")
        else:
            pawns.append(f"{LETTERS[p]}:{m.name(sq)}")
    f.append("pawns=" + ",".join(pawns))
    f.append("chars=" + "/".join(_letters(sorted(h)) for h in s.chars))
    if n == 2:
        f.append("secret=" + "/".join(_letters(sorted(h)) for h in s.secret))
    f.append(
        "traps="
        + "/".join(
            "".join(CARD_CODES[c] + ("+" if t == s.turns and s.drew else "") for c, _, t in sorted(h)) or "-"
            for h in s.hands
        )
    )
    if s.discard:
        f.append("discard=" + "".join(CARD_CODES[c] for c in s.discard))
    f.append("pile=" + ("".join(CARD_CODES[c] for c in reversed(s.pile)) or "-"))
    if s.phase == OVER:
        if s.truncated:
            f.append("winner=-")
        else:
            f.append(f"winner={LETTERS[s.winner_pawn]}:{s.win_reason}")
    return " ".join(f)


def _cards(text: str, field: str, position: str, allow_plus: bool = False, allow_detective: bool = True):
    """Card codes -> list of (card, drawn_this_turn)."""
    out: list[tuple[int, bool]] = []
    if text == "-":
        return out
    i = 0
    while i < len(text):
        ch = text[i]
        if ch not in CARD_CODES:
            raise PositionError(
                position,
                f"{field}: {ch!r} is not a card code; codes are "
                "s f c t b (traps: stairs fireplace chandelier statue bookcase), w wild, d detective",
            )
        card = CARD_CODES.index(ch)
        if card == DETECTIVE and not allow_detective:
            raise PositionError(
                position, f"{field}: a Detective card is never kept in a hand (it is discarded when drawn)"
            )
        plus = i + 1 < len(text) and text[i + 1] == "+"
        if plus and not allow_plus:
            raise PositionError(position, f"{field}: '+' (drawn this turn) only marks cards in hands")
        out.append((card, plus))
        i += 2 if plus else 1
    return out


def _pawn_list(text: str, field: str, position: str) -> list[int]:
    if text == "-":
        return []
    out = []
    for ch in text:
        if ch.upper() not in LETTERS:
            raise PositionError(position, f"{field}: {ch!r} is not a pawn letter ({LETTERS})")
        p = LETTERS.index(ch.upper())
        if p in out:
            raise PositionError(position, f"{field}: pawn {ch.upper()} is listed twice")
        out.append(p)
    return out


def _int(text: str, field: str, position: str, lo: int, hi: int) -> int:
    if not text.isdigit() or not lo <= int(text) <= hi:
        raise PositionError(position, f"{field}={text!r}: a number from {lo} to {hi}")
    return int(text)


def parse_position(game: DeadEndDriveGame, text: str) -> DeadEndDriveState:
    if not isinstance(text, str):
        raise PositionError(
            str(text), "a position is a text of key=value fields (see docs/dead-end-drive.md)"
        )
    n = game.players
    fields = _read_fields(text)
    for key in ("players", "pawns", "chars", "traps"):
        if key not in fields:
            raise PositionError(text, f"the field {key}= is missing")
    if _int(fields["players"], "players", text, 2, 4) != n:
        raise PositionError(
            text,
            f"the position is for {fields['players']} players but this game has "
            f"{n}; make the game with players={fields['players']}",
        )
    seed = zlib.crc32(text.encode())
    s = DeadEndDriveState(game, seed=seed, start=text, deal=False)
    live, escaped = _place_pawns(s, fields, text)
    _deal_characters(s, fields, text)
    drawn = _deal_traps(s, fields, text, seed)
    _set_portraits(s, fields, text)
    _set_turn(s, fields, text, drawn, live, escaped)
    return s


def _read_fields(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for token in text.split():
        key, sep, value = token.partition("=")
        if not sep or not value:
            raise PositionError(text, f"{token!r} is not a key=value field")
        if key not in FIELDS:
            raise PositionError(text, f"unknown field {key!r}; fields are {', '.join(FIELDS)}")
        if key in fields:
            raise PositionError(text, f"field {key!r} is given twice")
        fields[key] = value
    return fields


def _place_pawns(s: DeadEndDriveState, fields: dict[str, str], text: str) -> tuple[list[int], list[int]]:
    """The pawns= field: every pawn on a square or knocked off; returns the live and escaped pawns."""
    m = s.game.mansion
    n = s.game.players
    placed: dict[int, int] = {}
    seen_sq: dict[int, int] = {}
    revealed: dict[int, int | None] = {}
    for item in fields["pawns"].split(","):
        letter, sep, where = item.partition(":")
        if not sep or len(letter) != 1 or letter.upper() not in LETTERS:
            raise PositionError(text, f"pawns: {item!r} must look like S:j9 (pawn letter, square) or S:off2")
        p = LETTERS.index(letter.upper())
        if p in placed:
            raise PositionError(text, f"pawns: {letter.upper()} is listed twice")
        if where.lower().startswith("off"):
            who = where[3:]
            if who == "?":
                if n != 2:
                    raise PositionError(text, f"pawns: {item}: only a 2-player game has secret cards")
                revealed[p] = None
            else:
                revealed[p] = _int(who, f"pawns {item}", text, 1, n) - 1
            placed[p] = OFF
            continue
        try:
            sq = m.square(where)
        except ValueError as e:
            raise PositionError(text, f"pawns: {item}: {e}") from None
        if not m.walkable >> sq & 1:
            raise PositionError(
                text, f"pawns: {item}: {where} is {m.feature(sq)}, not a square a pawn can stand on"
            )
        if sq in seen_sq:
            raise PositionError(
                text, f"pawns: {LETTERS[seen_sq[sq]]} and {letter.upper()} are both on {where}"
            )
        seen_sq[sq] = p
        placed[p] = sq
    missing = [LETTERS[p] for p in range(NUM_PAWNS) if p not in placed]
    if missing:
        raise PositionError(text, f"pawns: every pawn must be listed; missing {''.join(missing)}")
    s.pos = [placed[p] for p in range(NUM_PAWNS)]
    s.revealed = revealed
    live = [p for p in range(NUM_PAWNS) if s.pos[p] != OFF]
    escaped = [p for p in live if s.pos[p] == m.game_over]
    if not live:
        raise PositionError(text, "pawns: at least one pawn must be alive")
    return live, escaped


def _deal_characters(s: DeadEndDriveState, fields: dict[str, str], text: str) -> None:
    """chars= and secret=: who holds each Character card."""
    n = s.game.players
    revealed = s.revealed
    groups = fields["chars"].split("/")
    if len(groups) != n:
        raise PositionError(text, f"chars: {len(groups)} hands for {n} players (separate hands with /)")
    s.chars = [sorted(_pawn_list(gr, "chars", text)) for gr in groups]
    if n == 2:
        if "secret" in fields:
            sg = fields["secret"].split("/")
            if len(sg) != 2:
                raise PositionError(text, "secret: two groups of secret cards, separated by /")
            s.secret = [sorted(_pawn_list(gr, "secret", text)) for gr in sg]
        else:
            rest = [
                p
                for p in range(NUM_PAWNS)
                if not any(p in h for h in s.chars) and not (s.pos[p] == OFF and revealed.get(p) is not None)
            ]
            half = (len(rest) + 1) // 2
            s.secret = [sorted(rest[:half]), sorted(rest[half:])]
        if any(len(h) > SECRET_CARDS_2P for h in s.secret):
            raise PositionError(text, f"secret: each player has {SECRET_CARDS_2P} secret cards")
    elif "secret" in fields:
        raise PositionError(text, "secret: only a 2-player game has secret cards")
    held: dict[int, str] = {}
    for seat, h in enumerate(s.chars):
        for p in h:
            if p in held:
                raise PositionError(text, f"chars: {LETTERS[p]}'s card is held twice")
            held[p] = f"Player {seat + 1}"
    for h in s.secret:
        for p in h:
            if p in held:
                raise PositionError(text, f"{LETTERS[p]}'s card is both a secret card and held by {held[p]}")
            held[p] = "secret"
    for p in range(NUM_PAWNS):
        if s.pos[p] == OFF:
            if p in held and held[p] != "secret":
                raise PositionError(
                    text,
                    f"{LETTERS[p]} is knocked off, so its card was laid down; {held[p]} cannot still hold it",
                )
            if revealed.get(p, "none") is None and held.get(p) != "secret":
                raise PositionError(
                    text,
                    f"{LETTERS[p]}:off? says its card is a secret card, but no secret card is {LETTERS[p]}",
                )
        elif p not in held:
            raise PositionError(
                text,
                f"{LETTERS[p]} is in play, so some player (or, with 2 players, a secret "
                "card) must hold its Character card",
            )
    if n > 2:
        s.out = [not h for h in s.chars]


def _deal_traps(s: DeadEndDriveState, fields: dict[str, str], text: str, seed: int) -> int | None:
    """traps=, discard=, pile=, drawn=, drew=, turns=: the Trap cards; returns the drawn card."""
    game = s.game
    n = game.players
    tgroups = fields["traps"].split("/")
    if len(tgroups) != n:
        raise PositionError(text, f"traps: {len(tgroups)} hands for {n} players (separate hands with /)")
    drew = fields.get("drew", "0")
    if drew not in ("0", "1"):
        raise PositionError(text, "drew: 0 or 1")
    s.drew = drew == "1"
    turns = _int(fields.get("turns", "0"), "turns", text, 0, 10**6)
    s.turns = turns
    hands = []
    for seat, gr in enumerate(tgroups):
        cards = _cards(gr, "traps", text, allow_plus=True, allow_detective=False)
        if any(plus for _, plus in cards) and (seat != _turn(fields, n, text) - 1 or not s.drew):
            raise PositionError(
                text, "traps: '+' (drawn this turn) marks only cards of the player to move, with drew=1"
            )
        hands.append([[c, 0, turns if plus else -1] for c, plus in cards])
    s.hands = hands
    s.discard = [c for c, _ in _cards(fields.get("discard", "-"), "discard", text)]
    top = [c for c, _ in _cards(fields.get("pile", "-"), "pile", text)]
    drawn = None
    if "drawn" in fields:
        dc = _cards(fields["drawn"], "drawn", text, allow_detective=False)
        if len(dc) != 1:
            raise PositionError(text, "drawn: exactly one card code")
        drawn = dc[0][0]
    used = Counter(c for h in hands for c, _, _ in h) + Counter(s.discard) + Counter(top)
    if drawn is not None:
        used[drawn] += 1
    deck = Counter(game.deck)
    over = used - deck
    if over:
        card, k = next(iter(over.items()))
        raise PositionError(
            text,
            f"there are only {deck[card]} {'wild' if card == WILD else CARD_CODES[card]} "
            f"cards in this game's trap pile; the position uses {used[card]}",
        )
    rest = list((deck - used).elements())
    random.Random(seed).shuffle(rest)
    s.pile = rest + list(reversed(top))  # top of the pile = end of the list
    s.drawn = drawn
    if n > 2:
        for seat in range(n):
            if s.out[seat] and s.hands[seat]:
                raise PositionError(
                    text,
                    f"Player {seat + 1} holds no Character card, so is out of the game "
                    "and cannot hold Trap cards",
                )
    return drawn


def _set_portraits(s: DeadEndDriveState, fields: dict[str, str], text: str) -> None:
    """det=, portrait=, cycle=: the Detective and the portraits."""
    m = s.game.mansion
    s.detective = _int(fields.get("det", "0"), "det", text, 0, len(m.track) - 1)
    pt = fields.get("portrait", "-")
    s.portrait = None if pt == "-" else _pawn_list(pt, "portrait", text)[0]
    if s.portrait is not None and len(pt) != 1:
        raise PositionError(text, "portrait: one pawn letter")
    if s.portrait is not None and s.pos[s.portrait] == OFF:
        raise PositionError(text, f"portrait: {pt} was knocked off; its portrait would have been taken out")
    s.cycle = _pawn_list(fields.get("cycle", "-"), "cycle", text)
    if s.portrait in s.cycle:
        raise PositionError(text, "cycle: the portrait showing cannot also be at the back of the frame")
    s.unseen = set(range(NUM_PAWNS)) - set(s.cycle) - ({s.portrait} if s.portrait is not None else set())
    s.removed_portraits = []


def _set_turn(
    s: DeadEndDriveState,
    fields: dict[str, str],
    text: str,
    drawn: int | None,
    live: list[int],
    escaped: list[int],
) -> None:
    """turn=, dice=, phase= and what each phase needs."""
    m = s.game.mansion
    n = s.game.players
    s.to_move = _turn(fields, n, text) - 1
    if n > 2 and s.out[s.to_move] and fields.get("phase", "roll") != OVER:
        raise PositionError(text, f"Player {s.to_move + 1} is out of the game and cannot be the one to move")
    dice = []
    if "dice" in fields:
        try:
            dice = [int(x) for x in fields["dice"].split(",")]
        except ValueError:
            raise PositionError(text, "dice: one or two numbers 1-6, e.g. dice=4,6") from None
        if not 1 <= len(dice) <= 2 or not all(1 <= d <= 6 for d in dice):
            raise PositionError(text, "dice: one or two numbers 1-6, e.g. dice=4,6")
    phase = fields.get("phase", SELECT if dice else ROLL)
    if phase not in PHASES:
        raise PositionError(text, f"phase {phase!r}: one of {', '.join(PHASES)}")
    s.phase = phase
    s.dice = dice
    s.moved = _pawn_list(fields.get("moved", "-"), "moved", text)
    if len(s.moved) + len(dice) > 2 or (len(s.moved) == 2 and phase not in (TRAP, DRAWN, "reveal", OVER)):
        raise PositionError(text, "moved/dice: a turn moves at most two pawns, one per die")
    s.total_ok = len(dice) == 2 and dice[0] == dice[1] and not s.moved
    if phase in (PORTRAIT, SELECT, DEST) and not dice:
        raise PositionError(text, f"phase {phase} needs the dice left to use (dice=...)")
    if phase == PORTRAIT and not s.total_ok:
        raise PositionError(
            text, "phase portrait comes only after rolling doubles (dice=4,4, nothing moved yet)"
        )
    if phase in (ROLL,) + tuple(CHANCE_PHASES) and dice and phase != "reveal":
        raise PositionError(text, f"phase {phase}: no dice are in play before the roll")
    _phase_arguments(s, fields, text, drawn)
    if "opening" in fields:
        if fields["opening"] not in ("0", "1"):
            raise PositionError(text, "opening: 0 or 1")
        s.opening = fields["opening"] == "1"
    else:
        s.opening = any(m.chairs >> sq & 1 for sq in s.pos if sq != OFF)
    if (
        not s.opening
        and any(m.chairs >> sq & 1 for sq in s.pos if sq != OFF)
        and phase not in (DEST, TRAP, DRAWN)
    ):
        raise PositionError(text, "a pawn on a Red Chair outside the opening: moves never end on a chair")
    if s.detective >= len(m.track) - 1 and phase != OVER:
        raise PositionError(text, "the Detective is at Game Over, so the game is over (phase=over)")
    _ending(s, fields, text, live, escaped)
    if phase == "first" and s.portrait is not None:
        raise PositionError(text, "phase first: the portrait is revealed after the roll-off (portrait=-)")


def _turn(fields: dict, n: int, text: str) -> int:
    return _int(fields.get("turn", "1"), "turn", text, 1, n)


def _phase_arguments(s: DeadEndDriveState, fields: dict[str, str], text: str, drawn: int | None) -> None:
    """resume=, sel=, trap= and drawn=: what the phase in progress needs, and only there."""
    m, phase = s.game.mansion, s.phase
    if phase == "reveal":
        resume = fields.get("resume", RESUME_ROLL)
        if resume not in (RESUME_ROLL, RESUME_SELECT, RESUME_CONTINUE):
            raise PositionError(text, "resume: roll, select or continue")
        if s.portrait is not None:
            raise PositionError(
                text, "phase reveal: no portrait may be showing while the next is revealed (portrait=-)"
            )
        if not any(s.pos[p] != OFF for p in s.unseen):
            raise PositionError(text, "phase reveal: no unseen portrait of a live pawn is left to reveal")
        s.resume = resume
    elif s.portrait is None and phase not in ("first", OVER):
        raise PositionError(
            text, "portrait: give the portrait showing (only before the first reveal is it -)"
        )
    if phase == DEST:
        sel = fields.get("sel", "")
        if len(sel) < 2 or sel[0].upper() not in LETTERS or not sel[1:].isdigit():
            raise PositionError(text, "phase dest needs sel= (the pawn and count picked, e.g. sel=S4)")
        s.selected = (LETTERS.index(sel[0].upper()), int(sel[1:]))
        if s.selected[1] not in s.counts_available():
            raise PositionError(text, f"sel={sel}: no die (or doubles total) gives {s.selected[1]}")
        if s.pos[s.selected[0]] == OFF:
            raise PositionError(text, f"sel={sel}: that pawn was knocked off")
    elif "sel" in fields:
        raise PositionError(text, "sel= belongs to phase dest only")
    if phase in (TRAP, DRAWN):
        if "trap" not in fields:
            raise PositionError(text, f"phase {phase} needs trap= (the pawn on the trap)")
        tp = _pawn_list(fields["trap"], "trap", text)
        if len(tp) != 1 or s.pos[tp[0]] == OFF or not m.traps >> s.pos[tp[0]] & 1:
            raise PositionError(text, "trap= must name one pawn standing on a trap square")
        s.trap_pawn = tp[0]
        if tp[0] not in s.moved:
            raise PositionError(
                text, "trap=: a trap springs only on a pawn moved there this turn; list it in moved="
            )
    elif "trap" in fields:
        raise PositionError(text, "trap= belongs to phases trap and drawn only")
    if (phase == DRAWN) != (drawn is not None):
        raise PositionError(text, "drawn= is given exactly in phase drawn")


def _ending(
    s: DeadEndDriveState, fields: dict[str, str], text: str, live: list[int], escaped: list[int]
) -> None:
    """winner= in phase over; a position whose game has ended must say so."""
    phase = s.phase
    if phase == OVER:
        w = fields.get("winner", "")
        if w == "-":
            s.truncated = True
        else:
            letter, _, reason = w.partition(":")
            if (
                len(letter) != 1
                or letter.upper() not in LETTERS
                or reason not in ("escape", "last-alive", "detective")
            ):
                raise PositionError(
                    text,
                    "phase over needs winner=LETTER:escape|last-alive|detective (or winner=- "
                    "for a stopped game)",
                )
            s.winner_pawn = LETTERS.index(letter.upper())
            s.win_reason = reason
    elif escaped:
        raise PositionError(
            text, f"{LETTERS[escaped[0]]} stands on the Game Over square, so the game is over (phase=over)"
        )
    elif len(live) == 1:
        raise PositionError(text, "only one pawn is alive, so the game is over (phase=over)")
