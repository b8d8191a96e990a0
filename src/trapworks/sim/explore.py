"""The variant explorer: a grid of option cells played by the same agents, and a report comparing
the cells for a game designer: seat effects (each seat's win rate against 1/players, and the
starting player's) with 95% intervals, game lengths (histograms), how games end, the game's own
statistics (jams per crank for Mouse Trap), and for every difference between cells its size with
a 95% interval, its Holm-adjusted p-value, a verdict against a practical threshold and the games
per cell it would take to settle it. Written as Markdown, an interactive HTML page (Vega-Lite
through Altair: hover for values, pick cells) and PNG.

Comparisons are made between cells with the same number of players, each against the first such
cell (the baseline): win rates by a two-proportion z-test (difference: Newcombe's interval),
lengths and statistics twice, each row one test and its own effect: the difference of means
(Welch's t-test and its interval) and the probability of superiority (Brunner-Munzel's rank test
and its interval: a change of shape that leaves the mean alone shows here), endings by a
chi-square test (Cramér's V); the p-values of one report are Holm-adjusted together, so
"significant" means below 0.05 after correction for every test in the report. A difference is
"practical" only when it is significant and its whole interval lies beyond the threshold
(default 1 percentage point for rates, 5% of the baseline for means).

The report reads the rows file a column (and a cell) at a time through pyarrow datasets, never
every row of every column at once.
"""

from __future__ import annotations

import base64
import html
import io
import itertools
import json
import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trapworks.core import OptionError, explore_cells, game_class, make
from trapworks.core.registry import player_count_options

from .rows import column_names, read_columns
from .stats import (
    contingency,
    cramers_v,
    diff_means,
    diff_proportions,
    holm,
    n_for_difference,
    n_for_mean_difference,
    superiority,
    two_proportions,
    uniform_seats,
    verdict,
    wilson,
)

FIXED_COLUMNS = {"game", "cell", "index", "seed", "version", "players", "winner", "num_winners"}
FIXED_COLUMNS |= {"length", "actions", "truncated", "ending", "first_seat"}
ALPHA = 0.05
MIN_RATE = 0.01  # a change in a rate smaller than 1 percentage point is not worth a rule change
MIN_CHANGE = 0.05  # nor a change in a mean smaller than 5% of the baseline's
MIN_SUPERIORITY = 0.05  # nor a probability of superiority within 0.45-0.55 (|Cohen's d| < ~0.18)


class GridError(ValueError):
    """A --vary or --players that cannot make a grid; the message says what is wrong."""


@dataclass(frozen=True)
class Cell:
    label: str
    options: dict[str, Any]


def parse_value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text.strip()


def parse_vary(items: Sequence[str]) -> list[tuple[str, list[Any]]]:
    """["variant=milton-bradley,original", ...] -> [("variant", ["milton-bradley", "original"])]."""
    out: list[tuple[str, list[Any]]] = []
    for item in items:
        key, sep, values = item.partition("=")
        key = key.strip().replace("-", "_")
        parts = [v for v in values.split(",") if v.strip()]
        if not sep or not key or not parts:
            raise GridError(
                f"--vary {item!r}: write OPTION=V1,V2 (e.g. --vary variant=milton-bradley,original)"
            )
        if key in dict(out):
            raise GridError(f"--vary {key} given twice: list all its values in one --vary")
        out.append((key, [parse_value(v) for v in parts]))
    return out


def build_grid(
    game_id: str,
    vary: Sequence[str] = (),
    players: Sequence[int] = (),
    base: dict[str, Any] | None = None,
) -> list[Cell]:
    """The cells: the product of the --vary values (else the game's default cells) with each
    player count; every cell's options are checked by the game (an unknown option names itself)."""
    base = dict(base or {})
    varied = parse_vary(vary)
    # -o applies to every cell: checked on its own (a cell that sets the same option would hide a
    # bad value), and an option both fixed by -o and varied by the grid is refused.
    make(game_id, **base)  # OptionError names the bad option or value
    if varied:
        cell_keys = {k for k, _ in varied}
    else:
        cell_keys = {k for c in explore_cells(game_class(game_id)) for k in c["options"]}
    if players:
        cell_keys.add("players")
    clash = sorted(k for k in base if k in cell_keys)
    if clash:
        raise GridError(
            f"-o {clash[0]}={base[clash[0]]}: the grid sets {clash[0]} in its cells; "
            f"vary it with --vary {clash[0]}=... or leave out -o {clash[0]}"
        )
    if "players" in dict(varied) and players:
        raise GridError("give the player counts either as --players or as --vary players=..., not both")
    if varied:
        keys = [k for k, _ in varied]
        cells = [
            Cell(
                ", ".join(f"{k}={v}" for k, v in zip(keys, combo, strict=True)),
                dict(zip(keys, combo, strict=True)),
            )
            for combo in itertools.product(*(values for _, values in varied))
        ]
    else:
        cells = [Cell(c["label"], dict(c["options"])) for c in explore_cells(game_class(game_id))]
    # A default cell made for its own player count (Booby Trap's solitaire: 1 player) is left
    # out of a grid asked for with other counts, rather than refusing the whole grid.
    own_count = {c.label for c in cells if not varied and "players" in c.options}
    if players:
        try:
            seated = {p: player_count_options(game_id, p) for p in players}
        except OptionError as e:
            raise GridError(f"--players {','.join(map(str, players))}: {e}") from e
        origins = [c.label for p in players for c in cells]
        cells = [
            Cell(f"{c.label}, {p}p" if len(players) > 1 else c.label, {**c.options, **seated[p]})
            for p in players
            for c in cells
        ]
    else:
        origins = [c.label for c in cells]
    out = []
    for c, origin in zip(cells, origins, strict=True):
        options = {**base, **c.options}
        try:
            make(game_id, **options)  # OptionError names the bad option or value
        except OptionError:
            if players and origin in own_count:
                continue
            raise
        out.append(Cell(c.label, options))
    if not out:
        raise GridError(f"no cell of {game_id}'s grid is played by {', '.join(map(str, players))} players")
    labels = [c.label for c in out]
    if len(set(labels)) != len(labels):
        raise GridError("two cells have the same options")
    return out


