r"""One turn, compiled: the kernel functions the solve, the policies and the
player share, and the data they read about a rule set.

The quantities (notation of ``yatzy.tables.build``): with ``t`` rerolls left
after roll ``R`` at turn state ``(mask, u)``,

* ``fill_candidates``: the value of every way to end the turn, points +
  bonus + ``V`` of the state it leads to;
* ``score_rolls``: :math:`X_0(R)`, the best of them for every roll
  (``roll_lists`` and ``score_listed``: the same, each roll's candidates
  listed once for the many levels of a turn with saved rolls);
* ``average_keeps``: :math:`W_t(K) = E[X_{t-1}(K + \text{fresh dice})]`;
* ``best_keeps``: :math:`X_t(R) = \max_{K \subseteq R} W_t(K)`;
* ``advance``: one reroll level, :math:`X_{t-1} \to X_t`;
* ``state_keep_levels``: :math:`W_t` of one state at every level of a turn;
* ``pick``: the tie rule of ``yatzy.rules.ties`` as one compiled step.

Every function works on the upper totals ``u0 .. u0+L-1`` of one mask at once:
work arrays are ``[multiset or candidate, j]`` with ``j = u - u0``
contiguous, so the inner loops vectorise.  The kernels index 2-D arrays
directly (``work[m, j]``) rather than through row views: a view costs a
reference count update, which dominated the many short rows of masks with
few upper totals; loops over rolls read the arrays of ``TurnData`` into
locals first, for the same reason.  Scratch rows start on cache lines and
are never 4 KiB apart (``lane_rows``); ``prefetch`` asks for table rows
before they are read.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from yatzy.kernels import cache as kernel_cache  # noqa: F401  (Numba's cache made safe; every kernel module imports this one)
from yatzy.kernels.scoring import bonus_lanes
from yatzy.rules.ruleset import Joker, Rules
from yatzy.space import state_space

NEG = -1e300
FAST = {"nnan", "ninf", "nsz"}    # lets max() become vmaxpd; values are never NaN/inf
# ``V * mul + add`` as one fused multiply-add: for theta = 0 (mul 1) exactly ``V + add``
FUSED = FAST | {"contract"}


@intrinsic
def fmax(typingctx, a, b):
    """``max(a, b)`` as LLVM's maxnum, so that loops vectorise to vmaxpd."""
    def codegen(context, builder, signature, args):
        t = args[0].type
        fn = builder.module.declare_intrinsic("llvm.maxnum", [t], ir.FunctionType(t, [t, t]))
        return builder.call(fn, args)
    return types.float64(types.float64, types.float64), codegen


@intrinsic
def prefetch(typingctx, arr, i):
    """Ask for the cache line of element ``i`` of the C-contiguous ``arr``
    (counted as if it were flat) ahead of its use: LLVM's ``prefetch``,
    which changes no value and never faults."""
    def codegen(context, builder, sig, args):
        ary = context.make_array(sig.args[0])(context, builder, args[0])
        ptr = builder.gep(ary.data, [args[1]])
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()
    return types.void(arr, types.intp), codegen


