"""The movement tables (board.MoveTables) answer exactly as the path search they replace.

Seed 004 rules 3-6 and Figure 10 (passages) are tested in test_dd_rules.py through the game; here
the tables are compared with the depth-first search (`search_destinations`, `search_can_move`,
the code that answered before issue 19) on random pawn layouts, every count 1..12, both passage
options, exits, and the ends filters the game uses.
"""

import random

import pytest
from dd_helpers import game

from trapworks.games.dead_end_drive.board import TABLE_DEPTH, load_mansion


def _walkable(m):
    return [s for s in range(m.width * m.height) if m.walkable >> s & 1 and s != m.game_over]


@pytest.mark.parametrize(("max_hops", "start_hop"), [(1, False), (0, False), (2, True), (1, True)])
def test_tables_answer_as_the_search_does(max_hops, start_hop):
    m = load_mansion()
    squares = _walkable(m)
    rng = random.Random(max_hops * 10 + start_hop)
    door_side = [s for s in squares if m.name(s)[1:] in ("16", "17", "18")]
    for _ in range(400):
        pawns = rng.sample(squares, rng.randint(0, 24))
        start = rng.choice(door_side if rng.random() < 0.2 else squares)  # exits are near the door
        blocked = 0
        for p in pawns:
            if p != start:
                blocked |= 1 << p
        count = rng.randint(1, 2 * TABLE_DEPTH)
        exit_ok = rng.random() < 0.5
        kw = dict(chairs=False, exit_ok=exit_ok, max_hops=max_hops, start_hop=start_hop)
        want = m.search_destinations(start, count, blocked, **kw)
        assert m.destinations(start, count, blocked, **kw) == want, (m.name(start), count)
        for ends in (-1, ~m.traps, rng.getrandbits(m.width * m.height)):
            can = m.search_can_move(start, count, blocked, ends=ends, **kw)
            assert m.can_move(start, count, blocked, ends=ends, **kw) == can, (m.name(start), count)


def test_tables_in_played_positions_and_the_red_chair_rule():
    """Positions from random games (the opening on the chairs included): the state's legal moves
    equal those the search gives, Figure 8's chair crossing included."""
    g = game(4)
    m = g.mansion
    rng = random.Random(7)
    checked = 0
    for seed in range(3):
        s = g.new_initial_state(seed=seed)
        while not s.is_terminal() and checked < 4000:
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            if s.phase == "select":
                occupied = s.occupied()
                for pawn in s.live_pawns():
                    start = s.pos[pawn]
                    blocked = occupied & ~(1 << start)
                    keep = ~m.traps if s.opening else -1
                    for count in s.counts_available():
                        kw = dict(exit_ok=pawn == s.portrait, max_hops=1, start_hop=False)
                        want = m.search_destinations(start, count, blocked, chairs=False, **kw) & keep
                        if not want and m.search_destinations(start, count, 0, chairs=False, **kw) & keep:
                            want = m.search_destinations(start, count, blocked, chairs=True, **kw) & keep
                        assert s.destinations(pawn, count) == want
                        checked += 1
            s.apply_action(rng.choice(s.legal_actions()))
    assert checked >= 4000


def test_tables_are_shared_and_bounded_by_the_board():
    a, b = game(4), game(2)
    assert a.moves is b.moves  # same passage options: one set of tables
    assert game(4, passage_hops=0).moves is not a.moves
    m = a.mansion
    tables = a.moves

    def size():
        return sum(
            len(layer[0])
            for built in (tables._start, tables._rest)
            for per_square in built
            if per_square is not None
            for layer in per_square[1:]
        )

    for s in _walkable(m):
        tables.start(s)
        tables.rest(s)
    full = size()
    # Every simple path of 1..6 steps from every square, once: fixed by the board, not by play.
    assert 10_000 < full < 200_000
    rng = random.Random(1)
    s = a.new_initial_state(seed=1)
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_action(rng.choices([x for x, _ in outcomes], [q for _, q in outcomes])[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    assert size() == full
