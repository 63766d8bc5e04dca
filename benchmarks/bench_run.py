"""Batch-run benchmark: Parquet overhead, end-to-end rounds/s (local and Dask), peak memory.

    python benchmarks/bench_run.py                       # 400k rounds of heuristic
    python benchmarks/bench_run.py --rounds 2000000 --strategies random
    python benchmarks/bench_run.py --memory-rounds 10000000   # the 10-million-round RSS check

1. Parquet overhead: the same shards on as many worker threads, once only simulated (the
   records are dropped) and once through ``tichusim.run`` (tables built, encoded, written,
   fsynced, manifest updated). Also the workers' own split of CPU time from the manifest.
2. End-to-end ``tichusim run`` (the command, in a subprocess: start-up, pool, everything):
   locally with one worker thread per core, and with ``--dask local`` on a 2-worker
   LocalCluster.
3. Peak memory of a ``tichusim run`` subprocess and its workers (resident set sizes summed,
   sampled every 50 ms).
4. Every table end to end (``--variants``): ``tichusim run`` of ``heuristic``
   (``--strategies``) at each variant (RULES.md §2-§5), rounds/s, bytes per round on disk, and
   the rate per card dealt against the 4-player game (the target: within a factor of 2). It
   times ``heuristic``, the default before ``expert``, so that its figures stay comparable with
   those recorded before.

What it prints goes to results/performance.md too (section ``bench_run.py``, with the date,
commit and machine; ``--no-results``: printed only, ``--results PATH``: another page).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from results_page import Recorder, add_arguments  # noqa: E402 (benchmarks/, the script's folder)

from tichusim.runs.config import validate  # noqa: E402 (after the path insert)
from tichusim.runs.runner import run  # noqa: E402


def simulate_only(args):
    """A worker's shard without the tables: the baseline of the overhead measurement."""
    import numba

    from tichusim.games import game

    count, first, seed, strategies = args
    numba.set_num_threads(1)
    game().records(count, seed=seed, strategies=strategies, first=first)
    return count


def overhead(rounds: int, strategies: str, workers: int, tmp: Path) -> list[dict]:
    """Wall time of the same shards simulated only vs through ``run``: on worker threads (a
    new pool each, as ``run`` makes) and in this process alone, kernels loaded before both."""
    from tichusim.games import game

    config = validate({"rounds": rounds, "seed": 1, "strategies": strategies})
    shards = [
        (config.shard_span(i)[1], config.shard_span(i)[0], 1, strategies)
        for i in range(config.n_shards)
    ]
    out = []
    game().records(100, strategies=strategies)  # kernels loaded before timing both
    for label, n in ((f"{workers} worker threads", workers), ("this process", 1)):
        t0 = time.perf_counter()
        if n > 1:
            with cf.ThreadPoolExecutor(n) as pool:
                list(pool.map(simulate_only, shards))
        else:
            for count, first, seed, strat in shards:
                game().records(count, seed=seed, strategies=strat, first=first)
        bare = time.perf_counter() - t0
        t0 = time.perf_counter()
        run(config, out=tmp / "ovh", workers=n, progress=False)
        full = time.perf_counter() - t0
        manifest = json.loads((tmp / "ovh" / "manifest.json").read_text())
        cpu = {
            k: sum(s["seconds"][k] for s in manifest["shards"])
            for k in ("simulate", "encode", "write")
        }
        size = sum(f["bytes"] for s in manifest["shards"] for f in s["files"].values())
        shutil.rmtree(tmp / "ovh")
        out.append({"label": label, "bare_s": bare, "run_s": full, "cpu": cpu, "bytes": size})
    return out


class PeakRSS:
    """Samples the summed RSS of a process and its children until stopped."""

    def __init__(self, pid: int):
        self.proc, self.peak, self.peak_main = psutil.Process(pid), 0, 0
        self.running = True
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _sample(self):
        while self.running:
            try:
                procs = [self.proc, *self.proc.children(recursive=True)]
                rss = [p.memory_info().rss for p in procs]
            except psutil.Error:
                continue
            self.peak = max(self.peak, sum(rss))
            self.peak_main = max(self.peak_main, rss[0])
            time.sleep(0.05)

    def stop(self):
        self.running = False
        self.thread.join()


def end_to_end(config_text: str, tmp: Path, *extra: str) -> dict:
    cfg = tmp / "bench.toml"
    cfg.write_text(config_text)
    out = tmp / "e2e"
    shutil.rmtree(out, ignore_errors=True)
    cmd = [
        sys.executable,
        "-m",
        "tichusim.cli",
        "run",
        str(cfg),
        "--out",
        str(out),
        "--quiet",
        *extra,
    ]
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env)
    rss = PeakRSS(proc.pid)
    code = proc.wait()
    seconds = time.perf_counter() - t0
    rss.stop()
    if code != 0:
        raise SystemExit(f"tichusim run failed ({code})")
    manifest = json.loads((out / "manifest.json").read_text())
    rounds = sum(s["rows"]["rounds"] for s in manifest["shards"])
    size = sum(f["bytes"] for s in manifest["shards"] for f in s["files"].values())
    inside = manifest["sessions"][-1]["seconds"]
    shutil.rmtree(out)
    return {
        "seconds": seconds,
        "inside": inside,
        "rounds": rounds,
        "peak_rss": rss.peak,
        "peak_rss_main": rss.peak_main,
        "backend": manifest["sessions"][-1]["backend"],
        "bytes": size,
    }


