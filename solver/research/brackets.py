"""What the project can say of a rule set's value, each figure with its
method (``yatzy bounds``): the exact value where a table solves the game;
for games of several columns, a strategy's measured mean (an estimate, with
its interval) below and the proven upper bound of
``yatzy.research.triple_bound`` above; for two players against an
expected-score opponent, the ``win`` seat's measured rate below and the
clairvoyant bound above.

Every figure says what it is: ``lower_is`` and ``upper_is`` are
``"exact"``, ``"proven"`` (a bound with an argument, computed exactly) or
``"estimate"`` (a mean of played games, with ``lower_interval``, its 95 %
interval; an estimate is no bound).

    >>> clairvoyant(np.array([0.5, 0.5]), lambda t: [1.0, 0.5, 0.0][t])   # P(>= t)
    0.25
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from yatzy.research.triple_bound import Bound
from yatzy.rules.ruleset import Rules


@dataclass(frozen=True)
class Run:
    """A stored measurement: ``mean`` (95 % CI ``low .. high``) of ``games``
    games, the command that reproduces it and where it is recorded."""

    mean: float
    low: float
    high: float
    games: int
    command: str
    source: str


# measured runs of the strategy of several-column rule sets, by fingerprint
STRATEGY_RUNS = {
    "e06e4b40edc31e63": Run(1714.67, 1714.11, 1715.22, 200_000,
                            "yatzy simulate --rules triple --games 200000 --seed 1",
                            "docs/triple.md, docs/results.md"),
}
# the `win` seat against one expected-score opponent, seats rotating, by fingerprint
WIN_RUNS = {
    "451c46ac6d77f163": Run(0.51743, 0.51645, 0.51841, 1_000_000,
                            "yatzy match --players win,optimal --games 1000000 --seed 2026 "
                            "--workers 0 --json", "docs/win.md"),
}


@dataclass(frozen=True)
class Figures:
    """The bracket of one rule set (``as_dict``: the JSON of ``yatzy bounds``)."""

    rules: str
    lower_bound: float | None
    lower_method: str
    upper_bound: float | None
    upper_method: str
    exact: float | None
    seconds: float
    notes: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        out = {"rules": self.rules, "lower_bound": self.lower_bound,
               "lower_method": self.lower_method, "upper_bound": self.upper_bound,
               "upper_method": self.upper_method, "exact": self.exact, "seconds": self.seconds}
        return {**out, **self.notes}


def exact_figures(rules: Rules, value: float, seconds: float) -> Figures:
    """A rule set its table solves: both sides are the exact value."""
    method = "exact: the solved table's expected score under optimal play (yatzy ev)"
    return Figures(rules.spec, value, method, value, method, value, seconds,
                   {"lower_is": "exact", "upper_is": "exact"})


def columns_figures(rules: Rules, one_by_one: float, bound: Bound, seconds: float,
                    measured: Run | None = None) -> Figures:
    """Several columns: below, the strategy's measured mean where a run is
    stored or given (an estimate), else the exact value of playing the
    columns one by one (a policy's value, so a proven lower bound); above,
    the Lagrangian bound."""
    run = measured or STRATEGY_RUNS.get(rules.fingerprint)
    upper = (f"proven: Lagrangian relaxation of one write per turn, prices linear in the "
             f"turn (slope {bound.slope:+g}); each column's turn-indexed game solved "
             "exactly (docs/triple.md)")
    notes = {"upper_is": "proven", "proven_lower_bound": one_by_one,
             "proven_lower_method": "exact value of playing the columns one by one"}
    if run is None:
        return Figures(rules.spec, one_by_one, notes["proven_lower_method"], bound.value, upper,
                       None, seconds, {**notes, "lower_is": "proven"})
    lower = (f"estimate, not a bound: mean score of the strategy (yatzy simulate) over "
             f"{run.games:,} games, 95 % CI {run.low:.2f}..{run.high:.2f}; `{run.command}`")
    return Figures(rules.spec, run.mean, lower, bound.value, upper, None, seconds,
                   {**notes, "lower_is": "estimate", "lower_interval": [run.low, run.high],
                    "gap": bound.value - run.mean})


def clairvoyant(pmf: np.ndarray, chance: Callable[[int], float]) -> float:
    """``sum_s pmf[s] * chance(s + 1)``: the chance of beating an opponent
    whose final score has the distribution ``pmf`` for a player told that
    score before the game, playing for ``chance(t)`` = the largest
    probability of finishing at or above ``t``; no player without that
    knowledge wins more often."""
    return float(sum(p * chance(s + 1) for s, p in enumerate(pmf) if p > 0))


def win_figures(rules: Rules, pmf: np.ndarray, chance: Callable[[int], float], seconds: float,
                measured: Run | None = None) -> Figures:
    """Two players, one playing for the expected score (final scores
    ``pmf``): the chance that the other wins, ties not counted as wins,
    bounded by ``clairvoyant``; ``notes`` also bound the chance with a tie
    counting half (at most the mean of the bounds with ties lost and ties
    won: the best play for the sum scores no more than the best for each
    part) and with ties won."""
    run = measured or WIN_RUNS.get(rules.fingerprint)
    upper = clairvoyant(pmf, chance)
    won = clairvoyant(pmf, lambda t: chance(t - 1))
    upper_method = ("proven: clairvoyant bound, sum over the opponent's final score s of "
                    "P(s) x the largest chance of scoring above s (exact distribution of "
                    "expected-score play and the target table); holds for either seat")
    notes = {"upper_is": "proven", "versus": "optimal", "ties": "lost",
             "upper_bound_ties_half": (upper + won) / 2, "upper_bound_ties_won": won}
    if run is None:
        return Figures(rules.spec, None, "no measured run for these rules", upper, upper_method,
                       None, seconds, notes)
    lower = (f"estimate, not a bound: the win seat's rate of wins over {run.games:,} games "
             f"against one expected-score opponent, seats rotating, 95 % CI "
             f"{100 * run.low:.3f}..{100 * run.high:.3f} %; `{run.command}`")
    return Figures(rules.spec, run.mean, lower, upper, upper_method, None, seconds,
                   {**notes, "lower_is": "estimate", "lower_interval": [run.low, run.high]})
