"""Numba's on-disk kernel cache, made safe against files left by older code.

Numba names a cached kernel's index file after the function and its first
line, and reads the whole index before it checks that the source is the one
the index was written for.  After an update of this package, an index left
by an older version under the same name and line can refer to classes that
no longer exist, and reading it raised instead of being ignored as stale.
Importing this module makes such an index count as stale (the kernel is then
compiled again and the index rewritten).
"""

from __future__ import annotations

import pickle

from numba.core import caching

_load_index = caching.IndexDataCacheFile._load_index


def _load_index_or_nothing(self) -> dict:
    """The cached overloads, or none if the index cannot be read."""
    try:
        return _load_index(self)
    except (AttributeError, ImportError, EOFError, pickle.UnpicklingError, TypeError,
            ValueError):
        return {}


caching.IndexDataCacheFile._load_index = _load_index_or_nothing
