r"""Trippel-Yatzy's whole-game player, compiled.

At each turn start ``scoring_layer`` builds the scoring layer :math:`X_0` as
the maximum over the columns of each column's best box (weighted and
offset; only the column the last turn changed is recomputed, and with a
coupling term those whose offsets ``column_offsets`` moved), then
``keep_levels`` the keep values of every reroll level for ``LANES`` games
side by side; at each roll every (column, box) and every keep is valued and
chosen by ``kernels.turn.pick``, so the choices are the advice's
(``yatzy.players.triple``).  With a look-ahead (``TripleTables.look``),
each game's write is chosen again among its best few by their points plus
the next turn's value (``turn_values``), the positions of all the games
of a turn solved side by side.  ``play_games`` plays whole games;
``yatzy.research.triple_games`` drives it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from yatzy.kernels.dice_stream import roll_dice, seed_states
from yatzy.kernels.scoring import end_turn, upper_after
from yatzy.kernels.turn import (
    NEG,
    average_keeps,
    best_keeps,
    fill_candidates,
    pick,
    score_rolls,
)

LANES = 8          # games whose keep values are averaged side by side (vector lanes)


@njit(cache=True, nogil=True)
def column_offsets(masks, w, coupling, shift, moved):
    """``shift[c, b]`` = :math:`(f(s') - f(s)) / w_c` of filling open box
    ``b`` of column ``c``, for the coupling term
    :math:`f(s) = \\sum_b \\mathrm{coupling}[b, P_b]`, ``P_b`` the set of
    columns (bit ``c``) in which box ``b`` is open; ``moved[c]``: whether a
    ``shift[c]`` changed."""
    moved[:] = False
    for b in range(coupling.shape[0]):
        p = 0
        for c in range(len(masks)):
            if (masks[c] >> b) & 1 == 0:
                p |= 1 << c
        for c in range(len(masks)):
            v = (coupling[b, p & ~(1 << c)] - coupling[b, p]) / w[c] if (p >> c) & 1 else 0.0
            if v != shift[c, b]:
                moved[c] = True
                shift[c, b] = v


@njit(cache=True, nogil=True)
def shift_candidates(d, mask, shift, cand, scratch, shifted, szero):
    """One column's candidates (``cand``, from ``fill_candidates``) plus
    ``shift[b]`` of their box into ``shifted``; ``szero[0]``: the best
    scratch (0 points, ``scratch[b]``) plus its box's ``shift[b]``."""
    allowed = d.allowed[mask]
    szero[0] = NEG
    for b in range(len(d.is_upper)):
        if (allowed >> b) & 1:
            szero[0] = max(szero[0], scratch[b] + shift[b])
    for k in range(len(d.cand_box)):
        b = d.cand_box[k]
        if (allowed >> b) & 1:
            shifted[k, 0] = cand[k, 0] + shift[b]


@njit(cache=True, nogil=True)
def best_boxes(d, box_cand, mask, cand, zero, best):
    """``best[r, 0]``: ``score_rolls`` for one upper total, box by box over
    all rolls (``box_cand[b, r]``: the candidate of roll ``r`` in box ``b``,
    -1 for 0 points, which ``zero`` covers; ``box_candidates``).  The same
    maximum, so the same values."""
    allowed = d.allowed[mask]
    n = box_cand.shape[1]
    for r in range(n):
        best[r, 0] = zero[0]
    for b in range(box_cand.shape[0]):
        if (allowed >> b) & 1:
            for r in range(n):
                k = box_cand[b, r]
                if k >= 0:
                    best[r, 0] = max(best[r, 0], cand[k, 0])


def box_candidates(d, pt) -> np.ndarray:
    """``box_cand[b, r]`` of ``best_boxes`` (``pt.cand_of`` transposed), or
    an empty array where ``score_rolls`` is needed (rules with jokers or a
    yahtzee bonus)."""
    if d.joker_boxes.any() or d.yahtzee_bonus != 0.0:
        return np.zeros((0, 0), dtype=np.int64)
    return np.ascontiguousarray(pt.cand_of.T)