# --- reading the rows, a column and a cell at a time ----------------------------------------
class Rows:
    """A rows file read lazily: one column of one cell at a time (pyarrow dataset projection
    and filter), so a report over millions of games never holds them all."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.names = column_names(self.path)

    def col(self, label: str, name: str) -> Any:
        import pyarrow.dataset as ds

        return read_columns(self.path, [name], filter=ds.field("cell") == label)[name].to_numpy()

    def cols(self, label: str, names: Sequence[str]) -> Any:
        import pyarrow.dataset as ds

        return read_columns(self.path, list(names), filter=ds.field("cell") == label)

    def stat_columns(self) -> list[str]:
        """The game's own statistics: the numeric columns after `ending` that are not per-seat,
        and not constant over the whole file (a constant column says nothing)."""
        import re

        from .rows import dataset

        schema = dataset(self.path).schema
        start = self.names.index("ending") + 1 if "ending" in self.names else len(self.names)
        seat = re.compile(r"^(agent|return|won)_seat\d+$")
        out = []
        for c in self.names[start:]:
            kind = schema.field(c).type
            if seat.match(c) or c.startswith("opt_") or c in FIXED_COLUMNS:
                continue
            if not (str(kind).startswith(("int", "uint", "double", "float", "bool"))):
                continue
            values = read_columns(self.path, [c])[c]
            if values.nunique(dropna=True) > 1:
                out.append(c)
            del values
        return out


@dataclass
class Thresholds:
    rate: float = MIN_RATE
    change: float = MIN_CHANGE
    superiority: float = MIN_SUPERIORITY


def _mean_ci(x: Any, counts: bool) -> tuple[float, float, float]:
    import numpy as np

    x = np.asarray(x, dtype=float)
    m = float(x.mean())
    half = 1.96 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else 0.0
    lo = m - half
    return m, max(0.0, lo) if counts else lo, m + half


def _starter_wins(rows: Rows, label: str, won: dict[int, Any], players: int) -> dict[str, Any] | None:
    """How often the seat that made the first decision won (None when rows do not say who)."""
    import numpy as np

    starter = None
    if "first_seat" in rows.names:
        first = rows.col(label, "first_seat")
        ok = ~np.isnan(first.astype(float))
        if ok.any():
            idx = first[ok].astype(int) - 1
            stack = np.stack([won[k][ok] for k in range(1, players + 1)], axis=1)
            wins = int(stack[np.arange(len(idx)), idx].sum())
            m = int(ok.sum())
            lo, hi = wilson(wins, m)
            starter = {
                "games": m,
                "wins": wins,
                "rate": wins / m,
                "lo": lo,
                "hi": hi,
                "effect": wins / m - 1 / players,
                "effect_lo": lo - 1 / players,
                "effect_hi": hi - 1 / players,
                "by_seat": {int(s) + 1: int((idx == s).sum()) for s in range(players)},
            }
    return starter


def cell_summary(rows: Rows, label: str, stats: Sequence[str] | None = None) -> dict[str, Any]:
    import numpy as np

    players = int(rows.col(label, "players")[0])
    won = {k: rows.col(label, f"won_seat{k}").astype(bool) for k in range(1, players + 1)}
    n = len(won[1])
    seats = []
    for k in range(1, players + 1):
        wins = int(won[k].sum())
        lo, hi = wilson(wins, n)
        fair = 1 / players
        seats.append(
            {
                "seat": k,
                "wins": wins,
                "rate": wins / n,
                "lo": lo,
                "hi": hi,
                "effect": wins / n - fair,
                "effect_lo": lo - fair,
                "effect_hi": hi - fair,
            }
        )
    starter = _starter_wins(rows, label, won, players)
    del won
    lengths = rows.col(label, "length").astype(float)
    agents = set()
    for k in range(1, players + 1):
        agents |= {a for a in set(rows.col(label, f"agent_seat{k}")) if isinstance(a, str)}
    other = rows.cols(label, ["truncated", "ending"])
    hist_max = int(np.percentile(lengths, 99.5)) + 1
    counts = np.bincount(np.minimum(lengths.astype(int), hist_max), minlength=hist_max + 1)
    out: dict[str, Any] = {
        "games": n,
        "players": players,
        "agents": ",".join(sorted(agents)),
        "seats": seats,
        "seat_p": uniform_seats([s["wins"] for s in seats]),
        "starter": starter,
        "truncated": int(other["truncated"].sum()),
        "length_mean": float(lengths.mean()),
        "length_sd": float(lengths.std(ddof=1)) if n > 1 else 0.0,
        "length_median": float(np.median(lengths)),
        "length_p10": float(np.percentile(lengths, 10)),
        "length_p90": float(np.percentile(lengths, 90)),
        "length_hist": [int(c) for c in counts],  # games of each length (the last: that or longer)
        "endings": {str(k): int(v) for k, v in other["ending"].value_counts().items()},
        "stats": {},
        "stats_ci": {},
        "per_crank": {},
    }
    for c in stats if stats is not None else rows.stat_columns():
        x = rows.col(label, c).astype(float)
        mean, low, high = _mean_ci(x, counts=bool(x.min() >= 0))
        out["stats"][c] = mean
        out["stats_ci"][c] = [low, high]
    if "cranks" in rows.names:
        cranks = int(rows.col(label, "cranks").sum())
        for c in [c for c in rows.names if c == "jams" or c.startswith("jams_")]:
            k = int(rows.col(label, c).sum())
            lo, hi = wilson(k, cranks)
            out["per_crank"][c] = {"count": k, "cranks": cranks, "rate": k / cranks if cranks else 0.0}
            out["per_crank"][c] |= {"lo": lo, "hi": hi}
    return out


# --- comparisons ------------------------------------------------------------------------------
def _cell_tests(
    rows: Rows,
    b: str,
    c: str,
    summaries: dict[str, dict[str, Any]],
    stats: Sequence[str],
    th: Thresholds,
) -> list[dict[str, Any]]:
    """Cell c against its baseline b: seats, the starting player, jams per crank, length, endings
    and every statistic (each test one row, before the Holm adjustment)."""
    out: list[dict[str, Any]] = []
    players = summaries[c]["players"]
    sb, sc = summaries[b], summaries[c]
    nb, nc = sb["games"], sc["games"]
    for k in range(players):
        kb, kc = sb["seats"][k]["wins"], sc["seats"][k]["wins"]
        out.append(_rate_row(b, c, f"seat {k + 1} win rate", kb, nb, kc, nc, th))
    if sb["starter"] and sc["starter"]:
        x, y = sb["starter"], sc["starter"]
        out.append(
            _rate_row(b, c, "starting player's win rate", x["wins"], x["games"], y["wins"], y["games"], th)
        )
    for key, per in sc["per_crank"].items():
        x = sb["per_crank"].get(key)
        if x:
            out.append(
                _rate_row(b, c, f"{key} per crank", x["count"], x["cranks"], per["count"], per["cranks"], th)
            )
    la, lb = rows.col(b, "length").astype(float), rows.col(c, "length").astype(float)
    out.append(_mean_row(b, c, "length (decisions)", la, lb, th))
    out.append(_rank_row(b, c, "length (decisions)", la, lb, th))
    endings = sorted(set(sb["endings"]) | set(sc["endings"]))
    if len(endings) > 1:
        table = [[s["endings"].get(e, 0) for e in endings] for s in (sb, sc)]
        v = cramers_v(table)
        out.append(
            _row(
                b,
                c,
                "how games end",
                None,
                None,
                v,
                None,
                None,
                "Cramér's V",
                contingency(table),
                "chi-square",
                effect="Cramér's V",
            )
        )
    for col in stats:
        if col in sc["per_crank"]:
            continue  # compared per crank above (a count per game mixes in the game's length)
        xa, xb = rows.col(b, col).astype(float), rows.col(c, col).astype(float)
        out.append(_mean_row(b, c, col, xa, xb, th))
        out.append(_rank_row(b, c, col, xa, xb, th))
    return out


def comparisons(
    rows: Rows | Any,
    cells: list[str],
    thresholds: Thresholds | None = None,
    summaries: dict[str, dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Each cell against the first cell with as many players: every test with its effect size
    (the difference with a 95% interval), Holm-adjusted p, verdict and games needed."""
    if not isinstance(rows, Rows):
        rows = Rows(rows)
    th = thresholds or Thresholds()
    stats = rows.stat_columns()
    summaries = summaries or {c: cell_summary(rows, c, stats) for c in cells}
    out: list[dict[str, Any]] = []
    baseline: dict[int, str] = {}
    for label in cells:
        players = summaries[label]["players"]
        if players not in baseline:
            baseline[players] = label
            continue
        out += _cell_tests(rows, baseline[players], label, summaries, stats, th)
    for r, p in zip(out, holm([r["p"] for r in out]), strict=True):
        r["p_holm"] = p
        r["significant"] = p < ALPHA
        if r["lo"] is None:
            r["verdict"] = (
                "practical"
                if r["significant"] and r["diff"] >= 0.1
                else ("small" if r["significant"] else "negligible" if r["diff"] < 0.1 else "unclear")
            )
        else:  # an effect's interval against its own null (0, or 1/2 for a probability)
            null = r["null"]
            r["verdict"] = verdict(r["significant"], r["lo"] - null, r["hi"] - null, r["threshold"])
    return out


