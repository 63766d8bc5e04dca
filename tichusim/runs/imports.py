"""Games read in: played games (Brettspielwelt logs, tichusim game records) replayed through the
engine into the simulator's tables, as a batch run plays its rounds (``tichusim import``).

``import_games(paths, out)`` lists the files (a directory: its ``.tch`` and ``.json`` files,
sorted; a glob), cuts them into shards of ``shard_size`` files and plays the shards
(``runner.play_shards``: in this process, on worker processes, or on Dask), each read,
replayed and tabled by ``import_shard``. The directory it writes is a run directory::

    import.json      the import's settings: its table and its inputs (each file's size and time)
    manifest.json    as a run's (``kind``: ``import``; the four tables), shards, sessions
    rounds/ seats/ moves/ problems/   part-00000.parquet, ... one part per shard and table

A shard's bytes depend only on its files and the code, so a resumed import (``resume``)
equals an uninterrupted one, whatever the workers; an import continues only with the same
code and inputs (a file whose size or time changed is refused). A round that cannot be read
or that the engine refuses is a row of ``problems`` (file, line, why) and is left out; the
others are read. Nothing read at all raises ``NothingRead``.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterable, Mapping
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from .._compile.notice import compile_notices
from ..games import game as game_named
from ..games.registry import TEAM_GAMES
from ..logs import Problem
from .files import write_atomic
from .import_shard import IMPORT_TABLES, ImportTask, import_shard
from .manifest import MANIFEST, Manifest, RunDirError, part_path
from .runner import Shards, check_code, is_remote, play_shards

__all__ = [
    "DEFAULT_SHARD_FILES",
    "SETTINGS",
    "ImportSummary",
    "NothingRead",
    "import_games",
    "inputs",
    "resume",
]

SETTINGS = "import.json"
FORMAT = 1  # import.json's
DEFAULT_SHARD_FILES = 100  # files a shard: a BSW log holds about 10 rounds, so ~1,000 rounds
SUFFIXES = (".tch", ".json")  # the files a directory given is searched for
RESUME = "tichusim import --resume"


class NothingRead(ValueError):
    """Not one round of the inputs could be read: ``problems`` says why, each."""

    def __init__(self, message: str, problems: list[Problem]):
        super().__init__(message)
        self.problems = problems


@dataclass(frozen=True)
class ImportSummary:
    """An import done: its directory, its files, the rounds read in all and every problem
    (the ``problems`` table's rows, in the inputs' order); what this call played (shards,
    rounds and seconds, after the kernels loaded) and where."""

    out: Path
    files: int
    rounds: int
    problems: list[Problem] = field(default_factory=list)
    played: int = 0
    rounds_played: int = 0
    seconds: float = 0.0
    backend: str = ""


def inputs(paths: Iterable[str | os.PathLike], skip: Path | None = None) -> list[str]:
    """The files ``paths`` name, in order, each once: a file; a directory's ``.tch`` and
    ``.json`` files (in its folders too, sorted, dot-files left out); a glob's matches,
    sorted. ``skip``: a folder whose files are left out (the import's own). ``ValueError``
    for a path that names nothing."""
    listed: dict[str, None] = {}
    inside = skip.resolve() if skip is not None else None
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found = sorted(
                (
                    p
                    for p in path.rglob("*")
                    if p.suffix.lower() in SUFFIXES
                    and not any(part.startswith(".") for part in p.relative_to(path).parts)
                    and p.is_file()
                ),
                key=lambda p: p.as_posix(),
            )
        elif path.exists():
            found = [path]
        elif glob.has_magic(str(given)):
            found = sorted(Path(p) for p in glob.glob(str(given), recursive=True))
            found = [p for p in found if p.is_file()]
        else:
            raise ValueError(f"{given}: no such file or directory")
        if inside is not None:
            found = [p for p in found if not p.resolve().is_relative_to(inside)]
        if not found:
            what = "no .tch or .json file in it" if path.is_dir() else "no file matches"
            raise ValueError(f"{given}: {what}")
        listed |= dict.fromkeys(str(p) for p in found)
    if not listed:
        raise ValueError("no game files given")
    return list(listed)


def _stat(path: str) -> dict:
    info = os.stat(path)
    return {"path": path, "bytes": info.st_size, "mtime_ns": info.st_mtime_ns}


def _settings(files: list[str], variant: str, options: Mapping | None, shard_size: int) -> dict:
    if variant not in TEAM_GAMES:
        raise ValueError(f"variant: a team game ({', '.join(TEAM_GAMES)}), not {variant!r}")
    game = game_named(variant, options=dict(options) if options else None)
    changed = {k: v for k, v in game.options.items() if v != game.option_defaults.get(k)}
    if isinstance(shard_size, bool) or not isinstance(shard_size, int) or shard_size < 1:
        raise ValueError(f"shard_size: a whole number of files, 1 or more, not {shard_size!r}")
    return {
        "format": FORMAT,
        "variant": game.name,
        "options": dict(sorted(changed.items())),
        "shard_size": shard_size,
        "inputs": [_stat(path) for path in files],
    }


def _digest(settings: dict) -> str:
    """What decides an import's data: its table, its shards and its files' names (their
    contents are checked by size and time when it continues)."""
    decided = {k: settings[k] for k in ("variant", "options", "shard_size")}
    decided["inputs"] = [entry["path"] for entry in settings["inputs"]]
    return hashlib.sha256(json.dumps(decided, sort_keys=True).encode()).hexdigest()


def _check_inputs(settings: dict) -> None:
    """``RunDirError`` when an input changed since the import started."""
    for entry in settings["inputs"]:
        try:
            now = _stat(entry["path"])
        except OSError:
            now = None
        if now != entry:
            raise RunDirError(
                f"resume: {entry['path']} changed since the import started (its size or time, "
                "or it is gone): its rounds would not be the ones read; start a new import"
            )


def _open(out: Path, settings: dict, log: Callable[[str], None]) -> tuple[Manifest, bool]:
    """The manifest of ``out`` for ``settings``: a new import (``True``), or the same one
    continued."""
    if out.exists() and not out.is_dir():
        raise RunDirError(f"out: {out} is not a directory")
    digest = _digest(settings)
    if (out / MANIFEST).exists():
        manifest = Manifest.load(out)
        if manifest.kind != "import":
            raise RunDirError(f"out: {out} holds a run (tichusim run); choose another --out")
        if manifest.data.get("config_hash") != digest:
            raise RunDirError(
                f"out: {out} holds another import; choose another --out (or finish that one: "
                f"{RESUME} {out})"
            )
        check_code(manifest, "import")
        _check_inputs(settings)
        log(f"continuing the import in {out}")
        return manifest, False
    if out.exists() and any(out.iterdir()):
        raise RunDirError(f"out: {out} is not empty and holds no import")
    for table in IMPORT_TABLES:
        (out / table).mkdir(parents=True, exist_ok=True)
    write_atomic(out / SETTINGS, json.dumps(settings, indent=1).encode())
    size, files = settings["shard_size"], len(settings["inputs"])
    spans = [(first, min(size, files - first)) for first in range(0, files, size)]
    about = {
        "kind": "import",
        "variant": settings["variant"],
        "options": settings["options"],
        "count": files,
        "shard_size": size,
    }
    manifest = Manifest.fresh(out, digest, about, spans, IMPORT_TABLES)
    manifest.save()
    return manifest, True


def import_games(
    paths: Iterable[str | os.PathLike],
    out: str | os.PathLike,
    *,
    variant: str = "nanjing",
    options: Mapping[str, Any] | None = None,
    shard_size: int = DEFAULT_SHARD_FILES,
    workers: int | None = None,
    dask: str | None = None,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
) -> ImportSummary:
    """Read the games in ``paths`` (``inputs``) into the directory ``out`` (the module
    docstring), each round replayed by the engine at the table ``variant`` with ``options``
    (a game of another table is a problem, and left out).

    ``shard_size``: files a shard; ``workers``: local worker processes (default: one per
    core, or this process alone when there are no more shards than cores); ``dask``: a Dask
    scheduler's address, or ``"local"`` for a new ``LocalCluster``. A directory already
    holding this same import is continued (as by ``resume``); one holding anything else is
    refused (``RunDirError``). ``NothingRead`` when not one round could be read: a directory
    this call made is then removed. ``log`` receives one-line notes."""
    log = log or (lambda message: None)
    out = Path(out)
    settings = _settings(inputs(paths, skip=out), variant, options, shard_size)
    manifest, new = _open(out, settings, log)
    try:
        return _play(manifest, settings, workers, dask, progress, log)
    except NothingRead:
        if new:
            shutil.rmtree(out)
        raise


def resume(
    out: str | os.PathLike,
    *,
    workers: int | None = None,
    dask: str | None = None,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
) -> ImportSummary:
    """Finish the import in ``out``: shards whose files match their checksums are kept, the
    others are played again. Refused (``RunDirError``) when the code or an input changed."""
    out = Path(out)
    log = log or (lambda message: None)
    manifest = Manifest.load(out)
    if manifest.kind != "import":
        raise RunDirError(f"resume: {out} holds a run, not an import (tichusim run --resume)")
    try:
        settings = json.loads((out / SETTINGS).read_text())
        digest = _digest(settings)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise RunDirError(f"resume: {out / SETTINGS}: unreadable ({exc})") from None
    if digest != manifest.data.get("config_hash"):
        raise RunDirError(f"resume: {out / SETTINGS} does not match the import's manifest")
    check_code(manifest, "import")
    _check_inputs(settings)
    return _play(manifest, settings, workers, dask, progress, log)


def _task(manifest: Manifest, settings: dict, shard: dict, threads: int | None) -> ImportTask:
    """Shard ``shard``'s task: its files read here (the workers need no shared disk)."""
    listed = settings["inputs"][shard["first"] : shard["first"] + shard["count"]]
    data: list[bytes | str] = []
    for entry in listed:
        try:
            data.append(Path(entry["path"]).read_bytes())
        except OSError as exc:
            data.append(exc.strerror or str(exc))
    return ImportTask(
        manifest.run_id,
        shard["index"],
        shard["first"],
        tuple(entry["path"] for entry in listed),
        tuple(data),
        settings["variant"],
        tuple(sorted(settings["options"].items())),
        threads,
    )


def _warm(settings: dict, backend: Any, progress: bool) -> None:
    """Load (or compile) the kernels an import uses here, before the clock and the bar: a
    round played and recorded by the engine, then read in."""
    if is_remote(backend):
        return
    from ..games.record import GameRecord
    from ..games.steps import Round

    with nullcontext() if progress else compile_notices(False):
        variant, options = settings["variant"], settings["options"]
        r = Round(0, 0, "random", variant=variant, options=options or None)
        r.advance()
        record = GameRecord((r.record(),), (), variant, tuple(sorted(options.items())))
        text = record.to_json().encode()
        options_items = tuple(sorted(options.items()))
        import_shard(ImportTask("", 0, 0, ("warm-up",), (text,), variant, options_items, None))


def _play(
    manifest: Manifest,
    settings: dict,
    workers: int | None,
    dask: str | None,
    progress: bool,
    log: Callable[[str], None],
) -> ImportSummary:
    shards = Shards(
        work=import_shard,
        task=lambda shard, threads: _task(manifest, settings, shard, threads),
        warm=lambda backend: _warm(settings, backend, progress),
        python=True,  # reading logs holds the GIL: worker processes, not threads
        resume=RESUME,
        total=len(settings["inputs"]),
        unit=" files",
        rate=True,
    )
    played = play_shards(
        manifest,
        shards,
        workers=workers,
        dask=dask,
        dask_workers=None,
        progress=progress,
        log=log,
    )
    done = manifest.shards
    rounds = sum(s["rows"]["rounds"] for s in done)
    problems = _problems(manifest)
    if rounds == 0:
        what = str(problems[0]) if len(problems) == 1 else f"{len(problems):,} problems"
        raise NothingRead(f"nothing could be read ({what})", problems)
    return ImportSummary(
        manifest.run_dir,
        len(settings["inputs"]),
        rounds,
        problems,
        len(played.shards),
        sum(s["rows"]["rounds"] for s in played.shards),
        played.seconds,
        played.backend,
    )


def _problems(manifest: Manifest) -> list[Problem]:
    """Every row of the import's ``problems`` table, in shard order."""
    out: list[Problem] = []
    for shard in manifest.shards:
        if not shard["rows"]["problems"]:
            continue
        path = manifest.run_dir / part_path("problems", shard["index"])
        rows = pq.read_table(path, columns=["source", "line", "why", "round_in_game"])
        for source, line, why, in_game in zip(*(c.to_pylist() for c in rows.columns), strict=True):
            out.append(Problem(source, line, why, in_game + 1))
    return out
