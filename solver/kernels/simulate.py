"""The layer-at-a-time simulation's kernel: every game in one layer plays
one turn with the policy's decided actions (``play_turn``).

``solver.research.simulate`` decides the actions of the masks the games
are in (``players.policy.decide``) and runs it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from solver.kernels.dice_stream import roll_dice
from solver.kernels.scoring import upper_after


class Layer(NamedTuple):
    """The games of one layer as ``play_turn`` plays them (game ``i``, in
    the order of their action rows):

    * ``rows[j, k, r]``  the action byte of row ``j`` with ``k`` rerolls
      left after roll ``r`` (``kernels.policy.ActionRows``)
    * ``row[i]``         game ``i``'s row
    * ``mask[i], upper[i], score[i], state[i]``  its filled boxes (and flag
      bit), capped upper total, points (bonuses included) and dice stream,
      updated in place
    * ``gid[i]``         its index in the batch (its row of the log)
    """

    rows: np.ndarray
    row: np.ndarray
    mask: np.ndarray
    upper: np.ndarray
    score: np.ndarray
    state: np.ndarray
    gid: np.ndarray


class Filled(NamedTuple):
    """What ``play_turn`` writes per game ``i``: ``box[i]`` the box filled,
    ``points[i]`` its points (a joker scores joker points; a yahtzee bonus
    goes to ``Layer.score`` only)."""

    box: np.ndarray
    points: np.ndarray


@njit(cache=True, nogil=True)
def play_turn(g, size, games, out, log, turn, t, n_threads):
    """Play turn ``turn`` of one block of games (block ``t`` of
    ``n_threads``): ``games`` a ``Layer`` (updated in place), ``out`` a
    ``Filled``, ``size[m]`` the dice in multiset ``m``.  With logging
    (``log.rolls.shape[0] > 0``, a ``kernels.runs.TurnLog``),
    ``log.rolls[gid[i], turn, n]`` and ``log.keeps[gid[i], turn, n]`` get
    the roll index and the kept multiset (-1 after the turn ended),
    ``log.box[gid[i], turn]`` the box.
    """
    rows, game_row, mask, upper, score, state, gid = games
    box_of, points_of = out
    log_rolls, log_keeps, log_box = log.rolls, log.keeps, log.box
    n_dice = size[-1]
    tu = g.turn                # the turn data, taken out of g once (not in the loops)
    nb = len(tu.is_upper)
    adds = tu.adds
    by_rank = g.by_rank
    logging = log_rolls.shape[0] > 0
    for i in range(t * len(mask) // n_threads, (t + 1) * len(mask) // n_threads):
        row = rows[game_row[i]]
        st = state[i]
        r, st = roll_dice(adds, tu.first_roll, tu.faces, n_dice, st, 0)
        box = 0
        for n in range(tu.rolls):
            d = row[tu.rolls - 1 - n, r]
            if logging:
                log_rolls[gid[i], turn, n] = r
            if d < nb:
                box = np.int64(d)
                break
            keep = by_rank[d - nb]
            if logging:
                log_keeps[gid[i], turn, n] = keep
            r, st = roll_dice(adds, tu.first_roll, tu.faces, n_dice - size[keep], st, keep)
        state[i] = st
        m = mask[i]
        f = g.yface[r]
        c = g.cidx[r, box]                  # the outcome: box, points, yahtzee bonus
        if f >= 0:
            c = g.yidx[f, box, 1 if tu.joker_boxes[m, f] != 0 else 0, 1 if m & tu.flag_bit else 0]
        p = g.out_pts[c]
        box_of[i] = box
        points_of[i] = p
        mask[i] = m | (1 << box) | (tu.flag_bit if g.out_flag[c] else 0)
        if logging:
            log_box[gid[i], turn] = box
        u, bonus = upper_after(tu, box, upper[i], p)
        upper[i] = u
        score[i] += p + bonus + g.out_extra[c]
