"""Kernels compiled ahead of time: a pack of kernel caches, shipped beside the sources, for
portable CPU levels.

A kernel cache that starts empty costs minutes of numba compiling, paid by the first command.
The pack (``tichusim/kernel_pack/``) holds the caches ``tichusim warmup`` fills, each compiled
for a *level* of the architecture rather than for one CPU: x86-64-v3 (AVX2, BMI2, FMA: nearly
every x86-64 CPU of the last decade) and x86-64-v4 (AVX-512), each for a Python version
(``scripts/build_kernel_pack.py`` builds them, one subprocess per level with numba's
``NUMBA_CPU_NAME`` and ``NUMBA_CPU_FEATURES`` set there only). ``kernels.json`` says what it
holds:

- the kernel key (``cache.key``: every kernel source, the compile changes, their switches,
  the numba and llvmlite versions): a pack never serves other sources. A pack whose key is not
  the sources' is *stale*: it is ignored, ``tichusim doctor`` says so, and the first compile
  notice of a process says how to rebuild it;
- its targets: each one's Python version (numba names and pickles its cache files per
  version) and numba's ``magic_tuple`` of the build (the LLVM triple, the level's name and its
  features).

When one of our kernels first looks in the cache, ``seed`` picks the best target that fits
this process (``choose``): the same kernel key, the same Python, the same triple, and every
feature the target was built with among this CPU's (feature inclusion, not equality of CPU
names: an AVX-512 CPU runs the x86-64-v3 code). It copies that target's entries into the
cache folder, each kernel whose index is not there yet, with the index keyed by *this* CPU's
magic tuple: numba looks an entry up by the CPU it runs on, and finds the level's code. Where no
target fits nothing is copied and the kernels compile as before. ``TICHUSIM_KERNEL_PACK=0``
switches the pack off (a cold compile, as ``benchmarks/bench_compile.py`` measures it);
``TICHUSIM_KERNEL_PACK=x86-64-v3`` makes it pass over a better level (to measure that level on
any machine).

The archive stores each distinct file once: a callee's entry (``linkage.LINKING_ONLY``, LLVM
IR without machine code, used only to compile a caller not in the pack) is the same for every
level of a Python and is kept once, from the lowest level; the annotated source numba keeps
with each entry (for ``inspect_types``) is left out.

A guest's rules hold: the pack is written into tichusim's own cache folder only
(``cache.cache_dir``), which no numba function of a user's reads, and changes nothing of how
numba compiles or caches anything else. ``docs/compile.md`` says how the pack is built.
"""

from __future__ import annotations

import hashlib
import io
import json
import lzma
import os
import pickle
import sys
import tarfile
import tempfile
from pathlib import Path

from .cache import cache_dir, key
from .notice import add_note

__all__ = [
    "ARCHIVE",
    "LEVELS",
    "META",
    "PACK_DIR",
    "SWITCH",
    "build",
    "choose",
    "describe",
    "enabled",
    "host_cpu",
    "level_cpu",
    "python_tag",
    "read_meta",
    "seed",
    "seed_once",
    "slim",
    "sources",
    "stale_note",
]

PACK_DIR = Path(__file__).resolve().parents[1] / "kernel_pack"
META = PACK_DIR / "kernels.json"
ARCHIVE = PACK_DIR / "kernels.tar.xz"
SWITCH = "TICHUSIM_KERNEL_PACK"

_V2 = ("64bit", "cmov", "cx8", "fxsr", "mmx", "sse", "sse2")
_V2 += ("cx16", "sahf", "crc32", "popcnt", "sse3", "ssse3", "sse4.1", "sse4.2")
_V3 = (*_V2, "avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave")
_V4 = (*_V3, "avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl")
# the levels a pack is built for, by architecture (the LLVM triple's first part), best first:
# LLVM's CPU name for the level and the features it stands for, as LLVM names them (the x86-64
# psABI's levels); docs/compile.md says how to add one (arm64)
LEVELS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "x86_64": (("x86-64-v4", _V4), ("x86-64-v3", _V3)),
}

