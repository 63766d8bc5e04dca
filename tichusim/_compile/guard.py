"""Whether each of our compile changes may run here: its switch, the numba and llvmlite versions
it was checked on, and the source of every numba function it extends or stands in for.

The changes (``inliner``, ``literals``, ``linkage``) rest on numba internals that a numba
release may change without notice. Each names the functions it relies on, with a hash of their
source as of the checked versions; a change whose versions or hashes differ is switched off
with one ``NumbaChangeWarning`` (on stderr unless filtered) that names what differs and what
switching it off costs, so a changed numba is never silently slower and never runs a change
against code it was not checked on. ``TICHUSIM_NUMBA_CHANGES=0`` switches all of them off;
each has its own switch too.
``status()`` is what ``tichusim doctor`` prints.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import inspect
import os
import warnings
from dataclasses import dataclass

__all__ = [
    "CHANGES",
    "Change",
    "NumbaChangeWarning",
    "checked_versions",
    "source_hash",
    "status",
    "usable",
]

# the releases every change was checked on (the pins in pyproject.toml)
CHECKED = {"numba": "0.68", "llvmlite": "0.50"}
ALL_OFF = "TICHUSIM_NUMBA_CHANGES"


@dataclass(frozen=True)
class Change:
    name: str
    switch: str
    what: str  # one line: what it changes, in our kernels' compiles only
    cost: str  # what switching it off costs
    relies_on: dict[str, str]  # "module:Qual.name" -> sha256 (first 16 hex digits) of its source


CHANGES = {
    c.name: c
    for c in (
        Change(
            "inliner",
            "TICHUSIM_NUMBA_INLINER",
            "inlining into our kernels skips numba's two deep copies of each inlined function",
            "cold compiles of the engines take about a third longer",
            {
                "numba.core.inline_closurecall:InlineWorker.inline_function": "1b53f183258e659d",
                "numba.core.inline_closurecall:InlineWorker.inline_ir": "26fd2b7600c9d929",
            },
        ),
        Change(
            "literals",
            "TICHUSIM_PLAIN_CALLS",
            "our kernels compile once per argument types, not once per constant their callers pass",
            "cold compiles take longer (kernels compiled again for each set of constants)",
            {
                "numba.core.types.functions:Dispatcher.get_call_type": "ae1ef289d128e138",
                "numba.core.dispatcher:Dispatcher._numba_type_": "4f60155facfbd3f2",
            },
        ),
        Change(
            "linkage",
            "TICHUSIM_OWN_CALLEES",
            "our entry points optimise their callees as their own; callees get no wrapper and "
            "no machine code of their own",
            "every table plays slower and cold compiles take longer",
            {
                "numba.core.codegen:CPUCodeLibrary._optimize_final_module": "e405bd473752613b",
                "numba.core.codegen:CPUCodeLibrary._finalize_final_module": "95bbf4fcbb90ed99",
                "numba.core.codegen:CPUCodeLibrary._get_module_for_linking": "56dde0e0555b5ec8",
                "numba.core.codegen:CPUCodeLibrary.serialize_using_object_code": "a895c26d01bad670",
                "numba.core.typed_passes:BaseNativeLowering.run_pass": "0b482df4865451f4",
                "numba.core.dispatcher:Dispatcher.add_overload": "3cd1a51507868539",
                "numba.core.dispatcher:_DispatcherBase._compile_for_args": "6fe2b0f0f701524e",
                "numba.core.dispatcher:Dispatcher.compile": "0ab4aee15e79bb1d",
                "numba.core.compiler:CompileResult._rebuild": "44fa9dc2255883ab",
                "numba.core.caching:Cache.load_overload": "49a98e578d710b9b",
                "numba.core.caching:Cache.save_overload": "ce07b8d21537e299",
                "numba.core.cpu:CPUContext.get_executable": "3892c8a654a2ca69",
            },
        ),
    )
}


class NumbaChangeWarning(RuntimeWarning):
    """A compile change that was meant to run is switched off: our kernels compile as numba's."""


_verdicts: dict[str, tuple[bool, str]] = {}


def checked_versions() -> dict[str, tuple[str, bool]]:
    """Each pinned package's installed version, and whether it is one the changes were
    checked on (read from the installed metadata: numba is not imported)."""
    out = {}
    for package, release in CHECKED.items():
        installed = importlib.metadata.version(package)
        out[package] = (installed, ".".join(installed.split(".")[:2]) == release)
    return out


def _resolve(where: str):
    module, qualname = where.split(":")
    obj = importlib.import_module(module)
    for part in qualname.split("."):
        obj = inspect.getattr_static(obj, part)
    if isinstance(obj, (classmethod, staticmethod)):
        obj = obj.__func__
    if isinstance(obj, property):
        obj = obj.fget
    return inspect.unwrap(obj)  # numba's own function where one of ours wraps it


def source_hash(where: str) -> str:
    """The first 16 hex digits of the sha256 of a numba function's source (``module:Qual.name``)."""
    return hashlib.sha256(inspect.getsource(_resolve(where)).encode()).hexdigest()[:16]


def _verdict(change: Change) -> tuple[bool, str]:
    if os.environ.get(ALL_OFF, "1") == "0":
        return False, f"off: {ALL_OFF}=0"
    if os.environ.get(change.switch, "1") == "0":
        return False, f"off: {change.switch}=0"
    versions = checked_versions()
    off = [f"{p} {v} (checked: {CHECKED[p]}.x)" for p, (v, ok) in versions.items() if not ok]
    if off:
        return False, f"off: not checked on {', '.join(off)}"
    changed = [where for where, digest in change.relies_on.items() if source_hash(where) != digest]
    if changed:
        return False, f"off: numba's {', '.join(changed)} is not the source it was checked on"
    return True, "on"


def usable(name: str) -> bool:
    """Whether the change may run in this process (decided once); a change that was meant to
    run but cannot warns once, on stderr."""
    if name not in _verdicts:
        change = CHANGES[name]
        on, why = _verdicts[name] = _verdict(change)
        if not on and "=0" not in why:
            warnings.warn(
                f"tichusim's numba change '{name}' is switched off "
                f"({why.removeprefix('off: ')}): {change.cost}; see docs/compile.md",
                NumbaChangeWarning,
                stacklevel=2,
            )
    return _verdicts[name][0]


def status() -> dict[str, str]:
    """Each change's state as ``usable`` decides it: "on", or "off: <why>"."""
    for name in CHANGES:
        usable(name)
    return {name: _verdicts[name][1] for name in CHANGES}
