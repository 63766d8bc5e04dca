"""After installing: ``warmup`` (compile and cache every kernel) and ``doctor`` (versions,
the kernel cache, the compile changes in effect)."""

from __future__ import annotations

import sys

import click

from .. import __version__
from .group import main


@main.command()
@click.option(
    "--jobs",
    type=click.IntRange(1),
    default=None,
    help="compile the engines (one per team game, and Grand Seigneur's) in this "
    "many processes at once [default: 2 on a machine with 2 cores or more]",
)
@click.option("--host", is_flag=True, help="compile for this CPU, not load the kernel pack's")
def warmup(jobs, host):
    """Compile and cache every kernel once (run after installing): one line per kernel
    family, with the seconds it took (a family already cached loads in a second or so)."""
    from ..warmup import DEFAULT_JOBS
    from ..warmup import warmup as compile_all

    jobs = jobs or DEFAULT_JOBS
    click.echo(f"tichusim: compiling every kernel family, {jobs} at a time", err=True)

    def report(name, what, seconds):
        click.echo(f"  {name:<9} {seconds:6.1f} s  {what}", err=True)

    seconds = compile_all(jobs, report, host)
    click.echo(f"kernels compiled and cached in {seconds:.1f} s")


@main.command("doctor")
def doctor_cmd():
    """Versions, the kernel cache, and which of tichusim's numba compile changes are on here
    (each applies to tichusim's own kernels only: docs/compile.md)."""
    import importlib.metadata
    import platform

    from .._compile import frame_stack
    from .._compile import pack as kernel_pack
    from .._compile.cache import cache_dir
    from .._compile.guard import CHANGES, CHECKED, checked_versions, status

    rows = [
        ("tichusim", __version__),
        ("python", f"{platform.python_version()} ({sys.platform} {platform.machine()})"),
    ]
    for package, (version, checked) in checked_versions().items():
        rows.append(
            (
                package,
                version if checked else f"{version} (changes checked on {CHECKED[package]}.x only)",
            )
        )
    rows.append(("numpy", importlib.metadata.version("numpy")))
    folder = cache_dir()
    kernels = sum(1 for _ in folder.rglob("*.nbi")) if folder.is_dir() else 0
    rows.append(("kernel cache", f"{folder} ({kernels} kernels cached)"))
    rows.append(("kernel pack", kernel_pack.describe(kernel_pack.host_cpu())))
    for name, state in status().items():
        rows.append((f"change: {name}", f"{state} [{CHANGES[name].switch}] {CHANGES[name].what}"))
    frame = (
        "on"
        if frame_stack.installed()
        else "off: TICHUSIM_FRAME_STACK_CACHE=0 or not CPython 3.11-3.13 on Linux"
    )
    rows.append(
        (
            "change: frame-stack",
            f"{frame} [TICHUSIM_FRAME_STACK_CACHE] CPython's arena "
            "allocator keeps a freed frame-stack chunk (tichusim's own processes only)",
        )
    )
    for what, value in rows:
        click.echo(f"{what:<20} {value}")
