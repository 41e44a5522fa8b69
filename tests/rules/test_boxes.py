"""Scoring of the Nordic boxes: every edge case of docs/rules.md, "Nordic Yatzy".

Dice are written as values, e.g. ``(5, 5, 4, 4, 2)``, and turned into face
counts with ``counts()`` before they reach ``Box.score``.
"""

from __future__ import annotations

import pytest
import scoring_oracle as oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from scoring_oracle import counts

from yatzy.rules.boxes import NORDIC, Box, groups, nordic_boxes, straight, upper
from yatzy.rules.dice import dice_space
from yatzy.rules.ruleset import Rules, parse_rules
from yatzy.tables.build import solve

BOX = {b.name: b for b in nordic_boxes()}
NAMES = [b.name for b in NORDIC]


def score(name, dice, boxes=None):
    box = (BOX if boxes is None else {b.name: b for b in boxes})[name]
    return box.score(counts(dice))


# Maximum of each box, worked out by hand from the table in docs/rules.md.
MAXIMUM = {
    "ones": 5, "twos": 10, "threes": 15, "fours": 20, "fives": 25, "sixes": 30,
    "one_pair": 12, "two_pairs": 22, "three_of_a_kind": 18, "four_of_a_kind": 24,
    "small_straight": 15, "large_straight": 20, "full_house": 28, "chance": 30,
    "yatzy": 50,
}

ALL_ROLLS = oracle.sorted_rolls(5)


# ------------------------------------------------------------ the scorecard
def test_scorecard_has_fifteen_boxes_in_order():
    assert [b.name for b in nordic_boxes()] == [
        "ones", "twos", "threes", "fours", "fives", "sixes",
        "one_pair", "two_pairs", "three_of_a_kind", "four_of_a_kind",
        "small_straight", "large_straight", "full_house", "chance", "yatzy"]
    assert nordic_boxes() == NORDIC
    assert [b.is_upper for b in NORDIC] == [True] * 6 + [False] * 9


def test_nordic_preset_parameters():
    rules = parse_rules("nordic")
    assert rules.boxes == NORDIC
    assert (rules.dice, rules.faces, rules.rolls) == (5, 6, 3)
    assert (rules.bonus_threshold, rules.bonus_points, rules.order) == (63, 50, "free")
    assert rules.scores.shape == (252, 15)


# ------------------------------------------------------------ upper boxes
@pytest.mark.parametrize("face", range(1, 7))
def test_upper_box_scores_sum_of_dice_showing_its_face(face):
    box = NORDIC[face - 1]
    assert box.face == face
    assert box.score(counts((face, face, face, 1 if face != 1 else 2, 6 if face != 6 else 5))) == 3 * face
    assert box.score(counts((face,) * 5)) == 5 * face
    others = [f for f in range(1, 7) if f != face]
    assert box.score(counts(tuple(others[:5]))) == 0


def test_upper_boxes_on_mixed_roll():
    dice = (1, 3, 3, 6, 6)
    assert [score(n, dice) for n in NAMES[:6]] == [1, 0, 6, 0, 0, 12]


# ------------------------------------------------------------ most valuable way
def test_most_valuable_way_counts_one_pair_vs_two_pairs():
    assert score("one_pair", (5, 5, 4, 4, 2)) == 10
    assert score("two_pairs", (5, 5, 4, 4, 2)) == 18


def test_one_pair_takes_highest_pair():
    assert score("one_pair", (1, 1, 3, 3, 6)) == 6
    assert score("one_pair", (2, 2, 6, 6, 6)) == 12      # pair out of a triple
    assert score("one_pair", (1, 2, 3, 4, 6)) == 0


def test_two_pairs_take_the_two_highest_pairs():
    # 6-6-6 with 5-5: the pair of sixes out of the triple counts.
    assert score("two_pairs", (5, 5, 6, 6, 6)) == 22
    assert score("two_pairs", (1, 1, 2, 2, 3)) == 6


