"""The exact late-game turn: with two boxes open, each state after the
turn is valued by its own last turn played to win (``turn_start``), those
turns averaged side by side (``exact_lanes``: ``win[m, k], tie[m, k]`` of
multiset ``m`` in lane ``k``, ``lane_views``), which is exact because the
states after them are full cards.
"""

from __future__ import annotations

from numba import njit

from yatzy.kernels.turn import average_keeps
from yatzy.kernels.win.data import key
from yatzy.kernels.win.ends import after, fill_chances, one_box_chances
from yatzy.kernels.win.keeps import all_zero, keep_chances
from yatzy.kernels.win.odds import support
from yatzy.kernels.win.rolls import best_scores, one_box, one_box_scores


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