class TripleTables(NamedTuple):
    """What the Trippel-Yatzy kernels read besides ``TurnData`` and
    ``PlayTables`` (one column's rules):

    * ``box_cand[b, r]``  the candidate of roll ``r`` in box ``b``
      (``box_candidates``; empty: use ``score_rolls``)
    * ``values[mask, u]``  one column's expected-score table
    * ``w[c]``            what column ``c``'s points count
    * ``coupling[b, P]``  the coupling term (``column_offsets``), empty
      (shape ``(0, 2 ** columns)``) for none
    * ``slack[k, mask, u]``  a column's value with ``k`` turns to spare
      (``players.triple.slack_values``), read in place of ``values`` where
      ``plan[c, L]`` (column ``c``'s ``k`` with ``L`` turns left after the
      turn, clamped to the turns left) is not empty (shape ``(0, 0)``)
    * ``per``             slack layers per spare turn (2: half steps, the
      layer ``2k + 1`` the mean of ``2k`` and ``2k + 2``); ``plan`` counts
      layers, clamped to ``per`` times the spare turns
    * ``look = (m, delta)``  the look-ahead at the write (``look_candidates``): the
      ``m`` best (column, box) within ``delta`` of the best re-valued by
      their points plus the value of the next turn played with ``S`` after
      it; ``m < 2`` for none.  A third entry 1: the residuals fed to the
      keeps at each turn start (``fed_offsets``); a fourth ``alpha``: the
      look-ahead's residual ``T S - S`` counted ``1 + alpha`` times
    """

    box_cand: np.ndarray
    values: np.ndarray
    w: np.ndarray
    coupling: np.ndarray
    slack: np.ndarray
    plan: np.ndarray
    look: np.ndarray
    per: int


class Lanes(NamedTuple):
    """The columns of the ``LANES`` games played side by side, game (lane)
    ``j``, column ``c``:

    * ``masks[j, c], us[j, c]``  the column's filled boxes and upper total
    * ``fresh[j, c]``    whether the column changed since its values below
      were computed (the last turn wrote in it)
    * ``cand[j, c, k, 0], zero[j, c, 0]``  its candidates (``fill_candidates``)
    * ``scratch[j, c, b]``  the value of filling open box ``b`` with 0 points
    * ``shifted[j, c, k, 0], szero[j, c, 0]``  the candidates plus the
      coupling's ``shift[j, c, b]`` (``column_offsets``; ``moved[j, c]``:
      whether that changed); a single unused lane without a coupling term
    * ``best[j, c, r, 0]``  the column's best box for roll ``r``
    * ``now[j, c]``      the column's ``V``
    """

    masks: np.ndarray
    us: np.ndarray
    fresh: np.ndarray
    cand: np.ndarray
    zero: np.ndarray
    scratch: np.ndarray
    shifted: np.ndarray
    szero: np.ndarray
    shift: np.ndarray
    moved: np.ndarray
    best: np.ndarray
    now: np.ndarray
    taus: np.ndarray


class TripleOut(NamedTuple):
    """What ``play_games`` writes per game ``i``: ``score[i]`` (weighted,
    bonuses included), ``bonuses[i]`` (columns with the bonus),
    ``box_points[i, c, b]`` (as written, before the weight)."""

    score: np.ndarray
    bonuses: np.ndarray
    box_points: np.ndarray


