"""The engine against an independent brute force over the whole game tree.

``BruteForce`` (tests/bruteforce.py) shares nothing with ``yatzy.tables.build``,
``yatzy.rules.dice`` or ``yatzy.rules.boxes``: box points come from the independent
oracle written from docs/rules.md (tests/scoring_oracle.py).

The engine's ``values[mask, u]`` is compared with the brute force at the start
of the game and at every reachable turn-start state (mask, raw upper total),
the engine being read at ``u = min(raw, cap)``.
"""

from __future__ import annotations

import numpy as np
import pytest
from bruteforce import TOL, assert_engine_matches, brute

from yatzy.rules.boxes import NORDIC, groups, straight, upper
from yatzy.rules.ruleset import Rules
from yatzy.space import state_space
from yatzy.tables.build import solve

N = {b.name: b for b in NORDIC}


# ---------------------------------------------------------------- games
def game(name, boxes, **kw):
    return name, tuple(boxes), kw


GAMES = [
    # One die, upper boxes 1..3, bonus reachable only with good rolls.
    game("1d_upper123_T5", [N["ones"], N["twos"], N["threes"]],
         dice=1, rolls=3, bonus_threshold=5, bonus_points=10),
    # Two dice, Nordic boxes mixed, lower box first in the tuple.
    game("2d_pair_ones_twos_chance", [N["one_pair"], N["ones"], N["twos"], N["chance"]],
         dice=2, rolls=2, bonus_threshold=3, bonus_points=7),
    # Three dice with custom groups boxes and chance.
    game("3d_threes_triple_chance", [upper("threes", 3), groups("triple", (3,), points=30),
                                     N["chance"], upper("ones", 1)],
         dice=3, rolls=3, bonus_threshold=5, bonus_points=50),
    # Three dice, one roll only: no keeping at all.
    game("3d_one_roll", [N["twos"], groups("pair_all", (2,), sum_all=True),
                         straight("run456", ((4, 5, 6),), 12), N["fives"]],
         dice=3, rolls=1, bonus_threshold=5, bonus_points=20),
    # Four-sided dice with the four upper boxes.
    game("2d_faces4_upper1234", [upper("ones", 1), upper("twos", 2),
                                 upper("threes", 3), upper("fours", 4)],
         dice=2, faces=4, rolls=2, bonus_threshold=8, bonus_points=15),
    # Four dice: two pairs (different faces) and four of a kind.
    game("4d_pairs_four_kind", [N["two_pairs"], N["fours"], N["four_of_a_kind"]],
         dice=4, rolls=2, bonus_threshold=4, bonus_points=25),
    # No bonus at all (cap 0: one column).
    game("3d_no_bonus", [N["sixes"], N["one_pair"], groups("fh21", (2, 1), sum_all=True)],
         dice=3, rolls=2, bonus_threshold=63, bonus_points=0),
    # Five boxes, three dice, three rolls: the biggest tree here.
    game("3d_five_boxes", [N["chance"], N["ones"], N["twos"], N["one_pair"], N["threes"]],
         dice=3, rolls=3, bonus_threshold=6, bonus_points=10),
    # Four dice, three rolls, a non-distinct groups box (2+2 of any faces).
    game("4d_rolls3_custom", [N["one_pair"], upper("threes", 3),
                              groups("pairs_any", (2, 2), distinct=False), N["chance"]],
         dice=4, rolls=3, bonus_threshold=3, bonus_points=5),
    # Threshold larger than the best upper total: the bonus never comes.
    game("2d_bonus_unreachable", [N["ones"], N["twos"], N["chance"]],
         dice=2, rolls=3, bonus_threshold=13, bonus_points=50),
]
ORDERS = ("free", "forced", "upper_first")


def make(name, boxes, kw, order):
    return Rules(name, boxes, order=order, **kw)


CASES = [pytest.param(g, o, id=f"{g[0]}-{o}") for g in GAMES for o in ORDERS]


@pytest.mark.parametrize("g, order", CASES)
def test_engine_matches_bruteforce_in_every_reachable_state_and_solved_lane(g, order):
    assert assert_engine_matches(make(*g, order)) > 1


def test_only_the_upper_total_up_to_threshold_matters():
    # Raw upper totals at or above the threshold all have the same value,
    # and the engine stores them in the single column u = cap.
    boxes = (N["ones"], N["twos"], N["threes"])
    rules = Rules("t", boxes, dice=2, rolls=2, bonus_threshold=4, bonus_points=30)
    values = solve(rules).values
    bf = brute(rules)
    assert rules.cap == 4 and values.shape == (8, 5)
    filled = frozenset({2})                               # threes done
    vals = [bf.value(filled, raw) for raw in (4, 5, 6)]
    assert max(vals) - min(vals) < TOL
    assert abs(values[0b100, 4] - vals[0]) < TOL
    # Below the threshold the total does matter.
    assert bf.value(filled, 3) > bf.value(filled, 4) + 1


def test_five_dice_nordic_lower_boxes():
    # Real Nordic dice (5 of 6 faces) with boxes whose rules need five dice.
    boxes = (N["small_straight"], N["large_straight"], N["full_house"])
    for order in ("free", "forced"):
        assert_engine_matches(Rules("t", boxes, dice=5, rolls=2, order=order))


def test_five_dice_two_pairs_and_yatzy_three_rolls():
    assert_engine_matches(Rules("t", (N["two_pairs"], N["yatzy"]), dice=5, rolls=3))


def test_single_roll_single_box_is_plain_expectation():
    # Nothing to choose: the value is the mean score of one roll.
    rules = Rules("t", (N["chance"],), dice=2, rolls=1)
    assert abs(solve(rules).values[0, 0] - 7.0) < TOL
    rules = Rules("t", (N["one_pair"],), dice=2, rolls=1)
    assert abs(solve(rules).values[0, 0] - 2 * 21 / 36) < TOL


def test_box_that_always_fits_gives_its_points_for_sure():
    # One die is always "five equal" for a (1,)-group worth 50.
    rules = Rules("t", (groups("one", (1,), points=50),), dice=1, rolls=1)
    assert abs(solve(rules).values[0, 0] - 50.0) < TOL


def test_more_rolls_never_hurt_and_free_order_is_best():
    boxes = (N["one_pair"], N["ones"], N["twos"], N["chance"])
    kw = dict(dice=2, bonus_threshold=3, bonus_points=7)
    by_rolls = [solve(Rules("t", boxes, rolls=r, **kw)).values[0, 0] for r in (1, 2, 3, 4)]
    assert all(a <= b + TOL for a, b in zip(by_rolls, by_rolls[1:]))
    assert by_rolls[0] < by_rolls[1]
    free = solve(Rules("t", boxes, rolls=2, **kw)).values[0, 0]
    for order in ("forced", "upper_first"):
        assert solve(Rules("t", boxes, rolls=2, order=order, **kw)).values[0, 0] <= free + TOL


def test_full_scorecard_is_worth_zero_and_values_finite():
    rules = Rules("t", (N["ones"], N["twos"], N["chance"]), dice=2, rolls=2,
                  bonus_threshold=3, bonus_points=5)
    values = solve(rules).values
    assert (values[state_space(rules).full_mask] == 0).all()
    for layer in state_space(rules).layers:
        for mask in layer:
            row = values[mask]
            assert np.isfinite(row[~np.isnan(row)]).all()
            assert not np.isnan(row[0])
