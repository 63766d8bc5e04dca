"""The Parquet encoding of the two tables (``tichusim.games.arrow``): run shards and
``simulate --out``.

Options are chosen for speed at a good size: zstd everywhere, dictionary encoding except for
near-unique masks of whole hands and the round key, statistics only on identifiers (they serve
filters). The encoding is deterministic: the same records give the same bytes.
"""

from __future__ import annotations

import io
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from .files import write_atomic

__all__ = ["Encoder", "encode", "write"]

_PLAIN = ("round", "hand8", "hand14", "hand_passed", "dealt_a")  # near-unique: no dictionary
_STATS = ("run_id", "variant", "shard", "round", "game")


class Encoder:
    """One Parquet file's bytes, built a row group at a time: a run's shard writes each slice
    of its rounds as it is played, so a worker holds one slice's tables, never the shard's."""

    def __init__(self):
        self._sink = io.BytesIO()
        self._writer: pq.ParquetWriter | None = None

    def add(self, table: pa.Table) -> None:
        """``table`` as the next row group (every table of a file has the same schema)."""
        if self._writer is None:
            names = table.column_names
            self._writer = pq.ParquetWriter(
                self._sink,
                table.schema,
                compression="zstd",
                use_dictionary=[c for c in names if c not in _PLAIN],
                write_statistics=[c for c in names if c in _STATS],
            )
        self._writer.write_table(table, row_group_size=max(1, table.num_rows))

    def bytes(self) -> bytes:
        """The file (closes it)."""
        if self._writer is None:  # its schema comes from the first table
            raise ValueError("a Parquet file needs a table: add() one first")
        self._writer.close()
        return self._sink.getvalue()


def encode(table: pa.Table) -> bytes:
    """Parquet bytes of ``table`` (one row group)."""
    encoder = Encoder()
    encoder.add(table)
    return encoder.bytes()


def write(tables: tuple[pa.Table, pa.Table], folder) -> None:
    """``rounds.parquet`` and ``seats.parquet`` in ``folder`` (what ``tichusim simulate --out``
    writes; ``tichusim.runs.read.load`` reads it), each written atomically."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, table in zip(("rounds", "seats"), tables, strict=False):
        write_atomic(folder / f"{name}.parquet", encode(table))
