r"""Policy kernels: the action of every position, decided for whole masks.

``PolicyTables`` (``policy_tables(rules, theta)``) is what they read about
a rule set; ``batch`` decides a batch of masks for one policy kind
(``KINDS``: optimal, greedy, simple) and, for the exact distribution and
the futures table, pushes every roll's probability through the actions
into turn outcomes (``Outcomes``) or records the actions (``ActionRows``).
Every choice is one step of ``kernels.turn.pick``, the compiled tie rule.
``yatzy.players.policy`` is the Python side (``decide``).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
from numba import njit

from yatzy.errors import InputError
from yatzy.kernels.turn import (
    FAST,
    NEG,
    TurnData,
    average_keeps,
    fill_candidates,
    fmax,
    pick,
    turn_data,
)
from yatzy.rules.objectives import POLICIES
from yatzy.rules.ruleset import Joker, Rules
from yatzy.rules.ties import TIE, keep_ranks
from yatzy.space import state_space

# the policies these kernels decide, by their kernel index (rules.objectives)
KINDS = tuple(p.name for p in sorted(POLICIES, key=lambda p: p.kernel) if p.kernel >= 0)


SIMPLE = KINDS.index("simple")


BLOCK = 128          # columns (upper totals of one or more masks) decided together


class PolicyTables(NamedTuple):
    """Everything the policy kernels need about one rule set: the turn
    kernels' ``turn`` (``yatzy.kernels.turn.TurnData``: ``R`` rolls, ``M``
    multisets of 0..n dice, the full rolls being ``first_roll + r``) and:

    * ``out_box[c], out_pts[c], out_extra[c]``  every (box, points, yahtzee
      bonus points) a turn can end with, by box, points, bonus;
      ``out_start[b]:out_start[b + 1]`` are box ``b``'s, ``out_best[b]`` their
      most points; ``out_flag[c]``: whether the outcome sets the flag bit (50
      in the yatzy box ``flag_box``, -1 without a flag bit)
    * ``cidx[r, b]``     the outcome of scoring roll ``r`` in box ``b``
    * ``yface[r]``       the face of a roll of all dice alike where jokers or a
      yahtzee bonus can apply, else -1; ``yidx[f, b, joker, bonus]`` the
      outcome of such a roll in box ``b`` (as a joker or not, with the
      yahtzee bonus or not)
    * ``rank[m]``        preference rank of a non-full multiset (0 = most
      preferred keep, ``yatzy.rules.ties.keep_ranks``); ``by_rank[i]`` the
      multiset of rank ``i``
    * ``gather[m, j]``   the multisets one die smaller than ``m``, padded to a
      multiple of 3 with ``M``
    * ``simple_keep[r]`` rank of the keep of the ``simple`` policy (-1: stop)
    * ``tie``            values closer than this are ties (``ties.TIE``; 0
      under a risk parameter, whose expected utilities have no fixed scale)
    """

    turn: TurnData
    out_box: np.ndarray
    out_pts: np.ndarray
    out_extra: np.ndarray
    out_flag: np.ndarray
    out_start: np.ndarray
    out_best: np.ndarray
    flag_box: int
    cidx: np.ndarray
    yface: np.ndarray
    yidx: np.ndarray
    rank: np.ndarray
    by_rank: np.ndarray
    gather: np.ndarray
    simple_keep: np.ndarray
    tie: float


def check_policy_rules(rules: Rules, command: str = "distribution") -> None:
    """Raise InputError for rules the compiled research kernels (``policy``:
    exact distribution, fast simulation) do not model."""
    hint = "; the game-by-game player plays these rules" if command == "distribution" else ""
    if rules.saved_rolls:
        raise InputError(f"rules {rules.spec}: {command} does not support saved rolls yet{hint}")
    if rules.n_boxes + rules.dice_space.first_roll > 255:
        raise InputError(f"rules {rules.spec}: {command} does not support games with more "
                         f"than 255 boxes and keeps yet{hint}")


@cache
def policy_tables(rules: Rules, theta: float = 0.0) -> PolicyTables:
    """The kernel tables for ``rules`` and the objective ``theta`` (cached)."""
    check_policy_rules(rules)
    ds = rules.dice_space
    d = turn_data(rules, theta)
    scores = rules.scores
    nr = ds.n_rolls
    special = rules.joker is not Joker.NONE or rules.yahtzee_bonus > 0
    yface = np.where(special, rules.yahtzee_face, -1).astype(np.int64)
    alike = {int(f): r for r, f in enumerate(yface) if f >= 0}    # face -> its roll
    jp = rules.joker_points

    def outcome(b, p, e):
        return (b, int(p), e * rules.yahtzee_bonus)

    outs = {outcome(b, p, 0) for b in range(rules.n_boxes) for p in rules.box_points[b]}
    ycases = [(f, b, j, e) for f in alike for b in range(rules.n_boxes)
              for j in (0, 1) for e in (0, 1)]
    outs |= {outcome(b, jp[f, b] if j else scores[alike[f], b], e) for f, b, j, e in ycases}
    outs = sorted(outs)
    index = {o: c for c, o in enumerate(outs)}
    out_box = np.array([b for b, _, _ in outs], dtype=np.int64)
    out_pts = np.array([p for _, p, _ in outs], dtype=np.int64)
    out_start = np.searchsorted(out_box, np.arange(rules.n_boxes + 1))
    cidx = np.array([[index[outcome(b, scores[r, b], 0)] for b in range(rules.n_boxes)]
                     for r in range(nr)], dtype=np.int64).reshape(nr, rules.n_boxes)
    yidx = np.zeros((ds.faces, rules.n_boxes, 2, 2), dtype=np.int64)
    for f, b, j, e in ycases:
        yidx[f, b, j, e] = index[outcome(b, jp[f, b] if j else scores[alike[f], b], e)]
    rank = keep_ranks(rules)
    gather = np.full((ds.n_multisets, -(-d.n_subs.max() // 3) * 3), ds.n_multisets,
                     dtype=np.int64)
    for m, n in enumerate(d.n_subs):
        gather[m, :n] = d.subs[m, :n]
    counts = ds.roll_counts()
    face = ds.faces - 1 - np.argmax(counts[:, ::-1], axis=1)   # most common, higher on ties
    most = counts[np.arange(nr), face]
    simple_keep = np.array([-1 if c == ds.n else
                            rank[ds.index[tuple(c if g == f else 0 for g in range(ds.faces))]]
                            for f, c in zip(face, most)], dtype=np.int64)
    flag = state_space(rules).flag_bit
    return PolicyTables(d, out_box, out_pts, np.array([e for _, _, e in outs], dtype=np.int64),
                np.array([state_space(rules).child_mask(0, b, p) & flag != 0 for b, p, _ in outs]),
                out_start.astype(np.int64), np.maximum.reduceat(out_pts, out_start[:-1]),
                rules.yatzy_box if flag else -1, cidx, yface, yidx, rank, np.argsort(rank),
                gather, simple_keep, TIE if theta == 0 else 0.0)


class DecideWork(NamedTuple):
    """Work arrays of ``decide_block`` (column ``j`` last; ranks and boxes
    are whole numbers held as floats so that the selecting loops vectorise):

    * ``tmp[c, u], tmpz[u]``  one segment's candidates (``turn.fill_candidates``)
    * ``val[c, j]``      points + bonus + future of the engine's candidate
      ``c`` (``NEG`` where its box is not allowed)
    * ``zv[j], zb[j]``   best scratch (0 points): value and box
    * ``xs[r, j]``       ``X_0(r)``; ``box0[r, j]`` the box chosen for roll ``r``
    * ``work[m, j]``     ``W_k`` of a non-full multiset ``m``, ``X_{k-1}`` of a
      full roll; the last row stays 0 (it pads ``adds``)
    * ``bv[m, j], br[m, j]``  best ``W_k`` among the sub-multisets of a
      non-full ``m`` (``m`` included) and the rank of that keep
    * ``kr[j]``          rank of the keep chosen for the current roll
    * ``dec[k, r, j]``   the output: the action with ``k`` rerolls left after
      roll ``r`` in column ``j``
    """

    tmp: np.ndarray
    tmpz: np.ndarray
    val: np.ndarray
    zv: np.ndarray
    zb: np.ndarray
    xs: np.ndarray
    box0: np.ndarray
    work: np.ndarray
    bv: np.ndarray
    br: np.ndarray
    kr: np.ndarray
    dec: np.ndarray


@njit(cache=True, fastmath=FAST)
def decide_block(g, values, segs, n_segs, n, w):
    """``w.dec[k, r, j]``: the action (for ``values``) with ``k`` rerolls
    left after roll ``r`` in column ``j < n``.  The columns are upper totals
    of one or more masks: segment ``s`` (``segs[s] = (i, mask, u0, count,
    first column)``, ``s < n_segs``) holds totals ``u0 .. u0 + count - 1``
    of ``mask``.  Deciding several masks side by side keeps the loops long.
    ``w``: the work arrays (``DecideWork``); values closer than ``g.tie``
    are ties.
    """
    tie = g.tie
    tmp, tmpz, val, zv, zb, xs, box0, work, bv, br, kr, dec = w
    tu = g.turn                # the turn data, taken out of g once (not in the loops)
    nb = len(tu.is_upper)
    union = 0                                  # boxes allowed in some segment
    for s in range(n_segs):
        union |= tu.allowed[segs[s, 1]]
    for s in range(n_segs):
        mask, u0, ns, off = segs[s, 1], segs[s, 2], segs[s, 3], segs[s, 4]
        allowed = tu.allowed[mask]
        fill_candidates(g.turn, mask, u0, ns, values, tmp, tmpz)
        for c in range(len(tu.cand_box)):
            b = tu.cand_box[c]
            if (allowed >> b) & 1:
                for j in range(ns):
                    val[c, off + j] = tmp[c, j]
            elif (union >> b) & 1:
                for j in range(ns):
                    val[c, off + j] = NEG
        for j in range(ns):
            zv[off + j] = NEG
            zb[off + j] = nb
        for b in range(nb):
            if (allowed >> b) & 1 == 0:
                continue
            child = mask | (1 << b)
            fb = np.float64(b)
            for j in range(ns):                # scratch b (0 points)
                zb[off + j] = pick(values[child, u0 + j], zv[off + j], fb, zb[off + j], tie)
                zv[off + j] = fmax(zv[off + j], values[child, u0 + j])
    # k = 0: the best box for every roll.
    for r in range(len(tu.roll_cand_start) - 1):
        for j in range(n):
            xs[r, j] = zv[j]
            box0[r, j] = zb[j]
        for i in range(tu.roll_cand_start[r], tu.roll_cand_start[r + 1]):
            c = tu.roll_cand[i]
            b = tu.cand_box[c]
            if (union >> b) & 1 == 0:
                continue
            fb = np.float64(b)
            for j in range(n):
                box0[r, j] = pick(val[c, j], xs[r, j], fb, box0[r, j], tie)
                xs[r, j] = fmax(xs[r, j], val[c, j])
        if g.yface[r] >= 0:
            alike(g, r, segs, n_segs, tie, val, xs, box0)
        w = tu.first_roll + r
        for j in range(n):
            dec[0, r, j] = np.uint8(box0[r, j])
            work[w, j] = xs[r, j]
    for k in range(1, tu.rolls):
        average_keeps(g.turn, n, work)    # W_k, the engine's phase
        # bv, br: the best keep among the sub-multisets of m, m included.
        for m in range(tu.first_roll):
            rm = np.float64(g.rank[m])
            for j in range(n):
                bv[m, j] = work[m, j]
                br[m, j] = rm
            for i in range(tu.n_subs[m]):
                a = tu.subs[m, i]
                for j in range(n):
                    br[m, j] = pick(bv[a, j], bv[m, j], br[a, j], br[m, j], tie)
                    bv[m, j] = fmax(bv[m, j], bv[a, j])
        # each roll: its best proper keep against scoring it now.
        for r in range(len(tu.roll_cand_start) - 1):
            m = tu.first_roll + r
            a = tu.subs[m, 0]
            for j in range(n):
                work[m, j] = bv[a, j]
                kr[j] = br[a, j]
            for i in range(1, tu.n_subs[m]):
                a = tu.subs[m, i]
                for j in range(n):
                    kr[j] = pick(bv[a, j], work[m, j], br[a, j], kr[j], tie)
                    work[m, j] = fmax(work[m, j], bv[a, j])
            for j in range(n):
                # scoring against the best keep (scoring wins ties)
                dec[k, r, j] = np.uint8(pick(work[m, j], xs[r, j], nb + kr[j], box0[r, j], tie))
                work[m, j] = fmax(work[m, j], xs[r, j])   # X_k, read by W_{k+1}


@njit(cache=True, fastmath=FAST)
def alike(g, r, segs, n_segs, tie, val, xs, box0):
    """A roll ``r`` of all dice alike: where a joker applies it may go only
    in the joker boxes (first box wins ties), and with the flag bit set it
    earns the yahtzee bonus; ``xs``, ``box0`` as in ``decide_block``."""
    tu = g.turn                # the turn data, taken out of g once (not in the loops)
    f = g.yface[r]
    nb = len(tu.is_upper)
    for s in range(n_segs):
        mask, ns, off = segs[s, 1], segs[s, 3], segs[s, 4]
        jokers = tu.joker_boxes[mask, f]
        if jokers != 0:
            for j in range(off, off + ns):
                xs[r, j] = NEG
                box0[r, j] = nb
            for b in range(nb):
                if (jokers >> b) & 1:
                    c = tu.joker_cand[f, b]
                    fb = np.float64(b)
                    for j in range(off, off + ns):
                        box0[r, j] = pick(val[c, j], xs[r, j], fb, box0[r, j], tie)
                        xs[r, j] = fmax(xs[r, j], val[c, j])
        if mask & tu.flag_bit:
            for j in range(off, off + ns):
                xs[r, j] = xs[r, j] * tu.ybonus_mul + tu.ybonus_add


@njit(cache=True)
def simple_keep_or_box(g, mask, col, dec):
    """``dec[k, r, col]``: the ``simple`` policy's actions at ``mask`` (a
    joker goes in the joker box giving the most points)."""
    tu = g.turn                # the turn data, taken out of g once (not in the loops)
    allowed = tu.allowed[mask]
    nb = len(tu.is_upper)
    for r in range(len(tu.roll_cand_start) - 1):
        best = -1
        box = nb
        f = g.yface[r]
        jokers = tu.joker_boxes[mask, f] if f >= 0 else 0
        for b in range(nb):
            pts = g.out_pts[g.yidx[f, b, 1, 0] if jokers else g.cidx[r, b]]
            if (jokers if jokers else allowed) >> b & 1 and pts > best:
                best = pts
                box = b
        for k in range(tu.rolls):
            keep = g.simple_keep[r]
            dec[k, r, col] = box if k == 0 or keep < 0 else nb + keep


@njit(cache=True)
def distinct_lanes(off, n, dec, diff, first):
    """Group equal neighbouring columns of ``dec[:, :, off:off + n]``:
    ``first[q]`` is the first column (from ``off``) of group ``q`` and
    ``first[nd] = n``; returns ``nd``, the number of groups.  ``diff[j]`` is
    scratch."""
    for j in range(n):
        diff[j] = 0
    for k in range(dec.shape[0]):
        for r in range(dec.shape[1]):
            for j in range(1, n):
                diff[j] |= dec[k, r, off + j] != dec[k, r, off + j - 1]
    nd = 0
    for j in range(n):
        if j == 0 or diff[j]:
            first[nd] = j
            nd += 1
    first[nd] = n
    return nd


@njit(cache=True, fastmath=FAST)
def push(g, n, dec, tgt, ytgt, colseg, p0, acc):
    """Turn outcomes of the ``n`` action columns ``dec[k, r, j]``
    (``p0[r, j]``: the probability of the first roll ``r``).

    ``acc[m, j]`` for ``m < M``: probability of holding multiset ``m``, row
    ``M`` stays 0 (it pads ``gather``); ``acc[M + 1 + c, j]``: probability
    that the turn ends with outcome ``c`` (output; zeroed by the caller).
    ``tgt[r, d]``: the row of ``acc`` that action ``d`` sends roll ``r`` to;
    for a roll of all dice alike (``yface[r] = f >= 0``) scored in box ``b``,
    ``ytgt[colseg[j], f, b]`` (it depends on the mask of column ``j``).
    """
    tu = g.turn                # the turn data, taken out of g once (not in the loops)
    n_rolls = len(tu.roll_prob)
    nb = len(tu.is_upper)
    full = tu.first_roll
    inv = 1.0 / tu.faces
    for k in range(tu.rolls - 1, -1, -1):
        if k:
            for m in range(full):
                for j in range(n):
                    acc[m, j] = 0.0
        for r in range(n_rolls):
            same = True                      # one action for every column?
            for j in range(1, n):
                same &= dec[k, r, j] == dec[k, r, 0]
            src = full + r
            f = g.yface[r]
            if f >= 0:
                for j in range(n):
                    p = p0[r, j] if k == tu.rolls - 1 else acc[src, j]
                    d = dec[k, r, j]
                    acc[tgt[r, d] if d >= nb else ytgt[colseg[j], f, d], j] += p
            elif same:
                t = tgt[r, dec[k, r, 0]]
                if k == tu.rolls - 1:
                    for j in range(n):
                        acc[t, j] += p0[r, j]
                else:
                    for j in range(n):
                        acc[t, j] += acc[src, j]
            else:
                for j in range(n):
                    p = p0[r, j] if k == tu.rolls - 1 else acc[src, j]
                    acc[tgt[r, dec[k, r, j]], j] += p
        if k:
            # the kept dice plus fresh ones, one die at a time (small to large):
            # each multiset gathers 1/faces of every multiset one die smaller
            for m in range(1, full + n_rolls):
                for i in range(0, tu.n_subs[m], 3):
                    a, b, c = g.gather[m, i], g.gather[m, i + 1], g.gather[m, i + 2]
                    if i > 0 or m < full:        # kept multisets hold their own mass
                        for j in range(n):
                            acc[m, j] += (acc[a, j] + acc[b, j] + acc[c, j]) * inv
                    else:
                        for j in range(n):
                            acc[m, j] = (acc[a, j] + acc[b, j] + acc[c, j]) * inv


class ActionRows(NamedTuple):
    """Where ``batch`` writes the actions it decides (empty arrays: not kept).

    * ``rows[j, k, r]``   action byte of row ``j``, ``k`` rerolls left, roll ``r``
    * ``lane_row[i, u]``  the row of upper total ``u`` of mask ``masks[i]``
    * ``row_base[i]``     the first row of mask ``masks[i]`` (room for
      ``lanes - start`` rows: equal neighbouring totals share one)
    """

    rows: np.ndarray
    lane_row: np.ndarray
    row_base: np.ndarray


class Outcomes(NamedTuple):
    """Where ``batch`` writes the turn outcomes (empty arrays: not wanted).

    * ``group[i, u]``  the column of upper total ``u`` of mask ``masks[i]``
      (0 .. ``stride[i] - 1``)
    * ``probs[base[i] + a * stride[i] + group[i, u]]``  the probability that
      the turn ends with the ``a``-th outcome of the boxes allowed at the
      mask (by box, then points)
    * ``stats[t, c]``  piece ``t``'s total probability of outcome ``c``
    """

    base: np.ndarray
    stride: np.ndarray
    group: np.ndarray
    probs: np.ndarray
    stats: np.ndarray


class Job(NamedTuple):
    """What ``batch`` decides: the masks ``masks[i]`` under policy ``kind``
    (an index into ``KINDS``) with the value table ``values[mask, u]``
    (zeros for ``greedy``); ``reach[i, u]``: the probability of state
    ``(masks[i], u)``, or an empty array (every upper total decided)."""

    values: np.ndarray
    kind: int
    masks: np.ndarray
    reach: np.ndarray


@njit(cache=True, nogil=True)
def batch(g, job, acts, out, t, n_threads):
    """Decide the masks ``job.masks[i]``, ``i = t, t + n_threads, ...``,
    under policy ``job.kind`` (a ``Job``), for every upper total at once.
    Upper totals below ``u0`` (see ``start``) play like ``u0``.  Masks are
    decided ``BLOCK`` columns (upper totals) at a time.  When ``reach`` is
    not empty, only the span of upper totals with ``reach[i, u] > 0`` is
    decided (the totals outside it play like its ends).

    Actions go to ``acts`` (``ActionRows``) when its arrays are not empty,
    turn outcomes to ``out`` (``Outcomes``; ``reach[i, u]`` the probability
    of the state) when its arrays are not empty.
    """
    values, kind, masks, reach = job
    tu = g.turn                # the turn data, taken out of g once (not in the loops)
    rows, lane_row, row_base = acts
    obase, ostride, ogroup, outs, stats = out
    width = values.shape[1]
    cols = max(BLOCK, width)
    nb = len(tu.is_upper)
    n_rolls = len(tu.roll_prob)
    n_out = len(g.out_box)
    n_ms = tu.adds.shape[0]                # number of multisets
    w = DecideWork(np.empty((len(tu.cand_box), width)), np.empty(width),
                   np.empty((len(tu.cand_box), cols)), np.empty(cols), np.empty(cols),
                   np.empty((n_rolls, cols)), np.empty((n_rolls, cols)),
                   np.zeros((n_ms + 1, cols)), np.empty((tu.first_roll, cols)),
                   np.empty((tu.first_roll, cols)), np.empty(cols),
                   np.empty((tu.rolls, n_rolls, cols), dtype=np.uint8))
    dec = w.dec
    diff = np.empty(width, dtype=np.uint8)
    first = np.empty(width + 1, dtype=np.int64)
    acc = np.empty((n_ms + 1 + n_out, cols))
    acc[n_ms] = 0.0
    p0 = np.empty((n_rolls, cols))
    tgt = np.empty((n_rolls, 256), dtype=np.int64)
    for r in range(n_rolls):
        p0[r] = tu.roll_prob[r]
        for b in range(nb):
            tgt[r, b] = n_ms + 1 + g.cidx[r, b]
        for j in range(len(g.by_rank)):
            tgt[r, nb + j] = g.by_rank[j]
    colw = np.empty(width)
    segs = np.empty((cols, 5), dtype=np.int64)
    colseg = np.empty(cols, dtype=np.int64)
    ytgt = np.empty((cols, tu.faces, nb), dtype=np.int64)
    alike = False                               # jokers or a yahtzee bonus at all?
    for r in range(n_rolls):
        alike |= g.yface[r] >= 0
    nxt = t
    while nxt < len(masks):
        # a block: the next masks whose totals fit in ``cols`` columns
        n_segs = 0
        n = 0
        while nxt < len(masks):
            mask = masks[nxt]
            u0, top = tu.start[mask], tu.lanes[mask]  # the upper totals decided
            if kind == SIMPLE:
                u0 = top - 1
            elif len(reach):                   # only those reached
                below = 0.0                    # (totals below u0 play like u0)
                for u in range(u0):
                    below += reach[nxt, u]
                while top > u0 + 1 and reach[nxt, top - 1] == 0.0:
                    top -= 1
                while below == 0.0 and u0 < top - 1 and reach[nxt, u0] == 0.0:
                    u0 += 1
            if n + top - u0 > cols:
                break
            segs[n_segs, 0], segs[n_segs, 1], segs[n_segs, 2] = nxt, mask, u0
            segs[n_segs, 3], segs[n_segs, 4] = top - u0, n
            n_segs += 1
            n += top - u0
            nxt += n_threads
        if kind == SIMPLE:
            for s in range(n_segs):
                simple_keep_or_box(g, segs[s, 1], segs[s, 4], dec)
        else:
            decide_block(g, values, segs, n_segs, n, w)
        if len(rows):
            for s in range(n_segs):
                i, mask, u0, ns, off = segs[s, 0], segs[s, 1], segs[s, 2], segs[s, 3], segs[s, 4]
                nd = distinct_lanes(off, ns, dec, diff, first)
                base = row_base[i]
                q = 0
                for u in range(tu.lanes[mask]):     # group of each upper total
                    while q + 1 < nd and u0 + first[q + 1] <= u:
                        q += 1
                    lane_row[i, u] = base + q
                for q in range(nd):
                    for k in range(tu.rolls):
                        for r in range(n_rolls):
                            rows[base + q, k, r] = dec[k, r, off + first[q]]
        if len(outs) == 0:
            continue
        for c in range(n_out):
            for j in range(n):
                acc[n_ms + 1 + c, j] = 0.0
        for s in range(n_segs if alike else 0):    # rolls of all alike: per mask
            mask, ns, off = segs[s, 1], segs[s, 3], segs[s, 4]
            for j in range(off, off + ns):
                colseg[j] = s
            bonus = 1 if mask & tu.flag_bit else 0
            for f in range(tu.faces):
                joker = 1 if tu.joker_boxes[mask, f] != 0 else 0
                for b in range(nb):
                    ytgt[s, f, b] = n_ms + 1 + g.yidx[f, b, joker, bonus]
        push(g, n, dec, tgt, ytgt, colseg, p0, acc)
        for s in range(n_segs):
            i, mask, u0, ns, off = segs[s, 0], segs[s, 1], segs[s, 2], segs[s, 3], segs[s, 4]
            for j in range(ns):
                colw[j] = 0.0
            for u in range(tu.lanes[mask]):
                j = min(max(u - u0, 0), ns - 1)
                ogroup[i, u] = j
                colw[j] += reach[i, u]
            allowed = tu.allowed[mask]
            a = 0
            for c in range(n_out):
                if (allowed >> g.out_box[c]) & 1 == 0:
                    continue
                base = obase[i] + a * ostride[i]
                for j in range(ns):
                    p = acc[n_ms + 1 + c, off + j]
                    outs[base + j] = p
                    stats[t, c] += colw[j] * p
                a += 1


NO_ROWS = ActionRows(np.empty((0, 0, 0), dtype=np.uint8), np.empty((0, 0), dtype=np.int64),
                     np.empty(0, dtype=np.int64))


NO_OUTCOMES = Outcomes(np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64),
                       np.empty((0, 0), dtype=np.int64), np.empty(0), np.empty((0, 0)))
