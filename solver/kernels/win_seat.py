"""The ``win`` seat of a match, compiled: whole games played to win against
the other seats' logged games (``play_win_games``), each choice that of
``kernels.win.choice.seat_choose`` after ``kernels.win.turns.seat_turn``;
``yatzy.research.win_seat`` drives it.
A game the seat leads starts against empty cards: that first turn's
chances are the same in every such game and worked out once per call.
The others' cards are brought up to date by one turn each turn, and the
futures rows their next cards will read are asked for a turn ahead
(``kernels.win.odds.prefetch_futures``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from yatzy.kernels.dice_stream import roll_dice, seed_states
from yatzy.kernels.scoring import end_turn
from yatzy.kernels.win.choice import new_expected, seat_choose
from yatzy.kernels.win.data import EXACT_OPEN
from yatzy.kernels.win.ends import after
from yatzy.kernels.win.odds import Odds, opponents_best, prefetch_futures
from yatzy.kernels.win.scratch import make_scratch, new_scratch
from yatzy.kernels.win.turns import seat_turn


class Seating(NamedTuple):
    """The table the ``win`` seat plays at: it is seat ``seat`` of
    ``len(seats) + 1``; ``seats[j]`` the seat of opponent ``j``, and
    ``boxes[j, i, k]``, ``points[j, i, k]`` the box it filled in its turn
    ``k`` of game ``i`` and the points written (bonuses are worked out
    here).  In game ``i`` seat ``(lead0 + i) % n_seats`` moves first."""

    seat: int
    lead0: int
    seats: np.ndarray
    boxes: np.ndarray
    points: np.ndarray


@njit(cache=True, nogil=True)
def play_win_games(wd, tol, seed, table, scores, t, n_threads):
    """Play games ``i = t, t + n_threads, ...`` below ``len(scores)`` into
    ``scores[i]`` (``wd`` a ``kernels.win.data.WinData``, ``table`` a
    ``Seating``); game ``i`` draws its dice from the stream ``(seed, i)``;
    ``tol``: the expected-score tie tolerance (``ties.tolerance``)."""
    d, pt, wt = wd
    seat, lead0, seats, boxes, points = table
    nb = len(d.is_upper)
    n_dice = pt.size[-1]
    n_opp = len(seats)
    n_seats = n_opp + 1
    s, inner = make_scratch(d)
    opening = new_scratch(d)                  # the first turn of a game the seat leads
    opened = False
    size = wt.reach
    odds = Odds(np.empty(size), np.empty(size), np.empty(size))
    states = np.zeros((n_opp, 4), dtype=np.int64)
    evs = new_expected(d)
    for i in range(t, len(scores), n_threads):
        st = seed_states(seed, i, 1)[0]
        lead = (lead0 + i) % n_seats
        mine = (seat - lead) % n_seats
        mask, u, score = 0, 0, 0
        for j in range(n_opp):                   # the others' cards before the seat's first turn
            done = 1 if (seats[j] - lead) % n_seats < mine else 0
            om, ou, os = 0, 0, 0
            if done == 1:
                om, ou, os = after(d, om, ou, os, boxes[j, i, 0], points[j, i, 0])
            states[j, 0], states[j, 1], states[j, 2] = om, ou, os
            states[j, 3] = 1 if done == nb else 0
        for turn in range(nb):
            if turn > 0:                          # each other seat has played one turn more
                for j in range(n_opp):
                    done = turn + (1 if (seats[j] - lead) % n_seats < mine else 0)
                    states[j, 0], states[j, 1], states[j, 2] = after(
                        d, states[j, 0], states[j, 1], states[j, 2],
                        boxes[j, i, done - 1], points[j, i, done - 1])
                    states[j, 3] = 1 if done == nb else 0
            for j in range(n_opp):               # next turn's rows asked for already
                done = turn + 1 + (1 if (seats[j] - lead) % n_seats < mine else 0)
                if done < nb:
                    nm, nu, ns = after(d, states[j, 0], states[j, 1], states[j, 2],
                                       boxes[j, i, done - 1], points[j, i, done - 1])
                    prefetch_futures(wt.futures, wt, nm, nu, ns, size)
            if turn == 0 and mine == 0:        # every card empty: the same chances each game
                cur = opening
                if not opened:
                    opponents_best(wt.futures, wt, states, n_opp, odds)
                    seat_turn(wd, mask, u, score, odds, cur, inner, nb == EXACT_OPEN)
                    opened = True
            else:
                cur = s
                opponents_best(wt.futures, wt, states, n_opp, odds)
                seat_turn(wd, mask, u, score, odds, cur, inner, nb - turn == EXACT_OPEN)
            evs.ready[:] = 0
            rerolls = d.rolls - 1
            r, st = roll_dice(d.adds, d.first_roll, d.faces, n_dice, st, 0)
            while True:
                code = seat_choose(wd, mask, u, r, rerolls, cur, tol, evs)
                if code < nb:
                    break
                m = pt.by_code[code - nb]
                r, st = roll_dice(d.adds, d.first_roll, d.faces, n_dice - pt.size[m], st, m)
                rerolls -= 1
            e = end_turn(d, mask, u, code, r, rerolls, 0)
            mask, u = e.mask, e.upper
            score += e.points + e.upper_bonus + e.yahtzee_bonus
        scores[i] = score
