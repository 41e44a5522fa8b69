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

Variants are data, handled by the same recursion:

* fill order: ``StateSpace.allowed_table[mask]`` says which boxes may be filled;
* saved rolls: the state also holds the bank ``k``; a turn starting with
  ``k`` banked has ``k + rolls - 1`` rerolls after its first roll, and
  stopping with ``t`` left banks ``t``, so scoring is valued at every level:
  :math:`X_t(R) = \max(S_t(R), \max_K W_t(K))`.  After ``p`` turns the bank
  holds at most ``(rolls - 1) p`` (``StateSpace.bank_limit``), so the values are
  kept per layer, ``[k, rank of the mask, u]`` with that many banks, which is
  exact with no cap (``solver.values``);
* American Yahtzee: a state bit records a scored 50 in the yatzy box
  (``StateSpace.flag_bit``); a roll of all dice alike may be a joker, with the
  boxes and points the rules give (``joker_boxes``, ``joker_points``), plus
  the yahtzee bonus.

The kernels solve every upper total ``u`` of one mask at once: arrays are
indexed ``[multiset, u]`` with ``u`` contiguous, so the inner loops run over
contiguous memory and vectorise.  Masks with the same number of filled boxes
depend only on masks with more, so each such layer is solved in parallel.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterator

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from . import kernel_cache  # noqa: F401  (stale cache indexes are ignored)
from .rules import Joker, Rules
from .threads import run_pieces
from .values import StateValues

NEG = -1e300
SERIAL_BELOW = 8        # layers with fewer masks are solved on one thread
# The compiled loops over upper totals do LANE_BLOCK of them per iteration and
# any remainder one at a time, which costs more than padding: a mask with more
# totals than LANE_BLOCK // 2 to solve solves a multiple of LANE_BLOCK.
LANE_BLOCK = 8


@intrinsic
def _fmax(typingctx, a, b):
    """``max(a, b)`` as LLVM's maxnum, so that loops vectorise to vmaxpd."""
    def codegen(context, builder, signature, args):
        t = args[0].type
        fn = builder.module.declare_intrinsic("llvm.maxnum", [t], ir.FunctionType(t, [t, t]))
        return builder.call(fn, args)
    return types.float64(types.float64, types.float64), codegen


FAST = {"nnan", "ninf", "nsz"}    # lets max() become vmaxpd; values are never NaN/inf


# The kernels index 2-D arrays directly (``work[m, j]``) rather than through
# row views: a view costs a reference count update, which dominated the
# many short rows of masks with few upper totals.

@njit(cache=True, fastmath=FAST)
def _fill_candidates(mask, u0, L, values, rank, allowed, is_upper, cap, bonus,
                     cand_box, cand_score, cand_bits, cand, zero):
    """Values of every way to end the turn, for upper totals ``u0 .. u0+L-1``.

    ``values[rank[mask], u]``  expected score to come at a turn start (mask, u)
    ``cand[k, j]``       value of writing ``cand_score[k]`` points in box
                         ``cand_box[k]`` at upper total ``u0 + j``: points,
                         bonus and the future (state ``mask | cand_bits[k]``)
    ``zero[j]``          best value of scratching an allowed box (0 points)
    """
    for j in range(L):
        zero[j] = NEG
    for b in range(len(is_upper)):
        if (allowed >> b) & 1:
            child = rank[mask | (1 << b)]
            for j in range(L):
                zero[j] = _fmax(zero[j], values[child, u0 + j])
    for k in range(len(cand_box)):
        b = cand_box[k]
        if (allowed >> b) & 1 == 0:
            continue
        child = rank[mask | cand_bits[k]]
        s = cand_score[k]
        if is_upper[b]:
            below = min(L, cap - s - u0)       # u + s < T: no bonus yet
            for j in range(below):
                cand[k, j] = values[child, u0 + s + j] + s
            reach = values[child, cap] + s + bonus     # u < T <= u + s: bonus now
            for j in range(max(below, 0), min(L, cap - u0)):
                cand[k, j] = reach
            if 0 <= cap - u0 < L:              # u == T: bonus earned before
                cand[k, cap - u0] = values[child, cap] + s
        else:
            for j in range(L):
                cand[k, j] = values[child, u0 + j] + s


