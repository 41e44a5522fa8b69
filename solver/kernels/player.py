"""The game-by-game player, compiled: whole games played one decision at
a time for every rule set (jokers, the yahtzee bonus, saved rolls).

``PlayTables`` (``play_tables(rules)``) is what it reads besides
``kernels.turn.TurnData``; ``play_games`` plays games ``first ..`` from
their dice streams, valuing every keep of each turn with
``kernels.turn.keep_values`` and choosing with ``kernels.turn.pick``, so its
choices are the advice's.  ``solver.research.games`` drives it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

from solver.kernels.dice_stream import roll_dice, seed_states
from solver.kernels.turn import NEG, fill_candidates, keep_values, pick, turn_data
from solver.rules.ruleset import Rules
from solver.rules.ties import keep_ranks


class PlayTables(NamedTuple):
    """The player's own tables (``play_tables(rules)``):

    * ``cand_of[r, b]``  the candidate (``TurnData``) of roll ``r`` in box
      ``b``, -1 for 0 points
    * ``korder[kstart[r]:kstart[r + 1]]``  the keeps of roll ``r`` (proper
      sub-multisets), most preferred first; ``kcode[m]`` the preference code
      of keep ``m`` (``solver.rules.ties``), ``by_code[kcode[m] - n_boxes] = m``
    * ``size[m]``  number of dice in multiset ``m``
    """

    cand_of: np.ndarray
    korder: np.ndarray
    kstart: np.ndarray
    kcode: np.ndarray
    by_code: np.ndarray
    size: np.ndarray


@njit(cache=True, nogil=True)
def play_games(d, pt, first, seed, start, layers, tol, score, upper_end, box_points,
          log_rolls, log_keeps, log_box, t, n_threads):
    """Play games ``first + i`` for ``i = t, t + n_threads, ...`` below
    ``len(score)``, from the turn-start state ``start = (turn, mask, u, bank,
    score)`` (``turn``: the boxes filled so far).

    ``layers[p][k, rows[mask], u]``: turn-start values of the states with
    ``p`` boxes filled and ``k`` rolls banked.  Outputs per game:
    ``score[i]`` (bonuses included), ``upper_end[i]`` (capped upper total),
    ``box_points[i, b]``; with logging (``log_rolls.shape[0] > 0``)
    ``log_rolls[i, turn, n]``, ``log_keeps[i, turn, n]`` (multiset indices,
    -1 unused) and ``log_box[i, turn]``.
    """
    nb = len(d.is_upper)
    n_dice = pt.size[-1]
    cap = d.cap
    logging = log_rolls.shape[0] > 0
    cand = np.empty((len(d.cand_box), 1))
    zero = np.empty(1)
    value = np.empty(nb)          # each box's value for the roll on the table
    for i in range(t, len(score), n_threads):
        st = seed_states(seed, first + i, 1)[0]
        first_turn, mask, u, bank, total = start
        for turn in range(first_turn, nb):
            nxt = layers[turn + 1]
            allowed = d.allowed[mask]
            roll_bonus = d.yahtzee_bonus if mask & d.flag_bit else 0.0
            rerolls = d.rolls - 1 + bank
            keep = cand[:1]               # keep[k - 1, m]: W_k(m), every level at once
            if rerolls:
                keep = keep_values(d, mask, u, rerolls, 0, nxt)
            r, st = roll_dice(d.adds, d.first_roll, d.faces, n_dice, st, 0)
            n = 0
            while True:
                if logging:
                    log_rolls[i, turn, n] = r
                # every box's value (points, bonuses, future) with the rerolls left banked
                later = nxt[min(rerolls, nxt.shape[0] - 1)]
                fill_candidates(d, mask, u, 1, later, cand, zero)
                f = d.yahtzee_face[r]
                jokers = d.joker_boxes[mask, f] if f >= 0 else 0
                stop = NEG
                code = nb
                for b in range(nb):
                    value[b] = NEG
                    if jokers != 0:
                        if (jokers >> b) & 1:
                            value[b] = cand[d.joker_cand[f, b], 0]
                    elif (allowed >> b) & 1:
                        c = pt.cand_of[r, b]
                        value[b] = cand[c, 0] if c >= 0 else later[d.rows[mask | (1 << b)], u]
                    if f >= 0 and roll_bonus != 0.0 and value[b] > NEG:    # a yahtzee bonus
                        value[b] = value[b] * d.ybonus_mul + d.ybonus_add
                    if value[b] > NEG:
                        code = pick(value[b], stop, b, code, tol)
                        stop = max(stop, value[b])
                box = code
                if rerolls:
                    best = NEG
                    kcode = nb
                    for j in range(pt.kstart[r], pt.kstart[r + 1]):
                        m = pt.korder[j]
                        kcode = pick(keep[rerolls - 1, m], best, pt.kcode[m], kcode, tol)
                        best = max(best, keep[rerolls - 1, m])
                    code = pick(best, stop, kcode, code, tol)     # scoring wins ties
                if code < nb:
                    break
                m = pt.by_code[code - nb]
                if logging:
                    log_keeps[i, turn, n] = m
                r, st = roll_dice(d.adds, d.first_roll, d.faces, n_dice - pt.size[m], st, m)
                rerolls -= 1
                n += 1
            c = d.joker_cand[f, box] if jokers != 0 else pt.cand_of[r, box]
            points = d.cand_score[c] if c >= 0 else 0
            mask |= d.cand_bits[c] if c >= 0 else 1 << box
            if d.is_upper[box] and cap > 0:
                if u < cap <= u + points:
                    total += np.int64(d.bonus)
                u = min(u + points, cap)
            if f >= 0 and roll_bonus != 0.0:
                total += np.int64(roll_bonus)
            total += points
            box_points[i, box] = points
            bank = min(rerolls, nxt.shape[0] - 1)
            if logging:
                log_box[i, turn] = box
        score[i] = total
        upper_end[i] = u


@lru_cache(maxsize=16)
def play_tables(rules: Rules) -> PlayTables:
    """The ``PlayTables`` of ``rules`` (cached per rule set)."""
    d = turn_data(rules)
    ds = rules.dice_space
    cand_of = np.full((ds.n_rolls, rules.n_boxes), -1, dtype=np.int64)
    for r in range(ds.n_rolls):
        for k in d.roll_cand[d.roll_cand_start[r]:d.roll_cand_start[r + 1]]:
            cand_of[r, d.cand_box[k]] = k
    rank = keep_ranks(rules)
    order = [sorted(set(ds.subsets[r].tolist()) - {ds.first_roll + r}, key=rank.__getitem__)
             for r in range(ds.n_rolls)]
    kstart = np.cumsum([0] + [len(o) for o in order]).astype(np.int64)
    korder = np.array([m for o in order for m in o], dtype=np.int64)
    return PlayTables(cand_of, korder, kstart, (rules.n_boxes + rank).astype(np.int64),
                      np.argsort(rank), ds.size)
