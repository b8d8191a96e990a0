"""A simulated game from its row: the records a run keeps with `--keep-records` (one per game,
`<rows stem>.records.parquet` beside the rows), found by the row's seed."""

from __future__ import annotations

import json
from pathlib import Path

from trapworks.core import TrapworksError
from trapworks.core.record import GameRecord


class RecordNotFound(TrapworksError):
    """No kept record for that rows file or seed; the message says what to do."""


def records_file(path: Path) -> Path:
    """The records beside a rows file (or the records file itself)."""
    if path.name.endswith(".records.parquet"):
        return path
    return path.with_name(path.stem + ".records.parquet")


def record_for_seed(path: Path, seed: int | None) -> GameRecord:
    """The record of the game whose row has `seed` (read by a filter on the seed column)."""
    import pyarrow.dataset as ds

    if seed is None:
        raise RecordNotFound(f"{path}: give --seed SEED (the `seed` column of the game's row)")
    records = records_file(path)
    if not records.exists():
        if not path.exists():
            raise RecordNotFound(f"{path} does not exist")
        raise RecordNotFound(
            f"no game records beside {path} (expected {records.name}): run the simulation with --keep-records"
        )
    found = ds.dataset(records).to_table(columns=["record"], filter=ds.field("seed") == seed)
    if found.num_rows == 0:
        raise RecordNotFound(f"no game with seed {seed} in {records}")
    return GameRecord.from_dict(json.loads(found.column("record")[0].as_py()))