@njit(cache=True, fastmath=FAST)
def _score_rolls(L, allowed, cand_box, roll_cand_start, roll_cand, first_roll,
                 yahtzee_face, joker_boxes, joker_cand, roll_bonus, cand, zero, work):
    """``work[first_roll + r, j]`` = value of the best box for roll ``r``.

    ``roll_cand[roll_cand_start[r]:roll_cand_start[r + 1]]``: the candidates
    (boxes scoring > 0) of roll ``r``; any other box scores 0 (``zero``).
    A roll of all dice equal (``yahtzee_face[r] = f >= 0``) may instead be a
    joker: it may go only in the boxes ``joker_boxes[f]`` (if not 0), as
    candidate ``joker_cand[f, b]``, and earns ``roll_bonus`` on top.
    """
    chosen = np.empty(len(cand_box), dtype=np.int64)
    for r in range(len(roll_cand_start) - 1):
        w = first_roll + r
        f = yahtzee_face[r]
        if f >= 0 and joker_boxes[f] != 0:
            for j in range(L):
                work[w, j] = NEG
            for b in range(joker_cand.shape[1]):
                if (joker_boxes[f] >> b) & 1:
                    c = joker_cand[f, b]
                    for j in range(L):
                        work[w, j] = _fmax(work[w, j], cand[c, j])
        else:
            # the allowed candidates of this roll, then two per pass over the row
            n = 0
            for i in range(roll_cand_start[r], roll_cand_start[r + 1]):
                k = roll_cand[i]
                if (allowed >> cand_box[k]) & 1:
                    chosen[n] = k
                    n += 1
            if n == 0:
                for j in range(L):
                    work[w, j] = zero[j]
            else:
                a = chosen[0]
                b = chosen[min(1, n - 1)]
                for j in range(L):
                    work[w, j] = _fmax(zero[j], _fmax(cand[a, j], cand[b, j]))
            for i in range(2, n, 2):
                a = chosen[i]
                b = chosen[min(i + 1, n - 1)]
                for j in range(L):
                    work[w, j] = _fmax(work[w, j], _fmax(cand[a, j], cand[b, j]))
        if f >= 0 and roll_bonus != 0.0:
            for j in range(L):
                work[w, j] += roll_bonus


@njit(cache=True, fastmath=FAST)
def _average_keeps(L, adds, first_roll, inv, work):
    """W_k: ``work[m]`` = mean of ``work[m + one die]``, from the full rolls
    down to the empty keep, six faces per pass over the row (``adds`` is
    padded to a multiple of six)."""
    last = adds.shape[1] - 6
    for m in range(first_roll - 1, -1, -1):
        for f in range(0, last + 1, 6):
            a, b, c = adds[m, f], adds[m, f + 1], adds[m, f + 2]
            d, e, g = adds[m, f + 3], adds[m, f + 4], adds[m, f + 5]
            if last == 0:
                for j in range(L):
                    work[m, j] = (((work[a, j] + work[b, j]) + (work[c, j] + work[d, j]))
                                  + (work[e, j] + work[g, j])) * inv
            elif f == 0:
                for j in range(L):
                    work[m, j] = (((work[a, j] + work[b, j]) + (work[c, j] + work[d, j]))
                                  + (work[e, j] + work[g, j]))
            elif f == last:
                for j in range(L):
                    work[m, j] = (work[m, j] + ((work[a, j] + work[b, j])
                                                + (work[c, j] + work[d, j]))
                                  + (work[e, j] + work[g, j])) * inv
            else:
                for j in range(L):
                    work[m, j] += (((work[a, j] + work[b, j]) + (work[c, j] + work[d, j]))
                                   + (work[e, j] + work[g, j]))


@njit(cache=True, fastmath=FAST)
def _best_keeps(L, subs, n_subs, n_multisets, work):
    """X_k: ``work[m]`` = best keep contained in ``m``, from small to large,
    two smaller multisets per pass."""
    for m in range(1, n_multisets):
        for f in range(0, n_subs[m], 2):
            a, b = subs[m, f], subs[m, f + 1]
            for j in range(L):
                work[m, j] = _fmax(work[m, j], _fmax(work[a, j], work[b, j]))


