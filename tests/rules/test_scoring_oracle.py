"""The solver's scoring against the independent oracle (tests/scoring_oracle.py)
over every sorted roll, every box and every preset: 252 rolls of five dice,
462 of six; the house-rule switches; joker points under American rules."""

from __future__ import annotations

import itertools

import pytest
import scoring_oracle as oracle

from yatzy.rules.boxes import Box, BoxKind, groups, straight, upper
from yatzy.rules.ruleset import parse_rules

PRESETS = [
    ("nordic", oracle.NORDIC),
    ("forced", oracle.NORDIC),
    ("upper_first", oracle.NORDIC),
    ("nordic:five_alike_is_full_house=true", oracle.nordic(five_alike_is_full_house=True)),
    ("nordic:four_alike_is_two_pairs=true", oracle.nordic(four_alike_is_two_pairs=True)),
    ("nordic:five_alike_is_full_house=true,four_alike_is_two_pairs=true",
     oracle.nordic(True, True)),
    ("yahtzee", oracle.YAHTZEE),
    ("yahtzee:joker=none,yahtzee_bonus=false", oracle.YAHTZEE),
    ("maxi", oracle.MAXI),
    ("maxi:saved_rolls=false,rolls=3", oracle.MAXI),
]


@pytest.mark.parametrize("spec, scorer", PRESETS, ids=[p[0] for p in PRESETS])
def test_every_roll_scores_as_the_rules_text_says_in_every_box(spec, scorer):
    rules = parse_rules(spec)
    assert {b.name for b in rules.boxes} == set(scorer)          # no box left unchecked
    ds = rules.dice_space
    rolls = oracle.sorted_rolls(rules.dice, rules.faces)
    assert len(rolls) == ds.n_rolls == {5: 252, 6: 462}[rules.dice]
    for dice in rolls:
        r = ds.roll_index(dice)
        for name, score in scorer.items():
            assert rules.scores[r, rules.box_index(name)] == score(dice), (spec, dice, name)


@pytest.mark.parametrize("spec", ["yahtzee", "yahtzee:joker=free"])
def test_joker_points_are_the_full_value_of_each_box(spec):
    rules = parse_rules(spec)
    for face in range(1, rules.faces + 1):
        dice = (face,) * rules.dice
        for name, score in oracle.YAHTZEE_JOKER.items():
            assert rules.joker_points[face - 1, rules.box_index(name)] == score(dice), (face, name)


def test_the_generic_oracle_reads_preset_boxes_as_the_rules_text_does():
    """``oracle.points`` (box parameters) and the named functions (rule text)
    agree on every five-dice preset box and roll, so the brute forces, which
    score with ``oracle.points``, follow the rules text too."""
    for spec, scorer in PRESETS:
        rules = parse_rules(spec)
        if rules.dice != 5:
            continue
        for dice in oracle.sorted_rolls(5):
            for name, score in scorer.items():
                assert oracle.points(rules.box(name), dice) == score(dice), (spec, dice, name)
        if rules.joker != "none":
            for face in range(1, 7):
                for name, score in oracle.YAHTZEE_JOKER.items():
                    if name != "yahtzee":
                        assert oracle.joker_points(rules.box(name), (face,) * 5) == \
                            score((face,) * 5)


def test_the_generic_oracle_on_hand_worked_small_boxes():
    """A few values worked out by hand, so the oracle itself is checked."""
    c = oracle.points
    assert c(groups("pair", (2,)), (3, 3, 1)) == 6
    assert c(groups("trip", (3,), points=7), (2, 2, 2)) == 7
    assert c(groups("trip", (3,), points=7), (2, 2, 1)) == 0
    assert c(groups("fh", (2, 1), sum_all=True), (1, 1, 3, 4)) == 9
    assert c(groups("two", (2, 2)), (3, 3, 3, 3)) == 0                  # different faces
    assert c(groups("two", (2, 2), distinct=False), (3, 3, 3, 3)) == 12
    assert c(groups("two", (2, 2)), (1, 1, 2, 2)) == 6
    assert c(groups("hut", (3, 2)), (3, 4, 4, 6, 6, 6)) == 26
    assert c(straight("run", ((1, 2, 3),), 9), (3, 1, 2, 2)) == 9
    assert c(straight("run", ((1, 2, 3),), 9), (3, 4, 4, 2)) == 0
    assert c(straight("run", ((1, 2), (3, 4)), 5), (4, 3, 1)) == 5
    assert c(upper("threes", 3), (3, 1, 3)) == 6
    assert c(Box("c", BoxKind.CHANCE), (1, 2, 4)) == 7


@pytest.mark.parametrize("faces, dice", [(3, 2), (4, 3), (3, 4), (2, 3)])
def test_small_boxes_score_alike_in_the_solver_and_the_oracle(faces, dice):
    """Every kind of box the reduced test games use, on every roll."""
    boxes = [upper("ones", 1), upper("twos", 2), Box("chance", BoxKind.CHANCE),
             groups("pair", (2,)), groups("pair_all", (2,), sum_all=True),
             groups("pairs", (2, 2)), groups("pairs_any", (2, 2), distinct=False),
             groups("fh", (2, 1), sum_all=True), groups("all", (dice,), points=20),
             groups("one", (1,), points=3), straight("run", ((1, 2), (2, faces)), 7),
             straight("long", (tuple(range(1, faces + 1)),), 11)]
    for d in oracle.sorted_rolls(dice, faces):
        for box in boxes:
            assert box.score(oracle.counts(d, faces)) == oracle.points(box, d), (box.name, d)


def test_solver_scores_do_not_depend_on_the_order_of_the_dice():
    """The dice as rolled (unsorted) reach the solver's score table through
    ``roll_index``; the oracle scores them unsorted too."""
    rules = parse_rules("nordic")
    ds = rules.dice_space
    for dice in itertools.islice(itertools.product(range(1, 7), repeat=5), 0, None, 7):
        r = ds.roll_index(dice)
        for name, score in oracle.NORDIC.items():
            assert rules.scores[r, rules.box_index(name)] == score(dice), (dice, name)
