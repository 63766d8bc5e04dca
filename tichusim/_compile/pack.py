"""Kernels compiled ahead of time: a pack of the kernel cache, shipped beside the sources.

A kernel cache that starts empty costs minutes of numba compiling, paid by the first command.
The pack (``tichusim/kernel_pack/``) is the cache ``tichusim warmup`` fills, archived by
``scripts/build_kernel_pack.py`` together with what it was built for:

- the kernel key (``cache.key``: every kernel source, the compile changes, their switches,
  the numba and llvmlite versions), so a pack never serves other sources;
- the Python version (numba names and pickles its cache files per version);
- the CPU: numba's ``magic_tuple`` (the LLVM triple, the CPU name and its features), the one
  numba puts in every cache entry's key.

When one of our kernels first looks in the cache, ``seed`` copies the pack's entries into the
cache folder, each kernel whose index is not there yet, only if all three equal this
process's. Otherwise nothing is copied and the kernels compile as they did before. The
entries hold machine code for the CPU they were built on; numba looks each one up by that
CPU again, so code built for one CPU never runs on another. ``TICHUSIM_KERNEL_PACK=0``
switches the pack off (a cold compile, as ``benchmarks/bench_compile.py`` measures it).

A guest's rules hold: the pack is written into tichusim's own cache folder only
(``cache.cache_dir``), which no numba function of a user's reads. ``docs/compile.md`` says
how the pack is built and when it must be built again.
"""

from __future__ import annotations

import hashlib
import io
import json
import lzma
import os
import sys
import tarfile
import tempfile
from pathlib import Path

from .cache import cache_dir, key

__all__ = [
    "PACK_DIR",
    "SWITCH",
    "build",
    "describe",
    "enabled",
    "host_cpu",
    "python_tag",
    "seed",
    "seed_once",
]

PACK_DIR = Path(__file__).resolve().parents[1] / "kernel_pack"
SWITCH = "TICHUSIM_KERNEL_PACK"

_seeded = False  # whether this process has looked at the pack yet


def enabled() -> bool:
    """Whether the pack may seed an empty cache (``TICHUSIM_KERNEL_PACK``, on by default)."""
    return os.environ.get(SWITCH, "1") != "0"


def python_tag() -> str:
    """The Python version as numba's cache file names carry it (``py311``)."""
    return f"py{sys.version_info[0]}{sys.version_info[1]}"


def _paths(kernel_key: str) -> tuple[Path, Path]:
    return PACK_DIR / f"{kernel_key}.tar.xz", PACK_DIR / f"{kernel_key}.json"


def _meta(kernel_key: str) -> dict | None:
    archive, meta = _paths(kernel_key)
    if not (archive.is_file() and meta.is_file()):
        return None
    return json.loads(meta.read_text())


def _mismatch(meta: dict | None, cpu: tuple) -> str | None:
    """Why the pack cannot serve this process, or ``None`` if it can."""
    if meta is None:
        return "no pack for these kernel sources"
    if meta["python"] != python_tag():
        return f"built for Python {meta['python']}, this is {python_tag()}"
    if tuple(meta["cpu"]) != tuple(cpu):
        built = f"{meta['cpu'][1]} ({_short(meta['cpu'])})"
        return f"built for CPU {built}, this is {cpu[1]} ({_short(cpu)})"
    return None


def _short(cpu) -> str:
    """A CPU tuple's short name: the hash of its features."""
    return hashlib.sha1(json.dumps(list(cpu)).encode()).hexdigest()[:8]


def _group(name: str) -> str:
    """The kernel a cache file belongs to: ``f-12.py311.nbi`` and ``f-12.py311.3.nbc`` both
    belong to ``f-12.py311``."""
    return name[: -len(".nbi")] if name.endswith(".nbi") else name.rsplit(".", 2)[0]


