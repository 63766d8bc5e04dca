"""The kernel pack (``tichusim/_compile/pack.py``): a target serves a process whose CPU has
every feature it was built with (feature inclusion, not equality of CPU names), the best such
level first, and none where a feature is missing; it is copied into an empty cache keyed by
this CPU, kernel by kernel without touching what the cache already holds; a stale pack is never
loaded and says so; kernels built for a level load on this CPU without a compile, and a first
command served by the pack compiles nothing and plays the same rounds."""

import hashlib
import io
import json
import os
import pickle
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest
from numba.core.serialize import dumps

from tichusim._compile import cache, pack
from tichusim._compile.linkage import LINKING_ONLY

ROOT = Path(__file__).resolve().parents[2]
TRIPLE = "x86_64-unknown-linux-gnu"
V3 = pack.level_cpu(TRIPLE, "x86-64-v3")
V4 = pack.level_cpu(TRIPLE, "x86-64-v4")
# CPUs as numba's magic tuple names them (features abridged): an AVX-512 Xeon, an AVX2 one
# (v3, not v4), and one without AVX2
AVX512 = (TRIPLE, "emeraldrapids", V4[2] + ",+avx512vnni,-amx-fp8,+sha")
AVX2 = (TRIPLE, "haswell", V3[2] + ",-avx512f,-avx512bw,-avx512cd,-avx512dq,-avx512vl")
NO_AVX2 = (TRIPLE, "sandybridge", V3[2].replace("+avx2", "-avx2"))


def target(cpu, python=None, kernels=3) -> dict:
    return {"python": python or pack.python_tag(), "level": cpu[1], "cpu": list(cpu),
            "kernels": kernels}  # fmt: skip


def meta(*targets) -> dict:
    return {"key": cache.key(), "targets": list(targets)}


def test_the_best_level_whose_features_this_cpu_has_serves_it(monkeypatch):
    monkeypatch.delenv(pack.SWITCH, raising=False)
    both = meta(target(V3), target(V4))
    assert pack.choose(both, AVX512, cache.key())[0]["level"] == "x86-64-v4"
    assert pack.choose(both, AVX2, cache.key())[0]["level"] == "x86-64-v3"
    assert pack.choose(meta(target(V3)), AVX512, cache.key())[0]["level"] == "x86-64-v3"
    # the level's features, not the CPU's name: a CPU named like no level runs both
    assert pack.choose(both, (TRIPLE, "some-future-cpu", V4[2]), cache.key())[0] is not None


def test_a_missing_feature_another_triple_or_python_refuses_and_says_why(monkeypatch):
    monkeypatch.delenv(pack.SWITCH, raising=False)
    both = meta(target(V3), target(V4))
    chosen, why = pack.choose(both, NO_AVX2, cache.key())
    assert chosen is None
    assert "x86-64-v3 needs avx2, which this CPU (sandybridge) lacks" in why
    assert "x86-64-v4 needs avx2, avx512bw" in why
    arm = ("aarch64-unknown-linux-gnu", "neoverse-n1", "+neon")
    assert pack.choose(both, arm, cache.key())[0] is None
    other_python = meta(target(V3, python="py399"))
    assert "is for py399" in pack.choose(other_python, AVX512, cache.key())[1]
    assert pack.choose(None, AVX512, cache.key()) == (None, "no kernel pack is shipped")


def test_the_switch_passes_over_a_better_level_or_turns_the_pack_off(monkeypatch):
    both = meta(target(V3), target(V4))
    monkeypatch.setenv(pack.SWITCH, "x86-64-v3")
    assert pack.choose(both, AVX512, cache.key())[0]["level"] == "x86-64-v3"
    monkeypatch.setenv(pack.SWITCH, "x86-64-v4")
    assert pack.choose(both, AVX2, cache.key())[0] is None  # named, but this CPU lacks it
    monkeypatch.setenv(pack.SWITCH, "x86-64-v9")
    assert "does not hold" in pack.choose(both, AVX512, cache.key())[1]
    monkeypatch.setenv(pack.SWITCH, "0")
    assert not pack.enabled() and pack.describe(AVX512).startswith("off")


