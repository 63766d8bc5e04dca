"""Batch runs of every game (RULES.md §3 Tientsin, §4 Wu Wang, §5 Grand Seigneur): a run
directory holds exactly the tables ``simulate`` returns, one schema across its parts, every
column documented, the same bytes however the run is split, and the shipped configs run."""

import re
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

import tichusim
from tichusim.runs.config import load_config, validate
from tichusim.runs.runner import resume, run

ROOT = Path(__file__).resolve().parents[2]
IDENTITY = ["run_id", "shard"]

MIXED6 = [
    "heuristic",
    "lowest",
    "random",
    {"base": "heuristic", "dog": "random"},
    "lowest",
    {"base": "lowest", "pass": "partner-best", "name": "lowest-pb"},
]
CASES = {
    "tientsin": {
        "variant": "tientsin",
        "rounds": 700,
        "seed": 3,
        "strategies": MIXED6,
        "shard_size": 300,
        "check": True,
    },
    "tientsin-games": {
        "variant": "tientsin",
        "mode": "games",
        "games": 9,
        "target": 400,
        "seed": 4,
        "strategies": "heuristic",
        "shard_size": 4,
    },
    "wuwang": {
        "variant": "wuwang",
        "rounds": 700,
        "seed": 5,
        "shard_size": 300,
        "check": True,
        "strategies": ["heuristic", "random", "lowest"],
    },
    "wuwang-games": {
        "variant": "wuwang",
        "mode": "games",
        "games": 9,
        "seed": 6,
        "shard_size": 4,
        "strategies": "heuristic",
        "options": {"rotating_king": True, "game_rounds": 6},
    },
    "seigneur": {
        "variant": "grand-seigneur",
        "players": 7,
        "rounds": 500,
        "seed": 7,
        "shard_size": 200,
        "check": True,
        "strategies": ["heuristic", "random"] * 3 + [{"base": "heuristic", "give_back": "lowest"}],
    },
    "seigneur-games": {
        "variant": "grand-seigneur",
        "players": 9,
        "mode": "games",
        "games": 9,
        "seed": 8,
        "shard_size": 4,
        "strategies": "heuristic",
        "options": {"game_rounds": 4, "russian_deck": True},
    },
}


def data_files(run_dir: Path) -> dict[str, bytes]:
    return {
        p.relative_to(run_dir).as_posix(): p.read_bytes()
        for p in sorted(run_dir.glob("*/part-*.parquet"))
    }


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Each case played in this process, uninterrupted."""
    root = tmp_path_factory.mktemp("variants")
    out = {}
    for name, config in CASES.items():
        summary = run(config, out=root / name, workers=1, progress=False)
        assert summary.played == validate(config).n_shards
        out[name] = root / name
    return out


def plain(df: pd.DataFrame) -> pd.DataFrame:
    """Categorical columns as text: a folder of parts and one table may order categories
    differently, which says nothing about the values."""
    return df.astype({c: str for c in df.columns if isinstance(df[c].dtype, pd.CategoricalDtype)})


def simulated(config: dict):
    c = validate(config)
    games = c.mode == "games"
    simulate = tichusim.simulate_games if games else tichusim.simulate
    kwargs = {
        "seed": c.seed,
        "strategies": c.strategies,
        "variant": c.variant,
        "players": c.players,
        "options": c.options,
    }
    if games and "target" in config:
        kwargs["target"] = c.target
    return simulate(c.count, **kwargs)


@pytest.mark.parametrize("name", CASES)
def test_run_tables_are_simulates_tables(runs, name):
    rounds = pd.read_parquet(runs[name] / "rounds")
    seats = pd.read_parquet(runs[name] / "seats")
    r, s = simulated(CASES[name])
    assert list(rounds.columns) == ["run_id", "variant", "shard", *r.columns[1:]]
    pd.testing.assert_frame_equal(plain(rounds.drop(columns=IDENTITY)), plain(r))
    pd.testing.assert_frame_equal(plain(seats.drop(columns=IDENTITY)), plain(s))
    assert (rounds["variant"] == validate(CASES[name]).variant).all()
    assert len(seats) == len(rounds) * {"tientsin": 6, "wuwang": 4}.get(
        CASES[name]["variant"], CASES[name].get("players", 4)
    )


@pytest.mark.parametrize("name", CASES)
def test_parts_share_one_schema(runs, name):
    for table in ("rounds", "seats"):
        schemas = {str(pq.read_schema(p)) for p in sorted((runs[name] / table).glob("part-*"))}
        assert len(schemas) == 1, table


def test_every_column_is_documented(runs):
    doc = re.sub(r"```.*?```", "", (ROOT / "docs" / "schema.md").read_text(), flags=re.S)
    names = set()
    for token in re.findall(r"`([^`]+)`", doc):
        names |= {re.sub(r"\d+$", "", part) for part in token.split("/")}
    for name, run_dir in runs.items():
        for table in ("rounds", "seats"):
            columns = pq.read_schema(next((run_dir / table).glob("part-*"))).names
            missing = [c for c in columns if re.sub(r"\d+$", "", c) not in names]
            assert not missing, (name, table, missing)


@pytest.mark.parametrize("name", ["tientsin", "seigneur-games"])
def test_same_bytes_with_two_worker_threads(runs, name, tmp_path):
    summary = run(CASES[name], out=tmp_path / "run", workers=2, progress=False)
    assert summary.backend == "2 threads"
    assert data_files(tmp_path / "run") == data_files(runs[name])


def test_a_damaged_part_is_replayed_to_the_same_bytes(runs, tmp_path):
    """Resume keeps intact shards and replays a damaged one (Grand Seigneur's own engine
    through the same runner)."""
    import shutil

    copy = tmp_path / "run"
    shutil.copytree(runs["seigneur-games"], copy)
    part = copy / "seats" / "part-00001.parquet"
    part.write_bytes(part.read_bytes()[:-10])
    notes = []
    summary = resume(copy, workers=1, progress=False, log=notes.append)
    assert summary.played == 1 and any("part-00001" in n for n in notes)
    assert data_files(copy) == data_files(runs["seigneur-games"])


RUN_CONFIGS = sorted(p for p in (ROOT / "configs").glob("*.toml") if not p.name.startswith("learn"))


@pytest.mark.parametrize("path", RUN_CONFIGS, ids=lambda p: p.stem)
def test_shipped_configs_run(path, tmp_path):
    """Every example run config validates and plays (a few rounds or games of it);
    configs/learn*.toml are learnings' (tests/learn)."""
    config = load_config(path)
    small = {config.mode: 3 if config.mode == "games" else 40}
    config = config.with_overrides(out=str(tmp_path / "run"), **small)
    summary = run(config, workers=1, progress=False)
    rounds = pd.read_parquet(tmp_path / "run" / "rounds", columns=["variant"])
    assert len(rounds) == summary.rounds > 0
    assert set(rounds["variant"].astype(str)) == {config.variant}
