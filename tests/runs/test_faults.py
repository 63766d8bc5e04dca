"""Faults during a run: killed (SIGKILL, SIGINT) at seeded random moments, the disk filling
up, the run directory turning read-only, a Dask worker dying mid-task. After each the run
directory must be consistent (the manifest's done shards intact, every part file on disk a
complete Parquet file, nothing but hidden temporaries besides), ``--resume`` must finish it,
and the data must be the uninterrupted run's, byte for byte.

Select them with ``-m faults``; the filesystem faults need root (tmpfs and bind mounts) and
are skipped with the reason otherwise.
"""

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tichusim.runs.config import validate
from tichusim.runs.manifest import Manifest
from tichusim.runs.runner import RunError, resume, run
from tichusim.runs.verify import verify

pytestmark = [pytest.mark.faults, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
CONFIG = {
    "rounds": 12_000,
    "seed": 11,
    "strategies": ["random", "lowest", "heuristic", "random"],
    "shard_size": 500,
}  # 24 small shards
ENV = os.environ | {"PYTHONPATH": str(ROOT), "NUMBA_NUM_THREADS": "1"}


def data_files(run_dir: Path) -> dict[str, bytes]:
    return {
        p.relative_to(run_dir).as_posix(): p.read_bytes()
        for p in sorted(run_dir.glob("*/part-*.parquet"))
    }


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "run"
    run(CONFIG, out=out, workers=1, progress=False)
    return out


def assert_consistent(out: Path) -> int:
    """The run directory after a fault: returns the number of shards the manifest has done."""
    manifest = Manifest.load(out)
    checked = verify(out)
    assert checked.ok, checked.problems
    for part in out.glob("*/part-*.parquet"):  # visible parts are whole files, recorded or not
        pq.read_metadata(part)
    for path in out.rglob("*"):
        name = path.relative_to(out).as_posix()
        assert (
            name in ("config.json", "manifest.json", "rounds", "seats")
            or path.name.startswith(".")
            or "/part-" in name
        ), name
    done = len(manifest.shards) - len(manifest.pending())
    assert (manifest.data["state"] == "complete") == (done == len(manifest.shards))
    return done


def interruptible():
    """Ctrl-C as at a terminal: a shell running the tests in the background starts them with
    SIGINT ignored, and Python keeps an inherited SIG_IGN."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(cfg: Path, out: Path, workers: int, **kw) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tichusim.cli",
            "run",
            str(cfg),
            "--out",
            str(out),
            "--workers",
            str(workers),
            "--quiet",
        ],
        env=ENV,
        preexec_fn=interruptible,
        **kw,
    )


def write_config(tmp_path: Path) -> Path:
    cfg = tmp_path / "c.toml"
    cfg.write_text("".join(f"{k} = {json.dumps(v)}\n" for k, v in CONFIG.items()))
    return cfg


def done_shards(out: Path) -> int:
    try:
        shards = json.loads((out / "manifest.json").read_text())["shards"]
    except (OSError, ValueError, KeyError):
        return -1  # not started yet
    return sum(s["state"] == "done" for s in shards)


def wait_until(proc, out: Path, at_least: int, timeout: float = 600) -> None:
    # generous: a busy machine, or kernels just edited, can take minutes to compile first
    deadline = time.monotonic() + timeout
    while done_shards(out) < at_least:
        assert proc.poll() is None, "the run ended before the fault"
        assert time.monotonic() < deadline, "the run made no progress"
        time.sleep(0.005)


# seeded moments: shards done before the signal, then a delay into the next shard's work
MOMENTS = random.Random(8)
KILLS = [
    (sig, workers, MOMENTS.randrange(0, 16), MOMENTS.uniform(0, 0.08))
    for sig, workers in [
        (signal.SIGKILL, 1),
        (signal.SIGKILL, 2),
        (signal.SIGKILL, 1),
        (signal.SIGINT, 1),
        (signal.SIGINT, 2),
    ]
]


@pytest.mark.parametrize(
    "sig, workers, after, delay", KILLS, ids=[f"{s.name}-w{w}-after{a}" for s, w, a, _ in KILLS]
)
def test_killed_at_a_random_moment_then_resumed(reference, tmp_path, sig, workers, after, delay):
    out = tmp_path / "run"
    proc = start(write_config(tmp_path), out, workers, stderr=subprocess.PIPE, text=True)
    wait_until(proc, out, after)
    time.sleep(delay)
    proc.send_signal(sig)
    # communicate() returns only once every holder of the stderr pipe is gone: worker
    # processes that outlived a SIGKILLed parent would make it time out
    _, err = proc.communicate(timeout=120)
    if sig == signal.SIGINT:  # a clean stop: one line saying how to resume
        lines = [line for line in err.splitlines() if line.strip()]
        assert proc.returncode == 130 and len(lines) == 1 and "--resume" in lines[0], err
        assert json.loads((out / "manifest.json").read_text())["sessions"][-1]["outcome"] == (
            "interrupted"
        )
    else:
        assert proc.returncode == -signal.SIGKILL
    done = assert_consistent(out)
    assert after <= done < 24
    summary = resume(out, workers=workers, progress=False)
    assert summary.played == 24 - done
    assert data_files(out) == data_files(reference)
    assert verify(out).ok and not list(out.rglob(".*"))


# -- filesystem faults (root: a small tmpfs, a read-only bind mount) -------------------------

needs_root = pytest.mark.skipif(
    os.geteuid() != 0,
    reason="mounting a tmpfs needs root "
    "(as a user, chmod would do for read-only, not for a full disk)",
)


def mount(*args) -> None:
    subprocess.run(["mount", *map(str, args)], check=True, capture_output=True)


@contextlib.contextmanager
def tmpfs(path: Path, size: int):
    path.mkdir()
    try:
        mount("-t", "tmpfs", "-o", f"size={size}", "tmpfs", path)
    except (subprocess.CalledProcessError, FileNotFoundError) as exc:
        pytest.skip(f"cannot mount a tmpfs here ({exc})")
    try:
        yield path
    finally:
        while (
            subprocess.run(["umount", str(path)], check=False, capture_output=True).returncode == 0
        ):
            pass  # the bind mount on top, then the tmpfs


def run_size(reference: Path) -> int:
    return sum(p.stat().st_size for p in reference.rglob("*") if p.is_file())


@needs_root
def test_disk_fills_up_then_resumed_on_a_larger_disk(reference, tmp_path):
    total = run_size(reference)
    with tmpfs(tmp_path / "disk", total // 2) as disk:
        out = disk / "run"
        proc = start(write_config(tmp_path), out, 1, stderr=subprocess.PIPE, text=True)
        _, err = proc.communicate(timeout=180)
        lines = [line for line in err.splitlines() if line.strip()]
        assert proc.returncode == 2 and len(lines) == 1, err
        assert lines[0].startswith("tichusim: error: cannot write ") and (
            "No space left on device" in lines[0]
        ), lines[0]
        done = assert_consistent(out)
        assert 0 < done < 24
        mount("-o", f"remount,size={4 * total}", disk)
        summary = resume(out, workers=1, progress=False)
        assert summary.played == 24 - done
        assert data_files(out) == data_files(reference)


@needs_root
def test_directory_turns_read_only_mid_run_then_resumed(reference, tmp_path):
    with tmpfs(tmp_path / "disk", 4 * run_size(reference)) as disk:
        out = disk / "run"
        proc = start(write_config(tmp_path), out, 1, stderr=subprocess.PIPE, text=True)
        wait_until(proc, out, 3)
        mount("--bind", disk, disk)
        for _ in range(200):  # EBUSY while the run has a file open for writing: try again
            if (
                subprocess.run(
                    ["mount", "-o", "remount,bind,ro", str(disk)], check=False, capture_output=True
                ).returncode
                == 0
            ):
                break
            time.sleep(0.002)
        else:
            pytest.fail("could not make the directory read-only")
        _, err = proc.communicate(timeout=180)
        lines = [line for line in err.splitlines() if line.strip()]
        assert proc.returncode == 2 and len(lines) == 1, err
        assert "Read-only file system" in lines[0], lines[0]
        done = assert_consistent(out)
        assert 3 <= done < 24
        mount("-o", "remount,bind,rw", disk)
        summary = resume(out, workers=1, progress=False)
        assert summary.played == 24 - done
        assert data_files(out) == data_files(reference)


# -- a Dask worker killed mid-task ----------------------------------------------------------


def test_dask_worker_killed_mid_task(reference, tmp_path):
    """The scheduler reschedules a dead worker's task on a new or surviving worker: the run
    completes with the same bytes; if it cannot, it fails with one line and resumes."""
    distributed = pytest.importorskip("dask.distributed")
    psutil = pytest.importorskip("psutil")
    import threading

    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        env={"NUMBA_NUM_THREADS": "1"},
        dashboard_address=None,
    )
    killed = []
    out = tmp_path / "run"

    def killer():  # kill one worker process once a few shards are done (work in flight)
        deadline = time.monotonic() + 120
        while done_shards(out) < 4 and time.monotonic() < deadline:
            time.sleep(0.005)
        pids = [
            c.pid
            for c in psutil.Process().children(recursive=True)
            if "distributed" in " ".join(c.cmdline()) or "spawn" in " ".join(c.cmdline())
        ]
        victim = max(pids) if pids else None
        if victim:
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    try:
        thread = threading.Thread(target=killer)
        thread.start()
        try:
            summary = run(
                validate(CONFIG | {"dask": {"address": cluster.scheduler_address}}),
                out=out,
                progress=False,
            )
            failed = None
        except RunError as exc:
            failed = str(exc)
        thread.join()
        assert killed, "no worker process was found to kill"
        if failed is not None:
            assert "\n" not in failed and "--resume" in failed, failed
            assert_consistent(out)
            summary = resume(out, dask=cluster.scheduler_address, progress=False)
        assert summary.rounds == 12_000
        print(
            f"dask worker {killed[0]} killed: the run "
            f"{'completed' if failed is None else 'failed in one line, then resumed'}"
        )
    finally:
        cluster.close()
    assert data_files(out) == data_files(reference)
    assert verify(out).ok
