"""The two tables of every game, as Arrow, from its records: the one place records become tables.

``tables(records)`` builds the ``rounds`` and ``seats`` tables: ``tichusim.simulate`` returns
them as pandas DataFrames and a batch run writes them as Parquet parts
(``tichusim.runs.parquet``), so a notebook and a run directory hold the same columns. The game
that played the records names its columns (``Game.columns``; docs/schema.md lists them all);
each table leads with the ids (``variant``, ``round``, and for games ``game`` and
``round_in_game``; a run's ``run_id`` and ``shard``).

Types are fixed per column name (``_TYPE``), narrowed to what the values need, so every part of
a run has the same schema and a folder of parts reads as one table.

A column that is a plain field of the records comes as a ``Field``: a table gathers all of a
part's fields in one pass over its records (``kernels.gather``), straight into the columns'
own arrays (a DataFrame's for ``frames_of``), rather than field by field out of records of
160 bytes.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

from ..kernels.gather import gather

if TYPE_CHECKING:  # pandas loads only when a table becomes a DataFrame
    import pandas as pd

    from .base import Records

__all__ = [
    "OPTIONS_KEY",
    "PLACES",
    "Field",
    "Masked",
    "constant",
    "first_index",
    "frames",
    "frames_of",
    "names",
    "strings",
    "table",
    "tables",
    "text",
]

OPTIONS_KEY = b"tichusim.options"  # the schema metadata key of the Options (JSON)
PLACES = ("first", "second", "third", "fourth", "fifth")  # {place}_out; the last is last_out

_TEXT = pa.dictionary(pa.int8(), pa.string())
_NAMES = pa.dictionary(pa.int32(), pa.string())  # texts too many for an int8 code: files, names
_I8, _I16, _I32, _I64 = pa.int8(), pa.int16(), pa.int32(), pa.int64()
_MASK, _BOOL = pa.uint64(), pa.bool_()
# Every column's type by name, indexed names (strategy0, score_player2, ...) without the index.
_TYPE = {
    "run_id": _TEXT,
    "variant": _TEXT,
    "shard": _I32,
    "round": _I64,
    "game": _I64,
    "round_in_game": _I16,
    # team games, rounds
    "king": _I8,
    "first_drawer": _I8,
    "strategy": _TEXT,
    "call": _I8,
    "passed": _MASK,
    **{f"{p}_out": _I8 for p in (*PLACES, "last")},
    "double_victory": _BOOL,
    "triple_victory": _BOOL,
    "card_points_team": _I16,
    "score_team": _I16,
    "score_player": _I16,
    "score_minister": _I16,
    "tricks": _I16,
    "bombs": _I16,
    "wish": _I8,
    "dragon_to": _I8,
    "total_team": _I32,
    "total_player": _I32,
    "total_minister": _I32,
    "game_over": _BOOL,
    "winner": _I8,
    # team games, seats
    "seat": _I8,
    "team": _I8,
    "role": _TEXT,
    "hand": _MASK,
    "hand_passed": _MASK,
    **{
        f"{d}_{side}": _MASK for d in ("given", "received") for side in ("left", "partner", "right")
    },  # partner1, partner2: the index is dropped
    "grand_tichu": _BOOL,
    "tichu": _BOOL,
    "call_success": _BOOL,
    "finish": _I8,
    "card_points": _I16,
    "points": _I16,
    # team games: what each seat did (docs/schema.md), and the rounds' totals of it
    "bombs_played": _I8,
    "bombs_out_of_turn": _I8,
    "first_bomb_kind": _TEXT,
    "first_bomb_rank": _I8,
    "first_bomb_trick": _I8,
    "tricks_won": _I8,
    "card_points_won": _I16,
    "tichu_when": _TEXT,
    "tichu_cards": _I8,
    "tichu_trick": _I8,
    "phoenix_as": _TEXT,
    "dragon": _TEXT,
    "dog_led": _BOOL,
    "mahjong_wish": _I8,
    "wish_fulfilled": _BOOL,
    "cards_left": _I8,
    "wish_fulfilled_by": _I8,
    "hand_points_left": _I16,
    "table_points_left": _I16,
    # Grand Seigneur
    "players": _I8,
    "deck": _TEXT,
    "dealer": _I8,
    "leader": _I8,
    "grand_seigneur": _I8,
    "last": _I8,
    "kept_title": _BOOL,
    "leftover_a": _MASK,
    "leftover_b": _MASK,
    "player": _I8,
    "rank_before": _I8,
    "rank_after": _I8,
    "cards": _I8,
    **{f"{what}_{copy}": _MASK for what in ("dealt", "gave", "got") for copy in "ab"},
}
# games read in (``tichusim import``, docs/schema.md): where a round was read, who played
_TYPE |= {
    "source": _NAMES,
    "source_line": _I32,
    "player_name": _NAMES,
    # the moves table: one row per recorded action
    "action": _I16,
    "kind": _TEXT,
    "mask": _MASK,
    "value": _I8,
    "line": _I32,
    "text": _NAMES,
    # the problems table: one row per round (or file) not read
    "stage": _TEXT,
    "why": pa.string(),
}
# Columns with nulls, and the pandas dtype that keeps them (else bool reads as object and a
# small int as float): written into the schema's pandas metadata, which every reader honours.
_NULLABLE = {"call_success": "boolean", "kept_title": "boolean", "rank_before": "Int8"}


@functools.lru_cache(maxsize=1024)  # asked for each column of every part
def _type(name: str) -> pa.DataType:
    return _TYPE.get(name) or _TYPE[re.sub(r"\d+$", "", name)]


def array(values: np.ndarray, kind: pa.DataType, mask: np.ndarray | None = None) -> pa.Array:
    """An Arrow column of fixed-width ``values`` (``mask``: missing where true), built from
    its buffers: ``pa.array`` would import pandas (to look for pandas objects) in every
    worker process, doubling its memory."""
    values = np.ascontiguousarray(values)
    if pa.types.is_boolean(kind):
        data = np.packbits(values.astype(bool), bitorder="little")
    else:
        data = values.astype(kind.to_pandas_dtype(), copy=False)
    valid = (
        None
        if mask is None
        else pa.py_buffer(np.packbits(~np.asarray(mask, bool), bitorder="little"))
    )
    nulls = 0 if mask is None else int(np.count_nonzero(mask))
    return pa.Array.from_buffers(kind, len(values), [valid, pa.py_buffer(data)], null_count=nulls)


def text(values: list[str], index: np.ndarray) -> pa.DictionaryArray:
    """A dictionary column: ``values[index[i]]`` (the dictionary holds each text once)."""
    codes, words = _dictionary(tuple(values))
    return pa.DictionaryArray.from_arrays(array(codes[index], pa.int8()), words)


def constant(value: str, n: int) -> pa.DictionaryArray:
    return pa.DictionaryArray.from_arrays(
        array(np.zeros(n, np.int8), pa.int8()), _dictionary((value,))[1]
    )


def names(values: list[str], index: np.ndarray) -> pa.DictionaryArray:
    """A dictionary column of many texts (file names, players' names): ``values[index[i]]``,
    the dictionary sorted, an int32 code."""
    unique = sorted(set(values))
    code = {v: i for i, v in enumerate(unique)}
    codes = np.array([code[v] for v in values] or [0], np.int32)
    return pa.DictionaryArray.from_arrays(
        array(codes[np.asarray(index, np.int64)], pa.int32()), strings(unique)
    )


def strings(values: list[str]) -> pa.Array:
    """A string column of ``values``, made from its buffers (``pa.array`` would import
    pandas)."""
    joined = "".join(values)
    data = joined.encode()
    offsets = np.zeros(len(values) + 1, np.int32)
    if len(data) == len(joined):  # ASCII: a text's length is its bytes'
        np.cumsum(np.fromiter(map(len, values), np.int32, len(values)), out=offsets[1:])
    else:
        np.cumsum([len(v.encode()) for v in values], out=offsets[1:])
    return pa.Array.from_buffers(
        pa.string(), len(values), [None, pa.py_buffer(offsets), pa.py_buffer(data)]
    )


@functools.lru_cache(maxsize=256)
def _dictionary(values: tuple[str, ...]) -> tuple[np.ndarray, pa.Array]:
    """Each of ``values``' code in the dictionary, and the dictionary: the texts sorted."""
    unique = sorted(set(values))
    encoded = [w.encode() for w in unique]
    offsets = np.cumsum([0, *map(len, encoded)], dtype=np.int32)
    words = pa.Array.from_buffers(
        pa.string(), len(unique), [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))]
    )
    return np.array([unique.index(v) for v in values], np.int8), words


