"""The ``win`` seat of a match, compiled: whole games played to win against
the other seats' logged games (``solver.research.match``).

Before each of its turns the seat rebuilds the others' cards as they
stand (a seat that moves earlier in the round has played one turn more),
their best final score ``M`` from the futures table
(``win_turn.opponents_best``), and the turn's chances
(``win_turn.turn_chances``, exact with two boxes open); at each roll it
plays ``win_turn.choose``, the first action of ``solver.players.win.advise_win``.
Game ``i`` draws its dice from the splitmix64 stream of ``solver.research.simulate``
seeded by ``(seed, i)``, as the other players do.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.kernels import win as win_turn
from solver.research.games import play_tables
from solver.rules.ruleset import Rules
from solver.research.simulate import roll_dice, seed_states
from solver.kernels.threads import run_pieces
from solver.rules.ties import tolerance
from solver.kernels.turn import turn_data
from solver.kernels.win import EXACT_OPEN


@njit(cache=True, nogil=True)
def _play(d, pt, wt, tol, seed, lead0, seat, seats, boxes, points, scores, t, n_threads):
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


def play_win_seat(rules: Rules, table, target, futures, games: int, seed: int, first: int,
                  seat: int, others: list[tuple[int, np.ndarray, np.ndarray]]) -> np.ndarray:
    """The final scores of a ``win`` seat (seat ``seat``) in ``games`` games
    numbered from ``first`` (who moves first rotates with the number)
    against ``others``: ``(seat, boxes[i, k], points[i, k])`` of each other
    seat's logged games; ``table``, ``target``, ``futures``: the
    expected-score, target and futures tables."""
    wt = win_turn.win_tables(rules, target.values, futures.values, table.values)
    seats = np.array([o for o, _, _ in others], dtype=np.int64)
    boxes = np.ascontiguousarray(np.stack([b for _, b, _ in others]), dtype=np.int64)
    points = np.ascontiguousarray(np.stack([p for _, _, p in others]), dtype=np.int64)
    scores = np.zeros(games, dtype=np.int64)
    run_pieces(_play, turn_data(rules), play_tables(rules), wt, tolerance(table), seed, first, seat, seats,
               boxes, points, scores)
    return scores
