"""The variant explorer: a grid of option cells played by the same agents, and a report comparing
the cells (seat advantage with 95% intervals, game lengths, how games end, the game's own
statistics, and which differences are significant) as HTML with embedded plots, Markdown and PNG.

Comparisons are made between cells with the same number of players, each against the first such
cell (the baseline): win rates by a two-proportion z-test, lengths and statistics by a
Mann-Whitney U test, endings by a chi-square test; the p-values of one report are Holm-adjusted
together, so "significant" means below 0.05 after correction for every test in the report.
"""

from __future__ import annotations

import base64
import html
import io
import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trapworks.core import explore_cells, game_class, make

from .stats import contingency, holm, mann_whitney, two_proportions, uniform_seats, wilson

FIXED_COLUMNS = {"game", "cell", "index", "seed", "version", "players", "winner", "num_winners"}
FIXED_COLUMNS |= {"length", "actions", "truncated", "ending"}
ALPHA = 0.05


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
    if players:
        cells = [
            Cell(f"{c.label}, {p}p" if len(players) > 1 else c.label, {**c.options, "players": p})
            for p in players
            for c in cells
        ]
    out = []
    for c in cells:
        options = {**base, **c.options}
        make(game_id, **options)  # OptionError names the bad option or value
        out.append(Cell(c.label, options))
    labels = [c.label for c in out]
    if len(set(labels)) != len(labels):
        raise GridError("two cells have the same options")
    return out


# --- the report -----------------------------------------------------------------------------
def stat_columns(df: Any) -> list[str]:
    """The game's own statistics: the numeric columns after `ending` that are not per-seat."""
    import re

    cols = list(df.columns)
    start = cols.index("ending") + 1 if "ending" in cols else len(cols)
    seat = re.compile(r"^(agent|return|won)_seat\d+$")  # a cell with more players adds these late
    return [
        c
        for c in cols[start:]
        if df[c].dtype.kind in "iufb"
        and not seat.match(c)
        and not c.startswith("opt_")
        and c not in FIXED_COLUMNS
    ]


def cell_summary(df: Any) -> dict[str, Any]:
    players = int(df["players"].iloc[0])
    n = len(df)
    seats = []
    for k in range(1, players + 1):
        wins = int(df[f"won_seat{k}"].sum())
        lo, hi = wilson(wins, n)
        seats.append({"seat": k, "wins": wins, "rate": wins / n, "lo": lo, "hi": hi})
    lengths = df["length"]
    return {
        "games": n,
        "players": players,
        "agents": ",".join(sorted(set(df[[f"agent_seat{k}" for k in range(1, players + 1)]].stack()))),
        "seats": seats,
        "seat_p": uniform_seats([s["wins"] for s in seats]),
        "truncated": int(df["truncated"].sum()),
        "length_mean": float(lengths.mean()),
        "length_median": float(lengths.median()),
        "length_p10": float(lengths.quantile(0.1)),
        "length_p90": float(lengths.quantile(0.9)),
        "endings": {str(k): int(v) for k, v in df["ending"].value_counts().items()},
        "stats": {c: float(df[c].mean()) for c in stat_columns(df)},
    }


def comparisons(df: Any, cells: list[str]) -> list[dict[str, Any]]:
    """Each cell against the first cell with as many players: the tests and Holm-adjusted p."""
    rows: list[dict[str, Any]] = []
    stats = stat_columns(df)
    baseline: dict[int, str] = {}
    for label in cells:
        sub = df[df["cell"] == label]
        players = int(sub["players"].iloc[0])
        if players not in baseline:
            baseline[players] = label
            continue
        base = df[df["cell"] == baseline[players]]
        for k in range(1, players + 1):
            a, b = int(base[f"won_seat{k}"].sum()), int(sub[f"won_seat{k}"].sum())
            rows.append(
                _cmp(
                    baseline[players],
                    label,
                    f"seat {k} win rate",
                    a / len(base),
                    b / len(sub),
                    two_proportions(a, len(base), b, len(sub)),
                    "z-test",
                )
            )
        rows.append(
            _cmp(
                baseline[players],
                label,
                "length (decisions)",
                base["length"].mean(),
                sub["length"].mean(),
                mann_whitney(list(base["length"]), list(sub["length"])),
                "Mann-Whitney",
            )
        )
        endings = sorted(set(base["ending"]) | set(sub["ending"]))
        table = [[int((part["ending"] == e).sum()) for e in endings] for part in (base, sub)]
        rows.append(
            _cmp(baseline[players], label, "how games end", None, None, contingency(table), "chi-square")
        )
        for c in stats:
            rows.append(
                _cmp(
                    baseline[players],
                    label,
                    c,
                    base[c].mean(),
                    sub[c].mean(),
                    mann_whitney(list(base[c]), list(sub[c])),
                    "Mann-Whitney",
                )
            )
    for r, p in zip(rows, holm([r["p"] for r in rows]), strict=True):
        r["p_holm"] = p
        r["significant"] = p < ALPHA
    return rows


