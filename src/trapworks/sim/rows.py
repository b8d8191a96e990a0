"""One row per game with typed columns (no JSON or lists inside cells), and writing rows as
Parquet (pyarrow) or CSV.

Columns: game, cell (explore only), index, seed, version, players, opt_<option> for every
option (a dict option becomes opt_<option>_<key>, a list is written as "a,b,c"), agent_seatK,
return_seatK and won_seatK per seat (K from 1), winner (the one winning seat, null when none or
several), num_winners, length (decisions), actions, truncated, ending, then the game's own
statistics (trapworks.core.game_statistics).

Every column has a fixed type per game (never Arrow's NULL type, even in a chunk where a column
is empty: `winner` in a chunk of draws is an empty int64 column), and every file carries its
provenance in the Parquet metadata (`provenance`: command, options, trapworks version, git
commit, code fingerprint) and a description per column (`describe(path)` reads them back).
Outputs are written and read piece by piece (`stream_join`, `read_columns`): no step holds every
row of a run.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import trapworks

from . import GameResult

FORMATS = ("parquet", "csv")

# The types of the columns every game has (the rest: the option values' and statistics' types).
_BASE_TYPES = {
    "game": "string",
    "cell": "string",
    "series": "string",
    "index": "int64",
    "seed": "int64",
    "version": "string",
    "players": "int64",
    "winner": "int64",
    "num_winners": "int64",
    "truncated": "bool",
    "length": "int64",
    "actions": "int64",
    "ending": "string",
    "first_seat": "int64",
}
_SEAT_TYPES = {"agent": "string", "return": "double", "won": "bool"}

DESCRIPTIONS = {
    "game": "game id",
    "cell": "explore: the grid cell (its options) this game belongs to",
    "series": "tournament: the group of agents of this game's series",
    "index": "the game's number in its run (0-based)",
    "seed": "the game's seed: game_seed(run seed, index); replays the game exactly",
    "version": "trapworks version that played the game",
    "players": "number of seats",
    "winner": "the winning seat (1-based); empty when nobody or several won",
    "num_winners": "how many seats won",
    "truncated": "stopped before the end (max actions or the game's length limit)",
    "length": "decisions (actions chosen by seats, chance outcomes not counted)",
    "actions": "every action, chance outcomes included",
    "ending": "how the game ended",
    "first_seat": "the seat (1-based) that made the game's first decision: who started",
    "agent_seat": "agent in seat {k}",
    "return_seat": "return (payoff) of seat {k}",
    "won_seat": "whether seat {k} won",
    "opt_": "game option {name}",
    # The games' own statistics (docs/scale.md has the table).
    "cranks": "Mouse Trap: turns of the crank",
    "captures": "Mouse Trap: cranks that caught mice",
    "mice_caught": "Mouse Trap: mice caught",
    "jams": "Mouse Trap: cranks that jammed (all stages)",
    "jams_": "Mouse Trap: jams at stage {name}",
    "cheese_paid": "Mouse Trap: cheese paid",
    "steals": "Mouse Trap: cheese stolen",
    "removals": "Booby Trap: pieces removed",
    "trips": "Booby Trap: removals that tripped the trap",
    "thrown_out": "Booby Trap: pieces thrown out",
    "passes": "Booby Trap: passes",
    "penalties_unpaid": "Booby Trap: penalties not paid",
    "debt_total": "Booby Trap: total debt",
    "debt_max": "Booby Trap: largest debt",
    "knockoffs": "13 Dead End Drive: pawns knocked off (all traps)",
    "knockoffs_": "13 Dead End Drive: pawns knocked off by trap {name}",
    "cards_played": "13 Dead End Drive: cards played",
    "draws": "13 Dead End Drive: cards drawn",
    "detective_cards": "13 Dead End Drive: detective cards",
    "bluffs": "13 Dead End Drive: bluffs",
    "rounds": "Last Mouse Lost: rounds of the match",
    "opener_wins": "Last Mouse Lost: rounds won by the round's opener",
}


def describe_column(name: str) -> str:
    """A line saying what column `name` holds."""
    import re

    if name in DESCRIPTIONS:
        return DESCRIPTIONS[name]
    seat = re.match(r"^(agent|return|won)_seat(\d+)$", name)
    if seat:
        return DESCRIPTIONS[f"{seat[1]}_seat"].format(k=seat[2])
    for prefix in ("opt_", "jams_", "knockoffs_"):
        if name.startswith(prefix):
            return DESCRIPTIONS[prefix].format(name=name[len(prefix) :])
    return "the game's own statistic " + name


def column_type(name: str, values: Sequence[Any]) -> Any:
    """The Arrow type of a column: fixed for the columns every game has, else from the values
    (bool, int64, double when ints and floats mix, string); int64 when a chunk has no value."""
    import re

    import pyarrow as pa

    seat = re.match(r"^(agent|return|won)_seat\d+$", name)
    fixed = _BASE_TYPES.get(name) or (_SEAT_TYPES[seat[1]] if seat else None)
    if fixed:
        return pa.type_for_alias(fixed)
    kinds = {type(v) for v in values if v is not None}
    if not kinds:
        return pa.int64()
    if kinds == {bool}:
        return pa.bool_()
    if kinds <= {int}:
        return pa.int64()
    if kinds <= {int, float}:
        return pa.float64()
    return pa.string()


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
    row["first_seat"] = None if result.first_seat is None else result.first_seat + 1
    row["length"] = result.decisions
    row["actions"] = result.actions
    row["ending"] = result.stats.get("ending", "truncated" if result.truncated else "finished")
    row.update({k: v for k, v in result.stats.items() if k != "ending"})
    return row


def _unify(values: list[Any], kind: Any) -> list[Any]:
    import pyarrow as pa

    if pa.types.is_floating(kind):
        return [None if v is None else float(v) for v in values]
    if pa.types.is_string(kind):
        return [None if v is None else str(v) for v in values]
    return values


def to_table(rows: Sequence[dict[str, Any]]) -> Any:
    """A pyarrow Table from row dicts (columns in first-seen order; missing values are null),
    each column typed by `column_type` (never the NULL type)."""
    import pyarrow as pa

    names: dict[str, None] = {}
    for r in rows:
        names.update(dict.fromkeys(r))
    arrays, fields = [], []
    for name in names:
        values = [r.get(name) for r in rows]
        kind = column_type(name, values)
        arrays.append(pa.array(_unify(values, kind), type=kind))
        fields.append(pa.field(name, kind, metadata={"description": describe_column(name)}))
    return pa.Table.from_arrays(arrays, schema=pa.schema(fields))


def unify_schemas(schemas: Sequence[Any]) -> Any:
    """One schema for parts of one output: every column once (canonical order); a column typed
    int64 in one part and double in another is double; descriptions kept."""
    import pyarrow as pa

    merged = pa.unify_schemas(list(schemas), promote_options="permissive")
    fields = {f.name: f for f in merged}
    out = []
    for name in canonical_order(list(fields)):
        f = fields[name]
        if pa.types.is_null(f.type):
            f = f.with_type(pa.int64())
        out.append(f.with_metadata({"description": describe_column(name)}))
    return pa.schema(out)


def concat(tables: Sequence[Any]) -> Any:
    """Tables of chunks in one (columns unified; a column a chunk lacks is null there)."""
    import pyarrow as pa

    tables = [t for t in tables if t.num_rows]
    if not tables:
        return pa.table({})
    schema = unify_schemas([t.schema for t in tables])
    return pa.concat_tables([conform(t, schema) for t in tables])


def conform(table: Any, schema: Any) -> Any:
    """`table` with exactly `schema`'s columns and types (a missing column is null)."""
    import pyarrow as pa

    cols = []
    for f in schema:
        if f.name in table.column_names:
            cols.append(table.column(f.name).cast(f.type))
        else:
            cols.append(pa.nulls(table.num_rows, type=f.type))
    return pa.Table.from_arrays(cols, schema=schema)


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


