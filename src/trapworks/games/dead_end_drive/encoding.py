"""13 Dead End Drive observation encoding (from `view(seat)` only; see trapworks.core.encoding).

A view holds the seat's own Character cards and trap cards and only counts of everyone
else's, so neither the tensor nor the string can tell another seat's hand.

Tensor, in order, with n = players and P = 12 pawns. Per pawn (n + 11 each): status one-hot
(in play, knocked off, escaped), column / width and row / height of its square (2; zero when
off), its portrait showing (1), its revealed owner one-hot over the n seats plus "a 2-player
secret card" (n + 1), one of my Character cards (1), moved this turn (1), selected (1), the pawn
on a trap (1). Then: the detective's step / steps (1); portraits behind the frame / P and never
shown / P (2); portraits removed (P); per seat Character cards / 4, trap cards / 29, secret
cards / 4, out (4n); my trap cards per kind / 29 (7: stairs, fireplace, chandelier, statue,
bookcase, wild, detective); my cards drawn this turn per kind (7); the card I just drew
(7, one-hot); the discard per kind / 29 (7); the pile / 29 (1); the phase (9, one-hot); who is to
move (n); whose turn (n); the observing seat (n); the dice (2 x 6, one-hot); doubles total
allowed (1); the selected count / 12 (1); the trap's kind (5); drew this turn, opening turn,
game over, truncated (4); the turn / turn limit (1).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trapworks.core.encoding import Encoder, one_hot

from .board import COLUMN_NAMES
from .components import CARD_NAMES, LETTERS, NUM_PAWNS, OFF, OVER, TOTAL_TRAP_PILE, TRAP_KINDS

PHASES = ("first", "reveal", "roll", "portrait", "select", "dest", "trap", "drawn", "over")
STATUSES = ("in play", "knocked off", "escaped")


class DeadEndDriveEncoder(Encoder):
    static_keys = ("game", "players", "board", "legal_actions")

    def observation_shape(self) -> tuple[int, ...]:
        n = self.game.num_players()
        per_pawn = n + 11
        size = NUM_PAWNS * per_pawn + 3 + NUM_PAWNS + 4 * n + 4 * len(CARD_NAMES) + 1 + len(PHASES)
        size += 3 * n + 12 + 2 + len(TRAP_KINDS) + 4 + 1
        return (size,)

    def encode(self, view: dict[str, Any], out: list[float]) -> None:
        n = view["players"]
        board = view["board"]
        width, height = board["width"], board["height"]
        mine = set(view["my_characters"])
        moved = set(view["moved"])
        selected = view["selected"]["pawn"] if view["selected"] else None
        for letter, pawn in zip(LETTERS, view["pawns"], strict=True):
            one_hot(out, STATUSES.index(pawn["status"]), len(STATUSES))
            square = pawn["square"]
            if square is None:
                out.extend((0.0, 0.0))
            else:
                out.append((COLUMN_NAMES.index(square[0]) + 1) / width)
                out.append(int(square[1:]) / height)
            out.append(1.0 if view["portrait"] == letter else 0.0)
            if "owner" in pawn:
                one_hot(out, n if pawn["owner"] is None else pawn["owner"], n + 1)
            else:
                out.extend([0.0] * (n + 1))
            out.append(1.0 if letter in mine else 0.0)
            out.append(1.0 if letter in moved else 0.0)
            out.append(1.0 if letter == selected else 0.0)
            out.append(1.0 if letter == view["trap_pawn"] else 0.0)
        det = view["detective"]
        out.append(det["step"] / max(1, det["steps"]))
        out.append(view["frame"]["behind"] / NUM_PAWNS)
        out.append(view["frame"]["never_shown"] / NUM_PAWNS)
        removed = set(view["removed_portraits"])
        out.extend(1.0 if letter in removed else 0.0 for letter in LETTERS)
        for s in view["seats"]:
            out.append(s["character_cards"] / 4)
            out.append(s["trap_cards"] / TOTAL_TRAP_PILE)
            out.append(s["secret_cards"] / 4)
            out.append(1.0 if s["out"] else 0.0)
        for names in (view["my_trap_cards"], view["my_cards_drawn_this_turn"]):
            out.extend(names.count(c) / TOTAL_TRAP_PILE for c in CARD_NAMES)
        one_hot(out, None if view["drawn_card"] is None else CARD_NAMES.index(view["drawn_card"]), 7)
        out.extend(view["discard"].count(c) / TOTAL_TRAP_PILE for c in CARD_NAMES)
        out.append(view["pile"] / TOTAL_TRAP_PILE)
        one_hot(out, PHASES.index(view["phase"]), len(PHASES))
        one_hot(out, view["to_move"], n)
        one_hot(out, view["turn_of"], n)
        one_hot(out, view["seat"], n)
        dice = view["dice"]
        for i in range(2):
            one_hot(out, dice[i] - 1 if i < len(dice) else None, 6)
        out.append((view["doubles_total"] or 0) / 12)
        out.append(view["selected"]["count"] / 12 if view["selected"] else 0.0)
        one_hot(out, None if view["trap"] is None else TRAP_KINDS.index(view["trap"]), len(TRAP_KINDS))
        for flag in ("drew_this_turn", "opening", "terminal", "truncated"):
            out.append(1.0 if view[flag] else 0.0)
        out.append(min(1.0, view["turn"] / self.game.options["turn_limit"]))

    # --- the same tensor from the state, without the view (what the adapters call) ----------
    def state_tensor(self, state: Any, seat: int) -> np.ndarray:
        """`observation_tensor(state.view(seat))` as float32, written from the state's fields
        (no view, no legal-action texts, no names built): the same floats, bit for bit (tested
        on every seat of random states, tests/research/test_fast_tensors.py). Like the view, it
        reads the seat's own cards only (`chars[seat]`, `hands[seat]`, the card it just drew)
        and of every other seat only counts; the 2-player secret cards never."""
        t = self.__dict__.get("_tables")
        if t is None:
            m = self.game.mansion  # type: ignore[attr-defined]  # a 13 Dead End Drive game
            # square -> (column / width, row / height), as the view's square name encodes them
            coords = {}
            for sq in range(m.width * m.height):
                name = m.name(sq)
                coords[sq] = ((COLUMN_NAMES.index(name[0]) + 1) / m.width, int(name[1:]) / m.height)
            t = self._tables = (coords, {p: i for i, p in enumerate(PHASES)}, self.observation_size())
        coords, phase_index, size = t
        g = state.game
        m = g.mansion
        n = g.players
        per = n + 11
        out = [0.0] * size
        _write_pawns(out, state, seat, coords, per)
        i = NUM_PAWNS * per
        out[i] = state.detective / max(1, len(m.track) - 1)
        unseen = len(state.unseen)
        out[i + 1] = (unseen + len(state.cycle)) / NUM_PAWNS
        out[i + 2] = unseen / NUM_PAWNS
        i += 3
        for p in state.removed_portraits:
            out[i + p] = 1.0
        i += NUM_PAWNS
        i = _write_cards(out, i, state, seat)
        out[i + phase_index[state.phase]] = 1.0
        i += len(PHASES)
        player = state.current_player()
        if 0 <= player < n:
            out[i + player] = 1.0
        if state.to_move is not None and 0 <= state.to_move < n:
            out[i + n + state.to_move] = 1.0
        out[i + 2 * n + seat] = 1.0
        i += 3 * n
        dice = state.dice
        for d in range(min(2, len(dice))):
            if 1 <= dice[d] <= 6:
                out[i + 6 * d + dice[d] - 1] = 1.0
        i += 12
        if state.total_ok and len(dice) == 2:
            out[i] = (dice[0] + dice[1] or 0) / 12
        out[i + 1] = state.selected[1] / 12 if state.selected else 0.0
        i += 2
        if state.trap_pawn is not None:
            out[i + TRAP_KINDS.index(m.trap_kind[state.pos[state.trap_pawn]])] = 1.0
        i += len(TRAP_KINDS)
        out[i] = 1.0 if state.drew else 0.0
        out[i + 1] = 1.0 if state.opening else 0.0
        out[i + 2] = 1.0 if state.phase == OVER else 0.0
        out[i + 3] = 1.0 if state.truncated else 0.0
        out[i + 4] = min(1.0, (state.turns + 1) / g.options["turn_limit"])
        return np.asarray(out, dtype=np.float32)


def _write_pawns(
    out: list[float], state: Any, seat: int, coords: dict[int, tuple[float, float]], per: int
) -> None:
    """Each pawn's block of the tensor: where it is, what this seat knows of its card."""
    n = state.game.players
    m = state.game.mansion
    pos = state.pos
    revealed = state.revealed
    mine = state.chars[seat]
    moved = state.moved
    selected = state.selected[0] if state.selected else None
    trap_pawn = state.trap_pawn
    portrait = state.portrait
    escaped = m.game_over
    for p in range(NUM_PAWNS):
        b = p * per
        sq = pos[p]
        if sq == OFF:
            out[b + 1] = 1.0
        else:
            out[b + (2 if sq == escaped else 0)] = 1.0
            out[b + 3], out[b + 4] = coords[sq]
        if portrait == p:
            out[b + 5] = 1.0
        if p in revealed:
            owner = revealed[p]
            owner = n if owner is None else owner
            if 0 <= owner <= n:
                out[b + 6 + owner] = 1.0
        if p in mine:
            out[b + 7 + n] = 1.0
        if p in moved:
            out[b + 8 + n] = 1.0
        if p == selected:
            out[b + 9 + n] = 1.0
        if p == trap_pawn:
            out[b + 10 + n] = 1.0


