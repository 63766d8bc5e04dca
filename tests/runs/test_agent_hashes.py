"""A run knows its agents: the manifest holds the sha256 of each Python agent's source file,
and a run continues only with the same sources, or with a change the user accepts
(``--accept-changed-agents``), which the manifest then records beside the old hash."""

import hashlib
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from tichusim.cli import main
from tichusim.runs.manifest import RunDirError
from tichusim.runs.runner import AgentChangedError, resume, run

# Takes one decision a round (the Grand Tichu call, RULES.md §2.3): cheap to play in Python.
AGENT = """
from tichusim import Agent

BROKEN = {broken}  # {note}


class {name}(Agent):
    def grand_tichu(self, view, legal):
        if BROKEN:
            raise ValueError("broken")
        return False
"""


def write_agent(path: Path, name: str, note: str = "first version", broken: bool = False) -> str:
    """Write the agent's module (each write with a later mtime, so this process imports the
    new version) and return its ``file.py:Class`` spec."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(AGENT.format(name=name, note=note, broken=broken))
    stamp = max(before + 1_000_000_000, path.stat().st_mtime_ns)
    os.utime(path, ns=(stamp, stamp))
    return f"{path}:{name}"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def config(*agents, rounds=400) -> dict:
    seats = [{"agent": agents[0]}, "heuristic", {"agent": agents[-1]}, "heuristic"]
    return {"rounds": rounds, "seed": 5, "shard_size": 100, "strategies": seats}


def manifest(run_dir: Path) -> dict:
    return json.loads((run_dir / "manifest.json").read_text())


def snapshot(run_dir: Path) -> dict:
    """Every file of the run directory and its bytes."""
    return {
        p.relative_to(run_dir).as_posix(): p.read_bytes()
        for p in sorted(run_dir.rglob("*"))
        if p.is_file()
    }


def unfinish(run_dir: Path, shards: list[int]) -> None:
    """What a stop leaves: these shards pending, their files gone."""
    data = manifest(run_dir)
    for index in shards:
        shard = data["shards"][index]
        for meta in shard["files"].values():
            (run_dir / meta["path"]).unlink()
        data["shards"][index] = {k: shard[k] for k in ("index", "first", "count")} | {
            "state": "pending"
        }
    data["state"] = "running"
    (run_dir / "manifest.json").write_text(json.dumps(data))


def resume_cli(run_dir: Path, *flags: str):
    return CliRunner().invoke(
        main, ["run", "--resume", str(run_dir), "--quiet", "--workers", "1", *flags]
    )


@pytest.fixture
def stopped(tmp_path):
    """A run of 4 shards seating one agent (seats 0 and 2) from a temporary file, stopped
    after 2: ``(run_dir, agent file, spec)``."""
    path = tmp_path / "caller.py"
    spec = write_agent(path, "Caller")
    out = tmp_path / "run"
    run(config(spec), out=out, workers=1, progress=False)
    unfinish(out, [2, 3])
    return out, path, spec


def test_the_manifest_records_each_agents_source_hash(stopped, tmp_path):
    out, path, spec = stopped
    assert manifest(out)["agents"] == [
        {"agent": spec, "seats": [0, 2], "source": str(path.resolve()), "sha256": sha256(path)}
    ]
    # two agents: one entry each, in seat order; scripted strategies need none
    other = write_agent(tmp_path / "other.py", "Other")
    run(config(spec, other, rounds=100), out=tmp_path / "two", workers=1, progress=False)
    assert [(a["agent"], a["seats"]) for a in manifest(tmp_path / "two")["agents"]] == [
        (spec, [0]),
        (other, [2]),
    ]
    run({"rounds": 100, "strategies": "lowest"}, out=tmp_path / "none", workers=1, progress=False)
    assert manifest(tmp_path / "none")["agents"] == []


def test_resume_after_editing_the_agent_refuses_and_writes_nothing(stopped):
    out, path, spec = stopped
    write_agent(path, "Caller", note="edited")  # even a comment: other bytes, another agent
    before = snapshot(out)
    res = resume_cli(out)
    assert res.exit_code == 2, res.output
    lines = res.output.splitlines()
    assert len(lines) == 1 and "Traceback" not in res.output
    assert lines[0].startswith(
        f"tichusim: error: resume: {out}: agent {spec!r} (seat 0, 2): "
        f"its source {path.resolve()} changed since the run started"
    )
    assert "--accept-changed-agents" in lines[0]
    assert snapshot(out) == before  # no shard file, no manifest session
    with pytest.raises(AgentChangedError, match="changed since the run started"):
        resume(out, workers=1, progress=False)
    with pytest.raises(RunDirError, match="changed since the run started"):  # run, same out
        run(config(spec), out=out, workers=1, progress=False)
    assert snapshot(out) == before


@pytest.mark.parametrize("how", ["cli", "api"])
def test_resume_accepting_the_change_finishes_and_records_it(stopped, how):
    out, path, spec = stopped
    old = sha256(path)
    write_agent(path, "Caller", note="edited")
    if how == "cli":
        res = resume_cli(out, "--accept-changed-agents")
        assert res.exit_code == 0, res.output
    else:
        notes = []
        summary = resume(
            out, workers=1, progress=False, log=notes.append, accept_changed_agents=True
        )
        assert summary.played == 2
        assert notes == [
            f"agent {spec!r}: its source changed since the run started; continuing "
            "with the new source, accepted explicitly (--accept-changed-agents); "
            "the manifest keeps the old sha256"
        ]
    data = manifest(out)
    assert data["state"] == "complete"
    (agent,) = data["agents"]
    assert agent["sha256"] == sha256(path) != old
    (change,) = agent["changes"]
    assert change["sha256_before"] == old and change["sha256"] == sha256(path)
    assert change["why"] == "accepted explicitly (--accept-changed-agents)"
    assert change["shards_done"] == 2 and change["from_session"] == 1
    assert [s["session"] for s in data["shards"]] == [0, 0, 1, 1]  # which source played each
    res = resume_cli(out)  # the new source is the recorded one now
    assert res.exit_code == 0, res.output


def test_resume_with_the_unchanged_agent_proceeds(stopped):
    out, path, spec = stopped
    recorded = manifest(out)["agents"]
    write_agent(path, "Caller")  # the same bytes, written again: a later mtime is no change
    res = resume_cli(out)
    assert res.exit_code == 0, res.output
    data = manifest(out)
    assert data["state"] == "complete" and data["agents"] == recorded  # no change recorded
    assert [s["session"] for s in data["shards"]] == [0, 0, 1, 1]


def test_the_agent_whose_failure_stopped_the_run_may_be_fixed(tmp_path):
    """The failure's message says: fix the agent, then resume. That fix is accepted without
    the flag and recorded as such; a change to another agent is still refused."""
    flaky, steady = tmp_path / "flaky.py", tmp_path / "steady.py"
    specs = write_agent(flaky, "Flaky", broken=True), write_agent(steady, "Steady")
    out = tmp_path / "run"
    with pytest.raises(Exception, match="agent 'Flaky' failed at grand_tichu"):
        run(config(*specs), out=out, workers=1, progress=False)
    failure = manifest(out)["sessions"][-1]["agent_failure"]
    assert failure["agents"] == [specs[0]] and failure["error"].startswith("agent 'Flaky'")
    old = sha256(flaky)
    write_agent(flaky, "Flaky", broken=False)
    write_agent(steady, "Steady", note="edited")
    before = snapshot(out)
    res = resume_cli(out)
    assert res.exit_code == 2 and res.output.count("\n") == 1, res.output
    assert f"agent {specs[1]!r} (seat 2)" in res.output and "Flaky" not in res.output
    assert snapshot(out) == before
    write_agent(steady, "Steady")  # restored
    res = resume_cli(out)
    assert res.exit_code == 0, res.output
    data = manifest(out)
    assert data["state"] == "complete"
    flaky_entry, steady_entry = data["agents"]
    assert "changes" not in steady_entry
    (change,) = flaky_entry["changes"]
    assert change["sha256_before"] == old and change["sha256"] == sha256(flaky)
    assert change["why"] == "the fix of the failure that stopped session 0"
