"""tichusim serve's Play tab under use, on loopback only: the server started in its own process
on a free port, played by scripted clients through the JSON API as the page plays it (each
answer the first legal option; the passing, the hand's first cards), timed from this client.

* warm-up: one round played and one hint asked (the stepping and rollout kernels compiled
  or loaded);
* a bot's answer: the time from the player's answer sent to the next state back, the bots'
  moves played in between (median, 95th percentile, most), at one table alone and with all
  the tables at once, and the bots' moves it held;
* ``--tables`` tables played at once, each by its own client thread for ``--rounds`` rounds:
  rounds played, tables whose score the library gives again from the table's record
  (``TableGame.from_dict``: none lost), the wall time;
* the server's memory: RSS before, after the tables and once they are closed, and its peak;
* hints for a play at the default effort (advise, 2,000 deals): at each table, once the
  tables are done, the next play with 5 options or more (median, most), and the server's
  CPU seconds for each (what the machine's load does not change);
* the machine's load average at the end (a shared machine: the figures move with it).

    python benchmarks/bench_play.py [--tables 8] [--rounds 20] [--hints 5]

Needs the web extra. Prints a Markdown table; docs/serve.md and results/performance.md hold the
figures.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

from tichusim.games.tablegame import TableGame


def call(url: str, method: str = "GET", body: dict | None = None) -> tuple[int, dict, float]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=600) as r:
            status, out = r.status, json.load(r)
    except urllib.error.HTTPError as exc:
        status, out = exc.code, json.load(exc)
    return status, out, time.perf_counter() - t0


def rss_mb(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of ``pid`` in MB."""
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0]) / 1024
    return fields["VmRSS"], fields["VmHWM"]


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of ``pid`` so far (all its threads)."""
    import os

    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def first_choice(state: dict):
    d = state["decision"]
    return state["round"]["hand"][: len(d["receivers"])] if d["kind"] == "pass" else 0


class Client:
    """One scripted player at one table: answers until ``rounds`` rounds are played."""

    def __init__(self, url: str, seed: int, rounds: int):
        self.url, self.seed, self.rounds = url, seed, rounds
        self.times: list[float] = []  # seconds per answer
        self.moves: list[int] = []  # the bots' events between two answers
        self.state: dict = {}
        self.error: str | None = None
        self.first_plays: list[dict] = []  # a state at each round's first play decision

    def run(self) -> None:
        try:
            status, state, _ = call(
                f"{self.url}api/play", "POST", {"seed": self.seed, "target": 10_000}
            )
            assert status == 201, state
            table = state["table"]
            seen_round = 0
            while len(state["rounds"]) < self.rounds and state["decision"]:
                r = state["round"]
                if state["decision"]["kind"] == "play" and r["round"] != seen_round:
                    seen_round = r["round"]
                    self.first_plays.append(state)
                before = len(r["events"])
                status, new, seconds = call(
                    f"{self.url}api/play/{table}/act",
                    "POST",
                    {"step": state["step"], "choice": first_choice(state)},
                )
                assert status == 200, new
                self.times.append(seconds)
                after = new["round"]["events"] if new["round"] else []
                same = new["round"] and new["round"]["round"] == r["round"]
                self.moves.append(len(after) - before if same else len(after))
                state = new
            self.state = state
        except Exception as exc:  # noqa: BLE001 - said in the table of figures
            self.error = f"{type(exc).__name__}: {exc}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--hints", type=int, default=5)
    args = parser.parse_args()
    if not 1 <= args.tables <= 16:
        sys.exit("bench_play: --tables: 1..16 (the server's default bound)")

    proc = subprocess.Popen(
        [sys.executable, "-m", "tichusim.cli", "serve", "--port", "0", "--table-deals", "0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    rows: list[tuple[str, str]] = []
    try:
        line = proc.stderr.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if not match:
            sys.exit(f"bench_play: the server did not start: {line.strip()}")
        url = match.group(0)
        t0 = time.perf_counter()
        warm = Client(url, 999, 1)
        warm.run()
        assert warm.error is None, warm.error
        first = warm.first_plays[0]  # a hint too: the rollouts' kernels loaded
        status, state, _ = call(f"{url}api/play", "POST", {"resume": first["record"]})
        status, job, _ = call(f"{url}api/play/{state['table']}/hint?wait=1", "POST", {})
        assert status == 200, job
        call(f"{url}api/play/{state['table']}", "DELETE")
        rows.append(
            (
                "warm-up: one round played, one hint (kernels loaded)",
                f"{time.perf_counter() - t0:.1f} s",
            )
        )
        call(f"{url}api/play/{warm.state['table']}", "DELETE")
        alone = Client(url, 998, 3)
        alone.run()
        assert alone.error is None, alone.error
        call(f"{url}api/play/{alone.state['table']}", "DELETE")
        times = sorted(alone.times)
        rows.append(
            (
                "one table alone, 3 rounds: a bot's answer, median / p95 / most",
                f"{1000 * statistics.median(times):.0f} / "
                f"{1000 * times[int(0.95 * len(times))]:.0f} / {1000 * times[-1]:.0f} ms",
            )
        )
        before = rss_mb(proc.pid)

        clients = [Client(url, 1000 + i, args.rounds) for i in range(args.tables)]
        threads = [threading.Thread(target=c.run) for c in clients]
        t1 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t1
        during = rss_mb(proc.pid)
        failed = [c.error for c in clients if c.error]
        played = sum(len(c.state.get("rounds", [])) for c in clients)
        kept = 0
        for c in clients:  # none lost: the library gives the table's rounds again
            if c.error:
                continue
            status, state, _ = call(f"{url}api/play/{c.state['table']}")
            game = TableGame.from_dict(state["record"])
            if status == 200 and [list(r.score) for r in game.rounds] == [
                r["score"] for r in state["rounds"]
            ]:
                kept += 1
        times = sorted(t for c in clients for t in c.times)
        moves = [m for c in clients for m in c.moves]
        answers = len(times)
        rows += [
            (
                f"{args.tables} tables at once, {args.rounds} rounds each: rounds played",
                f"{played} of {args.tables * args.rounds}"
                + (f" (errors: {failed})" if failed else ""),
            ),
            (
                "tables whose rounds the library plays again from their record",
                f"{kept} of {args.tables}",
            ),
            (
                "wall time, all tables",
                f"{wall:.1f} s ({answers:,} answers, {played / wall:.2f} rounds/s)",
            ),
            (
                "a bot's answer: the player's answer to the next state, median / p95 / most",
                f"{1000 * statistics.median(times):.0f} / "
                f"{1000 * times[int(0.95 * answers)]:.0f} / {1000 * times[-1]:.0f} ms",
            ),
            (
                "events between two answers (the bots' moves, tricks, outs), mean",
                f"{statistics.mean(moves):.1f}",
            ),
            (
                "server RSS before the tables / with them / peak",
                f"{before[0]:.0f} / {during[0]:.0f} / {during[1]:.0f} MB",
            ),
        ]
        hints = []
        for c in clients:
            if len(hints) >= args.hints or c.error:
                continue
            state = c.state
            if not state["decision"]:
                continue
            # play the table on to a play of 5 options or more, then ask the hint there
            for _ in range(400):
                d = state["decision"]
                if not d or (d["kind"] == "play" and len(d["options"]) >= 5):
                    break
                _, state, _ = call(
                    f"{url}api/play/{state['table']}/act",
                    "POST",
                    {"step": state["step"], "choice": first_choice(state)},
                )
            if not state["decision"]:
                continue
            cpu = cpu_seconds(proc.pid)
            status, job, seconds = call(f"{url}api/play/{state['table']}/hint?wait=1", "POST", {})
            assert status == 200, job
            cpu = cpu_seconds(proc.pid) - cpu
            hints.append((seconds, job["result"]["samples"], len(job["result"]["plays"]), cpu))
        if hints:
            secs = sorted(h[0] for h in hints)
            rows.append(
                (
                    f"a hint for a play (advise, {hints[0][1]:,} deals), median / most of "
                    f"{len(hints)}",
                    f"{statistics.median(secs):.2f} / {secs[-1]:.2f} s "
                    f"({', '.join(str(h[2]) for h in hints)} plays ranked)",
                )
            )
            rows.append(
                (
                    "the server's CPU seconds per hint (all its threads), each",
                    ", ".join(f"{h[3]:.2f}" for h in hints),
                )
            )
        for c in clients:
            if c.state:
                call(f"{url}api/play/{c.state['table']}", "DELETE")
        time.sleep(1)
        after = rss_mb(proc.pid)
        _, info, _ = call(f"{url}api/info")
        rows.append(
            ("server RSS once the tables are closed / peak", f"{after[0]:.0f} / {after[1]:.0f} MB")
        )
        rows.append(
            ("tables open at the end", f"{info['play']['open']} (at most {info['play']['most']})")
        )
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            rest = proc.communicate(timeout=120)[1]
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
        rows.append(("exit status, traceback", f"{proc.returncode}, {'Traceback' in rest}"))
        with open("/proc/loadavg") as f:
            rows.append(("the machine's load average (1, 5, 15 min) at the end", f.read()[:14]))
    print("| measure | value |\n|---|---|")
    for what, value in rows:
        print(f"| {what} | {value} |")


if __name__ == "__main__":
    main()
