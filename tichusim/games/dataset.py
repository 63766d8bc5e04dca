"""The two tables of every variant, as Arrow, from the engines' records; their Parquet encoding.

``tables(records)`` is the one place where records become the ``rounds`` and ``seats``
tables: ``tichusim.simulate`` returns them as pandas DataFrames and a batch run writes them as
Parquet parts, so a notebook and a run directory hold the same columns. The columns follow the
variant (docs/schema.md lists them all):

* the team games (Nanjing §2, Tientsin §3, Wu Wang §4): a seats row per seat (Wu Wang: the
  three players, then the Minister as seat 3), with per-seat summaries in ``rounds``
  (``strategyN``, ``callN``, ``passedN``, the finishing order ``first_out`` .. ``last_out``);
* Grand Seigneur (§5): a seats row per player, with the seat, the ranks before and after the
  round and the exchange.

Types are fixed per column name (``_TYPE``), narrowed to what the values need, so every part of
a run has the same schema and a folder of parts reads as one table. Parquet options are chosen
for speed at a good size: zstd everywhere, dictionary encoding except for near-unique masks of
whole hands and the round key, statistics only on identifiers (they serve filters). The
encoding is deterministic: the same records give the same bytes.
"""

from __future__ import annotations

import io
import json
import re

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..kernels.tichu import variants as V

__all__ = ["encode", "tables", "write"]

SEIGNEUR = "grand-seigneur"
PLACES = ("first", "second", "third", "fourth", "fifth")  # {place}_out; the last is last_out
SIDES = {  # given_/received_ columns: the seat-offset slot each reads (kernels.engine.SEAT)
    V.NANJING: ((0, "left"), (1, "partner"), (2, "right")),
    V.WUWANG: ((0, "left"), (1, "partner"), (2, "right")),  # by position (§4: see docs)
    V.TIENTSIN: ((1, "partner1"), (3, "partner2")),  # the partners 2 and 4 places on (§3)
}

_TEXT = pa.dictionary(pa.int8(), pa.string())
_I8, _I16, _I32, _I64, _MASK, _BOOL = pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint64(), pa.bool_()
# Every column's type by name, indexed names (strategy0, score_player2, ...) without the index.
_TYPE = {
    "run_id": _TEXT, "variant": _TEXT, "shard": _I32, "round": _I64, "game": _I64,
    "round_in_game": _I16,
    # team games, rounds
    "king": _I8, "first_drawer": _I8, "strategy": _TEXT, "call": _I8, "passed": _MASK,
    **{f"{p}_out": _I8 for p in (*PLACES, "last")},
    "double_victory": _BOOL, "triple_victory": _BOOL,
    "card_points_team": _I16, "score_team": _I16, "score_player": _I16, "score_minister": _I16,
    "tricks": _I16, "bombs": _I16, "wish": _I8, "dragon_to": _I8,
    "total_team": _I32, "total_player": _I32, "total_minister": _I32, "game_over": _BOOL,
    "winner": _I8,
    # team games, seats
    "seat": _I8, "team": _I8, "role": _TEXT, "hand": _MASK, "hand_passed": _MASK,
    **{f"{d}_{side}": _MASK for d in ("given", "received")
       for side in ("left", "partner", "right")},  # partner1, partner2: the index is dropped
    "grand_tichu": _BOOL, "tichu": _BOOL, "call_success": _BOOL, "finish": _I8,
    "card_points": _I16, "points": _I16,
    # Grand Seigneur
    "players": _I8, "deck": _TEXT, "dealer": _I8, "leader": _I8, "grand_seigneur": _I8,
    "last": _I8, "kept_title": _BOOL, "leftover_a": _MASK, "leftover_b": _MASK,
    "player": _I8, "rank_before": _I8, "rank_after": _I8, "cards": _I8,
    **{f"{what}_{copy}": _MASK for what in ("dealt", "gave", "got") for copy in "ab"},
}  # fmt: skip
# Columns with nulls, and the pandas dtype that keeps them (else bool reads as object and a
# small int as float): written into the schema's pandas metadata, which every reader honours.
_NULLABLE = {"call_success": "boolean", "kept_title": "boolean", "rank_before": "Int8"}
_PLAIN = ("round", "hand8", "hand14", "hand_passed", "dealt_a")  # near-unique: no dictionary
_STATS = ("run_id", "variant", "shard", "round", "game")


def _type(name: str) -> pa.DataType:
    return _TYPE.get(name) or _TYPE[re.sub(r"\d+$", "", name)]


def _text(values: list[str], index: np.ndarray) -> pa.DictionaryArray:
    """A dictionary column: ``values[index[i]]`` (the dictionary holds each text once)."""
    unique = sorted(set(values))
    codes = np.array([unique.index(v) for v in values], np.int8)[index]
    return pa.DictionaryArray.from_arrays(pa.array(codes), pa.array(unique, pa.string()))


def _constant(value: str, n: int) -> pa.DictionaryArray:
    return _text([value], np.zeros(n, np.intp))