def _row(
    base: str,
    cell: str,
    metric: str,
    a: Any,
    b: Any,
    diff: float,
    lo: float | None,
    hi: float | None,
    unit: str,
    p: float,
    test: str,
    threshold: float = 0.1,
    needed: int | None = None,
    effect: str = "",
    null: float = 0.0,
) -> dict[str, Any]:
    """One comparison: one test, its effect (named) with the interval from the same test, and the
    effect's value under no difference (`null`); the verdict is read from these alone."""
    return {
        "baseline": base,
        "cell": cell,
        "metric": metric,
        "base_value": a,
        "value": b,
        "diff": diff,
        "lo": lo,
        "hi": hi,
        "unit": unit,
        "threshold": threshold,
        "p": p,
        "test": test,
        "effect": effect,
        "null": null,
        "games_needed": needed,
    }


def _rate_row(
    base: str, cell: str, metric: str, ka: int, na: int, kb: int, nb: int, th: Thresholds
) -> dict[str, Any]:
    d, lo, hi = diff_proportions(kb, nb, ka, na)
    pa = ka / na if na else 0.0
    need = n_for_difference(pa, th.rate)
    return _row(
        base,
        cell,
        metric,
        pa,
        kb / nb if nb else 0.0,
        d,
        lo,
        hi,
        "pp",
        two_proportions(ka, na, kb, nb),
        "z-test",
        th.rate,
        need,
        effect="difference of rates (Newcombe)",
    )


def _mean_row(base: str, cell: str, metric: str, a: Any, b: Any, th: Thresholds) -> dict[str, Any]:
    """Difference of means (cell minus baseline): Welch's t-test, its interval and its p."""
    d, lo, hi, p = diff_means(b, a)
    mean_a = float(a.mean())
    threshold = th.change * abs(mean_a) if mean_a else th.change
    sd = float(a.std(ddof=1)) if len(a) > 1 else 0.0
    return _row(
        base,
        cell,
        metric,
        mean_a,
        float(b.mean()),
        d,
        lo,
        hi,
        "",
        p,
        "Welch t",
        threshold,
        n_for_mean_difference(sd, threshold),
        effect="difference of means (Welch)",
    )


def _rank_row(base: str, cell: str, metric: str, a: Any, b: Any, th: Thresholds) -> dict[str, Any]:
    """Probability that a game of the cell scores above one of the baseline (ties count half):
    Brunner-Munzel's rank test, its interval and its p (a change of shape, not only of mean)."""
    ps, lo, hi, p = superiority(b, a)
    return _row(
        base,
        cell,
        metric,
        float(a.mean()),
        float(b.mean()),
        ps,
        lo,
        hi,
        "P",
        p,
        "Brunner-Munzel",
        th.superiority,
        effect="P(cell > baseline) (Brunner-Munzel)",
        null=0.5,
    )


# --- figures ------------------------------------------------------------------------------------
def _wrap(label: str, width: int = 30) -> str:
    return "\n".join(textwrap.wrap(label, width)) or label


def length_bin(summaries: dict[str, dict[str, Any]]) -> int:
    """One bin width for every cell's length histogram: about 60 bins over the longest."""
    longest = max(len(s["length_hist"]) for s in summaries.values())
    return max(1, math.ceil(longest / 60))


