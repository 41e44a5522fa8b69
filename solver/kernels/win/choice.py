"""The seat's choice at a roll (``seat_choose``): the largest chance to
win, then to tie, on the keys ``seat_turn`` stored; among the actions
still equal, the expected-score tie rule, whose values (``ExpectedValues``:
``ev[r, b]`` per roll and box, ``evk[t - 1, m]`` per keep level and
multiset, ``cand[c, 0]`` per candidate) are worked out only where read.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from yatzy.kernels.turn import NEG, fill_candidates, pick, state_keep_levels
from yatzy.kernels.win.data import OFF, key


class ExpectedValues(NamedTuple):
    """The expected-score values ``seat_choose`` breaks ties with, each
    part worked out once a turn when first needed (``seat_expected``):
    ``ev[r, b]`` of scoring roll ``r`` in box ``b`` (the expected final
    score less the card's, ``NEG`` where it may not go; ``expected_row``),
    ``evk[t - 1, m]`` of keeping ``m`` with ``t`` rerolls left and
    ``cand[c, 0]`` of candidate ``c`` (``turn.fill_candidates``;
    ``expected_keeps``), valued as ``yatzy.research.games`` values them;
    ``ready[0]``: 1 once ``cand`` and ``evk`` are filled this turn,
    ``ready[1 + r]``: 1 once ``ev[r]`` is.  ``new_expected`` makes one."""

    ev: np.ndarray
    evk: np.ndarray
    ready: np.ndarray
    cand: np.ndarray


@njit(cache=True)
def new_expected(d):
    """An ``ExpectedValues`` for the rules of ``d``, not ready."""
    return ExpectedValues(np.empty((len(d.roll_prob), len(d.is_upper))),
                          np.empty((max(d.rolls - 1, 1), d.adds.shape[0])),
                          np.zeros(1 + len(d.roll_prob), dtype=np.int64),
                          np.empty((len(d.cand_box), 1)))


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