@njit(cache=True, nogil=True)
def scoring_layer(d, tt, lanes, work, j):
    """:math:`X_0` of game ``j``'s turn at its columns ``(masks[j, c],
    us[j, c])`` (``lanes``, a ``Lanes``) into ``work[first_roll + r, j]``:
    the best over the columns of ``w_c best[c, r] + H - w_c now[c]``;
    returns ``H`` (:math:`\\sum_c w_c V_c`; ``tt`` the ``TripleTables``).

    ``best`` and the candidates are recomputed only for the columns with
    ``fresh[j, c]`` (the others are as the game's last turn left them).
    With a coupling term the candidates are first shifted by ``shift[j, c,
    b]`` (``column_offsets``) into ``shifted``, ``szero``, and ``best`` is
    recomputed for the columns whose ``shift`` moved too.  ``best_boxes``
    stands for ``score_rolls`` where ``box_cand`` is not empty.
    """
    box_cand, values, w, coupling = tt.box_cand, tt.values, tt.w, tt.coupling
    slack, plan = tt.slack, tt.plan
    slacked = slack.shape[0] > 0
    taus = lanes.taus[j]
    masks, us, fresh = lanes.masks[j], lanes.us[j], lanes.fresh[j]
    cand, zero, scratch = lanes.cand[j], lanes.zero[j], lanes.scratch[j]
    q = min(j, len(lanes.shifted) - 1)         # (one unused lane without a coupling term)
    shifted, szero = lanes.shifted[q], lanes.szero[q]
    shift, moved, best, now = lanes.shift[j], lanes.moved[j], lanes.best[j], lanes.now[j]
    first = d.first_roll
    n_rolls = len(d.roll_prob)
    fed = tt.look.shape[0] > 2 and tt.look[2] > 0
    coupled = coupling.shape[0] > 0 or fed
    total = 0.0
    if slacked:
        nb = len(d.is_upper)
        left = 0
        for c in range(len(masks)):
            for b in range(nb):
                left += 1 - ((masks[c] >> b) & 1)
    for c in range(len(masks)):
        if slacked:
            n_c = 0
            for b in range(len(d.is_upper)):
                n_c += 1 - ((masks[c] >> b) & 1)
            tw = min(plan[c, left - 1], tt.per * (left - n_c))       # filled now: n_c - 1 open
            tn = min(plan[c, left - 1], tt.per * (left - 1 - n_c))   # left as it is
            if tw != taus[c]:
                fresh[c] = True
                taus[c] = tw
            now[c] = slack[tn, d.rows[masks[c]], us[c]]
        else:
            now[c] = values[d.rows[masks[c]], us[c]]
        total += w[c] * now[c]
    if coupling.shape[0] > 0:
        column_offsets(masks, w, coupling, shift, moved)
    elif fed:
        moved[:] = True                 # ``fed_offsets`` set ``shift`` for this turn
    for r in range(n_rolls):
        work[first + r, j] = NEG
    for c in range(len(masks)):
        if d.allowed[masks[c]] == 0:
            continue
        if fresh[c]:
            tab = slack[max(taus[c], 0)] if slacked else values
            fill_candidates(d, masks[c], us[c], 1, tab, cand[c], zero[c])
            allowed = d.allowed[masks[c]]
            for b in range(len(d.is_upper)):
                if (allowed >> b) & 1:
                    scratch[c, b] = tab[d.rows[masks[c] | (1 << b)], us[c]]
        if coupled and (fresh[c] or moved[c]):
            shift_candidates(d, masks[c], shift[c], cand[c], scratch[c], shifted[c], szero[c])
        if fresh[c] or (coupled and moved[c]):
            src, z = (shifted[c], szero[c]) if coupled else (cand[c], zero[c])
            if box_cand.shape[0] > 0:
                best_boxes(d, box_cand, masks[c], src, z, best[c])
            else:
                score_rolls(d, masks[c], 1, 0, src, z, best[c])
        off = total - w[c] * now[c]
        for r in range(n_rolls):
            work[first + r, j] = max(work[first + r, j], w[c] * best[c, r, 0] + off)
    return total


@njit(cache=True, nogil=True)
def turn_values(d, tt, lanes, work, n):
    """The turn-start value of lanes ``j < n`` of ``lanes`` (every column
    recomputed): the expected best of a whole turn played with ``S`` after
    it, excluding the points written before; 0 for a full card."""
    for j in range(n):
        lanes.fresh[j, :] = True
        lanes.taus[j, :] = -1
        scoring_layer(d, tt, lanes, work, j)
    for t in range(d.rolls):
        if t > 0:
            best_keeps(d, n, work)
        average_keeps(d, n, work)
    out = np.empty(n)
    nb = len(d.is_upper)
    for j in range(n):
        full = True
        for c in range(lanes.masks.shape[1]):
            if lanes.masks[j, c] != (1 << nb) - 1:
                full = False
        out[j] = 0.0 if full else work[0, j]
    return out


