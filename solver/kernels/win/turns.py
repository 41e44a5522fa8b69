"""One whole turn played to win: every chance of the turn for advice
(``turn_chances``, ``position_chances``) and what the seat reads of it
(``seat_turn``); the chances land in a ``Scratch``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from yatzy.kernels.win.ends import fill_chances
from yatzy.kernels.win.exact import fill_exact
from yatzy.kernels.win.keeps import keep_chances, seat_keeps
from yatzy.kernels.win.odds import Odds, opponents_best
from yatzy.kernels.win.rolls import best_scores, score_chances
from yatzy.kernels.win.scratch import make_scratch


@njit(cache=True)
def turn_chances(wd, mask, u, score, odds, s, inner, exact):
    """Every chance of the turn at ``(mask, u)`` with ``score`` points into
    ``s`` (``swin``, ``stie``, ``kwin``, ``ktie``); ``exact``: value the
    states after by their own turn (two boxes open); returns ``(win,
    tie)`` at the turn start (``wd`` a ``WinData``, ``odds`` the ``Odds``)."""
    if exact:
        fill_exact(wd, mask, u, score, odds, s, inner)
    else:
        fill_chances(wd, mask, u, score, odds, s)
    score_chances(wd.turn, wd.play, mask, s, True)
    return keep_chances(wd.turn, s)


@njit(cache=True)
def seat_turn(wd, mask, u, score, odds, s, inner, exact):
    """``turn_chances`` for ``seat_choose``: each roll's chances box by box
    are not written out (``seat_choose`` looks up those of the rolls it
    meets), nor the keeps' chances, only their keys (``s.kkey``,
    ``seat_keeps``); the scoring chances are the same."""
    if exact:
        fill_exact(wd, mask, u, score, odds, s, inner)
    else:
        fill_chances(wd, mask, u, score, odds, s)
    best_scores(wd.turn, mask, s)
    seat_keeps(wd.turn, s)


@njit(cache=True)
def position_chances(wd, states, mask, u, score, exact):
    """What advice needs at one position, in one compiled call (each
    compiled function first called from Python is loaded on its own):
    ``(less, eq)`` of the opponents ``states`` (``opponents_best``), the
    turn's chances (a ``Scratch``, ``turn_chances``) and ``(win, tie)`` at
    its start."""
    size = wd.tables.reach
    odds = Odds(np.empty(size), np.empty(size), np.empty(size))
    opponents_best(wd.tables.futures, wd.tables, states, len(states), odds)
    s, inner = make_scratch(wd.turn)
    start = turn_chances(wd, mask, u, score, odds, s, inner, exact)
    return odds.less, odds.eq, s, start