def _cmp(base: str, cell: str, metric: str, a: Any, b: Any, p: float, test: str) -> dict[str, Any]:
    return {
        "baseline": base,
        "cell": cell,
        "metric": metric,
        "base_value": a,
        "value": b,
        "p": p,
        "test": test,
    }


def plot(df: Any, cells: list[str], summaries: dict[str, dict[str, Any]], title: str) -> bytes:
    """One PNG: win rate by seat (95% Wilson intervals), length distributions, how games end,
    and the game's main statistics (means with 95% intervals), one colour per cell."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    stats = [c for c in stat_columns(df) if df[c].std() > 0][:6]
    height = 0.32 * len(cells) + 1.6
    fig = plt.figure(figsize=(15, 3 * height + 0.5 * (len(stats) + 1) // 2 * height))
    rows = 3 + (len(stats) + 1) // 2
    grid = fig.add_gridspec(rows, 2)
    colours = plt.get_cmap("tab20")(np.linspace(0, 1, max(len(cells), 2)))
    y = np.arange(len(cells))[::-1]
    # Seat advantage.
    ax = fig.add_subplot(grid[0, :])
    max_p = max(s["players"] for s in summaries.values())
    width = 0.8 / max_p
    for i, label in enumerate(cells):
        s = summaries[label]
        for seat in s["seats"]:
            yy = y[i] + (seat["seat"] - 1 - (s["players"] - 1) / 2) * width
            ax.barh(
                yy,
                seat["rate"],
                height=width * 0.9,
                color=colours[i],
                alpha=0.35 + 0.65 * (seat["seat"] == 1),
            )
            ax.errorbar(
                seat["rate"],
                yy,
                xerr=[[seat["rate"] - seat["lo"]], [seat["hi"] - seat["rate"]]],
                fmt="none",
                ecolor="black",
                elinewidth=0.8,
                capsize=2,
            )
        ax.plot([1 / s["players"]] * 2, [y[i] - 0.45, y[i] + 0.45], color="grey", linestyle=":", linewidth=1)
    ax.set_yticks(y, cells, fontsize=8)
    ax.set_xlabel(
        "win rate by seat (seat 1 lowest in each cell, darkest); bars: 95% Wilson interval; dotted: 1/players"
    )
    ax.set_title("Seat advantage")
    # Game length.
    ax = fig.add_subplot(grid[1, :])
    data = [df.loc[df["cell"] == label, "length"].to_numpy() for label in cells]
    parts = ax.boxplot(data, positions=y, vert=False, widths=0.6, showfliers=False, patch_artist=True)
    for patch, c in zip(parts["boxes"], colours, strict=False):
        patch.set_facecolor(c)
    for i, d in enumerate(data):
        ax.plot(d.mean(), y[i], marker="D", color="black", markersize=3)
    ax.set_yticks(y, cells, fontsize=8)
    ax.set_xlabel("game length in decisions (box: quartiles, whiskers: 1.5 IQR, diamond: mean)")
    ax.set_title("Game length")
    # Endings.
    ax = fig.add_subplot(grid[2, :])
    endings = sorted(set(df["ending"]))
    left = np.zeros(len(cells))
    ecol = plt.get_cmap("Set2")(np.linspace(0, 1, max(len(endings), 2)))
    for j, e in enumerate(endings):
        share = np.array([summaries[c]["endings"].get(e, 0) / summaries[c]["games"] for c in cells])
        ax.barh(y, share, left=left, color=ecol[j], label=e)
        left += share
    ax.set_yticks(y, cells, fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games")
    ax.set_title("How games end")
    ax.legend(fontsize=7, loc="lower right", ncol=min(len(endings), 6))
    # The game's own statistics.
    for k, c in enumerate(stats):
        ax = fig.add_subplot(grid[3 + k // 2, k % 2])
        means = [df.loc[df["cell"] == label, c].mean() for label in cells]
        sems = [1.96 * df.loc[df["cell"] == label, c].sem() for label in cells]
        ax.barh(y, means, xerr=sems, color=colours[: len(cells)], ecolor="black", capsize=2)
        ax.set_yticks(y, cells, fontsize=7)
        ax.set_title(f"{c} per game (mean, 95% interval)", fontsize=9)
    fig.suptitle(title)
    # Keep half an inch on top for the title (tight_layout alone lets a tall figure's first
    # panel run into it).
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.5 / fig.get_figheight()))
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80)
    plt.close(fig)
    return buf.getvalue()


def _fmt(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
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


def report(
    df: Any, cells: list[str], title: str, command: str, seconds: float, png_name: str, machine: str = ""
) -> tuple[str, str, bytes]:
    """(Markdown, HTML, PNG) of a finished grid's rows."""
    summaries = {c: cell_summary(df[df["cell"] == c]) for c in cells}
    tests = comparisons(df, cells)
    png = plot(df, cells, summaries, title)
    stats = stat_columns(df)
    n_games = len(df)
    intro = [
        f"Generated by `trapworks explore` (do not edit by hand): {n_games:,} games in {len(cells)} cells, "
        f"{seconds:.0f} s of wall time{machine}.",
        "Command:",
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
    endings = sorted(set(df["ending"]))
    end_header = ["cell", *endings]
    end_rows = [
        [c, *[f"{summaries[c]['endings'].get(e, 0) / summaries[c]['games']:.1%}" for e in endings]]
        for c in cells
    ]
    stat_header = ["cell", *stats]
    stat_rows = [[c, *[summaries[c]["stats"][s] for s in stats]] for c in cells]
    test_header = [
        "baseline",
        "cell",
        "metric",
        "baseline value",
        "cell value",
        "test",
        "p",
        "p (Holm)",
        "significant",
    ]
    test_rows = [
        [
            t["baseline"],
            t["cell"],
            t["metric"],
            t["base_value"],
            t["value"],
            t["test"],
            t["p"],
            t["p_holm"],
            t["significant"],
        ]
        for t in tests
    ]
    significant = [t for t in tests if t["significant"]]
    sig_lines = [
        f"- {t['cell']} vs {t['baseline']}: {t['metric']} "
        + (f"{_fmt(t['base_value'])} → {_fmt(t['value'])} " if t["value"] is not None else "")
        + f"(p = {t['p_holm']:.2g} after Holm)"
        for t in significant
    ] or ["- No difference between cells is significant at 0.05 after Holm's correction."]
    seat_lines = [
        f"- {c}: seat wins differ from equal (chi-square p = {summaries[c]['seat_p']:.2g})"
        for c in cells
        if summaries[c]["seat_p"] < ALPHA
    ] or ["- In no cell do the seats' win counts differ significantly from equal (chi-square, 0.05)."]
    notes = [
        "Seat advantage: each seat's win rate with its 95% Wilson interval (statsmodels); "
        "'p (seats equal)' is a chi-square test (scipy) that every seat wins equally often. "
        "Comparisons: each cell against the first cell with as many players; win rates by a two-proportion "
        "z-test (statsmodels), lengths and statistics by Mann-Whitney U (scipy), endings by a chi-square "
        "test; all p-values of this report Holm-adjusted together (statsmodels). Length counts decisions "
        "(chance outcomes not counted). The command writes the rows behind the report (one per game) "
        "to rows.parquet beside it: `pandas.read_parquet`."
    ]
    md = [f"# {title}", "", *intro, "", f"    {command}", "", *notes, "", f"![plots]({png_name})", ""]
    md += ["## What differs", "", *sig_lines, "", "## Seat advantage within a cell", "", *seat_lines, ""]
    md += ["## Cells", "", *_md_table(cell_header, cell_rows), "", "## How games end", ""]
    md += [*_md_table(end_header, end_rows), "", "## The game's own statistics (mean per game)", ""]
    md += [
        *_md_table(stat_header, stat_rows),
        "",
        "## Every comparison",
        "",
        *_md_table(test_header, test_rows),
        "",
    ]
    b64 = base64.b64encode(png).decode()
    h = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{html.escape(title)}</title>",
        "<style>body{font-family:system-ui,sans-serif;max-width:1200px;margin:auto;padding:1em;line-height:1.4}"
        "table{border-collapse:collapse;font-size:13px;margin:0.5em 0;display:block;overflow-x:auto}"
        "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
        "td:first-child,th:first-child{text-align:left}code,pre{background:#f4f4f4}"
        # On a phone the figure keeps a readable size and scrolls sideways instead of shrinking.
        ".plot{overflow-x:auto}.plot img{width:100%;min-width:760px}"
        "pre{padding:0.5em;overflow-x:auto;white-space:pre-wrap}</style>",
        "</head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{_inline(' '.join(intro))}</p><pre>{html.escape(command)}</pre>",
        f"<p>{_inline(notes[0])}</p>",
        "<h2>What differs</h2><ul>" + "".join(f"<li>{html.escape(x[2:])}</li>" for x in sig_lines) + "</ul>",
        "<h2>Seat advantage within a cell</h2><ul>"
        + "".join(f"<li>{html.escape(x[2:])}</li>" for x in seat_lines)
        + "</ul>",
        "<div class='plot'><img alt='seat advantage, game length, how games end and the game statistics "
        f"per cell' src='data:image/png;base64,{b64}'></div>",
        "<h2>Cells</h2>" + _html_table(cell_header, cell_rows),
        "<h2>How games end</h2>" + _html_table(end_header, end_rows),
        "<h2>The game's own statistics (mean per game)</h2>" + _html_table(stat_header, stat_rows),
        "<h2>Every comparison</h2>" + _html_table(test_header, test_rows),
        "</body></html>",
    ]
    return "\n".join(md), "\n".join(h), png