def _write_cards(out: list[float], i: int, state: Any, seat: int) -> int:
    """The seats' card counts, this seat's own hand (and what it drew), the discard and the pile,
    from offset i; returns the offset after them."""
    n = state.game.players
    for s in range(n):
        out[i] = len(state.chars[s]) / 4
        out[i + 1] = len(state.hands[s]) / TOTAL_TRAP_PILE
        out[i + 2] = len(state.secret[s]) / 4
        out[i + 3] = 1.0 if state.out[s] else 0.0
        i += 4
    kinds = len(CARD_NAMES)
    hand = state.hands[seat]
    counts = [0] * kinds
    for c, _, _ in hand:
        counts[c] += 1
    for k in range(kinds):
        out[i + k] = counts[k] / TOTAL_TRAP_PILE
    i += kinds
    if state.drew:
        counts = [0] * kinds
        turn = state.turns
        for c, _, when in hand:
            if when == turn:
                counts[c] += 1
        for k in range(kinds):
            out[i + k] = counts[k] / TOTAL_TRAP_PILE
    else:
        for k in range(kinds):
            out[i + k] = 0 / TOTAL_TRAP_PILE
    i += kinds
    if seat == state.to_move and state.drawn is not None:
        out[i + state.drawn] = 1.0
    i += 7
    counts = [0] * kinds
    for c in state.discard:
        counts[c] += 1
    for k in range(kinds):
        out[i + k] = counts[k] / TOTAL_TRAP_PILE
    i += kinds
    out[i] = len(state.pile) / TOTAL_TRAP_PILE
    i += 1
    return i