class TurnData(NamedTuple):
    """What the turn kernels read about one rule set (``turn_data(rules)``,
    built once per rule set).  ``M`` multisets of 0..n dice, the full rolls
    being ``first_roll + r``; ``C`` candidates (ways to end a turn with
    points > 0).

    * ``rows[mask]``        the row of a mask in a values array (the mask
      itself, or its rank in its layer with saved rolls)
    * ``allowed[mask]``     boxes that may be filled next (bitmask)
    * ``start[mask]``, ``lanes[mask]``  the upper totals a mask solves,
      ``start .. lanes-1`` (``StateSpace.lane_start``, ``upper_lanes``)
    * ``is_upper[b]``; ``cap`` the bonus threshold (0: no bonus), ``bonus``
      its points; ``rolls`` per turn; ``saved``: rolls are banked
    * ``cand_box[c]``, ``cand_score[c]``, ``cand_bits[c]``: candidate ``c``
      writes ``cand_score`` points in ``cand_box`` and sets ``cand_bits``
      (sorted by box, then points)
    * ``theta``: the objective (``values.utility``): 0 maximises the expected
      score, else the expected utility ``-exp(-theta x) / theta``;
      ``gain_mul[c], gain_add[c]``: the value of candidate ``c`` is
      ``V * gain_mul + gain_add`` for the value ``V`` of the state it leads
      to (``utility_shift`` of its points), ``bonus_mul[c], bonus_add[c]``
      the same with the upper bonus earned too; ``ybonus_mul``,
      ``ybonus_add`` the yahtzee bonus
    * ``roll_cand[roll_cand_start[r]:roll_cand_start[r + 1]]``: the
      candidates of roll ``r`` (by box); any other box scores 0;
      ``cand_of[r, b]`` the candidate of roll ``r`` in box ``b`` (-1: 0 points)
    * ``yahtzee_face[r]``: face of a roll of all dice alike, else -1;
      ``joker_boxes[mask, f]``: boxes such a roll of face ``f`` must go in as
      a joker (0: the usual rules); ``joker_cand[f, b]``: its candidate in
      box ``b``; ``flag_bit``, ``yahtzee_bonus`` (points of a further yahtzee)
    * ``adds[m, f]``: ``m`` plus a die showing ``f + 1``, padded to a
      multiple of 6 with ``M`` (an all-zero work row)
    * ``subs[m, j]``: the multisets one die smaller than ``m``
      (``n_subs[m]`` of them, padded with ``m``)
    * ``roll_prob[r]``; ``first_roll``; ``faces``
    """

    rows: np.ndarray
    allowed: np.ndarray
    start: np.ndarray
    lanes: np.ndarray
    is_upper: np.ndarray
    cap: int
    bonus: float
    rolls: int
    saved: bool
    cand_box: np.ndarray
    cand_score: np.ndarray
    cand_bits: np.ndarray
    theta: float
    gain_mul: np.ndarray
    gain_add: np.ndarray
    bonus_mul: np.ndarray
    bonus_add: np.ndarray
    ybonus_mul: float
    ybonus_add: float
    roll_cand_start: np.ndarray
    roll_cand: np.ndarray
    cand_of: np.ndarray
    yahtzee_face: np.ndarray
    joker_boxes: np.ndarray
    joker_cand: np.ndarray
    flag_bit: int
    yahtzee_bonus: float
    adds: np.ndarray
    subs: np.ndarray
    n_subs: np.ndarray
    roll_prob: np.ndarray
    first_roll: int
    faces: int


def utility_shift(theta: float, points) -> tuple[np.ndarray, np.ndarray]:
    """``(mul, add)`` with ``utility(points + x) == utility(x) * mul + add``
    (``yatzy.tables.values.utility``):
    ``(1, points)`` for ``theta = 0``, ``(exp(-theta points), 0)`` else."""
    points = np.asarray(points, dtype=np.float64)
    if theta == 0:
        return np.ones_like(points), points
    return np.exp(-theta * points), np.zeros_like(points)


@lru_cache(maxsize=16)
def turn_data(rules: Rules, theta: float = 0.0) -> TurnData:
    """The ``TurnData`` of ``rules`` for the objective ``theta`` (cached)."""
    ds = rules.dice_space
    sp = state_space(rules)
    adds, subs, n_subs = dice_tables(ds)
    cand_box, cand_score, cand_bits, roll_cand_start, roll_cand = candidates(rules)
    gain_mul, gain_add = utility_shift(theta, cand_score)
    bonus_mul, bonus_add = utility_shift(theta, cand_score + rules.bonus_points)
    ybonus_mul, ybonus_add = utility_shift(theta, float(rules.yahtzee_bonus))
    return TurnData(
        rows=sp.rows, allowed=sp.allowed_table, start=sp.lane_start, lanes=sp.upper_lanes,
        is_upper=rules.is_upper, cap=rules.cap, bonus=float(rules.bonus_points),
        rolls=rules.rolls, saved=rules.saved_rolls, cand_box=cand_box, cand_score=cand_score,
        cand_bits=cand_bits, theta=float(theta), gain_mul=gain_mul, gain_add=gain_add,
        bonus_mul=bonus_mul, bonus_add=bonus_add, ybonus_mul=float(ybonus_mul),
        ybonus_add=float(ybonus_add), roll_cand_start=roll_cand_start, roll_cand=roll_cand,
        cand_of=candidate_of(rules.dice_space.n_rolls, rules.n_boxes, cand_box, roll_cand_start,
                             roll_cand),
        yahtzee_face=rules.yahtzee_face, joker_boxes=sp.joker_boxes,
        joker_cand=joker_candidates(rules, cand_box, cand_score), flag_bit=sp.flag_bit,
        yahtzee_bonus=float(rules.yahtzee_bonus), adds=adds, subs=subs, n_subs=n_subs,
        roll_prob=ds.roll_prob, first_roll=ds.first_roll, faces=ds.faces)


