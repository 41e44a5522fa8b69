"""The solve's kernels: turn-start values of whole layers of states.

``solve_masks`` solves piece ``t`` of ``n`` of one layer's masks; for each
mask, ``solve_mask`` runs the reroll levels of ``yatzy.kernels.turn``
(``advance``) over the upper totals of the mask side by side and averages
the last level over the first roll:
``V(mask, u) = sum_R P(R) X_{rolls-1}(R)``.  ``yatzy.tables.build`` runs
them layer by layer, from the full card back to the empty one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from yatzy.kernels.turn import FAST, advance, prefetch, turn_work

# The compiled loops over upper totals do LANE_BLOCK of them per iteration and
# any remainder one at a time, which costs more than padding: a mask with more
# totals than LANE_BLOCK // 2 to solve solves a multiple of LANE_BLOCK.
LANE_BLOCK = 8


@njit(cache=True, fastmath=FAST)
def solve_mask(d, mask, u0, L, nxt, cur, w):
    """Fill ``cur[k, rows[mask], :hi]`` for every bank ``k`` from the states
    the turn leads to (``nxt``): upper totals ``u0 .. u0+L-1`` are solved
    (``u0 <= lo``, ``hi <= u0 + L`` for ``lo, hi = start[mask],
    lanes[mask]``; lanes outside ``lo .. hi-1`` only pad the vector loops),
    ``lo .. hi-1`` are stored, those below ``lo`` (bonus out of reach,
    see ``StateSpace.lane_start``) copy total ``lo`` and those from ``hi``
    on (out of reach) are NaN: every value of the row is written.

    ``w``: the scratch (``turn.TurnWork``); ``w.work[m, j]`` holds the
    current level's value of multiset ``m`` at upper total ``u0 + j``,
    ``w.mean[j]`` the turn-start value.  A turn that starts with ``k`` rolls
    banked has ``k + rolls - 1`` rerolls after its first roll.
    """
    lo, hi = d.start[mask], d.lanes[mask]
    work, mean = w.work, w.mean
    rolls = d.rolls
    top = cur.shape[0] - 1 + rolls - 1
    row = d.rows[mask]
    for t in range(top + 1):
        if d.saved and t < top:               # the rows the next level reads
            fetch_children(d, mask, nxt[min(t + 1, nxt.shape[0] - 1)])
        advance(d, t, mask, u0, L, nxt, w)
        if t < rolls - 1:
            continue
        for j in range(L):                # V: expectation over the first roll
            mean[j] = 0.0
        n = len(d.roll_prob)
        for r in range(0, n - 3, 4):      # four rolls per pass, added in order
            p, q, s, v = d.roll_prob[r], d.roll_prob[r + 1], d.roll_prob[r + 2], d.roll_prob[r + 3]
            a, b, c, e = r + d.first_roll, r + 1 + d.first_roll, r + 2 + d.first_roll, r + 3 + d.first_roll
            for j in range(L):
                mean[j] = (((mean[j] + p * work[a, j]) + q * work[b, j]) + s * work[c, j]) + v * work[e, j]
        for r in range(n - n % 4, n):
            p = d.roll_prob[r]
            for j in range(L):
                mean[j] += p * work[d.first_roll + r, j]
        k = t - (rolls - 1)
        for u in range(hi):
            cur[k, row, u] = mean[max(u, lo) - u0]
        for u in range(hi, cur.shape[2]):  # totals these boxes cannot reach
            cur[k, row, u] = np.nan


@njit(cache=True)
def fetch_children(d, mask, values):
    """Prefetch the rows ``values[rows[child]]`` of every state the turn at
    ``mask`` leads to: with saved rolls each reroll level reads another
    bank's rows, far apart in memory, while the level before is computed."""
    allowed = d.allowed[mask]
    width = values.shape[1]
    for b in range(len(d.is_upper)):
        if (allowed >> b) & 1:
            at = d.rows[mask | (1 << b)] * width
            for j in range(0, width, 8):
                prefetch(values, at + j)


@njit(cache=True, nogil=True)
def solve_masks(d, masks, nxt, cur, t, n):
    """Solve masks ``t, t + n, ...`` of ``masks`` (one layer's masks): piece
    ``t`` of ``n``.  ``nxt[k, rows[mask], u]`` and ``cur`` alike: the
    turn-start values of the layer the turns lead to and of this one."""
    width = cur.shape[2]
    w = turn_work(d, width)
    for i in range(t, len(masks), n):
        mask = masks[i]
        lo, hi = d.start[mask], d.lanes[mask]
        L = hi - lo
        if L > LANE_BLOCK // 2:
            L = min(-(-L // LANE_BLOCK) * LANE_BLOCK, width)
        u0 = min(lo, width - L)
        solve_mask(d, mask, u0, L, nxt, cur, w)