@njit(cache=True, nogil=True)
def look_candidates(d, tt, state, r, vals, code, tol, into):
    """The writes the look-ahead weighs at roll ``r`` of a turn at the
    columns ``state = (masks, us)``: the ``m`` (column, box) of largest
    ``vals[c * nb + b]`` (the strategy's values; not allowed: ``NEG``)
    within ``delta`` of the best (``tt.look = (m, delta)``; ties by the tie
    rule's ``pick``), ``code`` the strategy's own choice.  Written into
    ``into = (ahead, chosen, pts, at)`` from lane ``at`` on: the position
    each leads to (``ahead``, a ``Lanes``), its code and its weighted points;
    returns how many (0 where fewer than two)."""
    masks, us = state
    ahead, chosen, pts, at = into
    nb = len(d.is_upper)
    C = len(masks)
    m, delta = int(tt.look[0]), tt.look[1]
    n_codes = len(vals)
    used = np.zeros(n_codes, dtype=np.bool_)
    n = 0
    top = vals[code]
    for _ in range(m):
        best, bc = NEG, n_codes
        for q in range(n_codes):
            if not used[q] and vals[q] > NEG and vals[q] >= top - delta:
                bc = pick(vals[q], best, q, bc, tol)
                best = max(best, vals[q])
        if bc == n_codes:
            break
        used[bc] = True
        chosen[at + n] = bc
        n += 1
    if n < 2:
        return 0
    for i in range(at, at + n):
        c, b = chosen[i] // nb, chosen[i] % nb
        for c2 in range(C):
            ahead.masks[i, c2], ahead.us[i, c2] = masks[c2], us[c2]
        e = end_turn(d, masks[c], us[c], b, r, 0, 0)
        ahead.masks[i, c], ahead.us[i, c] = e.mask, e.upper
        pts[i] = tt.w[c] * (e.points + e.upper_bonus + e.yahtzee_bonus)
    return n


@njit(cache=True, nogil=True)
def look_choice(chosen, value, first, n, tol):
    """The look-ahead's write among lanes ``first .. first + n - 1``: the
    code ``chosen[i]`` of the largest ``value[i]`` (weighted points plus
    ``turn_values``), ties by the tie rule's ``pick`` in the order weighed."""
    best, out = NEG, 1 << 62
    for i in range(first, first + n):
        out = pick(value[i], best, chosen[i], out, tol)
        best = max(best, value[i])
    return out


@njit(cache=True, nogil=True)
def par_points(d):
    """``rep[b]``: the points upper box ``b`` (face ``b + 1``) stands for in
    ``fed_offsets``, the face times the count that keeps pace with the
    bonus (``round(cap / sum of the upper faces)``, at least 1: three for
    Nordic); 0 for the other boxes."""
    nb = len(d.is_upper)
    faces = 0
    for b in range(nb):
        if d.is_upper[b]:
            faces += b + 1
    count = max(1, int(round(d.cap / faces))) if faces > 0 else 0
    rep = np.zeros(nb, dtype=np.int64)
    for b in range(nb):
        if d.is_upper[b]:
            rep[b] = count * (b + 1)
    return rep


@njit(cache=True, nogil=True)
def fed_offsets(d, tt, tt0, lanes, L, ahead, work2, rep):
    """The look-ahead fed to the keeps: ``shift[j, c, b]`` = the residual
    :math:`((T S)(s') - S(s')) / w_c` of the position ``s'`` that writing
    box ``b`` of column ``c`` leads to (upper boxes with ``rep[b]``
    points), for the games ``j < L`` of ``lanes``; ``T S`` a whole turn
    played with ``S`` after it (``turn_values`` with ``tt0``, no feeding)."""
    nb = len(d.is_upper)
    C = lanes.masks.shape[1]
    plan, slack, per, w = tt.plan, tt.slack, tt.per, tt.w
    n = 0
    for j in range(L):
        for c in range(C):
            allowed = d.allowed[lanes.masks[j, c]]
            for b in range(nb):
                if (allowed >> b) & 1:
                    for c2 in range(C):
                        ahead.masks[n, c2], ahead.us[n, c2] = lanes.masks[j, c2], lanes.us[j, c2]
                    ahead.masks[n, c] = lanes.masks[j, c] | (1 << b)
                    ahead.us[n, c] = upper_after(d, b, lanes.us[j, c], rep[b])[0]
                    n += 1
    tv = turn_values(d, tt0, ahead, work2, n)
    n = 0
    for j in range(L):
        left = 0
        for c in range(C):
            for b in range(nb):
                left += 1 - ((lanes.masks[j, c] >> b) & 1)
        for c in range(C):
            allowed = d.allowed[lanes.masks[j, c]]
            for b in range(nb):
                if (allowed >> b) & 1:
                    s = 0.0
                    for c2 in range(C):
                        n_c = 0
                        for b2 in range(nb):
                            n_c += 1 - ((ahead.masks[n, c2] >> b2) & 1)
                        k = min(plan[c2, left - 1], per * (left - 1 - n_c))
                        s += w[c2] * slack[k, d.rows[ahead.masks[n, c2]], ahead.us[n, c2]]
                    lanes.shift[j, c, b] = (tv[n] - s) / w[c]
                    n += 1


