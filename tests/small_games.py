"""Reduced games the research tests solve in a moment, and what the
distribution and policy tests share: the card parser, the two players
written out independently (the advised action, the ``simple`` policy), the
whole-game brute force of final-score distributions, and the chi-square
agreement of simulated games with an exact distribution.

Boxes are scored with the independent oracle (tests/scoring_oracle.py)."""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest
import scoring_oracle as oracle

from yatzy.players.strategy import advise
from yatzy.position.scorecard import Scorecard
from yatzy.rules.boxes import NORDIC, Box, BoxKind, groups, straight, upper
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space

# Two dice, four boxes, a bonus of 10 at an upper total of 4.
TINY = Rules("tiny", (upper("ones", 1), upper("twos", 2), groups("one_pair", (2,)),
                      Box("chance", BoxKind.CHANCE)), dice=2, rolls=3, bonus_threshold=4,
             bonus_points=10)
# Three dice, six boxes (a "yatzy" of three alike), bonus 20 at 12.
SMALL = Rules("small", (upper("ones", 1), upper("twos", 2), upper("threes", 3),
                        groups("one_pair", (2,)), Box("chance", BoxKind.CHANCE),
                        groups("yatzy", (3,), points=30)), dice=3, rolls=3,
              bonus_threshold=12, bonus_points=20)


# Three dice, the three lowest upper boxes and yatzy (Nordic points), bonus 50 at 6.
THREE_UPPER = Rules("three_upper", NORDIC[:3] + NORDIC[-1:], dice=3, bonus_threshold=6)
# Three four-faced dice, five boxes, bonus 9 at 6, rolls saved (banked).
BANKED = Rules("banked", (upper("ones", 1), upper("twos", 2), upper("threes", 3),
                          groups("pair", (2,)), NORDIC[-1]),
               dice=3, faces=4, rolls=3, bonus_threshold=6, bonus_points=9, saved_rolls=True)


def joker_game(joker: str = "forced", bonus: int = 30) -> Rules:
    """Two three-faced dice, five boxes, a yahtzee of two alike worth 20."""
    return Rules("mini", (upper("ones", 1), upper("twos", 2), upper("threes", 3),
                          straight("run", ((1, 2), (2, 3)), 7), groups("yahtzee", (2,), points=20)),
                 dice=2, faces=3, rolls=2, bonus_threshold=4, bonus_points=5,
                 yahtzee_bonus=bonus, joker=joker)


def card(table, text=""):
    return Scorecard.parse(text, table.rules)


# ------------------------------------------------------------ players
def _jokers(rules, sc, dice) -> int:
    """Boxes all-alike ``dice`` may go in as a joker (bitmask), 0 if none."""
    return int(state_space(rules).jokers(sc.mask)[0][dice[0] - 1]) if len(set(dice)) == 1 else 0


def oracle_points(rules, sc, dice, box: int) -> int:
    """Points of ``dice`` in ``box`` by the oracle, as a joker where one applies."""
    if _jokers(rules, sc, dice):
        return oracle.joker_points(rules.boxes[box], dice)
    return oracle.points(rules.boxes[box], dice)


def optimal(table, sc, dice, rerolls):
    """The action ``query.advise`` advises: ("score", box, points) or
    ("keep", dice); the points by the oracle (and the advice's must agree)."""
    best = advise(table, sc, dice, rerolls).best
    if best.kind == "score":
        box = table.rules.box_index(best.box)
        points = oracle_points(table.rules, sc, dice, box)
        assert best.points == points, (best, dice)
        return "score", box, points
    return "keep", best.dice


def simple(rules, sc, dice, rerolls):
    """The ``simple`` policy, written out from its description: keep the dice
    of the most common face (the higher face on a tie) unless all dice are
    alike; score the box giving the most points (the first on a tie), a
    joker only where the rules let it go."""
    tally = {f: dice.count(f) for f in set(dice)}
    face = max(tally, key=lambda f: (tally[f], f))
    if rerolls and tally[face] < len(dice):
        return "keep", (face,) * tally[face]
    boxes = _jokers(rules, sc, dice) or int(state_space(rules).allowed(sc.mask))
    options = [(b, oracle_points(rules, sc, dice, b)) for b in range(rules.n_boxes)
               if boxes >> b & 1]
    box, points = max(options, key=lambda o: (o[1], -o[0]))
    return "score", box, points


