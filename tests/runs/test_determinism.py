"""The determinism matrix: one config and seed give the same bytes whatever plays it.

``test_run.py`` already compares one worker against two and against a Dask LocalCluster,
and a kill -9 then resume against an uninterrupted run. Here the remaining cells: the same
run split across backends (part played in this process, the rest resumed by worker
processes or on Dask), games mode on every backend, and shard sizes. Shard size is part of
the run's identity (its hash, hence ``run_id``, and the ``shard`` column), so runs with
different shard sizes are compared as tables without those two columns: every round's
randomness derives from the seed and the round's key alone (docs/runs.md).
"""

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from tichusim.runs.config import validate
from tichusim.runs.runner import resume, run

ROUNDS = {
    "rounds": 6_000,
    "seed": 23,
    "shard_size": 1_000,
    "strategies": ["heuristic", "random", {"base": "heuristic", "pass": "lowest"}, "lowest"],
}
GAMES = {
    "mode": "games",
    "games": 24,
    "target": 500,
    "seed": 9,
    "shard_size": 6,
    "strategies": "heuristic",
}
SLOW = pytest.mark.slow  # Dask: a LocalCluster of worker processes
IDENTITY = ["run_id", "shard"]  # what differs between runs of different shard sizes


def data_files(run_dir: Path) -> dict[str, bytes]:
    return {
        p.relative_to(run_dir).as_posix(): p.read_bytes()
        for p in sorted(run_dir.glob("*/part-*.parquet"))
    }


def tables(run_dir: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Both tables in row order, without the columns that name the run and the part."""
    out = []
    for table in ("rounds", "seats"):
        df = pd.read_parquet(run_dir / table).drop(columns=IDENTITY)
        out.append(df.astype({c: str for c in df.columns if df[c].dtype == "category"}))
    return tuple(out)


def unfinish(run_dir: Path, shards: list[int]) -> None:
    """What a stop leaves: these shards pending, their files gone (or never written)."""
    manifest = json.loads((run_dir / "manifest.json").read_text())
    for index in shards:
        shard = manifest["shards"][index]
        for meta in shard["files"].values():
            (run_dir / meta["path"]).unlink()
        manifest["shards"][index] = {k: shard[k] for k in ("index", "first", "count")} | {
            "state": "pending"
        }
    manifest["state"] = "running"
    (run_dir / "manifest.json").write_text(json.dumps(manifest))


@pytest.fixture(scope="module", params=["rounds", "games"])
def reference(request, tmp_path_factory):
    config = ROUNDS if request.param == "rounds" else GAMES
    out = tmp_path_factory.mktemp(request.param) / "run"
    run(config, out=out, workers=1, progress=False)
    return config, out


@pytest.mark.parametrize(
    "backend", [{"workers": 2}, {"workers": 3}, pytest.param({"dask": "local"}, marks=SLOW)]
)
def test_every_backend_gives_the_same_bytes(reference, tmp_path, backend):
    config, ref = reference
    if "dask" in backend:
        pytest.importorskip("dask.distributed")
        config = config | {"dask": {"address": "local", "n_workers": 2}}
        backend = {}
    run(validate(config), out=tmp_path / "run", progress=False, **backend)
    assert data_files(tmp_path / "run") == data_files(ref)


@pytest.mark.parametrize(
    "resumed_on", [{"workers": 1}, {"workers": 2}, pytest.param({"dask": "local"}, marks=SLOW)]
)
def test_resumed_on_another_backend_gives_the_same_bytes(reference, tmp_path, resumed_on):
    _, ref = reference
    if "dask" in resumed_on:
        pytest.importorskip("dask.distributed")
    out = tmp_path / "run"
    shutil.copytree(ref, out)
    unfinish(out, [0, 2, 3])  # first, middle and a neighbour: not only a tail
    summary = resume(out, progress=False, **resumed_on)
    assert summary.played == 3
    assert data_files(out) == data_files(ref)
    assert json.loads((out / "manifest.json").read_text())["state"] == "complete"


@pytest.mark.parametrize("shard_size", [1, 7, "all"])
def test_shard_size_changes_the_parts_not_the_tables(reference, tmp_path, shard_size):
    config, ref = reference
    count = config["rounds"] if config.get("mode", "rounds") == "rounds" else config["games"]
    size = count if shard_size == "all" else shard_size * (250 if "rounds" in config else 1)
    out = tmp_path / "run"
    run(config | {"shard_size": size}, out=out, workers=2, progress=False)
    assert len(list((out / "rounds").glob("part-*.parquet"))) == -(-count // size)
    for mine, theirs in zip(tables(out), tables(ref), strict=False):
        pd.testing.assert_frame_equal(mine, theirs)


def test_a_shard_played_in_slices_holds_the_rounds_of_one_call():
    """A shard is played and encoded a slice at a time (``shard.SLICE``, one row group each):
    its tables hold exactly the rounds one ``records`` call of the whole shard gives."""
    import io

    import pyarrow.parquet as pq

    from tichusim.games.arrow import tables
    from tichusim.games.simulate import records
    from tichusim.runs.shard import SLICE, ShardTask, play_shard

    play = {
        "variant": "nanjing",
        "games": False,
        "seed": 5,
        "strategies": "random",
        "players": None,
        "options": {},
        "target": 1000,
        "check": False,
    }
    count = 2 * SLICE[False] + 7
    result = play_shard(ShardTask(play, "r", 3, 100, count, 1))
    rounds = pq.ParquetFile(io.BytesIO(result.rounds))
    assert rounds.metadata.num_row_groups == 3
    whole = tables(records(count=count, first=100, **play), run_id="r", shard=3)
    for got, want in zip((result.rounds, result.seats), whole, strict=True):
        assert pq.read_table(io.BytesIO(got)).equals(want)
    assert result.rows == {"rounds": count, "seats": 4 * count}
