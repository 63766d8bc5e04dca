"""The batch encoder of training (``encoding.encode_decisions``): each decision's state row
joined to each of its candidate rows is ``encode``'s row of that candidate, whatever the
order and subset of the decisions asked; and the decisions' Parquet table reads back as
written."""

import numpy as np
import pytest
from support.real_decisions import real_decisions

from tichusim.kernels.tichu import encoding
from tichusim.kernels.tichu.encoding import CANDIDATE_SIZE, N_FEATURES, STATE_SIZE
from tichusim.learn.decisions import read_decisions, to_table


@pytest.fixture(scope="module")
def decisions():
    return real_decisions(6, seed=3)


def _encode_rows(d, rows):
    lengths = np.diff(d.start)[rows]
    state = np.full((len(rows), STATE_SIZE), 9.0, np.float32)  # every entry is written
    cand = np.full((int(lengths.sum()), CANDIDATE_SIZE), 9.0, np.float32)
    n = encoding.encode_decisions(
        d.public, d.private, d.decision, d.start, d.masks, d.codes, rows, state, cand
    )
    assert n == lengths.sum()
    return state, cand


def test_rows_are_encode_rows(decisions):
    d = decisions
    assert len(d.decision) > 100 and set(d.decision) >= {4}
    rows = np.random.default_rng(1).permutation(len(d.decision))[: len(d.decision) // 2]
    state, cand = _encode_rows(d, rows)
    row = np.empty(N_FEATURES, np.float32)
    at = 0
    for i, k in enumerate(rows):
        for c in range(d.start[k], d.start[k + 1]):
            encoding.encode(
                d.public[k : k + 1],
                d.private[k : k + 1],
                d.decision[k],
                d.masks[c],
                d.codes[c],
                row,
            )
            assert np.array_equal(state[i], row[:STATE_SIZE])
            assert np.array_equal(cand[at], row[STATE_SIZE:])
            at += 1
    assert at == len(cand)


def test_no_rows_write_nothing(decisions):
    d = decisions
    state, cand = _encode_rows(d, np.zeros(0, np.int64))
    assert state.shape == (0, STATE_SIZE) and cand.shape == (0, CANDIDATE_SIZE)


def test_the_table_reads_back(decisions, tmp_path):
    import pyarrow.parquet as pq

    d = decisions._replace(values=np.arange(len(decisions.masks), dtype=np.float32))
    half = len(d.decision) // 2
    pq.write_table(to_table(d), tmp_path / "all.parquet")
    back = read_decisions([tmp_path / "all.parquet"])
    for name, want in d._asdict().items():
        got = getattr(back, name)
        assert got.dtype == want.dtype and np.array_equal(got, want), name
    # two shards read one after another are the same decisions; a table sliced into record
    # batches reads the same too
    table = to_table(d)
    pq.write_table(table.slice(0, half), tmp_path / "0.parquet")
    pq.write_table(table.slice(half), tmp_path / "1.parquet", row_group_size=7)
    back = read_decisions([tmp_path / "0.parquet", tmp_path / "1.parquet"])
    for name, want in d._asdict().items():
        assert np.array_equal(getattr(back, name), want), name


def test_a_bad_table_is_one_line(decisions, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = to_table(decisions)
    short = table.set_column(3, "public", pa.array([b"x" * 10] * len(table), pa.binary()))
    pq.write_table(short, tmp_path / "short.parquet")
    with pytest.raises(
        ValueError, match="short.parquet: column public holds records that are not 520"
    ):
        read_decisions([tmp_path / "short.parquet"])
    pq.write_table(table.drop_columns(["values"]), tmp_path / "novalues.parquet")
    with pytest.raises(ValueError, match="novalues.parquet: cannot read"):
        read_decisions([tmp_path / "novalues.parquet"])
    bad = table.set_column(8, "chosen", pa.array([99] * len(table), pa.int16()))
    pq.write_table(bad, tmp_path / "chosen.parquet")
    with pytest.raises(ValueError, match="chosen is not an index"):
        read_decisions([tmp_path / "chosen.parquet"])
