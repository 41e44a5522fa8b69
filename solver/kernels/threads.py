"""Running a compiled kernel on Numba's thread count, in pieces.

The kernels release the GIL and take ``(t, n)``: do piece ``t`` of ``n``.
Work is cut into more pieces than threads and the threads take pieces as
they free up, so a core slowed by other work does not hold up the rest.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba

PIECES_PER_THREAD = 16


def threads() -> int:
    """Worker threads for the kernels (Numba's thread count)."""
    return numba.get_num_threads()


def pieces() -> int:
    """How many pieces ``run_pieces`` cuts the work into."""
    n = threads()
    return 1 if n == 1 else n * PIECES_PER_THREAD


def run_pieces(kernel, *args) -> None:
    """Run ``kernel(*args, t, n)`` for ``t = 0 .. n-1``, ``n = pieces()``, on
    ``threads()`` threads."""
    n = pieces()
    if n == 1:
        kernel(*args, 0, 1)
        return
    with ThreadPoolExecutor(threads()) as pool:
        for f in [pool.submit(kernel, *args, t, n) for t in range(n)]:
            f.result()
