"""``tichusim verify RUN_DIR``: is every finished shard on disk exactly as the manifest says?

The manifest records, for each ``done`` shard, each table's file size, sha256 and row count.
A shard is intact when its files (one per table) exist, have that size and checksum, and
their Parquet footers hold that many rows (the footer check also names a truncated file as
such, which a checksum mismatch alone would not). Nothing is changed: ``tichusim run
--resume`` (``tichusim import --resume``) is what replays damaged shards. The analyses
(``tables.load``) call this before they read, so a report is never computed from a file
that is not the one the run wrote.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.parquet as pq

from .files import sha256_file
from .manifest import MANIFEST, Manifest, RunDirError

__all__ = ["Verification", "verify"]


@dataclass
class Verification:
    run_dir: Path
    shards: int  # shards in the run
    done: int  # shards the manifest lists as done
    state: str  # the manifest's state: running or complete
    files: list[Path] = field(default_factory=list)  # the done shards' files, in shard order
    problems: list[str] = field(default_factory=list)  # one line per damaged file
    notes: list[str] = field(default_factory=list)  # harmless: files of unfinished shards
    damaged: set[int] = field(default_factory=set)  # indices of done shards with a problem

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def intact(self) -> int:
        """Finished shards whose every file matches the manifest."""
        return self.done - len(self.damaged)

    def files_of(self, table: str) -> list[Path]:
        return [p for p in self.files if p.parent.name == table]


def _rows(path: Path) -> int | None:
    try:
        return pq.ParquetFile(path).metadata.num_rows
    except Exception:  # noqa: BLE001 (any footer that does not parse is a damaged file)
        return None


def _check(run_dir: Path, meta: dict, rows: int | None) -> str | None:
    """The problem with one recorded file, or None when it is intact."""
    path = run_dir / meta["path"]
    if not path.is_file():
        return "missing"
    size = path.stat().st_size
    if size < meta["bytes"]:
        return f"truncated ({size:,} of {meta['bytes']:,} bytes)"
    if size > meta["bytes"]:
        return f"longer than recorded ({size:,} bytes, not {meta['bytes']:,})"
    if sha256_file(path) != meta["sha256"]:
        return "modified (sha256 does not match the manifest)"
    found = _rows(path)
    if rows is not None and found != rows:  # same bytes but a different count: the manifest lies
        return f"holds {found} rows, the manifest says {rows}"
    return None


def verify(run_dir) -> Verification:
    """Check every done shard of the run in ``run_dir`` (raises ``RunDirError`` when it is
    not a run directory)."""
    run_dir = Path(run_dir)
    manifest = Manifest.load(run_dir)
    try:
        return _verify(run_dir, manifest)
    except (KeyError, TypeError, AttributeError) as exc:  # a manifest edited out of shape
        raise RunDirError(f"{run_dir / MANIFEST}: malformed shard entry ({exc!r})") from None


def _verify(run_dir: Path, manifest: Manifest) -> Verification:
    shards = manifest.shards
    done = [s for s in shards if s.get("state") == "done"]
    result = Verification(run_dir, len(shards), len(done), manifest.data.get("state", "?"))
    recorded = set()
    for shard in done:
        for table in manifest.tables:
            meta = shard["files"][table]
            recorded.add(meta["path"])
            problem = _check(run_dir, meta, shard.get("rows", {}).get(table))
            if problem:
                result.problems.append(f"shard {shard['index']}: {meta['path']}: {problem}")
                result.damaged.add(shard["index"])
            else:
                result.files.append(run_dir / meta["path"])
    for table in manifest.tables:
        for path in sorted((run_dir / table).glob("part-*.parquet")):
            name = path.relative_to(run_dir).as_posix()
            if name not in recorded:  # a stop between writing a shard and recording it
                result.notes.append(
                    f"{name}: shard not recorded as done (ignored; --resume plays it again)"
                )
    return result