# a cache folder as numba and ``pack.slim`` leave it: index files (numba's version, then the
# source stamp and the overloads by signature, magic tuple and bytecode hashes) and data files
def fake_folder(folder: Path, cpu, kernels: dict[str, bytes]) -> Path:
    """``kernels``: ``sub/name-line.py311`` -> the bytes of its one data file (an entry
    built for ``cpu``; a name ending ``callee`` is a callee's, ``LINKING_ONLY``)."""
    kinds = {}
    for kernel, data in kernels.items():
        path = folder / f"{kernel}.nbi"
        path.parent.mkdir(parents=True, exist_ok=True)
        overloads = {(("int64",), tuple(cpu), ("code", "")): f"{path.stem}.1.nbc"}
        index = io.BytesIO()
        pickle.dump("0.68.1", index, protocol=-1)
        index.write(dumps(("stamp", overloads)))
        path.write_bytes(index.getvalue())
        (folder / f"{kernel}.1.nbc").write_bytes(data)
        kinds[f"{kernel}.1.nbc"] = LINKING_ONLY if kernel.endswith("callee") else "object"
    (folder / "kinds.json").write_text(json.dumps(kinds))
    return folder


@pytest.fixture
def shipped_in(tmp_path, monkeypatch):
    """The pack's folder moved to ``tmp_path/pack``, the switch at its default."""
    monkeypatch.setattr(pack, "PACK_DIR", tmp_path / "pack")
    monkeypatch.setattr(pack, "META", tmp_path / "pack" / "kernels.json")
    monkeypatch.setattr(pack, "ARCHIVE", tmp_path / "pack" / "kernels.tar.xz")
    monkeypatch.delenv(pack.SWITCH, raising=False)
    return tmp_path


def build_both(tmp: Path) -> dict:
    v3 = fake_folder(tmp / "v3", V3, {"s/a-1.py311": b"a for v3", "s/b-2.py311": b"b same",
                                      "s/c-3.py311callee": b"c's IR"})  # fmt: skip
    v4 = fake_folder(tmp / "v4", V4, {"s/a-1.py311": b"a for v4", "s/b-2.py311": b"b same",
                                      "s/c-3.py311callee": b"c's IR, v4's passes"})  # fmt: skip
    return pack.build([(pack.python_tag(), V3, v3), (pack.python_tag(), V4, v4)])


def index_keys(path: Path) -> list[tuple]:
    stream = io.BytesIO(path.read_bytes())
    pickle.load(stream)
    return list(pickle.loads(stream.read())[1])


def test_each_file_is_packed_once_and_a_callees_ir_is_the_lowest_levels(shipped_in):
    built = build_both(shipped_in)
    assert [(t["level"], t["kernels"]) for t in built["targets"]] == [
        ("x86-64-v3", 3),
        ("x86-64-v4", 3),
    ]
    assert json.loads(pack.META.read_text()) == built and built["key"] == cache.key()
    assert built["sources"] == pack.sources()  # what test_warmup reads
    manifest, tar = pack._open_archive()
    with tar:
        blobs = {m.name for m in tar.getmembers()} - {"manifest.json"}
        files = manifest["files"]
        v3, v4 = files[f"{pack.python_tag()}/x86-64-v3"], files[f"{pack.python_tag()}/x86-64-v4"]
        assert v3["s/b-2.py311.1.nbc"] == v4["s/b-2.py311.1.nbc"]  # the same bytes, once
        assert v3["s/c-3.py311callee.1.nbc"] == v4["s/c-3.py311callee.1.nbc"]  # v3's IR
        assert v3["s/a-1.py311.1.nbc"] != v4["s/a-1.py311.1.nbc"]
        # 6 indexes (keyed by their level), 2 + 1 + 1 data files
        assert len(blobs) == 6 + 4
    # another Python joins with --add; a level built again replaces its own
    py = fake_folder(shipped_in / "py", V3, {"s/a-1.py399": b"a for 3.99"})
    merged = pack.build([("py399", V3, py)], merge=True)
    assert [pack._target_id(t) for t in merged["targets"]] == sorted(
        [f"{pack.python_tag()}/x86-64-v3", f"{pack.python_tag()}/x86-64-v4", "py399/x86-64-v3"]
    )


