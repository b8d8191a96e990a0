"""Rule variants of Mouse Trap's heuristic, each in one seat against heuristics, on the same games.

Every variant plays the same seeded games (seat rotated game by game, the same dice for game i),
so its difference from the heuristic itself (the first row) is a paired comparison with little
noise. Variants: double-catch (pay for a second mouse before cranking), with a cheese reserve of
1 or 2 kept back from it, with other targets for paying (the poorest, the next or the previous
player in turn order, instead of the richest), and paying for mice 7+ spaces away too.

    python bench/mouse_trap_policy_variants.py PLAYERS GAMES [VARIANT]
"""

import math
import random
import sys
import time

import trapworks
from trapworks.core import CHANCE, sample_chance
from trapworks.games.mouse_trap.agents import HeuristicAgent, distance_to_wheel
from trapworks.games.mouse_trap.game import CRANK, END, MOVE_BASE, P_CRANK


class Variant(HeuristicAgent):
    double = True  # pay for another mouse while one is on the Cheese Wheel (000 allows it)
    reserve = 0  # cheese kept back from such payments
    target = "richest"
    far = False  # also pay for mice 7+ spaces from the Wheel

    def pick_target(self, state, cands):
        me, n = state.to_move, state.game.players
        if self.target == "richest":
            return max(cands, key=lambda a: (state.cheese[a - MOVE_BASE], -a))
        if self.target == "poorest":
            return min(cands, key=lambda a: (state.cheese[a - MOVE_BASE], a))
        if self.target == "next":
            return min(cands, key=lambda a: (a - MOVE_BASE - me) % n)
        return max(cands, key=lambda a: (a - MOVE_BASE - me) % n)  # "prev"

    def choose(self, state):
        legal = state.legal_actions()
        if state.phase == P_CRANK and len(legal) > 1:
            moves = [a for a in legal if MOVE_BASE <= a < MOVE_BASE + 4]
            reach = [a for a in moves if 1 <= distance_to_wheel(state.mice[a - MOVE_BASE]) <= 6]
            if CRANK in legal:
                if self.double and reach and state.cheese[state.to_move] > self.reserve:
                    return self.pick_target(state, reach), ""
                return CRANK, ""
            if reach:
                return self.pick_target(state, reach), ""
            if self.far and moves:
                return self.pick_target(state, moves), ""
            return END, ""
        return super().choose(state)


def make(**kw):
    return type("V", (Variant,), kw)


def match(players, cls, n, seed=0, variant="milton-bradley"):
    game = trapworks.make("mouse-trap", players=players, variant=variant)
    wins = []
    for i in range(n):
        seat = i % players
        agents = [HeuristicAgent(game, s, seed=s) for s in range(players)]
        agents[seat] = cls(game, seat, seed=seat)
        st = game.new_initial_state(seed=i)
        rng = random.Random(seed * 1000003 + i)
        while not st.is_terminal():
            p = st.current_player()
            st.apply_action(sample_chance(st, rng) if p == CHANCE else agents[p].step(st))
        wins.append(int(st.winner == seat))
    return wins


if __name__ == "__main__":
    players, n = int(sys.argv[1]), int(sys.argv[2])
    variant = sys.argv[3] if len(sys.argv) > 3 else "milton-bradley"
    configs = {
        "heuristic (as a variant)": make(double=False),
        "double-catch": make(),
        "double r1": make(reserve=1),
        "double r2": make(reserve=2),
        "double poorest": make(target="poorest"),
        "double next": make(target="next"),
        "double prev": make(target="prev"),
        "double far": make(far=True),
    }
    base = None
    for name, cls in configs.items():
        t = time.time()
        v = match(players, cls, n, variant=variant)
        w = sum(v) / n
        se = math.sqrt(w * (1 - w) / n)
        if base is None:
            base = v
        d = [a - b for a, b in zip(v, base, strict=True)]
        md = sum(d) / n
        sd = math.sqrt(sum((x - md) ** 2 for x in d) / (n - 1) / n) if n > 1 else 0
        print(
            f"{players}p {variant} {name}: win share {w:.4f} ± {1.96 * se:.4f}; minus the heuristic's "
            f"{md:+.4f} ± {1.96 * sd:.4f} (95%, paired; {time.time() - t:.0f} s)",
            flush=True,
        )
