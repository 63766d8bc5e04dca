"""Build the kernel pack (``tichusim/kernel_pack/``): every kernel compiled ahead of time for
this checkout's kernel sources, this Python and this CPU (``tichusim/_compile/pack.py``).

Run it after any change to a kernel or to ``tichusim/_compile/`` (``tests/compile/
test_pack.py`` fails until the pack fits the sources again), on the machine class the pack is
for, and commit the new pack in place of the old:

    python scripts/build_kernel_pack.py

It compiles every kernel with ``tichusim warmup`` into an empty cache folder, the pack
switched off (about three minutes of CPU on two cores), and archives that folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tichusim._compile import pack

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, TICHUSIM_CACHE_DIR=tmp, **{pack.SWITCH: "0"})
        subprocess.run(
            [sys.executable, "-m", "tichusim.cli", "warmup"], cwd=ROOT, env=env, check=True
        )
        cpu = pack.host_cpu()
        archive = pack.build(Path(tmp), cpu)
    print(f"{archive.relative_to(ROOT)}: {archive.stat().st_size / 1e6:.1f} MB, CPU {cpu[1]}")


if __name__ == "__main__":
    main()
