"""tichusim serve under use, on loopback only: the server started in its own process on a free
port, timed from this client as the page sees it (a request sent, its answer back).

* warm-up: from start to the start-up gt-table made (it compiles or loads the Grand Tichu
  kernels);
* the first 8-card answer at 2,000 deals once compiled, then the median of ``--repeat`` more
  (other seeds);
* a pass answer with the default players and deals (the first, which loads its kernels, and
  a second);
* advise on the README's position with the default deals;
* ``--concurrent`` requests at once (8-card answers at 2,000 deals, each its own seed): how many
  were answered, the slowest, and the server's peak RSS (VmHWM) before and after;
* Ctrl-C: seconds from SIGINT to the process gone.

    python benchmarks/bench_serve.py [--concurrent 20] [--table-deals 100000]

Needs the web extra. Prints a Markdown table; docs/serve.md holds the figures.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

HAND8 = "Dr Ph A A K 9 5 3"
HAND14 = "Dog Ma 2j 3s 5p 7t 8j 9s Jp Qt Kj Ks Ph Dr"
POSITION = {
    "hand": "Aj Kj 5t",
    "trick": "1: 9p; 2: pass; 3: Ks",
    "played": ["0=Ma 2j 3j 4j 5j 6j 7j 8j 9j Tj Jj", "1=9s"],
    "taken": ["0=15"],
}


def post(url: str, kind: str, body: dict, timeout: float = 900) -> tuple[int, dict, float]:
    data = json.dumps(body).encode()
    req = urllib.request.Request(
        f"{url}api/{kind}?wait=1", data=data, headers={"Content-Type": "application/json"}
    )
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            status, out = r.status, json.load(r)
    except urllib.error.HTTPError as exc:
        status, out = exc.code, json.load(exc)
    return status, out, time.perf_counter() - t0


def info(url: str) -> dict:
    with urllib.request.urlopen(f"{url}api/info", timeout=30) as r:
        return json.load(r)


def peak_rss_mb(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of ``pid`` in MB."""
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0]) / 1024
    return fields["VmRSS"], fields["VmHWM"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--concurrent", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--table-deals", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if not 1 <= args.concurrent <= 64:
        sys.exit("bench_serve: --concurrent: 1..64 (loopback, bounded)")

    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tichusim.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--workers",
            str(args.workers),
            "--table-deals",
            str(args.table_deals),
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    rows: list[tuple[str, str]] = []
    try:
        line = proc.stderr.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if not match:
            sys.exit(f"bench_serve: the server did not start: {line.strip()}")
        url = match.group(0)
        while not info(url)["gt_table"]["ready"]:
            time.sleep(0.25)
        rows.append(
            (
                f"warm-up: start to gt-table of {args.table_deals:,} deals",
                f"{time.perf_counter() - t0:.1f} s",
            )
        )
        rss = peak_rss_mb(proc.pid)
        rows.append(("RSS after warm-up (now / peak)", f"{rss[0]:.0f} / {rss[1]:.0f} MB"))

        status, out, first = post(url, "gt-odds", {"hand": HAND8, "deals": 2000})
        assert status == 200, out
        rows.append(("first 8-card answer, 2,000 deals", f"{first:.2f} s"))
        more = []
        for seed in range(1, args.repeat + 1):
            status, out, s = post(url, "gt-odds", {"hand": HAND8, "deals": 2000, "seed": seed})
            assert status == 200, out
            more.append(s)
        rows.append(
            (
                f"8-card answer, 2,000 deals, median of {args.repeat}",
                f"{statistics.median(more):.2f} s",
            )
        )

        for label in ("first pass answer", "second pass answer"):
            status, out, s = post(url, "pass-advice", {"hand": HAND14})
            assert status == 200, out
            r = out["result"]
            rows.append(
                (
                    f"{label} (default players, {r['deals']:,} deals, {r['rounds']:,} rounds)",
                    f"{s:.2f} s",
                )
            )
        status, out, s = post(url, "advise", {"position": POSITION})
        assert status == 200, out
        rows.append((f"advise, README position ({out['result']['samples']:,} deals)", f"{s:.2f} s"))

        before = peak_rss_mb(proc.pid)

        def one(seed: int):
            return post(url, "gt-odds", {"hand": HAND8, "deals": 2000, "seed": 1000 + seed})

        t1 = time.perf_counter()
        with ThreadPoolExecutor(args.concurrent) as pool:
            results = list(pool.map(one, range(args.concurrent)))
        wall = time.perf_counter() - t1
        answered = sum(1 for status, out, _ in results if status == 200 and out["state"] == "done")
        after = peak_rss_mb(proc.pid)
        rows.append(
            (
                f"{args.concurrent} concurrent 8-card answers: answered",
                f"{answered} of {args.concurrent}",
            )
        )
        rows.append(
            (
                f"{args.concurrent} concurrent: all answered in / slowest",
                f"{wall:.2f} s / {max(s for _, _, s in results):.2f} s",
            )
        )
        rows.append(
            (
                "server peak RSS before / after the concurrent requests",
                f"{before[1]:.0f} / {after[1]:.0f} MB",
            )
        )
    finally:
        t2 = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        try:
            rest = proc.communicate(timeout=120)[1]
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
        rows.append(("Ctrl-C to the process gone", f"{time.perf_counter() - t2:.2f} s"))
        rows.append(("exit status, traceback", f"{proc.returncode}, {'Traceback' in rest}"))
    print("| measure | value |\n|---|---|")
    for what, value in rows:
        print(f"| {what} | {value} |")


if __name__ == "__main__":
    main()
