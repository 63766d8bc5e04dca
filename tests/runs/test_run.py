"""Batch runs: the same bytes however a run is split (workers, Dask, stops and resumes), the
documented schema, and the manifest's account of every shard."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.dataset as ds
import pytest

import tichusim
from tichusim.runs.config import validate
from tichusim.runs.files import sha256_file
from tichusim.runs.runner import resume, run

ROOT = Path(__file__).resolve().parents[2]
CONFIG = {
    "rounds": 12_000,
    "seed": 11,
    "strategies": ["random", "lowest", "heuristic", "random"],
    "shard_size": 2_500,
}  # 5 shards, the last one short
GAMES = {
    "mode": "games",
    "games": 40,
    "target": 500,
    "seed": 4,
    "shard_size": 15,
    "strategies": ["heuristic", "lowest", "random", "heuristic"],
}


def data_files(run_dir: Path) -> dict[str, bytes]:
    return {
        p.relative_to(run_dir).as_posix(): p.read_bytes()
        for p in sorted(run_dir.glob("*/part-*.parquet"))
    }


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The config played in this process, uninterrupted."""
    out = tmp_path_factory.mktemp("ref") / "run"
    summary = run(CONFIG, out=out, workers=1, progress=False)
    assert summary.played == 5 and summary.rounds == 12_000
    return out


def test_run_directory_and_manifest(reference):
    files = data_files(reference)
    assert sorted(files) == [
        f"{t}/part-{i:05d}.parquet" for t in ("rounds", "seats") for i in range(5)
    ]
    manifest = json.loads((reference / "manifest.json").read_text())
    config = validate(json.loads((reference / "config.json").read_text()))
    assert manifest["state"] == "complete" and manifest["config_hash"] == config.hash
    assert manifest["tichusim"] == tichusim.__version__ and manifest["seed"] == 11
    assert manifest["sessions"][0]["outcome"] == "complete"
    assert manifest["sessions"][0]["machine"]["cpus"] == os.cpu_count()
    for shard in manifest["shards"]:
        assert shard["state"] == "done" and set(shard["seconds"]) == {"simulate", "encode", "write"}
        assert shard["rows"] == {"rounds": shard["count"], "seats": 4 * shard["count"]}
        for meta in shard["files"].values():
            assert sha256_file(reference / meta["path"]) == meta["sha256"]
    assert [s["count"] for s in manifest["shards"]] == [2500] * 4 + [2000]
    assert not list(reference.rglob(".*"))  # no temporary file left behind


