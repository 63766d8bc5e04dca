"""Where a cold compile goes: seconds per kernel, against a budget per kernel.

Each workload runs in a fresh process of the tree given (``--tree``, default this
checkout) with an empty kernel cache of its own and the kernel pack switched off (what a
first run pays where no pack fits; ``bench_startup.py`` times it with the pack), and
listens to numba's ``numba:compile`` event: every compile that no other compile encloses (a
kernel Python calls, or one compiled as a module loads) is a line, its seconds those of its
callees' compiles too: CPU seconds of the process (a compile runs on one thread, so its
neighbours' load on a shared machine counts against the wall seconds, printed beside, not
against these), split into LLVM's stages (the IR parsed and its function passes, the module
pipeline, the machine code: numba's code-library methods timed in the measured process) and
the rest, numba's own passes (bytecode to IR, inlining, type inference, lowering to LLVM IR).
The lines are printed against ``BUDGET`` (CPU seconds each): a kernel over its budget is
marked ``OVER``, so a change that grows one is seen. The kernels compiled as their modules
load are summed into one line (``while loading``), the many small ones into another.

    python benchmarks/bench_compile.py                          # both workloads, this tree
    python benchmarks/bench_compile.py --tree /tmp/base --tree .  # two trees, alternately
    python benchmarks/bench_compile.py --only first              # one workload

Workloads:
- ``first``: ``tichusim run configs/quick.toml --rounds 20000`` (expert seats), as
  ``bench_startup.py``'s ``first``;
- ``learned``: ``tichusim simulate --rounds 200 --strategies learned``: the learned policy at
  every seat, the one table that compiles the network.

Figures on a shared machine are noisy: compare trees side by side (``--tree`` twice), and read
the CPU seconds beside the wall seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from results_page import Recorder, add_arguments

ROOT = Path(__file__).resolve().parents[1]

# CPU seconds each kernel's cold compile may take, by workload, about a tenth over what it
# took when set; "while loading": the kernels compiled as ``tichusim.cli`` loads (none now);
# "others": the kernels under ``SMALL`` seconds each, summed
_RULES_CORE = {
    "kernels.combos.combo_readings": 1.0,
    "kernels.moves._gen_full_houses": 1.1,
    "kernels.moves.candidate_moves": 0.8,
    "kernels.moves._leads": 0.8,
    "kernels.moves.legal_moves": 0.7,
    "kernels.moves.lead_moves": 0.6,
    "kernels.hand.plan_size": 0.6,
    "others": 4.7,
}
BUDGET = {
    "first": {"kernels.tichu.batch.play_batch_nanjing": 24.5, **_RULES_CORE},
    "learned": {"kernels.tichu.batch.play_batch_nanjing": 37.0, **_RULES_CORE},
}
SMALL = 0.5
# LLVM's stages, timed inside each compile (the rest of a compile is numba's own passes:
# bytecode to IR, inlining, type inference, lowering to LLVM IR)
STAGES = {
    "ir": "IR and function passes",
    "module": "module pipeline",
    "code": "machine code",
}

WORKLOADS = {
    "first": ["run", "configs/quick.toml", "--rounds", "20000", "--quiet", "--out", "{tmp}/run"],
    "learned": ["simulate", "--rounds", "200", "--strategies", "learned"],
}

# run in the measured process: the workload's command, its top-level compiles timed, and
# within each the CPU seconds of LLVM's three stages (``STAGES``), read by wrapping numba's
# code-library methods in this process only, once ``guard`` has checked their sources (a
# wrapper would read as a changed numba and switch the changes off)
_PROBE = """
import json, resource, sys, time
from numba.core import codegen, event

stack, lines, loading = [], [], [True]
llvm = {"ir": 0.0, "module": 0.0, "code": 0.0}


class Timer(event.Listener):
    def on_start(self, ev):
        stack.append((time.perf_counter(), time.process_time(), dict(llvm)))

    def on_end(self, ev):
        wall, cpu, before = stack.pop()
        if not stack:
            d = ev.data["dispatcher"]
            name = d.py_func.__module__.removeprefix("tichusim.") + "." + d.py_func.__qualname__
            stages = {k: llvm[k] - before[k] for k in llvm}
            lines.append(
                (name, time.perf_counter() - wall, time.process_time() - cpu, loading[0], stages)
            )


def timed(name, stage):
    original = getattr(codegen.CPUCodeLibrary, name)

    def run(self, *args, **kwargs):
        t = time.process_time()
        try:
            return original(self, *args, **kwargs)
        finally:
            llvm[stage] += time.process_time() - t

    setattr(codegen.CPUCodeLibrary, name, run)