@njit(cache=True, fastmath=FAST)
def _advance(t, mask, u0, L, nxt, rank, allowed, is_upper, cap, bonus, saved,
             cand_box, cand_score, cand_bits, roll_cand_start, roll_cand,
             yahtzee_face, joker_boxes, joker_cand, roll_bonus,
             adds, subs, n_subs, first_roll, faces, cand, zero, work, scored):
    """X_t from X_{t-1}: ``work[first_roll + r]`` becomes the value of roll
    ``r`` with ``t`` rerolls left (upper totals ``u0 .. u0+L-1``).

    ``nxt[k, rank[mask'], u]``: turn-start values of the states the turn
    leads to, with ``k`` rolls banked.  With saved rolls, stopping with ``t``
    rerolls left banks them (as many as the bank axis holds: all of them
    unless the rules cap the bank), so scoring is valued again at every ``t``
    (in ``scored``); without, it is valued once, at ``t = 0``, and keeping all
    dice carries it up.
    """
    n_multisets = work.shape[0] - 1
    if t == 0 or saved:
        bank = min(t, nxt.shape[0] - 1)
        _fill_candidates(mask, u0, L, nxt[bank], rank, allowed, is_upper, cap, bonus,
                         cand_box, cand_score, cand_bits, cand, zero)
        _score_rolls(L, allowed, cand_box, roll_cand_start, roll_cand,
                     first_roll if t == 0 else 0, yahtzee_face, joker_boxes, joker_cand,
                     roll_bonus, cand, zero, work if t == 0 else scored)
    if t > 0:
        _average_keeps(L, adds, first_roll, 1.0 / faces, work)
        _best_keeps(L, subs, n_subs, n_multisets, work)
        if saved:
            for r in range(n_multisets - first_roll):
                for j in range(L):
                    work[first_roll + r, j] = _fmax(work[first_roll + r, j], scored[r, j])


@njit(cache=True, fastmath=FAST)
def _solve_mask(mask, u0, L, lo, hi, nxt, cur, rank, allowed, is_upper, cap, bonus, rolls,
                saved, cand_box, cand_score, cand_bits, roll_cand_start, roll_cand,
                yahtzee_face, joker_boxes, joker_cand, roll_bonus,
                adds, subs, n_subs, roll_prob, first_roll, faces, cand, zero, work, scored,
                mean):
    """Fill ``cur[k, rank[mask], :hi]`` for every bank ``k`` from the states
    the turn leads to (``nxt``): upper totals ``u0 .. u0+L-1`` are solved
    (``u0 <= lo``, ``hi <= u0 + L``; lanes outside ``lo .. hi-1`` only pad
    the vector loops), ``lo .. hi-1`` are stored and those below ``lo``
    (bonus out of reach, see ``StateSpace.lane_start``) copy total ``lo``.

    ``work[m, j]``: the current level's value of multiset ``m`` at upper
    total ``u0 + j`` (row ``n_multisets`` stays zero: it pads ``adds``);
    ``mean[j]``: the turn-start value.  A turn that starts with ``k`` rolls
    banked has ``k + rolls - 1`` rerolls after its first roll.
    """
    n_multisets = work.shape[0] - 1
    top = cur.shape[0] - 1 + rolls - 1
    row = rank[mask]
    for t in range(top + 1):
        _advance(t, mask, u0, L, nxt, rank, allowed, is_upper, cap, bonus, saved,
                 cand_box, cand_score, cand_bits, roll_cand_start, roll_cand,
                 yahtzee_face, joker_boxes, joker_cand, roll_bonus,
                 adds, subs, n_subs, first_roll, faces, cand, zero, work, scored)
        if t < rolls - 1:
            continue
        for j in range(L):                # V: expectation over the first roll
            mean[j] = 0.0
        for r in range(n_multisets - first_roll):
            p = roll_prob[r]
            for j in range(L):
                mean[j] += p * work[first_roll + r, j]
        k = t - (rolls - 1)
        for u in range(hi):
            cur[k, row, u] = mean[max(u, lo) - u0]


