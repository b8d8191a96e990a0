"""The batched engine's move answers (batch._destinations and batch._can_move: the flattened
movement tables for moves of up to 6 steps without chairs, the search for the rest) against the
kernel's `DeadEndDriveState.destinations` and `can_move`, square for square, in random positions
(pawns scattered over the mansion, some on the Red Chairs, in and out of the opening, the portrait
pawn able to leave), for every passage option set the engine's tables are built for (issue 31)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import trapworks
from trapworks.games.dead_end_drive.board import squares_of
from trapworks.games.dead_end_drive.components import NUM_PAWNS

pytest.importorskip("numba")
from trapworks.games.dead_end_drive import batch  # noqa: E402
from trapworks.games.dead_end_drive.game import DeadEndDriveState  # noqa: E402


def _engine_state(state):
    """A game vector G holding `state`'s pawns, portrait and opening (what the move answers read)."""
    G = np.zeros(batch.G_SIZE, np.int64)
    for p, sq in enumerate(state.pos):
        G[batch.POS + p] = sq
        if sq >= 0:
            G[batch.OCC + sq] = 1
    G[batch.PORTRAIT] = -1 if state.portrait is None else state.portrait
    G[batch.OPENING] = int(state.opening)
    return G


@pytest.mark.parametrize("hops,start_hop", [(0, False), (1, False), (1, True), (3, True), (5, False)])
def test_engine_moves_equal_the_kernels_in_random_positions(hops, start_hop):
    game = trapworks.make("dead-end-drive", players=4, passage_hops=hops, passage_start_hop=start_hop)
    m = game.mansion
    t = batch.engine_tables(game)
    mt = t["tables"][batch.T_MOVES]
    floor = [sq for sq in range(m.width * m.height) if m.neighbours[sq] and sq != m.game_over]
    chairs = [sq for sq in floor if (m.chairs >> sq) & 1]
    rng = random.Random(hops * 10 + start_hop)
    compared = nonempty = 0
    for _ in range(12):
        state = DeadEndDriveState(game, seed=0, deal=False)
        live = rng.randrange(2, NUM_PAWNS + 1)
        on_chairs = rng.randrange(0, min(4, live + 1))
        squares = rng.sample(chairs, on_chairs) + rng.sample(
            [s for s in floor if s not in chairs], live - on_chairs
        )
        state.pos = squares + [-1] * (NUM_PAWNS - live)
        state.opening = bool(on_chairs) and rng.random() < 0.5
        state.portrait = rng.randrange(live)
        state._dest_cache.clear()
        G = _engine_state(state)
        for pawn in range(live):
            for count in range(1, 13):
                want = state.destinations(pawn, count)
                n = batch._destinations(G, t["params"], mt, pawn, count, t["go"])
                got = sorted(int(G[batch.END_LIST + i]) for i in range(n))
                assert got == squares_of(want), (state.pos, pawn, count)
                assert batch._can_move(G, t["params"], mt, pawn, count, t["go"]) == state.can_move(
                    pawn, count
                )
                compared += 1
                nonempty += bool(want)
    assert nonempty > compared // 2  # most moves can be made: the comparison is not of empty sets
