"""``simulate``'s DataFrames, built part by part (``arrow.frames_of``), are the Arrow tables'
``to_pandas`` (the tables a run writes as Parquet) column for column: values, dtypes,
categories; in every game, across parts, on any number of threads; and the driver's parts
report a failed round as the whole call did."""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd
import pytest

from tichusim import simulate, simulate_games
from tichusim.games import GAMES, arrow, driver, game_type, team
from tichusim.games.errors import SimulationError
from tichusim.games.simulate import records
from tichusim.kernels.combos import BOMB_FOUR, BOMB_SF
from tichusim.kernels.tichu.records import ROUND, SEAT


def _same(got: pd.DataFrame, want: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    assert list(got.dtypes) == list(want.dtypes)
    assert got.columns.dtype == want.columns.dtype
    for name in got.columns:
        if isinstance(want[name].dtype, pd.CategoricalDtype):
            assert list(got[name].cat.categories) == list(want[name].cat.categories)
            assert got[name].cat.categories.dtype == want[name].cat.categories.dtype
            assert np.array_equal(got[name].cat.codes, want[name].cat.codes)


def _arrow(rec) -> tuple[pd.DataFrame, pd.DataFrame]:
    rounds, seats = arrow.tables(rec)
    return rounds.to_pandas(), seats.to_pandas()


@pytest.fixture
def small_parts(monkeypatch):
    """Parts of 40 rounds, chunks of 8: a few hundred rounds cross many parts."""
    monkeypatch.setattr(team, "ROUNDS_BLOCK", 40)
    monkeypatch.setattr(team, "_ROUNDS_CHUNK", 8)


@pytest.mark.parametrize("variant", GAMES)
@pytest.mark.parametrize("strategies", ["random", "lowest", "heuristic"])
def test_simulate_is_the_tables_to_pandas(variant, strategies, small_parts):
    players = 6 if variant == "grand-seigneur" else None
    for rounds, first in ((0, 0), (1, 3), (130, 7)):
        want = _arrow(
            records(variant, rounds, first=first, seed=5, strategies=strategies, players=players)
        )
        got = simulate(
            rounds,
            seed=5,
            strategies=strategies,
            variant=variant,
            first_round=first,
            players=players,
        )
        for g, w in zip(got, want, strict=True):
            _same(g, w)


@pytest.mark.parametrize("variant", GAMES)
def test_frames_of_games_are_the_tables_to_pandas(variant):
    """Whole games: running totals, winners and the nullable columns (``call_success``,
    Grand Seigneur's ``kept_title`` and ``rank_before``)."""
    players = 6 if variant == "grand-seigneur" else None
    target = 300 if game_type(variant).team_game else None
    rec = records(
        variant,
        6,
        games=True,
        seed=2,
        strategies="heuristic",
        players=players,
        target=target or 1000,
    )
    want = _arrow(rec)
    for g, w in zip(arrow.frames(rec), want, strict=True):
        _same(g, w)
    got = simulate_games(
        6, seed=2, strategies="heuristic", variant=variant, players=players, target=target
    )
    for g, w in zip(got, want, strict=True):
        _same(g, w)
    nullable = [c for c in want[1].columns if str(want[1][c].dtype) in ("boolean", "Int8")]
    assert nullable and any(want[1][c].isna().any() for c in nullable)


def test_same_frames_on_any_number_of_threads(small_parts):
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simulate(200, seed=9, strategies="random")
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = simulate(200, seed=9, strategies="random")
    finally:
        numba.set_num_threads(threads)
    for a, b in zip(one, many, strict=True):
        _same(a, b)


def test_frames_are_the_callers_to_change(small_parts):
    """The columns are the frame's own arrays: written to, not read-only views."""
    rounds, seats = simulate(50, seed=1)
    seats.loc[0, "points"] = 7
    seats["hand8"] += 1
    rounds.iloc[3, rounds.columns.get_loc("tricks")] = 99
    assert seats.loc[0, "points"] == 7 and rounds["tricks"].iloc[3] == 99


def test_frames_of_a_wrong_row_count_says_so():
    rec = records("nanjing", 5, seed=1)
    with pytest.raises(ValueError, match="frames_of: 5 rows given, 6 said"):
        arrow.frames_of([rec], 6)


def _failing_batch(bad: set[int], block: int) -> driver.Batch:
    """A batch whose units fail (error code 1) where listed."""

    def call(units, rounds, seats, played, chunks):
        rounds["round"][:, 0] = units
        rounds["error"][:, 0] = [1 if int(u) in bad else 0 for u in units]

    return driver.Batch(
        ROUND, SEAT, 4, 1, block, call, ["", "boom"], lambda r: f"round key {r['round']}"
    )


@pytest.mark.parametrize("reuse", [False, True])
def test_parts_stop_at_a_failure_and_count_every_failed_round(reuse):
    batch = _failing_batch({5, 6, 13}, 4)
    seen = []
    with pytest.raises(SimulationError) as failed:  # reuse: the first failure kept whole
        for part in driver.play_parts(batch, np.arange(16, dtype=np.int64), False, reuse=reuse):
            seen.append(part.rounds["round"].tolist())
    assert str(failed.value) == "3 round(s) failed; first: round key 5: boom"
    assert seen == [[0, 1, 2, 3]]  # nothing from the failing block on
    with pytest.raises(SimulationError, match="^3 round"):  # the same as one block
        driver.play(_failing_batch({5, 6, 13}, 16), np.arange(16, dtype=np.int64), False)


def test_no_units_give_one_empty_part():
    parts = list(driver.play_parts(_failing_batch(set(), 4), np.zeros(0, np.int64), False))
    assert len(parts) == 1 and len(parts[0].rounds) == 0 and parts[0].seats.shape == (0, 4)


def test_derived_columns_are_their_fields_on_any_values():
    """``team._derived`` (one pass over the seat records) against numpy field by field, on
    records of any values: repeated places and places out of range, both calls at once,
    bombs of both kinds and codes of no bomb kind."""
    rng = np.random.default_rng(3)
    for k in (4, 6):
        seats = np.zeros((500, k), SEAT)
        seats["finish"] = rng.integers(-2, k + 3, size=(500, k))
        seats["given"] = rng.integers(0, 1 << 56, size=(500, k, 5), dtype=np.uint64)
        seats["given"][rng.random((500, k, 5)) < 0.5] = 0
        seats["tichu"] = rng.random((500, k)) < 0.3
        seats["grand_tichu"] = rng.random((500, k)) < 0.2
        kind = rng.choice([0, 1, BOMB_FOUR, BOMB_SF], size=(500, k))
        code = (kind << 16) | rng.integers(0, 1 << 16, size=(500, k))
        seats["first_bomb"] = np.where(rng.random((500, k)) < 0.3, 0, code)
        d = team._derived(seats)
        for place in range(1, k + 1):
            assert np.array_equal(d.order[:, place], arrow.first_index(seats["finish"] == place))
        calls = np.where(seats["grand_tichu"], 2, seats["tichu"].astype(np.int8))
        assert np.array_equal(d.calls, calls) and set(np.unique(calls)) == {0, 1, 2}
        assert np.array_equal(d.passed, np.bitwise_or.reduce(seats["given"], axis=2))
        code = seats["first_bomb"].astype(np.int64)
        bombed = code != 0
        want_kind = np.where(bombed, np.where(code >> 16 == BOMB_SF, 2, 1), 0)
        assert np.array_equal(d.bomb_kind, want_kind) and set(np.unique(want_kind)) == {0, 1, 2}
        assert np.array_equal(d.bomb_rank, np.where(bombed, (code & 0xFF) // 2, -1))
        assert np.array_equal(d.called, seats["grand_tichu"] | seats["tichu"])
        assert np.array_equal(d.success, d.order[:, 1:2] == np.arange(k))


@pytest.mark.parametrize("variant", ["nanjing", "tientsin", "wuwang"])
def test_every_plain_field_is_its_records_field(variant):
    """Each column gathered out of the records (an ``arrow.Field``, ``kernels.gather``) holds
    the field's values, narrowed to the column's type; a text column the words they index."""
    rec = records(variant, 300, seed=2, strategies="heuristic")
    r, s = rec.source.columns(rec)
    rounds, seats = simulate(300, seed=2, strategies="heuristic", variant=variant)
    gathered, varied = 0, 0
    for columns, frame in ((r, rounds), (s, seats)):
        for name, column in columns.items():
            if not isinstance(column, arrow.Field):
                continue
            gathered += 1
            want = column.values()
            varied += len(np.unique(want)) > 1
            if column.words is not None:
                assert list(frame[name].astype(str)) == [column.words[v] for v in want], name
            else:
                assert np.array_equal(frame[name].to_numpy(), want), name
    assert gathered >= 40 and varied >= 38, (gathered, varied)


@pytest.mark.parametrize("variant", ["nanjing", "tientsin", "wuwang"])
def test_places_and_passes_are_the_records(variant):
    """The places out and the cards each player passed, read from the records directly."""
    rec = records(variant, 400, seed=4, strategies="heuristic")
    rounds, _ = simulate(400, seed=4, strategies="heuristic", variant=variant)
    finish = rec.seats["finish"]
    k = finish.shape[1]
    assert (finish == 0).any()  # rounds won at once (§2.13) among them
    for place in range(1, k):
        want = arrow.first_index(finish == place)
        assert np.array_equal(rounds[f"{arrow.PLACES[place - 1]}_out"], want)
    assert np.array_equal(rounds["last_out"], arrow.first_index(finish == k))
    passed = np.bitwise_or.reduce(rec.seats["given"], axis=2)
    for p in range(rec.source.players):
        assert np.array_equal(rounds[f"passed{p}"].to_numpy(np.uint64), passed[:, p])


def test_reused_parts_share_records_zeroed_for_each_block():
    """``reuse``: every block is played into the first block's records, zeroed again (what a
    block's kernel leaves unwritten reads as in fresh records), the last block a slice."""
    written = []

    def call(units, rounds, seats, played, chunks):
        assert not rounds.view(np.uint8).any() and not seats.view(np.uint8).any()
        rounds["round"][:, 0] = units
        seats["points"][:, 0, :] = 1
        written.append(rounds)

    batch = driver.Batch(ROUND, SEAT, 4, 1, 4, call, [""], lambda r: "")
    parts = [
        (p.rounds["round"].tolist(), p.rounds)
        for p in driver.play_parts(batch, np.arange(10, dtype=np.int64), False, reuse=True)
    ]
    assert [keys for keys, _ in parts] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert all(np.shares_memory(rounds, written[0]) for _, rounds in parts)
