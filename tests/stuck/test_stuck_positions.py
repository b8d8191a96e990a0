"""The stuck-position guard (issue 36): no position a game can reach is one from which it cannot end
by play. All four games and their variants.

What "stuck" means here: the game is not over, and no play from the position ends it: every one of
PLAYOUTS random playouts from it (players uniform over their legal actions, chance by its odds)
runs BUDGET actions without reaching the end (the turn limit is raised far past BUDGET, so a
truncation never counts as an end). 13 Dead End Drive's opening deadlock (issue 36) is such a
position: every turn forfeits its dice and nothing ever changes again; the guard finds it under the
old rule (test_the_guard_finds_the_issues_deadlock_under_the_old_rule), so it is not a check that
cannot fail.

Where the positions come from: TARGETED play, not only random play. Random play almost never
reaches the rare corners (0 deadlocks in 2,000 random Dead End Drive openings), so two searches
push the game towards as little freedom as it allows, from seeded starts:

1. Beam search over positions, minimising mobility: from the start, every beam position is
   expanded by up to BRANCH of its player actions (chance nodes resolved by their odds from a seeded
   stream), each child scored by `mobility` and the BEAM least mobile distinct positions kept, for
   DEPTH steps; every position the beam holds at a checkpoint is checked. Mobility is the number of
   legal actions at the next decision; in 13 Dead End Drive's opening it is `_boxed_in`: the ways
   out of the least free pawn on the Red Chairs (free squares next to its block of chairs), then
   the chair pawns' moves over all six die values.
2. A greedy adversary playing every seat: each decision takes the action whose result is least
   mobile (ties broken by a seeded stream); in 13 Dead End Drive a whole move at once (the pawn and
   its square), which is how the issue's deadlock was built by hand: park the pawns that have moved
   on the ways out of the chairs. Positions along its game are checked every few decisions. Under
   the old rule it reaches the deadlock from seed 6 within 30 decisions.

The fast variant keeps every game's share to a few seconds (the module about 40 s on a busy
2-core machine); the `slow` one widens the beams, adds seeds and goes deeper (`-m slow`).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import trapworks
from trapworks.core import TrapworksError, sample_chance

# Actions a playout may take to end the game (random 2-player Dead End Drive games run to 5,000
# and more), and playouts per position.
BUDGET = {"dead-end-drive": 15_000, "mouse-trap": 20_000}
DEFAULT_BUDGET = 4000
PLAYOUTS = 3
# Games whose positions `can_end` first plays out with their heuristic (`_heuristic_ends`): 13 Dead
# End Drive's random games are ~15 times as long as its heuristic ones. Measured, the other games
# gain nothing (their random playouts are short) and Last Mouse Lost's heuristic costs more.
HEURISTIC_FIRST = {"dead-end-drive"}

# (game id, options): every game and every variant of it. The turn limit is raised out of the way.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("last-mouse-lost", {"rules": "basic"}),
    ("last-mouse-lost", {"rules": "advanced", "first_to": 2, "opener": "loser"}),
    ("booby-trap", {"players": 2, "pieces_per_size": 3}),
    ("booby-trap", {"variant": "solitaire", "players": 1, "pieces_per_size": 3}),
    ("booby-trap", {"variant": "sizes-in-order", "players": 3, "pieces_per_size": 3}),
    ("booby-trap", {"variant": "no-passes", "players": 2, "pieces_per_size": 3}),
    ("mouse-trap", {"variant": "milton-bradley", "players": 2, "turn_limit": None}),
    ("mouse-trap", {"variant": "original", "players": 3, "turn_limit": None}),
    (
        "mouse-trap",
        {"variant": "milton-bradley", "players": 4, "paid_move_follows": False, "turn_limit": None},
    ),
    ("dead-end-drive", {"players": 4, "turn_limit": 100_000}),
    ("dead-end-drive", {"players": 2, "blocked_die": "lose-turn", "turn_limit": 100_000}),
    ("dead-end-drive", {"players": 3, "passage_hops": 0, "turn_limit": 100_000}),
]


def _resolve_chance(state, rng: random.Random) -> None:
    while state.is_chance_node() and not state.is_terminal():
        state.apply_action(sample_chance(state, rng))


def _boxed_in(state) -> int:
    """13 Dead End Drive's opening: how many ways out the least free pawn on a Red Chair has, then
    how many moves the chair pawns have now. A way out is a free square (not a chair) next to the
    block of chairs the pawn sits in (Figure 8 lets it cross chairs only towards one); the issue's
    deadlock is the last chair pawn with none, boxed in by pawns that have moved, while rule 2
    holds every other pawn back. Parking moved pawns on the ways out lowers it step by step."""
    m = state.game.mansion
    occupied = {sq for sq in state.pos if sq >= 0}
    on_chairs = [p for p, sq in enumerate(state.pos) if sq >= 0 and m.chairs >> sq & 1]
    if not on_chairs:
        return 1 << 20
    now = sum(state.can_move(p, c) for p in on_chairs for c in range(1, 7))
    exits = []
    for p in on_chairs:
        block, todo, out = {state.pos[p]}, [state.pos[p]], set()
        while todo:
            sq = todo.pop()
            for nb in m.neighbours[sq]:
                if m.chairs >> nb & 1:
                    if nb not in block:
                        block.add(nb)
                        todo.append(nb)
                elif nb not in occupied:
                    out.add(nb)
        exits.append(len(out))
    return min(exits) * 100 + now


def mobility(state) -> int:
    """How much freedom the next decision has (lower: closer to stuck)."""
    if state.is_terminal():
        return 1 << 30  # an ended game is the opposite of stuck
    if state.game.game_id == "dead-end-drive" and state.opening:
        return _boxed_in(state)
    return len(state.legal_actions())


def _heuristic_ends(state, seed: int, budget: int) -> bool:
    """Whether the game's heuristic agent at every seat (chance by its odds) plays `state` to a
    real end within `budget` actions. Any legal play that ends the game shows the position is not
    stuck, and the heuristic plays to win: 13 Dead End Drive's heuristic games end in about 200
    actions, its random ones in about 3,000 (0.02-0.03 against 0.10-0.15 CPU s a game), so it is
    tried first; the random playouts, unchanged, decide where it does not end."""
    from trapworks.agents import make_agent

    game = state.game
    try:
        seats = [make_agent("heuristic", game, p, seed=seed, timed=False) for p in range(game.num_players())]
    except TrapworksError:  # a game without a heuristic: the random playouts alone, as before
        return False
    rng = random.Random(seed)
    s = state.clone()
    for _ in range(budget):
        if s.is_terminal():
            break
        s.apply_action(sample_chance(s, rng) if s.is_chance_node() else seats[s.current_player()].step(s))
    return s.is_terminal() and not s.is_truncated()


def can_end(state, seed: int) -> bool:
    """Whether some play from `state` ends the game: a playout by the game's heuristic, else
    PLAYOUTS random playouts of BUDGET actions (the same ones as before the heuristic was tried
    first). A stuck position is caught as before: no play from it ends, the heuristic's neither
    (test_the_guard_finds_the_issues_deadlock_under_the_old_rule); where the heuristic ends the
    game, that play shows the position can end, and the random playouts' cost is spared."""
    budget = BUDGET.get(state.game.game_id, DEFAULT_BUDGET)
    if state.game.game_id in HEURISTIC_FIRST and _heuristic_ends(state, seed, budget):
        return True
    rng = random.Random(seed)
    for _ in range(PLAYOUTS):
        s = state.clone()
        for _ in range(budget):
            if s.is_terminal():
                break
            s.apply_action(sample_chance(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
        if s.is_terminal() and not s.is_truncated():
            return True
    return False


class Lineage:
    """Which position the searches reached from which. A position from which the game is seen to
    end, by a playout from it or by the searches' own play, shows that the game can end by play
    from every position it was reached from (the play that reached it, then its end): no playout
    is needed there. A stuck position stays caught: nothing reached from it can end either, so
    the last position checked on its line fails as it did. (The same positions are checked as
    before; about 80% of their playouts were this repetition, 13 Dead End Drive's long ones.)"""

    def __init__(self) -> None:
        self.parent: dict[int, tuple[Any, Any]] = {}  # id -> (state, parent); holds both alive
        self.ended: list[Any] = []  # states the searches played to a real end (no truncation)

    def link(self, child, parent) -> None:
        self.parent[id(child)] = (child, parent)
        if child.is_terminal() and not child.is_truncated():
            self.ended.append(child)

    def line(self, state) -> list:
        """The state and every state it was reached from."""
        out = []
        while state is not None:
            out.append(state)
            state = self.parent.get(id(state), (None, None))[1]
        return out


def beam_positions(
    game, seed: int, beam: int, branch: int, depth: int, every: int, lineage: Lineage | None = None
) -> list:
    """Beam search from the start, keeping the least mobile distinct positions; the beam at every
    `every`-th step (each kept position's parent in `lineage`)."""
    rng = random.Random(seed)
    start = game.new_initial_state(seed=seed)
    _resolve_chance(start, rng)
    frontier = [start]
    out: list = []
    last: list = []  # the last beam with a game still going (a short game ends before a checkpoint)
    for step in range(1, depth + 1):
        children = []
        for s in frontier:
            if s.is_terminal():
                continue
            actions = s.legal_actions()
            for a in rng.sample(actions, min(branch, len(actions))):
                c = s.clone()
                c.apply_action(a)
                _resolve_chance(c, rng)
                children.append((mobility(c), rng.random(), c, s))
        if not children:
            break
        children.sort(key=lambda t: (t[0], t[1]))
        seen: set[str] = set()
        frontier = []
        for _m, _r, c, parent in children:
            key = c.position() if hasattr(c, "position") else repr(c)
            if key not in seen:
                seen.add(key)
                frontier.append(c)
                if lineage is not None:
                    lineage.link(c, parent)
            if len(frontier) == beam:
                break
        going = [s for s in frontier if not s.is_terminal()]
        last = going or last
        if step % every == 0:
            out.extend(going)
    return out or last


def _after(state, action: int, rng: random.Random):
    """The state after `action`, chance nodes after it resolved by their odds."""
    c = state.clone()
    c.apply_action(action)
    _resolve_chance(c, rng)
    return c


def _greedy_step(state, rng: random.Random) -> None:
    """The least mobile action (13 Dead End Drive: the least mobile whole move, pawn and square)."""
    best: list[int] = []
    best_score = None
    for a in state.legal_actions():
        c = _after(state, a, rng)
        if state.game.game_id == "dead-end-drive" and not c.is_terminal() and c.phase == "dest":
            score = min(mobility(_after(c, d, rng)) for d in c.legal_actions())
        else:
            score = mobility(c)
        if best_score is None or score < best_score:
            best, best_score = [a], score
        elif score == best_score:
            best.append(a)
    state.apply_action(rng.choice(best))


def greedy_positions(game, seed: int, decisions: int, every: int, lineage: Lineage | None = None) -> list:
    """The adversary's game; its position every `every`-th decision (each reached from the one
    before, and its end if it ended, in `lineage`)."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed=seed)
    out = []
    for i in range(decisions):
        _resolve_chance(s, rng)
        if s.is_terminal():
            break
        _greedy_step(s, rng)
        if i % every == every - 1 and not s.is_terminal():
            if lineage is not None:
                lineage.link(s_copy := s.clone(), out[-1] if out else None)
                out.append(s_copy)
            else:
                out.append(s.clone())
    if lineage is not None and out:
        lineage.link(s.clone(), out[-1])  # where the game stopped: its end, if it ended
    return out


def _check(game, positions: list, seed: int, lineage: Lineage | None = None) -> None:
    """Every position can end by play: seen to (Lineage), else one of its random playouts ends.
    The last positions first, so that one playout speaks for the line it was reached by."""
    lineage = lineage or Lineage()
    ends = {id(s) for end in lineage.ended for s in lineage.line(end)}
    for i in reversed(range(len(positions))):
        s = positions[i]
        if id(s) in ends:
            continue
        assert can_end(s, seed * 1000 + i), (
            f"{game.game_id} {game.options}: stuck position (no random playout ends it): "
            f"{s.position() if hasattr(s, 'position') else s}"
        )
        ends.update(id(t) for t in lineage.line(s))


# (beam, branch, depth, beam_every) for the beam; (decisions, greedy_every) for the adversary.
SIZES: dict[str, dict[str, int]] = {
    "fast": dict(beam=3, branch=4, depth=30, beam_every=15, decisions=60, greedy_every=20, seeds=1),
    "slow": dict(beam=8, branch=8, depth=120, beam_every=10, decisions=300, greedy_every=10, seeds=4),
}
# Per game, factors on those: Mouse Trap's corners (the trap complete, mice on Safe and in the
# Loop, the pile empty) lie hundreds of actions deep and its actions are cheap, so it goes deeper;
# 13 Dead End Drive's risk is the opening (about 30 decisions) and its playouts are long, so it
# checks fewer positions.
FACTORS: dict[str, dict[str, float]] = {
    "mouse-trap": {"depth": 10, "beam_every": 10, "decisions": 8, "greedy_every": 8},
    "dead-end-drive": {"beam_every": 2, "decisions": 0.5, "greedy_every": 0.5},
}


def _guard(game_id: str, options: dict[str, Any], size: str) -> None:
    z = dict(SIZES[size])
    for key, factor in FACTORS.get(game_id, {}).items():
        z[key] = max(1, int(z[key] * factor))
    game = trapworks.make(game_id, **options)
    for seed in range(z["seeds"]):
        lineage = Lineage()
        beam = beam_positions(game, seed, z["beam"], z["branch"], z["depth"], z["beam_every"], lineage)
        greedy = greedy_positions(game, seed, z["decisions"], z["greedy_every"], lineage)
        assert beam or greedy, "the search reached no position to check"
        _check(game, beam + greedy, seed, lineage)


@pytest.mark.parametrize("game_id,options", CONFIGS, ids=[f"{g}-{i}" for i, (g, _) in enumerate(CONFIGS)])
def test_no_targeted_position_is_stuck(game_id, options):
    _guard(game_id, options, "fast")


@pytest.mark.slow
@pytest.mark.parametrize("game_id,options", CONFIGS, ids=[f"{g}-{i}" for i, (g, _) in enumerate(CONFIGS)])
def test_no_targeted_position_is_stuck_exhaustive(game_id, options):
    _guard(game_id, options, "slow")


def test_the_guard_finds_the_issues_deadlock_under_the_old_rule(monkeypatch):
    """With rule 2 read literally again (no die lifted), the greedy adversary boxes a chair pawn in
    within its first moves and the playout check calls the position stuck: the search and the check
    together catch the bug issue 36 reported (random play never did: 0 in 2,000 openings)."""
    from trapworks.games.dead_end_drive.game import DeadEndDriveState

    monkeypatch.setattr(DeadEndDriveState, "freed_pawns", lambda self: [])
    monkeypatch.setitem(BUDGET, "dead-end-drive", 3000)  # a deadlock never ends: no need for more
    game = trapworks.make("dead-end-drive", players=4, turn_limit=100_000)
    lineage = Lineage()
    positions = greedy_positions(game, seed=6, decisions=30, every=1, lineage=lineage)
    boxed = [s for s in positions if s.opening and _boxed_in(s) == 0]
    assert boxed, "the adversary boxed no chair pawn in"
    assert not can_end(boxed[0], seed=0)
    # The guard's check, which lets one playout speak for the positions a line was reached
    # from, still calls the line stuck.
    with pytest.raises(AssertionError, match="stuck position"):
        _check(game, positions, 6, lineage)


def test_the_heuristic_playout_ends_the_games_where_they_can_end():
    """The heuristic's playout, tried first by `can_end` in 13 Dead End Drive, ends each of its
    configurations from the start (so it spares the random playouts there)."""
    for game_id, options in CONFIGS:
        if game_id not in HEURISTIC_FIRST:
            continue
        game = trapworks.make(game_id, **options)
        state = game.new_initial_state(seed=3)
        _resolve_chance(state, random.Random(3))
        assert _heuristic_ends(state, 3, BUDGET.get(game_id, DEFAULT_BUDGET)), (game_id, options)