def binned_lengths(summary: dict[str, Any], width: int) -> tuple[Any, Any]:
    """(bin starts, share of games) of a cell's length histogram in bins of `width`."""
    import numpy as np

    h = np.array(summary["length_hist"], dtype=float)
    pad = (-len(h)) % width
    h = np.concatenate([h, np.zeros(pad)]).reshape(-1, width).sum(axis=1)
    return np.arange(len(h)) * width, h / h.sum()


def plot(
    rows: Rows, cells: list[str], summaries: dict[str, dict[str, Any]], title: str, stats: Sequence[str]
) -> bytes:
    """One PNG: seat effects (win rate minus 1/players, percentage points, zoomed to the data),
    the starting player's edge, length histograms, how games end (stacked, when games end in
    more than one way), jams per crank, and the game's statistics (means with 95% intervals,
    counts never below 0); long cell labels wrapped, nothing cut."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    endings = sorted({e for s in summaries.values() for e in s["endings"]})
    # The starting player's panel only where who starts varies (else it is one seat's panel again).
    starters = all(
        s["starter"] and sum(1 for v in s["starter"]["by_seat"].values() if v) > 1 for s in summaries.values()
    )
    crank = sorted({k for s in summaries.values() for k in s["per_crank"]}, key=lambda k: (k != "jams", k))
    if len(cells) > 4:
        crank = crank[:1]  # every stage for every cell would be a wall of bars: the total (stages: the table)
    shown = [c for c in stats if not (crank and (c == "jams" or c.startswith("jams_")))][:6]
    panels: list[str] = ["seats"] + (["starter"] if starters else []) + ["lengths"]
    panels += (["endings"] if len(endings) > 1 else []) + (["crank"] if crank else []) + ["stat"] * len(shown)
    labels = [_wrap(c) for c in cells]
    lines = sum(label.count("\n") + 1 for label in labels)
    cell_h = 0.25 * lines + 1.4
    heights = {"seats": cell_h * 1.3, "starter": cell_h, "lengths": 3.2, "endings": cell_h, "stat": cell_h}
    heights["crank"] = max(cell_h, 0.22 * len(crank) * len(cells) + 1.2)
    big = [p for p in panels if p != "stat"]
    rows_h = [heights[p] for p in big] + [heights["stat"]] * ((len(shown) + 1) // 2)
    fig = plt.figure(figsize=(14, sum(rows_h) + 1), layout="constrained")
    grid = fig.add_gridspec(len(rows_h), 2, height_ratios=rows_h)
    colours = plt.get_cmap("tab10" if len(cells) <= 10 else "tab20")(np.arange(len(cells)) % 20)
    y = np.arange(len(cells))[::-1]
    r = 0
    common = (cells, summaries, y, labels, colours)
    # Seat effects.
    ax = fig.add_subplot(grid[r, :])
    r += 1
    _plot_seats(ax, *common)
    if starters:
        ax = fig.add_subplot(grid[r, :])
        r += 1
        _plot_starter(ax, *common)
    # Length histograms.
    ax = fig.add_subplot(grid[r, :])
    r += 1
    _plot_lengths(ax, *common)
    if len(endings) > 1:
        ax = fig.add_subplot(grid[r, :])
        r += 1
        _plot_endings(ax, *common, endings)
    if crank:
        ax = fig.add_subplot(grid[r, :])
        r += 1
        _plot_crank(ax, *common, crank)
    for k, c in enumerate(shown):
        ax = fig.add_subplot(grid[r + k // 2, k % 2])
        means = np.array([summaries[label]["stats"][c] for label in cells])
        ci = np.array([summaries[label]["stats_ci"][c] for label in cells])
        ax.errorbar(means, y, xerr=[means - ci[:, 0], ci[:, 1] - means], fmt="o", color="black", capsize=2)
        ax.scatter(means, y, c=colours[: len(cells)], zorder=3)
        ax.set_yticks(y, labels, fontsize=7)
        ax.set_title(f"{c} per game (mean, 95% interval)", fontsize=9)
    fig.suptitle(title)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def _plot_seats(
    ax: Any, cells: list[str], summaries: dict[str, dict[str, Any]], y: Any, labels: list[str], colours: Any
) -> None:
    max_p = max(s["players"] for s in summaries.values())
    width = 0.8 / max_p
    for i, label in enumerate(cells):
        s = summaries[label]
        for seat in s["seats"]:
            yy = y[i] + (s["players"] - 1 - (seat["seat"] - 1) - (s["players"] - 1) / 2) * width
            e = 100 * seat["effect"]
            ax.errorbar(
                e,
                yy,
                xerr=[[e - 100 * seat["effect_lo"]], [100 * seat["effect_hi"] - e]],
                fmt="o",
                color=colours[i],
                markersize=4,
                capsize=2,
                elinewidth=1,
            )
            ax.annotate(
                f"{seat['seat']}",
                (100 * seat["effect_hi"], yy),
                xytext=(3, -3),
                textcoords="offset points",
                fontsize=6,
            )
    ax.axvline(0, color="grey", linestyle=":")
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_xlabel("win rate minus 1/players, percentage points (95% Wilson interval); number: the seat")
    ax.set_title("Seat effects: which seat is favoured, and by how much")


def _plot_starter(
    ax: Any, cells: list[str], summaries: dict[str, dict[str, Any]], y: Any, labels: list[str], colours: Any
) -> None:
    for i, label in enumerate(cells):
        st = summaries[label]["starter"]
        e = 100 * st["effect"]
        ax.errorbar(
            e,
            y[i],
            xerr=[[e - 100 * st["effect_lo"]], [100 * st["effect_hi"] - e]],
            fmt="o",
            color=colours[i],
            capsize=3,
        )
    ax.axvline(0, color="grey", linestyle=":")
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_xlabel("starting player's win rate minus 1/players, percentage points (95% Wilson interval)")
    ax.set_title("First-player advantage")


def _plot_lengths(
    ax: Any, cells: list[str], summaries: dict[str, dict[str, Any]], y: Any, labels: list[str], colours: Any
) -> None:
    width = length_bin(summaries)
    for i, label in enumerate(cells):
        starts, share = binned_lengths(summaries[label], width)
        ax.step(starts + width / 2, 100 * share, where="mid", color=colours[i], label=label, linewidth=1.2)
    ax.set_xlabel(f"game length in decisions, bins of {width} (the last bin: that many or more)")
    ax.set_ylabel("% of games")
    ax.set_ylim(bottom=0)
    ax.set_title("Game length")
    ax.legend(fontsize=7, ncol=2 if len(cells) > 4 else 1, loc="upper right")


def _plot_endings(
    ax: Any,
    cells: list[str],
    summaries: dict[str, dict[str, Any]],
    y: Any,
    labels: list[str],
    colours: Any,
    endings: list[str],
) -> None:
    import matplotlib.pyplot as plt
    import numpy as np

    left = np.zeros(len(cells))
    ecol = plt.get_cmap("Set2")(np.arange(len(endings)) % 8)
    for j, e in enumerate(endings):
        share = np.array([summaries[c]["endings"].get(e, 0) / summaries[c]["games"] for c in cells])
        ax.barh(y, 100 * share, left=left, color=ecol[j], label=e, edgecolor="white")
        left += 100 * share
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of games")
    ax.set_title("How games end")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=min(len(endings), 6))


def _plot_crank(
    ax: Any,
    cells: list[str],
    summaries: dict[str, dict[str, Any]],
    y: Any,
    labels: list[str],
    colours: Any,
    crank: list[str],
) -> None:
    import numpy as np

    h = 0.8 / len(cells)
    yk = np.arange(len(crank))[::-1]
    for i, label in enumerate(cells):
        pc_ = summaries[label]["per_crank"]
        vals = np.array([100 * pc_[k]["rate"] for k in crank])
        lo = np.array([100 * pc_[k]["lo"] for k in crank])
        hi = np.array([100 * pc_[k]["hi"] for k in crank])
        yy = yk + (len(cells) - 1 - i - (len(cells) - 1) / 2) * h
        ax.barh(yy, vals, height=h * 0.9, color=colours[i], label=label)
        ax.errorbar(vals, yy, xerr=[vals - lo, hi - vals], fmt="none", ecolor="black", elinewidth=0.6)
    ax.set_yticks(yk, crank, fontsize=7)
    ax.set_xlim(left=0)
    ax.set_xlabel("% of cranks that jam (95% Wilson interval)")
    ax.set_title("Jams per crank, by stage")
    ax.legend(fontsize=7, loc="lower right")


def interactive_charts(
    cells: list[str], summaries: dict[str, dict[str, Any]], tests: list[dict[str, Any]]
) -> Any:
    """The report's figures as one Vega-Lite (Altair) chart: hover for the numbers, click a cell
    in the legend to pick it out."""
    import altair as alt

    colour = alt.Color("cell:N", sort=cells, legend=alt.Legend(title="cell (click to pick)", labelLimit=400))
    charts = [_seat_chart(cells, summaries, colour), _length_chart(cells, summaries, colour)]
    endings = _endings_chart(cells, summaries)
    if endings is not None:
        charts.append(endings)
    differences = _differences_chart(cells, tests)
    if differences is not None:
        charts.append(differences)
    return alt.vconcat(*charts).resolve_scale(color="independent")


def _seat_chart(cells: list[str], summaries: dict[str, dict[str, Any]], colour: Any) -> Any:
    import altair as alt
    import pandas as pd

    pick = alt.selection_point(fields=["cell"], bind="legend", name="pick_seats")
    opacity = alt.condition(pick, alt.value(1.0), alt.value(0.15))
    seats = pd.DataFrame(
        [
            {
                "cell": c,
                "seat": f"seat {x['seat']}",
                "effect_pp": 100 * x["effect"],
                "lo": 100 * x["effect_lo"],
                "hi": 100 * x["effect_hi"],
                "win_rate": x["rate"],
                "games": summaries[c]["games"],
            }
            for c in cells
            for x in summaries[c]["seats"]
        ]
    )
    tip: list[Any] = [
        "cell",
        "seat",
        alt.Tooltip("effect_pp:Q", format="+.2f"),
        alt.Tooltip("lo:Q", format="+.2f"),
        alt.Tooltip("hi:Q", format="+.2f"),
        alt.Tooltip("win_rate:Q", format=".2%"),
        "games",
    ]
    base = alt.Chart(seats).encode(
        y=alt.Y("seat:N"),
        yOffset=alt.YOffset("cell:N", sort=cells),
        color=colour,
        opacity=opacity,
        tooltip=tip,
    )
    seat_chart = (
        (
            base.mark_rule().encode(
                x=alt.X("lo:Q", title="win rate minus 1/players (pp, 95% interval)"), x2="hi:Q"
            )
            + base.mark_point(filled=True).encode(x="effect_pp:Q")
        )
        .add_params(pick)
        .properties(title="Seat effects", width=700)
    )
    return seat_chart


def _length_chart(cells: list[str], summaries: dict[str, dict[str, Any]], colour: Any) -> Any:
    import altair as alt
    import pandas as pd

    pick = alt.selection_point(fields=["cell"], bind="legend", name="pick_lengths")
    opacity = alt.condition(pick, alt.value(1.0), alt.value(0.15))
    width = length_bin(summaries)
    hist = pd.DataFrame(
        [
            {"cell": c, "length": int(start), "share": 100 * float(share)}
            for c in cells
            for start, share in zip(*binned_lengths(summaries[c], width), strict=True)
        ]
    )
    length_chart = (
        alt.Chart(hist)
        .mark_line(interpolate="step")
        .encode(
            x=alt.X("length:Q", title=f"game length (decisions, bins of {width} from the value shown)"),
            y=alt.Y("share:Q", title="% of games"),
            color=colour,
            opacity=opacity,
            tooltip=["cell", "length", alt.Tooltip("share:Q", format=".2f")],
        )
        .add_params(pick)
        .properties(title="Game length", width=700)
    )
    return length_chart


def _endings_chart(cells: list[str], summaries: dict[str, dict[str, Any]]) -> Any:
    import altair as alt
    import pandas as pd

    endings = pd.DataFrame(
        [
            {"cell": c, "ending": e, "share": 100 * k / summaries[c]["games"], "games": k}
            for c in cells
            for e, k in summaries[c]["endings"].items()
        ]
    )
    if endings["ending"].nunique() <= 1:
        return None
    return (
        alt.Chart(endings)
        .mark_bar()
        .encode(
            y=alt.Y("cell:N", sort=cells, axis=alt.Axis(labelLimit=400)),
            x=alt.X("share:Q", title="% of games", stack="zero"),
            color=alt.Color("ending:N"),
            tooltip=["cell", "ending", alt.Tooltip("share:Q", format=".2f"), "games"],
        )
        .properties(title="How games end", width=700)
    )


def _differences_chart(cells: list[str], tests: list[dict[str, Any]]) -> Any:
    import altair as alt
    import pandas as pd

    diffs = pd.DataFrame(
        [
            {
                **{k: t[k] for k in ("cell", "metric", "verdict", "p_holm", "test")},
                "diff": t["diff"] * (100 if t["unit"] == "pp" else 1),
                "lo": (t["lo"] if t["lo"] is not None else t["diff"]) * (100 if t["unit"] == "pp" else 1),
                "hi": (t["hi"] if t["hi"] is not None else t["diff"]) * (100 if t["unit"] == "pp" else 1),
                "unit": t["unit"] or "mean",
            }
            for t in tests
            if t["unit"] == "pp"
        ]
    )
    if not len(diffs):
        return None
    metric_pick = alt.selection_point(fields=["verdict"], bind="legend", name="pick_verdicts")
    b = alt.Chart(diffs).encode(
        y=alt.Y("metric:N", axis=alt.Axis(labelLimit=300)),
        yOffset=alt.YOffset("cell:N", sort=cells),
        color=alt.Color("verdict:N", scale=alt.Scale(domain=["practical", "small", "negligible", "unclear"])),
        opacity=alt.condition(metric_pick, alt.value(1.0), alt.value(0.15)),
        tooltip=[
            "cell",
            "metric",
            alt.Tooltip("diff:Q", format="+.2f"),
            alt.Tooltip("lo:Q", format="+.2f"),
            alt.Tooltip("hi:Q", format="+.2f"),
            "verdict",
            alt.Tooltip("p_holm:Q", format=".2g"),
            "test",
        ],
    )
    return (
        (
            b.mark_rule().encode(
                x=alt.X("lo:Q", title="difference from the baseline (pp, 95% interval)"), x2="hi:Q"
            )
            + b.mark_point(filled=True).encode(x="diff:Q")
        )
        .add_params(metric_pick)
        .properties(title="Differences in rates against the baseline cell", width=700)
    )


def _chart_html(chart: Any) -> str:
    """The chart as a page whose Vega, Vega-Lite and vega-embed scripts are inlined from
    vl-convert-python (a dependency), so that report.html draws its charts from a file with no
    network; SVG marks, so that each mark is an element (and a browser test can hover it)."""
    try:
        return str(chart.to_html(inline=True, embed_options={"renderer": "svg"}))
    except ImportError as e:  # a broken install: say what is missing rather than load a CDN
        raise RuntimeError(f"report.html needs vl-convert-python to inline its charts: {e}") from e


def _fmt(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        if math.isnan(v):
            return ""
        return f"{v:.3g}" if abs(v) < 1000 else f"{v:,.0f}"
    return str(v)


def _md_table(header: list[str], rows: list[list[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_fmt(v).replace("|", "/") for v in r) + " |" for r in rows]
    return lines


def _inline(text: str) -> str:
    """Markdown's `code` as HTML, the rest escaped."""
    import re

    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def _html_table(header: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(_fmt(v))}</td>" for v in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _pp(x: float) -> str:
    return f"{100 * x:+.2f}"


