"""Habits kept by tools, run with the tests: ruff's lint and layout over the repository, and
mypy over the Python face (pyproject.toml's [tool.ruff] and [tool.mypy] say what each checks).
A failure shows the tool's own report."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess:
    """``python -m <args>`` at the repository's root, with pyproject.toml's settings."""
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


@pytest.mark.parametrize(
    "command",
    [("ruff", "check", "."), ("ruff", "format", "--check", ".")],
    ids=["lint", "format"],
)
def test_ruff(command):
    proc = _run(*command)
    if proc.returncode:
        pytest.fail(
            f"`ruff {' '.join(command[1:])}` failed (`ruff check --fix .` and `ruff format .` "
            f"repair most):\n{proc.stdout[-6000:]}{proc.stderr[-2000:]}",
            pytrace=False,
        )


def test_mypy():
    """The packages and modules pyproject.toml names, with its settings; its cache in
    .mypy_cache keeps a second run to a few seconds."""
    proc = _run("mypy")
    if proc.returncode:
        pytest.fail(f"mypy failed:\n{proc.stdout[-8000:]}{proc.stderr[-2000:]}", pytrace=False)
