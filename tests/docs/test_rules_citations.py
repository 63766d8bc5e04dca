"""Every rules citation in the repository names a section of its RULES.md.

Code, tests, scripts and docs cite the implemented rules by section: ``RULES.md §2.6``, or
``§2.6`` alone where the document is understood (a comment, a table of the docs), lists such
as ``§2.13, §3`` and ``§2.3/§2.14``, and ranges such as ``§2.5-§2.11`` (hyphen or en dash).
The repository cites no other document by section, so every ``§`` number in its text files
is read as a RULES.md section. A full stop after a number ends the sentence (``RULES.md §5.``
cites §5); a third level number would be a section of its own and must exist.

The headings of RULES.md are ``## N. Title`` and ``### N.M Title``: numbered from 1 without
gaps, each ``N.M`` under its ``N``.
"""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "RULES.md"
# where citations live: these folders and files of the repository (RULES.md cites itself too)
SCANNED = (
    "tichusim",
    "tests",
    "benchmarks",
    "scripts",
    "examples",
    "configs",
    "docs",
    "README.md",
    "RULES.md",
)
TEXT_SUFFIXES = {".py", ".md", ".toml", ".txt", ".cfg", ".ini", ".yaml", ".yml", ".json", ".rst"}

SECTION = re.compile(r"§(\d+(?:\.\d+)*)")  # "§5." stops before the full stop
RANGE = re.compile(r"§(\d+(?:\.\d+)*)\s*[-–]\s*§(\d+(?:\.\d+)*)")
TOP = re.compile(r"^## (\d+)\. \S")
SUB = re.compile(r"^### (\d+)\.(\d+) \S")


def _tracked_files() -> list[Path]:
    """The repository's text files under ``SCANNED`` (tracked ones; every file there when git
    cannot answer, as in an unpacked source tree)."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--", *SCANNED], cwd=ROOT, capture_output=True, check=True
        ).stdout
        paths = [ROOT / p for p in out.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        paths = []
        for name in SCANNED:
            top = ROOT / name
            paths += [top] if top.is_file() else [p for p in top.rglob("*") if p.is_file()]
    if RULES.exists() and RULES not in paths:  # RULES.md itself, even before it is committed
        paths.append(RULES)
    keep = []
    for path in paths:
        if (
            path.suffix in TEXT_SUFFIXES
            and path.is_file()
            and not ({".venv", "__pycache__"} & set(path.parts))
        ):
            keep.append(path)
    return sorted(keep)


def headings(text: str) -> tuple[list[str], list[str]]:
    """``(sections in document order, numbering problems)`` of a RULES.md text: every ``##``
    and ``###`` heading numbered, top sections 1, 2, 3, ..., subsections N.1, N.2, ... under
    their N."""
    order: list[str] = []
    problems: list[str] = []
    top = 0
    sub = 0
    fence = False
    for no, line in enumerate(text.splitlines(), start=1):
        if line.startswith("```"):
            fence = not fence
        if fence or not line.startswith("##"):
            continue
        if m := TOP.match(line):
            n = int(m.group(1))
            if n != top + 1:
                problems.append(
                    f"RULES.md:{no}: section {n} follows section {top} (expected {top + 1}): {line}"
                )
            top, sub = n, 0
            order.append(str(n))
        elif m := SUB.match(line):
            n, k = int(m.group(1)), int(m.group(2))
            if n != top:
                problems.append(
                    f"RULES.md:{no}: subsection {n}.{k} sits under section {top}: {line}"
                )
            elif k != sub + 1:
                problems.append(
                    f"RULES.md:{no}: subsection {n}.{k} follows {top}.{sub} "
                    f"(expected {top}.{sub + 1}): {line}"
                )
            sub = k
            order.append(f"{n}.{k}")
        elif line.startswith(("## ", "### ")):
            problems.append(
                f"RULES.md:{no}: heading without a section number "
                f"('## N. Title' or '### N.M Title'): {line}"
            )
    return order, problems


def citations(text: str) -> list[tuple[int, str]]:
    """``(line, section)`` of every section cited in ``text``."""
    return [
        (no, m.group(1))
        for no, line in enumerate(text.splitlines(), start=1)
        for m in SECTION.finditer(line)
    ]


def ranges(text: str) -> list[tuple[int, str, str]]:
    """``(line, first, last)`` of every range of sections cited in ``text``."""
    return [
        (no, m.group(1), m.group(2))
        for no, line in enumerate(text.splitlines(), start=1)
        for m in RANGE.finditer(line)
    ]


def _sections() -> list[str]:
    if not RULES.exists():
        pytest.fail("RULES.md is missing at the repository root: code and tests cite its sections")
    return headings(RULES.read_text(encoding="utf-8"))[0]


def _texts():
    for path in _tracked_files():
        try:
            yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue


# -- the parsing itself -------------------------------------------------------------------------


def test_citation_forms_are_read_as_sections():
    # written with escapes: this file is scanned too, and 2.6.1 names no section
    text = (
        "see RULES.md \u00a75. Then \u00a72.13, \u00a73 and \u00a72.3/\u00a72.14;\n"
        "plays (RULES.md \u00a72.5-\u00a72.11), \u00a72.2\u2013\u00a72.14, \u00a72.6.1 and "
        "\u00a74)."
    )
    assert citations(text) == [
        (1, "5"),
        (1, "2.13"),
        (1, "3"),
        (1, "2.3"),
        (1, "2.14"),
        (2, "2.5"),
        (2, "2.11"),
        (2, "2.2"),
        (2, "2.14"),
        (2, "2.6.1"),
        (2, "4"),
    ]
    assert ranges(text) == [(2, "2.5", "2.11"), (2, "2.2", "2.14")]


def test_heading_numbering_problems_are_found():
    good = "# Title\n\n## 1. A\n\n## 2. B\n### 2.1 C\n### 2.2 D\n## 3. E\n"
    assert headings(good) == (["1", "2", "2.1", "2.2", "3"], [])
    for bad in (
        "## 1. A\n## 3. C\n",
        "## 1. A\n### 2.1 B\n",
        "## 1. A\n### 1.2 B\n",
        "## 1. A\n## Notes\n",
        "## 2. A\n",
    ):
        assert headings(bad)[1], bad


# -- the repository ----------------------------------------------------------------------------


def test_rules_headings_are_numbered_consistently():
    text = RULES.read_text(encoding="utf-8") if RULES.exists() else ""
    order, problems = headings(text)
    assert order, "RULES.md has no numbered sections"
    assert not problems, "\n".join(problems)


def test_every_citation_names_a_section_of_rules_md():
    sections = set(_sections())
    scanned = 0
    missing = []
    for name, text in _texts():
        scanned += 1
        for line, section in citations(text):
            if section not in sections:
                missing.append(f"{name}:{line}: §{section} names no section of RULES.md")
    assert scanned > 100, f"only {scanned} files scanned: is the file list right?"
    assert not missing, "\n".join(missing)


def test_cited_ranges_run_forwards():
    order = {s: i for i, s in enumerate(_sections())}
    backwards = []
    for name, text in _texts():
        for line, first, last in ranges(text):
            if first in order and last in order and order[first] >= order[last]:
                backwards.append(f"{name}:{line}: range §{first}-§{last} does not run forwards")
    assert not backwards, "\n".join(backwards)
