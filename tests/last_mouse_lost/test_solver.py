"""The solver against exhaustive search.

Exhaustive search here knows nothing of nim-sums: it expands every move. It works on the
multiset of heap sizes (basic: raised mice per row; advanced: lengths of runs of raised
mice), and `test_abstraction_matches_the_game` checks, against the game's own move
generator, that this multiset is all a position's outcome can depend on.
"""

from functools import cache
from itertools import combinations_with_replacement, product

import pytest

import trapworks
from trapworks.games.last_mouse_lost import solve, solve_position
from trapworks.games.last_mouse_lost.game import runs_of
from trapworks.games.last_mouse_lost.solver import mover_wins as solver_rule


def successors(heaps: tuple[int, ...], rules: str):
    for i, n in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1 :]
        if rules == "basic":
            for left in range(n):
                yield tuple(sorted(rest + ((left,) if left else ())))
        else:  # press a run of length >= 1 inside a run of n: a mice stay left, b right
            for a in range(n):
                for b in range(n - a):
                    kept = tuple(x for x in (a, b) if x)
                    yield tuple(sorted(rest + kept))


@cache
def mover_wins(heaps: tuple[int, ...], rules: str) -> bool:
    """Exhaustive misère search: the player to move wins if some move leaves a lost position.
    No heaps left means the previous player pressed the last mouse: the mover has won."""
    if not heaps:
        return True
    return any(not mover_wins(nxt, rules) for nxt in successors(heaps, rules))


@cache  # a pure function of a row, asked millions of times for the same few hundred rows
def heaps_of_row(mask: int, length: int, rules: str) -> tuple[int, ...]:
    if rules == "basic":
        return (bin(mask).count("1"),) if mask else ()
    return tuple(n for _, n in runs_of(mask, length))


def row_text(mask: int, length: int) -> str:
    return "".join("o" if mask >> i & 1 else "." for i in range(length))


def check(state, rules):
    """The solver's outcome equals exhaustive search, and its move leaves a lost position."""
    game = state.game
    heaps = tuple(
        sorted(h for m, n in zip(state.rows, game.board, strict=True) for h in heaps_of_row(m, n, rules))
    )
    solution = solve(state)
    assert solution.outcome == ("win" if mover_wins(heaps, rules) else "loss"), state.position()
    if solution.outcome == "win":
        after = state.clone()
        after.apply_action(state.string_to_action(solution.move))
        if after.round_number() == state.round_number():  # the round goes on: opponent must be lost
            left = tuple(
                sorted(
                    h for m, n in zip(after.rows, game.board, strict=True) for h in heaps_of_row(m, n, rules)
                )
            )
            assert not mover_wins(left, rules), (state.position(), solution.move)
        else:  # the move ended the round: it must not have been ours to lose
            assert after.last_round["winner"] == state.current_player()
    else:
        assert solution.move is None


class Checker:
    """Checks many positions: the solver's rule against exhaustive search on every one, and the
    full solver (real state, `solve()`, its move played and verified) once per distinct heap
    multiset (what the abstraction test shows is all that the outcome depends on)."""

    def __init__(self, game, rules):
        self.game, self.rules = game, rules
        self.seen = set()
        self.positions = 0

    def __call__(self, masks):
        board = self.game.board
        heaps = tuple(
            sorted(h for m, n in zip(masks, board, strict=True) for h in heaps_of_row(m, n, self.rules))
        )
        assert solver_rule(list(heaps)) == mover_wins(heaps, self.rules), heaps
        self.positions += 1
        if heaps not in self.seen:
            self.seen.add(heaps)
            check(
                self.game.state_from_position(
                    "/".join(row_text(m, n) for m, n in zip(masks, board, strict=True))
                ),
                self.rules,
            )


@pytest.mark.parametrize("rules", ["basic", "advanced"])
def test_abstraction_matches_the_game(rules):
    """For every row of up to 7 mice and every set of raised mice, the game's own legal moves
    lead exactly to the heap multisets that `successors` generates."""
    for length in range(1, 8):
        game = trapworks.make("last-mouse-lost", rules=rules, board=[length])
        for mask in range(1, 1 << length):
            state = game.state_from_position(row_text(mask, length))
            got = set()
            for a in state.legal_actions():
                after = state.clone()
                after.apply_action(a)
                # A move that empties the board ends the round and refills it: count it as ().
                rows = after.rows if after.round_number() == 1 else [0]
                got.add(tuple(sorted(heaps_of_row(rows[0], length, rules))))
            assert got == set(successors(heaps_of_row(mask, length, rules), rules)), (rules, length, mask)