_seeded = False  # whether this process has looked at the pack yet
_stale: str | None = None  # why the pack did not serve, when it is stale (``stale_note``)


def enabled() -> bool:
    """Whether the pack may seed an empty cache (``TICHUSIM_KERNEL_PACK``, on by default)."""
    return os.environ.get(SWITCH, "1") != "0"


def _wanted() -> str | None:
    """The level ``TICHUSIM_KERNEL_PACK`` names, if it names one (else the best that fits)."""
    value = os.environ.get(SWITCH, "1")
    return None if value in ("", "0", "1") else value


def python_tag() -> str:
    """The Python version as numba's cache file names carry it (``py311``)."""
    return f"py{sys.version_info[0]}{sys.version_info[1]}"


def level_cpu(triple: str, level: str) -> tuple[str, str, str]:
    """The magic tuple numba gives a compile for ``level`` (``NUMBA_CPU_NAME`` the level,
    ``NUMBA_CPU_FEATURES`` its features): what the build sets and the pack records."""
    features = dict(LEVELS[triple.split("-")[0]])[level]
    return (triple, level, ",".join(f"+{f}" for f in features))


def _features(cpu) -> set[str]:
    return {f[1:] for f in cpu[2].split(",") if f.startswith("+")}


def _short(cpu) -> str:
    """A CPU tuple's short name: the hash of its features."""
    return hashlib.sha1(json.dumps(list(cpu)).encode()).hexdigest()[:8]


def _target_id(target: dict) -> str:
    return f"{target['python']}/{target['level']}"