def dice_tables(ds) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``adds``, ``subs``, ``n_subs`` of ``TurnData`` for a ``DiceSpace``,
    padded so that rows go six at a time."""
    width = -(-ds.faces // 6) * 6
    m = ds.n_multisets
    adds = np.full((m, width), m, dtype=np.int64)
    adds[:, :ds.faces] = ds.add
    subs = np.repeat(np.arange(m)[:, None], ds.faces + 1, axis=1)
    for i, row in enumerate(ds.sub):
        smaller = row[row >= 0]
        subs[i, :len(smaller)] = smaller
    return adds, subs, (ds.sub >= 0).sum(axis=1)


def _pairs(rules: Rules) -> list[tuple[int, int]]:
    """The distinct (box, points > 0) a turn can end with, joker points included."""
    scores, jp = rules.scores, rules.joker_points
    pairs = {(b, int(s)) for b in range(rules.n_boxes) for s in scores[:, b] if s > 0}
    if rules.joker is not Joker.NONE:
        pairs |= {(b, int(jp[f, b])) for f in range(rules.faces) for b in range(rules.n_boxes)}
    return sorted(pairs)


def candidates(rules: Rules) -> tuple[np.ndarray, ...]:
    """``cand_box``, ``cand_score``, ``cand_bits``, ``roll_cand_start``,
    ``roll_cand`` of ``TurnData``."""
    pairs = _pairs(rules)
    index = {p: k for k, p in enumerate(pairs)}
    per_roll = [[index[(b, int(s))] for b, s in enumerate(row) if s > 0] for row in rules.scores]
    start = np.cumsum([0] + [len(c) for c in per_roll]).astype(np.int64)
    flat = np.array([k for c in per_roll for k in c], dtype=np.int64)
    return (np.array([b for b, _ in pairs], dtype=np.int64),
            np.array([s for _, s in pairs], dtype=np.int64),
            np.array([state_space(rules).child_mask(0, b, s) for b, s in pairs], dtype=np.int64),
            start, flat)


def candidate_of(n_rolls: int, n_boxes: int, cand_box: np.ndarray, roll_cand_start: np.ndarray,
                 roll_cand: np.ndarray) -> np.ndarray:
    """``cand_of[r, b]`` of ``TurnData``: the candidate of roll ``r`` in box
    ``b``, -1 where it scores 0."""
    out = np.full((n_rolls, n_boxes), -1, dtype=np.int64)
    for r in range(n_rolls):
        for k in roll_cand[roll_cand_start[r]:roll_cand_start[r + 1]]:
            out[r, cand_box[k]] = k
    return out


def joker_candidates(rules: Rules, cand_box: np.ndarray, cand_score: np.ndarray) -> np.ndarray:
    """``joker_cand[f, b]``: the candidate a joker of face ``f`` scores in box ``b``."""
    out = np.full((rules.faces, rules.n_boxes), -1, dtype=np.int64)
    if rules.joker is not Joker.NONE:
        index = {(int(b), int(s)): k for k, (b, s) in enumerate(zip(cand_box, cand_score))}
        jp = rules.joker_points
        out[:] = [[index[(b, int(jp[f, b]))] for b in range(rules.n_boxes)]
                  for f in range(rules.faces)]
    return out


# ------------------------------------------------------------------ kernels
@njit(cache=True, fastmath=FAST)
def pick(v, best, code, chosen, tie):
    """The tie rule of ``yatzy.rules.ties`` as one step of a running maximum: the
    preference code chosen once a candidate of value ``v`` and code ``code``
    meets the running maximum ``best`` and choice ``chosen``: the candidate
    if it is better by more than ``tie``, the lower code if the two are tied.
    (Codes are whole numbers, held as floats where the loops vectorise.)"""
    tied = min(chosen, code) if v >= best - tie else chosen
    return code if v > best + tie else tied


@njit(cache=True, fastmath=FUSED)
def fill_candidates(d, mask, u0, L, values, cand, zero):
    """Values of every way to end the turn, for upper totals ``u0 .. u0+L-1``.

    ``values[d.rows[mask], u]``  expected score to come at a turn start (mask, u)
    ``cand[c, j]``      value of candidate ``c`` at upper total ``u0 + j``:
                        points, bonus and the future (state ``mask | cand_bits[c]``)
    ``zero[j]``         best value of scratching an allowed box (0 points)
    """
    allowed = d.allowed[mask]
    cap = d.cap
    for j in range(L):
        zero[j] = NEG
    for b in range(len(d.is_upper)):
        if (allowed >> b) & 1:
            child = d.rows[mask | (1 << b)]
            for j in range(L):
                zero[j] = fmax(zero[j], values[child, u0 + j])
    for k in range(len(d.cand_box)):
        b = d.cand_box[k]
        if (allowed >> b) & 1 == 0:
            continue
        child = d.rows[mask | d.cand_bits[k]]
        s = d.cand_score[k]
        mul, add = d.gain_mul[k], d.gain_add[k]       # + s points (theta = 0: 1, s)
        below, reach = bonus_lanes(d, b, s, u0, L)    # the upper bonus rule, lane by lane
        for j in range(below):                        # u + s < T: no bonus yet
            cand[k, j] = values[child, u0 + s + j] * mul + add
        if reach > below:                             # u < T <= u + s: the bonus now
            bonus = values[child, cap] * d.bonus_mul[k] + d.bonus_add[k]
            for j in range(below, reach):
                cand[k, j] = bonus
        for j in range(reach, L):                     # u stays (lower box, bonus held)
            cand[k, j] = values[child, u0 + j] * mul + add


class RollLists(NamedTuple):
    """The candidates of every roll at one mask (``roll_lists``): roll
    ``r``'s are ``lst[start[r]:start[r] + padded(count[r])]``, repeats
    padding them; ``kind[r]`` bit 1: scratching (``zero``) is a choice too,
    bit 2: the yahtzee bonus is added."""

    lst: np.ndarray
    start: np.ndarray
    count: np.ndarray
    kind: np.ndarray


@njit(cache=True)
def roll_lists_for(d):
    """An empty ``RollLists`` for the rules of ``d``."""
    n = len(d.roll_prob)
    size = len(d.roll_cand) + 6 * n + d.joker_cand.size
    return RollLists(np.empty(size, dtype=np.int64), np.empty(n, dtype=np.int64),
                     np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64))


@njit(cache=True)
def padded(n):
    """The entries of a roll's list of ``n`` candidates: three for the
    first pass over the row (with the scratch), four for each further one."""
    return 3 if n <= 3 else 3 + -(-(n - 3) // 4) * 4


@njit(cache=True)
def roll_lists(d, mask, lists):
    """The candidates each roll may end the turn with at ``mask``, into the
    ``RollLists`` ``lists``: once for all the reroll levels of a turn.

    A roll of all dice alike (``yahtzee_face[r] = f >= 0``) may have to be
    a joker: it goes only in the boxes ``joker_boxes[mask, f]`` (if not 0),
    as candidate ``joker_cand[f, b]``, and with the flag bit set earns the
    yahtzee bonus on top.  (The arrays are read into locals first: read
    through ``d`` in the loop, each would be reference-counted per roll.)
    """
    lst, start, count, kind = lists
    yahtzee_face, joker_boxes, joker_cand = d.yahtzee_face, d.joker_boxes, d.joker_cand
    roll_cand_start, roll_cand, cand_box = d.roll_cand_start, d.roll_cand, d.cand_box
    allowed = d.allowed[mask]
    bonus = mask & d.flag_bit != 0 and d.yahtzee_bonus != 0.0
    at = 0
    for r in range(len(start)):
        f = yahtzee_face[r]
        jokers = joker_boxes[mask, f] if f >= 0 else 0
        n = 0
        if jokers != 0:
            for b in range(joker_cand.shape[1]):
                if (jokers >> b) & 1:
                    lst[at + n] = joker_cand[f, b]
                    n += 1
            kind[r] = 0
        else:
            for i in range(roll_cand_start[r], roll_cand_start[r + 1]):
                k = roll_cand[i]
                lst[at + n] = k                        # kept if its box is allowed:
                n += (allowed >> cand_box[k]) & 1      # no branch to mispredict
            kind[r] = 1
        if f >= 0 and bonus:
            kind[r] |= 2
        for i in range(n, padded(n)):
            lst[at + i] = lst[at + n - 1] if n > 0 else -1
        start[r], count[r] = at, n
        at += padded(n)


@njit(cache=True, fastmath=FAST)
def score_listed(d, L, cand, zero, work, lists, into, spare):
    """``work[first_roll + r, j]`` = value of the best way to end the turn
    with roll ``r`` (``X_0``) for ``j < L``, from ``fill_candidates``'
    ``cand`` and ``zero`` and the mask's ``RollLists``: three or four
    candidates per pass over the row.  With ``into``, the larger of that and
    what ``work[first_roll + r, j]`` holds (a roll with the yahtzee bonus is
    scored in ``spare[r]`` first)."""
    first = d.first_roll
    lst, start, count, kind = lists
    ymul, yadd = d.ybonus_mul, d.ybonus_add
    for r in range(len(start)):
        at, n, k = start[r], count[r], kind[r]
        bonus = k & 2 != 0
        out, w = (spare, r) if bonus and into else (work, first + r)
        keep = into and not bonus
        if n == 0:
            for j in range(L):
                out[w, j] = fmax(out[w, j] if keep else NEG, zero[j] if k & 1 else NEG)
        else:
            a, b, c = lst[at], lst[at + 1], lst[at + 2]
            if keep:
                if k & 1:
                    for j in range(L):
                        out[w, j] = fmax(fmax(out[w, j], zero[j]),
                                         fmax(cand[a, j], fmax(cand[b, j], cand[c, j])))
                else:
                    for j in range(L):
                        out[w, j] = fmax(out[w, j], fmax(cand[a, j], fmax(cand[b, j], cand[c, j])))
            elif k & 1:
                for j in range(L):
                    out[w, j] = fmax(fmax(zero[j], cand[a, j]), fmax(cand[b, j], cand[c, j]))
            else:
                for j in range(L):
                    out[w, j] = fmax(cand[a, j], fmax(cand[b, j], cand[c, j]))
            for i in range(at + 3, at + padded(n), 4):
                a, b, c, e = lst[i], lst[i + 1], lst[i + 2], lst[i + 3]
                for j in range(L):
                    out[w, j] = fmax(out[w, j], fmax(fmax(cand[a, j], cand[b, j]),
                                                     fmax(cand[c, j], cand[e, j])))
        if bonus:
            for j in range(L):
                out[w, j] = out[w, j] * ymul + yadd
            if into:
                for j in range(L):
                    work[first + r, j] = fmax(work[first + r, j], out[w, j])


@njit(cache=True, fastmath=FAST)
def score_rolls(d, mask, L, first, cand, zero, work):
    """``work[first + r, j]`` = value of the best box for roll ``r``
    (``X_0``), from ``fill_candidates``' ``cand`` and ``zero``.

    A roll of all dice equal (``yahtzee_face[r] = f >= 0``) may instead have
    to be a joker: it goes only in the boxes ``joker_boxes[mask, f]`` (if not
    0), as candidate ``joker_cand[f, b]``, and with the flag bit set earns
    the yahtzee bonus on top.  (For the many reroll levels of a turn with
    saved rolls, ``roll_lists`` lists the same choices once and
    ``score_listed`` scores them.)
    """
    allowed = d.allowed[mask]
    roll_bonus = mask & d.flag_bit != 0 and d.yahtzee_bonus != 0.0
    chosen = np.empty(len(d.cand_box), dtype=np.int64)
    for r in range(len(d.roll_cand_start) - 1):
        w = first + r
        f = d.yahtzee_face[r]
        jokers = d.joker_boxes[mask, f] if f >= 0 else 0
        if jokers != 0:
            for j in range(L):
                work[w, j] = NEG
            for b in range(d.joker_cand.shape[1]):
                if (jokers >> b) & 1:
                    c = d.joker_cand[f, b]
                    for j in range(L):
                        work[w, j] = fmax(work[w, j], cand[c, j])
        else:
            # the allowed candidates of this roll, then three or four per pass over the row
            n = 0
            for i in range(d.roll_cand_start[r], d.roll_cand_start[r + 1]):
                k = d.roll_cand[i]
                chosen[n] = k                          # kept if its box is allowed:
                n += (allowed >> d.cand_box[k]) & 1    # no branch to mispredict
            if n == 0:
                for j in range(L):
                    work[w, j] = zero[j]
            else:
                a, b, c = chosen[0], chosen[min(1, n - 1)], chosen[min(2, n - 1)]
                for j in range(L):
                    work[w, j] = fmax(fmax(zero[j], cand[a, j]), fmax(cand[b, j], cand[c, j]))
            for i in range(3, n, 4):
                a, b = chosen[i], chosen[min(i + 1, n - 1)]
                c, e = chosen[min(i + 2, n - 1)], chosen[min(i + 3, n - 1)]
                for j in range(L):
                    work[w, j] = fmax(work[w, j], fmax(fmax(cand[a, j], cand[b, j]),
                                                       fmax(cand[c, j], cand[e, j])))
        if f >= 0 and roll_bonus:
            for j in range(L):
                work[w, j] = work[w, j] * d.ybonus_mul + d.ybonus_add


@njit(cache=True, fastmath=FAST)
def average_keeps(d, L, work):
    """``W_t``: ``work[m]`` = mean of ``work[m + one die]`` for every keep
    ``m < first_roll``, from the full rolls down to the empty keep, six
    faces per pass over the row (``adds`` is padded to a multiple of six)."""
    adds = d.adds
    inv = 1.0 / d.faces
    last = adds.shape[1] - 6
    for m in range(d.first_roll - 1, -1, -1):
        for f in range(0, last + 1, 6):
            a, b, c = adds[m, f], adds[m, f + 1], adds[m, f + 2]
            e, g, h = adds[m, f + 3], adds[m, f + 4], adds[m, f + 5]
            if last == 0:
                for j in range(L):
                    work[m, j] = (((work[a, j] + work[b, j]) + (work[c, j] + work[e, j]))
                                  + (work[g, j] + work[h, j])) * inv
            elif f == 0:
                for j in range(L):
                    work[m, j] = (((work[a, j] + work[b, j]) + (work[c, j] + work[e, j]))
                                  + (work[g, j] + work[h, j]))
            elif f == last:
                for j in range(L):
                    work[m, j] = (work[m, j] + ((work[a, j] + work[b, j])
                                                + (work[c, j] + work[e, j]))
                                  + (work[g, j] + work[h, j])) * inv
            else:
                for j in range(L):
                    work[m, j] += (((work[a, j] + work[b, j]) + (work[c, j] + work[e, j]))
                                   + (work[g, j] + work[h, j]))


@njit(cache=True, fastmath=FAST)
def best_keeps(d, L, work):
    """``X_t``: ``work[m]`` = best keep contained in ``m``, from small to
    large: one pass over the row for up to three smaller multisets, one for
    up to six (``subs`` is padded with ``m`` itself; each pass over a row
    costs more than the loads it saves)."""
    subs = d.subs
    if subs.shape[1] < 6:
        for m in range(1, d.adds.shape[0]):
            for f in range(d.n_subs[m]):
                a = subs[m, f]
                for j in range(L):
                    work[m, j] = fmax(work[m, j], work[a, j])
        return
    for m in range(1, d.adds.shape[0]):
        n = d.n_subs[m]
        for f in range(0, n, 6):
            a, b, c = subs[m, f], subs[m, min(f + 1, n - 1)], subs[m, min(f + 2, n - 1)]
            if n - f <= 3:
                for j in range(L):
                    work[m, j] = fmax(work[m, j], fmax(work[a, j], fmax(work[b, j], work[c, j])))
            else:
                e, g, h = (subs[m, min(f + 3, n - 1)], subs[m, min(f + 4, n - 1)],
                           subs[m, min(f + 5, n - 1)])
                for j in range(L):
                    work[m, j] = fmax(fmax(work[m, j], fmax(work[a, j], work[b, j])),
                                      fmax(fmax(work[c, j], work[e, j]), fmax(work[g, j], work[h, j])))


class TurnWork(NamedTuple):
    """Scratch arrays of one turn's reroll levels (``advance``), upper totals
    ``u0 + j`` in column ``j``:

    * ``cand[c, j]``    the value of candidate ``c`` (``fill_candidates``)
    * ``zero[j]``       the best scratch (0 points)
    * ``work[m, j]``    the current level's value of multiset ``m``; the last
      row stays 0 (it pads ``adds``)
    * ``scored[r, j]``  with saved rolls, the value of scoring roll ``r`` now
      where the yahtzee bonus is added (``score_listed``)
    * ``mean[j]``       the turn-start value (``kernels.solve``)
    * ``lists``         the mask's ``RollLists`` (made at ``t = 0``)
    """

    cand: np.ndarray
    zero: np.ndarray
    work: np.ndarray
    scored: np.ndarray
    mean: np.ndarray
    lists: RollLists


@njit(cache=True)
def lane_rows(rows, width):
    """A zeroed C-contiguous ``[rows, stride]`` array, ``stride >= width``,
    whose rows start on 64-byte boundaries (a vector load never straddles
    two cache lines) and are not 4 KiB apart (a store to one row would
    stall loads from the next: the processor matches addresses on their low
    12 bits)."""
    stride = -(-width // 8) * 8
    if stride % 512 == 0:
        stride += 8
    buf = np.zeros(rows * stride + 8)
    first = (64 - buf.ctypes.data % 64) % 64 // 8
    return buf[first:first + rows * stride].reshape((rows, stride))


@njit(cache=True)
def turn_work(d, width):
    """A ``TurnWork`` for ``width`` upper totals of the rules of ``d``
    (rows as ``lane_rows``)."""
    return TurnWork(lane_rows(len(d.cand_box), width), np.empty(width),
                    lane_rows(d.adds.shape[0] + 1, width),
                    lane_rows(len(d.roll_prob), width), np.empty(width), roll_lists_for(d))


@njit(cache=True, fastmath=FAST)
def advance(d, t, mask, u0, L, nxt, w):
    """``X_t`` from ``X_{t-1}``: ``w.work[first_roll + r]`` becomes the value
    of roll ``r`` with ``t`` rerolls left (upper totals ``u0 .. u0+L-1``;
    ``w`` a ``TurnWork``).

    ``nxt[k, rows[mask'], u]``: turn-start values of the states the turn
    leads to, with ``k`` rolls banked.  With saved rolls, stopping with ``t``
    rerolls left banks them (as many as the bank axis holds: all of them
    unless the rules cap the bank), so scoring is valued again at every ``t``,
    after the keeps, and the better of the two taken; without, it is valued
    once, at ``t = 0``, and keeping all dice carries it up.
    """
    cand, zero, work = w.cand, w.zero, w.work
    if t > 0:
        average_keeps(d, L, work)
        best_keeps(d, L, work)
    if d.saved:
        if t == 0:
            roll_lists(d, mask, w.lists)
        fill_candidates(d, mask, u0, L, nxt[min(t, nxt.shape[0] - 1)], cand, zero)
        score_listed(d, L, cand, zero, work, w.lists, t > 0, w.scored)
    elif t == 0:
        fill_candidates(d, mask, u0, L, nxt[0], cand, zero)
        score_rolls(d, mask, L, d.first_roll, cand, zero, work)


@njit(cache=True)
def state_keep_levels(d, mask, u, rerolls, first, nxt):
    """``out[t - first - 1, m]``: value of keeping multiset ``m`` with ``t``
    rerolls left at turn state (mask, u), for ``t = first + 1 .. rerolls``
    (one lane of the solve; keeping a full roll is that roll with one reroll
    fewer)."""
    n_multisets = d.adds.shape[0]
    w = turn_work(d, 1)
    work = w.work
    keep = np.zeros((n_multisets + 1, 1))
    out = np.empty((rerolls - first, n_multisets))
    for t in range(rerolls):
        advance(d, t, mask, u, 1, nxt, w)
        if t >= first:                     # W_{t+1}: averaged from X_t (a copy but last)
            avg = work
            if t < rerolls - 1:
                keep[:, 0] = work[:, 0]
                avg = keep
            average_keeps(d, 1, avg)
            out[t - first] = avg[:n_multisets, 0]
    return out