def _p(p: float) -> str:
    return "< 1e-300" if p == 0 else f"= {p:.2g}"


def _effect(t: dict[str, Any]) -> str:
    if t["lo"] is None:
        return f"V = {t['diff']:.3f}"
    if t["unit"] == "P":
        return f"{t['diff']:.3f} [{t['lo']:.3f}, {t['hi']:.3f}]"
    if t["unit"] == "pp":
        return f"{_pp(t['diff'])} pp [{_pp(t['lo'])}, {_pp(t['hi'])}]"
    return f"{t['diff']:+.3g} [{t['lo']:+.3g}, {t['hi']:+.3g}]"


@dataclass
class Report:
    markdown: str
    html: str
    png: bytes
    summaries: dict[str, dict[str, Any]] = field(default_factory=dict)
    tests: list[dict[str, Any]] = field(default_factory=list)


def report(
    path: Path,
    cells: list[str],
    title: str,
    command: str,
    seconds: float,
    png_name: str,
    machine: str = "",
    thresholds: Thresholds | None = None,
) -> Report:
    """The report of a finished grid's rows file (read a column and a cell at a time)."""
    th = thresholds or Thresholds()
    rows = Rows(path)
    stats = rows.stat_columns()
    summaries = {c: cell_summary(rows, c, stats) for c in cells}
    tests = comparisons(rows, cells, th, summaries)
    png = plot(rows, cells, summaries, title, stats)
    n_games = sum(s["games"] for s in summaries.values())
    intro = [
        f"Generated by `trapworks explore` (do not edit by hand): {n_games:,} games in {len(cells)} cells, "
        f"{seconds:.0f} s of wall time{machine}.",
        "Command:",
    ]
    parts = _ReportParts(
        title=title,
        command=command,
        intro=intro,
        notes=_notes(th),
        diff_lines=_difference_lines(tests, th),
        seat_lines=_seat_lines(cells, summaries),
        tables=_tables(cells, summaries, tests, stats),
    )
    chart = _chart_html(interactive_charts(cells, summaries, tests))
    return Report(_markdown(parts, png_name), _html_page(parts, png, chart), png, summaries, tests)


