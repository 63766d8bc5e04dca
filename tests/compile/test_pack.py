"""The kernel pack (``tichusim/_compile/pack.py``): it fits the sources it ships with, it is
copied into an empty cache only for the Python and CPU it was built for, kernel by kernel
without touching what the cache already holds, and a first command served by it compiles
nothing."""

import json
import lzma
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tichusim._compile import cache, pack

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = pack.PACK_DIR


def shipped() -> dict:
    meta = pack.PACK_DIR / f"{cache.key()}.json"
    assert meta.is_file() and (pack.PACK_DIR / f"{cache.key()}.tar.xz").is_file(), (
        f"no kernel pack for these kernel sources (key {cache.key()}): run "
        "`python scripts/build_kernel_pack.py` and commit tichusim/kernel_pack/"
    )
    return json.loads(meta.read_text())


def test_the_pack_fits_the_kernel_sources_and_is_the_only_one():
    meta = shipped()
    assert meta["key"] == cache.key()
    assert meta["python"] == "py311" and len(meta["cpu"]) == 3 and meta["kernels"] > 200
    assert sorted(p.name for p in pack.PACK_DIR.iterdir()) == [
        f"{cache.key()}.json",
        f"{cache.key()}.tar.xz",
    ]


def index_files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*.nbi")}


def test_seeding_copies_each_missing_kernel_whole_and_keeps_those_there(tmp_path, monkeypatch):
    meta = shipped()
    cpu = tuple(meta["cpu"])
    monkeypatch.setattr(pack, "python_tag", lambda: meta["python"])
    full = tmp_path / "full"
    assert pack.seed(full, cpu) == meta["kernels"]
    indexes = index_files(full)
    assert len(indexes) == meta["kernels"]
    for name in indexes:  # every index with the data files it names
        stem = name[: -len(".nbi")]
        assert list(full.glob(f"{stem}.*.nbc")), name
    assert not list(full.rglob(".pack-*.*"))  # no temporary file left
    assert pack.seed(full, cpu) == 0  # the marker: once per folder

    mine = tmp_path / "mine"
    taken = sorted(indexes)[0]
    (mine / taken).parent.mkdir(parents=True)
    (mine / taken).write_bytes(b"a kernel compiled here")
    assert pack.seed(mine, cpu) == meta["kernels"] - 1
    assert (mine / taken).read_bytes() == b"a kernel compiled here"
    stem = taken[: -len(".nbi")]
    assert not list(mine.glob(f"{stem}.*.nbc"))  # its data files not written either
    assert index_files(mine).keys() == indexes.keys()


def test_another_cpu_or_python_or_the_switch_off_gets_nothing(tmp_path, monkeypatch):
    meta = shipped()
    cpu = tuple(meta["cpu"])
    monkeypatch.setattr(pack, "python_tag", lambda: meta["python"])
    other = (cpu[0], "another-cpu", cpu[2])
    assert pack.seed(tmp_path / "a", other) == 0
    assert pack.seed(tmp_path / "b", (cpu[0], cpu[1], cpu[2] + ",-avx2")) == 0
    assert "built for CPU" in pack.describe(other)
    monkeypatch.setattr(pack, "python_tag", lambda: "py312")
    assert pack.seed(tmp_path / "c", cpu) == 0
    assert "built for Python" in pack.describe(cpu)
    assert not any((tmp_path / d).exists() for d in "abc")

    monkeypatch.setattr(pack, "python_tag", lambda: meta["python"])
    monkeypatch.setenv(pack.SWITCH, "0")
    monkeypatch.setenv("TICHUSIM_CACHE_DIR", str(tmp_path / "d"))
    monkeypatch.setattr(pack, "_seeded", False)
    pack.seed_once(type("Codegen", (), {"magic_tuple": lambda self: cpu})())
    assert not (tmp_path / "d").exists()
    assert pack.describe(cpu).startswith("off")


def test_a_damaged_pack_or_a_folder_it_cannot_write_leaves_the_kernels_to_compile(
    tmp_path, monkeypatch
):
    meta = shipped()
    cpu = tuple(meta["cpu"])
    codegen = type("Codegen", (), {"magic_tuple": lambda self: cpu})()
    monkeypatch.setattr(pack, "python_tag", lambda: meta["python"])
    monkeypatch.setenv(pack.SWITCH, "1")
    damaged = tmp_path / "pack"
    damaged.mkdir()
    (damaged / f"{meta['key']}.json").write_text(json.dumps(meta))
    (damaged / f"{meta['key']}.tar.xz").write_bytes(b"not an archive")
    monkeypatch.setattr(pack, "PACK_DIR", damaged)
    monkeypatch.setenv("TICHUSIM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(pack, "_seeded", False)
    pack.seed_once(codegen)  # no exception: nothing copied
    assert not list((tmp_path / "cache").rglob("*.nb*"))
    with pytest.raises(lzma.LZMAError):
        pack.seed(tmp_path / "cache", cpu)  # what seed_once swallowed

    readonly = tmp_path / "readonly"
    readonly.write_text("a file where the cache folder would be")
    monkeypatch.setattr(pack, "PACK_DIR", SHIPPED)
    monkeypatch.setenv("TICHUSIM_CACHE_DIR", str(readonly))
    monkeypatch.setattr(pack, "_seeded", False)
    pack.seed_once(codegen)
    assert readonly.read_text() == "a file where the cache folder would be"


def test_the_cache_is_laid_out_the_same_in_every_checkout():
    from tichusim.kernels.tichu import batch

    locator = batch.play_batch_nanjing._cache._impl.locator
    folder = Path(locator.get_cache_path())
    assert folder == cache.cache_dir() / "tichusim_kernels_tichu"
    assert cache.subfolder(ROOT / "tichusim" / "kernels" / "moves.py") == "tichusim_kernels"
    assert cache.subfolder(Path(__file__)) is None  # outside the package: numba's own name


_FIRST = """
import sys
from numba.core import event
from click.testing import CliRunner

compiled = []


class Seen(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__qualname__)

    def on_end(self, ev):
        pass


event.register("numba:compile", Seen())
from tichusim.cli import main

result = CliRunner().invoke(main, sys.argv[1:])
assert result.exit_code == 0, result.output
print(len(compiled), sorted(set(compiled))[:5])
"""


@pytest.mark.slow
def test_a_first_run_on_an_empty_cache_compiles_nothing_where_the_pack_fits(tmp_path):
    if pack.describe(pack.host_cpu()).startswith("not used"):
        pytest.skip(f"kernel pack {pack.describe(pack.host_cpu())}")
    env = os.environ | {"TICHUSIM_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    for command in (
        ["run", "configs/quick.toml", "--rounds", "2000", "--quiet", "--out", str(tmp_path / "r")],
        ["simulate", "--rounds", "50", "--strategies", "learned", "--variant", "wuwang"],
    ):
        done = subprocess.run(
            [sys.executable, "-c", _FIRST, *command],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
        assert done.stdout.split()[0] == "0", done.stdout
