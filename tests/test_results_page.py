"""The benchmarks' results page (benchmarks/results_page.py): a benchmark replaces its own
section, stamped with date, commit, machine and command, and leaves every other one alone."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import results_page  # noqa: E402 (benchmarks/ is no package)


def test_a_section_is_written_with_its_provenance(tmp_path):
    page = tmp_path / "performance.md"
    rec = results_page.Recorder("bench_x.py", page)
    rec.print("rounds/s", 123)
    rec.save()
    text = page.read_text()
    assert text.startswith(results_page.HEADER)
    assert "## bench_x.py\n" in text
    for field in ("- measured: ", "- commit: ", "- machine: ", "- command: `python "):
        assert field in text
    assert "```text\nrounds/s 123\n```" in text


def test_a_benchmark_replaces_only_its_own_section(tmp_path):
    page = tmp_path / "performance.md"
    page.write_text("# Title\n\nIntro.\n\n## by hand\n\nkept as it is\n\n## bench_x.py\n\nold\n")
    results_page.replace_section(page, "bench_x.py", "## bench_x.py\n\nnew\n")
    results_page.replace_section(page, "bench_y.py", "## bench_y.py\n\nother\n")
    results_page.replace_section(page, "bench_x.py", "## bench_x.py\n\nnewer\n")
    assert page.read_text() == (
        "# Title\n\nIntro.\n\n## by hand\n\nkept as it is\n\n## bench_x.py\n\nnewer\n\n"
        "## bench_y.py\n\nother\n"
    )


def test_no_results_writes_nothing(tmp_path, capsys):
    rec = results_page.Recorder("bench_x.py", None)
    rec.print("figure")
    rec.save()
    assert capsys.readouterr().out == "figure\n"
    assert not list(tmp_path.iterdir())


def test_the_commit_says_when_the_tree_differs_from_it():
    assert results_page.commit(ROOT).split(" ")[0].isalnum()
    assert results_page.commit(Path("/")).startswith("unknown")