def sources() -> str:
    """The hash of every module of the package, not only the kernel sources (``cache.key``):
    the code that calls the kernels decides which of them, at which argument types, ``tichusim
    warmup`` compiles. A pack whose ``sources`` equal these was compiled by this very warmup
    (``tests/compile/test_warmup.py`` then need not compile it all again)."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def read_meta() -> dict | None:
    """What the shipped pack holds (``kernels.json``), or ``None`` if there is none."""
    if not (META.is_file() and ARCHIVE.is_file()):
        return None
    return json.loads(META.read_text())


def _unfit(target: dict, host: tuple) -> str | None:
    """Why ``target`` cannot serve a process on ``host`` (numba's magic tuple), or ``None``."""
    if target["python"] != python_tag():
        return f"{target['level']} is for {target['python']}, this is {python_tag()}"
    if target["cpu"][0] != host[0]:
        return f"{target['level']} is for {target['cpu'][0]}, this is {host[0]}"
    missing = sorted(_features(target["cpu"]) - _features(host))
    if missing:
        return f"{target['level']} needs {', '.join(missing)}, which this CPU ({host[1]}) lacks"
    return None


def choose(meta: dict | None, host: tuple, kernel_key: str) -> tuple[dict | None, str]:
    """The target of the pack that serves a process on ``host`` (numba's magic tuple) for the
    kernel sources ``kernel_key``: the best level whose features ``host``'s include (or the
    level ``TICHUSIM_KERNEL_PACK`` names), and what to say of it; ``None`` and why not."""
    if meta is None:
        return None, "no kernel pack is shipped"
    if meta["key"] != kernel_key:
        return None, (
            f"stale: built for other kernel sources (key {meta['key']}, these are {kernel_key});"
            " rebuild it with `python scripts/build_kernel_pack.py`"
        )
    ranks = {level: i for i, (level, _) in enumerate(LEVELS.get(host[0].split("-")[0], ()))}
    targets = sorted(meta["targets"], key=lambda t: ranks.get(t["level"], len(ranks)))
    wanted = _wanted()
    if wanted is not None:
        targets = [t for t in targets if t["level"] == wanted]
        if not targets:
            return None, f"{SWITCH}={wanted}, a level the pack does not hold"
    reasons = []
    for target in targets:
        why = _unfit(target, host)
        if why is None:
            return target, f"{SWITCH}={wanted}" if wanted else "the best level this CPU runs"
        reasons.append(why)
    return None, "; ".join(reasons) or "the pack holds no target"


def _group(name: str) -> str:
    """The kernel a cache file belongs to: ``f-12.py311.nbi`` and ``f-12.py311.3.nbc`` both
    belong to ``f-12.py311``."""
    return name[: -len(".nbi")] if name.endswith(".nbi") else name.rsplit(".", 2)[0]


def _rekey(index: bytes, built: tuple, host: tuple) -> bytes:
    """A numba cache index (the numba version pickled, then the source stamp and the
    overloads, keyed by signature, magic tuple and bytecode hashes) with the entries built for
    ``built`` keyed by ``host`` instead: numba on ``host`` finds them."""
    from numba.core.serialize import dumps

    stream = io.BytesIO(index)
    version = pickle.load(stream)
    stamp, overloads = pickle.loads(stream.read())
    rekeyed = {
        (sig, host if tuple(cpu) == tuple(built) else cpu, *rest): name
        for (sig, cpu, *rest), name in overloads.items()
    }
    out = io.BytesIO()
    pickle.dump(version, out, protocol=-1)
    out.write(dumps((stamp, rekeyed)))
    return out.getvalue()


def _write(path: Path, data: bytes) -> None:
    """``data`` into ``path`` under a temporary name, renamed into place."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".pack-")
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.replace(tmp, path)


def _open_archive() -> tuple[dict, tarfile.TarFile]:
    tar = tarfile.open(fileobj=io.BytesIO(lzma.decompress(ARCHIVE.read_bytes())))
    manifest = tar.extractfile("manifest.json")
    if manifest is None:
        raise tarfile.TarError("no manifest in the kernel pack")
    return json.loads(manifest.read()), tar


def seed(folder: Path, host: tuple, kernel_key: str | None = None) -> int:
    """Copy into ``folder`` the entries of the pack's target that serves ``host`` (numba's
    magic tuple; ``choose``): every kernel whose index file is not there yet, its data files
    first and its index, keyed by ``host``, last, each written to a temporary name and renamed,
    so a process reading (or another seeding) at the same moment sees a kernel whole or not at
    all. A kernel already in the folder is left as it is. The number of kernels copied; 0 if
    no target serves. A marker file records that the folder was seeded, so later processes
    skip the archive."""
    global _stale
    kernel_key = kernel_key or key()
    meta = read_meta()
    target, why = choose(meta, host, kernel_key)
    if target is None:
        if why.startswith("stale") and _stale is None:
            _stale = why
            add_note(f"the kernel pack is {why}")
        return 0
    level = target["level"]
    marker = folder / f".pack-{kernel_key}-{target['python']}-{level}-{_short(host)}"
    if marker.exists():
        return 0
    manifest, tar = _open_archive()
    with tar:
        groups: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for path, blob in manifest["files"][_target_id(target)].items():
            sub, name = path.split("/")
            groups.setdefault((sub, _group(name)), []).append((name, blob))
        built = tuple(target["cpu"])
        copied = 0
        for (sub, kernel), files in sorted(groups.items()):
            into = folder / sub
            if (into / f"{kernel}.nbi").exists():
                continue
            into.mkdir(parents=True, exist_ok=True)
            for name, blob in sorted(files, key=lambda f: f[0].endswith(".nbi")):
                member = tar.extractfile(f"blobs/{blob}")
                if member is None:
                    raise tarfile.TarError(f"kernel pack: no blob {blob}")
                data = member.read()
                _write(into / name, _rekey(data, built, host) if name.endswith(".nbi") else data)
            copied += 1
    folder.mkdir(parents=True, exist_ok=True)
    marker.write_text(f"{copied} kernels from the kernel pack, {_target_id(target)}\n")
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
        except (OSError, EOFError, lzma.LZMAError, tarfile.TarError, ValueError, KeyError):
            pass  # a folder we cannot write or a damaged pack: the kernels compile, as without
        except pickle.UnpicklingError:
            pass


def stale_note() -> str | None:
    """Why the pack did not serve this process, if ``seed`` found it stale (the first compile
    notice says so: ``notice.add_note``); ``None`` otherwise."""
    return None if _stale is None else f"the kernel pack is {_stale}"


def host_cpu() -> tuple:
    """This CPU as numba's cache keys name it (its ``magic_tuple``)."""
    from numba.core.registry import cpu_target

    return cpu_target.target_context.codegen().magic_tuple()


