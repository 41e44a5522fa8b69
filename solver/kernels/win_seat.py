"""The ``win`` seat of a match, compiled: whole games played to win against
the other seats' logged games (``play_win_games``), each choice that of
``kernels.win.choose``.  ``solver.research.win_seat`` drives it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.kernels import win as win_turn
from solver.kernels.dice_stream import roll_dice, seed_states
from solver.kernels.win import EXACT_OPEN


@njit(cache=True, nogil=True)
def play_win_games(d, pt, wt, tol, seed, lead0, seat, seats, boxes, points, scores, t, n_threads):
    """Play games ``i = t, t + n_threads, ...`` below ``len(scores)`` into
    ``scores[i]``.

    ``seats[j]``: the seat of opponent ``j``; ``boxes[j, i, k]``,
    ``points[j, i, k]``: the box it filled in its turn ``k`` of game ``i``
    and the points written (bonuses are worked out here); ``tol``: the
    expected-score tie tolerance (``ties.tolerance``).  In game ``i``
    seat ``(lead0 + i) % n_seats`` moves first, ``n_seats = len(seats) + 1``.
    """
    nb = len(d.is_upper)
    n_dice = pt.size[-1]
    n_opp = len(seats)
    n_seats = n_opp + 1
    s, inner = win_turn.make_scratch(d)
    size = wt.reach
    less, eq, cdf = np.empty(size), np.empty(size), np.empty(size)
    states = np.zeros((n_opp, 4), dtype=np.int64)
    ev = np.empty((len(d.roll_prob), nb))
    evk = np.empty((max(d.rolls - 1, 1), d.adds.shape[0]))
    ready = np.zeros(1, dtype=np.int64)
    for i in range(t, len(scores), n_threads):
        st = seed_states(seed, i, 1)[0]
        lead = (lead0 + i) % n_seats
        mine = (seat - lead) % n_seats
        mask, u, score = 0, 0, 0
        for turn in range(nb):
            for j in range(n_opp):               # the others' cards as they stand
                done = turn + (1 if (seats[j] - lead) % n_seats < mine else 0)
                om, ou, os = 0, 0, 0
                for k in range(done):
                    om, ou, os = win_turn.after(d, om, ou, os, boxes[j, i, k], points[j, i, k])
                states[j, 0], states[j, 1], states[j, 2] = om, ou, os
                states[j, 3] = 1 if done == nb else 0
            win_turn.opponents_best(wt.futures, wt.off, wt.width, wt.start, states, n_opp,
                                    cdf, less, eq)
            win_turn.turn_chances(d, pt, wt, mask, u, score, less, eq, s, inner,
                                  nb - turn == EXACT_OPEN)
            ready[0] = 0
            rerolls = d.rolls - 1
            r, st = roll_dice(d.adds, d.first_roll, d.faces, n_dice, st, 0)
            while True:
                code = win_turn.choose(d, pt, wt, mask, u, r, rerolls, s, tol, ev, evk, ready)
                if code < nb:
                    break
                m = pt.by_code[code - nb]
                r, st = roll_dice(d.adds, d.first_roll, d.faces, n_dice - pt.size[m], st, m)
                rerolls -= 1
            f = d.yahtzee_face[r]
            jokers = d.joker_boxes[mask, f] if f >= 0 else 0
            c = d.joker_cand[f, code] if jokers != 0 else pt.cand_of[r, code]
            mask, u, score = win_turn.after(d, mask, u, score, code,
                                            d.cand_score[c] if c >= 0 else 0)
        scores[i] = score
