"""The layer-at-a-time simulation's kernel: every game in one layer plays
one turn with the policy's decided actions (``play_turn``).

``solver.research.simulate`` decides the actions of the masks the games
are in (``players.policy.decide``) and runs it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.kernels.dice_stream import roll_dice


@njit(cache=True, nogil=True)
def play_turn(g, size, n_dice, rows, game_row, mask, upper, score, state, turn,
               box_of, points_of, gid, log_rolls, log_keeps, log_box, t, n_threads):
    """Play one turn of one block of games (block ``t`` of
    ``n_threads``).

    ``mask[i], upper[i], score[i], state[i]``  game ``i``'s filled boxes
    (and flag bit), capped upper total, points (bonuses included) and dice
    stream, updated in place; ``game_row[i]``: its row of ``rows[j, k, r]``
    (action bytes); ``box_of[i], points_of[i]``: the box filled and its
    points (output; a joker scores joker points, a yahtzee bonus goes to
    ``score`` only).  With logging (``log_rolls.shape[0] > 0``),
    ``log_rolls[gid[i], turn, n]`` and ``log_keeps[gid[i], turn, n]`` get
    the roll index and the kept multiset (-1 after the turn ended),
    ``log_box[gid[i], turn]`` the box.
    """
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
        if tu.is_upper[box] and tu.cap > 0:
            u = upper[i]
            if u < tu.cap <= u + p:
                score[i] += np.int64(tu.bonus)
            upper[i] = min(u + p, tu.cap)
        score[i] += p + g.out_extra[c]
