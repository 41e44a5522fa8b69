"""yatzy.research.distribution: the exact final-score distribution, against a
whole-game brute force, the table, the golden figures and a double sum."""

import numpy as np
import pytest
from golden import DISTRIBUTIONS, rounds_to
from small_games import (
    SMALL,
    TINY,
    assert_same,
    card,
    final_scores,
    joker_game,
    optimal,
    simple,
)

from yatzy.errors import InputError
from yatzy.position.scorecard import Scorecard
from yatzy.research.distribution import distribution
from yatzy.rules.ruleset import parse_rules
from yatzy.tables.store import open_table


def test_distribution_sums_to_one_and_its_mean_is_the_table_value(small):
    for text in ["", "ones=2", "threes=9,chance=11", "ones=3,twos=6,threes=3"]:
        sc = card(small, text)
        d = distribution(SMALL, sc, small.values)
        assert d.pmf.sum() == pytest.approx(1.0, abs=1e-12)
        assert d.mean == pytest.approx(sc.score + small.value(sc.mask, sc.upper_state), abs=1e-9)
        assert d.table_value == pytest.approx(sc.score + small.value(sc.mask, sc.upper_state),
                                              abs=1e-12)


def test_distribution_equals_brute_force_on_a_tiny_game(tiny):
    pmf, bonus = final_scores(TINY, lambda *a: optimal(tiny, *a))
    assert_same(distribution(TINY, card(tiny), tiny.values), pmf, bonus)


@pytest.mark.parametrize("joker, bonus", [("forced", 30), ("free", 30), ("none", 30),
                                          ("forced", 0)])
def test_distribution_equals_brute_force_with_jokers_and_yahtzee_bonus(joker, bonus, tmp_path):
    rules = joker_game(joker, bonus)
    table = open_table(rules, tmp_path, progress=False)
    pmf, upper_bonus = final_scores(rules, lambda *a: optimal(table, *a))
    d = distribution(rules, Scorecard.empty(rules), table.values)
    assert_same(d, pmf, upper_bonus)
    assert d.mean == pytest.approx(table.expected_score, abs=1e-9)
    if bonus:                                # a further yahtzee happens
        assert max(pmf) > sum(max(rules.box_points[b]) for b in range(rules.n_boxes)) + 5
    pmf, upper_bonus = final_scores(rules, lambda *a: simple(rules, *a))
    assert_same(distribution(rules, Scorecard.empty(rules), None, "simple"), pmf, upper_bonus)


def test_box_figures_add_up(small):
    d = distribution(SMALL, card(small), small.values)
    upper = [SMALL.box_index(n) for n in ("ones", "twos", "threes")]
    lower = [b for b in range(SMALL.n_boxes) if b not in upper]
    bonus = SMALL.bonus_points * d.bonus_probability
    assert d.box_mean[upper].sum() + d.box_mean[lower].sum() + bonus == pytest.approx(
        d.mean, abs=1e-9)
    assert d.box_nonzero[SMALL.box_index("chance")] == pytest.approx(1.0)   # chance always scores
    assert np.all((d.box_nonzero >= 0) & (d.box_nonzero <= 1 + 1e-12))


def _assert_golden(d, spec):
    g = DISTRIBUTIONS[spec]
    assert rounds_to(d.mean, g["mean"]) and rounds_to(d.sd, g["sd"]), g["source"]
    assert {q: d.percentile(int(q)) for q in g["percentiles"]} == g["percentiles"]
    assert rounds_to(d.bonus_probability, g["bonus"])
    if "yahtzee_bonus_mean" in g:
        assert rounds_to(d.yahtzee_bonus_mean, g["yahtzee_bonus_mean"])


def test_nordic_distribution_matches_published_figures(nordic):
    """SD 38.496, median 249, 5th-95th percentile 179-309, bonus 89.81 %."""
    d = distribution(nordic.rules, card(nordic), nordic.values)
    assert abs(d.mean - nordic.expected_score) < 1e-9
    assert d.pmf.sum() == pytest.approx(1.0, abs=1e-12)
    _assert_golden(d, "nordic")
    assert d.at_least(0) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("spec", [s for s, g in DISTRIBUTIONS.items()
                                  if g["run"] and s != "nordic"])
def test_distribution_matches_golden_figures(spec, tables_dir):
    table = open_table(parse_rules(spec), tables_dir, progress=False)
    d = distribution(table.rules, card(table), table.values)
    assert abs(d.mean - table.expected_score) < 1e-9
    _assert_golden(d, spec)


def test_distribution_from_a_card_starts_at_its_score(small):
    sc = card(small, "ones=3,twos=6,threes=3,chance=15")     # bonus already earned
    d = distribution(SMALL, sc, small.values)
    assert d.bonus_probability == 1.0
    assert np.flatnonzero(d.pmf)[0] == sc.score               # pair and yatzy may be 0
    assert d.box_mean[SMALL.box_index("ones")] == 3
    assert d.box_nonzero[SMALL.box_index("yatzy")] < 1


def test_head_to_head_chances(small):
    """Distribution.versus against a double sum over both pmfs."""
    best = distribution(SMALL, card(small), small.values)
    simple_play = distribution(SMALL, card(small), None, "simple")
    win, tie, loss = simple_play.versus(best)
    pairs = [(a, b, p * q) for a, p in enumerate(simple_play.pmf) for b, q in enumerate(best.pmf)]
    assert win == pytest.approx(sum(w for a, b, w in pairs if a > b), abs=1e-12)
    assert tie == pytest.approx(sum(w for a, b, w in pairs if a == b), abs=1e-12)
    assert loss == pytest.approx(sum(w for a, b, w in pairs if a < b), abs=1e-12)
    assert 0 < win < loss
    w, t, lo = best.versus(best)
    assert w == pytest.approx(lo, abs=1e-12) and w + t + lo == pytest.approx(1.0, abs=1e-12)


def test_an_impossible_card_is_an_input_error(small):
    with pytest.raises(InputError):
        distribution(SMALL, card(small, "ones=1,twos=2,threes=3,one_pair=2,chance=3,yatzy=0"),
                     small.values)
