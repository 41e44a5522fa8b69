"""What the project can say of a rule set's value, each figure with its
method (``yatzy bounds``): the exact value where a table solves the game;
for games of several columns, the value of a policy below (proven), the
proven upper bound of ``yatzy.research.triple_bound`` above and, between,
the strategy's measured mean (an estimate, with its interval); for two
players against an expected-score opponent, the exact chance of playing
for the expected score too below, the clairvoyant bound above and the
``win`` seat's measured rate between.

Every figure says what it is: ``lower_is`` and ``upper_is`` are
``"exact"`` or ``"proven"`` (a bound with an argument, computed exactly);
a measured mean is never a bound: it is the ``estimate``, with its 95 %
interval in ``estimate_interval``.  A bound is rounded outward at the
digits it is shown with (``outward``: an upper bound up, a lower bound
down), so a printed bound still holds; the JSON carries the unrounded
float beside it (``upper_bound_unrounded``).

    >>> clairvoyant(np.array([0.5, 0.5]), lambda t: [1.0, 0.5, 0.0][t])   # P(>= t)
    0.25
    >>> outward(2028.00594743339, 4, "upper"), outward(0.548718018, 6, "lower")
    ('2028.0060', '0.548718')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Callable

import numpy as np

from yatzy.errors import InputError
from yatzy.research.triple_bound import Bound, converged_within
from yatzy.rules.ruleset import Rules

SCORE_DIGITS = 4         # decimals a bound on a score is shown and stored with
CHANCE_DIGITS = 6        # decimals of a bound on a chance (4 of its percentage)


def outward(value: float, digits: int, side: str) -> str:
    """``value`` with ``digits`` decimals, rounded away from what it bounds:
    up for an ``"upper"`` bound, down for a ``"lower"`` one (from the
    float's exact binary value, so the text never crosses it)."""
    if side not in ("upper", "lower"):
        raise InputError(f"side {side!r}: expected upper or lower")
    rounding = ROUND_CEILING if side == "upper" else ROUND_FLOOR
    return str(Decimal(value).quantize(Decimal(1).scaleb(-digits), rounding=rounding))


def rounded(value: float | None, digits: int, side: str) -> float | None:
    """``outward`` as a float (None stays None): the nearest float to the
    rounded decimal, still on the safe side of ``value``."""
    return None if value is None else float(outward(value, digits, side))


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
class Side:
    """One side of a bracket: a bound (``kind`` ``"exact"`` or
    ``"proven"``) and how it was obtained."""

    value: float
    kind: str
    method: str


@dataclass(frozen=True)
class Figures:
    """The bracket of one rule set (``as_dict``: the JSON of ``yatzy
    bounds``): ``lower`` and ``upper`` bounds, the ``estimate`` between
    them where one was measured (a ``Run``: never a bound), the exact value
    where there is one; ``digits``: the decimals the bounds are rounded
    outward to; ``seconds``: the whole command's time (set by it)."""

    rules: str
    lower: Side | None
    upper: Side
    exact: float | None
    digits: int
    estimate: Run | None = None
    estimate_method: str = ""
    seconds: float = 0.0
    notes: dict = field(default_factory=dict)

    @property
    def upper_bound(self) -> float:
        """The upper bound, rounded up at ``digits``."""
        return rounded(self.upper.value, self.digits, "upper")

    @property
    def lower_bound(self) -> float | None:
        """The lower bound, rounded down at ``digits`` (None: no bound)."""
        return rounded(self.lower.value if self.lower else None, self.digits, "lower")

    def as_dict(self) -> dict:
        low = self.lower
        out = {"rules": self.rules, "exact": self.exact,
               "upper_bound": self.upper_bound, "upper_bound_unrounded": self.upper.value,
               "upper_is": self.upper.kind, "upper_method": self.upper.method,
               "lower_bound": self.lower_bound,
               "lower_bound_unrounded": low.value if low else None,
               "lower_is": low.kind if low else None,
               "lower_method": low.method if low else "no bound computed",
               "estimate": None, "estimate_interval": None, "estimate_games": None,
               "estimate_method": None, "digits": self.digits}
        if self.estimate is not None:
            run = self.estimate
            out.update(estimate=run.mean, estimate_interval=[run.low, run.high],
                       estimate_games=run.games, estimate_method=self.estimate_method)
        return {**out, **self.notes, "seconds": self.seconds}


def exact_figures(rules: Rules, value: float) -> Figures:
    """A rule set its table solves: both sides are the exact value (each
    rounded outward at ``SCORE_DIGITS``)."""
    method = "exact: the solved table's expected score under optimal play (yatzy ev)"
    side = Side(value, "exact", method)
    return Figures(rules.spec, side, side, value, SCORE_DIGITS)


def columns_figures(rules: Rules, one_by_one: float, bound: Bound,
                    measured: Run | None = None) -> Figures:
    """Several columns: below, the exact value of playing the columns one
    by one (a policy's value, so a proven lower bound); above, the
    Lagrangian bound, with how its search went (``search``); between, the
    strategy's measured mean where a run is stored or given (an estimate)."""
    run = measured or STRATEGY_RUNS.get(rules.fingerprint)
    upper = Side(bound.value, "proven",
                 f"Lagrangian relaxation of one write per turn, prices linear in the turn "
                 f"(slope {bound.slope:+g}); each column's turn-indexed game solved exactly "
                 "(docs/triple.md)")
    lower = Side(one_by_one, "proven", "exact value of playing the columns one by one")
    notes = {"search": search_notes(rules, bound)}
    if run is None:
        return Figures(rules.spec, lower, upper, None, SCORE_DIGITS, notes=notes)
    method = (f"mean score of the strategy (yatzy simulate) over {run.games:,} games, "
              f"95 % interval; `{run.command}`")
    notes["gap"] = rounded(bound.value - run.mean, 2, "upper")
    return Figures(rules.spec, lower, upper, None, SCORE_DIGITS, run, method, notes=notes)


def search_notes(rules: Rules, bound: Bound) -> dict:
    """How far the search for the bound went: the slopes tried (each a full
    bound), the column solves, and ``below_at_most``: how much lower the
    least bound over linear prices can be than the one found
    (``triple_bound.converged_within``, from the convexity of the
    solves), rounded up."""
    below = converged_within(rules, bound)
    return {"slopes_tried": len(bound.tried), "tried": [list(t) for t in bound.tried],
            "column_solves": len(bound.units),
            "below_at_most": None if below == float("inf") else rounded(below, SCORE_DIGITS,
                                                                       "upper"),
            "converged": below <= 10 ** -SCORE_DIGITS}


def clairvoyant(pmf: np.ndarray, chance: Callable[[int], float]) -> float:
    """``sum_s pmf[s] * chance(s + 1)``: the chance of beating an opponent
    whose final score has the distribution ``pmf`` for a player told that
    score before the game, playing for ``chance(t)`` = the largest
    probability of finishing at or above ``t``; no player without that
    knowledge wins more often."""
    return float(sum(p * chance(s + 1) for s, p in enumerate(pmf) if p > 0))


def win_figures(rules: Rules, pmf: np.ndarray, chance: Callable[[int], float],
                measured: Run | None = None) -> Figures:
    """Two players, one playing for the expected score (final scores
    ``pmf``): the chance that the other wins, ties not counted as wins.
    Above, ``clairvoyant``; ``notes`` also bound the chance with a tie
    counting half (at most the mean of the bounds with ties lost and ties
    won: the best play for the sum scores no more than the best for each
    part) and with ties won.  Below, the exact chance of playing for the
    expected score too: ``(1 - P(tie)) / 2``, the scores being independent
    and alike.  Between, the ``win`` seat's measured rate (an estimate)."""
    run = measured or WIN_RUNS.get(rules.fingerprint)
    pmf = np.asarray(pmf, dtype=np.float64)
    upper = clairvoyant(pmf, chance)
    won = clairvoyant(pmf, lambda t: chance(t - 1))
    tie = float(np.dot(pmf, pmf))
    upper_side = Side(upper, "proven",
                      "clairvoyant bound: sum over the opponent's final score s of P(s) x the "
                      "largest chance of scoring above s (exact distribution of expected-score "
                      "play and the target table); holds for either seat")
    lower_side = Side((1 - tie) / 2, "proven",
                      "exact chance of winning by playing for the expected score too, "
                      "(1 - P(tie)) / 2")
    half = (upper + won) / 2
    notes = {"versus": "optimal", "ties": "lost",
             "upper_bound_ties_half": rounded(half, CHANCE_DIGITS, "upper"),
             "upper_bound_ties_half_unrounded": half,
             "upper_bound_ties_won": rounded(won, CHANCE_DIGITS, "upper"),
             "upper_bound_ties_won_unrounded": won}
    if run is None:
        return Figures(rules.spec, lower_side, upper_side, None, CHANCE_DIGITS, notes=notes)
    method = (f"the win seat's rate of wins over {run.games:,} games against one "
              f"expected-score opponent, seats rotating, 95 % interval; `{run.command}`")
    return Figures(rules.spec, lower_side, upper_side, None, CHANCE_DIGITS, run, method,
                   notes=notes)
