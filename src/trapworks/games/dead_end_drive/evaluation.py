"""An evaluation of an unfinished 13 Dead End Drive position: each seat's chance to win.

Model: which pawn wins is a softmax (a conditional logit) over the live pawns of a weighted sum
of a few features of each pawn (is its portrait showing, how far is it from the front door, how
many traps are a die roll away, does its owner move next, ...). A seat's chance to win is the sum
over the pawns whose Character card (or 2-player secret card) it holds in the state given; the
search hands in a determinization, so for other seats that is the searcher's guess.

The weights are fitted by maximum likelihood on positions from games between heuristic agents
(the winner's pawn as label):

    python -m trapworks.games.dead_end_drive.fit --games 1500 --seed 11

prints the weights; they are pasted into `WEIGHTS` below with that command (no result of any
test or benchmark is written into them). numpy is needed only for fitting.
"""

from __future__ import annotations

import math
from functools import cache

from .board import load_mansion, step_distances
from .components import NUM_PAWNS

OFF = -1

FEATURES = (
    "portrait",  # its portrait shows: it alone may leave
    "portrait_door",  # portrait x steps to the door / 10
    "portrait_near",  # portrait and within 12 steps of the door (one roll of doubles)
    "portrait_mover",  # portrait and its owner moves next
    "portrait_detective",  # portrait x the Detective's progress (0..1): he ends the game for it
    "door",  # steps to the door / 10 (a pawn near the door may show next)
    "danger",  # traps 1-6 steps away (a die can put it on them)
    "danger_far",  # traps 7-12 steps away
    "on_trap",  # standing on a trap square
    "unseen",  # its portrait was never shown yet (x share of the frame never shown)
    "mover",  # its owner moves next
    "danger_few",  # danger x 4 / live pawns: with few pawns left every trap counts more
)

# Fitted with the command in the module docstring (1500 games, seed 11: 104018 positions; held-out
# mean log-likelihood of the winner -1.323, against -1.952 for "every live pawn alike").
WEIGHTS = {
    "portrait": -0.9768,
    "portrait_door": 0.4561,
    "portrait_near": -0.1189,
    "portrait_mover": 0.5256,
    "portrait_detective": 0.8371,
    "door": -1.4399,
    "danger": -2.0781,
    "danger_far": -0.7181,
    "on_trap": -0.9342,
    "unseen": -0.2572,
    "mover": 0.004,
    "danger_few": 1.3249,
}


@cache
def _tables(mansion_name: str = "mansion.txt"):
    """Per square: steps to the door, traps 1-6 and 7-12 steps away (pawns ignored)."""
    m = load_mansion(mansion_name)
    size = m.width * m.height

    to_door = step_distances(m, m.door)
    door = [min(to_door.get(sq, 30), 30) for sq in range(size)]
    near = [0] * size
    far = [0] * size
    for tsq in m.trap_kind:
        for sq, d in step_distances(m, tsq).items():
            if 1 <= d <= 6:
                near[sq] += 1
            elif 7 <= d <= 12:
                far[sq] += 1
    return tuple(door), tuple(near), tuple(far), m.traps, m.game_over, len(m.track) - 1


def pawn_features(state) -> list[tuple[int, list[float]]]:
    """(pawn, feature vector) for every pawn still in the mansion."""
    door, near, far, traps, game_over, track_len = _tables()
    pos = state.pos
    portrait = state.portrait
    live = [p for p in range(NUM_PAWNS) if pos[p] != OFF and pos[p] != game_over]
    n_live = max(len(live), 1)
    owners = owner_of(state)
    mover = state.to_move
    det = state.detective / track_len
    unseen_share = len(state.unseen) / NUM_PAWNS
    out = []
    for p in live:
        sq = pos[p]
        d = door[sq]
        is_p = 1.0 if p == portrait else 0.0
        moves = 1.0 if owners[p] == mover else 0.0
        danger = float(near[sq])
        out.append(
            (
                p,
                [
                    is_p,
                    is_p * d / 10.0,
                    is_p * (1.0 if d <= 12 else 0.0),
                    is_p * moves,
                    is_p * det,
                    d / 10.0,
                    danger,
                    float(far[sq]),
                    1.0 if traps >> sq & 1 else 0.0,
                    (unseen_share if p in state.unseen else 0.0),
                    moves,
                    danger * 4.0 / n_live,
                ],
            )
        )
    return out


def owner_of(state) -> list[int | None]:
    """Seat holding each pawn's Character card or 2-player secret card in this state."""
    owners: list[int | None] = [None] * NUM_PAWNS
    for seat, hand in enumerate(state.chars):
        for p in hand:
            owners[p] = seat
    for seat, cards in enumerate(state.secret):
        for p in cards:
            owners[p] = seat
    return owners


def pawn_chances(state, weights: dict[str, float] | None = None) -> dict[int, float]:
    """Pawn -> modelled chance that it wins from here."""
    w = [(weights or WEIGHTS)[f] for f in FEATURES]
    feats = pawn_features(state)
    if not feats:
        return {}
    scores = [sum(wi * xi for wi, xi in zip(w, x, strict=False)) for _, x in feats]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return {p: e / total for (p, _), e in zip(feats, exps, strict=False)}


def seat_values(state, weights: dict[str, float] | None = None) -> list[float]:
    """Expected returns of every seat (the returns' scale: +1 a win, -1/(n-1) a loss)."""
    n = state.game.players
    if state.phase == "over":
        return list(state.returns())
    owners = owner_of(state)
    win = [0.0] * n
    for p, chance in pawn_chances(state, weights).items():
        o = owners[p]
        if o is not None:
            win[o] += chance
    total = sum(win) or 1.0
    return [(x / total) * (1.0 + 1.0 / (n - 1)) - 1.0 / (n - 1) for x in win]


# The heuristic agent's (agents.HeuristicAgent) static tables and default share of bluffs, here so
# that the batched engine (batch.py) reads the same ones without importing the agents.
HEURISTIC_BLUFF = 0.2


@cache
def heuristic_distances(
    mansion_name: str = "mansion.txt",
) -> tuple[dict[int, int], dict[int, dict[int, int]]]:
    """Static step distances (pawns ignored, chairs and passages as in a move): to the door, and
    from every trap square."""
    m = load_mansion(mansion_name)

    return step_distances(m, m.door), {sq: step_distances(m, sq) for sq in m.trap_kind}


@cache
def heuristic_tables() -> tuple[dict[int, int], dict[int, tuple[str, ...]]]:
    """Steps to the door, and per square the kinds of the traps 1-6 steps away (as
    `heuristic_distances`)."""
    m = load_mansion()
    to_door, from_trap = heuristic_distances()
    near: dict[int, list[str]] = {}
    for tsq, dist in from_trap.items():
        for sq, k in dist.items():
            if 1 <= k <= 6:
                near.setdefault(sq, []).append(m.trap_kind[tsq])
    return to_door, {sq: tuple(kinds) for sq, kinds in near.items()}
