r"""The relaxed one-column game of the Trippel-Yatzy upper bound
(``yatzy.research.triple_bound``; the argument: docs/triple.md).

One column of weight ``w`` over ``T`` turns: at each turn it rolls and
keeps as in the real game, and after the last roll either writes one open
box (``w`` times its points and bonus, minus the turn's price
:math:`\lambda_g`) or writes nothing (0); the card must be full after turn
``T``.  Its turn-start values ``V_g(mask, u)`` are solved turn by turn,
from ``V_{T+1}`` (0 on the full card, ``NEG`` elsewhere) back to ``V_1``,
with the kernels of one Yatzy turn (``yatzy.kernels.turn.advance``): the
values it reads are ``V_{g+1} - \lambda_g`` (so a box written, with or
without points, pays the price), and the new option, writing nothing, is
``V_{g+1}(mask, u)`` itself, taken as the better of the two after the last
roll (level 0), before the keeps.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from yatzy.kernels.solve import LANE_BLOCK
from yatzy.kernels.turn import FAST, NEG, advance, fmax, turn_work


@njit(cache=True, fastmath=FAST)
def relaxed_mask(d, mask, u0, L, priced, nxt, cur, w):
    """``cur[mask, :]`` = ``V_g(mask, u)`` from ``priced[0] = V_{g+1} -
    lambda_g`` and ``nxt = V_{g+1}`` (upper totals ``u0 .. u0+L-1`` solved;
    below ``start[mask]`` the value of ``start[mask]``, from ``lanes[mask]``
    on NaN, as ``solve.solve_mask``)."""
    lo, hi = d.start[mask], d.lanes[mask]
    work, mean = w.work, w.mean
    first = d.first_roll
    n = len(d.roll_prob)
    for t in range(d.rolls):
        advance(d, t, mask, u0, L, priced, w)
        if t == 0:                         # writing nothing: V_{g+1} of the same state
            for r in range(n):
                for j in range(L):
                    work[first + r, j] = fmax(work[first + r, j], nxt[mask, u0 + j])
    for j in range(L):
        mean[j] = 0.0
    for r in range(n):
        p = d.roll_prob[r]
        for j in range(L):
            mean[j] += p * work[first + r, j]
    for u in range(hi):
        cur[mask, u] = mean[max(u, lo) - u0]
    for u in range(hi, cur.shape[1]):
        cur[mask, u] = np.nan


@njit(cache=True, nogil=True)
def relaxed_turn(d, masks, price, nxt, cur):
    """``V_g`` into ``cur`` for the masks ``masks`` (every other row is set
    to ``NEG``: not a state of turn ``g``), from ``nxt = V_{g+1}`` and the
    turn's price ``price``.  ``d``: the column's ``TurnData`` with its
    points weighted (``gain_add``, ``bonus_add``; ``theta = 0``)."""
    width = cur.shape[1]
    priced = np.empty((1, nxt.shape[0], width))
    for m in range(nxt.shape[0]):
        for u in range(width):
            priced[0, m, u] = nxt[m, u] - price
            cur[m, u] = NEG
    w = turn_work(d, width)
    full = len(d.allowed) - 1
    for i in range(len(masks)):
        mask = masks[i]
        if mask == full:
            for u in range(width):
                cur[mask, u] = nxt[mask, u]
            continue
        lo, hi = d.start[mask], d.lanes[mask]
        L = hi - lo
        if L > LANE_BLOCK // 2:
            L = min(-(-L // LANE_BLOCK) * LANE_BLOCK, width)
        u0 = min(lo, width - L)
        relaxed_mask(d, mask, u0, L, priced, nxt, cur, w)


def slack_tables(d, layers, n_boxes, full_mask, width, K):
    r"""``out[k, mask, u]``, ``k = 0 .. K``: the relaxed game of one column
    with no prices and ``n_open(mask) + k`` turns left (it may let ``k``
    turns pass without writing), from ``(mask, u)``; ``out[0]`` is the
    one-column table.  ``layers[f]``: the masks with ``f`` boxes filled;
    ``d``: the column's ``TurnData``.  Solved turns-left ``tau = 1 .. n +
    K`` in turn (``relaxed_turn``, two layers in memory), each for the
    masks with ``tau - K <= n_open <= tau``: ``K + 1`` table solves in all.
    Where ``n_open + k`` would pass the turns of the game the caller
    clamps ``k`` (``yatzy.players.triple_slack``)."""
    n_masks = len(d.allowed)
    out = np.full((K + 1, n_masks, width), NEG)
    nxt = np.full((n_masks, width), NEG)
    nxt[full_mask] = 0.0
    cur = np.empty_like(nxt)
    out[:, full_mask] = 0.0
    for tau in range(1, n_boxes + K + 1):
        masks = np.concatenate([layers[f] for f in range(n_boxes + 1)
                                if tau - K <= n_boxes - f <= tau]).astype(np.int64)
        relaxed_turn(d, masks, 0.0, nxt, cur)
        filled = ((masks[:, None] >> np.arange(n_boxes)) & 1).sum(axis=1)
        out[tau - (n_boxes - filled), masks] = cur[masks]
        nxt, cur = cur, nxt
    return out