def test_seeding_copies_the_best_level_keyed_by_this_cpu_and_keeps_what_is_there(
    shipped_in, monkeypatch
):
    build_both(shipped_in)
    full = shipped_in / "full"
    assert pack.seed(full, AVX512) == 3
    assert (full / "s" / "a-1.py311.1.nbc").read_bytes() == b"a for v4"
    assert (full / "s" / "c-3.py311callee.1.nbc").read_bytes() == b"c's IR"
    for index in full.rglob("*.nbi"):  # numba on this CPU finds each entry
        assert [k[1] for k in index_keys(index)] == [AVX512]
    assert not list(full.rglob(".pack-*.*"))  # no temporary file left
    assert pack.seed(full, AVX512) == 0  # the marker: once per folder

    mine = shipped_in / "mine"
    (mine / "s").mkdir(parents=True)
    (mine / "s" / "a-1.py311.nbi").write_bytes(b"a kernel compiled here")
    assert pack.seed(mine, AVX2) == 2  # v3, as this CPU has no AVX-512
    assert (mine / "s" / "a-1.py311.nbi").read_bytes() == b"a kernel compiled here"
    assert not (mine / "s" / "a-1.py311.1.nbc").exists()  # its data files not written either
    assert (mine / "s" / "b-2.py311.1.nbc").read_bytes() == b"b same"

    assert pack.seed(shipped_in / "none", NO_AVX2) == 0
    assert not (shipped_in / "none").exists()
    assert pack.describe(AVX512).startswith("used: x86-64-v4")
    assert "--host" not in pack.describe(AVX512) and "--host" not in pack.describe(AVX2)
    monkeypatch.setenv(pack.SWITCH, "x86-64-v3")  # an AVX-512 CPU served the v3 code
    assert "this CPU runs x86-64-v4: `tichusim warmup --host`" in pack.describe(AVX512)
    assert "lacks" in pack.describe(NO_AVX2)


def test_a_stale_pack_is_never_loaded_and_the_first_compile_notice_says_so(shipped_in, monkeypatch):
    from tichusim._compile import notice

    monkeypatch.setattr(pack, "_stale", None)
    monkeypatch.setattr(notice, "_notes", [])
    build_both(shipped_in)
    assert pack.seed(shipped_in / "cache", AVX512, kernel_key="0123456789abcdef") == 0
    assert not (shipped_in / "cache").exists()
    note = pack.stale_note()
    assert note is not None and note.startswith("the kernel pack is stale")
    assert "scripts/build_kernel_pack.py" in note
    assert pack.seed(shipped_in / "cache", AVX512, kernel_key="0123456789abcdef") == 0
    assert notice._notes == [note]  # for the first notice that speaks, once
    said = []
    monkeypatch.setattr(notice, "_say", said.append)
    notice._Notice("kernels.tichu.batch.play_batch_nanjing", False)._announce()
    assert said == [
        "tichusim: compiling kernels.tichu.batch.play_batch_nanjing: once, cached for later runs",
        f"tichusim: {note}",
    ]
    assert notice._notes == []


def test_a_damaged_pack_or_a_folder_it_cannot_write_leaves_the_kernels_to_compile(
    shipped_in, monkeypatch
):
    build_both(shipped_in)
    codegen = type("Codegen", (), {"magic_tuple": lambda self: AVX512})()
    monkeypatch.setenv("TICHUSIM_CACHE_DIR", str(shipped_in / "readonly"))
    (shipped_in / "readonly").write_text("a file where the cache folder would be")
    monkeypatch.setattr(pack, "_seeded", False)
    pack.seed_once(codegen)  # no exception
    assert (shipped_in / "readonly").read_text() == "a file where the cache folder would be"

    pack.ARCHIVE.write_bytes(b"not an archive")
    monkeypatch.setenv("TICHUSIM_CACHE_DIR", str(shipped_in / "cache"))
    monkeypatch.setattr(pack, "_seeded", False)
    pack.seed_once(codegen)  # no exception: nothing copied
    assert not list((shipped_in / "cache").rglob("*.nb*"))

    monkeypatch.setenv(pack.SWITCH, "0")
    monkeypatch.setattr(pack, "_seeded", False)
    build_both(shipped_in)
    pack.seed_once(codegen)
    assert not (shipped_in / "cache").exists() or not list((shipped_in / "cache").iterdir())


