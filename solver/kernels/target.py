"""The target table's kernels and layout: the largest chance of reaching
every need from every state.

``Layout`` says where each state's needs are stored in the flat table;
``fill_needs`` values every way to end a turn for all needs at once,
``solve_state`` runs the reroll levels of ``yatzy.kernels.turn`` over the
need axis, and ``solve_masks`` solves piece ``t`` of ``n`` of a layer (or
of the part of a layer a position's sub-game holds).
``yatzy.tables.target`` drives them and stores the table.

Speed (every value the same bit for bit as the plain composition, see
``tests/kernels/test_target.py``): the work arrays' rows are whole cache
lines and start on one (``turn.lane_rows``), so no vector load splits a line; the
flat table is indexed with unsigned integers, so that its copies vectorise
(a signed index costs a negative-index check per element); the last reroll
level and the turn-start mean share one pass (``best_keeps_mean``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

from yatzy.kernels.scoring import upper_after
from yatzy.kernels.turn import FAST, average_keeps, best_keeps, fmax, lane_rows, score_rolls
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space


class Layout(NamedTuple):
    """Where each state's needs are: ``off[mask]`` (-1: not reachable),
    ``width[mask]`` (needs ``0 .. width - 1``), ``start[mask]`` (the lowest
    upper total stored; lower ones read it)."""

    off: np.ndarray
    width: np.ndarray
    start: np.ndarray


@lru_cache(maxsize=8)
def layout(rules: Rules) -> Layout:
    """The ``Layout`` of the target table of ``rules``."""
    sp = state_space(rules)
    best = rules.box_best
    masks = np.arange(sp.n_masks)
    bits = (masks[:, None] >> np.arange(rules.n_boxes)) & 1
    open_best = ((1 - bits) * best).sum(axis=1)
    open_upper = ((1 - bits) * rules.is_upper).sum(axis=1) > 0
    most = open_best + np.where(open_upper & (rules.cap > 0), rules.bonus_points, 0)
    width = (most + 1).astype(np.int64)
    start = sp.lane_start.astype(np.int64)
    size = np.where(np.isin(masks, np.concatenate(sp.layers)),
                    (sp.upper_lanes - start) * width, 0)
    off = np.concatenate([[0], np.cumsum(size)[:-1]]).astype(np.int64)
    off[size == 0] = -1
    return Layout(off, width, start)


def table_size(rules: Rules) -> int:
    """Number of values in the target table of ``rules``."""
    lay = layout(rules)
    reached = lay.off >= 0
    return int(((state_space(rules).upper_lanes - lay.start) * lay.width)[reached].sum())


@njit(cache=True, fastmath=FAST)
def fill_needs(d, lay, mask, u, L, values, cand, zero):
    """The candidates' values for needs ``0 .. L-1`` at ``(mask, u)``:
    ``cand[c, n] = P(child, u', n - points - bonus)``, ``zero[n]`` the best
    scratch (0 points).  ``values``: the target table (flat, ``lay``)."""
    allowed = d.allowed[mask]
    for n in range(L):
        zero[n] = 0.0
    for b in range(len(d.is_upper)):
        if (allowed >> b) & 1:
            child = mask | (1 << b)
            base = np.uint64(lay.off[child] + (max(u, lay.start[child]) - lay.start[child])
                             * lay.width[child])
            for n in range(np.uint64(min(L, lay.width[child]))):
                zero[n] = fmax(zero[n], values[base + n])
    for k in range(len(d.cand_box)):
        b = d.cand_box[k]
        if (allowed >> b) & 1 == 0:
            continue
        child = mask | d.cand_bits[k]
        s = d.cand_score[k]
        u2, bonus = upper_after(d, b, u, s)
        g = s + bonus
        w = lay.width[child]
        base = np.uint64(lay.off[child] + (max(u2, lay.start[child]) - lay.start[child]) * w - g)
        top = np.uint64(min(L, g + w))
        met = np.uint64(min(L, g + 1))
        for n in range(met):                   # need met: certain
            cand[k, n] = 1.0
        for n in range(met, top):
            cand[k, n] = values[base + n]
        for n in range(max(top, met), np.uint64(L)):    # more than the child can give
            cand[k, n] = 0.0


class NeedWork(NamedTuple):
    """Work arrays of ``solve_state`` for needs ``n < width``:
    ``cand[c, n]``, ``zero[n]`` (``fill_needs``), ``work[m, n]`` the reroll
    levels' values of multiset ``m`` (the last row stays 0: it pads
    ``adds``) and ``row[n]`` the output, ``P(mask, u, n)``."""

    cand: np.ndarray
    zero: np.ndarray
    work: np.ndarray
    row: np.ndarray


@njit(cache=True, fastmath=FAST)
def solve_state(d, lay, mask, u, L, values, w):
    """``w.row[n] = P(mask, u, n)`` for ``n < L`` from the states after
    (``w`` a ``NeedWork``)."""
    cand, zero, work, out = w
    fill_needs(d, lay, mask, u, L, values, cand, zero)
    score_rolls(d, mask, L, d.first_roll, cand, zero, work)
    for t in range(1, d.rolls - 1):
        average_keeps(d, L, work)
        best_keeps(d, L, work)
    if d.rolls > 1:
        average_keeps(d, L, work)
        best_keeps_mean(d, L, work, out)
    else:
        for n in range(L):
            out[n] = 0.0
        for r in range(len(d.roll_prob)):
            p = d.roll_prob[r]
            for n in range(L):
                out[n] += p * work[d.first_roll + r, n]


@njit(cache=True, fastmath=FAST)
def best_keeps_mean(d, L, work, out):
    """The last reroll level's ``best_keeps`` and the turn-start mean in
    one pass: ``out[n] = sum_r roll_prob[r] * X(first_roll + r, n)``, added
    in the order of ``r`` as a separate pass would (identical bit for bit);
    a full roll's row is not stored (nothing reads it)."""
    subs, first = d.subs, d.first_roll
    for n in range(L):
        out[n] = 0.0
    if subs.shape[1] < 6:
        best_keeps(d, L, work)
        for r in range(len(d.roll_prob)):
            p = d.roll_prob[r]
            for n in range(L):
                out[n] += p * work[first + r, n]
        return
    for m in range(1, d.adds.shape[0]):
        n_sub = d.n_subs[m]
        if m < first or n_sub > 6:
            for f in range(0, n_sub, 6):
                a, b, c = subs[m, f], subs[m, min(f + 1, n_sub - 1)], subs[m, min(f + 2, n_sub - 1)]
                e, g, h = (subs[m, min(f + 3, n_sub - 1)], subs[m, min(f + 4, n_sub - 1)],
                           subs[m, min(f + 5, n_sub - 1)])
                for n in range(L):
                    work[m, n] = fmax(fmax(work[m, n], fmax(work[a, n], work[b, n])),
                                      fmax(fmax(work[c, n], work[e, n]), fmax(work[g, n], work[h, n])))
            if m >= first:
                p = d.roll_prob[m - first]
                for n in range(L):
                    out[n] += p * work[m, n]
        else:
            p = d.roll_prob[m - first]
            a, b, c = subs[m, 0], subs[m, min(1, n_sub - 1)], subs[m, min(2, n_sub - 1)]
            e, g, h = subs[m, min(3, n_sub - 1)], subs[m, min(4, n_sub - 1)], subs[m, min(5, n_sub - 1)]
            for n in range(L):
                x = fmax(fmax(work[m, n], fmax(work[a, n], work[b, n])),
                         fmax(fmax(work[c, n], work[e, n]), fmax(work[g, n], work[h, n])))
                out[n] += p * x


@njit(cache=True, nogil=True)
def solve_masks(d, lay, masks, values, lo, t, n_threads):
    """Solve masks ``t, t + n_threads, ...`` of ``masks`` (one layer) into
    ``values``, every need and every stored upper total from ``lo`` on (0:
    all of them; a position's sub-game needs only its own total and above,
    ``yatzy.tables.subgame``)."""
    width = 1
    for i in range(len(masks)):
        width = max(width, lay.width[masks[i]])
    w = NeedWork(lane_rows(len(d.cand_box), width), lane_rows(1, width)[0],
                 lane_rows(d.adds.shape[0] + 1, width), lane_rows(1, width)[0])
    row = w.row
    for i in range(t, len(masks), n_threads):
        mask = masks[i]
        L = lay.width[mask]
        for u in range(max(lay.start[mask], lo), d.lanes[mask]):
            solve_state(d, lay, mask, u, L, values, w)
            base = np.uint64(lay.off[mask] + (u - lay.start[mask]) * L)
            for n in range(np.uint64(L)):
                values[base + n] = row[n]