def describe(host: tuple) -> str:
    """One line for ``tichusim doctor``: the pack's target that serves this process, or why
    none does."""
    if not enabled():
        return f"off [{SWITCH}=0]: kernels compile on first use"
    meta = read_meta()
    target, why = choose(meta, host, key())
    if target is None:
        return f"not used: {why}; kernels compile on first use"
    others = [_target_id(t) for t in meta["targets"] if t is not target]  # type: ignore[index]
    also = f"; also in the pack: {', '.join(others)}" if others else ""
    levels = LEVELS.get(host[0].split("-")[0], ())
    runs = [level for level, features in levels if set(features) <= _features(host)]
    if runs and runs[0] != target["level"]:  # this CPU has a better level than the one served
        also += f"; this CPU runs {runs[0]}: `tichusim warmup --host` compiles for it"
    return (
        f"used: {target['level']}, {target['python']}, {target['kernels']} kernels of key "
        f"{meta['key']} ({why}{also})"  # type: ignore[index]
    )


def slim(folder: Path) -> None:
    """Make the cache ``folder`` (filled by ``tichusim warmup``) ready to pack, in place:
    each data file without the annotated source numba keeps for ``inspect_types`` (the bulk
    of a small entry; a loaded kernel never reads it), and a callee's module as LLVM's text,
    not its bitcode (the same function recurs in many modules: xz finds it again in text,
    hardly in bitcode; ``linkage.KernelLibrary.linking_only_from`` reads either). Writes
    ``kinds.json``: each data file's kind (numba's ``object``, or ``linkage.LINKING_ONLY``).

    Reading an entry imports its kernel's module (numba rebuilds its environment), so this
    runs in the process that built the folder's kernels, or one like it: numba set to the
    folder's level, ``TICHUSIM_CACHE_DIR`` the folder, the pack off
    (``scripts/build_kernel_pack.py``)."""
    import llvmlite.binding as ll
    from numba.core.serialize import dumps

    from .linkage import LINKING_ONLY

    kinds = {}
    for path in sorted(folder.rglob("*.nbc")):
        payload = list(pickle.loads(path.read_bytes()))
        payload[6] = ""  # CompileResult._reduce's type annotation, as text
        name, kind, ir = payload[0]
        if kind == LINKING_ONLY and isinstance(ir, bytes):
            payload[0] = (name, kind, str(ll.parse_bitcode(ir)))
        _write(path, dumps(tuple(payload)))
        kinds[path.relative_to(folder).as_posix()] = kind
    (folder / "kinds.json").write_text(json.dumps(kinds, indent=0, sort_keys=True))


def _entries(index: bytes) -> dict:
    """A cache index's overloads: ``(signature, magic tuple, hashes) -> data file``."""
    stream = io.BytesIO(index)
    pickle.load(stream)
    return pickle.loads(stream.read())[1]


