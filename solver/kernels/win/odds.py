"""The opponents' side: the best opponent's final score ``M``.

Each opponent's points to come are read from the futures table (a row per
state ``(mask, u)``, ``futures[at + k]`` the chance of ``k`` more points);
``opponents_best`` multiplies their distributions into ``Odds``:
``less[k] = P(M < k)`` and ``eq[k] = P(M = k)`` for scores ``k <
WinTables.reach``; ``support`` is where ``eq`` is not 0.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from yatzy.kernels.turn import prefetch


class Odds(NamedTuple):
    """The best opponent's final score ``M`` (``opponents_best``):
    ``less[k] = P(M < k)``, ``eq[k] = P(M = k)``, ``cdf[k]`` scratch;
    ``k < WinTables.reach``."""

    less: np.ndarray
    eq: np.ndarray
    cdf: np.ndarray


def new_odds(size: int) -> Odds:
    """An ``Odds`` for scores below ``size`` (outside compiled code)."""
    return Odds(np.empty(size), np.empty(size), np.empty(size))


@njit(cache=True)
def prefetch_futures(futures, lay, mask, u, score, size):
    """Ask for the cache lines of the ``futures`` row that ``opponents_best``
    reads for an opponent at ``(mask, u)`` with ``score`` points."""
    w = lay.width[mask]
    at = lay.off[mask] + (max(u, lay.start[mask]) - lay.start[mask]) * w
    for k in range(0, min(w, size - score), 8):
        prefetch(futures, at + k)


@njit(cache=True)
def opponents_best(futures, lay, states, n, odds):
    """``odds.less[k] = P(M < k)``, ``odds.eq[k] = P(M = k)`` for ``k <
    len(less)`` (``eq`` 0 at the last), ``M`` the best final score of
    opponents ``j < n``; ``states[j] = (mask, u, score, done)``: an opponent
    whose game is done (or whose card is full) has its score, the others
    the ``futures`` table's points to come from their state added (``lay``:
    its layout, a ``target.Layout`` or the ``WinTables``)."""
    off, width, start = lay.off, lay.width, lay.start
    less, eq, cdf = odds
    size = len(less)
    for j in range(n):                         # ask for every row first
        if states[j, 3] == 0:
            prefetch_futures(futures, lay, states[j, 0], states[j, 1], states[j, 2], size)
    for k in range(size):
        cdf[k] = 1.0
    for j in range(n):
        mask, u, score, done = states[j, 0], states[j, 1], states[j, 2], states[j, 3]
        for k in range(min(score, size)):
            cdf[k] = 0.0
        if done != 0:                          # P(final <= k) = 1 from its score on
            continue
        w = width[mask]
        at = off[mask] + (max(u, start[mask]) - start[mask]) * w
        end = min(score + w, size)
        acc = 0.0
        for k in range(score, end):            # the running sum over its futures
            acc += futures[at + k - score]
            cdf[k] *= min(acc, 1.0)
        rest = min(acc, 1.0)                   # beyond its most points to come: constant
        if rest != 1.0:
            for k in range(max(end, score), size):
                cdf[k] *= rest
    less[0] = 0.0
    eq[0] = cdf[0]
    for k in range(1, size):
        less[k] = cdf[k - 1]
        eq[k] = cdf[k] - cdf[k - 1]
    eq[size - 1] = 0.0


@njit(cache=True)
def support(eq):
    """``(lo, hi)``: ``eq[k]`` is 0 outside ``lo <= k <= hi``."""
    lo, hi = 0, -1
    for k in range(len(eq)):
        if eq[k] != 0.0:
            if hi < 0:
                lo = k
            hi = k
    return lo, hi
