"""The game-by-game player, compiled: whole games played one decision at
a time for every rule set (jokers, the yahtzee bonus, saved rolls).

``PlayTables`` (``play_tables(rules)``) is what it reads besides
``kernels.turn.TurnData``; ``play_games`` plays games ``first ..`` from
their dice streams, valuing every keep of each turn with
``kernels.turn.state_keep_levels`` and choosing with ``kernels.turn.pick``, so its
choices are the advice's.  ``yatzy.research.games`` drives it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

from yatzy.kernels.dice_stream import roll_dice, seed_states
from yatzy.kernels.scoring import end_turn
from yatzy.kernels.turn import NEG, fill_candidates, pick, state_keep_levels, turn_data
from yatzy.rules.ruleset import Rules
from yatzy.rules.ties import keep_ranks


class PlayTables(NamedTuple):
    """The player's own tables (``play_tables(rules)``):

    * ``cand_of[r, b]``  the candidate (``TurnData.cand_of``) of roll ``r``
      in box ``b``, -1 for 0 points
    * ``korder[kstart[r]:kstart[r + 1]]``  the keeps of roll ``r`` (proper
      sub-multisets), most preferred first; ``kcode[m]`` the preference code
      of keep ``m`` (``yatzy.rules.ties``), ``by_code[kcode[m] - n_boxes] = m``
    * ``size[m]``  number of dice in multiset ``m``
    """

    cand_of: np.ndarray
    korder: np.ndarray
    kstart: np.ndarray
    kcode: np.ndarray
    by_code: np.ndarray
    size: np.ndarray


class GameTotals(NamedTuple):
    """What ``play_games`` writes per game ``i``: ``score[i]`` (bonuses
    included), ``upper_end[i]`` (the capped upper total at the end),
    ``box_points[i, b]`` (the points in box ``b``)."""

    score: np.ndarray
    upper_end: np.ndarray
    box_points: np.ndarray


@njit(cache=True, nogil=True)
def play_games(d, pt, run, layers, out, log, t, n_threads):
    """Play games ``run.first + i`` for ``i = t, t + n_threads, ...`` below
    ``len(out.score)`` (``run``: a ``kernels.runs.Games``), from the
    turn-start state ``run.start = (turn, mask, u, bank, score)``
    (``turn``: the boxes filled so far) into ``out`` (``GameTotals``).

    ``layers[p][k, rows[mask], u]``: turn-start values of the states with
    ``p`` boxes filled and ``k`` rolls banked.  With logging
    (``log.rolls.shape[0] > 0``, a ``kernels.runs.TurnLog``) each turn's
    rolls and keeps (multiset indices, -1 unused) and box.
    """
    first, seed, tol, start = run.first, run.seed, run.tol, run.start
    score, upper_end, box_points = out.score, out.upper_end, out.box_points
    log_rolls, log_keeps, log_box = log.rolls, log.keeps, log.box
    nb = len(d.is_upper)
    n_dice = pt.size[-1]
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
                keep = state_keep_levels(d, mask, u, rerolls, 0, nxt)
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
            e = end_turn(d, mask, u, box, r, rerolls, nxt.shape[0] - 1)
            total += e.points + e.upper_bonus + e.yahtzee_bonus
            box_points[i, box] = e.points
            mask, u, bank = e.mask, e.upper, e.bank
            if logging:
                log_box[i, turn] = box
        score[i] = total
        upper_end[i] = u


@lru_cache(maxsize=16)
def play_tables(rules: Rules) -> PlayTables:
    """The ``PlayTables`` of ``rules`` (cached per rule set)."""
    d = turn_data(rules)
    ds = rules.dice_space
    rank = keep_ranks(rules)
    order = [sorted(set(ds.subsets[r].tolist()) - {ds.first_roll + r}, key=rank.__getitem__)
             for r in range(ds.n_rolls)]
    kstart = np.cumsum([0] + [len(o) for o in order]).astype(np.int64)
    korder = np.array([m for o in order for m in o], dtype=np.int64)
    return PlayTables(d.cand_of, korder, kstart, (rules.n_boxes + rank).astype(np.int64),
                      np.argsort(rank), ds.size)
