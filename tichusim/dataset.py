"""The run dataset: Arrow tables from the engine's records, and their Parquet encoding.

One schema for every shard (fixed types, so a folder of parts reads as one table), columns
narrowed to what their values need. Parquet options are chosen for speed at a good size:
zstd everywhere, dictionary encoding for every column except the near-unique masks of whole
hands and the round key, statistics only on identifiers (they serve filters). The encoding is
deterministic: the same records give the same bytes. Column meanings: docs/schema.md.
"""

from __future__ import annotations

import io
import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

__all__ = ["ROUNDS_SCHEMA", "SEATS_SCHEMA", "encode", "tables"]

N = 4
_TEXT = pa.dictionary(pa.int8(), pa.string())
_IDS = [("run_id", _TEXT), ("variant", _TEXT), ("shard", pa.int32()), ("round", pa.int64())]
_GAME_IDS = [("game", pa.int64()), ("round_in_game", pa.int16())]

_ROUND_FIELDS = [
    ("first_drawer", pa.int8()),
    *[(f"strategy{s}", _TEXT) for s in range(N)],
    *[(f"call{s}", pa.int8()) for s in range(N)],  # 0 none, 1 Tichu, 2 Grand Tichu
    *[(f"passed{s}", pa.uint64()) for s in range(N)],  # the three cards seat s gave away
    ("first_out", pa.int8()), ("second_out", pa.int8()), ("third_out", pa.int8()),
    ("last_out", pa.int8()),
    ("double_victory", pa.bool_()),
    ("card_points_team0", pa.int16()), ("card_points_team1", pa.int16()),
    ("score_team0", pa.int16()), ("score_team1", pa.int16()),
    ("tricks", pa.int16()), ("bombs", pa.int16()), ("wish", pa.int8()), ("dragon_to", pa.int8()),
]  # fmt: skip
_GAME_FIELDS = [("total_team0", pa.int32()), ("total_team1", pa.int32()), ("game_over", pa.bool_())]
_SEAT_FIELDS = [
    ("seat", pa.int8()), ("team", pa.int8()), ("strategy", _TEXT),
    ("hand8", pa.uint64()), ("hand14", pa.uint64()), ("hand_passed", pa.uint64()),
    ("given_left", pa.uint64()), ("given_partner", pa.uint64()), ("given_right", pa.uint64()),
    ("received_left", pa.uint64()), ("received_partner", pa.uint64()),
    ("received_right", pa.uint64()),
    ("grand_tichu", pa.bool_()), ("tichu", pa.bool_()), ("call_success", pa.bool_()),
    ("finish", pa.int8()), ("card_points", pa.int16()), ("points", pa.int16()),
]  # fmt: skip


def _schema(*parts) -> pa.Schema:
    return pa.schema([f for part in parts for f in part])


ROUNDS_SCHEMA = {
    "rounds": _schema(_IDS, _ROUND_FIELDS),
    "games": _schema(_IDS, _GAME_IDS, _ROUND_FIELDS, _GAME_FIELDS),
}
# pandas reads a bool column with nulls as objects unless told it is its nullable "boolean"
_PANDAS = {b"pandas": json.dumps({"index_columns": [], "column_indexes": [], "columns": [
    {"name": "call_success", "field_name": "call_success", "pandas_type": "bool",
     "numpy_type": "boolean", "metadata": None}]}).encode()}  # fmt: skip
SEATS_SCHEMA = {
    "rounds": _schema(_IDS, _SEAT_FIELDS).with_metadata(_PANDAS),
    "games": _schema(_IDS, _GAME_IDS, _SEAT_FIELDS).with_metadata(_PANDAS),
}

_PLAIN = ("round", "hand8", "hand14", "hand_passed")  # near-unique: dictionaries would not pay
_STATS = ("run_id", "variant", "shard", "round", "game")


def _text(values: list[str], index: np.ndarray) -> pa.DictionaryArray:
    """A dictionary column: ``values[index[i]]`` (the dictionary holds each text once)."""
    unique = sorted(set(values))
    codes = np.array([unique.index(v) for v in values], np.int8)[index]
    return pa.DictionaryArray.from_arrays(pa.array(codes), pa.array(unique, pa.string()))


def _constant(value: str, n: int) -> pa.DictionaryArray:
    return _text([value], np.zeros(n, np.intp))