def test_the_shipped_pack_is_well_formed_and_warns_when_stale():
    """A pack built for other kernel sources fails nothing (it is ignored: the kernels compile
    on first use) but is named here, in the tests' warnings, until it is rebuilt."""
    shipped = pack.read_meta()
    if shipped is None:
        pytest.skip("no kernel pack shipped")
    for each in shipped["targets"]:
        assert tuple(each["cpu"]) == pack.level_cpu(each["cpu"][0], each["level"])
        assert each["kernels"] > 200
    manifest, tar = pack._open_archive()
    with tar:
        assert set(manifest["files"]) == {pack._target_id(t) for t in shipped["targets"]}
    assert sorted(p.name for p in pack.PACK_DIR.iterdir()) == ["kernels.json", "kernels.tar.xz"]
    if shipped["key"] != cache.key():
        warnings.warn(
            f"the kernel pack is stale (key {shipped['key']}, the sources' {cache.key()}): "
            "rebuild it with `python scripts/build_kernel_pack.py`",
            stacklevel=1,
        )


def test_the_cache_is_laid_out_the_same_in_every_checkout():
    from tichusim.kernels.tichu import batch

    locator = batch.play_batch_nanjing._cache._impl.locator
    folder = Path(locator.get_cache_path())
    assert folder == cache.cache_dir() / "tichusim_kernels_tichu"
    assert cache.subfolder(ROOT / "tichusim" / "kernels" / "moves.py") == "tichusim_kernels"
    assert cache.subfolder(Path(__file__)) is None  # outside the package: numba's own name


# kernels of ours (our ``njit``) in a module of the test's own: ``shout`` calls ``double`` (a
# callee: its entry is IR only), ``whisper`` calls it too and is not in the pack
KERNELS = textwrap.dedent("""
    import numpy as np
    from tichusim.kernels.jit import njit

    @njit(cache=True)
    def double(x):
        return x * 2.0

    @njit(cache=True)
    def shout(a):
        s = 0.0
        for v in a:
            s += double(v) * v
        return s

    @njit(cache=True)
    def whisper(a):
        return double(a[0]) - 1.0
""")

# in a fresh process: seed the cache from the pack given (``seed`` if asked), call the
# kernels, and say what compiled
PROBE = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    import numpy as np
    from numba.core import event
    from tichusim._compile import pack

    compiled = []

    class Seen(event.Listener):
        def on_start(self, ev):
            compiled.append(ev.data["dispatcher"].py_func.__name__)

        def on_end(self, ev):
            pass

    event.register("numba:compile", Seen())
    where, calls = Path(sys.argv[1]), sys.argv[2].split(",")
    pack.PACK_DIR, pack.META, pack.ARCHIVE = where, where / "kernels.json", where / "kernels.tar.xz"
    sys.path.insert(0, str(where.parent))
    import kernels_here as k
    a = np.arange(1000, dtype=np.float64) / 7
    out = {name: getattr(k, name)(a) for name in calls if name}
    if "slim" in sys.argv[3:]:
        pack.slim(Path(sys.argv[4]))
    print(json.dumps({"out": out, "compiled": compiled, "cpu": pack.host_cpu()}))
