"""A run directory's record of itself: ``config.json`` and ``manifest.json``.

The manifest lists every shard with its state; a shard is ``done`` only once every one of
its Parquet files (one per table: ``rounds`` and ``seats``, an import's ``moves`` and
``problems`` too) is on disk (renamed into place), and then it carries their sizes, sha256
checksums, row counts and timings. Every change rewrites the manifest atomically, so whatever
stops a run, the manifest never claims a file that is not complete. ``code`` is a digest of
the sources that decide the data, so a run is never resumed by a simulator that would play
its remaining shards differently; ``agents`` holds the sha256 of each Python agent's source
file (``agent_sources``), and any change to one that a resume accepted.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import socket
import time
from pathlib import Path

from .. import __version__
from .agent_sources import agent_sources
from .files import sha256_file, write_atomic

__all__ = ["CONFIG", "MANIFEST", "TABLES", "Manifest", "RunDirError", "code_digest", "machine"]

FORMAT = 1
CONFIG = "config.json"
MANIFEST = "manifest.json"
TABLES = ("rounds", "seats")
_PACKAGE = Path(__file__).parent.parent
# Every folder whose code can change a shard's bytes, whole: the kernels, the cards, the
# strategies (their rows are what the kernels read), the games (records into tables), the
# search (a strategy's decisions) and the runs (config defaults, shard cutting, Parquet
# encoding). Only ``analysis`` and the CLI read
# data without making it. A new module in these folders is covered without being listed.
DATA_FOLDERS = ("kernels", "cards", "strategies", "games", "logs", "search", "runs")


class RunDirError(ValueError):
    """A run directory that cannot be used as asked (foreign content, another run, damage)."""


def code_digest(package: Path = _PACKAGE) -> str:
    """sha256 of the package sources that decide a shard's bytes (``DATA_FOLDERS``): a run is
    resumed only by code with the same digest."""
    digest = hashlib.sha256()
    for folder in DATA_FOLDERS:
        for path in sorted((package / folder).rglob("*.py")):
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def machine() -> dict:
    import numba
    import numpy
    import pyarrow

    return {
        "host": socket.gethostname(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": numpy.__version__,
        "pyarrow": pyarrow.__version__,
    }


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def part_path(table: str, index: int) -> str:
    return f"{table}/part-{index:05d}.parquet"


class Manifest:
    """The manifest of one run directory (``data`` is the JSON document)."""

    def __init__(self, run_dir: Path, data: dict):
        self.run_dir, self.data = Path(run_dir), data

    @classmethod
    def new(cls, run_dir: Path, config) -> Manifest:
        """The manifest of a new batch run of ``config``."""
        spans = [config.shard_span(index) for index in range(config.n_shards)]
        about = {
            "variant": config.variant,
            "mode": config.mode,
            "seed": config.seed,
            "count": config.count,
            "shard_size": config.shard,
            "agents": agent_sources(config),
        }
        return cls.fresh(run_dir, config.hash, about, spans)

    @classmethod
    def fresh(
        cls,
        run_dir: Path,
        digest: str,
        about: dict,
        spans: list[tuple[int, int]],
        tables: tuple[str, ...] = TABLES,
    ) -> Manifest:
        """A new manifest: the run's ``digest`` (its settings' sha256: ``config_hash``, and
        its first 16 hex digits the ``run_id``), what ``about`` says of it, a pending shard
        per ``(first, count)`` of ``spans``, each with a file per table of ``tables``."""
        shards = [
            {"index": index, "first": first, "count": count, "state": "pending"}
            for index, (first, count) in enumerate(spans)
        ]
        data = {
            "format": FORMAT,
            "tichusim": __version__,
            "code": code_digest(),
            "run_id": digest[:16],
            "config_hash": digest,
            **about,
            "tables": list(tables),
            "state": "running",
            "created": now(),
            "sessions": [],
            "shards": shards,
        }
        return cls(run_dir, data)

    @classmethod
    def load(cls, run_dir: Path) -> Manifest:
        path = Path(run_dir) / MANIFEST
        try:
            data = json.loads(path.read_text())
        except FileNotFoundError:
            raise RunDirError(f"{run_dir} is not a run directory (no {MANIFEST})") from None
        except (OSError, ValueError) as exc:
            raise RunDirError(f"{path}: unreadable ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RunDirError(f"{path}: not a tichusim run manifest (format {FORMAT})")
        return cls(run_dir, data)

    def save(self) -> None:
        self.data["updated"] = now()
        write_atomic(self.run_dir / MANIFEST, json.dumps(self.data, indent=1).encode())

    @property
    def run_id(self) -> str:
        return self.data["run_id"]

    @property
    def shards(self) -> list[dict]:
        return self.data["shards"]

    @property
    def tables(self) -> tuple[str, ...]:
        """The tables each shard writes a part of (a manifest without the key: a run's)."""
        return tuple(self.data.get("tables", TABLES))

    @property
    def kind(self) -> str:
        """``run`` (``tichusim run``) or ``import`` (``tichusim import``)."""
        return str(self.data.get("kind", "run"))

    def pending(self) -> list[dict]:
        return [s for s in self.shards if s["state"] != "done"]

    def verify(self) -> list[tuple[int, str]]:
        """Check every ``done`` shard's files against their checksums; mark a damaged or
        missing shard ``pending`` again and return ``(index, problem)`` for each."""
        problems = []
        for shard in self.shards:
            if shard["state"] != "done":
                continue
            for table in self.tables:
                meta = shard["files"][table]
                path = self.run_dir / meta["path"]
                if not path.is_file():
                    problem = f"{meta['path']} is missing"
                elif path.stat().st_size != meta["bytes"] or sha256_file(path) != meta["sha256"]:
                    problem = f"{meta['path']} does not match its checksum"
                else:
                    continue
                problems.append((shard["index"], problem))
                kept = {k: shard[k] for k in ("index", "first", "count")}
                shard.clear()
                shard.update(kept, state="pending")
                break
        return problems

    def record(self, index: int, files: dict, rows: dict, seconds: dict, worker: str) -> None:
        """Mark shard ``index`` done with its files (``table -> {path, bytes, sha256}``) in
        the current session (its index in ``sessions``: which agents' sources played it, when
        a resume accepted a change to one)."""
        shard = self.shards[index]
        shard.update(
            state="done",
            rows=rows,
            files=files,
            seconds=seconds,
            worker=worker,
            session=len(self.data["sessions"]) - 1,
            finished=now(),
        )

    def begin_session(self, backend: str) -> dict:
        session = {"started": now(), "backend": backend, "machine": machine(), "shards": 0}
        self.data["sessions"].append(session)
        self.data["state"] = "running"
        return session

    def end_session(self, session: dict, outcome: str, seconds: float) -> None:
        session.update(finished=now(), outcome=outcome, seconds=round(seconds, 3))
        if outcome == "complete":
            self.data["state"] = "complete"
        self.save()