def test_three_of_a_kind_takes_the_triple():
    assert score("three_of_a_kind", (2, 2, 2, 6, 6)) == 6
    assert score("three_of_a_kind", (2, 2, 6, 6, 1)) == 0


def test_full_house_needs_three_and_two():
    assert score("full_house", (2, 2, 2, 6, 6)) == 18
    assert score("full_house", (6, 6, 6, 1, 1)) == 20
    assert score("full_house", (2, 2, 6, 6, 1)) == 0
    assert score("full_house", (2, 2, 2, 6, 1)) == 0


# ------------------------------------------------------------ two pairs
def test_two_pairs_need_different_values():
    assert score("two_pairs", (4, 4, 4, 4, 6)) == 0
    assert score("two_pairs", (6, 6, 6, 6, 6)) == 0
    assert score("two_pairs", (3, 3, 3, 3, 3)) == 0


def test_two_pairs_need_two_pairs_not_one():
    # The 248.63 of an older paper came from scoring a single pair here.
    assert score("two_pairs", (1, 2, 3, 6, 6)) == 0
    assert score("two_pairs", (1, 2, 6, 6, 6)) == 0


# ------------------------------------------------------------ five / four equal
def test_five_equal_is_not_full_house():
    assert score("full_house", (6, 6, 6, 6, 6)) == 0
    assert score("full_house", (1, 1, 1, 1, 1)) == 0
    assert score("full_house", (6, 6, 6, 6, 1)) == 0      # 4+1 is not 3+2 either


def test_five_equal_count_as_one_pair_three_and_four_of_a_kind():
    dice = (6, 6, 6, 6, 6)
    assert score("one_pair", dice) == 12
    assert score("three_of_a_kind", dice) == 18
    assert score("four_of_a_kind", dice) == 24
    assert score("yatzy", dice) == 50
    assert score("chance", dice) == 30
    assert score("sixes", dice) == 30


def test_four_equal_count_as_three_of_a_kind():
    dice = (4, 4, 4, 4, 6)
    assert score("three_of_a_kind", dice) == 12
    assert score("four_of_a_kind", dice) == 16
    assert score("one_pair", dice) == 8


def test_four_of_a_kind_needs_four_equal():
    assert score("four_of_a_kind", (4, 4, 4, 6, 6)) == 0
    assert score("four_of_a_kind", (2, 2, 2, 2, 2)) == 8


# ------------------------------------------------------------ straights
def test_small_straight_is_exactly_one_to_five():
    assert score("small_straight", (1, 2, 3, 4, 5)) == 15
    assert score("small_straight", (5, 3, 1, 4, 2)) == 15
    assert score("small_straight", (2, 3, 4, 5, 6)) == 0


def test_large_straight_is_exactly_two_to_six():
    assert score("large_straight", (2, 3, 4, 5, 6)) == 20
    assert score("large_straight", (6, 5, 4, 3, 2)) == 20
    assert score("large_straight", (1, 2, 3, 4, 5)) == 0


def test_four_in_a_row_is_not_a_straight():
    for dice in [(1, 2, 3, 4, 4), (1, 2, 3, 4, 6), (2, 3, 4, 5, 5), (3, 4, 5, 6, 6),
                 (1, 3, 4, 5, 6), (2, 3, 4, 5, 2), (1, 1, 2, 3, 4)]:
        assert score("small_straight", dice) == 0, dice
        assert score("large_straight", dice) == 0, dice


def test_straights_use_all_five_dice_exactly_two_rolls_qualify():
    small = [r for r in ALL_ROLLS if score("small_straight", r)]
    large = [r for r in ALL_ROLLS if score("large_straight", r)]
    assert small == [(1, 2, 3, 4, 5)]
    assert large == [(2, 3, 4, 5, 6)]