def build(targets: list[tuple[str, tuple, Path]], merge: bool = False) -> dict:
    """Archive the cache folders ``targets`` (each a Python tag, the magic tuple it was built
    with, and the folder ``tichusim warmup`` filled for these kernel sources) as the pack, in
    place of the old one or, with ``merge``, beside the targets of the old one that are not
    rebuilt (a pack of the same kernel key: another Python, another architecture). The
    ``kernels.json`` written.

    Each file is stored once however many targets hold it; a callee's entry (``LINKING_ONLY``:
    IR, which every level of a Python compiles the same way) is taken from the first target
    of its Python that holds it, so list the lowest level first."""
    from .linkage import LINKING_ONLY

    kernel_key = key()
    blobs: dict[str, bytes] = {}
    files: dict[str, dict[str, str]] = {}
    described: list[dict] = []
    if merge and read_meta() is not None:
        old = read_meta()
        assert old is not None
        if old["key"] != kernel_key:
            raise ValueError(f"the pack is for key {old['key']}, these sources are {kernel_key}")
        manifest, tar = _open_archive()
        with tar:
            for target in old["targets"]:
                tid = _target_id(target)
                if any(_target_id({"python": p, "level": cpu[1]}) == tid for p, cpu, _ in targets):
                    continue
                described.append(target)
                files[tid] = manifest["files"][tid]
                for blob in files[tid].values():
                    member = tar.extractfile(f"blobs/{blob}")
                    assert member is not None
                    blobs[blob] = member.read()
    shared: dict[tuple, str] = {}  # a callee's entry, by Python, kernel, signature and hashes
    for python, cpu, folder in targets:
        tid = _target_id({"python": python, "level": cpu[1]})
        mine: dict[str, str] = {}
        kinds = json.loads((folder / "kinds.json").read_text())  # ``slim``'s
        for path in sorted(folder.rglob("*.nbi")):
            rel = path.relative_to(folder).as_posix()
            index = path.read_bytes()
            for (sig, built, hashes), name in _entries(index).items():
                if tuple(built) != tuple(cpu):
                    raise ValueError(f"{rel}: an entry built for {built[1]}, not {cpu[1]}")
                data_rel = f"{rel.split('/')[0]}/{name}"
                data = (folder / data_rel).read_bytes()
                if kinds[data_rel] == LINKING_ONLY:
                    ident = (python, data_rel.rsplit(".", 2)[0], sig, hashes)
                    blob = shared.setdefault(ident, hashlib.sha256(data).hexdigest()[:20])
                else:
                    blob = hashlib.sha256(data).hexdigest()[:20]
                blobs.setdefault(blob, data)
                mine[data_rel] = blob
            blob = hashlib.sha256(index).hexdigest()[:20]
            blobs.setdefault(blob, index)
            mine[rel] = blob
        files[tid] = mine
        kernels = sum(1 for p in mine if p.endswith(".nbi"))
        described.append({"python": python, "level": cpu[1], "cpu": list(cpu), "kernels": kernels})
    # the blobs in the order of their first use, the same file of every target side by side:
    # what compresses alike comes together
    first: dict[str, tuple[str, str]] = {}
    for tid, mine in files.items():
        for path, blob in mine.items():
            first[blob] = min(first.get(blob, (path, tid)), (path, tid))
    order = sorted(first, key=first.__getitem__)
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:

        def add(name: str, data: bytes) -> None:  # the same bytes for the same files
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(data))

        add("manifest.json", json.dumps({"files": files}, sort_keys=True).encode())
        for blob in order:
            add(f"blobs/{blob}", blobs[blob])
    PACK_DIR.mkdir(exist_ok=True)
    for old_file in PACK_DIR.iterdir():
        if old_file.suffix in (".json", ".xz"):
            old_file.unlink()
    ARCHIVE.write_bytes(lzma.compress(raw.getvalue(), preset=9 | lzma.PRESET_EXTREME))
    import importlib.metadata

    meta = {
        "key": kernel_key,
        "sources": sources(),
        "numba": importlib.metadata.version("numba"),
        "llvmlite": importlib.metadata.version("llvmlite"),
        "targets": sorted(described, key=_target_id),
    }
    META.write_text(json.dumps(meta, indent=1) + "\n")
    return meta
