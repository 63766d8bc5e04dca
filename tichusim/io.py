"""Writing tables: Parquet files that appear complete or not at all (write, then rename)."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq


def write_parquet(df: pd.DataFrame, path: Path) -> None:
    """Write ``df`` to ``path`` atomically: a temporary file in the same folder, then rename."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.partial")
    pq.write_table(pa.Table.from_pandas(df, preserve_index=False), tmp)
    os.replace(tmp, path)


def write_tables(rounds: pd.DataFrame, seats: pd.DataFrame, out: Path) -> None:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    write_parquet(rounds, out / "rounds.parquet")
    write_parquet(seats, out / "seats.parquet")
