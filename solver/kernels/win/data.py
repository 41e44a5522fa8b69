"""What the win kernels read and how their chances compare.

``WinTables`` holds the flat target and futures tables (indexed
``[off[mask] + (max(u, start[mask]) - start[mask]) * width[mask] + n]``),
their layout and the dense expected-score table ``values[mask, u]``;
``WinData`` bundles them with the rules' ``TurnData`` and ``PlayTables``.
Chances compare on ``key``: rounded to 40 significant bits, so equal chances computed
along different paths compare equal.  ``OFF`` marks a box that cannot be
filled; ``EXACT_OPEN`` open boxes make a turn valued exactly
(``yatzy.kernels.win.exact``).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from yatzy.kernels.target import layout
from yatzy.rules.ruleset import Rules
from yatzy.rules.ties import CHANCE_BITS


SCALE = float(2 ** CHANCE_BITS)    # chances compare equal when they agree to 40 bits


OFF = -2.0                # the chance of a box that cannot be filled


EXACT_OPEN = 2            # with this many boxes open the turns are valued exactly


class WinTables(NamedTuple):
    """What the win kernels read besides ``TurnData`` and ``PlayTables``:

    * ``target[off[mask] + (max(u, start[mask]) - start[mask]) * width[mask] + n]``
      ``P*(mask, u, n)`` for needs ``n = 0 .. width[mask] - 1`` (``yatzy.tables.target``)
    * ``futures[...the same place... + k]``  the chance that expected-score
      play gains ``k`` more points from ``(mask, u)`` (``yatzy.players.futures``)
    * ``off[mask]``, ``width[mask]``, ``start[mask]``  the layout (``target.Layout``)
    * ``values[mask, u]``  the expected-score table (for the tie rule)
    * ``reach``  ``len(less)``: the most points a game can score, plus 3
    """

    target: np.ndarray
    futures: np.ndarray
    off: np.ndarray
    width: np.ndarray
    start: np.ndarray
    values: np.ndarray
    reach: int


def win_tables(rules: Rules, target: np.ndarray, futures: np.ndarray,
               values: np.ndarray) -> WinTables:
    """The ``WinTables`` over the flat target and futures tables and the
    dense expected-score table of ``rules``."""
    lay = layout(rules)
    return WinTables(target, futures, lay.off, lay.width, lay.start, values,
                     rules.max_score + 3)


class WinData(NamedTuple):
    """What the win kernels read: the rules' ``turn`` (``kernels.turn.TurnData``),
    ``play`` (``kernels.player.PlayTables``) and ``tables`` (``WinTables``)."""

    turn: Any
    play: Any
    tables: WinTables


@njit(cache=True)
def key(x):
    """A chance to 40 significant bits (the comparisons' equality, relative:
    a chance of 1e-13 is not tied with 0; ``py_key`` outside compiled
    code)."""
    m, e = math.frexp(x)
    return math.ldexp(math.floor(m * SCALE + 0.5), e)


def py_key(x: float) -> float:
    """``key`` in Python (the same operations: the same result), without
    loading a compiled function.

    >>> py_key(0.0) < py_key(1e-13) < py_key(2e-13), py_key(0.5) == py_key(0.5 + 2**-45)
    (True, True)
    """
    m, e = math.frexp(x)
    return math.ldexp(math.floor(m * SCALE + 0.5), e)