@dataclass(frozen=True, eq=False)
class Field:
    """A column that is a plain field of records: ``records[name]`` of every row (element
    ``index`` of an array field), as the column's type (a narrower integer keeps the low
    bytes: every value fits it); with ``words``, a text column whose value is
    ``words[records[name] + shift]``. ``records``: a 1-D structured array whose record size is
    a multiple of 8 bytes (the engines' records are aligned)."""

    records: np.ndarray
    name: str
    index: int | None = None
    words: tuple[str, ...] | None = None
    shift: int = 0

    def __len__(self) -> int:
        return len(self.records)

    def values(self) -> np.ndarray:
        """The field's values as the records hold them (a text column: the words' indexes)."""
        values = self.records[self.name]
        if self.index is not None:
            values = values[:, self.index]
        return values + self.shift if self.words is not None else values


@dataclass(frozen=True, eq=False)
class Masked:
    """A column with missing values (one of ``_NULLABLE``): ``values``, missing where
    ``missing`` is true."""

    values: np.ndarray
    missing: np.ndarray

    def __len__(self) -> int:
        return len(self.values)


_WIDTHS = (1, 2, 8)  # the widths ``kernels.gather`` copies
_UNSIGNED = {1: np.uint8, 2: np.uint16, 8: np.uint64}