@dataclass
class _ReportParts:
    """What the Markdown and the HTML report both show."""

    title: str
    command: str
    intro: list[str]
    notes: list[str]
    diff_lines: list[str]
    seat_lines: list[str]
    tables: dict[str, Any]


def _difference_lines(tests: list[dict[str, Any]], th: Thresholds) -> list[str]:
    """What differs, for a designer: practical differences first, then what is real but small."""
    practical = [t for t in tests if t["verdict"] == "practical"]
    small = [t for t in tests if t["verdict"] == "small"]
    unclear = [t for t in tests if t["verdict"] == "unclear"]
    diff_lines = [
        f"- {t['cell']} vs {t['baseline']}: {t['metric']} {_fmt(t['base_value'])} → {_fmt(t['value'])}, "
        f"{_effect(t)} (p {_p(t['p_holm'])} after Holm)"
        for t in practical
    ] or [
        f"- No difference between cells reaches the practical threshold ({100 * th.rate:g} pp for rates, "
        f"{100 * th.change:g}% of the baseline for means) with a significant test."
    ]
    if small:
        biggest = sorted(small, key=lambda t: -abs(t["diff"]) / (t["threshold"] or 1))[:3]
        diff_lines.append(
            f"- {len(small)} more differences are significant after Holm but may be smaller than the "
            "threshold (their intervals reach inside it), e.g. "
            + "; ".join(f"{t['cell']}: {t['metric']} {_effect(t)}" for t in biggest)
            + "."
        )
    if unclear:
        need = max((t["games_needed"] or 0) for t in unclear)
        diff_lines.append(
            f"- {len(unclear)} differences are unclear (not significant, but the interval reaches past the "
            f"threshold): about {need:,} games per cell would settle the hardest of them "
            "(80% power at 0.05 for a change of the threshold's size)."
        )
    return diff_lines