@njit(cache=True, nogil=True)
def _solve_masks(masks, nxt, cur, rank, allowed, start, lanes, is_upper, cap, bonus, rolls,
                 saved, cand_box, cand_score, cand_bits, roll_cand_start, roll_cand,
                 yahtzee_face, joker_boxes, joker_cand, flag_bit, yahtzee_bonus,
                 adds, subs, n_subs, roll_prob, first_roll, faces, t, n):
    """Solve masks ``t, t + n, ...`` of ``masks`` (one layer's masks): piece
    ``t`` of ``n``."""
    width = cur.shape[2]
    work = np.zeros((adds.shape[0] + 1, width))   # last row: zeros
    scored = np.empty((adds.shape[0] - first_roll, width))
    cand = np.empty((len(cand_box), width))
    zero = np.empty(width)
    mean = np.empty(width)
    for i in range(t, len(masks), n):
        mask = masks[i]
        roll_bonus = yahtzee_bonus if mask & flag_bit else 0.0
        lo, hi = start[mask], lanes[mask]
        L = hi - lo
        if L > LANE_BLOCK // 2:
            L = min(-(-L // LANE_BLOCK) * LANE_BLOCK, width)
        u0 = min(lo, width - L)
        _solve_mask(mask, u0, L, lo, hi, nxt, cur, rank,
                    allowed[mask], is_upper, cap, bonus, rolls, saved, cand_box, cand_score,
                    cand_bits, roll_cand_start, roll_cand, yahtzee_face, joker_boxes[mask],
                    joker_cand, roll_bonus, adds, subs, n_subs, roll_prob, first_roll, faces,
                    cand, zero, work, scored, mean)


@njit(cache=True)
def _keep_values(mask, u, rerolls, first, nxt, rank, allowed, is_upper, cap, bonus, saved,
                 cand_box, cand_score, cand_bits, roll_cand_start, roll_cand,
                 yahtzee_face, joker_boxes, joker_cand, roll_bonus,
                 adds, subs, n_subs, first_roll, faces):
    """``out[t - first - 1, m]``: value of keeping multiset ``m`` with ``t``
    rerolls left at turn state (mask, u), for ``t = first + 1 .. rerolls``
    (one lane of ``_solve_mask``; keeping a full roll is that roll with one
    reroll fewer)."""
    n_multisets = adds.shape[0]
    work = np.zeros((n_multisets + 1, 1))
    keep = np.zeros((n_multisets + 1, 1))
    scored = np.empty((n_multisets - first_roll, 1))
    cand = np.empty((len(cand_box), 1))
    zero = np.empty(1)
    out = np.empty((rerolls - first, n_multisets))
    for t in range(rerolls):
        _advance(t, mask, u, 1, nxt, rank, allowed, is_upper, cap, bonus, saved,
                 cand_box, cand_score, cand_bits, roll_cand_start, roll_cand,
                 yahtzee_face, joker_boxes, joker_cand, roll_bonus,
                 adds, subs, n_subs, first_roll, faces, cand, zero, work, scored)
        if t >= first:                     # W_{t+1}: averaged from X_t (a copy but last)
            avg = work
            if t < rerolls - 1:
                keep[:, 0] = work[:, 0]
                avg = keep
            _average_keeps(1, adds, first_roll, 1.0 / faces, avg)
            out[t - first] = avg[:n_multisets, 0]
    return out


def _dice_tables(ds):
    """Index tables for the kernels, padded so that rows go six at a time.

    ``adds[m]``: ``m`` plus one die of each face, padded with the index of an
    all-zero row (``n_multisets``).  ``subs[m, :n_subs[m]]``: the multisets one
    die smaller than ``m``, padded with ``m`` itself (the max is unchanged).
    """
    width = -(-ds.faces // 6) * 6
    m = ds.n_multisets
    adds = np.full((m, width), m, dtype=np.int64)
    adds[:, :ds.faces] = ds.add
    subs = np.repeat(np.arange(m)[:, None], ds.faces + 1, axis=1)
    for i, row in enumerate(ds.sub):
        smaller = row[row >= 0]
        subs[i, :len(smaller)] = smaller
    return adds, subs, (ds.sub >= 0).sum(axis=1)


def _candidates(rules: Rules):
    """The distinct ways to end a turn as (box, points) pairs, with the state
    bits each one sets; per roll, the pairs with points > 0; per joker face
    and box, the pair it scores."""
    scores, jp = rules.scores, rules.joker_points
    pairs = {(b, int(s)) for b in range(rules.n_boxes) for s in scores[:, b] if s > 0}
    if rules.joker is not Joker.NONE:
        pairs |= {(b, int(jp[f, b])) for f in range(rules.faces) for b in range(rules.n_boxes)}
    pairs = sorted(pairs)
    index = {p: k for k, p in enumerate(pairs)}
    per_roll = [[index[(b, int(s))] for b, s in enumerate(row) if s > 0] for row in scores]
    start = np.cumsum([0] + [len(c) for c in per_roll])
    flat = np.array([k for c in per_roll for k in c], dtype=np.int64)
    joker_cand = np.full((rules.faces, rules.n_boxes), -1, dtype=np.int64)
    if rules.joker is not Joker.NONE:
        joker_cand[:] = [[index[(b, int(jp[f, b]))] for b in range(rules.n_boxes)]
                         for f in range(rules.faces)]
    return dict(cand_box=np.array([b for b, _ in pairs], dtype=np.int64),
                cand_score=np.array([s for _, s in pairs], dtype=np.int64),
                cand_bits=np.array([rules.space.child_mask(0, b, s) for b, s in pairs], dtype=np.int64),
                roll_cand_start=start.astype(np.int64), roll_cand=flat, joker_cand=joker_cand)


@dataclass
class Solution(StateValues):
    """The result of a solve (``StateValues``) plus the time it took."""

    seconds: float = 0.0            # the solve, without compiling
    compile_seconds: float = 0.0    # compiling the kernels, or loading them from cache


@lru_cache(maxsize=16)
def _kernel_data(rules: Rules) -> dict:
    """The arrays the kernels take, derived once per rules."""
    ds = rules.dice_space
    adds, subs, n_subs = _dice_tables(ds)
    return dict(allowed=rules.space.allowed_table, start=rules.space.lane_start, lanes=rules.space.upper_lanes,
                is_upper=rules.is_upper,
                cap=rules.cap, bonus=float(rules.bonus_points), rolls=rules.rolls,
                saved=rules.saved_rolls, **_candidates(rules), yahtzee_face=rules.yahtzee_face,
                joker_boxes=rules.space.joker_boxes, flag_bit=rules.space.flag_bit,
                yahtzee_bonus=float(rules.yahtzee_bonus), adds=adds, subs=subs, n_subs=n_subs,
                roll_prob=ds.roll_prob, first_roll=ds.first_roll, faces=ds.faces)


def _kernel_args(rules: Rules) -> tuple:
    """Everything ``_solve_masks`` takes after ``masks, nxt, cur``."""
    d = _kernel_data(rules)
    return (rules.space.rows, d["allowed"], d["start"], d["lanes"], d["is_upper"], d["cap"], d["bonus"],
            d["rolls"], d["saved"], d["cand_box"], d["cand_score"], d["cand_bits"],
            d["roll_cand_start"], d["roll_cand"], d["yahtzee_face"], d["joker_boxes"],
            d["joker_cand"], d["flag_bit"], d["yahtzee_bonus"], d["adds"], d["subs"],
            d["n_subs"], d["roll_prob"], d["first_roll"], d["faces"])


def _run_layer(layer: np.ndarray, nxt: np.ndarray, cur: np.ndarray, args: tuple) -> None:
    if len(layer) < SERIAL_BELOW:        # starting threads costs more than it saves
        _solve_masks(layer, nxt, cur, *args, 0, 1)
    else:
        run_pieces(_solve_masks, layer, nxt, cur, *args)


def compile_kernels(rules: Rules) -> float:
    """Compile the solve kernels (or load them from Numba's disk cache);
    returns the seconds it took."""
    start = time.perf_counter()
    none = np.zeros(0, dtype=np.int64)
    empty = np.zeros((1, 1, rules.cap + 1))
    _solve_masks(none, empty, empty, *_kernel_args(rules), 0, 1)
    return time.perf_counter() - start


def solve(rules: Rules, progress: Callable[[int], None] | None = None, *,
          out: np.ndarray | None = None, resume: int = 0,
          checkpoint: Callable[[int], None] | None = None) -> Solution:
    """Solve every reachable turn-start state of ``rules``, in memory.

    Layers (masks with the same number of filled boxes) are solved from the
    full card down.  ``progress(n)`` is called after each layer with its
    ``work_units``.  Without saved rolls, ``checkpoint(done)`` is called with
    the number of layers finished, ``out`` (e.g. a memory map) receives the
    values and with ``resume = n`` its first ``n`` layers are taken as already
    solved.  With saved rolls the values are kept by layer (see
    ``solve_layers`` for solves too large for memory).  Unreachable states
    are NaN.
    """
    compile_seconds = compile_kernels(rules)
    start = time.perf_counter()
    if rules.saved_rolls:
        layers = {}
        for p, values in solve_layers(rules, progress):
            layers[p] = values
        return Solution(rules, layers=tuple(layers[p] for p in sorted(layers)),
                        seconds=time.perf_counter() - start, compile_seconds=compile_seconds)
    shape = (1, rules.space.n_masks, rules.cap + 1)
    values = np.empty(shape) if out is None else out
    if values.shape != shape:
        raise ValueError(f"out has shape {values.shape}, expected {shape}")
    args = _kernel_args(rules)
    if not resume:
        values[...] = np.nan
        masks = np.arange(rules.space.n_masks)
        values[:, masks & rules.space.full_mask == rules.space.full_mask, :] = 0.0
    for i, layer in enumerate(reversed(rules.space.layers[:-1])):
        if i >= resume:
            _run_layer(layer, values, values, args)
            if checkpoint is not None:
                checkpoint(i + 1)
        if progress is not None:
            progress(work_units(rules, rules.n_boxes - 1 - i))
    return Solution(rules, dense=values, seconds=time.perf_counter() - start,
                    compile_seconds=compile_seconds)


def work_units(rules: Rules, filled: int) -> int:
    """Relative cost of solving the layer of masks with ``filled`` boxes
    filled: its masks times the reroll levels of a turn."""
    return len(rules.space.layers[filled]) * (rules.space.bank_limit(filled) + rules.rolls)


def solve_layers(rules: Rules, progress: Callable[[int], None] | None = None,
                 resume: tuple[int, np.ndarray] | None = None
                 ) -> Iterator[tuple[int, np.ndarray]]:
    """Solve saved-rolls rules one layer at a time, from the full card back
    to the empty one, holding only two layers in memory.

    Yields ``(p, values[k, rank, u])`` (float64, shape ``StateSpace.layer_shape(p)``)
    for ``p = n_boxes, ..., 0``; ``resume = (p, values of layer p)`` continues
    after a finished layer ``p``.  ``progress`` as in ``solve``.
    """
    args = _kernel_args(rules)
    if resume is None:
        nxt = np.zeros(rules.space.layer_shape(rules.n_boxes))
        yield rules.n_boxes, nxt
        done = rules.n_boxes
    else:
        done, nxt = resume
        resume = None                      # hold the layer only as nxt: it is freed as we go
        if nxt.shape != rules.space.layer_shape(done):
            raise ValueError(f"layer {done} has shape {nxt.shape}, "
                             f"expected {rules.space.layer_shape(done)}")
    for p in range(done - 1, -1, -1):
        cur = np.full(rules.space.layer_shape(p), np.nan)
        _run_layer(rules.space.layers[p], nxt, cur, args)
        if progress is not None:
            progress(work_units(rules, p))
        yield p, cur
        nxt = cur


def keep_values(rules: Rules, values: StateValues, mask: int, upper: int,
                rerolls: int) -> np.ndarray:
    """``out[m]``: expected score to come when keeping multiset ``m`` (of
    ``rules.dice_space``) with ``rerolls`` >= 1 rerolls left (own and banked),
    at turn state (mask, upper), from solved turn-start ``values``.
    Compiled: for bulk use in process."""
    return turn_keep_values(rules, values, mask, upper, rerolls, rerolls - 1)[0]


def turn_keep_values(rules: Rules, values: StateValues, mask: int, upper: int,
                     rerolls: int, first: int = 0) -> np.ndarray:
    """``out[t - first - 1, m]``: ``keep_values`` with ``t`` rerolls left,
    for every ``t = first + 1 .. rerolls`` at once (one turn's levels)."""
    d = _kernel_data(rules)
    nxt, rank = values.next_layer(mask)
    roll_bonus = d["yahtzee_bonus"] if mask & rules.space.flag_bit else 0.0
    return _keep_values(mask, upper, rerolls, first, np.asarray(nxt), rank, d["allowed"][mask],
                        d["is_upper"], d["cap"], d["bonus"], d["saved"], d["cand_box"],
                        d["cand_score"], d["cand_bits"], d["roll_cand_start"], d["roll_cand"],
                        d["yahtzee_face"], d["joker_boxes"][mask], d["joker_cand"], roll_bonus,
                        d["adds"], d["subs"], d["n_subs"], d["first_roll"], d["faces"])
