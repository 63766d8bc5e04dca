"""The checks themselves (docs/architecture.md, "Tests and benchmarks"): the slow tier is a
registered marker that ``pytest`` alone deselects, the fast tier still collects tests of every
folder of ``tests/``, and ``tests/`` mirrors the package's folders; CI runs the README's test
command; the pre-commit hook runs the ruff release the dev extra pins.

Nothing here compiles a kernel: a collection is read off the session or a fresh
``pytest --collect-only``.
"""

import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _pytest_settings() -> dict:
    return PYPROJECT["tool"]["pytest"]["ini_options"]


def _folders_with_tests() -> list[Path]:
    return sorted(
        folder
        for folder in TESTS.rglob("*")
        if folder.is_dir() and "__pycache__" not in folder.parts and any(folder.glob("test_*.py"))
    )


def test_slow_is_a_registered_marker_the_default_run_deselects():
    markers = {line.split(":")[0].strip() for line in _pytest_settings()["markers"]}
    assert {"slow", "faults"} <= markers
    options = shlex.split(_pytest_settings()["addopts"])
    assert "--strict-markers" in options  # a misspelt marker is an error, not a new marker
    assert options[options.index("-m") + 1] == "not slow"


def test_tests_mirror_the_package_folders():
    """Every public folder of the package has its folder of tests."""
    package = ROOT / "tichusim"
    folders = sorted(
        p.name for p in package.iterdir() if (p / "__init__.py").exists() and p.name[0] != "_"
    )
    assert folders
    missing = [name for name in folders if not any((TESTS / name).glob("test_*.py"))]
    assert not missing, f"package folders without a tests/ folder of their own: {missing}"


def _collected_by_a_fresh_pytest() -> list[str]:
    """The test ids ``pytest`` collects as a user runs it (pyproject.toml's ``-m "not slow"``)."""
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    summary = proc.stdout.strip().splitlines()[-1]
    assert re.search(r"\d+/\d+ tests collected \(\d+ deselected\)", summary), summary
    return [line for line in proc.stdout.splitlines() if "::" in line]


def _folders_without_tests(ids) -> list[str]:
    collected = {(ROOT / test_id.split("::")[0]).parent for test_id in ids}
    return [str(f.relative_to(ROOT)) for f in _folders_with_tests() if f not in collected]


def test_the_fast_tier_collects_tests_of_every_folder(request):
    """Each folder of tests keeps tests in the fast tier. Read off this session when it is the
    fast tier and holds them all (free); else, or if one seems missing, from a fresh
    ``pytest --collect-only``."""
    session = request.session
    if request.config.option.markexpr == "not slow":
        ids = [item.nodeid for item in session.items]
        if not _folders_without_tests(ids):
            return
    empty = _folders_without_tests(_collected_by_a_fresh_pytest())
    assert not empty, f"folders with no test in the fast tier: {empty}"


def test_ci_runs_the_readmes_test_command():
    """The README names one command that installs and runs the tests; .ci/run runs it as is."""
    readme = (ROOT / "README.md").read_text()
    commands = re.findall(r"^python3 -m venv .*'\.\[dev\]'.*$", readme, re.M)
    assert len(commands) == 1, commands
    assert commands[0] in (ROOT / ".ci" / "run").read_text().splitlines()
    assert commands[0].endswith("bash scripts/check")


def test_the_pre_commit_hook_runs_the_pinned_ruff_release():
    config = (ROOT / ".pre-commit-config.yaml").read_text()
    rev = re.search(r"ruff-pre-commit\n\s+rev: v(\d+)\.(\d+)\.\d+", config)
    assert rev, config
    dev = PYPROJECT["project"]["optional-dependencies"]["dev"]
    pin = next(r for r in dev if r.startswith("ruff"))
    assert f">={rev[1]}.{rev[2]}," in pin, (pin, rev[0])


def test_the_top_of_tests_holds_few_test_files_and_no_helpers():
    """The tests of a folder of the package sit in its folder of ``tests/``; at the top, at most
    eight test files (the repository's own checks and the modules at the package's root), and
    the shared helpers in ``tests/support/``, not beside them."""
    top = sorted(p.name for p in TESTS.glob("*.py"))
    tests = [name for name in top if name.startswith("test_")]
    assert len(tests) <= 8, f"{len(tests)} test files at the top of tests/: {tests}"
    helpers = [name for name in top if not name.startswith("test_") and name != "conftest.py"]
    assert not helpers, f"helpers at the top of tests/, not in tests/support/: {helpers}"


def test_each_release_of_the_changelog_has_one_heading_per_kind_of_change():
    """CHANGELOG.md (Keep a Changelog): within a release, each kind of change (Added, Changed,
    Deprecated, Removed, Fixed, Security) has one heading, and they come in that order."""
    kinds = ["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"]
    text = (ROOT / "CHANGELOG.md").read_text()
    releases = re.split(r"^## ", text, flags=re.M)[1:]
    assert releases and releases[0].startswith("[Unreleased]")
    for release in releases:
        headings = re.findall(r"^### (.+)$", release, re.M)
        name = release.splitlines()[0]
        assert all(h in kinds for h in headings), (name, headings)
        assert headings == sorted(set(headings), key=kinds.index), (name, headings)
