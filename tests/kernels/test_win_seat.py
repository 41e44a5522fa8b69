"""The win seat's shortcuts (yatzy.kernels.win) give what the plain
kernels give, value for value and choice for choice: ``best_scores``
and ``one_box_scores`` against ``score_chances`` (jokers included),
``one_box_chances`` against ``fill_chances``, the exact turn's states after
averaged side by side against ``turn_start`` one by one, and
``seat_choose`` against ``plain_choose`` (here: every chance the plain
``turn_chances`` records, each compared as it is met, all the turn's
expected-score values) at every roll of random positions (also with the
seat's expected-score values kept over a turn's rolls)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from small_games import SMALL, TINY, joker_game

from yatzy.api import Solver
from yatzy.kernels.player import play_tables
from yatzy.kernels.turn import NEG, pick, turn_data
from yatzy.kernels.win.choice import expected_keeps, expected_row, new_expected, seat_choose
from yatzy.kernels.win.data import OFF, WinData, key, win_tables
from yatzy.kernels.win.ends import after, fill_chances, one_box_chances
from yatzy.kernels.win.exact import turn_start
from yatzy.kernels.win.odds import Odds, opponents_best, support
from yatzy.kernels.win.rolls import best_scores, one_box, one_box_scores, score_chances
from yatzy.kernels.win.scratch import make_scratch
from yatzy.kernels.win.turns import seat_turn, turn_chances
from yatzy.rules.ties import tolerance


@njit
def better(w, t, bw, bt):
    """``(w, t)`` ranks above ``(bw, bt)``: a larger chance to win, then to tie."""
    kw, kb = key(w), key(bw)
    return kw > kb or (kw == kb and key(t) > key(bt))


@njit
def plain_choose(wd, mask, u, r, t, s, tol, evs):
    """The action at roll ``r`` with ``t`` rerolls left from every chance
    ``turn_chances`` records in ``s`` (each compared through ``key`` as it
    is met): the largest chance to win, then to tie; among the actions
    still equal, the expected-score tie rule on all of the turn's
    expected-score values (``plain_expected``, once a turn)."""
    d, pt = wd.turn, wd.play
    ev, evk, ev_ready = evs.ev, evs.evk, evs.ready
    nb = len(d.is_upper)
    bw, bt = OFF, 0.0
    for b in range(nb):
        if s.swin[r, b] != OFF and better(s.swin[r, b], s.stie[r, b], bw, bt):
            bw, bt = s.swin[r, b], s.stie[r, b]
    if t > 0:
        for j in range(pt.kstart[r], pt.kstart[r + 1]):
            m = pt.korder[j]
            if better(s.kwin[t - 1, m], s.ktie[t - 1, m], bw, bt):
                bw, bt = s.kwin[t - 1, m], s.ktie[t - 1, m]
    kw, kt = key(bw), key(bt)
    count = 0
    only = nb
    for b in range(nb):
        if s.swin[r, b] != OFF and key(s.swin[r, b]) == kw and key(s.stie[r, b]) == kt:
            count += 1
            only = b
    if t > 0:
        for j in range(pt.kstart[r], pt.kstart[r + 1]):
            m = pt.korder[j]
            if key(s.kwin[t - 1, m]) == kw and key(s.ktie[t - 1, m]) == kt:
                count += 1
                only = pt.kcode[m]
    if count == 1:
        return only
    if ev_ready[0] == 0:                       # the expected-score values, once a turn
        plain_expected(wd, mask, u, t, evs)
        ev_ready[0] = 1
    stop = NEG
    code = nb
    for b in range(nb):
        if s.swin[r, b] != OFF and key(s.swin[r, b]) == kw and key(s.stie[r, b]) == kt:
            v = ev[r, b]
            code = pick(v, stop, b, code, tol)
            stop = max(stop, v)
    if t > 0:
        best = NEG
        kcode = nb
        for j in range(pt.kstart[r], pt.kstart[r + 1]):
            m = pt.korder[j]
            if key(s.kwin[t - 1, m]) == kw and key(s.ktie[t - 1, m]) == kt:
                kcode = pick(evk[t - 1, m], best, pt.kcode[m], kcode, tol)
                best = max(best, evk[t - 1, m])
        code = pick(best, stop, kcode, code, tol)          # scoring wins ties
    return code


@njit
def plain_expected(wd, mask, u, rerolls, evs):
    """Every expected-score value of the turn into ``evs`` at once."""
    expected_keeps(wd, mask, u, rerolls, evs)
    for r in range(len(wd.turn.roll_prob)):
        expected_row(wd, mask, u, r, evs)


@njit
def _compare(wd, positions, states, tol, exact):
    """For each position ``(mask, u, score)`` against opponents ``states``:
    the disagreements of the shortcuts with the plain kernels (0: none; the
    exact turn's values also against ``turn_start``) and how many states
    after the exact turn took no lane (their chances all 0)."""
    d = wd.turn
    bad = 0
    skipped = 0
    s, inner = make_scratch(d)
    s2, inner2 = make_scratch(d)
    odds = Odds(np.empty(wd.tables.reach), np.empty(wd.tables.reach),
                  np.empty(wd.tables.reach))
    nb = len(d.is_upper)
    evs, evs2 = new_expected(d), new_expected(d)
    for p in range(len(positions)):
        mask, u, score = positions[p, 0], positions[p, 1], positions[p, 2]
        if d.allowed[mask] == 0:
            continue
        opponents_best(wd.tables.futures, wd.tables, states[p], len(states[p]), odds)
        fill_chances(wd, mask, u, score, odds, s)
        score_chances(d, wd.play, mask, s, False)
        want = s.work.copy()
        best_scores(d, mask, s)
        if not (s.work[d.first_roll:] == want[d.first_roll:]).all():
            bad |= 1
        one_box_scores(d, mask, s)
        if not (s.work[d.first_roll:] == want[d.first_roll:]).all():
            bad |= 32
        b = one_box(d, mask)
        if b >= 0:                             # one box to fill: that box's chances alone
            lo, hi = support(odds.eq)
            one_box_chances(wd, mask, u, score, odds, s2, b, (lo, hi))
            if s2.zwin[b] != s.zwin[b] or s2.ztie[b] != s.ztie[b]:
                bad |= 64
            for k in range(len(d.cand_box)):
                if d.cand_box[k] == b and (s2.cwin[k] != s.cwin[k] or s2.ctie[k] != s.ctie[k]):
                    bad |= 64
        turn_chances(wd, mask, u, score, odds, s, inner, exact)
        seat_turn(wd, mask, u, score, odds, s2, inner2, exact)
        for t in range(d.rolls - 1):
            for m in range(d.first_roll):
                if (s.kkey[t, m, 0] != s2.kkey[t, m, 0] or s.kkey[t, m, 1] != s2.kkey[t, m, 1]
                        or s.kkey[t, m, 0] != key(s.kwin[t, m])):
                    bad |= 2
        if exact:
            for k in range(len(d.cand_box)):
                b = d.cand_box[k]
                if (d.allowed[mask] >> b) & 1:
                    if s.cwin[k] != s2.cwin[k] or s.ctie[k] != s2.ctie[k]:
                        bad |= 4
                    m2, u2, sc2 = after(d, mask, u, score, b, d.cand_score[k])
                    w, t = turn_start(wd, m2, u2, sc2, odds, inner2)
                    if w != s.cwin[k] or t != s.ctie[k]:
                        bad |= 16
            children = 0
            for b in range(nb):
                children += (d.allowed[mask] >> b) & 1
            for k in range(len(d.cand_box)):
                children += (d.allowed[mask] >> d.cand_box[k]) & 1
            for k in range(children):
                if s.lane[k] < 0:
                    skipped += 1
        for r in range(len(d.roll_prob)):
            for t in range(d.rolls):
                evs.ready[:] = 0
                x = plain_choose(wd, mask, u, r, t, s, tol, evs)
                evs.ready[:] = 0
                y = seat_choose(wd, mask, u, r, t, s2, tol, evs)
                if x != y:
                    bad |= 8
        evs2.ready[:] = 0                      # as in a turn: rerolls only fall, values kept
        for t in range(d.rolls - 1, -1, -1):
            for r in range(len(d.roll_prob)):
                evs.ready[:] = 0
                x = plain_choose(wd, mask, u, r, t, s, tol, evs)
                if x != seat_choose(wd, mask, u, r, t, s2, tol, evs2):
                    bad |= 128
    return bad, skipped


def _positions(rules, n, open_boxes, seed):
    """Random turn starts with ``open_boxes`` boxes open (any number if 0)
    and each against one or two random opponents."""
    rng = np.random.default_rng(seed)
    nb = rules.n_boxes
    full = (1 << nb) - 1
    positions, states = [], []
    for _ in range(n):
        k = open_boxes or int(rng.integers(1, nb + 1))
        closed = rng.permutation(nb)[:nb - k]
        mask = int(sum(1 << int(b) for b in closed))
        u = int(rng.integers(0, rules.bonus_threshold + 1)) if rules.bonus_threshold else 0
        positions.append((mask, u, int(rng.integers(0, rules.max_score // 2))))
        opp = []
        for _ in range(2):
            om = int(rng.integers(0, full + 1))
            opp.append((om, 0, int(rng.integers(0, rules.max_score // 2)), int(om == full)))
        states.append(opp)
    return np.array(positions, dtype=np.int64), np.array(states, dtype=np.int64)


@pytest.mark.slow
@pytest.mark.parametrize("rules", [SMALL, TINY, joker_game("forced", 0), joker_game("free", 0)])
@pytest.mark.parametrize("open_boxes", [0, 1, 2])
def test_the_seat_shortcuts_agree_with_the_plain_kernels(tables_dir, rules, open_boxes):
    solver = Solver(rules, tables=tables_dir)
    target, futures = solver.target(), solver.futures()
    target.need(0, 0)                          # every state: the whole tables
    futures.need(0, 0)
    wt = win_tables(rules, target.values, futures.values, solver.table.values)
    wd = WinData(turn_data(rules), play_tables(rules), wt)
    positions, states = _positions(rules, 40, open_boxes, 3)
    bad, skipped = _compare(wd, positions, states, tolerance(solver.table), open_boxes == 2)
    assert bad == 0
    if open_boxes == 2:                        # states after with no chance left are met
        assert skipped > 0
