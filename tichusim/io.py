"""Writing files that appear complete or not at all: write a temporary file, then rename."""

from __future__ import annotations

import hashlib
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


def write_atomic(path: Path, data: bytes) -> str:
    """Write ``data`` to ``path`` durably and atomically; return its sha256.

    The bytes go to a hidden temporary file in the same folder (readers of the folder skip
    names starting with a dot), are fsynced, renamed over ``path``, and the folder is fsynced
    so the rename itself survives a power cut. After a crash ``path`` holds the old or the new
    content, never a mix.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fsync_dir(path.parent)
    return hashlib.sha256(data).hexdigest()


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