def _first_index(hit: np.ndarray) -> np.ndarray:
    """Per row, the first column where ``hit`` is true, or -1."""
    return np.where(hit.any(axis=1), hit.argmax(axis=1), -1)


# -- the team games: Nanjing, Tientsin, Wu Wang -------------------------------------------------


def _team_columns(rec) -> tuple[dict, dict]:
    """Rounds and seats columns of ``simulate.Records`` (seat rows by seat; Wu Wang by player
    0..2, then the Minister)."""
    from .simulate import variant_info

    info = variant_info(rec.variant)
    rounds, seats = rec.rounds, rec.seats
    n, k = len(rounds), seats.shape[1]
    flat = seats.reshape(n * k)
    seat = np.tile(np.arange(k, dtype=np.int8), n)
    wuwang = info.code == V.WUWANG
    names = [s.name for s in rec.strategies]
    if wuwang:  # §4: team 0 is the King's side (the King and the Minister) this round
        king = np.repeat(rounds["king"], k)
        team = np.where((seat == king) | (seat == 3), 0, 1)
    else:
        team = seat % 2

    r: dict = {}
    if wuwang:
        r["king"] = rounds["king"]
    r["first_drawer"] = rounds["first_drawer"]
    for p in range(info.players):
        r[f"strategy{p}"] = _constant(names[p], n)
    calls = np.where(seats["grand_tichu"], 2, np.where(seats["tichu"], 1, 0))
    for s in range(k):
        r[f"call{s}"] = calls[:, s]
    passed = np.bitwise_or.reduce(seats["given"], axis=2)
    for p in range(info.players):  # the Minister neither gives nor receives (§4)
        r[f"passed{p}"] = passed[:, p]
    finish = seats["finish"]  # 1..k-1 order out, k the last, 0 still holding after a victory
    for place in range(1, k):
        r[f"{PLACES[place - 1]}_out"] = _first_index(finish == place)
    r["last_out"] = _first_index(finish == k)
    r["triple_victory" if info.code == V.TIENTSIN else "double_victory"] = rounds["double_victory"]
    for t in (0, 1):
        r[f"card_points_team{t}"] = rounds["card_points"][:, t]
    for t in (0, 1):
        r[f"score_team{t}"] = rounds["score"][:, t]
    if wuwang:  # §4: scores per player; the Minister's column is the King's side's total
        per_seat = rounds["score"][np.arange(n)[:, None], team.reshape(n, k)]
        for p in range(3):
            r[f"score_player{p}"] = per_seat[:, p]
        r["score_minister"] = per_seat[:, 3]
    for name in ("tricks", "bombs", "wish", "dragon_to"):
        r[name] = rounds[name]
    if rec.game is not None:
        r |= _wuwang_totals(r, rec.game) if wuwang else _team_totals(r, rec.game, rec.target)

    s: dict = {"seat": seat, "team": team}
    if wuwang:
        roles = np.where(seat == 3, 2, np.where(seat == king, 0, 1))
        s["role"] = _text(["king", "opponent", "minister"], roles)
        s["strategy"] = _text(names, np.where(seat == 3, king, seat))  # the King plays both
    else:
        s["strategy"] = _text(names, seat)
    for name in ("hand8", "hand14", "hand_passed"):
        s[name] = flat[name]
    for direction in ("given", "received"):
        for j, side in SIDES[info.code]:
            s[f"{direction}_{side}"] = flat[direction][:, j]
    s["grand_tichu"] = flat["grand_tichu"]
    s["tichu"] = flat["tichu"]
    called = flat["grand_tichu"] | flat["tichu"]
    s["call_success"] = pa.array(np.repeat(r["first_out"], k) == seat, mask=~called)
    for name in ("finish", "card_points", "points"):
        s[name] = flat[name]
    return r, s


