"""The Mouse Trap simulation report: `trapworks.sim` (what `trapworks simulate` runs) over 12 cells,
2/3/4 players x both variants x trap reliability 1.0 and the default odds, N games each, with the
heuristic agent in every seat. Writes docs/mouse-trap-simulation.md, .json and .png.

    python bench/mouse_trap_report.py [-n 10000] [--workers 2] [--seed 1]

Each cell is the same as
    trapworks simulate mouse-trap -n N --players P -a heuristic -o variant=V [-o trap_reliability=1.0] \
        --seed S --workers W --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import trapworks  # noqa: E402
from trapworks import sim  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
VARIANTS = ("milton-bradley", "original")
RELIABILITY = (1.0, None)  # None: the documented default stage odds


def cell_options(players: int, variant: str, reliability: float | None) -> dict:
    opts = {"players": players, "variant": variant}
    if reliability is not None:
        opts["trap_reliability"] = reliability
    return opts


def run_cell(n: int, options: dict, seed: int, workers: int, agent: str = "heuristic") -> dict:
    results = list(sim.run("mouse-trap", n, [agent], options, seed=seed, workers=workers))
    summary = sim.summarise(results)
    lengths = [r.decisions for r in results]
    finished = [r.decisions for r in results if not r.truncated]
    data = summary.to_dict()
    data.update(
        {
            "agent": agent,
            "options": options,
            "seed": seed,
            "length_stdev": statistics.pstdev(lengths),
            "length_p10": _quantile(lengths, 0.10),
            "length_p90": _quantile(lengths, 0.90),
            "length_mean_finished": statistics.mean(finished) if finished else None,
            "length_histogram": sorted(Counter(lengths).items()),
        }
    )
    return data


def _quantile(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("-n", type=int, default=10_000, help="games per cell")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=DOCS / "mouse-trap-simulation")
    args = parser.parse_args()

    cells = []
    started = time.perf_counter()
    for variant in VARIANTS:
        for players in (2, 3, 4):
            for reliability in RELIABILITY:
                opts = cell_options(players, variant, reliability)
                t0 = time.perf_counter()
                data = run_cell(args.n, opts, args.seed, args.workers)
                data["seconds"] = time.perf_counter() - t0
                data["reliability"] = reliability
                data["capture_chance"] = trapworks.make("mouse-trap", **opts).capture_chance
                cells.append(data)
                print(
                    f"{variant:15} {players}p reliability={reliability}: {data['games']} games, "
                    f"mean {data['length_mean']:.1f}, truncated {data['truncated']}, {data['seconds']:.0f}s",
                    flush=True,
                )
    # Beside the 12 cells: random agents (who often decline to crank) show what the turn limit is for.
    extra = []
    for variant in VARIANTS:
        opts = cell_options(4, variant, None)
        t0 = time.perf_counter()
        data = run_cell(args.n, opts, args.seed, args.workers, agent="random")
        data["seconds"] = time.perf_counter() - t0
        data["reliability"] = None
        data["capture_chance"] = trapworks.make("mouse-trap", **opts).capture_chance
        extra.append(data)
        print(
            f"{variant:15} 4p random agents: {data['games']} games, mean {data['length_mean']:.1f}, "
            f"truncated {data['truncated']}, {data['seconds']:.0f}s",
            flush=True,
        )
    total = time.perf_counter() - started
    args.out.parent.mkdir(parents=True, exist_ok=True)
    Path(f"{args.out}.json").write_text(
        json.dumps(
            {
                "n": args.n,
                "seed": args.seed,
                "workers": args.workers,
                "seconds": total,
                "cells": cells,
                "random_agent_cells": extra,
            },
            indent=1,
        )
        + "\n"
    )
    plot(cells, Path(f"{args.out}.png"))
    Path(f"{args.out}.md").write_text(markdown(cells, extra, args, total))
    print(f"wrote {args.out}.md/.json/.png in {total:.0f}s")


def _hist_quantile(histogram: list, q: float) -> float:
    total = sum(c for _, c in histogram)
    seen = 0
    for k, c in histogram:
        seen += c
        if seen >= q * total:
            return k
    return histogram[-1][0]


def _label(rel: float | None, chance: float) -> str:
    return "always works (1.0)" if rel == 1.0 else f"default odds ({chance:.1%})"


def plot(cells: list[dict], path: Path) -> None:
    fig, axes = plt.subplots(3, 3, figsize=(13, 11))
    # One x-range for all panels: up to the longest cell's 99.5th percentile, in bins of 5 decisions.
    upper = max(_hist_quantile(c["length_histogram"], 0.995) for c in cells)
    upper = 50 * (int(upper) // 50 + 1)
    for row, variant in enumerate(VARIANTS):
        for col, players in enumerate((2, 3, 4)):
            ax = axes[row][col]
            for data in cells:
                if data["options"]["variant"] != variant or data["options"]["players"] != players:
                    continue
                lengths = [k for k, c in data["length_histogram"] for _ in range(c)]
                ax.hist(
                    lengths,
                    bins=upper // 5,
                    range=(0, upper),
                    histtype="step",
                    density=True,
                    linewidth=1.4,
                    label=(
                        f"{_label(data['reliability'], data['capture_chance'])}: "
                        f"mean {data['length_mean']:.0f}"
                    ),
                )
            ax.set_title(f"{variant}, {players} players", fontsize=10)
            ax.set_xlabel("game length (decisions)")
            ax.set_yticks([])
            ax.legend(fontsize=8)
    for col, players in enumerate((2, 3, 4)):
        ax = axes[2][col]
        width = 0.2
        k = 0
        for data in cells:
            if data["options"]["players"] != players:
                continue
            rates = [w / data["games"] for w in data["seat_wins"]]
            xs = [s + (k - 1.5) * width for s in range(players)]
            ax.bar(
                xs,
                rates,
                width=width,
                label=f"{data['options']['variant']}, {'1.0' if data['reliability'] == 1.0 else 'default'}",
            )
            k += 1
        ax.axhline(1 / players, color="grey", linestyle=":", linewidth=1)
        ax.set_xticks(range(players), [f"seat {s + 1}" for s in range(players)])
        ax.set_ylabel("win rate")
        ax.set_title(f"win rate by seat, {players} players (dotted: 1/{players})", fontsize=10)
        ax.legend(fontsize=7)
    fig.suptitle("Mouse Trap: heuristic agents in every seat, N games per cell (trapworks.sim)")
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def _row(c: dict) -> str:
    rates = " / ".join(f"{w / c['games']:.1%}" for w in c["seat_wins"])
    return (
        f"| {c['options']['variant']} | {c['options']['players']} | "
        f"{_label(c['reliability'], c['capture_chance'])} | {c['games']:,} | {c['length_mean']:.1f} | "
        f"{c['length_median']:g} | {c['length_p10']:g}–{c['length_p90']:g} | "
        f"{c['length_min']}–{c['length_max']} | {c['truncated']} ({c['truncated'] / c['games']:.2%}) | "
        f"{rates} |"
    )


def markdown(cells: list[dict], extra: list[dict], args, total: float) -> str:
    n = args.n
    lines = [
        "# Mouse Trap: simulation report",
        "",
        "Generated by `bench/mouse_trap_report.py` (do not edit by hand) with",
        "",
        f"    .venv/bin/python bench/mouse_trap_report.py -n {n} --workers {args.workers} --seed {args.seed}",
        "",
        f"It runs `trapworks.sim` (the engine of `trapworks simulate`) for {len(cells)} cells of {n:,} games",
        "each with the game's `heuristic` agent in every seat (it cranks whenever it can and pays cheese",
        "only for mice one die away from the Cheese Wheel), and two more cells with the `random` agent:",
        f"{sum(c['games'] for c in cells + extra):,} games in {total / 60:.1f} minutes on the project's "
        "2-core machine. One cell is the same as",
        "",
        "    trapworks simulate mouse-trap -n 10000 --players 4 -a heuristic -o variant=original \\",
        "        -o trap_reliability=1.0 --seed 1 --workers 2 --json",
        "",
        "Game length is counted in decisions, as `trapworks simulate` counts it: one `roll` per turn plus",
        "each crank / pay / end / steal choice (chance outcomes are not counted). The turn limit is the",
        "default, 1000 turns; a game that reaches it is a truncation, never a win.",
        '"Default odds" is the documented chain of 15 stages (contraption.json) whose product is the',
        'capture chance shown; "1.0" is `trap_reliability=1.0`, a trap that always works.',
        "",
        "![game length and win rates](mouse-trap-simulation.png)",
        "",
        "| variant | players | trap | games | length mean | median | p10–p90 | min–max | truncated | "
        "win rate by seat |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    header = lines[-2:]
    lines += [_row(c) for c in cells]
    lines += [
        "",
        "With the `random` agent in every seat instead (it picks uniformly among the legal actions, so",
        "it often ends its turn on Turn Crank without cranking), games run longer; the truncated column",
        "counts those that reached the turn limit:",
        "",
        *header,
        *[_row(c) for c in extra],
    ]
    lines += [
        "",
        "Win rates are over all games of the cell (truncated games count for no seat). Seat 1 moves",
        "first. The raw figures, with the full length histograms, are in `mouse-trap-simulation.json`.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