def with_provenance(schema: Any, provenance: dict[str, Any] | None) -> Any:
    import json

    if not provenance:
        return schema
    return schema.with_metadata({"trapworks": json.dumps(provenance, sort_keys=True)})


def write_table(table: Any, path: Path, fmt: str, provenance: dict[str, Any] | None = None) -> None:
    """Write atomically: a reader never sees half a file, an interrupted write leaves none."""
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    tmp = path.with_name(path.name + ".tmp")
    if fmt == "parquet":
        pq.write_table(table.replace_schema_metadata(with_provenance(table.schema, provenance).metadata), tmp)
    elif fmt == "csv":
        pacsv.write_csv(table, tmp)
    else:
        raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    tmp.replace(path)


def stream_join(
    sources: Sequence[Path],
    path: Path,
    fmt: str,
    provenance: dict[str, Any] | None = None,
    rename: dict[str, str] | None = None,
    group_rows: int = 65536,
) -> int:
    """Join Parquet files (in the order given) into `path`, atomically, holding at most one row
    group of about `group_rows` rows at a time (files are opened one after another, and the
    output has one row group per `group_rows` rows, however many files went in); the rows
    written."""
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    rename = rename or {}
    schema = unify_schemas([_renamed(pq.read_schema(p), rename) for p in sources])
    schema = with_provenance(schema, provenance)
    tmp = path.with_name(path.name + ".tmp")
    writer: Any = pq.ParquetWriter(tmp, schema) if fmt == "parquet" else pacsv.CSVWriter(tmp, schema)
    rows = 0
    buffer: list[Any] = []
    buffered = 0

    def flush() -> None:
        nonlocal buffer, buffered
        if buffer:
            if fmt == "parquet":
                writer.write_table(pa.concat_tables(buffer), row_group_size=max(group_rows, buffered))
            else:
                writer.write_table(pa.concat_tables(buffer))
        buffer, buffered = [], 0

    try:
        for source in sources:
            with pq.ParquetFile(source) as f:
                for g in range(f.num_row_groups):
                    part = f.read_row_group(g)
                    part = part.rename_columns([rename.get(c, c) for c in part.column_names])
                    part = conform(part, schema)
                    buffer.append(part)
                    buffered += part.num_rows
                    rows += part.num_rows
                    if buffered >= group_rows:
                        flush()
        flush()
    finally:
        writer.close()
    tmp.replace(path)
    return rows