@njit(cache=True, nogil=True)
def lane_set(d, C, nb, coupled, K=LANES):
    n_rolls = len(d.roll_prob)
    return Lanes(np.zeros((K, C), dtype=np.int64), np.zeros((K, C), dtype=np.int64),
                 np.ones((K, C), dtype=np.bool_), np.empty((K, C, len(d.cand_box), 1)),
                 np.empty((K, C, 1)), np.empty((K, C, nb)),
                 np.empty((K, C, len(d.cand_box), 1) if coupled else (1, 1, 1, 1)),
                 np.empty((K, C, 1) if coupled else (1, 1, 1)), np.zeros((K, C, nb)),
                 np.zeros((K, C), dtype=np.bool_), np.empty((K, C, n_rolls, 1)),
                 np.empty((K, C)), np.full((K, C), -1, dtype=np.int64))


@njit(cache=True, nogil=True)
def keep_levels(d, L, rerolls, work, out):
    """``out[t - 1, m, j]`` = :math:`W_t(m)` for ``t = 1 .. rerolls`` of the
    games in lanes ``j < L``, from :math:`X_0` in ``work`` (overwritten)."""
    M = out.shape[1]
    for t in range(rerolls):
        if t > 0:                           # X_t from W_t (rolls: X_{t-1})
            best_keeps(d, L, work)
        average_keeps(d, L, work)
        for m in range(M):
            for j in range(L):
                out[t, m, j] = work[m, j]


