"""The one rule for ties: which action a player takes among equally good ones.

Two values in points (expected scores, certainty equivalents) are tied
when they differ by at most ``TIE`` (``tolerance``: more for a float32
table).  Two chances (of reaching a target, of winning) are tied only when
they agree to ``CHANCE_BITS`` significant bits (``RELATIVE``): an absolute
tolerance would tie a chance of 1e-10 with a chance of 0.  The preferred action in a position is the most
preferred of the actions whose value is within the tolerance of the best
value, in this order of preference:

1. scoring before keeping;
2. boxes in scorecard order;
3. keeps with more dice first, then higher dice first.

Every player follows it: the advice (``yatzy.players.advice``), the policies and
the exact distribution (``yatzy.players.policy``), the game-by-game player
(``yatzy.research.games``) and the simulations.  The compiled kernels carry it as a
*preference code* per action, lower = preferred: box ``b`` is ``b``, the
keep of rank ``i`` in ``keep_ranks`` is ``n_boxes + i``; ``turn.pick`` is
its compiled form.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Sequence

import numpy as np

if TYPE_CHECKING:
    from yatzy.rules.ruleset import Rules

TIE = 1e-9
CHANCE_BITS = 40
RELATIVE = 2.0 ** -CHANCE_BITS    # chances: tied within this part of the larger


def tolerance(values: object = None) -> float:
    """Values closer than this are ties: ``TIE``, plus twice the largest
    rounding error of a float32 table (each value read is off by at most
    that, and so is any average of them; ``values``: a table with a
    ``header``, ``yatzy.tables.values.StateValues``)."""
    header = getattr(values, "header", None) or {}
    return TIE + 2 * float(header.get("max_rounding_error", 0.0))


def keep_preference(dice: tuple[int, ...]) -> tuple:
    """Sort key of keeps, most preferred first: more dice, then higher dice."""
    return (-len(dice), tuple(-d for d in dice))


@lru_cache(maxsize=16)
def keep_ranks(rules: Rules) -> np.ndarray:
    """``rank[m]``: place of keep ``m`` (a multiset smaller than a roll) in
    ``keep_preference`` order, 0 = most preferred."""
    ds = rules.dice_space
    order = sorted(range(ds.first_roll), key=lambda m: keep_preference(ds.dice_of(m)))
    rank = np.empty(ds.first_roll, dtype=np.int64)
    rank[order] = np.arange(ds.first_roll)
    return rank


def preference(rules: Rules, box: int | None = None, keep: tuple[int, ...] | None = None) -> int:
    """The preference code of scoring in ``box`` or keeping ``keep``."""
    if box is not None:
        return box
    ds = rules.dice_space
    return rules.n_boxes + int(keep_ranks(rules)[ds.multiset_index(keep)])


def preferred(values: Sequence[float], codes: Sequence[int], tol: float = TIE) -> int:
    """Index of the preferred action: the lowest code among the values
    within ``tol`` of the best."""
    values = np.asarray(values, dtype=np.float64)
    near = np.flatnonzero(values >= values.max() - tol)
    return int(near[np.argmin(np.asarray(codes)[near])])


def ranking(values: Sequence[float], codes: Sequence[int], tol: float = TIE,
            rel: float = 0.0) -> list[int]:
    """Indices of the actions, best first: by value, each run of ties (within
    ``tol`` of the run's best, or within ``rel`` of its size) in order of
    preference; the first is ``preferred``.

    >>> ranking([0.0, 2.4e-10, 1.4e-10], [0, 1, 2])             # 1e-9: all tied
    [0, 1, 2]
    >>> ranking([0.0, 2.4e-10, 1.4e-10], [0, 1, 2], 0.0, RELATIVE)
    [1, 2, 0]
    """
    values = np.asarray(values, dtype=np.float64)
    by_value = sorted(range(len(values)), key=lambda i: -values[i])
    out: list[int] = []
    i = 0
    while i < len(by_value):
        j = i
        top = values[by_value[i]]
        near = max(tol, rel * abs(top))
        while j < len(by_value) and top - values[by_value[j]] <= near:
            j += 1
        out.extend(sorted(by_value[i:j], key=lambda k: (codes[k], k)))
        i = j
    return out