def _seat_lines(cells: list[str], summaries: dict[str, Any]) -> list[str]:
    """Each cell's most and least favoured seat, and the starting player's win rate."""
    seat_lines = []
    for c in cells:
        s = summaries[c]
        fav = max(s["seats"], key=lambda x: x["effect"])
        worst = min(s["seats"], key=lambda x: x["effect"])
        line = (
            f"- {c}: seat {fav['seat']} favoured, {_pp(fav['effect'])} pp "
            f"[{_pp(fav['effect_lo'])}, {_pp(fav['effect_hi'])}] over 1/{s['players']}; seat {worst['seat']} "
            f"{_pp(worst['effect'])} pp [{_pp(worst['effect_lo'])}, {_pp(worst['effect_hi'])}] "
            f"(seats equal: chi-square p {_p(s['seat_p'])})"
        )
        if s["starter"]:
            st = s["starter"]
            line += (
                f"; the starting player wins {st['rate']:.1%} [{st['lo']:.1%}, {st['hi']:.1%}], "
                f"{_pp(st['effect'])} pp against 1/{s['players']}"
            )
        seat_lines.append(line + ".")
    return seat_lines


def _tables(
    cells: list[str], summaries: dict[str, Any], tests: list[dict[str, Any]], stats: list[str]
) -> dict[str, Any]:
    """The report's tables as (header, rows), by name; "end_note" and "crank" (the stat names
    per crank, empty when the game has no crank) beside them."""
    cell_header, cell_rows = _cell_table(cells, summaries)
    seat_header, seat_rows = _seat_table(cells, summaries)
    test_header, test_rows = _test_table(tests)
    endings = sorted({e for s in summaries.values() for e in s["endings"]})
    end_header = ["cell", *endings]
    end_rows = [
        [c, *[f"{summaries[c]['endings'].get(e, 0) / summaries[c]['games']:.1%}" for e in endings]]
        for c in cells
    ]
    end_note = [f"Every game ends the same way ({endings[0]}): no plot for it."] if len(endings) == 1 else []
    stat_header = ["cell", *stats]
    stat_rows = [[c, *[summaries[c]["stats"][s] for s in stats]] for c in cells]
    crank = sorted({k for s in summaries.values() for k in s["per_crank"]}, key=lambda k: (k != "jams", k))
    crank_header = ["cell", *crank]
    crank_rows = [[c, *[f"{summaries[c]['per_crank'][k]['rate']:.2%}" for k in crank]] for c in cells]
    return {
        "seat": (seat_header, seat_rows),
        "cell": (cell_header, cell_rows),
        "end": (end_header, end_rows),
        "end_note": end_note,
        "stat": (stat_header, stat_rows),
        "crank": crank,
        "crank_table": (crank_header, crank_rows),
        "test": (test_header, test_rows),
    }


