"""Hidden information: what a seat cannot see, redrawn consistently with what it has seen.

What `seat` knows: its own Character cards and trap hand (and the card it just drew), every
pawn's square, the portrait showing and the order of the portraits already shown, the face-up
discard pile, how many cards each player holds and when each was drawn, whose cards were laid
down for knocked-off pawns, and which knocked-off pawns had secret cards (2 players).

What it does not: other players' Character cards, the 2-player secret cards (its own too), other
players' trap cards, the card another player has just drawn, the order of the trap pile, and the
order of the portraits not yet shown (a chance node, so nothing to redraw).

Trap cards are redrawn epoch by epoch: an epoch is the time between two reshuffles. Every card a
player drew in a past epoch came from that epoch's pile, whose contents (the discard pile that was
shuffled) everybody saw; so the unknown cards drawn in one epoch are swapped only among the hand
slots of that epoch. Cards of the current epoch are swapped among those slots, the drawn card and
the pile; Detective cards never sit in a hand, so they stay in the pile.

Every pool is sorted before it is shuffled, so the result depends only on what the seat can see
and on `rng`, never on the order in which the true state happens to hold its secrets.

With the option deal=chance (the deal and every draw are kernel chance nodes) the same redraw
holds: it is made at a seat's decision, when no hidden chance node is pending, and the pile's
order it draws is never read (each card drawn is a chance node over the pile's contents).
"""

from __future__ import annotations

import random
from typing import Any

from .components import DETECTIVE, OFF, OVER


def resample(state: Any, seat: int, rng: random.Random) -> Any:
    """A DeadEndDriveState (typed loosely: the rules module imports this one, never the reverse)
    with what `seat` cannot see redrawn."""
    s = state.clone()
    if s.phase == OVER:
        # Once the game is over its view shows every hand and the frame to everyone (the end-of-game
        # screen): nothing is hidden, so nothing is redrawn.
        return s
    n = s.game.players
    others = [o for o in range(n) if o != seat]

    # --- Character cards --------------------------------------------------------------
    # The winner lays down the winning pawn's card: once the game is over that card is public.
    won = s.winner_pawn if s.phase == OVER else None
    char_slots = [("chars", o, i) for o in others for i in range(len(s.chars[o])) if s.chars[o][i] != won]
    # When the game is over the 2-player secret cards have been turned over (seed 004: "the secret
    # cards are turned over"): the winner is public, so they are not redrawn.
    secret_slots = (
        [] if s.phase == OVER else [("secret", o, i) for o in range(n) for i in range(len(s.secret[o]))]
    )
    pool = [s.chars[o][i] for _, o, i in char_slots] + [s.secret[o][i] for _, o, i in secret_slots]
    # A knocked-off pawn whose card nobody laid down was a secret card: it stays among the secrets.
    dead = sorted(p for p in pool if s.pos[p] == OFF)
    live = sorted(p for p in pool if s.pos[p] != OFF)
    rng.shuffle(secret_slots)
    rng.shuffle(live)
    fill = dict(zip(secret_slots, dead, strict=False))
    free = char_slots + secret_slots[len(dead) :]
    fill.update(zip(free, live, strict=False))
    for (kind, o, i), p in fill.items():
        (s.chars if kind == "chars" else s.secret)[o][i] = p
    for o in range(n):
        s.chars[o].sort()
        s.secret[o].sort()

    # --- Trap cards -------------------------------------------------------------------
    by_epoch: dict[int, list[list[int]]] = {}
    for o in others:
        for entry in s.hands[o]:
            by_epoch.setdefault(entry[1], []).append(entry)
    drawn_hidden = s.drawn is not None and s.to_move != seat
    for epoch in sorted(by_epoch):
        entries = by_epoch[epoch]
        if epoch == s.epoch:
            continue
        cards = sorted(e[0] for e in entries)
        rng.shuffle(cards)
        for e, c in zip(entries, cards, strict=False):
            e[0] = c
    current = by_epoch.get(s.epoch, [])
    cards = [e[0] for e in current] + ([s.drawn] if drawn_hidden else []) + s.pile
    detectives = [c for c in cards if c == DETECTIVE]
    others_cards = sorted(c for c in cards if c != DETECTIVE)
    rng.shuffle(others_cards)
    k = len(current) + (1 if drawn_hidden else 0)
    for e, c in zip(current, others_cards, strict=False):
        e[0] = c
    if drawn_hidden:
        s.drawn = others_cards[len(current)]
    s.pile = others_cards[k:] + detectives
    rng.shuffle(s.pile)
    # Future reshuffles must not follow the real game's generator either.
    s.rng = random.Random(rng.randrange(2**63))
    s._dest_cache = dict(s._dest_cache)
    return s
