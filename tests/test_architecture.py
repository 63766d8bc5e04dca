"""What the code digest covers, and docs/architecture.md's module table held to the tree. The
import layers are enforced by ``lint-imports``, a step of ``scripts/check`` before the tests."""

import re
import shutil
from pathlib import Path

import pytest

from tichusim.runs import manifest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tichusim"


@pytest.fixture(scope="module")
def package_copy(tmp_path_factory):
    copy = tmp_path_factory.mktemp("pkg") / "tichusim"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _data_files(package: Path) -> list[Path]:
    return sorted(p for folder in manifest.DATA_FOLDERS for p in (package / folder).rglob("*.py"))


def test_code_digest_depends_on_sources_not_location(package_copy):
    assert manifest.code_digest(package_copy) == manifest.code_digest()


def test_editing_any_data_source_changes_the_code_digest(package_copy):
    """A resumed run must never mix shards of two code versions: every module of the folders
    that make data (kernels, cards, strategies, games, runs) is covered, new ones included."""
    before = manifest.code_digest(package_copy)
    files = _data_files(package_copy)
    assert len(files) > 40
    for folder in manifest.DATA_FOLDERS:
        assert any(p.parent.relative_to(package_copy).parts[:1] == (folder,) for p in files)
    for path in files:
        text = path.read_bytes()
        path.write_bytes(text + b"\n# edited\n")
        try:
            assert manifest.code_digest(package_copy) != before, path
        finally:
            path.write_bytes(text)
    new = package_copy / "games" / "brand_new_module.py"
    new.write_text("X = 1\n")
    try:
        assert manifest.code_digest(package_copy) != before
    finally:
        new.unlink()
    assert manifest.code_digest(package_copy) == before


def test_the_reading_layer_is_outside_the_digest(package_copy):
    """Reports and the CLI read data without making it: editing them keeps resumes possible."""
    before = manifest.code_digest(package_copy)
    for path in [package_copy / "cli.py", *sorted((package_copy / "analysis").rglob("*.py"))]:
        text = path.read_bytes()
        path.write_bytes(text + b"\n# edited\n")
        try:
            assert manifest.code_digest(package_copy) == before, path
        finally:
            path.write_bytes(text)


def _module_table() -> dict[str, set[str]]:
    """docs/architecture.md's module table: folder (``tichusim/games/``) -> the modules its
    row names."""
    rows: dict[str, set[str]] = {}
    for line in (ROOT / "docs" / "architecture.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not re.fullmatch(r"`tichusim/[\w/]*`", cells[0]):
            continue
        folder = cells[0].strip("`")
        assert folder not in rows, f"{folder} has two rows in docs/architecture.md"
        rows[folder] = set(re.findall(r"`(\w+\.py)`", " ".join(cells[1:])))
    return rows


def test_the_architecture_page_lists_exactly_the_packages_modules():
    package: dict[str, set[str]] = {}
    for path in sorted((ROOT / "tichusim").rglob("*.py")):
        if path.name != "__init__.py":
            package.setdefault(path.parent.relative_to(ROOT).as_posix() + "/", set()).add(path.name)
    rows = _module_table()
    assert sorted(rows) == sorted(package), "the folders of docs/architecture.md's table"
    for folder, modules in package.items():
        assert rows[folder] == modules, (
            f"docs/architecture.md, {folder}: lists {sorted(rows[folder] - modules)} that do not "
            f"exist and misses {sorted(modules - rows[folder])}"
        )
