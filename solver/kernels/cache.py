"""Numba's on-disk kernel cache, made safe against files left by older code.

Numba names a cached kernel's index file after the function and its first
line, and reads the whole index before it checks that the source is the one
the index was written for.  After an update of this package, an index left
by an older version under the same name and line can refer to classes that
no longer exist, and reading it raised instead of being ignored as stale.
Importing this module makes such an index count as stale (the kernel is then
compiled again and the index rewritten).

Numba also stamps a cached kernel with its own source file only, while a
kernel compiles in the kernels it calls from other modules: after an edit
of ``solver/turn.py`` a cached kernel of ``solver/play.py`` would still run
the old code (or read a changed tuple with the old layout).  So the stamp of
every kernel of this package also covers every module of the package: any
change to the package compiles its kernels again.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import types
from functools import lru_cache
from pathlib import Path

from numba.core import caching

PACKAGE = Path(__file__).resolve().parents[1]      # the whole package, solver/

_load_index = caching.IndexDataCacheFile._load_index


def _load_index_or_nothing(self) -> dict:
    """The cached overloads, or none if the index cannot be read."""
    try:
        return _load_index(self)
    except (AttributeError, ImportError, EOFError, pickle.UnpicklingError, TypeError,
            ValueError):
        return {}


caching.IndexDataCacheFile._load_index = _load_index_or_nothing


@lru_cache(maxsize=1)
def package_stamp() -> str:
    """A digest of the name, size and modification time of every module of
    the package."""
    h = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        st = path.stat()
        h.update(f"{path.relative_to(PACKAGE)}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()


_source_stamp = caching._SourceFileBackedLocatorMixin.get_source_stamp


def _source_and_package_stamp(self):
    """The source file's stamp, and for this package's kernels the package's."""
    stamp = _source_stamp(self)
    path = getattr(self, "_py_file", None)
    if path and Path(os.path.abspath(path)).is_relative_to(PACKAGE):
        return (stamp, package_stamp())
    return stamp


caching._SourceFileBackedLocatorMixin.get_source_stamp = _source_and_package_stamp


def compiled(kernel) -> bool:
    """Whether Numba's disk cache holds ``kernel`` (a dispatcher) compiled
    from the package as it is now: its first call then loads it instead of
    compiling.  (An index written by other code reads as empty.)"""
    if kernel.signatures:                       # compiled in this process already
        return True
    try:
        return bool(kernel._cache._cache_file._load_index())
    except Exception:                           # noqa: BLE001  no cache, or another layout
        return False


def _called(kernel) -> list:
    """The kernels of this package that ``kernel``'s source names: globals
    of its module, and attributes of the modules it names (``turn.pick``)."""
    from numba.core.registry import CPUDispatcher
    codes, names = [kernel.py_func.__code__], set()
    while codes:
        code = codes.pop()
        names.update(code.co_names)
        codes.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    found = []
    for value in (kernel.py_func.__globals__.get(n) for n in names):
        if isinstance(value, types.ModuleType):
            found.extend(getattr(value, n, None) for n in names)
        else:
            found.append(value)
    return [k for k in found if isinstance(k, CPUDispatcher)]


def _reached(kernels, stop) -> list:
    """``kernels`` and the kernels they call, directly or through others,
    not looking below a kernel for which ``stop(kernel)`` holds."""
    seen, stack = {}, list(kernels)
    while stack:
        kernel = stack.pop()
        if id(kernel) not in seen:
            seen[id(kernel)] = kernel
            if not stop(kernel):
                stack.extend(_called(kernel))
    return list(seen.values())


def _size(kernel) -> int:
    """A kernel's bytecode bytes; 0 for one inlined into its callers."""
    if kernel.targetoptions.get("inline") == "always":
        return 0
    return len(kernel.py_func.__code__.co_code)


def uncompiled_share(kernels) -> float:
    """The share of the compile of ``kernels`` (dispatchers) left to do: the
    bytecode of the kernels they call, directly or through others (themselves
    included), that Numba's cache does not hold (``compiled``), over the
    bytecode of all of them.  0 when every one is cached (or the kernels
    asked for are: a compiled kernel holds what it calls): a first call then
    only loads them; 1 after an install or an update; in between where an
    earlier command compiled some of them (a first ``yatzy distribution``
    after a ``yatzy simulate`` compiles about a sixth of what it would
    from nothing).  Kernels inlined into their callers count with them.

    >>> from yatzy.kernels.policy import batch
    >>> 0.0 <= uncompiled_share([batch]) <= 1.0
    True
    """
    total = sum(map(_size, _reached(kernels, stop=lambda kernel: False)))
    # a compiled kernel carries what it calls compiled with it: nothing below it is left
    left = sum(_size(k) for k in _reached(kernels, stop=compiled) if not compiled(k))
    return left / total if total else 0.0
