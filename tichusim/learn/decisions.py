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
from typing import NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..kernels.tichu.view import PRIVATE, PUBLIC

__all__ = ["SCHEMA", "Decisions", "read_decisions", "to_table"]

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


def _records(column: pa.ChunkedArray, dtype: np.dtype, name: str, where: str) -> np.ndarray:
    """A binary column of fixed-size records as a record array (one copy)."""
    out = np.empty(len(column), dtype)
    raw = out.view(np.uint8).reshape(len(column), dtype.itemsize)
    at = 0
    for chunk in column.chunks:
        if chunk.null_count:
            raise ValueError(f"{where}: column {name} has missing values")
        offsets = np.frombuffer(chunk.buffers()[1], np.int32)[
            chunk.offset : chunk.offset + len(chunk) + 1
        ]
        if np.any(np.diff(offsets) != dtype.itemsize):
            raise ValueError(
                f"{where}: column {name} holds records that are not {dtype.itemsize} bytes"
            )
        data = np.frombuffer(chunk.buffers()[2], np.uint8)[offsets[0] : offsets[-1]]
        raw[at : at + len(chunk)] = data.reshape(len(chunk), dtype.itemsize)
        at += len(chunk)
    return out


def _read(path: str | os.PathLike) -> pa.Table:
    where = os.fspath(path)
    try:
        table = pq.read_table(path, columns=SCHEMA.names)
    except (OSError, pa.ArrowInvalid, KeyError) as exc:
        raise ValueError(f"{where}: cannot read the decisions: {exc}") from None
    for field in SCHEMA:
        if not table.schema.field(field.name).type.equals(field.type):
            raise ValueError(
                f"{where}: column {field.name} is {table.schema.field(field.name).type}, "
                f"not {field.type}"
            )
    return table


def read_decisions(paths: Iterable[str | os.PathLike]) -> Decisions:
    """The decisions of the Parquet files ``paths``, one after another in the order given."""
    paths = list(paths)
    tables = [_read(p) for p in paths]
    table = pa.concat_tables(tables) if tables else SCHEMA.empty_table()
    where = os.fspath(paths[0]) if len(paths) == 1 else f"{len(paths)} decision files"
    for name in SCHEMA.names:
        if table.column(name).null_count:
            raise ValueError(f"{where}: column {name} has missing values")
    lengths = [pc.list_value_length(table.column(name)).to_numpy() for name in LISTS]
    if not (np.array_equal(lengths[0], lengths[1]) and np.array_equal(lengths[0], lengths[2])):
        raise ValueError(f"{where}: masks, codes and values differ in length in a decision")
    start = np.zeros(len(table) + 1, np.int64)
    np.cumsum(lengths[0], out=start[1:])
    flat = {name: pc.list_flatten(table.column(name)).to_numpy() for name in LISTS}
    chosen = table.column("chosen").to_numpy().astype(np.int64)
    if np.any((chosen < 0) | (chosen >= lengths[0])):
        raise ValueError(f"{where}: chosen is not an index into its decision's candidates")
    return Decisions(
        public=_records(table.column("public"), PUBLIC, "public", where),
        private=_records(table.column("private"), PRIVATE, "private", where),
        decision=table.column("decision").to_numpy().astype(np.int64),
        start=start,
        masks=np.ascontiguousarray(flat["masks"], np.uint64),
        codes=np.ascontiguousarray(flat["codes"], np.int64),
        values=np.ascontiguousarray(flat["values"], np.float32),
        chosen=chosen,
        round=table.column("round").to_numpy().astype(np.int64),
        seat=table.column("seat").to_numpy().astype(np.int64),
    )


def to_table(decisions: Decisions) -> pa.Table:
    """The Parquet table of ``decisions`` (``SCHEMA``), which ``read_decisions`` reads back."""
    d = decisions
    offsets = pa.array(d.start.astype(np.int32))

    def lists(values, kind):
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
