"""What writing a turn's dice in a box does, compiled: the twin of
``yatzy.position.scoring`` that every kernel uses (``tests/position/test_scoring.py``
checks the two against each other).

* ``upper_after``: the upper bonus rule, ``(upper total after, bonus
  earned)`` of writing points in a box;
* ``bonus_lanes``: the same rule over a run of upper totals at once, as the
  vectorised loops of the solve need it;
* ``end_turn``: a whole turn's end from the roll (joker, yahtzee bonus, the
  next mask and the bank), as a ``TurnEnd``.

The rule set is read from ``kernels.turn.TurnData``.  The three are
inlined into their callers (Numba's ``inline="always"``): a call would pass
the whole ``TurnData`` in the innermost loops of the distribution.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from yatzy.kernels import cache as kernel_cache  # noqa: F401  (Numba's cache made safe)


class TurnEnd(NamedTuple):
    """What scoring a turn does (``end_turn``; ``yatzy.position.scoring.Scored``):

    * ``points``         written in the box (a joker's points as a joker)
    * ``upper_bonus``    the upper bonus this turn earns (0 if none)
    * ``yahtzee_bonus``  the bonus of a further yahtzee (0 if none)
    * ``mask``           the mask after the turn (the flag bit too)
    * ``upper``          the capped upper total after the turn
    * ``bank``           the rolls banked after the turn
    """

    points: np.int64
    upper_bonus: np.int64
    yahtzee_bonus: np.int64
    mask: np.int64
    upper: np.int64
    bank: np.int64


@njit(cache=True, inline="always")
def upper_after(d, box, u, points):
    """``(u', bonus)``: the capped upper total after writing ``points`` in
    ``box`` at upper total ``u``, and the upper bonus that earns (the
    threshold reached now: ``u < cap <= u + points``)."""
    if d.is_upper[box] and d.cap > 0:
        bonus = np.int64(d.bonus) if u < d.cap <= u + points else np.int64(0)
        return np.int64(min(u + points, d.cap)), bonus
    return np.int64(u), np.int64(0)


@njit(cache=True, inline="always")
def bonus_lanes(d, box, points, u0, L):
    """``upper_after`` for the upper totals ``u = u0 + j``, ``j < L``, as
    two lane counts ``(below, reach)``: lanes ``j < below`` stay under the
    threshold (``u' = u + points``, no bonus), lanes ``below <= j < reach``
    reach it now (``u' = cap``, the bonus), and from ``reach`` on the total
    stays as it is (``u' = u``, no bonus: the bonus held before, or
    ``box`` is no upper box, or the rules have no bonus: ``(0, 0)``).
    Upper totals are at most ``cap`` (``u0 + L - 1 <= cap``)."""
    if not d.is_upper[box] or d.cap <= 0:
        return 0, 0
    below = max(min(L, d.cap - points - u0), 0)
    return below, max(min(L, d.cap - u0), below)


@njit(cache=True, inline="always")
def end_turn(d, mask, u, box, r, rerolls_left, bank_room):
    """The ``TurnEnd`` of writing roll ``r`` in ``box`` at ``(mask, u)``
    with ``rerolls_left`` rerolls unused, of which the next state's bank
    holds at most ``bank_room``: a roll of all dice alike goes in as a
    joker where the rules make it one (``joker_boxes``), and with the flag
    bit set earns the yahtzee bonus."""
    f = d.yahtzee_face[r]
    jokers = d.joker_boxes[mask, f] if f >= 0 else 0
    c = d.joker_cand[f, box] if jokers != 0 else d.cand_of[r, box]
    points = d.cand_score[c] if c >= 0 else np.int64(0)
    after = mask | (d.cand_bits[c] if c >= 0 else np.int64(1) << box)
    upper, bonus = upper_after(d, box, u, points)
    extra = np.int64(d.yahtzee_bonus) if f >= 0 and mask & d.flag_bit != 0 else np.int64(0)
    return TurnEnd(np.int64(points), bonus, extra, np.int64(after), upper,
                   np.int64(min(rerolls_left, bank_room)))
