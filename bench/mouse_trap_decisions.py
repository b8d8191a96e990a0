"""Where does Mouse Trap's heuristic leave value on the table? Precise action values at real decisions.

Games are played heuristic against heuristic (or `--agent`, e.g. double-catch); at every decision
with more than one legal action
each action is valued by `--rollouts` rollouts (every seat then plays that agent), with common
random numbers: rollout i of every action uses the same seed, so the paired differences against
the heuristic's own choice are measured with little noise (the rollout agent's
`evaluate_actions`, src/trapworks/agents/rollout.py). Values are in win probability for the seat
to move (a return r becomes (r*(P-1) + 1)/P). For each kind of decision it prints how often an
action beat the heuristic's by more than 2 standard errors, and the mean gain per decision and
per game if the best action had been played (an upper estimate of what one step of policy
improvement can win).

    python bench/mouse_trap_decisions.py --games 30 --rollouts 300 [--players 2] [--variant original]
        [--jsonl out.jsonl]
    python bench/mouse_trap_decisions.py --players 3 --rollouts 3000 --position "mice=48,49,46 ..."
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import defaultdict

import trapworks
from trapworks.agents import make_agent
from trapworks.agents.rollout import RolloutAgent, paired_difference
from trapworks.core import CHANCE, sample_chance
from trapworks.games.mouse_trap.agents import distance_to_wheel
from trapworks.games.mouse_trap.game import CRANK, END, MOVE_BASE, P_STEAL


def kind_of(state, action: int) -> str:
    """A short label of an action for grouping ("end", "crank", "move d=3 cheese=2", "steal")."""
    if action == CRANK:
        return "crank"
    if action == END:
        return "end"
    if MOVE_BASE <= action < MOVE_BASE + 4:
        d = distance_to_wheel(state.mice[action - MOVE_BASE])
        return f"move d={d if d <= 6 else '7+'}"
    return "steal"


def decision_label(state) -> str:
    if state.phase == P_STEAL:
        return "steal tie"
    legal = state.legal_actions()
    if CRANK in legal:
        return "crank available" + (" + pay" if any(MOVE_BASE <= a < MOVE_BASE + 4 for a in legal) else "")
    near = any(
        MOVE_BASE <= a < MOVE_BASE + 4 and distance_to_wheel(state.mice[a - MOVE_BASE]) <= 6 for a in legal
    )
    return "pay: a mouse within 6" if near else "pay: only mice 7+ away"


def value_position(game, text: str, rollouts: int, seed: int, agent: str) -> None:
    """Each legal action's win probability at one position, with its paired difference to the best."""
    state = game.state_from_position(text)
    P = game.num_players()
    evaluator = RolloutAgent(game, 0, seed=seed, policy=agent)
    start = time.perf_counter()
    stats = evaluator.evaluate_actions(state, state.legal_actions(), rollouts, seed)
    best = max(stats, key=lambda st: st.mean())
    print(
        f"{text}: {rollouts} CRN rollouts per action, then {agent} for every seat "
        f"({time.perf_counter() - start:.0f} s)"
    )
    for st in stats:
        diff, se = paired_difference(st.returns, best.returns)
        print(
            f"  {state.action_to_string(st.action):8} win probability {(st.mean() * (P - 1) + 1) / P:.4f}; "
            f"minus the best {diff * (P - 1) / P:+.4f} ± {2 * se * (P - 1) / P:.4f} (2 SE)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--rollouts", type=int, default=300)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--variant", default="milton-bradley")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jsonl", default=None, help="write one line per decision here")
    parser.add_argument(
        "--agent",
        default="heuristic",
        help="the agent that plays the games, and whose move each decision is compared with",
    )
    parser.add_argument(
        "--position",
        default=None,
        help="value the actions of this one position (notation of docs/mouse-trap.md) instead",
    )
    args = parser.parse_args()
    game = trapworks.make("mouse-trap", players=args.players, variant=args.variant)
    P = game.num_players()
    if args.position:
        value_position(game, args.position, args.rollouts, args.seed, args.agent)
        return
    heur = [make_agent(args.agent, game, s, seed=s) for s in range(P)]
    evaluator = RolloutAgent(game, 0, seed=args.seed, policy=args.agent)
    rng = random.Random(args.seed)
    out = open(args.jsonl, "w") if args.jsonl else None
    rows = []
    start = time.perf_counter()
    for g in range(args.games):
        state = game.new_initial_state(seed=rng.randrange(2**62))
        while not state.is_terminal():
            p = state.current_player()
            if p == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            legal = state.legal_actions()
            h = heur[p].step(state)
            if len(legal) > 1:
                stats = evaluator.evaluate_actions(state, legal, args.rollouts, rng.randrange(2**62))
                base = next(st for st in stats if st.action == h)
                best = max(stats, key=lambda st: st.mean())
                diff, se = paired_difference(best.returns, base.returns)
                ranked = sorted(stats, key=lambda st: st.mean(), reverse=True)
                _, se_top2 = paired_difference(ranked[0].returns, ranked[1].returns)
                to_prob = lambda r: (r * (P - 1) + 1) / P  # noqa: E731
                row = {
                    "game": g,
                    "label": decision_label(state),
                    "position": state.position(),
                    "heuristic": kind_of(state, h),
                    "best": kind_of(state, best.action),
                    "values": {
                        state.action_to_string(st.action) + f" [{kind_of(state, st.action)}]": round(
                            to_prob(st.mean()), 4
                        )
                        for st in stats
                    },
                    "gain": diff * (P - 1) / P,
                    "se": se * (P - 1) / P,
                    "se_top2": se_top2 * (P - 1) / P,
                }
                rows.append(row)
                if out:
                    out.write(json.dumps(row) + "\n")
                    out.flush()
            state.apply_action(h)
        print(
            f"game {g + 1}/{args.games}: {len(rows)} decisions, {time.perf_counter() - start:.0f} s",
            flush=True,
        )
    by = defaultdict(list)
    for r in rows:
        by[r["label"]].append(r)
    print(
        f"\nmouse-trap players={P} variant={args.variant}, agent {args.agent}: {len(rows)} decisions in "
        f"{args.games} games, {args.rollouts} CRN rollouts per action"
    )
    print(
        f"| decision | count | {args.agent}'s move has the best mean | another action better by > 2 SE "
        "| mean gain of the best mean (win prob) | median SE of the two best's difference |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for label, rs in sorted(by.items()):
        sig = [r for r in rs if r["gain"] > 2 * r["se"]]
        print(
            f"| {label} | {len(rs)} | {sum(r['gain'] == 0 for r in rs)} | {len(sig)} | "
            f"{statistics.fmean(r['gain'] for r in rs):.4f} | "
            f"{statistics.median(r['se_top2'] for r in rs):.4f} |"
        )
    sig_gain = sum(r["gain"] for r in rows if r["gain"] > 2 * r["se"])
    all_gain = sum(r["gain"] for r in rows)  # biased upward: the best of noisy means
    print(
        f"gain per game and seat if the best mean were played: significant decisions only "
        f"{sig_gain / args.games / P:.4f}, every decision (an upper estimate) {all_gain / args.games / P:.4f}"
    )
    moves = defaultdict(lambda: [0, 0])
    for r in rows:
        if r["gain"] > 2 * r["se"]:
            moves[(r["heuristic"], r["best"])][0] += 1
            moves[(r["heuristic"], r["best"])][1] += r["gain"]
    for (h, b), (k, gsum) in sorted(moves.items(), key=lambda kv: -kv[1][1]):
        print(f"  {args.agent} {h} -> better {b}: {k} times, mean gain {gsum / k:.4f}")


if __name__ == "__main__":
    main()