def test_tables_follow_the_schema_and_equal_simulate(reference):
    rounds = pd.read_parquet(reference / "rounds")
    seats = pd.read_parquet(reference / "seats")
    r, s = tichusim.simulate(12_000, seed=11, strategies=CONFIG["strategies"])
    assert list(rounds.columns) == ["run_id", "variant", "shard", *r.columns[1:]]
    assert list(seats.columns) == ["run_id", "variant", "shard", *s.columns[1:]]
    assert ds.dataset(reference / "seats").schema.field("hand14").type == "uint64"
    assert len(rounds) == 12_000 and len(seats) == 48_000
    assert rounds["round"].tolist() == list(range(12_000))
    assert (rounds["shard"].to_numpy() == np.arange(12_000) // 2_500).all()
    assert seats["call_success"].dtype == "boolean" and seats["hand14"].dtype == "uint64"
    assert list(rounds["strategy2"].unique()) == ["heuristic"]
    for col in (
        "round",
        "double_victory",
        "score_team0",
        "score_team1",
        "card_points_team1",
        "tricks",
        "bombs",
        "wish",
        "dragon_to",
        "first_out",
    ):
        assert (rounds[col].to_numpy() == r[col].to_numpy()).all(), col
    for col in (
        "hand8",
        "hand14",
        "hand_passed",
        "given_left",
        "received_right",
        "grand_tichu",
        "tichu",
        "finish",
        "card_points",
        "points",
        "team",
    ):
        assert (seats[col].to_numpy() == s[col].to_numpy()).all(), col
    assert seats["call_success"].equals(s["call_success"])
    assert (seats["strategy"].astype(str).to_numpy() == s["strategy"].astype(str).to_numpy()).all()
    # round-level summaries agree with the seat rows they summarize
    by_seat = seats.pivot(index="round", columns="seat")
    calls = 2 * by_seat["grand_tichu"].to_numpy() + by_seat["tichu"].to_numpy()
    assert (rounds[[f"call{i}" for i in range(4)]].to_numpy() == calls).all()
    given = by_seat["given_left"] | by_seat["given_partner"] | by_seat["given_right"]
    assert (rounds[[f"passed{i}" for i in range(4)]].to_numpy() == given.to_numpy()).all()
    finish = by_seat["finish"].to_numpy()
    for place, col in enumerate(("first_out", "second_out", "third_out", "last_out"), 1):
        expect = np.where((finish == place).any(1), (finish == place).argmax(1), -1)
        assert (rounds[col].to_numpy() == expect).all(), col


def test_documented_queries_run(reference):
    """The pandas and pyarrow.dataset examples of docs/schema.md."""
    doc = (ROOT / "docs" / "schema.md").read_text()
    blocks = [b.split("```", 1)[0] for b in doc.split("```python\n")[1:]]
    assert blocks, "docs/schema.md has python examples"
    for code in blocks:
        exec(code.replace('"results/quick/', f'"{reference}/'), {})  # noqa: S102 (our docs)


def test_same_bytes_with_two_worker_threads(reference, tmp_path):
    summary = run(CONFIG, out=tmp_path / "run", workers=2, progress=False)
    assert summary.backend == "2 threads"
    assert data_files(tmp_path / "run") == data_files(reference)


def test_workers_are_threads_unless_python_agents_play():
    """Compiled strategies release the GIL: threads of one process (one copy of numba, the
    kernels and pyarrow); a Python agent's decisions hold it: processes. One worker: this
    process; Dask only when asked."""
    from tichusim.runs.config import validate
    from tichusim.runs.runner import choose_backend

    agent = {"agent": f"{ROOT}/examples/first_legal.py:FirstLegal"}
    assert not validate(CONFIG).python_agents
    mixed = [agent, "heuristic", "heuristic", "lowest"]
    assert validate(CONFIG | {"strategies": mixed}).python_agents
    cases = [
        ((2, None, None, 8, False), "2 threads"),
        ((2, None, None, 8, True), "2 local processes"),
        ((1, None, None, 8, False), "this process"),
        ((4, None, None, 2, False), "2 threads"),
    ]
    for args, name in cases:
        backend = choose_backend(*args)
        try:
            assert backend.name == name, (args, backend.name)
        finally:
            backend.close()


def test_games_mode(tmp_path):
    a = run(GAMES, out=tmp_path / "a", workers=1, progress=False)
    rounds = pd.read_parquet(tmp_path / "a" / "rounds")
    seats = pd.read_parquet(tmp_path / "a" / "seats")
    r, s = tichusim.simulate_games(40, seed=4, strategies=GAMES["strategies"], target=500)
    assert list(rounds.columns) == ["run_id", "variant", "shard", *r.columns[1:]]
    assert list(seats.columns) == ["run_id", "variant", "shard", *s.columns[1:]]
    assert a.rounds == len(r) == len(rounds) and len(seats) == len(s)
    for col in (
        "game",
        "round_in_game",
        "round",
        "first_drawer",
        "score_team0",
        "total_team0",
        "total_team1",
        "game_over",
    ):
        assert (rounds[col].to_numpy() == r[col].to_numpy()).all(), col
    assert (seats["hand14"].to_numpy() == s["hand14"].to_numpy()).all()
    assert rounds.groupby("game")["game_over"].sum().max() == 1
    assert (rounds["shard"].to_numpy() == rounds["game"].to_numpy() // 15).all()
    run(GAMES, out=tmp_path / "b", workers=2, progress=False)
    assert data_files(tmp_path / "b") == data_files(tmp_path / "a")


@pytest.mark.slow
def test_resume_after_kill_9_equals_uninterrupted(reference, tmp_path):
    """A run killed (SIGKILL) mid-way, then resumed, leaves the uninterrupted run's bytes."""
    cfg = tmp_path / "c.toml"
    out = tmp_path / "run"
    lines = [f"{k} = {json.dumps(v)}" for k, v in CONFIG.items() if k != "shard_size"]
    cfg.write_text("\n".join(lines + ["shard_size = 500"]) + "\n")  # 24 small shards
    reference_small = tmp_path / "ref"
    run(validate(CONFIG | {"shard_size": 500}), out=reference_small, workers=1, progress=False)
    env = os.environ | {"PYTHONPATH": str(ROOT), "NUMBA_NUM_THREADS": "1"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tichusim.cli",
            "run",
            str(cfg),
            "--out",
            str(out),
            "--workers",
            "1",
            "--quiet",
        ],
        env=env,
    )
    done = _wait_for_shards(proc, out, at_least=2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["state"] == "running" and 2 <= done < 24
    summary = resume(out, workers=2, progress=False)
    assert 0 < summary.played <= 24 - done
    assert data_files(out) == data_files(reference_small)
    assert json.loads((out / "manifest.json").read_text())["state"] == "complete"


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_and_says_how_to_resume(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('rounds = 200_000\nshard_size = 1000\nstrategies = "random"\n')
    out = tmp_path / "run"
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    # SIGINT as at a terminal (a background shell would start the run with SIGINT ignored)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tichusim.cli",
            "run",
            str(cfg),
            "--out",
            str(out),
            "--workers",
            "2",
            "--quiet",
        ],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    _wait_for_shards(proc, out, at_least=1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    lines = [line for line in err.splitlines() if line.strip()]
    assert proc.returncode == 130 and len(lines) == 1, err
    assert "interrupted after" in lines[0] and f"tichusim run --resume {out}" in lines[0]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["sessions"][-1]["outcome"] == "interrupted"
    for shard in manifest["shards"]:
        if shard["state"] == "done":
            for meta in shard["files"].values():
                assert sha256_file(out / meta["path"]) == meta["sha256"]


def test_damaged_or_missing_shard_is_played_again(reference, tmp_path):
    out = tmp_path / "run"
    run(CONFIG, out=out, workers=1, progress=False)
    part = out / "seats" / "part-00001.parquet"
    data = bytearray(part.read_bytes())
    data[len(data) // 2] ^= 0xFF
    part.write_bytes(bytes(data))
    (out / "rounds" / "part-00003.parquet").unlink()
    (out / "rounds" / ".part-00004.parquet.tmp").write_bytes(b"partial")  # a stop mid-write
    notes = []
    summary = resume(out, workers=1, progress=False, log=notes.append)
    assert summary.played == 2
    assert notes == [
        "shard 1: seats/part-00001.parquet does not match its checksum; playing it again",
        "shard 3: rounds/part-00003.parquet is missing; playing it again",
    ]
    assert data_files(out) == data_files(reference)
    assert not list(out.rglob(".*"))
    assert json.loads((out / "manifest.json").read_text())["sessions"][-1]["repaired"]


@pytest.mark.slow
def test_dask_local_cluster_gives_the_same_bytes(reference, tmp_path):
    pytest.importorskip("dask.distributed")
    summary = run(
        validate(CONFIG | {"dask": {"address": "local", "n_workers": 2}}),
        out=tmp_path / "run",
        progress=False,
    )
    assert summary.backend == "dask LocalCluster (2 workers)"
    assert data_files(tmp_path / "run") == data_files(reference)
    workers = {
        s["worker"] for s in json.loads((tmp_path / "run" / "manifest.json").read_text())["shards"]
    }
    assert len(workers) >= 1 and all(":" in w for w in workers)


def _wait_for_shards(proc, out: Path, at_least: int, timeout: float = 120) -> int:
    """Poll the manifest of a running subprocess until ``at_least`` shards are done."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the run ended before it could be stopped"
        try:
            shards = json.loads((out / "manifest.json").read_text())["shards"]
        except (OSError, ValueError):
            shards = []
        done = sum(s["state"] == "done" for s in shards)
        if done >= at_least:
            return done
        time.sleep(0.01)
    raise AssertionError("no shard finished in time")