def test_every_standard_board_position_basic():
    game = trapworks.make("last-mouse-lost")
    board = game.board
    count = 0
    for counts in product(*(range(n + 1) for n in board)):
        if not any(counts):
            continue
        rows = "/".join("o" * c + "." * (n - c) for c, n in zip(counts, board, strict=True))
        check(game.state_from_position(rows), "basic")
        count += 1
    assert count == 4 * 6 * 7 * 7 * 6 * 4 - 1


def test_every_standard_board_position_advanced():
    """Every one of the 2**28 raised/pressed patterns, grouped by what the rules can see of each
    row (its runs): every combination of row patterns is checked."""
    game = trapworks.make("last-mouse-lost", rules="advanced")
    per_row = []
    for n in game.board:
        classes = {}
        for mask in range(1 << n):
            classes.setdefault(heaps_of_row(mask, n, "advanced"), mask)
        per_row.append(list(classes.values()))
    checker = Checker(game, "advanced")
    for masks in product(*per_row):
        if any(masks):
            checker(masks)
    assert checker.positions > 100_000 and len(checker.seen) > 1_000


def test_every_board_up_to_5_rows_of_7_basic():
    """Every position on every board of 1-5 rows of 1-7 mice: in basic rules a position is its
    counts, so all count vectors in [0..7]^k (k <= 5), each on its smallest board."""
    games = {}
    for k in range(1, 6):
        for counts in product(range(8), repeat=k):
            if not any(counts):
                continue
            board = tuple(max(1, c) for c in counts)
            if board not in games:
                games[board] = Checker(trapworks.make("last-mouse-lost", board=list(board)), "basic")
            games[board]([(1 << c) - 1 for c in counts])


def test_every_board_up_to_5_rows_of_7_advanced():
    """Advanced rules: every combination of 1-5 rows, each any pattern of a row of 1-7 mice
    (grouped by the row's runs, the only thing the rules see)."""
    patterns = {}
    for length in range(1, 8):
        for mask in range(1 << length):
            patterns.setdefault(heaps_of_row(mask, length, "advanced"), (mask, length))
    rows = list(patterns.values())
    seen = set()
    for k in range(1, 6):
        for combo in combinations_with_replacement(rows, k):
            masks = [m for m, _ in combo]
            if not any(masks):
                continue
            board = [n for _, n in combo]
            heaps = tuple(sorted(h for m, n in combo for h in heaps_of_row(m, n, "advanced")))
            assert solver_rule(list(heaps)) == mover_wins(heaps, "advanced"), heaps
            if heaps not in seen:
                seen.add(heaps)
                game = trapworks.make("last-mouse-lost", rules="advanced", board=board)
                check(game.state_from_position("/".join(row_text(m, n) for m, n in combo)), "advanced")


def test_exhaustive_on_real_states_small_boards():
    """No abstraction at all: plain game-tree search on the game's own states."""

    def wins(state, memo):
        key = tuple(state.rows)
        if key not in memo:
            memo[key] = False
            for a in state.legal_actions():
                nxt = state.clone()
                nxt.apply_action(a)
                if nxt.round_number() != state.round_number() or not wins(nxt, memo):
                    # pressing the last mouse ends the round: only a win if it is not our loss
                    if (
                        nxt.round_number() != state.round_number()
                        and nxt.last_round["loser"] == state.to_move
                    ):
                        continue
                    memo[key] = True
                    break
        return memo[key]

    for rules in ("basic", "advanced"):
        for board in ([3, 4], [1, 2, 3], [2, 2, 2, 2], [5, 3], [6]):
            game = trapworks.make("last-mouse-lost", rules=rules, board=board)
            memo = {}
            for masks in product(*(range(1 << n) for n in board)):
                if not any(masks):
                    continue
                state = game.state_from_position(
                    "/".join(row_text(m, n) for m, n in zip(masks, board, strict=True))
                )
                assert (solve(state).outcome == "win") == wins(state, memo), (rules, state.position())


def test_solve_position_reads_the_board_from_the_text():
    assert solve_position("ooo/ooooo/oooooo/oooooo/ooooo/ooo").outcome == "loss"
    s = solve_position("oooo", rules="advanced")
    assert s.outcome == "win" and s.move in {"a2-4", "a1-3"}
    assert (
        "nim-sum" in solve_position("ooo/oo").explanation or "single" in solve_position("ooo/oo").explanation
    )