# ------------------------------------------------------------ brute force
def final_scores(rules, choose) -> tuple[dict[int, float], float]:
    """Final-score pmf and upper-bonus probability by enumerating every dice
    outcome of every turn, acting as ``choose(card, dice, rerolls)`` says
    (a further yahtzee after a scored one earns ``rules.yahtzee_bonus``)."""
    n, faces = rules.dice, rules.faces

    def outcomes(k):                 # multisets of k fresh dice, with probabilities
        out = defaultdict(Fraction)
        for seq in itertools.product(range(1, faces + 1), repeat=k):
            out[tuple(sorted(seq))] += Fraction(1, faces ** k)
        return out

    memo = {}

    def rest(sc):                    # {(points to come, bonus earned): probability}
        if sc.is_full:
            return {(0, sc.bonus > 0): 1.0}
        key = (sc.mask, sc.upper_state)
        if key in memo:
            return memo[key]
        ends = {}

        def turn(dice, rerolls):     # {(box, points, extra): probability} from this roll on
            if (dice, rerolls) not in ends:
                action = choose(sc, dice, rerolls)
                out = defaultdict(float)
                if action[0] == "score":
                    alike = len(set(dice)) == 1 and sc.mask & state_space(rules).flag_bit
                    out[(*action[1:], rules.yahtzee_bonus if alike else 0)] = 1.0
                else:
                    for fresh, q in outcomes(n - len(action[1])).items():
                        dice2 = tuple(sorted(action[1] + fresh))
                        for end, p in turn(dice2, rerolls - 1).items():
                            out[end] += float(q) * p
                ends[(dice, rerolls)] = out
            return ends[(dice, rerolls)]

        out = defaultdict(float)
        for dice, p in outcomes(n).items():
            for (box, points, extra), q in turn(dice, rules.rolls - 1).items():
                nxt = sc.fill(box, points, extra)
                for (s, bonus), r in rest(nxt).items():
                    out[(nxt.score - sc.score + s, bonus)] += float(p) * q * r
        memo[key] = dict(out)
        return memo[key]

    pmf = defaultdict(float)
    bonus = 0.0
    for (s, b), p in rest(Scorecard.empty(rules)).items():
        pmf[s] += p
        bonus += p if b else 0.0
    return pmf, bonus


def assert_same(d, pmf, bonus):
    """The distribution ``d`` is the brute force's (pmf, bonus probability)."""
    assert set(np.flatnonzero(d.pmf)) == {s for s, p in pmf.items() if p > 0}
    for s, p in pmf.items():
        assert d.pmf[s] == pytest.approx(p, abs=1e-12)
    assert d.bonus_probability == pytest.approx(bonus, abs=1e-12)


# ------------------------------------------------------------ simulated games
def chi2_upper(df: int, z: float = 3.09) -> float:
    """Wilson-Hilferty approximation of the chi-square quantile (z = 3.09:
    the 99.9% point)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def agrees(exact, hist, games):
    """Chi-square test of score counts ``hist`` against the exact pmf."""
    expected = exact.pmf * games
    observed = np.zeros(len(expected))
    observed[:len(hist)] = hist[:len(expected)]
    assert hist[len(expected):].sum() == 0
    stat, df, e_acc, o_acc = 0.0, -1, 0.0, 0.0
    for e, o in zip(expected, observed):         # pool neighbours to >= 5 expected
        e_acc, o_acc = e_acc + e, o_acc + o
        if e_acc >= 5:
            stat += (o_acc - e_acc) ** 2 / e_acc
            df += 1
            e_acc = o_acc = 0.0
    assert stat < chi2_upper(df)
    mean = np.dot(np.arange(len(hist)), hist) / games
    assert abs(mean - exact.mean) < 4 * exact.sd / math.sqrt(games)


def counts_of(dist):
    """Game counts of a distribution estimated from played games."""
    return np.round(dist.pmf * dist.games).astype(np.int64)
