"""Read the tables of a finished (or partly finished) run for analysis.

Two layouts are understood:

* a run directory of ``tichusim run`` or ``tichusim import`` (``manifest.json``,
  ``rounds/part-*.parquet``, ``seats/part-*.parquet``): the parts of the shards the manifest
  lists as done are first checked against their recorded sizes, checksums and row counts
  (``tichusim.runs.verify``; one damaged part refuses the whole read, naming it), then read
  as one table with ``pyarrow.dataset``; a part left by a stop before its shard was recorded
  is not read;
* the folder written by ``tichusim simulate --out`` (``rounds.parquet``, ``seats.parquet``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import pyarrow.dataset as ds

__all__ = ["RunTables", "load"]


@dataclass
class RunTables:
    path: Path
    rounds: pd.DataFrame
    seats: pd.DataFrame
    info: dict = field(default_factory=dict)  # layout, shards done/total, seed, mode, config


def _read(path, columns: list[str] | None) -> pd.DataFrame:
    dataset = ds.dataset(path, format="parquet")  # a file, or a list of files in shard order
    if columns is not None:
        columns = [c for c in columns if c in dataset.schema.names]
    table = dataset.to_table(columns=columns)
    df = table.to_pandas()
    for col in df.columns:  # dictionary-encoded text comes back categorical; keep it that way
        if isinstance(df[col].dtype, pd.CategoricalDtype):
            df[col] = df[col].cat.remove_unused_categories()
    return df


def load(
    path, *, rounds_columns: list[str] | None = None, seats_columns: list[str] | None = None
) -> RunTables:
    """The rounds and seats tables under ``path`` (only the named columns when given; names a
    layout lacks are skipped). Raises ``ValueError`` when ``path`` holds neither layout."""
    path = Path(path)
    if not path.is_dir():
        raise ValueError(f"{path} is not a directory")
    info: dict = {}
    if (path / "manifest.json").exists():
        from .verify import verify

        checked = verify(path)  # RunDirError (a ValueError) when the manifest is unreadable
        if not checked.ok:
            more = f" (and {len(checked.problems) - 1} more)" if len(checked.problems) > 1 else ""
            raise ValueError(
                f"{path}: {checked.problems[0]}{more}; refusing to read a damaged "
                f"run (tichusim verify {path}; tichusim run --resume {path} "
                "replays it)"
            )
        manifest = json.loads((path / "manifest.json").read_text())
        shards = manifest.get("shards", [])
        info = {
            "layout": "run",
            "kind": manifest.get("kind", "run"),  # a batch run, or games read in (import)
            "run_id": manifest.get("run_id"),
            "mode": manifest.get("mode"),
            "seed": manifest.get("seed"),
            "shards_done": sum(s.get("state") == "done" for s in shards),
            "shards": len(shards),
            "state": manifest.get("state"),
        }
        if (path / "config.json").exists():
            try:
                info["config"] = json.loads((path / "config.json").read_text())
            except (OSError, ValueError):
                pass
        if not checked.files:
            raise ValueError(f"{path}: the run has no finished shard yet")
        sources = (
            [str(p) for p in checked.files_of("rounds")],
            [str(p) for p in checked.files_of("seats")],
        )
    elif (path / "rounds.parquet").exists() and (path / "seats.parquet").exists():
        info = {"layout": "simulate"}
        sources = (path / "rounds.parquet", path / "seats.parquet")
    else:
        raise ValueError(f"{path} holds no run (no manifest.json, no rounds.parquet/seats.parquet)")
    rounds = _read(sources[0], rounds_columns)
    seats = _read(sources[1], seats_columns)
    info["rounds"] = len(rounds)
    return RunTables(path, rounds, seats, info)
