"""``tichusim verify`` and the analyses' check before reading: a truncated, byte-flipped or
missing shard is named in one line; a clean run passes; nothing is modified."""

import json
import shutil

import pytest
from click.testing import CliRunner

from tichusim.cli import main
from tichusim.runs.read import load
from tichusim.runs.runner import run
from tichusim.runs.verify import verify

CONFIG = {"rounds": 3_000, "seed": 3, "strategies": "heuristic", "shard_size": 1_000}


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    out = tmp_path_factory.mktemp("verify") / "run"
    run(CONFIG, out=out, workers=1, progress=False)
    return out


@pytest.fixture
def copy(clean, tmp_path):
    shutil.copytree(clean, tmp_path / "run")
    return tmp_path / "run"


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def snapshot(run_dir):
    return {p: p.read_bytes() for p in sorted(run_dir.rglob("*")) if p.is_file()}


def test_clean_run_verifies(clean):
    result = verify(clean)
    assert result.ok and result.done == result.shards == 3 and result.state == "complete"
    assert len(result.files) == 6 and not result.notes
    res = invoke("verify", clean)
    assert res.exit_code == 0, res.output
    assert res.output.strip() == f"{clean}: 3 of 3 finished shards intact (3 in the run, complete)"


def truncate(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def flip(path):
    data = bytearray(path.read_bytes())
    data[len(data) // 3] ^= 0x01  # one bit, inside the column data: the footer still parses
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "damage, table, expected",
    [
        (truncate, "rounds", "truncated ("),
        (flip, "seats", "modified (sha256 does not match the manifest)"),
        (lambda p: p.unlink(), "seats", "missing"),
        (lambda p: p.write_bytes(p.read_bytes() + b"\0"), "rounds", "longer than recorded"),
    ],
)
def test_damaged_shard_is_named_by_verify_and_refused_by_analyses(copy, damage, table, expected):
    part = copy / table / "part-00001.parquet"
    damage(part)
    before = snapshot(copy)
    line = f"shard 1: {table}/part-00001.parquet: {expected}"
    result = verify(copy)
    assert not result.ok and len(result.problems) == 1 and result.problems[0].startswith(line)
    res = invoke("verify", copy)
    assert res.exit_code == 1
    lines = res.output.splitlines()
    assert lines[0].startswith(f"tichusim: damaged: {line}") and len(lines) == 2
    assert lines[1] == f"{copy}: 2 of 3 finished shards intact (3 in the run, complete)"
    with pytest.raises(ValueError, match="shard 1: .*refusing to read a damaged run"):
        load(copy)
    for args in (("report", copy), ("gt-table", "--run", copy)):
        res = invoke(*args)
        assert res.exit_code == 2, res.output
        out = [x for x in res.output.splitlines() if x.strip()]
        assert len(out) == 1 and f"shard 1: {table}/part-00001.parquet" in out[0], res.output
    assert snapshot(copy) == before  # verify and the refused analyses wrote nothing


def test_two_damaged_shards_one_line_each(copy):
    truncate(copy / "rounds" / "part-00000.parquet")
    flip(copy / "seats" / "part-00002.parquet")
    res = invoke("verify", copy)
    assert res.exit_code == 1
    damaged = [x for x in res.output.splitlines() if x.startswith("tichusim: damaged: ")]
    assert [d.split(": ")[2] for d in damaged] == ["shard 0", "shard 2"]
    with pytest.raises(ValueError, match=r"shard 0: .*\(and 1 more\)"):
        load(copy)


def test_unrecorded_part_is_a_note_and_not_read(copy):
    """A stop after a part's rename but before the manifest recorded it: the manifest says
    pending, so verify notes the file and the analyses leave it out."""
    manifest = json.loads((copy / "manifest.json").read_text())
    shard = manifest["shards"][2]
    manifest["shards"][2] = {k: shard[k] for k in ("index", "first", "count")} | {
        "state": "pending"
    }
    manifest["state"] = "running"
    (copy / "manifest.json").write_text(json.dumps(manifest))
    result = verify(copy)
    assert result.ok and result.done == 2 and len(result.notes) == 2
    res = invoke("verify", copy)
    assert res.exit_code == 0 and "rounds/part-00002.parquet: shard not recorded" in res.output
    data = load(copy, rounds_columns=["round"])
    assert data.info["rounds"] == 2_000 and data.info["shards_done"] == 2
    assert sorted(data.rounds["round"]) == list(range(2_000))


def test_not_a_run_directory(tmp_path):
    res = invoke("verify", tmp_path)
    assert res.exit_code == 2 and "not a run directory" in res.output
    (tmp_path / "manifest.json").write_text('{"format": 1, "shards": [{"state": "done"}]}')
    res = invoke("verify", tmp_path)
    assert res.exit_code == 2 and "malformed shard entry" in res.output, res.output
    assert len(res.output.strip().splitlines()) == 1
