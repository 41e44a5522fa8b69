r"""Playing to win, compiled: one turn's chances to win and to tie for every
roll, box and keep (``turn_chances``, which ``solver.players.win`` ranks for
advice), and the choice among them (``seat_choose``, which the ``win`` seat
of ``solver.research.win_seat`` plays; the tests check it against a plain
choice made from every recorded chance).

Notation (``solver.players.win``): ``M`` is the best opponent's final score, with
``less[k] = P(M < k)`` and ``eq[k] = P(M = k)``; ending the turn with
``final`` points on the card in state ``(child, u')`` is worth

.. math::

   \mathrm{win} = P(M < final) + \sum_{n \ge 1} P^*(child, u', n)\, P(M = final + n - 1)

and ``tie`` the same with ``P(M <= final)`` and ``P(M = final + n)``, less
``win`` (``P*``: the target table, ``solver.tables.target``).  With two boxes
open (``exact``), each such state is valued instead by its own last turn
played to win (whose states after are full cards: the values are exact).

Within the turn, rolls are averaged (``turn.average_keeps`` with the two
lanes ``win`` and ``tie``) and the best action taken: the larger chance to
win, then to tie, each compared to 40 bits (``key``), so equal chances
computed along different paths compare equal.  An action of the turn is
chosen the same way, then, among the actions still equal, by the
expected-score tie rule (``turn.pick``, as ``solver.research.games`` chooses).

The match seat takes shortcuts that give the same values and choices:
``seat_turn`` finds each roll's best box among the roll's candidates and
the best scratch they leave (``best_scores``) and writes no per-roll
table, ``seat_choose`` looks up the boxes of the rolls it meets
(``roll_boxes``), the seat works out only the keep levels it reads
(``seat_keeps``), and the exact turn averages the turns after it side by
side (``exact_lanes``), leaving out those with no chance left; those turns
have one box to fill, so their chances and rolls are worked out for that
box alone (``one_box_chances``, ``one_box_scores``).  No sum is reordered
(the kernels here do not reassociate), so the values agree bit for bit.
The table rows a step reads are asked for before it starts (``prefetch``:
``fill_chances`` those of every state after the turn, ``opponents_best``
every opponent's), so their cache misses overlap; that changes no value.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from solver.kernels.scoring import upper_after
from solver.kernels.target import layout
from solver.kernels.turn import (
    FAST,
    NEG,
    average_keeps,
    fill_candidates,
    pick,
    prefetch,
    state_keep_levels,
)
from solver.rules.ruleset import Rules
from solver.rules.ties import CHANCE_BITS

SCALE = float(2 ** CHANCE_BITS)    # chances compare equal when they agree to 40 bits
OFF = -2.0                # the chance of a box that cannot be filled
EXACT_OPEN = 2            # with this many boxes open the turns are valued exactly


class WinTables(NamedTuple):
    """What the win kernels read besides ``TurnData`` and ``PlayTables``:

    * ``target[off[mask] + (max(u, start[mask]) - start[mask]) * width[mask] + n]``
      ``P*(mask, u, n)`` for needs ``n = 0 .. width[mask] - 1`` (``solver.tables.target``)
    * ``futures[...the same place... + k]``  the chance that expected-score
      play gains ``k`` more points from ``(mask, u)`` (``solver.players.futures``)
    * ``off[mask]``, ``width[mask]``, ``start[mask]``  the layout (``target.Layout``)
    * ``values[mask, u]``  the expected-score table (for the tie rule)
    * ``reach``  ``len(less)``: the most points a game can score, plus 3
    """

    target: np.ndarray
    futures: np.ndarray
    off: np.ndarray
    width: np.ndarray
    start: np.ndarray
    values: np.ndarray
    reach: int


def win_tables(rules: Rules, target: np.ndarray, futures: np.ndarray,
               values: np.ndarray) -> WinTables:
    """The ``WinTables`` over the flat target and futures tables and the
    dense expected-score table of ``rules``."""
    lay = layout(rules)
    return WinTables(target, futures, lay.off, lay.width, lay.start, values,
                     rules.max_score + 3)


class WinData(NamedTuple):
    """What the win kernels read: the rules' ``turn`` (``kernels.turn.TurnData``),
    ``play`` (``kernels.player.PlayTables``) and ``tables`` (``WinTables``)."""

    turn: Any
    play: Any
    tables: WinTables


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


class ExpectedValues(NamedTuple):
    """The expected-score values ``seat_choose`` breaks ties with, each
    part worked out once a turn when first needed (``seat_expected``):
    ``ev[r, b]`` of scoring roll ``r`` in box ``b`` (the expected final
    score less the card's, ``NEG`` where it may not go; ``expected_row``),
    ``evk[t - 1, m]`` of keeping ``m`` with ``t`` rerolls left and
    ``cand[c, 0]`` of candidate ``c`` (``turn.fill_candidates``;
    ``expected_keeps``), valued as ``solver.research.games`` values them;
    ``ready[0]``: 1 once ``cand`` and ``evk`` are filled this turn,
    ``ready[1 + r]``: 1 once ``ev[r]`` is.  ``new_expected`` makes one."""

    ev: np.ndarray
    evk: np.ndarray
    ready: np.ndarray
    cand: np.ndarray


class Scratch(NamedTuple):
    """Work arrays of one thread (``make_scratch``): ``cwin[c], ctie[c]``
    per candidate and ``zwin[b], ztie[b]`` per box scored 0, with their
    ``key`` pairs ``ckey[c, 0 or 1]``, ``zkey[b, 0 or 1]``; ``swin[r, b],
    stie[r, b]`` per roll and box; ``work[m, 0 or 1]`` the win and tie of
    multiset ``m`` (last row zeros), ``wkey[m, 0 or 1]`` their keys;
    ``kwin[t - 1, m], ktie[t - 1, m]`` of keeping ``m`` with ``t`` rerolls
    left, ``kkey[t - 1, m, 0 or 1]`` their keys; ``open_[:n]`` the open boxes
    (``score_chances``); ``rw[b], rt[b], rkey[b, 0 or 1]`` one roll's chances
    box by box (``roll_boxes``); ``lanes``: room for the chances of every
    state after a turn side by side (``lane_views``), ``child[k] = (mask,
    u, score)`` those states; ``cr_roll[cr_start[c]:cr_start[c + 1]]`` the
    rolls candidate ``c`` scores (ascending), ``roll_boxes[r]`` the boxes
    of roll ``r``'s candidates (bits); ``best[r]``, ``bkey[r, 0 or 1]``
    each roll's best candidate so far and its keys (``best_scores``);
    ``lane[k]`` the lane of state after ``child[k]`` (-1: none, its chances
    are 0, ``exact_lanes``); ``box_cand[b]:box_cand[b + 1]`` the candidates
    of box ``b`` (they are sorted by box)."""

    cwin: np.ndarray
    ctie: np.ndarray
    ckey: np.ndarray
    zwin: np.ndarray
    ztie: np.ndarray
    zkey: np.ndarray
    swin: np.ndarray
    stie: np.ndarray
    work: np.ndarray
    wkey: np.ndarray
    kwin: np.ndarray
    ktie: np.ndarray
    kkey: np.ndarray
    open_: np.ndarray
    rw: np.ndarray
    rt: np.ndarray
    rkey: np.ndarray
    lanes: np.ndarray
    child: np.ndarray
    cr_start: np.ndarray
    cr_roll: np.ndarray
    roll_boxes: np.ndarray
    best: np.ndarray
    bkey: np.ndarray
    lane: np.ndarray
    box_cand: np.ndarray


# ------------------------------------------------------------------ kernels
@njit(cache=True)
def new_expected(d):
    """An ``ExpectedValues`` for the rules of ``d``, not ready."""
    return ExpectedValues(np.empty((len(d.roll_prob), len(d.is_upper))),
                          np.empty((max(d.rolls - 1, 1), d.adds.shape[0])),
                          np.zeros(1 + len(d.roll_prob), dtype=np.int64),
                          np.empty((len(d.cand_box), 1)))


@njit(cache=True)
def make_scratch(d):
    """Two ``Scratch`` (the turn's and the inner turns') for the rules of ``d``."""
    return new_scratch(d), new_scratch(d)


@njit(cache=True)
def new_scratch(d):
    """One ``Scratch`` for the rules of ``d``."""
    nc, nb, m = len(d.cand_box), len(d.is_upper), d.adds.shape[0]
    n_rolls, levels = len(d.roll_prob), max(d.rolls - 1, 1)
    starts, roll_cand = d.roll_cand_start, d.roll_cand
    cr_start = np.zeros(nc + 1, dtype=np.int64)
    roll_boxes = np.zeros(n_rolls, dtype=np.int64)
    for i in range(len(roll_cand)):
        cr_start[roll_cand[i] + 1] += 1
    for c in range(nc):
        cr_start[c + 1] += cr_start[c]
    cr_roll = np.empty(len(roll_cand), dtype=np.int64)
    box_cand = np.zeros(nb + 1, dtype=np.int64)
    for c in range(nc):
        box_cand[d.cand_box[c] + 1] += 1
    for b in range(nb):
        box_cand[b + 1] += box_cand[b]
    fill = cr_start[:nc].copy()
    for r in range(n_rolls):                   # rolls in order: each candidate's ascending
        for i in range(starts[r], starts[r + 1]):
            c = roll_cand[i]
            cr_roll[fill[c]] = r
            fill[c] += 1
            roll_boxes[r] |= 1 << d.cand_box[c]
    return Scratch(np.empty(nc), np.empty(nc), np.empty((nc, 2)),
                   np.empty(nb), np.empty(nb), np.empty((nb, 2)), np.empty((n_rolls, nb)),
                   np.empty((n_rolls, nb)), np.zeros((m + 1, 2)), np.zeros((m + 1, 2)),
                   np.zeros((levels, m)), np.zeros((levels, m)), np.zeros((levels, m, 2)),
                   np.empty(nb, dtype=np.int64), np.empty(nb), np.empty(nb), np.empty((nb, 2)),
                   np.empty(4 * (m + 1) * (nc + nb)),
                   np.empty((nc + nb, 3), dtype=np.int64), cr_start, cr_roll, roll_boxes,
                   np.empty(n_rolls, dtype=np.int64), np.empty((n_rolls, 2)),
                   np.empty(nc + nb, dtype=np.int64), box_cand)


@njit(cache=True)
def key(x):
    """A chance to 40 significant bits (the comparisons' equality, relative:
    a chance of 1e-13 is not tied with 0; ``py_key`` outside compiled
    code)."""
    m, e = math.frexp(x)
    return math.ldexp(math.floor(m * SCALE + 0.5), e)


def py_key(x: float) -> float:
    """``key`` in Python (the same operations: the same result), without
    loading a compiled function.

    >>> py_key(0.0) < py_key(1e-13) < py_key(2e-13), py_key(0.5) == py_key(0.5 + 2**-45)
    (True, True)
    """
    m, e = math.frexp(x)
    return math.ldexp(math.floor(m * SCALE + 0.5), e)


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


@njit(cache=True, fastmath=True)
def chance(wt, child, u, final, odds, lo, hi):
    """``(win, tie)`` of ending the turn with ``final`` points on the card
    in state ``(child, u)``: the target table (``wt``, the ``WinTables``)
    mixed over ``M`` (``odds``; ``eq`` is 0 outside ``lo .. hi``)."""
    target, off, width, start = wt.target, wt.off, wt.width, wt.start
    less, eq = odds.less, odds.eq
    w = width[child]
    at = off[child] + (max(u, start[child]) - start[child]) * w
    top = len(less) - 1
    first = max(1, lo - final)
    k = min(w, hi - final + 2) - first
    rows = target[at + first:at + first + k]       # slices: the loop vectorises
    below = eq[final + first - 1:final + first - 1 + k]
    equal = eq[final + first:final + first + k]
    win = 0.0
    level = 0.0
    for n in range(k):
        win += rows[n] * below[n]
        level += rows[n] * equal[n]
    win += less[min(final, top)]
    level += less[min(final + 1, top)]
    return win, level - win


@njit(cache=True)
def prefetch_chance(wt, child, u, final, lo, hi):
    """Ask for the target table's cache lines that ``chance`` with the same
    arguments will read."""
    w = wt.width[child]
    at = wt.off[child] + (max(u, wt.start[child]) - wt.start[child]) * w
    first = max(1, lo - final)
    k = min(w, hi - final + 2) - first
    for n in range(0, k, 8):
        prefetch(wt.target, at + first + n)


@njit(cache=True)
def after(d, mask, u, score, b, points):
    """``(mask, u, score)`` once ``points`` are written in box ``b`` (the
    upper bonus included, ``kernels.scoring``)."""
    u2, bonus = upper_after(d, b, u, points)
    return mask | (1 << b), u2, score + points + bonus


@njit(cache=True)
def fill_chances(wd, mask, u, score, odds, s):
    """``s.cwin[c], s.ctie[c]`` of every allowed candidate and ``s.zwin[b],
    s.ztie[b]`` of scoring 0 in every allowed box, at ``(mask, u)`` with
    ``score`` points: the target table mixed over ``M`` (``chance``; ``wd``
    a ``WinData``), the rows of every state after asked for first
    (``prefetch_chance``; the states kept in ``s.child``)."""
    d, wt = wd.turn, wd.tables
    allowed = d.allowed[mask]
    cand_box, cand_score = d.cand_box, d.cand_score
    cwin, ctie, ckey, zwin, ztie, zkey = s.cwin, s.ctie, s.ckey, s.zwin, s.ztie, s.zkey
    lo, hi = support(odds.eq)
    child = s.child
    n = 0
    for b in range(len(d.is_upper)):             # the states after, their rows asked for
        if (allowed >> b) & 1:
            child[n, 0], child[n, 1], child[n, 2] = after(d, mask, u, score, b, 0)
            prefetch_chance(wt, child[n, 0], child[n, 1], child[n, 2], lo, hi)
            n += 1
    for c in range(len(cand_box)):
        b = cand_box[c]
        if (allowed >> b) & 1:
            child[n, 0], child[n, 1], child[n, 2] = after(d, mask, u, score, b, cand_score[c])
            prefetch_chance(wt, child[n, 0], child[n, 1], child[n, 2], lo, hi)
            n += 1
    n = 0
    for b in range(len(d.is_upper)):
        if (allowed >> b) & 1:
            w, t = chance(wt, child[n, 0], child[n, 1], child[n, 2], odds, lo, hi)
            zwin[b], ztie[b], zkey[b, 0], zkey[b, 1] = w, t, key(w), key(t)
            n += 1
    for c in range(len(cand_box)):
        if (allowed >> cand_box[c]) & 1:
            w, t = chance(wt, child[n, 0], child[n, 1], child[n, 2], odds, lo, hi)
            cwin[c], ctie[c], ckey[c, 0], ckey[c, 1] = w, t, key(w), key(t)
            n += 1


@njit(cache=True)
def one_box_chances(wd, mask, u, score, odds, s, b, span):
    """``fill_chances`` where only box ``b`` may be filled (``one_box``):
    the same calls of ``chance`` for that box alone (``span = (lo, hi)``:
    the ``support`` of ``odds.eq``)."""
    d, wt = wd.turn, wd.tables
    lo, hi = span
    m2, u2, s2 = after(d, mask, u, score, b, 0)
    w, t = chance(wt, m2, u2, s2, odds, lo, hi)
    s.zwin[b], s.ztie[b], s.zkey[b, 0], s.zkey[b, 1] = w, t, key(w), key(t)
    for c in range(s.box_cand[b], s.box_cand[b + 1]):
        m2, u2, s2 = after(d, mask, u, score, b, d.cand_score[c])
        w, t = chance(wt, m2, u2, s2, odds, lo, hi)
        s.cwin[c], s.ctie[c], s.ckey[c, 0], s.ckey[c, 1] = w, t, key(w), key(t)


@njit(cache=True)
def fill_exact(wd, mask, u, score, odds, s, inner):
    """``fill_chances`` with each state after the turn valued by its own
    turn played to win (``turn_start``, work in ``inner``): exact when
    that turn is the last.  Those turns are averaged side by side, two
    lanes each (``exact_lanes``), the same sums per lane."""
    d = wd.turn
    allowed = d.allowed[mask]
    nb = len(d.is_upper)
    child = s.child
    n = 0
    full = False
    for b in range(nb):
        if (allowed >> b) & 1:
            child[n, 0], child[n, 1], child[n, 2] = after(d, mask, u, score, b, 0)
            full = full or d.allowed[child[n, 0]] == 0
            n += 1
    for c in range(len(d.cand_box)):
        b = d.cand_box[c]
        if (allowed >> b) & 1:
            child[n, 0], child[n, 1], child[n, 2] = after(d, mask, u, score, b, d.cand_score[c])
            full = full or d.allowed[child[n, 0]] == 0
            n += 1
    if not full:
        exact_lanes(wd, n, odds, s, inner)
    q = 0
    for b in range(nb):
        if (allowed >> b) & 1:
            if full:
                w, t = turn_start(wd, child[q, 0], child[q, 1], child[q, 2], odds, inner)
            else:
                w, t = lane_result(d, s, n, q)
            s.zwin[b], s.ztie[b], s.zkey[b, 0], s.zkey[b, 1] = w, t, key(w), key(t)
            q += 1
    for c in range(len(d.cand_box)):
        b = d.cand_box[c]
        if (allowed >> b) & 1:
            if full:
                w, t = turn_start(wd, child[q, 0], child[q, 1], child[q, 2], odds, inner)
            else:
                w, t = lane_result(d, s, n, q)
            s.cwin[c], s.ctie[c], s.ckey[c, 0], s.ckey[c, 1] = w, t, key(w), key(t)
            q += 1


@njit(cache=True)
def lane_views(d, s, n):
    """``win[m, k], tie[m, k]`` and their keys ``kwin[m, k], ktie[m, k]``
    of ``n`` turns side by side (``s.lanes``)."""
    size = (d.adds.shape[0] + 1) * n
    rows = d.adds.shape[0] + 1
    return (s.lanes[:size].reshape((rows, n)), s.lanes[size:2 * size].reshape((rows, n)),
            s.lanes[2 * size:3 * size].reshape((rows, n)),
            s.lanes[3 * size:4 * size].reshape((rows, n)))


@njit(cache=True)
def lane_result(d, s, n, k):
    """``(win, tie)`` at the start of turn ``k`` of ``exact_lanes``."""
    j = s.lane[k]
    if j < 0:
        return 0.0, 0.0
    win, tie, _, _ = lane_views(d, s, n)
    return win[0, j], tie[0, j]


@njit(cache=True)
def all_zero(d, work):
    """Every roll's chances in ``work`` (both lanes) are +0.0: so is every
    average and best keep made of them (sums of +0.0 are +0.0)."""
    for m in range(d.first_roll, d.adds.shape[0]):
        for j in range(2):
            if work[m, j] != 0.0 or math.copysign(1.0, work[m, j]) < 0.0:
                return False
    return True


@njit(cache=True)
def exact_lanes(wd, n, odds, s, inner):
    """``turn_start`` of the ``n`` states ``s.child[k]`` (none full), turn
    ``k`` in lane ``s.lane[k]`` of ``lane_views``: each turn's scoring
    chances (``fill_chances``, ``best_scores`` in ``inner``), then the
    levels of ``keep_chances`` for all lanes at once (per lane the same sums
    and the same choices).  A turn whose every roll has chances 0
    (``all_zero``) takes no lane: it starts at 0, as its averages would."""
    d = wd.turn
    first, M = d.first_roll, d.adds.shape[0]
    win, tie, kwin, ktie = lane_views(d, s, n)
    for k in range(n):
        win[M, k], tie[M, k] = 0.0, 0.0
    lanes = 0
    lo, hi = support(odds.eq)
    for k in range(n):
        m2, u2, s2 = s.child[k, 0], s.child[k, 1], s.child[k, 2]
        b = one_box(d, m2)
        if b >= 0:
            one_box_chances(wd, m2, u2, s2, odds, inner, b, (lo, hi))
        else:
            fill_chances(wd, m2, u2, s2, odds, inner)
        one_box_scores(d, m2, inner)
        if all_zero(d, inner.work):
            s.lane[k] = -1
            continue
        s.lane[k] = lanes
        for m in range(first, M):
            win[m, lanes], tie[m, lanes] = inner.work[m, 0], inner.work[m, 1]
            kwin[m, lanes], ktie[m, lanes] = inner.wkey[m, 0], inner.wkey[m, 1]
        lanes += 1
    n = lanes
    for t in range(1, d.rolls + 1):
        average_keeps(d, n, win)               # W_t of every lane
        average_keeps(d, n, tie)
        if t == d.rolls:
            break
        for m in range(first):
            for k in range(n):
                kwin[m, k] = key(win[m, k])
                ktie[m, k] = key(tie[m, k])
        best_inside(d, n, win, tie, kwin, ktie)


@njit(cache=True)
def best_inside(d, n, win, tie, kwin, ktie):
    """``X_t`` of ``keep_chances`` in every lane ``k < n``: multiset ``m``
    takes the chances of the first multiset one die smaller (in the order
    of ``subs[m]``, each already so replaced) with strictly larger keys
    than its own (so far)."""
    subs, n_subs = d.subs, d.n_subs
    for m in range(1, d.adds.shape[0]):
        for i in range(n_subs[m]):
            a = subs[m, i]
            for k in range(n):
                ka, km, ja, jm = kwin[a, k], kwin[m, k], ktie[a, k], ktie[m, k]
                up = ka > km or (ka == km and ja > jm)
                win[m, k] = win[a, k] if up else win[m, k]
                tie[m, k] = tie[a, k] if up else tie[m, k]
                kwin[m, k] = ka if up else km
                ktie[m, k] = ja if up else jm


@njit(cache=True)
def score_chances(d, pt, mask, s, record):
    """The best way to score each roll ``r`` into ``s.work[first_roll + r]``
    (its keys in ``s.wkey``) and, with ``record``, ``s.swin[r, b],
    s.stie[r, b]`` of scoring it in box ``b`` (``OFF`` where it may not
    go; a roll of all dice alike goes only in the joker boxes, if the rules
    name any)."""
    allowed = d.allowed[mask]
    nb = len(d.is_upper)
    cwin, ctie, ckey, zwin, ztie, zkey = s.cwin, s.ctie, s.ckey, s.zwin, s.ztie, s.zkey
    swin, stie, work, wkey = s.swin, s.stie, s.work, s.wkey
    cand_of, yahtzee_face, joker_cand = pt.cand_of, d.yahtzee_face, d.joker_cand
    open_ = s.open_
    n_open = 0
    for b in range(nb):
        if (allowed >> b) & 1:
            open_[n_open] = b
            n_open += 1
    if record:
        swin[:] = OFF
        stie[:] = 0.0
    for r in range(len(d.roll_prob)):
        f = yahtzee_face[r]
        jokers = d.joker_boxes[mask, f] if f >= 0 else 0
        bw, bt, kbw, kbt = OFF, 0.0, -1.0, -1.0
        for i in range(n_open):
            b = open_[i]
            if jokers != 0:
                if (jokers >> b) & 1 == 0:
                    continue
                c = joker_cand[f, b]
            else:
                c = cand_of[r, b]
            if c >= 0:
                w, t, kw, kt = cwin[c], ctie[c], ckey[c, 0], ckey[c, 1]
            else:
                w, t, kw, kt = zwin[b], ztie[b], zkey[b, 0], zkey[b, 1]
            if record:
                swin[r, b] = w
                stie[r, b] = t
            if kw > kbw or (kw == kbw and kt > kbt):
                bw, bt, kbw, kbt = w, t, kw, kt
        w_ = d.first_roll + r
        work[w_, 0], work[w_, 1], wkey[w_, 0], wkey[w_, 1] = bw, bt, kbw, kbt


@njit(cache=True)
def ahead(k0, k1, b, j0, j1, c):
    """Keys ``(k0, k1)`` of box ``b`` rank above ``(j0, j1)`` of box ``c``:
    a larger chance to win, then to tie, then the lower box."""
    return k0 > j0 or (k0 == j0 and (k1 > j1 or (k1 == j1 and b < c)))


@njit(cache=True)
def best_scores(d, mask, s):
    """``score_chances`` without ``record``, the same values: for each roll
    the first box (in box order) of the largest keys, found among the
    roll's candidates and the best scratch its candidates leave open
    (``s.open_``: the open boxes by their scratch keys, best first), not by
    trying every open box; the candidates of open boxes are visited once
    each, over the rolls they score (``s.cr_roll``), in the order the
    rolls list them, so the first of equal keys is kept as before."""
    allowed = d.allowed[mask]
    nb = len(d.is_upper)
    ckey, zkey, open_ = s.ckey, s.zkey, s.open_
    work, wkey = s.work, s.wkey
    n = 0
    for b in range(nb):
        if (allowed >> b) & 1:
            i = n
            while i > 0 and ahead(zkey[b, 0], zkey[b, 1], b,
                                  zkey[open_[i - 1], 0], zkey[open_[i - 1], 1], open_[i - 1]):
                open_[i] = open_[i - 1]
                i -= 1
            open_[i] = b
            n += 1
    cand_box, best, bkey = d.cand_box, s.best, s.bkey
    cr_start, cr_roll = s.cr_start, s.cr_roll
    best[:] = -1
    for c in range(len(cand_box)):             # candidates in order: the first best of each roll
        if (allowed >> cand_box[c]) & 1:
            k0, k1 = ckey[c, 0], ckey[c, 1]
            for i in range(cr_start[c], cr_start[c + 1]):
                r = cr_roll[i]
                if best[r] < 0 or k0 > bkey[r, 0] or (k0 == bkey[r, 0] and k1 > bkey[r, 1]):
                    best[r], bkey[r, 0], bkey[r, 1] = c, k0, k1
    for r in range(len(d.roll_prob)):
        f = d.yahtzee_face[r]
        w_ = d.first_roll + r
        if f >= 0 and d.joker_boxes[mask, f] != 0:
            jokers = d.joker_boxes[mask, f]
            bw, bt, kbw, kbt = OFF, 0.0, -1.0, -1.0
            for b in range(nb):
                if (allowed >> b) & 1 and (jokers >> b) & 1:
                    c = d.joker_cand[f, b]
                    if c >= 0:
                        w, t, kw, kt = s.cwin[c], s.ctie[c], ckey[c, 0], ckey[c, 1]
                    else:
                        w, t, kw, kt = s.zwin[b], s.ztie[b], zkey[b, 0], zkey[b, 1]
                    if kw > kbw or (kw == kbw and kt > kbt):
                        bw, bt, kbw, kbt = w, t, kw, kt
            work[w_, 0], work[w_, 1], wkey[w_, 0], wkey[w_, 1] = bw, bt, kbw, kbt
            continue
        covered = s.roll_boxes[r] & allowed
        c = best[r]
        if c >= 0:
            bw, bt, kbw, kbt = s.cwin[c], s.ctie[c], bkey[r, 0], bkey[r, 1]
        else:
            bw, bt, kbw, kbt = OFF, 0.0, -1.0, -1.0
        for i in range(n):
            b = open_[i]
            if (covered >> b) & 1 == 0:
                if c < 0 or ahead(zkey[b, 0], zkey[b, 1], b, kbw, kbt, cand_box[c]):
                    bw, bt, kbw, kbt = s.zwin[b], s.ztie[b], zkey[b, 0], zkey[b, 1]
                break
        work[w_, 0], work[w_, 1], wkey[w_, 0], wkey[w_, 1] = bw, bt, kbw, kbt


@njit(cache=True)
def one_box(d, mask):
    """The box that alone may be filled at ``mask``, else -1."""
    allowed = d.allowed[mask]
    if allowed == 0 or allowed & (allowed - 1) != 0:
        return -1
    b = 0
    while (allowed >> b) & 1 == 0:
        b += 1
    return b


@njit(cache=True)
def one_box_scores(d, mask, s):
    """``best_scores``, the same values, quicker when one box may be filled
    (``one_box``): each roll goes in that box (its candidate, else 0
    points), a roll that must be a joker elsewhere nowhere (``OFF``)."""
    work, wkey = s.work, s.wkey
    b = one_box(d, mask)
    if b < 0:
        best_scores(d, mask, s)
        return
    for r in range(len(d.roll_prob)):
        f = d.yahtzee_face[r]
        c = d.cand_of[r, b]
        if f >= 0 and d.joker_boxes[mask, f] != 0:
            c = d.joker_cand[f, b]
            if (d.joker_boxes[mask, f] >> b) & 1 == 0:
                c = -2
        w_ = d.first_roll + r
        if c >= 0:
            work[w_, 0], work[w_, 1], wkey[w_, 0], wkey[w_, 1] = (
                s.cwin[c], s.ctie[c], s.ckey[c, 0], s.ckey[c, 1])
        elif c == -1:
            work[w_, 0], work[w_, 1], wkey[w_, 0], wkey[w_, 1] = (
                s.zwin[b], s.ztie[b], s.zkey[b, 0], s.zkey[b, 1])
        else:
            work[w_, 0], work[w_, 1], wkey[w_, 0], wkey[w_, 1] = OFF, 0.0, -1.0, -1.0


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


@njit(cache=True)
def turn_start(wd, mask, u, score, odds, s):
    """``(win, tie)`` before the first roll of a turn at ``(mask, u)`` with
    ``score`` points, the states after valued by the target table mixed
    over ``M`` (exact when this is the last turn)."""
    d = wd.turn
    if d.allowed[mask] == 0:                   # the card is full: the game is over
        return odds.less[score], odds.eq[score]
    fill_chances(wd, mask, u, score, odds, s)
    best_scores(d, mask, s)
    return keep_chances(d, s, False)


@njit(cache=True)
def turn_chances(wd, mask, u, score, odds, s, inner, exact):
    """Every chance of the turn at ``(mask, u)`` with ``score`` points into
    ``s`` (``swin``, ``stie``, ``kwin``, ``ktie``); ``exact``: value the
    states after by their own turn (two boxes open); returns ``(win,
    tie)`` at the turn start (``wd`` a ``WinData``, ``odds`` the ``Odds``)."""
    if exact:
        fill_exact(wd, mask, u, score, odds, s, inner)
    else:
        fill_chances(wd, mask, u, score, odds, s)
    score_chances(wd.turn, wd.play, mask, s, True)
    return keep_chances(wd.turn, s)


@njit(cache=True)
def seat_turn(wd, mask, u, score, odds, s, inner, exact):
    """``turn_chances`` for ``seat_choose``: each roll's chances box by box
    are not written out (``seat_choose`` looks up those of the rolls it
    meets), nor the keeps' chances, only their keys (``s.kkey``,
    ``seat_keeps``); the scoring chances are the same."""
    if exact:
        fill_exact(wd, mask, u, score, odds, s, inner)
    else:
        fill_chances(wd, mask, u, score, odds, s)
    best_scores(wd.turn, mask, s)
    seat_keeps(wd.turn, s)


@njit(cache=True)
def roll_boxes(d, pt, mask, r, s):
    """``s.rw[b], s.rt[b]`` (keys ``s.rkey[b]``) of scoring roll ``r`` in
    box ``b``: what ``score_chances`` records in ``s.swin[r, b], s.stie[r,
    b]`` (``OFF`` and 0 where it may not go)."""
    allowed = d.allowed[mask]
    cwin, ctie, ckey, zwin, ztie, zkey = s.cwin, s.ctie, s.ckey, s.zwin, s.ztie, s.zkey
    rw, rt, rkey = s.rw, s.rt, s.rkey
    f = d.yahtzee_face[r]
    jokers = d.joker_boxes[mask, f] if f >= 0 else 0
    off, zero = key(OFF), key(0.0)
    for b in range(len(d.is_upper)):
        rw[b], rt[b], rkey[b, 0], rkey[b, 1] = OFF, 0.0, off, zero
        if (allowed >> b) & 1 == 0:
            continue
        if jokers != 0:
            if (jokers >> b) & 1 == 0:
                continue
            c = d.joker_cand[f, b]
        else:
            c = pt.cand_of[r, b]
        if c >= 0:
            rw[b], rt[b], rkey[b, 0], rkey[b, 1] = cwin[c], ctie[c], ckey[c, 0], ckey[c, 1]
        else:
            rw[b], rt[b], rkey[b, 0], rkey[b, 1] = zwin[b], ztie[b], zkey[b, 0], zkey[b, 1]


@njit(cache=True)
def seat_choose(wd, mask, u, r, t, s, tol, evs):
    """The action at roll ``r`` with ``t`` rerolls left after ``seat_turn``
    (chances in ``s``): a box ``b < n_boxes`` or a keep's preference code.
    The largest chance to win, then to tie, compared on the keys
    ``seat_turn`` stored; among the actions still equal, the expected-score
    tie rule, of whose values it works out only those it reads
    (``seat_expected``; ``evs.ready`` all 0 at a turn's start)."""
    d, pt = wd.turn, wd.play
    ev, evk = evs.ev, evs.evk
    nb = len(d.is_upper)
    roll_boxes(d, pt, mask, r, s)
    rw, rkey, kkey = s.rw, s.rkey, s.kkey
    kw, kt = key(OFF), key(0.0)
    for b in range(nb):
        if rw[b] != OFF and (rkey[b, 0] > kw or (rkey[b, 0] == kw and rkey[b, 1] > kt)):
            kw, kt = rkey[b, 0], rkey[b, 1]
    lo, hi = pt.kstart[r], pt.kstart[r + 1]
    if t > 0:
        for j in range(lo, hi):
            m = pt.korder[j]
            a, c = kkey[t - 1, m, 0], kkey[t - 1, m, 1]
            if a > kw or (a == kw and c > kt):
                kw, kt = a, c
    count = 0
    only = nb
    for b in range(nb):
        if rw[b] != OFF and rkey[b, 0] == kw and rkey[b, 1] == kt:
            count += 1
            only = b
    if t > 0:
        for j in range(lo, hi):
            m = pt.korder[j]
            if kkey[t - 1, m, 0] == kw and kkey[t - 1, m, 1] == kt:
                count += 1
                only = pt.kcode[m]
    if count == 1:
        return only
    seat_expected(wd, mask, u, r, t, evs)     # the expected-score values this choice reads
    stop = NEG
    code = nb
    for b in range(nb):
        if rw[b] != OFF and rkey[b, 0] == kw and rkey[b, 1] == kt:
            v = ev[r, b]
            code = pick(v, stop, b, code, tol)
            stop = max(stop, v)
    if t > 0:
        best = NEG
        kcode = nb
        for j in range(lo, hi):
            m = pt.korder[j]
            if kkey[t - 1, m, 0] == kw and kkey[t - 1, m, 1] == kt:
                kcode = pick(evk[t - 1, m], best, pt.kcode[m], kcode, tol)
                best = max(best, evk[t - 1, m])
        code = pick(best, stop, kcode, code, tol)          # scoring wins ties
    return code


@njit(cache=True)
def position_chances(wd, states, mask, u, score, exact):
    """What advice needs at one position, in one compiled call (each
    compiled function first called from Python is loaded on its own):
    ``(less, eq)`` of the opponents ``states`` (``opponents_best``), the
    turn's chances (a ``Scratch``, ``turn_chances``) and ``(win, tie)`` at
    its start."""
    size = wd.tables.reach
    odds = Odds(np.empty(size), np.empty(size), np.empty(size))
    opponents_best(wd.tables.futures, wd.tables, states, len(states), odds)
    s, inner = make_scratch(wd.turn)
    start = turn_chances(wd, mask, u, score, odds, s, inner, exact)
    return odds.less, odds.eq, s, start


@njit(cache=True)
def seat_expected(wd, mask, u, r, rerolls, evs):
    """What ``seat_choose`` reads of the ``ExpectedValues`` at roll ``r``
    with ``rerolls`` left, each part worked out once a turn: ``evs.cand``
    and ``evs.evk`` at the turn's first tie, ``evs.ev[r]`` at roll ``r``'s."""
    ready = evs.ready
    if ready[0] == 0:
        expected_keeps(wd, mask, u, rerolls, evs)
        ready[0] = 1
    if ready[1 + r] == 0:
        expected_row(wd, mask, u, r, evs)
        ready[1 + r] = 1


@njit(cache=True)
def expected_keeps(wd, mask, u, rerolls, evs):
    """``evs.cand`` (``turn.fill_candidates`` at ``(mask, u)``) and
    ``evs.evk[:rerolls]`` of the ``ExpectedValues``."""
    d, pt, wt = wd
    zero = np.empty(1)
    fill_candidates(d, mask, u, 1, wt.values, evs.cand, zero)
    if rerolls > 0:
        nxt = wt.values.reshape((1,) + wt.values.shape)
        evs.evk[:rerolls] = state_keep_levels(d, mask, u, rerolls, 0, nxt)


@njit(cache=True)
def expected_row(wd, mask, u, r, evs):
    """``evs.ev[r]`` of the ``ExpectedValues``, from ``evs.cand``."""
    d, pt, wt = wd
    ev, cand = evs.ev, evs.cand
    allowed = d.allowed[mask]
    f = d.yahtzee_face[r]
    jokers = d.joker_boxes[mask, f] if f >= 0 else 0
    for b in range(len(d.is_upper)):
        v = NEG
        if jokers != 0:
            if (jokers >> b) & 1:
                v = cand[d.joker_cand[f, b], 0]
        elif (allowed >> b) & 1:
            c = pt.cand_of[r, b]
            v = cand[c, 0] if c >= 0 else wt.values[d.rows[mask | (1 << b)], u]
        ev[r, b] = v
