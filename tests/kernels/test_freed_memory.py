"""Kernels never read memory numba has already freed.

A record view (``work[0]``) keeps no reference to its array, and numba frees an array right
after its last use; a kernel whose last use of an array was indexing a record out of it went
on with freed memory. It read the right bytes by luck until malloc handed the pages back to
the system (``MALLOC_TRIM_THRESHOLD_``, which the in-process Dask tests leave set): then the
transcripts segfaulted. Here every golden transcript is replayed in a process whose malloc
returns freed memory at once and fills it with junk (``MALLOC_PERTURB_``), so a read of freed
memory crashes or changes a transcript."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

REPLAY = """
import importlib.util, sys
from pathlib import Path

def load(name):
    spec = importlib.util.spec_from_file_location(name, Path("scripts") / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

four, seigneur = load("regen_golden"), load("regen_seigneur_golden")
cases = [(four.name(*c), lambda c=c: four.variant_transcript("nanjing", *c)) for c in four.CASES]
cases += [(four.variant_name(*c), lambda c=c: four.variant_transcript(*c))
          for c in four.VARIANT_CASES]
cases += [(seigneur.name(*c), lambda c=c: seigneur.render(*c)) for c in seigneur.CASES]
for name, render in cases:
    for _ in range(3):  # freed pages are reused by later calls
        assert render() == (four.GOLDEN / name).read_text(), name
print(len(cases))
"""


def test_transcripts_survive_malloc_returning_freed_memory():
    env = os.environ | {"MALLOC_TRIM_THRESHOLD_": "0", "MALLOC_PERTURB_": "165"}
    done = subprocess.run(
        [sys.executable, "-c", REPLAY],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-1500:])
    assert int(done.stdout) >= 14