# cards dealt per round at each table: the whole deck (Grand Seigneur: 55 with one deck, 109
# with two, RULES.md §5)
CARDS = {"nanjing": 56, "tientsin": 56, "wuwang": 56}


def variant_config(spec: str, rounds: int, strategies: str) -> tuple[str, int]:
    """A run config for ``variant`` or ``grand-seigneur:PLAYERS``, and its cards per round."""
    variant, _, players = spec.partition(":")
    text = f'variant = "{variant}"\nrounds = {rounds}\nseed = 1\nstrategies = "{strategies}"\n'
    if variant == "grand-seigneur":
        players = int(players or 8)
        return text + f"players = {players}\n", 55 if players <= 6 else 109
    return text, CARDS[variant]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=400_000)
    ap.add_argument("--strategies", default="heuristic")
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    ap.add_argument(
        "--memory-rounds",
        type=int,
        default=0,
        help="also run this many rounds to measure peak memory (e.g. 10000000)",
    )
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument(
        "--variants",
        default="nanjing,tientsin,wuwang,grand-seigneur:5,grand-seigneur:8,grand-seigneur:12",
        help="tables for part 4 (grand-seigneur:N for N players); empty: skip",
    )
    ap.add_argument("--variant-rounds", type=int, default=200_000)
    add_arguments(ap)
    args = ap.parse_args()
    rec = Recorder("bench_run.py", args.results)
    config = f'rounds = {args.rounds}\nseed = 1\nstrategies = "{args.strategies}"\n'
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        rec.print(
            f"{args.rounds:,} rounds, strategies {args.strategies}, {args.workers} workers, "
            f"{os.cpu_count()} cores"
        )
        rec.print(
            "\n1. Parquet overhead: the same shards simulated only, then through tichusim.run"
        )
        for o in overhead(args.rounds, args.strategies, args.workers, tmp):
            cpu = o["cpu"]
            rec.print(
                f"   {o['label']}: simulate only {o['bare_s']:.2f} s "
                f"({args.rounds / o['bare_s']:,.0f} rounds/s), run {o['run_s']:.2f} s "
                f"({args.rounds / o['run_s']:,.0f} rounds/s): "
                f"overhead {100 * (o['run_s'] / o['bare_s'] - 1):+.1f}%"
            )
            rec.print(
                f"     in the shards: simulate {cpu['simulate']:.2f} s, tables + Parquet "
                f"{cpu['encode']:.2f} s ({100 * cpu['encode'] / cpu['simulate']:.1f}%), "
                f"write + fsync {cpu['write']:.2f} s; {o['bytes'] / args.rounds:.0f} bytes "
                "per round on disk"
            )
        runs = [("local", ())]
        if not args.no_dask:
            runs.append(("dask LocalCluster", ("--dask", "local", "--workers", "2")))
        rec.print("\n2. End-to-end `tichusim run` (wall time of the command, start-up included):")
        for label, extra in runs:
            e = end_to_end(config, tmp, *extra)
            rec.print(
                f"   {label:<18} {e['seconds']:7.2f} s  "
                f"{e['rounds'] / e['seconds']:>10,.0f} rounds/s"
                f"   (inside run(): {e['rounds'] / e['inside']:,.0f} rounds/s; {e['backend']};"
                f" peak RSS {e['peak_rss'] / 2**20:,.0f} MiB)"
            )
        if args.variants:
            rec.print(
                f"\n4. Every table, `tichusim run` of {args.variant_rounds:,} rounds of "
                f"{args.strategies}, local workers:"
            )
            base = None
            specs = args.variants.split(",")
            for spec in specs:
                text, cards = variant_config(spec, args.variant_rounds, args.strategies)
                e = end_to_end(text, tmp)
                rate = e["rounds"] / e["seconds"]
                base = base or rate * cards
                rec.print(
                    f"   {spec:<18} {rate:>9,.0f} rounds/s  {e['bytes'] / e['rounds']:6.0f} "
                    f"bytes/round  per card dealt {rate * cards / base:.2f} x {specs[0]}  "
                    f"(peak RSS {e['peak_rss'] / 2**20:,.0f} MiB)"
                )
        if args.memory_rounds:
            text = f'rounds = {args.memory_rounds}\nseed = 1\nstrategies = "{args.strategies}"\n'
            e = end_to_end(text, tmp)
            rec.print(
                f"\n3. {args.memory_rounds:,} rounds: {e['seconds']:.1f} s "
                f"({e['rounds'] / e['seconds']:,.0f} rounds/s), "
                f"peak RSS {e['peak_rss'] / 2**20:,.0f} MiB "
                f"summed over all processes ({e['peak_rss_main'] / 2**20:,.0f} MiB the main one)"
            )
    rec.save()


if __name__ == "__main__":
    main()
