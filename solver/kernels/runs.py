"""What the compiled players are asked to play, and where they write what
happened: ``Games`` (which games, from where, with which tie tolerance) and
``TurnLog`` (every roll, keep and box of logged games), shared by the
game-by-game player (``kernels.player``), the layer-at-a-time simulation
(``kernels.simulate``) and the Trippel-Yatzy player (``kernels.triple``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np


class Games(NamedTuple):
    """The games a player plays: game ``first + i`` draws its dice from the
    stream ``(seed, first + i)`` (``kernels.dice_stream``); ``tol``: values
    closer than this are ties (``yatzy.rules.ties.tolerance``; 0 under a
    risk parameter); ``start``: the turn-start position every game starts
    from (its form is the player's: ``kernels.player.play_games``,
    ``kernels.triple.play_games``)."""

    first: int
    seed: int
    tol: float
    start: Any


class TurnLog(NamedTuple):
    """Every turn of some games, multiset indices (-1 unused); empty arrays
    (first axis 0): not logged.

    * ``rolls[i, turn, n]``  roll ``n`` of the turn (a roll index, ``0 ..
      n_rolls - 1``, or the multiset index where the player says so)
    * ``keeps[i, turn, n]``  the multiset kept from that roll
    * ``box[i, turn]``       the box filled
    * ``column[i, turn]``    its column (0-based; several columns only)
    """

    rolls: np.ndarray
    keeps: np.ndarray
    box: np.ndarray
    column: np.ndarray


def turn_log(games: int, turns: int, steps: int, dtype=np.int64, logging: bool = True,
             columns: bool = False) -> TurnLog:
    """A ``TurnLog`` of ``games`` games of ``turns`` turns and at most
    ``steps`` rolls a turn, filled with -1 (``logging=False``: the empty
    one; ``columns``: with the column of each turn, else that one empty)."""
    shape = (games, turns, steps) if logging else (0, 1, 1)
    return TurnLog(np.full(shape, -1, dtype=dtype), np.full(shape, -1, dtype=dtype),
                   np.full(shape[:2], -1, dtype=dtype),
                   np.full(shape[:2] if columns else (0, 0), -1, dtype=dtype))