def _renamed(schema: Any, rename: dict[str, str]) -> Any:
    import pyarrow as pa

    return pa.schema([f.with_name(rename.get(f.name, f.name)) for f in schema])


def dataset(path: Path) -> Any:
    """A pyarrow dataset over a rows file (Parquet or CSV): read column by column, lazily."""
    import pyarrow.dataset as ds

    return ds.dataset(path, format="csv" if path.suffix == ".csv" else "parquet")


def iter_batches(path: Path, columns: Sequence[str], batch_size: int = 65536) -> Any:
    """Record batches of `columns` of a rows file, one after another (nothing read ahead)."""
    import pyarrow.parquet as pq

    if path.suffix == ".csv":
        yield from dataset(path).to_batches(
            columns=list(columns), batch_size=batch_size, batch_readahead=1, fragment_readahead=1
        )
        return
    with pq.ParquetFile(path) as f:
        yield from f.iter_batches(columns=list(columns), batch_size=batch_size, use_threads=False)


def read_columns(path: Path, columns: Sequence[str], filter: Any = None) -> Any:
    """Only `columns` of a rows file (pyarrow dataset projection), as a pandas DataFrame."""
    return dataset(path).to_table(columns=list(columns), filter=filter).to_pandas()


def column_names(path: Path) -> list[str]:
    return list(dataset(path).schema.names)


def provenance(path: Path) -> dict[str, Any]:
    """The run settings, version and commit written into a Parquet file's metadata ({} if none)."""
    import json

    import pyarrow.parquet as pq

    meta = pq.read_schema(path).metadata or {}
    raw = meta.get(b"trapworks")
    return json.loads(raw) if raw else {}


def describe(path: Path) -> dict[str, str]:
    """Column name -> description, from a Parquet file's field metadata."""
    import pyarrow.parquet as pq

    out = {}
    for f in pq.read_schema(path):
        meta = f.metadata or {}
        out[f.name] = meta.get(b"description", b"").decode()
    return out


def read_table(path: Path) -> Any:
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    if path.suffix == ".csv":
        return pacsv.read_csv(path)
    return pq.read_table(path)
