r"""Backward induction over turn-start states, each turn solved over dice multisets.

Notation.  A turn-start state is ``(mask, u)``: the set of filled boxes and the
upper total capped at the bonus threshold ``T`` (only that matters for the
future).  ``V(mask, u)`` is the expected score still to come, under optimal
play, from the start of a turn in that state; ``V(full, u) = 0``.

Inside a turn, with ``k`` rerolls left after a roll ``R``:

* scoring (``k = 0``):
  :math:`X_0(R) = \max_{b \text{ allowed}} s(R, b) + \beta(u, b, R) + V(mask \cup b, u')`
  where ``s`` is the box score, ``u' = min(T, u + s)`` for an upper box, and
  ``beta`` the bonus when ``u < T <= u + s``;
* keeping ``K`` and rerolling the rest: :math:`W_k(K) = E[X_{k-1}(K + \text{fresh dice})]`,
  computed one die at a time, :math:`W_k(K) = \frac1F \sum_f W_k(K + f)` with
  :math:`W_k(R) = X_{k-1}(R)` for full rolls;
* choosing what to keep: :math:`X_k(R) = \max_{K \subseteq R} W_k(K)`, computed
  as :math:`B(K) = \max(W_k(K), \max_{f \in K} B(K - f))` over growing ``K``;
* turn start: :math:`V(mask, u) = \sum_R P(R)\, X_{rolls-1}(R)`.

The kernels solve every upper total ``u`` of one mask at once: arrays are
indexed ``[multiset, u]`` with ``u`` contiguous, so the inner loops run over
contiguous memory and vectorise.  Masks with the same number of filled boxes
depend only on masks with more, so each such layer is solved in parallel.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numba
import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.extending import intrinsic

from .rules import Rules

NEG = -1e300


@intrinsic
def _fmax(typingctx, a, b):
    """``max(a, b)`` as LLVM's maxnum, so that loops vectorise to vmaxpd."""
    def codegen(context, builder, signature, args):
        t = args[0].type
        fn = builder.module.declare_intrinsic("llvm.maxnum", [t], ir.FunctionType(t, [t, t]))
        return builder.call(fn, args)
    return types.float64(types.float64, types.float64), codegen


@njit(cache=True, fastmath={"nnan", "ninf", "nsz"})
def _solve_mask(mask, lanes, values, allowed, is_upper, cap, bonus, rolls,
                cand_box, cand_score, roll_cand_start, roll_cand,
                adds, subs, n_subs, roll_prob, first_roll, faces, cand, zero, work):
    """Fill ``values[mask, :lanes]`` from the rows of the masks it leads to.

    ``values[mask, u]``  expected score to come at a turn start (mask, u)
    ``cand[k, u]``       value of writing ``cand_score[k] > 0`` points in box
                         ``cand_box[k]`` from upper total ``u``: points, bonus
                         and the future
    ``zero[u]``          best value of scratching an allowed box (0 points)
    ``work[m, u]``       the current level's value of multiset ``m``
    ``roll_cand[roll_cand_start[r]:roll_cand_start[r + 1]]``: candidates
                         (boxes scoring > 0) of roll ``r``
    """
    n_multisets = work.shape[0] - 1
    n_rolls = n_multisets - first_roll
    L = lanes
    for u in range(L):
        zero[u] = NEG
    for b in range(len(is_upper)):
        if (allowed >> b) & 1:
            child = values[mask | (1 << b)]
            for u in range(L):
                zero[u] = _fmax(zero[u], child[u])
    for k in range(len(cand_box)):
        b = cand_box[k]
        if (allowed >> b) & 1 == 0:
            continue
        child = values[mask | (1 << b)]
        s = cand_score[k]
        row = cand[k]
        if is_upper[b]:
            below = min(L, cap - s)            # u + s < T: no bonus yet
            shifted = child[s:]
            for u in range(below):
                row[u] = shifted[u] + s
            reach = child[cap] + s + bonus     # u < T <= u + s: bonus now
            for u in range(max(below, 0), min(L, cap)):
                row[u] = reach
            if L > cap:                        # u == T: bonus earned before
                row[cap] = child[cap] + s
        else:
            for u in range(L):
                row[u] = child[u] + s
    inv = 1.0 / faces
    # X_0: best box for each full roll.
    for r in range(n_rolls):
        row = work[first_roll + r]
        for u in range(L):
            row[u] = zero[u]
        for i in range(roll_cand_start[r], roll_cand_start[r + 1]):
            k = roll_cand[i]
            if (allowed >> cand_box[k]) & 1:
                c = cand[k]
                for u in range(L):
                    row[u] = _fmax(row[u], c[u])
    for _ in range(1, rolls):
        # W_k: average over one more die, from the full rolls down to the empty
        # keep; three faces per pass over the row.
        for m in range(first_roll - 1, -1, -1):
            row = work[m]
            last = adds.shape[1] - 3
            a = work[adds[m, 0]]
            b = work[adds[m, 1]]
            c = work[adds[m, 2]]
            if last == 0:
                for u in range(L):
                    row[u] = (a[u] + b[u] + c[u]) * inv
            else:
                for u in range(L):
                    row[u] = a[u] + b[u] + c[u]
            for f in range(3, adds.shape[1], 3):
                a = work[adds[m, f]]
                b = work[adds[m, f + 1]]
                c = work[adds[m, f + 2]]
                if f == last:
                    for u in range(L):
                        row[u] = (row[u] + a[u] + b[u] + c[u]) * inv
                else:
                    for u in range(L):
                        row[u] += a[u] + b[u] + c[u]
        # X_k: best keep contained in each multiset, from small to large;
        # two smaller multisets per pass.
        for m in range(1, n_multisets):
            row = work[m]
            for f in range(0, n_subs[m], 2):
                a = work[subs[m, f]]
                b = work[subs[m, f + 1]]
                for u in range(L):
                    row[u] = _fmax(row[u], _fmax(a[u], b[u]))
    # V: expectation over the first roll.
    out = values[mask]
    for u in range(L):
        out[u] = 0.0
    for r in range(n_rolls):
        p = roll_prob[r]
        row = work[first_roll + r]
        for u in range(L):
            out[u] += p * row[u]