""")


def probe(tmp: Path, cache_dir: Path, calls: str, *extra, **env) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp / "pack"), calls, *extra],
        cwd=ROOT,
        env=os.environ | {"TICHUSIM_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(ROOT)} | env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_kernels_built_for_a_level_load_on_this_cpu_keyed_by_its_magic_tuple(
    shipped_in, monkeypatch
):
    """The probe of issue 54, as a test: kernels cached by a process compiling for x86-64-v3
    miss in a plain process as numba leaves them, and hit, with the same result, once the pack
    has keyed their index by this CPU; a kernel not in the pack compiles, linking the
    callee's IR from the pack's text."""
    host = pack.host_cpu()
    if not pack._features(V3) <= pack._features(host) or host[0] != TRIPLE:
        pytest.skip(f"this CPU ({host[1]}) does not run x86-64-v3")
    (shipped_in / "kernels_here.py").write_text(KERNELS)
    level = {"NUMBA_CPU_NAME": V3[1], "NUMBA_CPU_FEATURES": V3[2], pack.SWITCH: "0"}
    built = shipped_in / "built"
    first = probe(shipped_in, built, "shout", "slim", str(built), **level)
    assert tuple(first["cpu"]) == V3 and set(first["compiled"]) == {"shout", "double"}
    pack.build([(pack.python_tag(), V3, built)])

    plain = shipped_in / "plain"  # the files as numba left them: another CPU's entries
    subprocess.run(["cp", "-r", str(built), str(plain)], check=True)
    missed = probe(shipped_in, plain, "shout", **{pack.SWITCH: "0"})
    assert set(missed["compiled"]) == {"shout", "double"} and missed["out"] == first["out"]

    seeded = probe(shipped_in, shipped_in / "seeded", "shout,whisper")
    assert seeded["compiled"] == ["whisper"]  # shout, and whisper's callee, from the pack
    assert seeded["out"] == {"shout": first["out"]["shout"], "whisper": -1.0}


_FIRST = """
import hashlib, json, sys
sys.path.insert(0, "tests/games")
from numba.core import event
from click.testing import CliRunner

compiled = []


class Seen(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__qualname__)

    def on_end(self, ev):
        pass


event.register("numba:compile", Seen())
import tichusim
from tichusim.cli import main
from test_golden import regen
TABLES = (("nanjing", "expert"), ("nanjing", "learned"), ("wuwang", "learned"))
from tichusim.games.transcript import transcript

result = CliRunner().invoke(main, sys.argv[1:])
assert result.exit_code == 0, result.output
for seed, round_, strategies in regen.CASES:
    parts = strategies.split(",")
    got = transcript(seed, round_, strategies=parts[0] if len(parts) == 1 else parts)
    assert got == (regen.GOLDEN / regen.name(seed, round_, strategies)).read_text(), seed
digests = []
for variant, strategies in TABLES:
    rounds, seats = tichusim.simulate(1000, seed=11, strategies=strategies, variant=variant)
    digests.append(hashlib.sha256(rounds.to_csv().encode() + seats.to_csv().encode()).hexdigest())
print(json.dumps({"compiled": sorted(set(compiled)), "digests": digests}))
"""


TABLES = (("nanjing", "expert"), ("nanjing", "learned"), ("wuwang", "learned"))


def _levels_here() -> list[str]:
    shipped = pack.read_meta()
    if shipped is None or shipped["key"] != cache.key():
        return []
    host = pack.host_cpu()
    return [t["level"] for t in shipped["targets"] if pack._unfit(t, host) is None]


@pytest.mark.slow
@pytest.mark.parametrize("level", _levels_here() or ["none"])
def test_a_first_run_from_each_level_compiles_nothing_and_plays_the_same_rounds(level, tmp_path):
    """Each level of the pack this CPU runs, chosen with the switch: a first command on an
    empty cache compiles nothing, the golden transcripts replay, and expert and learned tables
    give the bytes this process's kernels give (host-compiled, or the pack's best level)."""
    if level == "none":
        pytest.skip(f"kernel pack {pack.describe(pack.host_cpu())}")
    env = os.environ | {
        "TICHUSIM_CACHE_DIR": str(tmp_path / "cache"),
        "PYTHONPATH": str(ROOT),
        pack.SWITCH: level,
    }
    run = ["run", "configs/quick.toml", "--rounds", "2000", "--quiet", "--out", str(tmp_path / "r")]
    done = subprocess.run(
        [sys.executable, "-c", _FIRST, *run],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["compiled"] == []
    import tichusim

    here = []
    for variant, strategies in TABLES:
        rounds, seats = tichusim.simulate(1000, seed=11, strategies=strategies, variant=variant)
        here.append(hashlib.sha256(rounds.to_csv().encode() + seats.to_csv().encode()).hexdigest())
    assert seen["digests"] == here