@njit(cache=True, nogil=True)
def play_games(d, pt, tt, run, played, log, t, n_threads):
    """Play games ``run.first + i`` for ``i`` in piece ``t`` of
    ``n_threads`` (consecutive runs of ``len(out.score)``), ``LANES`` at a
    time, from ``run.start[c] = (mask, u, points)`` of each column (points
    as written, bonus included; ``run`` a ``kernels.runs.Games``) into
    ``played`` (``TripleOut``); ``tt``: the ``TripleTables``.  With logging
    (``log.rolls.shape[0] > 0``, a ``kernels.runs.TurnLog``) each turn's
    rolls, keeps (multiset indices, -1 unused), box and column (0-based)."""
    first_game, seed, tol, start = run.first, run.seed, run.tol, run.start
    score, bonuses, box_points = played
    log_rolls, log_keeps, log_box, log_col = log
    w = tt.w
    nb = len(d.is_upper)
    C = len(w)
    n_dice = pt.size[-1]
    M = d.adds.shape[0]
    logging = log_rolls.shape[0] > 0
    fed = tt.look.shape[0] > 2 and tt.look[2] > 0
    coupled = tt.coupling.shape[0] > 0 or fed
    lanes = lane_set(d, C, nb, coupled)
    looking = tt.look.shape[0] > 0 and tt.look[0] >= 2
    wide = LANES * max(int(tt.look[0]), 1) if looking else 1     # the look-ahead's lanes
    if fed:
        wide = max(wide, LANES * C * nb)
    tt0 = TripleTables(tt.box_cand, tt.values, tt.w, tt.coupling, tt.slack, tt.plan,
                       tt.look[:2].copy(), tt.per)
    rep = par_points(d)
    ahead = lane_set(d, C, nb, tt.coupling.shape[0] > 0, wide)   # the next turn's: offsets too
    work2 = np.zeros((M + 1, wide))
    chosen, pts, value = np.zeros(wide, dtype=np.int64), np.zeros(wide), np.zeros(wide)
    sval = np.zeros(wide)
    alpha = tt.look[3] if tt.look.shape[0] > 3 else 0.0
    vals = np.empty(C * nb)
    rs, codes = np.zeros(LANES, dtype=np.int64), np.zeros(LANES, dtype=np.int64)
    firsts, counts = np.zeros(LANES, dtype=np.int64), np.zeros(LANES, dtype=np.int64)
    masks, us, fresh, shift = lanes.masks, lanes.us, lanes.fresh, lanes.shift
    scratch, now = lanes.scratch, lanes.now
    src = lanes.shifted if coupled else lanes.cand
    work = np.zeros((M + 1, LANES))
    h = np.empty(LANES)
    out = np.empty((max(d.rolls - 1, 1), M, LANES))
    total = np.zeros(LANES, dtype=np.int64)
    states = np.zeros(LANES, dtype=np.uint64)
    turns = 0
    for c in range(C):
        for b in range(nb):
            turns += (start[c, 0] >> b) & 1
    lo, hi = t * len(score) // n_threads, (t + 1) * len(score) // n_threads
    for i0 in range(lo, hi, LANES):
        L = min(LANES, hi - i0)
        states[:L] = seed_states(seed, first_game + i0, L)
        for j in range(L):
            fresh[j, :] = True
            total[j] = 0
            for c in range(C):
                masks[j, c], us[j, c] = start[c, 0], start[c, 1]
                total[j] += np.int64(w[c]) * start[c, 2]
        for turn in range(turns, C * nb):
            if fed:
                fed_offsets(d, tt, tt0, lanes, L, ahead, work2, rep)
            for j in range(L):
                h[j] = scoring_layer(d, tt, lanes, work, j)
            keep_levels(d, L, d.rolls - 1, work, out)
            n_look = 0
            for j in range(L):
                i = i0 + j
                st = states[j]
                rerolls = d.rolls - 1
                r, st = roll_dice(d.adds, d.first_roll, d.faces, n_dice, st, 0)
                n = 0
                while True:
                    if logging:
                        log_rolls[i, turn, n] = r
                    stop = NEG
                    code = C * nb + M
                    vals[:] = NEG
                    for c in range(C):
                        allowed = d.allowed[masks[j, c]]
                        off = h[j] - w[c] * now[j, c]
                        for b in range(nb):
                            if (allowed >> b) & 1:
                                k = pt.cand_of[r, b]
                                v = (src[j, c, k, 0] if k >= 0
                                     else scratch[j, c, b] + shift[j, c, b])
                                v = w[c] * v + off
                                vals[c * nb + b] = v
                                code = pick(v, stop, c * nb + b, code, tol)
                                stop = max(stop, v)
                    if rerolls:
                        best = NEG
                        kcode = C * nb + M
                        for q in range(pt.kstart[r], pt.kstart[r + 1]):
                            m = pt.korder[q]
                            v = out[rerolls - 1, m, j]
                            kcode = pick(v, best, pt.kcode[m] + (C - 1) * nb, kcode, tol)
                            best = max(best, v)
                        code = pick(best, stop, kcode, code, tol)     # scoring wins ties
                    if code < C * nb:
                        break
                    m = pt.by_code[code - C * nb]
                    if logging:
                        log_keeps[i, turn, n] = m
                    r, st = roll_dice(d.adds, d.first_roll, d.faces, n_dice - pt.size[m], st, m)
                    rerolls -= 1
                    n += 1
                states[j] = st
                rs[j], codes[j], firsts[j], counts[j] = r, code, n_look, 0
                if looking:
                    counts[j] = look_candidates(d, tt, (masks[j], us[j]), r, vals, code, tol,
                                                (ahead, chosen, pts, n_look))
                    for q in range(n_look, n_look + counts[j]):
                        sval[q] = vals[chosen[q]]
                    n_look += counts[j]
            if n_look:                  # every game's look-ahead in one solve, side by side
                value[:n_look] = turn_values(d, tt0, ahead, work2, n_look) + pts[:n_look]
                if alpha != 0.0:            # the residual T S - S extrapolated
                    value[:n_look] += alpha * (value[:n_look] - sval[:n_look])
            for j in range(L):
                i = i0 + j
                r, code = rs[j], codes[j]
                if counts[j]:
                    code = look_choice(chosen, value, firsts[j], counts[j], tol)
                c, b = code // nb, code % nb
                fresh[j, :] = False
                fresh[j, c] = True
                e = end_turn(d, masks[j, c], us[j, c], b, r, 0, 0)
                masks[j, c], us[j, c] = e.mask, e.upper
                if e.upper_bonus > 0:
                    bonuses[i] += 1
                total[j] += np.int64(w[c]) * (e.points + e.upper_bonus + e.yahtzee_bonus)
                box_points[i, c, b] = e.points
                if logging:
                    log_box[i, turn] = b
                    log_col[i, turn] = c
        for j in range(L):
            score[i0 + j] = total[j]