def _cell_table(cells: list[str], summaries: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    cell_header = [
        "cell",
        "games",
        "players",
        "agents",
        "win rate by seat [95% Wilson]",
        "p (seats equal)",
        "length mean",
        "median",
        "p10–p90",
        "truncated",
    ]
    cell_rows = []
    for c in cells:
        s = summaries[c]
        rates = " / ".join(f"{x['rate']:.1%} [{x['lo']:.1%}, {x['hi']:.1%}]" for x in s["seats"])
        cell_rows.append(
            [
                c,
                s["games"],
                s["players"],
                s["agents"],
                rates,
                s["seat_p"],
                s["length_mean"],
                s["length_median"],
                f"{s['length_p10']:g}–{s['length_p90']:g}",
                s["truncated"],
            ]
        )
    return cell_header, cell_rows


def _seat_table(cells: list[str], summaries: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    seat_header = ["cell", "seat", "wins", "win rate", "minus 1/players (pp) [95%]"]
    seat_rows = []
    for c in cells:
        s = summaries[c]
        for x in s["seats"]:
            seat_rows.append(
                [
                    c,
                    x["seat"],
                    x["wins"],
                    f"{x['rate']:.2%}",
                    f"{_pp(x['effect'])} [{_pp(x['effect_lo'])}, {_pp(x['effect_hi'])}]",
                ]
            )
        if s["starter"]:
            st = s["starter"]
            seat_rows.append(
                [
                    c,
                    "starter",
                    st["wins"],
                    f"{st['rate']:.2%}",
                    f"{_pp(st['effect'])} [{_pp(st['effect_lo'])}, {_pp(st['effect_hi'])}]",
                ]
            )
    return seat_header, seat_rows


def _test_table(tests: list[dict[str, Any]]) -> tuple[list[str], list[list[Any]]]:
    test_header = [
        "baseline",
        "cell",
        "metric",
        "baseline value",
        "cell value",
        "effect",
        "effect [95%]",
        "threshold",
        "test",
        "p",
        "p (Holm)",
        "verdict",
        "games per cell for the threshold",
    ]
    test_rows = [
        [
            t["baseline"],
            t["cell"],
            t["metric"],
            t["base_value"],
            t["value"],
            t["effect"],
            _effect(t),
            (
                f"{100 * t['threshold']:g} pp"
                if t["unit"] == "pp"
                else f"0.5 ± {t['threshold']:g}"
                if t["unit"] == "P"
                else t["threshold"]
            )
            if t["lo"] is not None
            else "",
            t["test"],
            t["p"],
            t["p_holm"],
            t["verdict"],
            t["games_needed"],
        ]
        for t in tests
    ]
    return test_header, test_rows


def _notes(th: Thresholds) -> list[str]:
    notes = [
        "Seat effects: each seat's win rate minus 1/players, in percentage points, with its 95% Wilson "
        "interval (statsmodels); 'p (seats equal)' is a chi-square test (scipy) that every seat wins "
        "equally often; the starting player is the seat that made the first decision (column "
        "`first_seat`). Comparisons: each cell against the first cell with as many players. Every "
        "row is one test, its effect (column 'effect') and that effect's 95% interval from the same "
        "test, and its verdict comes from that test alone: rates (pp) by a two-proportion z-test "
        "with Newcombe's interval; each length and statistic twice, as a difference of means by "
        "Welch's t-test and its interval, and as the probability that a game of the cell scores "
        "above one of the baseline (ties half; 0.5: no difference) by Brunner-Munzel's rank test and "
        "its interval (this one sees a change of shape that leaves the mean alone); endings by a "
        "chi-square test with Cramér's V; all p-values of this report Holm-adjusted together "
        "(statsmodels). Verdict: 'practical' when significant and the whole interval is beyond the "
        f"threshold ({100 * th.rate:g} pp for rates, {100 * th.change:g}% of the baseline for means, "
        f"0.5 ± {th.superiority:g} for a probability of superiority; "
        "`--min-effect`, `--min-change`), 'negligible' when the whole interval is within it, 'small' "
        "when significant but possibly below it, 'unclear' otherwise; the last column is the games per "
        "cell that would find a change of the threshold's size with 80% power at 0.05. Length counts "
        "decisions (chance outcomes not counted). The rows behind the report (one per game) are "
        "rows.parquet beside it (examples/explore_rows.ipynb reads them with DuckDB)."
    ]
    return notes


def _markdown(r: _ReportParts, png_name: str) -> str:
    title, intro, command, notes = r.title, r.intro, r.command, r.notes
    diff_lines, seat_lines, t = r.diff_lines, r.seat_lines, r.tables
    seat_header, seat_rows = t["seat"]
    cell_header, cell_rows = t["cell"]
    end_header, end_rows = t["end"]
    end_note, crank = t["end_note"], t["crank"]
    crank_header, crank_rows = t["crank_table"]
    stat_header, stat_rows = t["stat"]
    test_header, test_rows = t["test"]
    md = [f"# {title}", "", *intro, "", f"    {command}", "", *notes, "", f"![plots]({png_name})", ""]
    md += [
        "Open report.html for the same figures interactively (hover for values, click a cell in a legend).",
        "",
    ]
    md += ["## What differs", "", *diff_lines, "", "## Seat effects", "", *seat_lines, ""]
    md += [*_md_table(seat_header, seat_rows), ""]
    md += ["## Cells", "", *_md_table(cell_header, cell_rows), "", "## How games end", "", *end_note]
    md += [*_md_table(end_header, end_rows), ""]
    if crank:
        md += ["## Jams per crank", "", *_md_table(crank_header, crank_rows), ""]
    md += ["## The game's own statistics (mean per game)", "", *_md_table(stat_header, stat_rows), ""]
    md += ["## Every comparison", "", *_md_table(test_header, test_rows), ""]
    return "\n".join(md)


def _html_page(r: _ReportParts, png: bytes, chart: str) -> str:
    title, intro, command, notes = r.title, r.intro, r.command, r.notes
    diff_lines, seat_lines, t = r.diff_lines, r.seat_lines, r.tables
    seat_header, seat_rows = t["seat"]
    cell_header, cell_rows = t["cell"]
    end_header, end_rows = t["end"]
    end_note, crank = t["end_note"], t["crank"]
    crank_header, crank_rows = t["crank_table"]
    stat_header, stat_rows = t["stat"]
    test_header, test_rows = t["test"]
    b64 = base64.b64encode(png).decode()
    # Altair's page: its head (styles, the inlined Vega scripts) and its body (the chart's div and
    # the call that draws it). The scripts themselves contain "<body>": the real tags are the last.
    body_start = chart.rfind("<body>")
    head_end = chart.rfind("</head>", 0, body_start) if body_start >= 0 else -1
    chart_body = chart[body_start + 6 : chart.rfind("</body>")] if body_start >= 0 else chart
    chart_head = chart[chart.find("<head>") + 6 : head_end] if head_end >= 0 else ""
    h = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{html.escape(title)}</title>",
        chart_head,
        "<style>body{font-family:system-ui,sans-serif;max-width:1200px;margin:auto;padding:1em;line-height:1.4}"
        "table{border-collapse:collapse;font-size:13px;margin:0.5em 0;display:block;overflow-x:auto}"
        "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
        "td:first-child,th:first-child{text-align:left}code,pre{background:#f4f4f4}"
        ".plot,.charts{overflow-x:auto}.plot img{width:100%;min-width:760px}"
        "pre{padding:0.5em;overflow-x:auto;white-space:pre-wrap}</style>",
        "</head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{_inline(' '.join(intro))}</p><pre>{html.escape(command)}</pre>",
        f"<p>{_inline(notes[0])}</p>",
        "<h2>What differs</h2><ul>" + "".join(f"<li>{html.escape(x[2:])}</li>" for x in diff_lines) + "</ul>",
        "<h2>Seat effects</h2><ul>" + "".join(f"<li>{html.escape(x[2:])}</li>" for x in seat_lines) + "</ul>",
        "<h2>Figures (interactive: hover for values, click a cell in a legend)</h2>",
        f"<div class='charts'>{chart_body}</div>",
        "<h2>Figures (static)</h2>",
        "<div class='plot'><img alt='seat effects, first-player advantage, game length, how games end, jams "
        f"per crank and the game statistics per cell' src='data:image/png;base64,{b64}'></div>",
        "<h2>Seat effects by seat</h2>" + _html_table(seat_header, seat_rows),
        "<h2>Cells</h2>" + _html_table(cell_header, cell_rows),
        "<h2>How games end</h2>"
        + "".join(f"<p>{html.escape(x)}</p>" for x in end_note)
        + _html_table(end_header, end_rows),
        ("<h2>Jams per crank</h2>" + _html_table(crank_header, crank_rows)) if crank else "",
        "<h2>The game's own statistics (mean per game)</h2>" + _html_table(stat_header, stat_rows),
        "<h2>Every comparison</h2>" + _html_table(test_header, test_rows),
        "</body></html>",
    ]
    return "\n".join(h)