def seed(folder: Path, cpu: tuple, kernel_key: str | None = None) -> int:
    """Copy the pack's entries into ``folder`` for this CPU (``cpu``: numba's magic tuple):
    every kernel whose index file is not there yet, its data files first and its index last,
    each written to a temporary name and renamed, so a process reading (or another seeding)
    at the same moment sees a kernel whole or not at all. A kernel already in the folder is
    left as it is. The number of kernels copied; 0 if the pack cannot serve this process.
    A marker file records that the folder was seeded, so later processes skip the archive."""
    kernel_key = kernel_key or key()
    meta = _meta(kernel_key)
    if _mismatch(meta, cpu) is not None:
        return 0
    marker = folder / f".pack-{kernel_key}-{_short(cpu)}"
    if marker.exists():
        return 0
    archive, _ = _paths(kernel_key)
    with tarfile.open(fileobj=io.BytesIO(lzma.decompress(archive.read_bytes()))) as tar:
        groups: dict[tuple[str, str], list[tarfile.TarInfo]] = {}
        for member in tar.getmembers():
            if member.isfile():
                sub, name = member.name.split("/")
                groups.setdefault((sub, _group(name)), []).append(member)
        copied = 0
        for (sub, kernel), members in sorted(groups.items()):
            target = folder / sub
            if (target / f"{kernel}.nbi").exists():
                continue
            target.mkdir(parents=True, exist_ok=True)
            for member in sorted(members, key=lambda m: m.name.endswith(".nbi")):
                data = tar.extractfile(member).read()
                fd, tmp = tempfile.mkstemp(dir=target, prefix=".pack-")
                with os.fdopen(fd, "wb") as out:
                    out.write(data)
                os.replace(tmp, target / member.name.split("/")[1])
            copied += 1
    folder.mkdir(parents=True, exist_ok=True)
    marker.write_text(f"{copied} kernels from the kernel pack\n")
    return copied


def seed_once(codegen) -> None:
    """``seed`` our cache folder from the pack, the first time one of our kernels looks in the
    cache in this process (``codegen``: numba's, whose ``magic_tuple`` names this CPU)."""
    global _seeded
    if _seeded:
        return
    _seeded = True
    if enabled():
        try:
            seed(cache_dir(), codegen.magic_tuple())
        except (OSError, EOFError, lzma.LZMAError, tarfile.TarError, ValueError):
            pass  # a folder we cannot write or a damaged pack: the kernels compile, as without


def host_cpu() -> tuple:
    """This CPU as numba's cache keys name it (its ``magic_tuple``)."""
    from numba.core.registry import cpu_target

    return cpu_target.target_context.codegen().magic_tuple()


def describe(cpu: tuple) -> str:
    """One line for ``tichusim doctor``: whether the pack serves this process, and if not why."""
    if not enabled():
        return f"off [{SWITCH}=0]: kernels compile on first use"
    kernel_key = key()
    meta = _meta(kernel_key)
    why = _mismatch(meta, cpu)
    if why is None:
        return f"{kernel_key} ({meta['kernels']} kernels, {meta['python']}, CPU {cpu[1]}): used"
    return f"not used: {why}; kernels compile on first use"


def build(folder: Path, cpu: tuple) -> Path:
    """Archive the cache ``folder`` (filled by ``tichusim warmup`` for these kernel sources on
    this CPU) as the pack, replacing any older pack; the archive's path."""
    kernel_key = key()
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in (".nbi", ".nbc"))
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path in files:  # the same bytes for the same files: no dates, no owners
            info = tarfile.TarInfo(path.relative_to(folder).as_posix())
            info.size = path.stat().st_size
            info.mode = 0o644
            with path.open("rb") as f:
                tar.addfile(info, f)
    PACK_DIR.mkdir(exist_ok=True)
    for old in PACK_DIR.glob("*.tar.xz"):
        old.unlink()
    for old in PACK_DIR.glob("*.json"):
        old.unlink()
    archive, meta = _paths(kernel_key)
    archive.write_bytes(lzma.compress(raw.getvalue(), preset=9 | lzma.PRESET_EXTREME))
    kernels = sum(1 for p in files if p.suffix == ".nbi")
    meta.write_text(
        json.dumps(
            {"key": kernel_key, "python": python_tag(), "cpu": list(cpu), "kernels": kernels},
            indent=1,
        )
        + "\n"
    )
    return archive
