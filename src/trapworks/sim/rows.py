"""One row per game with typed columns (no JSON or lists inside cells), and writing rows as
Parquet (pyarrow) or CSV.

Columns: game, cell (explore only), index, seed, version, players, opt_<option> for every
option (a dict option becomes opt_<option>_<key>, a list is written as "a,b,c"), agent_seatK,
return_seatK and won_seatK per seat (K from 1), winner (the one winning seat, null when none or
several), num_winners, length (decisions), actions, truncated, ending, then the game's own
statistics (trapworks.core.game_statistics).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import trapworks

from . import GameResult

FORMATS = ("parquet", "csv")


def option_columns(options: dict[str, Any]) -> dict[str, Any]:
    cols: dict[str, Any] = {}
    for key, value in options.items():
        if isinstance(value, dict):
            for sub, v in value.items():
                cols[f"opt_{key}_{sub}"] = v
        elif isinstance(value, list | tuple):
            cols[f"opt_{key}"] = ",".join(str(v) for v in value)
        else:
            cols[f"opt_{key}"] = value
    return cols


def base_row(
    game_id: str, cell: str | None, index: int, seed: int, options: dict[str, Any]
) -> dict[str, Any]:
    row: dict[str, Any] = {"game": game_id}
    if cell is not None:
        row["cell"] = cell
    row.update({"index": index, "seed": seed, "version": trapworks.__version__})
    row.update(option_columns(options))
    return row


def seat_columns(
    seats: Sequence[str], returns: Sequence[float], winners: Sequence[int], truncated: bool
) -> dict[str, Any]:
    row: dict[str, Any] = {"players": len(seats)}
    for s, name in enumerate(seats):
        row[f"agent_seat{s + 1}"] = name
    for s, value in enumerate(returns):
        row[f"return_seat{s + 1}"] = float(value)
    won = set(winners)
    for s in range(len(seats)):
        row[f"won_seat{s + 1}"] = s in won
    row["winner"] = winners[0] + 1 if len(winners) == 1 else None
    row["num_winners"] = len(winners)
    row["truncated"] = bool(truncated)
    return row


def result_row(
    game_id: str, options: dict[str, Any], result: GameResult, cell: str | None = None
) -> dict[str, Any]:
    """The row of one game played by `trapworks.sim.play_one`."""
    row = base_row(game_id, cell, result.index, result.seed, options)
    row.update(seat_columns(result.seats, result.returns, result.winners, result.truncated))
    row["length"] = result.decisions
    row["actions"] = result.actions
    row["ending"] = result.stats.get("ending", "truncated" if result.truncated else "finished")
    row.update({k: v for k, v in result.stats.items() if k != "ending"})
    return row


def _unify(values: list[Any]) -> list[Any]:
    """One type per column: ints and floats become floats, any other mix becomes text."""
    kinds = {type(v) for v in values if v is not None}
    if len(kinds) <= 1:
        return values
    if kinds <= {int, float}:
        return [None if v is None else float(v) for v in values]
    return [None if v is None else str(v) for v in values]


def to_table(rows: Sequence[dict[str, Any]]) -> Any:
    """A pyarrow Table from row dicts (columns in first-seen order; missing values are null)."""
    import pyarrow as pa

    names: dict[str, None] = {}
    for r in rows:
        names.update(dict.fromkeys(r))
    columns = {name: _unify([r.get(name) for r in rows]) for name in names}
    return pa.table(columns)


def concat(tables: Sequence[Any]) -> Any:
    """Tables of chunks in one (columns unified; a column a chunk lacks is null there)."""
    import pyarrow as pa

    tables = [t for t in tables if t.num_rows]
    if not tables:
        return pa.table({})
    try:
        table = pa.concat_tables(tables, promote_options="permissive")
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        # Types that do not promote (e.g. text in one chunk, numbers in another): through rows.
        table = to_table([r for t in tables for r in t.to_pylist()])
    return table.select(canonical_order(table.column_names))


def canonical_order(names: Sequence[str]) -> list[str]:
    """Seat columns together after `players` (a later chunk with more players adds some at the
    end), everything else in first-seen order."""
    import re

    seat = re.compile(r"^(agent|return|won)_seat(\d+)$")
    kinds = {"agent": 0, "return": 1, "won": 2}

    def order(name: str) -> tuple[int, int]:
        found = seat.match(name)
        assert found is not None
        return kinds[found[1]], int(found[2])

    seats = sorted((n for n in names if seat.match(n)), key=order)
    rest = [n for n in names if not seat.match(n)]
    at = rest.index("players") + 1 if "players" in rest else len(rest)
    return rest[:at] + seats + rest[at:]


def write_table(table: Any, path: Path, fmt: str) -> None:
    """Write atomically: a reader never sees half a file, an interrupted write leaves none."""
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    tmp = path.with_name(path.name + ".tmp")
    if fmt == "parquet":
        pq.write_table(table, tmp)
    elif fmt == "csv":
        pacsv.write_csv(table, tmp)
    else:
        raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    tmp.replace(path)


def read_table(path: Path) -> Any:
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    if path.suffix == ".csv":
        return pacsv.read_csv(path)
    return pq.read_table(path)
