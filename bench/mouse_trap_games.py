"""Complete random 4-player Mouse Trap games per second, on one core.

No other implementation of Mouse Trap is published (OpenSpiel has none), so the peer is a
plain-Python reference written here: the same rules (milton-bradley defaults, default trap odds,
random decisions), as straight-line code with no kernel: no validation of actions, no events, no
notation, no views. It is the floor of what Python can do, and shows what the kernel costs.

Contenders, all in this one run, in alternating blocks (the median over blocks is reported):
  1. trapworks kernel loop: `legal_actions()` / `apply_action()`, chance by `sample_chance`.
  2. `trapworks.sim.play_one`: what `trapworks simulate` runs per game (RandomAgent per seat).
  3. the plain-Python reference below.
  4. floor: the kernel loop over a state whose methods do no work, replaying the sequence of
     chance nodes and decisions (with their legal lists) of real games: what the loop, the
     random draws and the method calls cost before any rule is carried out.

    python bench/mouse_trap_games.py [--seconds 3] [--blocks 5]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

import trapworks
from trapworks.core import sample_chance
from trapworks.games.mouse_trap.data import DEFAULT_STAGE_ODDS, SPACES
from trapworks.games.mouse_trap.game import _DIE_TABLE
from trapworks.sim import play_one

# What a block's seconds are: wall-clock time (default), or this process's CPU time (--clock cpu:
# on a machine shared with other jobs, the time the scheduler gave to other processes is not
# counted against the contender that happened to be running).
CLOCK = time.perf_counter

PLAYERS = 4


def kernel_game(game, rng: random.Random) -> int:
    state = game.new_initial_state()
    choice = rng.choice
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(choice(state.legal_actions()))
    return state.turn


class _Floor:
    """A state that does no rule work: it replays a real game's sequence of chance nodes and
    decisions (the decisions' legal lists included); its chance nodes are dice."""

    __slots__ = ("steps", "i", "turn")

    def __init__(self, steps: list[list[int] | None], turn: int) -> None:
        self.steps, self.i, self.turn = steps, 0, turn

    def is_terminal(self) -> bool:
        return self.i == len(self.steps)

    def is_chance_node(self) -> bool:
        return self.steps[self.i] is None

    def legal_actions(self) -> list[int]:
        return self.steps[self.i][:]

    def chance_table(self):
        return _DIE_TABLE

    def apply_action(self, action: int) -> None:
        self.i += 1


def record_games(game, n: int) -> list[tuple[list[list[int] | None], int]]:
    """The chance/decision sequences of `n` random kernel games (what the floor replays)."""
    out = []
    for seed in range(n):
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps: list[list[int] | None] = []
        while not state.is_terminal():
            if state.is_chance_node():
                steps.append(None)
                state.apply_action(sample_chance(state, rng))
            else:
                legal = state.legal_actions()
                steps.append(legal)
                state.apply_action(rng.choice(legal))
        out.append((steps, state.turn))
    return out


def make_floor_game(recorded):
    played = [0]

    def floor_game(_game, rng: random.Random) -> int:
        steps, turn = recorded[played[0] % len(recorded)]
        played[0] += 1
        state = _Floor(steps, turn)
        choice = rng.choice
        while not state.is_terminal():  # the kernel loop, as in kernel_game
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(choice(state.legal_actions()))
        return state.turn

    return floor_game


def sim_game(game, rng: random.Random) -> int:
    r = play_one("mouse-trap", {"players": PLAYERS}, ["random"] * PLAYERS, rng.randrange(2**63))
    return r.decisions


def reference_game(_game, rng: random.Random) -> int:
    """Mouse Trap (000 rules, with the review's build decision and crank requirement) for random
    players, without the kernel. Returns the turns played."""
    n, supply = PLAYERS, 30
    mice = [0] * n
    cheese = [0] * n
    pile = supply
    parts = 0
    me = 0
    turn = 1
    rand = rng.random
    randint = rng.randint

    def take(k):
        nonlocal pile
        got = min(k, pile)
        pile -= got
        cheese[me] += got
        owed = k - got
        if owed:
            rivals = [s for s in range(n) if s != me and mice[s] is not None and mice[s] != 44 and cheese[s]]
            if rivals:
                most = max(cheese[s] for s in rivals)
                group = [s for s in rivals if cheese[s] == most]
                while owed and group:  # a random split of a tie
                    s = rng.choice(group)
                    cheese[s] -= 1
                    cheese[me] += 1
                    owed -= 1
                    group = [g for g in group if cheese[g]]

    def adv(p, d):
        p += d
        return 44 + (p - 44) % 6 if p >= 44 else p

    while True:
        pos = adv(mice[me], randint(1, 6))
        mice[me] = pos
        sp = SPACES[pos]
        kind = sp["kind"]
        if kind in ("build", "loop_build"):
            # 000 "you may build one piece" (build_optional): a random player builds or ends
            # the turn, as the kernel lists the two.
            if n in sp["players"] and parts < 24 and rand() < 0.5:
                k = min(sp.get("parts", 1), 24 - parts)
                parts += k
                take(k)
        elif kind in ("take", "cheese_wheel"):
            take(sp["amount"])
        elif kind == "lose":
            k = min(sp["amount"], cheese[me])
            cheese[me] -= k
            pile += k
        elif kind == "steal_most":
            rivals = [s for s in range(n) if s != me and mice[s] is not None and mice[s] != 44]
            most = max((cheese[s] for s in rivals), default=0)
            if most:
                s = rng.choice([s for s in rivals if cheese[s] == most])
                k = min(3, cheese[s])
                cheese[s] -= k
                cheese[me] += k
        elif kind == "go_back":
            mice[me] = max(0, pos - sp["amount"])
        elif kind == "move_ahead":
            mice[me] = adv(pos, sp["amount"])
        elif kind == "go_to":
            mice[me] = sp["target"]
        elif kind == "turn_crank" and parts == 24:
            while True:  # random decisions among crank / pay for a mouse / end, as the kernel lists them
                wheel = [s for s in range(n) if s != me and mice[s] == 49]
                movable = [s for s in range(n) if s != me and mice[s] not in (None, 44, 49)]
                # 000 "turn the crank" (crank_required): no ending the turn while it can be cranked.
                options = (
                    (["crank"] if wheel else [])
                    + (movable if cheese[me] else [])
                    + ([] if wheel else ["end"])
                )
                pick = rng.choice(options)
                if pick == "end":
                    break
                if pick == "crank":
                    if all(rand() < p for p in DEFAULT_STAGE_ODDS):
                        for s in wheel:
                            cheese[me] += cheese[s]
                            cheese[s] = 0
                            mice[s] = None
                    else:
                        for s in wheel:
                            mice[s] = 44
                    break
                cheese[me] -= 1
                pile += 1
                mice[pick] = adv(mice[pick], randint(1, 6))
                if not cheese[me] and not [s for s in range(n) if s != me and mice[s] == 49]:
                    break
        alive = [s for s in range(n) if mice[s] is not None]
        if len(alive) == 1 or turn >= 1000:
            return turn
        me = (me + 1) % n
        while mice[me] is None:
            me = (me + 1) % n
        turn += 1


def block(fn, game, seconds: float, rng: random.Random) -> tuple[int, int, float]:
    games = total = 0
    start = CLOCK()
    while True:
        total += fn(game, rng)
        games += 1
        if CLOCK() - start >= seconds:
            break
    return games, total, CLOCK() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per block and contender")
    parser.add_argument("--blocks", type=int, default=5, help="alternating blocks per contender")
    parser.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall", help="time blocks by wall clock or CPU time"
    )
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter

    game = trapworks.make("mouse-trap", players=PLAYERS)
    floor_game = make_floor_game(record_games(game, 200))
    contenders = {
        "trapworks kernel loop (legal_actions/apply_action)": (kernel_game, "turns"),
        "trapworks.sim.play_one (the `simulate` path)": (sim_game, "decisions"),
        "plain-Python reference, no kernel (bench only)": (reference_game, "turns"),
        "floor: the kernel loop over a state that does no work": (floor_game, "turns"),
    }
    rates: dict[str, list[float]] = {k: [] for k in contenders}
    lengths: dict[str, list[float]] = {k: [] for k in contenders}
    rng = random.Random(2024)
    for _ in range(args.blocks):
        for name, (fn, _) in contenders.items():
            g, total, dt = block(fn, game, args.seconds, rng)
            rates[name].append(g / dt)
            lengths[name].append(total / g)
    print(
        f"python {platform.python_version()}, {platform.machine()}, 4 players, variant milton-bradley, "
        f"default trap odds, random decisions; {args.blocks} blocks x {args.seconds}s ({args.clock} clock) "
        "per contender, "
        "one process (one core)"
    )
    print("| implementation | games/s (median) | min–max over blocks | mean length per game |")
    print("|---|---:|---:|---:|")
    for name, (_, unit) in contenders.items():
        med = statistics.median(rates[name])
        print(
            f"| {name} | {med:,.1f} | {min(rates[name]):,.1f}–{max(rates[name]):,.1f} | "
            f"{statistics.mean(lengths[name]):,.1f} {unit} |"
        )
    names = list(contenders)
    per_turn = {k: statistics.median(rates[k]) * statistics.mean(lengths[k]) for k in names}
    print(
        "\nkernel loop / reference: "
        f"{statistics.median(rates[names[0]]) / statistics.median(rates[names[2]]):.2f}"
        f" (turns/s: {per_turn[names[0]] / per_turn[names[2]]:.2f})"
    )
    print(f"floor / reference (turns/s): {per_turn[names[3]] / per_turn[names[2]]:.2f}")


if __name__ == "__main__":
    main()