def _width(kind: pa.DataType) -> int:
    """Bytes a value of the column's type takes (a text column: its int8 code)."""
    if pa.types.is_dictionary(kind) or pa.types.is_boolean(kind):
        return 1
    return kind.bit_width // 8


def _numpy_type(kind: pa.DataType) -> Any:
    """The numpy type of a column's values in memory (a text column: its codes)."""
    if pa.types.is_dictionary(kind):
        return np.int8
    return bool if pa.types.is_boolean(kind) else kind.to_pandas_dtype()


@functools.lru_cache(maxsize=256)
def _byte_table(words: tuple[str, ...] | None, shift: int) -> np.ndarray:
    """A 1-byte field's table for ``kernels.gather``: the identity, or a text column's code
    of each value (``words[value + shift]``'s code in the dictionary)."""
    table = np.arange(256, dtype=np.uint8)
    if words is not None:
        codes = _dictionary(words)[0]
        table[(np.arange(len(words)) - shift) & 0xFF] = codes.astype(np.uint8)
    return table


def _place(dtype: np.dtype, field: Field, width: int) -> int:
    """Where ``field``'s low ``width`` bytes sit in a record, in units of ``width``."""
    kind, offset = dtype.fields[field.name][:2]  # type: ignore[index]  # a record type
    if kind.subdtype is not None:
        kind = kind.subdtype[0]
        offset += (field.index or 0) * kind.itemsize
    if kind.itemsize < width or offset % width or dtype.itemsize % 8:
        raise ValueError(f"field {field.name}: not a column of {width} bytes")
    return offset // width


class _Columns:
    """The arrays of a table's ``Field`` columns, ``rows`` each: one array per width, a
    column a row of it, so that one ``kernels.gather`` call fills a part of all of them."""

    def __init__(self, fields: dict[str, Field], rows: int):
        self.slot: dict[str, tuple[int, int]] = {}
        count = dict.fromkeys(_WIDTHS, 0)
        for name in fields:
            width = _width(_type(name))
            self.slot[name] = width, count[width]
            count[width] += 1
        self.out = {w: np.empty((max(1, count[w]), rows), _UNSIGNED[w]) for w in _WIDTHS}

    def column(self, name: str) -> np.ndarray:
        """``name``'s array, as its type."""
        width, row = self.slot[name]
        return self.out[width][row].view(_numpy_type(_type(name)))

    def fill(self, fields: dict[str, Field], at: int) -> None:
        """Write ``fields`` (the same names) into rows ``at`` onwards, one pass over each
        records array they read."""
        by_source: dict[int, list[str]] = {}
        for name, field in fields.items():
            by_source.setdefault(id(field.records), []).append(name)
        for names in by_source.values():
            records = np.ascontiguousarray(fields[names[0]].records)
            src = records.view(np.uint8).reshape(len(records), records.dtype.itemsize)
            plan = np.empty((len(names), 3), np.int64)
            tables = np.empty((len(names), 256), np.uint8)
            for f, name in enumerate(names):
                field, (width, row) = fields[name], self.slot[name]
                plan[f] = width, _place(records.dtype, field, width), row
                tables[f] = _byte_table(field.words, field.shift) if width == 1 else 0
            gather(
                src,
                src.view(np.uint16),
                src.view(np.uint64),
                at,
                plan,
                tables,
                self.out[1],
                self.out[2],
                self.out[8],
            )


