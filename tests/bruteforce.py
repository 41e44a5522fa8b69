"""An optimal-play brute force over the whole game tree of a reduced game,
sharing nothing with the solver: it enumerates the ordered dice with
``itertools.product``, keeps dice as sorted tuples, tries every sub-multiset
as a keep, tracks the *raw* upper total (not capped), gives the bonus when the
raw total first reaches the threshold, and scores boxes with the independent
oracle (tests/scoring_oracle.py), not ``Box.score``.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from functools import lru_cache

import numpy as np
import scoring_oracle as oracle

from yatzy.rules.ruleset import Rules
from yatzy.tables.build import solve

TOL = 1e-9


class BruteForce:
    """Plain recursive optimal play for one game."""

    def __init__(self, boxes, dice, faces, rolls, threshold, bonus, order):
        self.boxes = tuple(boxes)
        self.n = dice
        self.faces = faces
        self.rolls = rolls
        self.threshold = threshold
        self.bonus = bonus
        self.order = order
        self.all = frozenset(range(len(self.boxes)))
        # outcomes[k]: (sorted dice, probability) of rolling k dice, from
        # every ordered outcome of k dice, equally likely.
        self.outcomes = {}
        for k in range(dice + 1):
            tally = Counter(tuple(sorted(d)) for d in
                            itertools.product(range(1, faces + 1), repeat=k))
            total = faces ** k
            self.outcomes[k] = tuple((d, c / total) for d, c in sorted(tally.items()))
        self.value = lru_cache(maxsize=None)(self._value)

    # ------------------------------------------------------------ rules
    def score(self, b, dice):
        return oracle.points(self.boxes[b], dice)

    def allowed(self, filled):
        open_ = [b for b in range(len(self.boxes)) if b not in filled]
        if self.order == "free":
            return open_
        if self.order == "forced":
            return open_[:1]
        if self.order == "upper_first":
            up = [b for b in open_ if self.boxes[b].kind == "upper"]
            return up or open_
        raise ValueError(self.order)

    def write(self, filled, raw, b, s):
        """(points now, filled after, raw upper total after) of writing s in b."""
        if self.boxes[b].kind != "upper":
            return s, filled | {b}, raw
        after = raw + s
        got = s
        if self.bonus and raw < self.threshold <= after:
            got += self.bonus
        return got, filled | {b}, after

    # ------------------------------------------------------------ values
    def _value(self, filled, raw):
        """Expected score still to come at the start of a turn."""
        if filled == self.all:
            return 0.0
        choices = self.allowed(filled)

        @lru_cache(maxsize=None)
        def stop(roll):                      # write the roll into a box
            best = -math.inf
            for b in choices:
                got, f2, r2 = self.write(filled, raw, b, self.score(b, roll))
                best = max(best, got + self.value(f2, r2))
            return best

        @lru_cache(maxsize=None)
        def best(roll, left):                # `left` rerolls still allowed
            v = stop(roll)
            if left:
                keeps = {k for i in range(len(roll) + 1)
                         for k in itertools.combinations(roll, i)}
                for keep in keeps:
                    v = max(v, reroll(keep, left))
            return v

        @lru_cache(maxsize=None)
        def reroll(keep, left):
            return sum(p * best(tuple(sorted(keep + fresh)), left - 1)
                       for fresh, p in self.outcomes[self.n - len(keep)])

        return sum(p * best(roll, self.rolls - 1) for roll, p in self.outcomes[self.n])

    def start(self):
        return self.value(frozenset(), 0)

    # ------------------------------------------------------------ states
    def reachable(self):
        """Every turn-start state (filled, raw upper total) some play reaches."""
        points = [sorted({self.score(b, r) for r, _ in self.outcomes[self.n]} | {0})
                  for b in range(len(self.boxes))]
        seen = {(frozenset(), 0)}
        todo = [(frozenset(), 0)]
        while todo:
            filled, raw = todo.pop()
            for b in self.allowed(filled):
                for s in points[b]:
                    _, f2, r2 = self.write(filled, raw, b, s)
                    if (f2, r2) not in seen:
                        seen.add((f2, r2))
                        todo.append((f2, r2))
        return seen


def dice_outcomes(dice: int, faces: int) -> dict[int, list[tuple[tuple[int, ...], float]]]:
    """``out[k]``: (sorted dice, probability) of rolling ``k`` dice, counted
    from every ordered outcome, equally likely."""
    out = {}
    for k in range(dice + 1):
        tally = Counter(tuple(sorted(d)) for d in
                        itertools.product(range(1, faces + 1), repeat=k))
        out[k] = [(d, c / faces ** k) for d, c in sorted(tally.items())]
    return out


def turn_value(outcomes, dice: int, rolls: int, stop) -> float:
    """The expectation over the first roll of the best play of one turn,
    trying every keep before each reroll; ``stop(roll)`` is the value of
    ending the turn with ``roll`` (the caller's objective)."""
    @lru_cache(maxsize=None)
    def best(roll, left):
        v = stop(roll)
        if left:
            for i in range(len(roll)):
                for keep in set(itertools.combinations(roll, i)):
                    v = max(v, sum(q * best(tuple(sorted(keep + f)), left - 1)
                                   for f, q in outcomes[dice - i]))
        return v

    return sum(q * best(roll, rolls - 1) for roll, q in outcomes[dice])


def mask_of(filled):
    return sum(1 << b for b in filled)


def brute(rules: Rules) -> BruteForce:
    return BruteForce(rules.boxes, rules.dice, rules.faces, rules.rolls,
                      rules.bonus_threshold, rules.bonus_points, rules.order)


def assert_engine_matches(rules: Rules) -> int:
    """The engine's ``values[mask, u]`` against the brute force at the start
    and at every reachable turn-start state (mask, raw upper total), read at
    ``u = min(raw, cap)``, and in every solved lane (non-NaN (mask, u),
    reachable total or not); the solved masks are exactly the reachable ones.
    Returns the number of states compared."""
    sol = solve(rules)
    bf = brute(rules)
    values = sol.values
    assert values.shape == (1 << len(rules.boxes), rules.cap + 1)
    assert abs(values[0, 0] - bf.start()) < TOL
    assert abs(sol.expected_score - bf.start()) < TOL
    states = bf.reachable()
    for filled, raw in states:
        mask, u = mask_of(filled), min(raw, rules.cap)
        got, want = values[mask, u], bf.value(filled, raw)
        assert abs(got - want) < TOL, (rules, sorted(filled), raw, mask, u, got, want)
    solved = {m for m in range(values.shape[0]) if not np.isnan(values[m]).all()}
    by_mask = {mask_of(f): f for f, _ in states}
    assert solved == set(by_mask)
    for mask, filled in by_mask.items():
        for u in np.flatnonzero(~np.isnan(values[mask])):
            got, want = values[mask, u], bf.value(filled, int(u))
            assert abs(got - want) < TOL, (rules, sorted(filled), int(u), got, want)
    return len(states)
