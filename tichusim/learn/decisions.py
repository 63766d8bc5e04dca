"""Labelled decisions: the Parquet table the data generator writes and training reads.

One row per labelled decision of a play or a bomb window (``kernels/outside.py``'s ``D_PLAY``,
``D_BOMB``): the round it came from, the deciding seat, the decision's code, the seat's view
as its two records (the table's ``PUBLIC`` record and the seat's ``PRIVATE`` record,
``kernels/tichu/view.py``, as raw bytes), the candidates (card mask and combination code; a
pass or "no bomb" is mask 0, code 0), one label per candidate (the round's score difference
from the deciding seat's side, over 100, when that candidate was played) and the behaviour's
own answer (an index into the candidates). ``docs/learn.md`` describes the columns.

``read_decisions`` turns shards of that table into ``Decisions``, flat numpy arrays with each
decision's candidates found through ``start``; ``to_table`` is its inverse.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..kernels.tichu.view import PRIVATE, PUBLIC

__all__ = ["SCHEMA", "Decisions", "count_rounds", "read_decisions", "to_table"]

SCHEMA = pa.schema(
    [
        ("round", pa.int64()),
        ("seat", pa.int8()),
        ("decision", pa.int8()),
        ("public", pa.binary()),
        ("private", pa.binary()),
        ("masks", pa.list_(pa.uint64())),
        ("codes", pa.list_(pa.int64())),
        ("values", pa.list_(pa.float32())),
        ("chosen", pa.int16()),
    ]
)
LISTS = ("masks", "codes", "values")


class Decisions(NamedTuple):
    """``D`` labelled decisions with ``C`` candidates in all. Decision ``d``'s candidates are
    ``masks``/``codes``/``values`` from ``start[d]`` to ``start[d + 1]``."""

    public: np.ndarray  # (D,) PUBLIC records
    private: np.ndarray  # (D,) PRIVATE records of the deciding seat
    decision: np.ndarray  # (D,) int64, the D_* code
    start: np.ndarray  # (D + 1,) int64 offsets into the candidates
    masks: np.ndarray  # (C,) uint64
    codes: np.ndarray  # (C,) int64
    values: np.ndarray  # (C,) float32, the labels
    chosen: np.ndarray  # (D,) int64, the behaviour's answer: an index into its candidates
    round: np.ndarray  # (D,) int64, the round index of the run
    seat: np.ndarray  # (D,) int64


def _records(column: pa.ChunkedArray, out: np.ndarray, name: str, where: str) -> None:
    """A binary column of fixed-size records copied into the record array ``out``."""
    size = out.dtype.itemsize
    raw = out.view(np.uint8).reshape(len(out), size)
    at = 0
    for chunk in column.chunks:
        offsets = np.frombuffer(chunk.buffers()[1], np.int32)[
            chunk.offset : chunk.offset + len(chunk) + 1
        ]
        if np.any(np.diff(offsets) != size):
            raise ValueError(f"{where}: column {name} holds records that are not {size} bytes")
        data = np.frombuffer(chunk.buffers()[2], np.uint8)[offsets[0] : offsets[-1]]
        raw[at : at + len(chunk)] = data.reshape(len(chunk), size)
        at += len(chunk)


def _read(path: str | os.PathLike, columns: list[str]) -> pa.Table:
    """Columns of a decisions file, checked against ``SCHEMA``."""
    where = os.fspath(path)
    try:
        table = pq.read_table(path, columns=columns)
    except (OSError, pa.ArrowInvalid, KeyError) as exc:
        raise ValueError(f"{where}: cannot read the decisions: {exc}") from None
    for name in columns:
        got, want = table.schema.field(name).type, SCHEMA.field(name).type
        if not got.equals(want):
            raise ValueError(f"{where}: column {name} is {got}, not {want}")
        if table.column(name).null_count:
            raise ValueError(f"{where}: column {name} has missing values")
    return table


def count_rounds(paths: Iterable[str | os.PathLike]) -> int:
    """The rounds with a decision in the files ``paths``, counted file by file: a round's
    decisions are in one file, and two data sets' rounds are different rounds even where
    their keys (the round index of another seed) agree."""
    return sum(len(np.unique(_read(path, ["round"]).column("round").to_numpy())) for path in paths)


def read_decisions(paths: str | os.PathLike | Iterable[str | os.PathLike]) -> Decisions:
    """The decisions of the Parquet files ``paths``, one after another in the order given (a
    data directory: its shards, in order).

    Two passes: the labels first, for the sizes, then each file whole into arrays allocated
    once, so the memory at the peak is the arrays and one file's table."""
    if isinstance(paths, (str, os.PathLike)):
        folder = Path(paths)
        paths = sorted(folder.glob("decisions-*.parquet")) if folder.is_dir() else [folder]
    paths = list(paths)
    sizes = []
    for path in paths:
        values = _read(path, ["values"]).column("values")
        sizes.append((len(values), len(pc.list_flatten(values))))
    n_decisions = sum(d for d, _ in sizes)
    n_candidates = sum(c for _, c in sizes)
    out = Decisions(
        public=np.zeros(n_decisions, PUBLIC),
        private=np.zeros(n_decisions, PRIVATE),
        decision=np.empty(n_decisions, np.int64),
        start=np.zeros(n_decisions + 1, np.int64),
        masks=np.empty(n_candidates, np.uint64),
        codes=np.empty(n_candidates, np.int64),
        values=np.empty(n_candidates, np.float32),
        chosen=np.empty(n_decisions, np.int64),
        round=np.empty(n_decisions, np.int64),
        seat=np.empty(n_decisions, np.int64),
    )
    d_at = c_at = 0
    for path, (n, c) in zip(paths, sizes, strict=True):
        where = os.fspath(path)
        table = _read(path, SCHEMA.names)
        if (len(table), len(pc.list_flatten(table.column("values")))) != (n, c):
            raise ValueError(f"{where}: changed while it was read")
        rows, cands = slice(d_at, d_at + n), slice(c_at, c_at + c)
        lengths = [pc.list_value_length(table.column(name)).to_numpy() for name in LISTS]
        if not all(np.array_equal(lengths[0], other) for other in lengths[1:]):
            raise ValueError(f"{where}: masks, codes and values differ in length in a decision")
        np.cumsum(lengths[0], out=out.start[d_at + 1 : d_at + n + 1])
        out.start[d_at + 1 : d_at + n + 1] += c_at
        for name in LISTS:
            getattr(out, name)[cands] = pc.list_flatten(table.column(name)).to_numpy()
        for name in ("decision", "chosen", "round", "seat"):
            getattr(out, name)[rows] = table.column(name).to_numpy()
        if np.any((out.chosen[rows] < 0) | (out.chosen[rows] >= lengths[0])):
            raise ValueError(f"{where}: chosen is not an index into its decision's candidates")
        _records(table.column("public"), out.public[rows], "public", where)
        _records(table.column("private"), out.private[rows], "private", where)
        d_at, c_at = d_at + n, c_at + c
    return out


def to_table(decisions: Decisions) -> pa.Table:
    """The Parquet table of ``decisions`` (``SCHEMA``), which ``read_decisions`` reads back."""
    d = decisions
    offsets = pa.array(d.start.astype(np.int32))

    def lists(values: np.ndarray, kind: pa.DataType) -> pa.ListArray:
        return pa.ListArray.from_arrays(offsets, pa.array(values, kind))

    return pa.table(
        {
            "round": pa.array(d.round, pa.int64()),
            "seat": pa.array(d.seat.astype(np.int8)),
            "decision": pa.array(d.decision.astype(np.int8)),
            "public": pa.array([r.tobytes() for r in d.public], pa.binary()),
            "private": pa.array([r.tobytes() for r in d.private], pa.binary()),
            "masks": lists(d.masks, pa.uint64()),
            "codes": lists(d.codes, pa.int64()),
            "values": lists(d.values, pa.float32()),
            "chosen": pa.array(d.chosen.astype(np.int16)),
        },
        schema=SCHEMA,
    )