def _game_bounds(game: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows that start and end a game (rows are game-major, each game whole)."""
    change = game[1:] != game[:-1]
    return np.r_[True, change], np.r_[change, True]


def _running_totals(scores: np.ndarray, game: np.ndarray) -> np.ndarray:
    """Cumulative sums of ``scores`` (rows x columns) restarting with each game."""
    start, _ = _game_bounds(game)
    totals = np.cumsum(scores, axis=0)
    before = np.vstack([np.zeros((1, scores.shape[1]), totals.dtype), totals[:-1]])
    first_row = np.maximum.accumulate(np.where(start, np.arange(len(game)), 0))
    return totals - before[first_row]


def _team_totals(r: dict, game: np.ndarray, target: int) -> dict:
    """Running team totals and whether a game ended (decided, §2.15) at that row."""
    totals = _running_totals(np.column_stack([r["score_team0"], r["score_team1"]]), game)
    _, last = _game_bounds(game)
    decided = (totals.max(axis=1) >= target) & (totals[:, 0] != totals[:, 1])
    return {"total_team0": totals[:, 0], "total_team1": totals[:, 1], "game_over": last & decided}


def _wuwang_totals(r: dict, game: np.ndarray) -> dict:
    """Running totals per player and the Minister (§4), and on a game's last round the
    winner: the highest total (3 the Minister), -1 for a tie."""
    names = ["player0", "player1", "player2", "minister"]
    totals = _running_totals(np.column_stack([r[f"score_{m}"] for m in names]), game)
    _, last = _game_bounds(game)
    top = totals.max(axis=1)
    alone = (totals == top[:, None]).sum(axis=1) == 1
    out = {f"total_{m}": totals[:, j] for j, m in enumerate(names)}
    out["game_over"] = last
    out["winner"] = np.where(last & alone, totals.argmax(axis=1), -1)
    return out


# -- Grand Seigneur ------------------------------------------------------------------------------


def _seigneur_columns(rec) -> tuple[dict, dict]:
    """Rounds and seats columns of ``seigneur.SeigneurRecords`` (seat rows by player)."""
    from .seigneur import DECK_NAMES

    rounds, seats, setup = rec.rounds, rec.seats, rec.setup
    n, k = len(rounds), setup.players
    flat = seats.reshape(n * k)
    before = seats["rank_before"]  # 0 in a game's first round: no ranks yet
    had_title = _first_index(before == 1)
    r = {
        "players": np.full(n, k), "deck": _constant(DECK_NAMES[setup.deck], n),
        "dealer": rounds["dealer"], "leader": rounds["leader"], "tricks": rounds["tricks"],
        "bombs": rounds["bombs"], "wish": rounds["wish"], "grand_seigneur": rounds["first_out"],
        "last": rounds["last"],
        "kept_title": pa.array(had_title == rounds["first_out"], mask=had_title < 0),
        "leftover_a": rounds["leftover_a"], "leftover_b": rounds["leftover_b"],
    }  # fmt: skip
    player = np.tile(np.arange(k), n)
    s = {
        "player": player, "seat": flat["seat"],
        "strategy": _text([x.name for x in setup.strategies], player),
        "rank_before": pa.array(flat["rank_before"].astype(np.int8), mask=flat["rank_before"] == 0),
        "rank_after": flat["rank_after"], "cards": flat["cards"],
    }  # fmt: skip
    for what in ("dealt", "gave", "got"):
        for copy in "ab":
            s[f"{what}_{copy}"] = flat[f"{what}_{copy}"]
    return r, s


# -- tables -------------------------------------------------------------------------------------


def tables(rec, *, run_id: str | None = None, shard: int | None = None) -> tuple[pa.Table, pa.Table]:
    """``(rounds, seats)`` Arrow tables of ``rec`` (``simulate.Records`` or
    ``seigneur.SeigneurRecords``). A batch run names its ``run_id`` and ``shard``, which
    lead both tables as columns."""
    seigneur = rec.variant == SEIGNEUR
    r, s = (_seigneur_columns if seigneur else _team_columns)(rec)
    n, k = rec.seats.shape
    ids = {"round": rec.rounds["round"]}
    if seigneur:
        ids |= {"game": rec.rounds["game"], "round_in_game": rec.rounds["round_in_game"]}
    elif rec.game is not None:
        ids |= {"game": rec.game, "round_in_game": rec.round_in_game}

    def lead(rows: int, per_round: int) -> dict:
        out = {} if run_id is None else {"run_id": _constant(run_id, rows)}
        out["variant"] = _constant(rec.variant, rows)
        if shard is not None:
            out["shard"] = np.full(rows, shard, np.int32)
        return out | {name: np.repeat(v, per_round) for name, v in ids.items()}

    return _table(lead(n, 1) | r), _table(lead(n * k, k) | s)


def _table(columns: dict) -> pa.Table:
    fields, arrays = [], []
    for name, values in columns.items():
        kind = _type(name)
        if not isinstance(values, pa.Array):
            values = pa.array(np.ascontiguousarray(values).astype(kind.to_pandas_dtype(), copy=False))
        elif values.type != kind:
            values = values.cast(kind)
        fields.append(pa.field(name, kind))
        arrays.append(values)
    nullable = [{"name": c, "field_name": c, "pandas_type": "bool" if d == "boolean" else "int8",
                 "numpy_type": d, "metadata": None}
                for c, d in _NULLABLE.items() if c in columns]  # fmt: skip
    meta = {b"pandas": json.dumps({"index_columns": [], "column_indexes": [],
                                   "columns": nullable}).encode()} if nullable else None  # fmt: skip
    return pa.Table.from_arrays(arrays, schema=pa.schema(fields, metadata=meta))


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


def write(tables_: tuple[pa.Table, pa.Table], folder) -> None:
    """``rounds.parquet`` and ``seats.parquet`` in ``folder`` (what ``tichusim simulate --out``
    writes; ``tichusim.tables.load`` reads it), each written atomically."""
    from pathlib import Path

    from ..runs.files import write_atomic

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, table in zip(("rounds", "seats"), tables_):
        write_atomic(folder / f"{name}.parquet", encode(table))
