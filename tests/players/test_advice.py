"""Advice for positions: values of every action, ties, and consistency with the table."""

import numpy as np
import pytest
from golden import OPTIMA, rounds_to

from yatzy.errors import InputError
from yatzy.players.advice import expected_final_score, keep_values, scoring_values
from yatzy.players.strategy import advise
from yatzy.position.scorecard import Scorecard
from yatzy.space import state_space


def card(nordic, text=""):
    return Scorecard.parse(text, nordic.rules)


def test_start_value_is_published_optimum(nordic):
    assert rounds_to(nordic.expected_score, OPTIMA["nordic"]["published"])
    assert expected_final_score(nordic, card(nordic)) == nordic.expected_score


def test_turn_start_value_is_average_of_best_first_roll_actions(nordic):
    """V(state) = sum over first rolls of P(roll) * value of the best action."""
    rules = nordic.rules
    ds = rules.dice_space
    for text in ["", "ones=3,two_pairs=18,yatzy=0", "sixes=24,fives=15,chance=22,one_pair=12"]:
        sc = card(nordic, text)
        total = 0.0
        for r in range(ds.n_rolls):
            adv = advise(nordic, sc, ds.dice_of(ds.first_roll + r), rules.rolls - 1)
            total += ds.roll_prob[r] * adv.best.expected_final_score
        assert abs(total - expected_final_score(nordic, sc)) < 1e-9


def test_scoring_action_values_follow_the_table(nordic):
    sc = card(nordic, "sixes=18")                     # upper total 18
    adv = advise(nordic, sc, (6, 6, 6, 6, 2), 0)
    by_box = {a.box: a for a in adv.actions}
    v = nordic.values
    six, four = 5, 9
    assert by_box["four_of_a_kind"].expected_final_score == pytest.approx(
        sc.score + 24 + v[sc.mask | 1 << four, 18], abs=1e-12)
    assert by_box["twos"].points == 2
    assert by_box["twos"].expected_final_score == pytest.approx(
        sc.score + 2 + v[sc.mask | 1 << 1, 20], abs=1e-12)
    assert "sixes" not in by_box                       # already filled
    assert {a.kind for a in adv.actions} == {"score"}  # no rerolls left
    assert six == sc.rules.box_index("sixes")


def test_bonus_counts_when_upper_total_reaches_threshold(nordic):
    sc = card(nordic, "ones=3,twos=6,threes=9,fours=12,fives=15")   # 45: sixes=18 reaches 63
    adv = advise(nordic, sc, (6, 6, 6, 1, 2), 0)
    sixes = next(a for a in adv.actions if a.box == "sixes")
    rest = nordic.values[sc.mask | 1 << 5, 63]
    assert sixes.expected_final_score == pytest.approx(45 + 18 + 50 + rest, abs=1e-12)


def test_actions_are_distinct_sorted_and_losses_relative_to_best(nordic):
    adv = advise(nordic, card(nordic), (1, 1, 2, 5, 6), 2)
    keeps = [a.dice for a in adv.actions if a.kind == "keep"]
    assert len(keeps) == len(set(keeps)) == 2 * 2 * 2 * 3 - 1   # sub-multisets minus keep-all
    values = [a.expected_final_score for a in adv.actions]
    assert values == sorted(values, reverse=True)
    best = adv.best.expected_final_score
    for a in adv.actions:
        assert a.loss == pytest.approx(best - a.expected_final_score, abs=1e-9)
    assert adv.best.kind == "keep"


def test_last_box_values_and_ties_against_the_sum_of_the_dice(nordic):
    """Only chance open, 6 6 6 6 6 with one reroll: scoring is worth 30, a keep
    K is worth sum(K) + 3.5 per rerolled die (the reroll then goes in chance),
    so nothing ties with scoring and each loss is known in closed form."""
    sc = card(nordic, ",".join(f"{b.name}=0" for b in nordic.rules.boxes if b.name != "chance"))
    adv = advise(nordic, sc, (6, 6, 6, 6, 6), 1)
    assert adv.best.kind == "score" and adv.best.box == "chance" and adv.best.points == 30
    assert adv.best.expected_final_score == pytest.approx(30.0, abs=1e-9)
    assert adv.ties() == (adv.best,)
    keeps = [a for a in adv.actions if a.kind == "keep"]
    assert sorted(len(a.dice) for a in keeps) == [0, 1, 2, 3, 4]   # keep 6 6 6 6 6 not listed
    for a in keeps:
        value = sum(a.dice) + 3.5 * (5 - len(a.dice))
        assert a.expected_final_score == pytest.approx(value, abs=1e-9)
        assert a.loss == pytest.approx(30.0 - value, abs=1e-9) and a.loss > 0


def test_keep_values_agree_with_direct_expectation(nordic):
    """W_1(K) = E over the reroll of the best box: check one keep by enumeration."""
    import itertools
    sc = card(nordic, "yatzy=50")
    rules = nordic.rules
    ds = rules.dice_space
    boxes, _, now = scoring_values(nordic, sc)
    best_now = now.max(axis=1)
    w1 = keep_values(nordic, sc, 1)
    keep = (6, 6, 6)
    total = 0.0
    for extra in itertools.product(range(1, 7), repeat=2):
        total += best_now[ds.roll_index(keep + extra)] / 36
    assert w1[ds.multiset_index(keep)] == pytest.approx(total, abs=1e-12)


def test_full_card_and_bad_rerolls_are_rejected(nordic):
    full = card(nordic, ",".join(f"{b.name}=0" for b in nordic.rules.boxes))
    with pytest.raises(InputError, match="full"):
        advise(nordic, full, (1, 2, 3, 4, 5), 0)
    with pytest.raises(InputError, match="rerolls"):
        advise(nordic, card(nordic), (1, 2, 3, 4, 5), 3)


def test_values_are_finite_on_every_reachable_state(nordic):
    rules = nordic.rules
    v = np.asarray(nordic.values)
    for layer in state_space(rules).layers:
        lanes = state_space(rules).upper_lanes[layer]
        for mask, n in zip(layer, lanes):
            assert np.isfinite(v[mask, :n]).all()


def test_compiled_keep_values_agree_with_query(nordic):
    """The engine's one-state kernel and the numpy query layer agree."""
    from yatzy.tables import build as engine
    for text in ["", "ones=3,two_pairs=18", "sixes=24,fives=15,chance=22,yatzy=0"]:
        sc = card(nordic, text)
        for rerolls in (1, 2):
            fast = engine.compiled_keep_values(nordic.rules, nordic, sc.mask, sc.upper_state, rerolls)
            assert np.abs(fast - keep_values(nordic, sc, rerolls)).max() < 1e-9


def test_tied_boxes_come_in_scorecard_order(nordic):
    """Scratching any of several boxes worth exactly the same ranks them in
    scorecard order (the documented tie rule)."""
    from yatzy.position.actions import Action
    from yatzy.rules.ties import preference, ranking
    rules = nordic.rules
    acts = [(Action.parse(f"score {b} (0)"), preference(rules, box=rules.box_index(b)), v)
            for b, v in [("ones", 10.0), ("twos", 10.0 + 5e-10), ("chance", 10.0 - 1e-10)]]
    acts.append((Action.keep((6,)), preference(rules, keep=(6,)), 10.0 + 8e-10))
    acts.append((Action.keep((5, 6)), preference(rules, keep=(5, 6)), 10.0))
    order = ranking([v for _, _, v in acts], [c for _, c, _ in acts])
    assert [str(acts[i][0]) for i in order] == ["score ones (0)", "score twos (0)",
                                                "score chance (0)", "keep 5 6", "keep 6"]