# ------------------------------------------------------------ full house, chance, yatzy
def test_full_house_scores_sum_of_all_five_dice():
    assert score("full_house", (3, 3, 3, 5, 5)) == 19
    assert score("full_house", (5, 5, 5, 3, 3)) == 21
    assert score("full_house", (6, 6, 6, 5, 5)) == 28


def test_chance_scores_sum_of_all_five_dice():
    assert score("chance", (1, 1, 1, 1, 1)) == 5
    assert score("chance", (1, 2, 3, 4, 6)) == 16
    assert score("chance", (6, 6, 6, 6, 6)) == 30


def test_yatzy_scores_fifty_for_five_equal():
    for f in range(1, 7):
        assert score("yatzy", (f,) * 5) == 50
    assert score("yatzy", (6, 6, 6, 6, 5)) == 0
    assert score("yatzy", (1, 2, 3, 4, 5)) == 0


def test_dice_that_do_not_fit_score_zero_and_any_box_may_take_zero():
    # Every box but chance has rolls that do not fit it (scoring 0); and
    # "stryke": any open box may take a 0, chance included.
    rules = parse_rules("nordic")
    fits_never = (rules.scores == 0).any(axis=0)
    assert dict(zip(NAMES, fits_never.tolist())) == {n: n != "chance" for n in NAMES}
    assert all(0 in p for p in rules.box_points)


# ------------------------------------------------------------ maximum score
def test_box_maxima_over_all_rolls():
    rules = parse_rules("nordic")
    best = rules.scores.max(axis=0)
    assert dict(zip(NAMES, best.tolist())) == MAXIMUM


def test_maximum_possible_score_is_374():
    rules = parse_rules("nordic")
    best = rules.scores.max(axis=0)
    upper_total = int(best[rules.is_upper].sum())
    lower_total = int(best[~rules.is_upper].sum())
    assert upper_total == 105
    assert lower_total == 219
    assert upper_total >= rules.bonus_threshold
    assert upper_total + rules.bonus_points + lower_total == 374


def test_scores_table_matches_box_score():
    rules = parse_rules("nordic")
    ds = rules.dice_space
    assert ds.n_rolls == len(ALL_ROLLS) == 252
    for dice in ALL_ROLLS:
        r = ds.roll_index(dice)
        assert tuple(ds.roll_counts()[r]) == counts(dice)
        for b, box in enumerate(rules.boxes):
            assert rules.scores[r, b] == box.score(counts(dice))


def test_roll_probabilities_sum_to_one():
    ds = dice_space(5, 6)
    assert abs(ds.roll_prob.sum() - 1.0) < 1e-12
    assert ds.roll_prob[ds.roll_index((6, 6, 6, 6, 6))] == pytest.approx(1 / 6**5, abs=1e-15)
    assert ds.roll_prob[ds.roll_index((1, 2, 3, 4, 5))] == pytest.approx(120 / 6**5, abs=1e-15)


# ------------------------------------------------------------ bonus
def test_bonus_threshold_is_63_and_only_upper_total_up_to_63_is_tracked():
    rules = parse_rules("nordic")
    assert rules.bonus_threshold == 63 and rules.bonus_points == 50
    assert rules.cap == 63
    # Without a bonus the upper total does not matter at all.
    assert Rules("nobonus", NORDIC, bonus_points=0).cap == 0


def test_bonus_earned_when_upper_total_reaches_threshold_exactly():
    # One die, one roll, only "sixes": the upper total is 6 with probability 1/6.
    sixes = (upper("sixes", 6),)
    reached = solve(Rules("t", sixes, dice=1, rolls=1, bonus_threshold=6, bonus_points=50))
    assert reached.values[0, 0] == pytest.approx(1 + 50 / 6, abs=1e-12)
    missed = solve(Rules("t", sixes, dice=1, rolls=1, bonus_threshold=7, bonus_points=50))
    assert missed.values[0, 0] == pytest.approx(1.0, abs=1e-12)