def tables(rounds: np.ndarray, seats: np.ndarray, strategies: list[str], *, run_id: str,
           variant: str, shard: int, game: np.ndarray | None = None,
           round_in_game: np.ndarray | None = None, target: int = 0) -> tuple[pa.Table, pa.Table]:
    """``(rounds, seats)`` Arrow tables of one shard from ``ROUND`` records and ``(n, 4)``
    ``SEAT`` records. Games mode passes ``game``, ``round_in_game`` (rows game-major, each
    game whole) and the ``target`` score."""
    n = len(rounds)
    mode = "rounds" if game is None else "games"
    flat = seats.reshape(n * N)
    seat = np.tile(np.arange(N, dtype=np.int8), n)
    finish = seats["finish"]  # (n, 4): 1-3 order out, 4 last, 0 never out (double victory)
    called = seats["grand_tichu"] | seats["tichu"]
    ids = {"round": rounds["round"]}
    if game is not None:
        ids |= {"game": game, "round_in_game": round_in_game}

    def constants(rows: int) -> dict:
        return {"run_id": _constant(run_id, rows), "variant": _constant(variant, rows),
                "shard": np.full(rows, shard, np.int32)}  # fmt: skip

    r = constants(n) | ids
    r["first_drawer"] = rounds["first_drawer"]
    for s in range(N):
        r[f"strategy{s}"] = _constant(strategies[s], n)
    calls = np.where(seats["grand_tichu"], 2, np.where(seats["tichu"], 1, 0))
    for s in range(N):
        r[f"call{s}"] = calls[:, s]
    passed = np.bitwise_or.reduce(seats["given"], axis=2)
    for s in range(N):
        r[f"passed{s}"] = passed[:, s]
    for place, name in enumerate(("first_out", "second_out", "third_out", "last_out"), 1):
        hit = finish == place
        r[name] = np.where(hit.any(axis=1), hit.argmax(axis=1), -1)
    r["double_victory"] = rounds["double_victory"]
    for t in (0, 1):
        r[f"card_points_team{t}"] = rounds["card_points"][:, t]
    for t in (0, 1):
        r[f"score_team{t}"] = rounds["score"][:, t]
    for name in ("tricks", "bombs", "wish", "dragon_to"):
        r[name] = rounds[name]
    if game is not None:
        r |= _game_totals(rounds["score"], game, target)

    s = constants(n * N) | {k: np.repeat(v, N) for k, v in ids.items()}
    s["seat"] = seat
    s["team"] = seat % 2
    s["strategy"] = _text(strategies, seat)
    for name in ("hand8", "hand14", "hand_passed"):
        s[name] = flat[name]
    for j, side in enumerate(("left", "partner", "right")):
        s[f"given_{side}"] = flat["given"][:, j]
    for j, side in enumerate(("left", "partner", "right")):
        s[f"received_{side}"] = flat["received"][:, j]
    s["grand_tichu"] = flat["grand_tichu"]
    s["tichu"] = flat["tichu"]
    first_out = np.repeat(r["first_out"], N)
    s["call_success"] = pa.array(first_out == seat, mask=~called.reshape(-1))
    for name in ("finish", "card_points", "points"):
        s[name] = flat[name]
    return _table(r, ROUNDS_SCHEMA[mode]), _table(s, SEATS_SCHEMA[mode])


def _game_totals(score: np.ndarray, game: np.ndarray, target: int) -> dict:
    """Running totals within each game, and whether a game ended (decided) at that row."""
    totals = np.cumsum(score, axis=0)
    start = np.r_[True, game[1:] != game[:-1]]
    last = np.r_[game[1:] != game[:-1], True]
    before = np.vstack([np.zeros((1, 2), score.dtype), totals[:-1]])
    offset = np.maximum.accumulate(np.where(start, np.arange(len(game)), 0))
    totals = totals - before[offset]
    decided = (totals.max(axis=1) >= target) & (totals[:, 0] != totals[:, 1])
    return {"total_team0": totals[:, 0], "total_team1": totals[:, 1], "game_over": last & decided}


def _table(columns: dict, schema: pa.Schema) -> pa.Table:
    arrays = []
    for field in schema:
        v = columns[field.name]
        if not isinstance(v, pa.Array):
            v = pa.array(np.ascontiguousarray(v).astype(field.type.to_pandas_dtype(), copy=False))
        arrays.append(v)
    return pa.Table.from_arrays(arrays, schema=schema)


def encode(table: pa.Table) -> bytes:
    """Parquet bytes of ``table`` (one row group)."""
    sink = io.BytesIO()
    names = table.column_names
    pq.write_table(
        table, sink, compression="zstd", row_group_size=max(1, table.num_rows),
        use_dictionary=[c for c in names if c not in _PLAIN],
        write_statistics=[c for c in names if c in _STATS],
    )  # fmt: skip
    return sink.getvalue()
