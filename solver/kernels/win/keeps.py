"""The keeps of a turn, level by level: from each roll's best in
``work[m, 0 or 1]`` (win, tie of multiset ``m``), the averages ``W_t``
and best keeps ``X_t`` with ``t`` rerolls left; ``keep_chances`` records
``kwin[t - 1, m], ktie[t - 1, m]`` and their keys, ``seat_keeps`` only the
keys the seat reads.
"""

from __future__ import annotations

import math

from numba import njit

from yatzy.kernels.turn import FAST, average_keeps
from yatzy.kernels.win.data import key


@njit(cache=True)
def all_zero(d, work):
    """Every roll's chances in ``work`` (both lanes) are +0.0: so is every
    average and best keep made of them (sums of +0.0 are +0.0)."""
    for m in range(d.first_roll, d.adds.shape[0]):
        for j in range(2):
            if work[m, j] != 0.0 or math.copysign(1.0, work[m, j]) < 0.0:
                return False
    return True


@njit(cache=True, fastmath=FAST)
def average_two(d, work):
    """``turn.average_keeps(d, 2, work)`` for rules of six faces or fewer
    (the same sums in the same order, the two lanes written out)."""
    if d.adds.shape[1] != 6:
        average_keeps(d, 2, work)
        return
    adds = d.adds
    inv = 1.0 / d.faces
    for m in range(d.first_roll - 1, -1, -1):
        a, b, c = adds[m, 0], adds[m, 1], adds[m, 2]
        e, g, h = adds[m, 3], adds[m, 4], adds[m, 5]
        work[m, 0] = (((work[a, 0] + work[b, 0]) + (work[c, 0] + work[e, 0]))
                      + (work[g, 0] + work[h, 0])) * inv
        work[m, 1] = (((work[a, 1] + work[b, 1]) + (work[c, 1] + work[e, 1]))
                      + (work[g, 1] + work[h, 1])) * inv


@njit(cache=True)
def keep_chances(d, s, record=True):
    """From the scoring values in ``s.work``: ``s.kwin[t - 1, m],
    s.ktie[t - 1, m]`` (and their keys ``s.kkey[t - 1, m]``) of keeping
    ``m`` with ``t`` rerolls left (only with ``record``), each roll's best
    in ``s.work`` level by level; returns ``(win, tie)`` at the turn
    start."""
    first = d.first_roll
    work, wkey, kwin, ktie, kkey = s.work, s.wkey, s.kwin, s.ktie, s.kkey
    subs, n_subs = d.subs, d.n_subs
    for t in range(1, d.rolls + 1):
        average_two(d, work)                   # W_t (lane 0 win, lane 1 tie)
        if t == d.rolls:
            break
        for m in range(first):
            wkey[m, 0] = key(work[m, 0])
            wkey[m, 1] = key(work[m, 1])
        if record:
            for m in range(first):
                kwin[t - 1, m] = work[m, 0]
                ktie[t - 1, m] = work[m, 1]
                kkey[t - 1, m, 0] = wkey[m, 0]
                kkey[t - 1, m, 1] = wkey[m, 1]
        for m in range(1, d.adds.shape[0]):     # X_t: the best keep inside each multiset
            for j in range(n_subs[m]):
                a = subs[m, j]
                if wkey[a, 0] > wkey[m, 0] or (wkey[a, 0] == wkey[m, 0]
                                               and wkey[a, 1] > wkey[m, 1]):
                    work[m, 0], work[m, 1] = work[a, 0], work[a, 1]
                    wkey[m, 0], wkey[m, 1] = wkey[a, 0], wkey[a, 1]
    return work[0, 0], work[0, 1]


@njit(cache=True)
def seat_keeps(d, s):
    """``keep_chances`` as far as ``seat_choose`` reads it: the keys
    ``s.kkey[t - 1, m]`` of every level ``t < rolls``, the same sums and
    choices; the last level's best keeps and the turn start (which the seat
    never reads) are not worked out, nor any level of a turn whose every
    roll has chances 0 (``all_zero``)."""
    first = d.first_roll
    work, wkey, kkey = s.work, s.wkey, s.kkey
    subs, n_subs = d.subs, d.n_subs
    if all_zero(d, work):                      # a lost turn: every key is key(0.0)
        kkey[:max(d.rolls - 1, 1)] = key(0.0)
        return
    for t in range(1, d.rolls):
        average_two(d, work)                   # W_t (lane 0 win, lane 1 tie)
        for m in range(first):
            wkey[m, 0] = key(work[m, 0])
            wkey[m, 1] = key(work[m, 1])
            kkey[t - 1, m, 0] = wkey[m, 0]
            kkey[t - 1, m, 1] = wkey[m, 1]
        if t == d.rolls - 1:
            break
        for m in range(1, d.adds.shape[0]):     # X_t: the best keep inside each multiset
            w0, w1, k0, k1 = work[m, 0], work[m, 1], wkey[m, 0], wkey[m, 1]
            for j in range(n_subs[m]):          # selects, not branches: a third are taken
                a = subs[m, j]
                a0, a1 = wkey[a, 0], wkey[a, 1]
                up = (a0 > k0) | ((a0 == k0) & (a1 > k1))
                w0 = work[a, 0] if up else w0
                w1 = work[a, 1] if up else w1
                k0 = a0 if up else k0
                k1 = a1 if up else k1
            work[m, 0], work[m, 1], wkey[m, 0], wkey[m, 1] = w0, w1, k0, k1
