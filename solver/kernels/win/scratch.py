"""The work arrays of one thread (``Scratch``), made once and reused turn
after turn: per candidate ``c`` (``TurnData.cand_box``), per box ``b``, per
roll ``r`` and per multiset ``m`` (index orders in ``Scratch``'s docstring).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit


class Scratch(NamedTuple):
    """Work arrays of one thread (``make_scratch``): ``cwin[c], ctie[c]``
    per candidate and ``zwin[b], ztie[b]`` per box scored 0, with their
    ``key`` pairs ``ckey[c, 0 or 1]``, ``zkey[b, 0 or 1]``; ``swin[r, b],
    stie[r, b]`` per roll and box; ``work[m, 0 or 1]`` the win and tie of
    multiset ``m`` (last row zeros), ``wkey[m, 0 or 1]`` their keys;
    ``kwin[t - 1, m], ktie[t - 1, m]`` of keeping ``m`` with ``t`` rerolls
    left, ``kkey[t - 1, m, 0 or 1]`` their keys; ``open_[:n]`` the open boxes
    (``score_chances``); ``rw[b], rt[b], rkey[b, 0 or 1]`` one roll's chances
    box by box (``roll_boxes``); ``lanes``: room for the chances of every
    state after a turn side by side (``lane_views``), ``child[k] = (mask,
    u, score)`` those states; ``cr_roll[cr_start[c]:cr_start[c + 1]]`` the
    rolls candidate ``c`` scores (ascending), ``roll_boxes[r]`` the boxes
    of roll ``r``'s candidates (bits); ``best[r]``, ``bkey[r, 0 or 1]``
    each roll's best candidate so far and its keys (``best_scores``);
    ``lane[k]`` the lane of state after ``child[k]`` (-1: none, its chances
    are 0, ``exact_lanes``); ``box_cand[b]:box_cand[b + 1]`` the candidates
    of box ``b`` (they are sorted by box)."""

    cwin: np.ndarray
    ctie: np.ndarray
    ckey: np.ndarray
    zwin: np.ndarray
    ztie: np.ndarray
    zkey: np.ndarray
    swin: np.ndarray
    stie: np.ndarray
    work: np.ndarray
    wkey: np.ndarray
    kwin: np.ndarray
    ktie: np.ndarray
    kkey: np.ndarray
    open_: np.ndarray
    rw: np.ndarray
    rt: np.ndarray
    rkey: np.ndarray
    lanes: np.ndarray
    child: np.ndarray
    cr_start: np.ndarray
    cr_roll: np.ndarray
    roll_boxes: np.ndarray
    best: np.ndarray
    bkey: np.ndarray
    lane: np.ndarray
    box_cand: np.ndarray


@njit(cache=True)
def make_scratch(d):
    """Two ``Scratch`` (the turn's and the inner turns') for the rules of ``d``."""
    return new_scratch(d), new_scratch(d)


@njit(cache=True)
def new_scratch(d):
    """One ``Scratch`` for the rules of ``d``."""
    nc, nb, m = len(d.cand_box), len(d.is_upper), d.adds.shape[0]
    n_rolls, levels = len(d.roll_prob), max(d.rolls - 1, 1)
    starts, roll_cand = d.roll_cand_start, d.roll_cand
    cr_start = np.zeros(nc + 1, dtype=np.int64)
    roll_boxes = np.zeros(n_rolls, dtype=np.int64)
    for i in range(len(roll_cand)):
        cr_start[roll_cand[i] + 1] += 1
    for c in range(nc):
        cr_start[c + 1] += cr_start[c]
    cr_roll = np.empty(len(roll_cand), dtype=np.int64)
    box_cand = np.zeros(nb + 1, dtype=np.int64)
    for c in range(nc):
        box_cand[d.cand_box[c] + 1] += 1
    for b in range(nb):
        box_cand[b + 1] += box_cand[b]
    fill = cr_start[:nc].copy()
    for r in range(n_rolls):                   # rolls in order: each candidate's ascending
        for i in range(starts[r], starts[r + 1]):
            c = roll_cand[i]
            cr_roll[fill[c]] = r
            fill[c] += 1
            roll_boxes[r] |= 1 << d.cand_box[c]
    return Scratch(np.empty(nc), np.empty(nc), np.empty((nc, 2)),
                   np.empty(nb), np.empty(nb), np.empty((nb, 2)), np.empty((n_rolls, nb)),
                   np.empty((n_rolls, nb)), np.zeros((m + 1, 2)), np.zeros((m + 1, 2)),
                   np.zeros((levels, m)), np.zeros((levels, m)), np.zeros((levels, m, 2)),
                   np.empty(nb, dtype=np.int64), np.empty(nb), np.empty(nb), np.empty((nb, 2)),
                   np.empty(4 * (m + 1) * (nc + nb)),
                   np.empty((nc + nb, 3), dtype=np.int64), cr_start, cr_roll, roll_boxes,
                   np.empty(n_rolls, dtype=np.int64), np.empty((n_rolls, 2)),
                   np.empty(nc + nb, dtype=np.int64), box_cand)
