"""Import benchmark: real Brettspielwelt logs read and replayed into tables, rounds per second.

    python benchmarks/bench_import.py                   # 1,000 files (the 3 real logs copied)
    python benchmarks/bench_import.py --files 200 --no-results
    python benchmarks/bench_import.py --tree ../old --label "8af3fab" --only before

The files are copies of the three real logs in ``tests/data/bsw`` (10 rounds each), so the
reader and the engine see real play, each with its suits relabelled by one of the 24
permutations (suits are labels, RULES.md §1: the same game), so that 72 different games come
round in turn and the caches of card texts meet plays as they would in an archive of
different games, not the same three again and again. Measured in one process, in rounds per
CPU-second of it (its neighbours' load on a shared machine counts less against it than against
wall time), best of ``--repeat``:

1. ``before``: what a user had before ``tichusim import``: ``read_game`` of each file, and
   each round through ``Round.from_record(record).tables()`` (a sample of rounds); also the
   reader alone and ``play_records`` alone (``--tree`` measures another checkout's code);
2. ``shard``: one import shard of all the files in this process (``import_shard``: read,
   replay, the four tables built and encoded), and where its time goes;
3. ``command``: ``tichusim import DIR --out OUT --workers 1`` end to end as a subprocess (start,
   kernels loaded, files read, written and fsynced): its CPU seconds and wall seconds, and with
   ``--workers 2`` (worker processes) its wall seconds.

What it prints goes to results/performance.md too (section ``bench_import.py``; ``--no-results``:
printed only).
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOGS = sorted((ROOT / "tests" / "data" / "bsw").glob("*.tch"))


SUITS = list(itertools.permutations("GSBR"))
CARD = re.compile(r"(?<!\S)([GSBR])(10|[2-9BDKA])(?!\S)")  # a BSW card of a suit


def copies(folder: Path, files: int) -> list[Path]:
    """``files`` copies of the real logs in ``folder``, each a file of its own, the suits of
    copy ``i`` relabelled by permutation ``i // 3`` (of 24, in turn)."""
    folder.mkdir(parents=True, exist_ok=True)
    texts = [p.read_text(encoding="utf-8") for p in LOGS]
    out = []
    for i in range(files):
        swap = dict(zip("GSBR", SUITS[(i // len(LOGS)) % len(SUITS)], strict=True))
        text = CARD.sub(lambda m, swap=swap: swap[m[1]] + m[2], texts[i % len(LOGS)])
        path = folder / f"{i:06d}-{LOGS[i % len(LOGS)].name}"
        path.write_text(text, encoding="utf-8")
        out.append(path)
    return out


def cpu_rate(fn, count: int, repeat: int) -> float:
    """``count`` per CPU-second of ``fn()``, best of ``repeat``."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return count / best


def before(paths: list[Path], repeat: int, sample: int, rec) -> None:
    from tichusim.games import game
    from tichusim.games.recorded import play_records
    from tichusim.games.steps import Round
    from tichusim.logs import read_game

    records = [r for p in paths for r in read_game(p).game.rounds]
    n = len(records)
    rec.print(f"1. the pieces alone, and a round at a time as before the import: {n:,} rounds")
    rate = cpu_rate(lambda: [read_game(p) for p in paths], n, repeat)
    rec.print(f"   read_game alone                      {rate:9,.0f} rounds/s")
    table = game("nanjing")
    play_records(table, records[:3])  # kernels loaded before the clock
    rate = cpu_rate(lambda: play_records(table, records), n, repeat)
    rec.print(f"   play_records alone                   {rate:9,.0f} rounds/s")
    some = records[:sample]
    Round.from_record(some[0]).tables()
    rate = cpu_rate(lambda: [Round.from_record(r).tables() for r in some], len(some), 1)
    rec.print(f"   Round.from_record + tables() a round {rate:9,.0f} rounds/s ({len(some)} rounds)")


def shard(paths: list[Path], repeat: int, rec) -> None:
    from tichusim.runs.import_shard import ImportTask, import_shard

    names = tuple(str(p) for p in paths)
    data = tuple(p.read_bytes() for p in paths)
    import_shard(ImportTask("b", 0, 0, names[:3], data[:3], "nanjing", (), 1))  # kernels loaded
    task = ImportTask("b", 0, 0, names, data, "nanjing", (), 1)
    best, seconds, rows = float("inf"), {}, {}
    clock = time.perf_counter
    time.perf_counter = time.process_time  # the shard's own split, in CPU seconds
    try:
        for _ in range(repeat):
            t0 = time.process_time()
            result = import_shard(task)
            took = time.process_time() - t0
            if took < best:
                best, seconds, rows = took, result.seconds, result.rows
    finally:
        time.perf_counter = clock
    n = rows["rounds"]
    rec.print(f"\n2. one import shard of {len(paths):,} files in this process: {n:,} rounds")
    rec.print(f"   whole shard                          {n / best:9,.0f} rounds/s")
    for stage, what in (
        ("read", "read (logs to records, action rows)"),
        ("replay", "replay (play_records)"),
        ("tables", "tables (4 built, Parquet encoded)"),
    ):
        share = 100 * seconds[stage] / best
        rec.print(f"   {what:<37}{n / seconds[stage]:9,.0f} rounds/s ({share:.0f}% of it)")
    rec.print(
        f"   moves {rows['moves']:,} rows, problems {rows['problems']}; "
        f"{sum(len(d) for d in result.tables.values()) / n:,.0f} bytes of Parquet a round"
    )


def command(folder: Path, tmp: Path, rec, workers: tuple[int, ...]) -> None:
    tichusim = Path(sys.executable).with_name("tichusim")
    rec.print("\n3. `tichusim import` end to end (a subprocess: start-up, loading, files written)")
    for n in workers:
        out = tmp / f"out{n}"
        shutil.rmtree(out, ignore_errors=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        done = subprocess.run(
            [str(tichusim), "import", str(folder), "--out", str(out), "--workers", str(n)],
            capture_output=True,
            text=True,
            check=True,
        )
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        said = done.stdout.strip().splitlines()[-1]
        rounds = int(said.split()[0].replace(",", ""))
        rec.print(
            f"   --workers {n}: {wall:6.1f} s wall ({rounds / wall:,.0f} rounds/s), "
            f"{cpu:6.1f} CPU-s in all ({rounds / cpu:,.0f} rounds/CPU-s)"
        )
        rec.print(f"     it says: {said}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sample", type=int, default=60, help="rounds through Round.from_record")
    ap.add_argument("--only", choices=("before", "shard", "command"), action="append")
    ap.add_argument("--workers", default="1,2", help="the command's --workers, each measured")
    ap.add_argument("--tree", type=Path, help="measure 'before' with this checkout's code")
    ap.add_argument("--label", help="with --tree: the section's name (default: the folder)")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from results_page import Recorder, add_arguments

    add_arguments(ap)
    args = ap.parse_args()
    title, trees = "bench_import.py", (ROOT,)
    if args.tree is not None:  # another tree's figures, in a section of their own
        sys.path.insert(0, str(args.tree))
        title, trees = f"bench_import.py: {args.label or args.tree}", (args.tree,)
    parts = args.only or ["before", "shard", "command"]
    rec = Recorder(title, args.results, trees=trees)
    rec.print(
        f"{args.files:,} files (copies of the {len(LOGS)} real logs in tests/data/bsw), "
        f"{os.cpu_count()} cores; rates in rounds per CPU-second of one process unless said"
    )
    if args.tree is not None:
        import tichusim

        rec.print(f"the code measured: {Path(tichusim.__file__).parent}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "logs"
        paths = copies(folder, args.files)
        if "before" in parts:
            before(paths, args.repeat, args.sample, rec)
        if "shard" in parts:
            shard(paths, args.repeat, rec)
        if "command" in parts:
            command(folder, Path(tmp), rec, tuple(int(w) for w in args.workers.split(",")))
    rec.save()


if __name__ == "__main__":
    main()