def first_index(hit: np.ndarray) -> np.ndarray:
    """Per row, the first column where ``hit`` is true, or -1."""
    return np.where(hit.any(axis=1), hit.argmax(axis=1), -1)


# -- tables -------------------------------------------------------------------------------------


def tables(
    rec: Records, *, run_id: str | None = None, shard: int | None = None
) -> tuple[pa.Table, pa.Table]:
    """``(rounds, seats)`` Arrow tables of ``rec`` (``base.Records`` of any game). A batch
    run names its ``run_id`` and ``shard``, which lead both tables as columns."""
    r, s, meta = _named(rec, run_id, shard)
    return _table(r, meta), _table(s, meta)


def _named(
    rec: Records, run_id: str | None = None, shard: int | None = None
) -> tuple[dict, dict, dict]:
    """The ``rounds`` and ``seats`` columns of ``rec``, ids first (name -> numpy values or an
    Arrow array), and the tables' key-value metadata."""
    r, s = rec.source.columns(rec)
    n, k = rec.seats.shape
    ids: dict[str, Any] = {"round": rec.rounds["round"]}
    if rec.game is not None:
        ids |= {"game": rec.game, "round_in_game": rec.round_in_game}

    def lead(rows: int, per_round: int) -> dict:
        out = {} if run_id is None else {"run_id": constant(run_id, rows)}
        out["variant"] = constant(rec.variant, rows)
        if shard is not None:
            out["shard"] = np.full(rows, shard, np.int32)
        out |= {name: np.repeat(v, per_round) for name, v in ids.items()}
        if per_round == 1:  # the rounds table's: the records' own
            out["round"] = Field(rec.rounds, "round")
        return out

    # the rules Options the rounds were played with, in both tables' key-value metadata (a
    # Parquet file carries them; ``pq.read_schema(path).metadata[b"tichusim.options"]``)
    options = json.dumps(dict(sorted(getattr(rec.source, "options", {}).items())))
    return lead(n, 1) | r, lead(n * k, k) | s, {OPTIONS_KEY: options.encode()}


def frames(rec: Records) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ``(rounds, seats)`` DataFrames of records: ``tables(rec)`` as pandas."""
    return frames_of([rec], len(rec.rounds))


def frames_of(parts: Iterable, rows: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The DataFrames of ``parts`` (``Records`` of one game, one after another, ``rows``
    round rows in all), equal to ``frames`` of their records joined. Each part's columns are
    written into the frames' own arrays as it comes, so that a part's records can be dropped
    before the next is played: its records and columns stay in the cache and its memory is
    reused, and no DataFrame is copied (``pa.Table.to_pandas`` copies every column)."""
    built: list[_Frame] = []
    for rec in parts:
        r, s, _ = _named(rec)
        if not built:
            built = [_Frame(rows), _Frame(rows * rec.seats.shape[1])]
        built[0].add(r)
        built[1].add(s)
    return built[0].frame(), built[1].frame()


