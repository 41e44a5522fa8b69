"""Each roll's best box: from the chances of every way to end the turn
(``yatzy.kernels.win.ends``), the best way to score each roll ``r`` into
``work[first_roll + r]`` (win, tie) with its keys in ``wkey``;
``score_chances`` also records every box's (``swin[r, b], stie[r, b]``),
``best_scores`` and ``one_box_scores`` find the same values quicker.
"""

from __future__ import annotations

from numba import njit

from yatzy.kernels.win.data import OFF


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
