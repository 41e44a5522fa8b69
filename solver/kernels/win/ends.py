"""Each way to end the turn, valued: the chance to win and to tie of
writing a candidate ``c`` (``cwin[c], ctie[c]``) or 0 points in box ``b``
(``zwin[b], ztie[b]``), the state after looked up in the target table and
mixed over the best opponent's score ``M`` (``chance``); the rows are
asked for before they are read (``prefetch_chance``).
"""

from __future__ import annotations

from numba import njit

from yatzy.kernels.scoring import upper_after
from yatzy.kernels.turn import prefetch
from yatzy.kernels.win.data import key
from yatzy.kernels.win.odds import support


@njit(cache=True)
def after(d, mask, u, score, b, points):
    """``(mask, u, score)`` once ``points`` are written in box ``b`` (the
    upper bonus included, ``kernels.scoring``)."""
    u2, bonus = upper_after(d, b, u, points)
    return mask | (1 << b), u2, score + points + bonus


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