def test_bonus_earned_once_when_upper_total_passes_threshold():
    # Two dice, one roll, boxes ones and twos, threshold 2: the bonus comes
    # the first time the total reaches 2 and never again.
    boxes = (upper("ones", 1), upper("twos", 2))
    rules = Rules("t", boxes, dice=2, rolls=1, bonus_threshold=2, bonus_points=10)
    sol = solve(rules)
    # Upper total already at the threshold: no further bonus, only the points.
    e_ones = 2 * (1 / 6)
    e_twos = 2 * 2 * (1 / 6)
    assert sol.values[0b01, 2] == pytest.approx(e_twos, abs=1e-12)
    assert sol.values[0b10, 2] == pytest.approx(e_ones, abs=1e-12)
    # Upper total 1 (one die showed 1 in ones): twos brings the bonus iff a 2 shows.
    p_two = 1 - (5 / 6) ** 2
    assert sol.values[0b01, 1] == pytest.approx(e_twos + 10 * p_two, abs=1e-12)


# ------------------------------------------------------------ house rules
def test_five_alike_is_full_house_switch_scores_thirty_for_six_sixes():
    boxes = {b.name: b for b in nordic_boxes(five_alike_is_full_house=True)}
    assert boxes["full_house"].score(counts((6, 6, 6, 6, 6))) == 30
    assert boxes["full_house"].score(counts((2, 2, 2, 2, 2))) == 10
    assert boxes["full_house"].score(counts((6, 6, 6, 5, 5))) == 28
    assert boxes["full_house"].score(counts((6, 6, 6, 6, 5))) == 0
    # Nothing else changes.
    assert boxes["two_pairs"].score(counts((4, 4, 4, 4, 6))) == 0
    assert BOX["full_house"].score(counts((6, 6, 6, 6, 6))) == 0
    rules = parse_rules("nordic:five_alike_is_full_house=true")
    fh = NAMES.index("full_house")
    assert rules.scores[rules.dice_space.roll_index((6, 6, 6, 6, 6)), fh] == 30
    assert rules.scores[:, fh].max() == 30


def test_four_alike_is_two_pairs_switch_scores_sixteen_for_four_fours():
    boxes = {b.name: b for b in nordic_boxes(four_alike_is_two_pairs=True)}
    assert boxes["two_pairs"].score(counts((4, 4, 4, 4, 6))) == 16
    assert boxes["two_pairs"].score(counts((6, 6, 6, 6, 6))) == 24
    assert boxes["two_pairs"].score(counts((5, 5, 4, 4, 2))) == 18
    assert boxes["two_pairs"].score(counts((6, 6, 6, 5, 1))) == 0
    # Nothing else changes.
    assert boxes["full_house"].score(counts((6, 6, 6, 6, 6))) == 0
    assert BOX["two_pairs"].score(counts((4, 4, 4, 4, 6))) == 0
    rules = parse_rules("nordic:four_alike_is_two_pairs=true")
    tp = NAMES.index("two_pairs")
    assert rules.scores[rules.dice_space.roll_index((4, 4, 4, 4, 6)), tp] == 16
    assert rules.scores[:, tp].max() == 24


def test_both_house_rule_switches_together():
    boxes = {b.name: b for b in nordic_boxes(True, True)}
    assert boxes["full_house"].score(counts((6, 6, 6, 6, 6))) == 30
    assert boxes["two_pairs"].score(counts((4, 4, 4, 4, 6))) == 16
    rules = parse_rules("nordic:five_alike_is_full_house=true,four_alike_is_two_pairs=true")
    assert rules.boxes == nordic_boxes(True, True)


def test_house_rule_switches_change_only_their_box():
    plain = nordic_boxes()
    for flags, changed in [((True, False), {"full_house"}), ((False, True), {"two_pairs"})]:
        switched = nordic_boxes(*flags)
        diff = {a.name for a, b in zip(plain, switched) if a != b}
        assert diff == changed
        for dice in ALL_ROLLS:
            for a, b in zip(plain, switched):
                if a.name not in changed:
                    assert a.score(counts(dice)) == b.score(counts(dice))


