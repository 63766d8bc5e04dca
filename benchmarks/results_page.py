"""The one page of measured figures, ``results/performance.md``, written by the benchmarks.

A benchmark that records (``bench_run.py``, ``bench_startup.py``, ``bench_trees.py``) prints
as before through a ``Recorder`` and, when it ends, replaces its own section of the page with
what it printed, stamped with the date, the commit of each tree measured (and whether it had
uncommitted changes), the machine and the command that regenerates it. Every other section
is left as it was, so the page holds the latest figures of each benchmark side by side.
``docs/performance.md`` says what the figures mean and points here; no other page holds a
dated figure.

    rec = Recorder("bench_run.py", results=args.results)
    rec.print("...")          # printed, and kept for the page
    rec.save()                # the section "bench_run.py" of the page, replaced
"""

from __future__ import annotations

import importlib.metadata
import os
import platform
import re
import shlex
import subprocess
import sys
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "results" / "performance.md"

HEADER = """# Measured performance

The latest figures of each benchmark that records (`benchmarks/bench_run.py`,
`benchmarks/bench_startup.py`, `benchmarks/bench_trees.py`), written by the benchmark itself:
each section is replaced by the next run of its command, with the date, the commit, the
machine and the command under its heading. What the figures mean, and how to measure a change
honestly on a noisy shared machine, is in `docs/performance.md`. Sections recorded by hand
before the benchmarks wrote this page say where they come from.
"""

_SECTION = re.compile(r"^## ", re.M)


def add_arguments(parser) -> None:
    """``--results PATH`` (default: this page) and ``--no-results`` on a benchmark's parser."""
    parser.add_argument(
        "--results",
        type=Path,
        default=PAGE,
        help="the results page to update (default results/performance.md)",
    )
    parser.add_argument(
        "--no-results",
        dest="results",
        action="store_const",
        const=None,
        help="print only; leave the results page alone",
    )


def _git(tree: Path, *args: str) -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(tree), *args], capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return ""
    return out.stdout.strip()


def commit(tree: Path = ROOT) -> str:
    """``tree``'s commit, short, with ``+ uncommitted changes`` when tracked files differ
    from it (the figures then measure more than that commit)."""
    head = _git(tree, "rev-parse", "--short=10", "HEAD") or "unknown (not a git checkout)"
    dirty = _git(tree, "status", "--porcelain", "--untracked-files=no")
    return f"{head} + uncommitted changes" if dirty else head


def machine() -> str:
    """CPU model, cores, OS, Python and numba: enough to tell two machines apart."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        numba = importlib.metadata.version("numba")
    except importlib.metadata.PackageNotFoundError:
        numba = "not installed"
    load = f", load average {os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else ""
    return (
        f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.machine()}, "
        f"Python {platform.python_version()}, numba {numba}{load}"
    )


def section(title: str, lines: list[str], *, trees=(ROOT,), command: str | None = None) -> str:
    """The Markdown of one section: heading, provenance, the output as a text block."""
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    commits = "; ".join(
        commit(t) if len(trees) == 1 else f"{t}: {commit(t)}" for t in map(Path, trees)
    )
    command = command or shlex.join(["python", *_script_args()])
    body = "\n".join(lines).rstrip("\n")
    return (
        f"## {title}\n\n"
        f"- measured: {when}\n"
        f"- commit: {commits}\n"
        f"- machine: {machine()}\n"
        f"- command: `{command}`\n\n"
        f"```text\n{body}\n```\n"
    )


def _script_args() -> list[str]:
    script = Path(sys.argv[0])
    try:
        script = script.resolve().relative_to(ROOT)
    except ValueError:
        pass
    return [str(script), *sys.argv[1:]]


def replace_section(page: Path, title: str, text: str) -> None:
    """Write ``text`` (a whole section, ``## title`` first) into ``page`` in place of its
    section ``title``, or after the others; the page starts with ``HEADER`` when new."""
    old = page.read_text() if page.exists() else HEADER
    starts = [m.start() for m in _SECTION.finditer(old)]
    head = old[: starts[0]] if starts else old
    parts = [old[a:b] for a, b in pairwise([*starts, len(old)])]
    heading = f"## {title}\n"
    done = False
    for i, part in enumerate(parts):
        if part.startswith(heading):
            parts[i] = text
            done = True
    if not done:
        parts.append(text)
    new = head.rstrip("\n") + "\n\n" + "\n".join(p.rstrip("\n") + "\n" for p in parts)
    page.parent.mkdir(parents=True, exist_ok=True)
    tmp = page.with_suffix(".md.tmp")
    tmp.write_text(new)
    tmp.replace(page)


class Recorder:
    """Prints like ``print`` and keeps the lines; ``save()`` writes them as the section
    ``title`` of ``results`` (None: nothing is written)."""

    def __init__(self, title: str, results: Path | None = PAGE, trees=(ROOT,)):
        self.title, self.results, self.trees = title, results, tuple(trees)
        self.lines: list[str] = []

    def print(self, *values, flush: bool = True) -> None:
        text = " ".join(str(v) for v in values)
        print(text, flush=flush)
        self.lines.append(text)

    def save(self) -> None:
        if self.results is None or not self.lines:
            return
        replace_section(self.results, self.title, section(self.title, self.lines, trees=self.trees))
        print(f"(recorded in {self.results}, section {self.title!r})")
