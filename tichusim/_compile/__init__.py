"""How our kernels compile: the changes tichusim makes to numba's compiler, for its own kernels
only, and where the compiled kernels are cached. ``docs/compile.md`` describes them.

- ``cache``: the kernel cache folder, keyed by the kernel sources and this package's;
- ``pack``: the kernels compiled ahead of time for portable CPU levels, copied into an empty
  cache where this CPU has a level's features;
- ``guard``: whether each change may run with the numba and llvmlite installed;
- ``scope``: which compile is one of our kernels' (every change asks it);
- ``notice``: the notice of a cold compile on stderr, and its switch (``compile_notices``);
- ``literals``, ``linkage``, ``inliner``: the changes to numba's compiler;
- ``frame_stack``: CPython's frame-stack chunk cache, for processes that are ours alone.

``kernels/jit.py`` assembles our dispatcher from them. Every module here but ``pack`` is part
of the kernel cache's key (``cache``): an edit to any of them compiles the kernels afresh, and
leaves the kernel pack stale (ignored, and said) until it is rebuilt
(``scripts/build_kernel_pack.py``).
"""
