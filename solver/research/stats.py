"""Summary statistics of score distributions: one copy for exact
distributions (a pmf) and for played games (a histogram of counts).

``weights[s]`` is the probability, or the number of games, of final score
``s``.
"""

from __future__ import annotations

import math

import numpy as np

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
    """The smallest score whose cumulative weight reaches ``q`` percent."""
    cdf = np.cumsum(np.asarray(weights, dtype=np.float64))
    return int(min(np.searchsorted(cdf, q / 100.0 * cdf[-1] - 1e-12), len(cdf) - 1))


def at_least(weights: np.ndarray, t: int) -> float:
    """The share of the weight on scores ``>= t``."""
    w = np.asarray(weights, dtype=np.float64)
    return float(w[max(t, 0):].sum() / w.sum()) if t < len(w) else 0.0


def mean_ci95(mean: float, sd: float, n: int) -> tuple[float, float]:
    """95% confidence interval of the mean of ``n`` draws with sample
    standard deviation ``sd`` (normal approximation)."""
    h = Z95 * sd / math.sqrt(n)
    return mean - h, mean + h