event.register("numba:compile", Timer())
t0 = time.perf_counter()
from tichusim._compile import guard  # noqa: E402
for change in guard.CHANGES:  # decided now, on numba's own sources
    guard.usable(change)
timed("add_ir_module", "ir")  # parsing a function's IR, LLVM's function passes
timed("_optimize_final_module", "module")  # LLVM's module pipeline (an entry point's)
timed("_finalize_final_module", "code")  # machine code
import tichusim.cli  # noqa: E402  the modules load: their declared signatures compile
loading[0] = False
from click.testing import CliRunner  # noqa: E402

result = CliRunner().invoke(tichusim.cli.main, sys.argv[1:])
assert result.exit_code == 0, result.output
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"wall": time.perf_counter() - t0, "cpu": usage.ru_utime + usage.ru_stime,
                  "lines": lines}))
"""


def measure(tree: Path, workload: str) -> dict:
    """The workload's compiles in a fresh process of ``tree`` with an empty cache."""
    with tempfile.TemporaryDirectory() as tmp:
        args = [a.format(tmp=tmp) for a in WORKLOADS[workload]]
        env = dict(
            os.environ,
            PYTHONPATH=str(tree),
            PYTHONDONTWRITEBYTECODE="1",
            TICHUSIM_CACHE_DIR=str(Path(tmp) / "cache"),
            NUMBA_CACHE_DIR=str(Path(tmp) / "cache"),
            TICHUSIM_KERNEL_PACK="0",  # the compile itself, not the kernel pack's copy
        )
        done = subprocess.run(
            [sys.executable, "-c", _PROBE, *args],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(seen: dict, budget: dict) -> list[str]:
    """The lines of one measurement against ``budget``."""
    cpu: dict[str, float] = {}
    wall: dict[str, float] = {}
    counts: dict[str, int] = {}
    stages: dict[str, dict[str, float]] = {}
    for name, w, c, loading, llvm in seen["lines"]:
        key = "while loading" if loading else (name if c >= SMALL else "others")
        cpu[key] = cpu.get(key, 0.0) + c
        wall[key] = wall.get(key, 0.0) + w
        counts[key] = counts.get(key, 0) + 1
        into = stages.setdefault(key, dict.fromkeys(STAGES, 0.0))
        for stage, seconds in llvm.items():
            into[stage] += seconds
    total = {s: sum(st[s] for st in stages.values()) for s in STAGES}
    llvm_all = sum(total.values())
    out = [
        f"  whole process: {seen['wall']:.1f} s wall, {seen['cpu']:.1f} s CPU; "
        f"compiles {sum(cpu.values()):.1f} s CPU ({sum(wall.values()):.1f} s wall): numba's "
        f"passes {sum(cpu.values()) - llvm_all:.1f} s, LLVM {llvm_all:.1f} s ("
        + ", ".join(f"{STAGES[s]} {total[s]:.1f}" for s in STAGES)
        + ")"
    ]
    for key in sorted(cpu, key=lambda k: -cpu[k]):
        limit = budget.get(key)
        mark = "" if limit is None else ("ok" if cpu[key] <= limit else "OVER")
        stated = "no budget" if limit is None else f"budget {limit:5.1f} s"
        many = f" ({counts[key]} kernels)" if counts[key] > 1 else ""
        llvm = sum(stages[key].values())
        split = f"numba {cpu[key] - llvm:5.1f} + LLVM {llvm:4.1f}"
        out.append(
            f"  {key + many:<50} {cpu[key]:5.1f} s CPU = {split} ({wall[key]:5.1f} s wall)"
            f"  {stated}  {mark}"
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--tree",
        action="append",
        type=Path,
        help="a checkout to measure (repeat to compare; default: this one)",
    )
    ap.add_argument("--only", default=",".join(WORKLOADS), help="comma-separated workloads")
    add_arguments(ap)
    args = ap.parse_args()
    trees = [t.resolve() for t in (args.tree or [ROOT])]
    parts = [p.strip() for p in args.only.split(",") if p.strip()]
    unknown = [p for p in parts if p not in WORKLOADS]
    if unknown:
        ap.error(f"unknown workload {unknown[0]!r} (known: {', '.join(WORKLOADS)})")
    print(f"machine: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}")
    for part in parts:
        rec = Recorder(f"bench_compile.py: {part}", args.results, trees=trees)
        for tree in trees:  # alternate trees workload by workload: the same moment
            rec.print(f"[{tree}] {part}: {' '.join(WORKLOADS[part])}")
            for line in table(measure(tree, part), BUDGET[part]):
                rec.print(line)
        rec.save()


if __name__ == "__main__":
    main()
