"""A one-chunk cache for CPython's frame stack: a cold compile no longer pays much of its system
time to a CPython slowdown.

CPython keeps Python frames on a per-thread stack of 16 KiB chunks. A call that does not fit in
the current chunk maps a new one (``mmap``), and the return unmaps it at once. A loop that calls
a function exactly where a chunk ends therefore maps and unmaps 16 KiB on every call: CPython
issue gh-142183, fixed in 2026 by caching one chunk per thread (3.13 and 3.14 releases since
then; not 3.11 or 3.12, which take security fixes only).
Numba's compiler deep-copies IR in such loops (``copy.deepcopy`` → ``ir.Var.__deepcopy__``) at
depths that move with the caller's stack, so a cold compile of the 4-player engine could make
millions of such pairs, and two local variables added to a function on the compile's stack
were enough to multiply that system time several times over.

``install()`` puts the same cure in front of the interpreter's arena allocator, which the frame
stack takes its chunks from: a freed chunk is kept (one slot) and handed to the next request,
every other block goes to ``mmap``/``munmap`` as CPython's own allocator does. The two small
functions are LLVM IR compiled in-process with llvmlite (numba's own backend, no C compiler
needed); the slot is swapped atomically, so it is correct whatever the GIL arrangement. Only on
Linux CPython 3.11 to 3.13 with the GIL (x86-64, AArch64: the ``mmap`` flags below are theirs;
checked on 3.11.7, 3.12.1 and 3.13.0, where a call loop on a chunk boundary faulted on every
call without it and a handful of times with it; on a 3.13 that has CPython's own cache it
changes nothing); elsewhere, and when ``TICHUSIM_FRAME_STACK_CACHE=0``, nothing is changed.

The arena allocator serves every library in the process, so this cannot be scoped to our
code: it is installed only in processes that are tichusim's alone, the command line's
(``cli.main``) and ``warmup``'s compile workers, never on ``import tichusim``.
"""

from __future__ import annotations

import ctypes
import os
import platform
import sys
import sysconfig

__all__ = ["install", "installed"]

_CHUNK = 16 * 1024  # CPython's DATA_STACK_CHUNK_SIZE (3.11 to 3.13)

# PROT_READ | PROT_WRITE = 3, MAP_PRIVATE | MAP_ANONYMOUS = 0x22, as CPython's _PyObject_ArenaMmap
_IR = f"""
@slot = internal global ptr null

declare ptr @mmap(ptr, i64, i32, i32, i32, i64)
declare i32 @munmap(ptr, i64)

define ptr @chunk_alloc(ptr %ctx, i64 %size) {{
entry:
  %is_chunk = icmp eq i64 %size, {_CHUNK}
  br i1 %is_chunk, label %take, label %fresh
take:
  %kept = atomicrmw xchg ptr @slot, ptr null seq_cst
  %hit = icmp ne ptr %kept, null
  br i1 %hit, label %reuse, label %fresh
reuse:
  ret ptr %kept
fresh:
  %mapped = call ptr @mmap(ptr null, i64 %size, i32 3, i32 34, i32 -1, i64 0)
  %failed = icmp eq ptr %mapped, inttoptr (i64 -1 to ptr)
  %block = select i1 %failed, ptr null, ptr %mapped
  ret ptr %block
}}

define void @chunk_free(ptr %ctx, ptr %block, i64 %size) {{
entry:
  %is_chunk = icmp eq i64 %size, {_CHUNK}
  br i1 %is_chunk, label %keep, label %release
keep:
  %swap = cmpxchg ptr @slot, ptr null, ptr %block seq_cst seq_cst
  %stored = extractvalue {{ ptr, i1 }} %swap, 1
  br i1 %stored, label %done, label %release
release:
  %rc = call i32 @munmap(ptr %block, i64 %size)
  br label %done
done:
  ret void
}}
"""


class _ArenaAllocator(ctypes.Structure):  # CPython's PyObjectArenaAllocator
    _fields_ = [("ctx", ctypes.c_void_p), ("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p)]


_engine = None  # the compiled functions: alive as long as the interpreter uses them


def _applies() -> bool:
    return (
        sys.platform == "linux"
        and sys.implementation.name == "cpython"
        and sys.version_info[:2] in ((3, 11), (3, 12), (3, 13))
        and not sysconfig.get_config_var("Py_GIL_DISABLED")
        and platform.machine() in ("x86_64", "aarch64")
        and os.environ.get("TICHUSIM_FRAME_STACK_CACHE", "1") != "0"
    )


def installed() -> bool:
    """Whether this process's arena allocator keeps a freed frame-stack chunk."""
    return _engine is not None


def install() -> bool:
    """Put the one-chunk cache in front of the arena allocator (once per process, where it
    applies, see above); whether it is in place."""
    global _engine
    if _engine is not None or not _applies():
        return _engine is not None
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    libc = ctypes.CDLL(None)
    for name in ("mmap", "munmap"):
        llvm.add_symbol(name, ctypes.cast(getattr(libc, name), ctypes.c_void_p).value)
    module = llvm.parse_assembly(_IR)
    module.verify()
    machine = llvm.Target.from_default_triple().create_target_machine()
    engine = llvm.create_mcjit_compiler(module, machine)
    engine.finalize_object()
    # frees of blocks mapped before this point reach munmap (or the slot) just the same
    allocator = _ArenaAllocator(
        None, engine.get_function_address("chunk_alloc"), engine.get_function_address("chunk_free")
    )
    set_allocator = ctypes.pythonapi.PyObject_SetArenaAllocator
    set_allocator.argtypes = [ctypes.POINTER(_ArenaAllocator)]
    set_allocator.restype = None
    set_allocator(ctypes.byref(allocator))
    _engine = engine
    return True
