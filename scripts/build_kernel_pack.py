"""Build the kernel pack (``tichusim/kernel_pack/``): every kernel compiled ahead of time for
this checkout's kernel sources, for each portable level of this architecture the machine can
run (x86-64-v3, and x86-64-v4 on an AVX-512 machine), for this Python
(``tichusim/_compile/pack.py``, ``docs/compile.md``).

    python scripts/build_kernel_pack.py              # every level this machine runs
    python scripts/build_kernel_pack.py --add        # beside the pack's other targets
    python scripts/build_kernel_pack.py --level x86-64-v3

The pack is rebuilt when an issue is resolved (a stale pack is ignored, with a warning, until
then: kernels compile on first use). Each level compiles in its own subprocesses: ``tichusim
warmup`` into an empty folder, numba's ``NUMBA_CPU_NAME`` and ``NUMBA_CPU_FEATURES`` set to the
level and the pack switched off there (about four minutes of CPU a level on two cores), then
the folder made ready to pack (``pack.slim``) in a process like it. The settings never reach
this process nor a user's. ``--add`` keeps the targets of the pack already there (the same
kernel sources) that this run does not build: how a pack for another Python, or another
architecture, joins this one (run it there with that Python, then commit the pack).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tichusim._compile import pack

ROOT = Path(__file__).resolve().parents[1]

_SLIM = """
import json, sys
from pathlib import Path
from tichusim._compile import pack
pack.slim(Path(sys.argv[1]))
print(json.dumps(pack.host_cpu()))
"""


def build_level(level: str, folder: Path) -> tuple:
    """Compile every kernel for ``level`` into ``folder`` and make it ready to pack; the magic
    tuple its kernels were built with."""
    host = pack.host_cpu()
    cpu = pack.level_cpu(host[0], level)
    env = dict(
        os.environ,
        TICHUSIM_CACHE_DIR=str(folder),
        NUMBA_CPU_NAME=cpu[1],
        NUMBA_CPU_FEATURES=cpu[2],
        **{pack.SWITCH: "0"},
    )
    run = {"cwd": ROOT, "env": env, "check": True}
    subprocess.run([sys.executable, "-m", "tichusim.cli", "warmup"], **run)  # type: ignore[call-overload]
    done = subprocess.run(
        [sys.executable, "-c", _SLIM, str(folder)], capture_output=True, text=True, **run
    )  # type: ignore[call-overload]
    built = tuple(json.loads(done.stdout.strip().splitlines()[-1]))
    if built != cpu:
        raise SystemExit(f"{level}: numba compiled for {built}, not {cpu}")
    return cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--level",
        action="append",
        help="a level to build (repeatable; default: every level this machine runs)",
    )
    ap.add_argument("--add", action="store_true", help="keep the pack's other targets")
    args = ap.parse_args()
    host = pack.host_cpu()
    arch = host[0].split("-")[0]
    runs = [
        level
        for level, features in pack.LEVELS.get(arch, ())
        if set(features) <= {f[1:] for f in host[2].split(",") if f.startswith("+")}
    ]
    levels = args.level or runs
    if not levels:
        raise SystemExit(f"no level of {arch} that this CPU ({host[1]}) runs: see docs/compile.md")
    levels = sorted(levels, key=[lv for lv, _ in pack.LEVELS[arch]][::-1].index)  # lowest first
    with tempfile.TemporaryDirectory() as tmp:
        targets = []
        for level in levels:
            t0 = time.perf_counter()
            cpu = build_level(level, Path(tmp) / level)
            targets.append((pack.python_tag(), cpu, Path(tmp) / level))
            print(f"{level}: compiled in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        meta = pack.build(targets, merge=args.add)
    size = pack.ARCHIVE.stat().st_size / 1e6
    held = ", ".join(f"{t['python']}/{t['level']}" for t in meta["targets"])
    print(f"{pack.ARCHIVE.relative_to(ROOT)}: {size:.2f} MB, key {meta['key']}: {held}")


if __name__ == "__main__":
    main()