# ------------------------------------------------------------ custom boxes
def test_custom_boxes_score_as_described():
    assert groups("pair3", (2,)).score(counts((3, 3, 1), faces=3)) == 6
    assert groups("trip", (3,), points=7).score(counts((2, 2, 2))) == 7
    assert groups("fh", (2, 1), sum_all=True).score(counts((1, 1, 3, 4))) == 9
    assert straight("run", ((1, 2, 3),), 9).score(counts((3, 1, 2, 2))) == 9
    assert straight("run", ((1, 2, 3),), 9).score(counts((3, 1, 4, 2))) == 9
    assert straight("run", ((1, 2, 3),), 9).score(counts((3, 4, 4, 2))) == 0
    assert Box("c", "chance").score(counts((1, 2, 4), faces=4)) == 7


# ------------------------------------------------------------ properties
dice5 = st.lists(st.integers(1, 6), min_size=5, max_size=5)


SWITCHED = [(parse_rules("nordic"), oracle.NORDIC),
            (parse_rules("nordic:five_alike_is_full_house=true,four_alike_is_two_pairs=true"),
             oracle.nordic(True, True))]


@settings(max_examples=200, deadline=None)
@given(dice5)
def test_scores_do_not_depend_on_the_order_the_dice_are_written_in(dice):
    """The dice as typed (``--dice 64136``, in the order rolled) go through the
    parser and the score table; the points are the oracle's for those dice."""
    for rules, scorer in SWITCHED:
        ds = rules.dice_space
        r = ds.roll_index(ds.parse("".join(map(str, dice))))
        for name, score in scorer.items():
            assert rules.scores[r, rules.box_index(name)] == score(tuple(dice)), (dice, name)


@settings(max_examples=300, deadline=None)
@given(dice5)
def test_box_never_exceeds_its_maximum_and_never_negative(dice):
    c = counts(dice)
    for box in NORDIC:
        s = box.score(c)
        assert 0 <= s <= MAXIMUM[box.name]
    assert sum(box.score(c) for box in NORDIC) <= 374 - 50


@settings(max_examples=300, deadline=None)
@given(dice5)
def test_upper_box_score_is_face_times_count(dice):
    c = counts(dice)
    for face in range(1, 7):
        assert NORDIC[face - 1].score(c) == face * dice.count(face)


@settings(max_examples=300, deadline=None)
@given(dice5)
def test_lower_box_properties(dice):
    c = counts(dice)
    total = sum(dice)
    s = {b.name: b.score(c) for b in NORDIC}
    assert s["chance"] == total
    # Sum-of-dice boxes never exceed the sum of all dice.
    for name in ("one_pair", "two_pairs", "three_of_a_kind", "four_of_a_kind", "full_house"):
        assert s[name] <= total
    # A box that needs more equal dice implies the weaker ones.
    if s["yatzy"]:
        assert s["four_of_a_kind"] and s["full_house"] == 0 and s["two_pairs"] == 0
    if s["four_of_a_kind"]:
        assert s["three_of_a_kind"] == s["four_of_a_kind"] * 3 // 4
    if s["three_of_a_kind"] or s["two_pairs"]:
        assert s["one_pair"] > 0
    if s["full_house"]:
        assert s["full_house"] == total and s["two_pairs"] > 0 and s["three_of_a_kind"] > 0
    assert s["small_straight"] in (0, 15) and s["large_straight"] in (0, 20)
    assert s["yatzy"] in (0, 50)
    assert (s["small_straight"] == 15) == (sorted(dice) == [1, 2, 3, 4, 5])
    assert (s["large_straight"] == 20) == (sorted(dice) == [2, 3, 4, 5, 6])
    assert (s["yatzy"] == 50) == (len(set(dice)) == 1)