class _Frame:
    """A DataFrame's columns filled part by part, each as ``pa.Table.to_pandas`` makes it of
    ``_table``'s column: dictionaries as categoricals, ``_NULLABLE``'s as pandas' nullable
    arrays, the rest as numpy arrays of the column's type."""

    def __init__(self, rows: int):
        self.rows, self.at = rows, 0
        self.fields: _Columns | None = None  # the ``Field`` columns, made with the first part
        self.values: dict[str, np.ndarray] = {}
        self.masks: dict[str, np.ndarray] = {}
        self.words: dict[str, list] = {}

    def _into(self, name: str, dtype: Any, part: slice, values: np.ndarray) -> None:
        if name not in self.values:
            self.values[name] = np.empty(self.rows, dtype)
        self.values[name][part] = values

    def add(self, columns: dict) -> None:
        n = 0
        fields = {name: v for name, v in columns.items() if isinstance(v, Field)}
        if self.fields is None:  # the first part: the fields' arrays, every part's rows
            self.fields = _Columns(fields, self.rows)
        if fields.keys() != self.fields.slot.keys():
            raise ValueError("frames_of: the parts' plain fields differ")
        for name, values in columns.items():
            kind = _type(name)
            n = len(values)
            part = slice(self.at, self.at + n)
            if isinstance(values, Field):
                if name not in self.values:  # the frame's column: a row of the fields' arrays
                    self.values[name] = self.fields.column(name)
                    if values.words is not None:
                        self.words[name] = sorted(set(values.words))
                continue
            if isinstance(values, pa.Array) and values.type != kind:
                values = values.cast(kind)
            if pa.types.is_dictionary(kind):
                words = values.dictionary.to_pylist()
                if self.words.setdefault(name, words) != words:
                    raise ValueError(f"column {name}: the parts' dictionaries differ")
                self._into(name, np.int8, part, values.indices.to_numpy())
                continue
            boolean = pa.types.is_boolean(kind)
            if name in _NULLABLE:
                if name not in self.masks:
                    self.masks[name] = np.empty(self.rows, bool)
                if isinstance(values, Masked):  # a missing value False or 0, as ``fill_null``
                    self.masks[name][part] = values.missing
                    none = np.zeros((), values.values.dtype)
                    values = np.where(values.missing, none, values.values)
                else:
                    missing = isinstance(values, pa.Array) and values.null_count
                    self.masks[name][part] = (
                        values.is_null().to_numpy(zero_copy_only=False) if missing else False
                    )
                    if missing:
                        values = values.fill_null(False if boolean else 0)
            if isinstance(values, pa.Array):
                values = values.to_numpy(zero_copy_only=False)
            elif boolean:
                values = values.astype(bool, copy=False)
            self._into(name, bool if boolean else kind.to_pandas_dtype(), part, values)
        self.fields.fill(fields, self.at)
        self.at += n

    def frame(self) -> pd.DataFrame:
        import pandas as pd  # loaded only when a table becomes a DataFrame (see the top)

        if self.at != self.rows:
            raise ValueError(f"frames_of: {self.at} rows given, {self.rows} said")
        out: dict = {}
        for name, values in self.values.items():
            if name in self.words:
                out[name] = pd.Categorical.from_codes(values, categories=pd.Index(self.words[name]))
            elif name in self.masks:
                masked = (
                    pd.arrays.IntegerArray if values.dtype.kind == "i" else pd.arrays.BooleanArray
                )
                out[name] = masked(values, self.masks[name])
            else:
                out[name] = values
        return pd.DataFrame(out, copy=False)


def table(columns: dict, options: dict | None = None) -> pa.Table:
    """An Arrow table of ``columns`` (name -> numpy values, an Arrow array, a ``Field`` or a
    ``Masked``), each of its name's type (``_TYPE``); ``options``, the rules Options the
    rounds were played with, in its key-value metadata (as ``tables`` writes them)."""
    meta = {OPTIONS_KEY: json.dumps(dict(sorted((options or {}).items()))).encode()}
    return _table(columns, meta)


def _table(columns: dict, extra: dict | None = None) -> pa.Table:
    plain = {name: v for name, v in columns.items() if isinstance(v, Field)}
    if plain:  # every field in one pass over the records
        gathered = _Columns(plain, len(next(iter(plain.values()))))
        gathered.fill(plain, 0)
    fields, arrays = [], []
    for name, values in columns.items():
        kind = _type(name)
        if isinstance(values, Field):
            codes = gathered.column(name)
            if values.words is not None:
                values = pa.DictionaryArray.from_arrays(
                    array(codes, pa.int8()), _dictionary(values.words)[1]
                )
            else:
                values = array(codes, kind)
        elif isinstance(values, Masked):
            values = array(values.values, kind, mask=values.missing)
        elif not isinstance(values, pa.Array):
            values = array(values, kind)
        elif values.type != kind:
            values = values.cast(kind)
        fields.append(pa.field(name, kind))
        arrays.append(values)
    nullable = [
        {
            "name": c,
            "field_name": c,
            "pandas_type": "bool" if d == "boolean" else "int8",
            "numpy_type": d,
            "metadata": None,
        }
        for c, d in _NULLABLE.items()
        if c in columns
    ]
    meta = (
        {
            b"pandas": json.dumps(
                {"index_columns": [], "column_indexes": [], "columns": nullable}
            ).encode()
        }
        if nullable
        else {}
    )
    meta |= extra or {}
    return pa.Table.from_arrays(arrays, schema=pa.schema(fields, metadata=meta or None))
