"""Summary statistics of score distributions: one copy for exact
distributions (a pmf) and for played games (a histogram of counts); and
the named results of a comparison: ``Versus`` (win, tie, loss) and
``Paired`` (the mean per-game difference of two runs over the same games,
with its interval and the interval the same runs would give unpaired).

``weights[s]`` is the probability, or the number of games, of final score
``s``.

    >>> result = paired([250, 230, 270, 240], [240, 228, 255, 241])
    >>> print(result)
    +6.50 ± 7.18 points a game (95 %, 4 paired games; unpaired ± 19.93)
    >>> at_least([0.5, 0.5], 0.5)
    Traceback (most recent call last):
    ...
    yatzy.bounds.WrongType: score must be a whole number, not 0.5
"""

from __future__ import annotations

import math
import numbers
from typing import NamedTuple, Sequence

import numpy as np

from yatzy.bounds import WrongType, check_whole
from yatzy.errors import InputError

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)
Z95 = 1.959963984540054          # the standard normal's 97.5th percentile


def mean(weights: np.ndarray) -> float:
    """Mean score."""
    w = np.asarray(weights, dtype=np.float64)
    return float(np.dot(np.arange(len(w)), w) / w.sum())


def sd(weights: np.ndarray, sample: bool = False) -> float:
    """Standard deviation of the scores; ``sample``: of a sample of
    ``sum(weights)`` games (divides by n - 1)."""
    w = np.asarray(weights, dtype=np.float64)
    n = w.sum()
    s = np.arange(len(w))
    var = float(np.dot((s - mean(w)) ** 2, w)) / (max(n - 1, 1) if sample else n)
    return math.sqrt(max(var, 0.0))


def percentile(weights: np.ndarray, q: float) -> int:
    """The smallest score whose cumulative weight reaches ``q`` percent
    (``0 <= q <= 100``)."""
    if isinstance(q, bool) or not isinstance(q, numbers.Real):
        raise WrongType(f"percentile must be a number, not {type(q).__name__}")
    if not 0 <= q <= 100:
        raise InputError(f"percentile must be between 0 and 100, not {q}")
    cdf = np.cumsum(np.asarray(weights, dtype=np.float64))
    return int(min(np.searchsorted(cdf, q / 100.0 * cdf[-1] - 1e-12), len(cdf) - 1))


def at_least(weights: np.ndarray, t: int) -> float:
    """The share of the weight on scores ``>= t`` (a whole number)."""
    t = check_whole(t, "score", None)
    w = np.asarray(weights, dtype=np.float64)
    return float(w[max(t, 0):].sum() / w.sum()) if t < len(w) else 0.0


def mean_ci95(mean: float, sd: float, n: int) -> tuple[float, float]:
    """95% confidence interval of the mean of ``n`` draws with sample
    standard deviation ``sd`` (normal approximation)."""
    h = Z95 * sd / math.sqrt(n)
    return mean - h, mean + h


class Versus(NamedTuple):
    """The chances that one game scores more than (``win``), as much as
    (``tie``) or less than (``loss``) an independent other."""

    win: float
    tie: float
    loss: float


class Paired(NamedTuple):
    """The mean difference of two runs over the same ``games`` (game ``i``
    of one less game ``i`` of the other), its 95 % interval ``low ..
    high`` (normal approximation, from the spread of the differences), and
    ``unpaired``: the half width the interval would have from the two runs'
    own spreads, as if their games were independent.  Pairing buys the
    difference of the two: much where the games' scores go together, none
    where they do not."""

    mean: float
    low: float
    high: float
    games: int
    unpaired: float

    @property
    def half(self) -> float:
        """The half width of the paired interval."""
        return (self.high - self.low) / 2

    def __str__(self) -> str:
        return (f"{self.mean:+.2f} ± {self.half:.2f} points a game (95 %, {self.games:,} "
                f"paired games; unpaired ± {self.unpaired:.2f})")


def paired_sums(games: int, sums: tuple[int, int], squares: tuple[int, int],
                cross: int) -> Paired:
    """``Paired`` from the sums of two runs' scores, of their squares and
    of their products, game by game (exact integers, so runs in pieces add
    up to the same figures)."""
    n = check_whole(games, "games", 2)
    mean = (sums[0] - sums[1]) / n
    var_d = ((squares[0] + squares[1] - 2 * cross) - n * mean * mean) / (n - 1)
    var = [(q - s * s / n) / (n - 1) for s, q in zip(sums, squares)]
    half = Z95 * math.sqrt(max(var_d, 0.0) / n)
    return Paired(mean, mean - half, mean + half, n,
                  Z95 * math.sqrt(max(var[0] + var[1], 0.0) / n))


def paired(a: Sequence[int] | np.ndarray, b: Sequence[int] | np.ndarray) -> Paired:
    """``Paired`` of the per-game scores ``a`` and ``b`` of the same games
    (e.g. ``Solver.simulate(games, seed, policy=..., scores=True).scores``
    of two policies with the same seed: each game's dice come from the same
    stream)."""
    x, y = (np.asarray(v) for v in (a, b))
    if x.ndim != 1 or x.shape != y.shape:
        raise InputError(f"paired scores: expected two lists of the same length, not "
                         f"{x.shape} and {y.shape}")
    if not (np.issubdtype(x.dtype, np.integer) and np.issubdtype(y.dtype, np.integer)):
        raise WrongType("paired scores must be whole numbers")
    x, y = (v.astype(object) for v in (x, y))      # exact sums of squares
    return paired_sums(len(x), (int(x.sum()), int(y.sum())),
                       (int((x * x).sum()), int((y * y).sum())), int((x * y).sum()))
