"""``tichusim._compile.guard``: a compile change whose numba source or version differs from the
checked one is switched off with one warning naming what differs and what it costs; the
hashes recorded are those of the numba installed (the pins in pyproject.toml hold)."""

import subprocess
import sys
import textwrap

import pytest

from tichusim._compile import guard


@pytest.mark.parametrize("name", sorted(guard.CHANGES))
def test_the_recorded_hashes_are_the_installed_numbas(name):
    for where, digest in guard.CHANGES[name].relies_on.items():
        assert guard.source_hash(where) == digest, where


def test_the_installed_versions_are_the_checked_ones():
    assert all(checked for _, checked in guard.checked_versions().values())


def _kernels_with(tamper: str) -> subprocess.CompletedProcess:
    script = textwrap.dedent(f"""
        import dataclasses
        from tichusim._compile import guard
        {tamper}
        from tichusim.kernels import jit
        from tichusim._compile import inliner
        print(jit._PIPELINE is None, inliner.installed(), sorted(guard.status().items()))
    """)
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )


def test_a_changed_numba_function_switches_its_change_off_with_one_warning():
    where = "numba.core.codegen:CPUCodeLibrary._optimize_final_module"
    tamper = (
        f"c = guard.CHANGES['linkage']; guard.CHANGES['linkage'] = dataclasses.replace("
        f"c, relies_on=c.relies_on | {{{where!r}: '0' * 16}})"
    )
    done = _kernels_with(tamper)
    warnings = [line for line in done.stderr.splitlines() if "NumbaChangeWarning" in line]
    assert len(warnings) == 1 and "'linkage'" in warnings[0] and where in warnings[0]
    assert "slower" in warnings[0]  # what it costs
    assert done.stdout.startswith("True True")  # numba's own pipeline; the inliner still on
    assert "off: numba's " + where in done.stdout and "('literals', 'on')" in done.stdout


def test_an_unchecked_numba_version_switches_every_change_off():
    done = _kernels_with("guard.CHECKED['numba'] = '0.1'")
    assert done.stdout.startswith("True False")
    assert done.stderr.count("NumbaChangeWarning") == 3
    assert "not checked on numba" in done.stderr


def test_a_switch_turns_a_change_off_silently():
    script = "from tichusim.kernels import jit; print(jit._PIPELINE is None)"
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env={"TICHUSIM_OWN_CALLEES": "0"},
    )
    assert done.stdout.strip() == "True" and "Warning" not in done.stderr