@njit(parallel=True, cache=True)
def _solve_layer(masks, values, allowed, lanes, is_upper, cap, bonus, rolls,
                 cand_box, cand_score, roll_cand_start, roll_cand,
                 adds, subs, n_subs, roll_prob, first_roll, faces, n_threads):
    """Solve every mask in ``masks`` (all with the same number of filled boxes),
    handing masks out round-robin to ``n_threads`` workers."""
    for t in prange(n_threads):
        work = np.zeros((adds.shape[0] + 1, values.shape[1]))   # last row: zeros
        cand = np.empty((len(cand_box), values.shape[1]))
        zero = np.empty(values.shape[1])
        for i in range(t, len(masks), n_threads):
            mask = masks[i]
            _solve_mask(mask, lanes[mask], values, allowed[mask], is_upper, cap, bonus, rolls,
                        cand_box, cand_score, roll_cand_start, roll_cand,
                        adds, subs, n_subs, roll_prob, first_roll, faces, cand, zero, work)


def _dice_tables(ds):
    """Index tables for the kernels, padded so that rows go three at a time.

    ``adds[m]``: ``m`` plus one die of each face, padded with the index of an
    all-zero row (``n_multisets``).  ``subs[m, :n_subs[m]]``: the multisets one
    die smaller than ``m``, padded with ``m`` itself (the max is unchanged).
    """
    width = -(-ds.faces // 3) * 3
    m = ds.n_multisets
    adds = np.full((m, width), m, dtype=np.int64)
    adds[:, :ds.faces] = ds.add
    subs = np.repeat(np.arange(m)[:, None], ds.faces + 1, axis=1)
    for i, row in enumerate(ds.sub):
        smaller = row[row >= 0]
        subs[i, :len(smaller)] = smaller
    return adds, subs, (ds.sub >= 0).sum(axis=1)


def _candidates(scores: np.ndarray):
    """Distinct (box, points > 0) pairs and, per roll, the pairs it scores."""
    pairs = sorted({(b, int(s)) for b in range(scores.shape[1]) for s in scores[:, b] if s > 0})
    index = {p: k for k, p in enumerate(pairs)}
    per_roll = [[index[(b, int(s))] for b, s in enumerate(row) if s > 0] for row in scores]
    start = np.cumsum([0] + [len(c) for c in per_roll])
    flat = np.array([k for c in per_roll for k in c], dtype=np.int64)
    return (np.array([b for b, _ in pairs], dtype=np.int64),
            np.array([s for _, s in pairs], dtype=np.int64), start.astype(np.int64), flat)


@dataclass
class Solution:
    """The result of a solve: ``values[mask, u]`` plus how it was obtained."""

    rules: Rules
    values: np.ndarray
    seconds: float

    @property
    def expected_score(self) -> float:
        return float(self.values[0, 0])


def solve(rules: Rules, progress: Callable[[int], None] | None = None) -> Solution:
    """Solve every reachable turn-start state of ``rules``.

    ``progress(n)`` is called after each layer with the number of masks solved.
    Unreachable states are left as NaN.
    """
    start = time.perf_counter()
    ds = rules.dice_space
    values = np.full((1 << rules.n_boxes, rules.cap + 1), np.nan)
    values[rules.full_mask, :] = 0.0
    args = (rules.allowed_table, rules.upper_lanes, rules.is_upper, rules.cap,
            float(rules.bonus_points), rules.rolls, *_candidates(rules.scores),
            *_dice_tables(ds), ds.roll_prob, ds.first_roll, ds.faces, numba.get_num_threads())
    for layer in reversed(rules.layers[:-1]):
        _solve_layer(layer, values, *args)
        if progress is not None:
            progress(len(layer))
    return Solution(rules, values, time.perf_counter() - start)
